/**
 * House rules a reader of the tree relies on (docs/design.md#the-flow): no source file so long that it holds
 * more than one job, and no comment that sends the reader somewhere a clone of the repository does not
 * have. The design is cited as docs/design.md#<anchor> and the specification by its public name (RFC 9309
 * §2.2.2, Google's documentation), never as a tracker's issue number, a DESIGN.md section or a path into a
 * folder beside the repository.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const self = fileURLToPath(import.meta.url);

/** Longest a file of src/ or assembly/ may be; past it, split the file by job (not by line count). */
const MAX_SOURCE_LINES = 600;

/** Folders that are built, installed or generated, not written. */
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', 'build', 'coverage']);
const TEXT_FILE = /\.(?:[cm]?[jt]s|json|md|txt|toml|ya?ml|html|sh|example)$/;

function filesUnder(directory: string, wanted: RegExp): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name.startsWith('.') || SKIPPED_DIRECTORIES.has(entry.name) ? [] : filesUnder(path, wanted);
    return wanted.test(entry.name) ? [path] : [];
  });
}

function lineCount(text: string): number {
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}

/** What a reader who cloned the repository cannot follow, each with what it looks like. */
const CITATIONS: readonly (readonly [string, RegExp])[] = [
  ['an issue number', /\bissues? #?\d+/i],
  ['a DESIGN.md section', /\bDESIGN(?:\.md)?\b/],
  ['a path into ../shared/', /(?:\.\.\/|[\s`'"(])shared\//],
];

/**
 * A path the code opens is not a citation: the corpus's default directory (harness/corpus.mjs) is beside
 * the repository, where a checkout of the project keeps it.
 */
const OPENED_PATH = /new URL\((['"])(?:\.\.\/)+shared\/[^'"]*\1/g;

/** A line that asserts a citation is absent (`expect(text).not.toMatch(/DESIGN…/)`) guards against one. */
const ABSENCE_ASSERTED = /\.not\.toMatch\(/;

/** Every citation in `text`: `line: what (the text)`. */
function citationsIn(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    if (ABSENCE_ASSERTED.test(line)) return;
    const read = line.replace(OPENED_PATH, '');
    for (const [what, pattern] of CITATIONS) {
      const match = pattern.exec(read);
      if (match) found.push(`${index + 1}: ${what} (${match[0].trim()})`);
    }
  });
  return found;
}

describe('the house', () => {
  it(`holds no source file of more than ${MAX_SOURCE_LINES} lines in src/ or assembly/`, () => {
    const sources = ['src', 'assembly'].flatMap((folder) => filesUnder(join(root, folder), /\.ts$/));
    expect(sources.length).toBeGreaterThan(50);
    const long = sources
      .map((path) => ({ path: relative(root, path), lines: lineCount(readFileSync(path, 'utf8')) }))
      .filter(({ lines }) => lines > MAX_SOURCE_LINES)
      .map(({ path, lines }) => `${path}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it('cites no issue number, DESIGN.md or ../shared/ in the code, the tests, the benchmarks or the docs', () => {
    const files = ['src', 'assembly', 'layout', 'scripts', 'test', 'bench', 'harness', 'examples', 'packages', 'docs']
      .flatMap((folder) => filesUnder(join(root, folder), TEXT_FILE))
      .filter((path) => !path.startsWith(join(root, 'docs', 'public', 'api'))) // TypeDoc's output, git-ignored
      .concat(['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md'].map((file) => join(root, file)))
      .filter((path) => path !== self);
    expect(files.length).toBeGreaterThan(100);
    const cited = files.flatMap((path) => citationsIn(readFileSync(path, 'utf8')).map((found) => `${relative(root, path)}:${found}`));
    expect(cited).toEqual([]);
  });

  it('finds each kind of citation, and not a path the code opens', () => {
    expect(citationsIn('// as issue 18 asked')).toEqual(['1: an issue number (issue 18)']);
    expect(citationsIn(' * (DESIGN.md §3)')).toEqual(['1: a DESIGN.md section (DESIGN.md)']);
    expect(citationsIn('// spec: README of ../shared/spec')).toEqual(['1: a path into ../shared/ (../shared/)']);
    expect(citationsIn("const DEFAULT = new URL('../../shared/corpus/robots', import.meta.url);")).toEqual([]);
    expect(citationsIn("fc.constantFrom('', '/shared/prefix/')")).toEqual([]);
    expect(citationsIn('// docs/design.md#the-flow, RFC 9309 §2.2.2')).toEqual([]);
    expect(citationsIn('expect(declarations).not.toMatch(/DESIGN\\.md|\\.\\.\\/shared/);')).toEqual([]);
  });
});
