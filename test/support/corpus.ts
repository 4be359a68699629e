/**
 * The real-world corpus (4,231 robots.txt files as sites served them, /work/shared/corpus/README.md), found
 * the same way by every test and benchmark: `ROBOTS_CORPUS` if set, else `../shared/corpus/robots` beside
 * the repository. The corpus is shared, not part of the repository, so suites that need it are skipped
 * (visibly) where it is absent instead of failing.
 *
 * @example
 * describeCorpus('the corpus', () => {
 *   it('parses every file', () => { for (const { body } of loadCorpus()) parseRobotsTxt(body); });
 * });
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';

/** One corpus file: its name (the host that served it) and its bytes, exactly as served. */
export interface CorpusFile {
  readonly name: string;
  readonly body: Uint8Array;
}

// Resolved from this file, so that it does not depend on the working directory:
// test/support/ → test/ → the repository root → its parent.
const DEFAULT_DIRECTORY = fileURLToPath(new URL('../../../shared/corpus/robots', import.meta.url));

/** Where the corpus should be: ROBOTS_CORPUS when set (and not empty), else the default location. */
function expectedDirectory(): string {
  const fromEnvironment = process.env.ROBOTS_CORPUS;
  return fromEnvironment !== undefined && fromEnvironment !== '' ? resolve(fromEnvironment) : DEFAULT_DIRECTORY;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The corpus directory, or undefined when it is absent. */
export function corpusDirectory(): string | undefined {
  const directory = expectedDirectory();
  return isDirectory(directory) ? directory : undefined;
}

function missingNote(): string {
  return `robots corpus not found at ${expectedDirectory()}; set ROBOTS_CORPUS to run the corpus tests`;
}

const loaded = new Map<string, readonly CorpusFile[]>();

/**
 * Every corpus file as raw bytes (they need not be valid UTF-8), sorted by name (code unit order, so the
 * order is the same everywhere). Read once per process and directory. Throws when the corpus is absent:
 * check corpusDirectory() first, or use describeCorpus().
 */
export function loadCorpus(): CorpusFile[] {
  const directory = corpusDirectory();
  if (directory === undefined) throw new Error(missingNote());
  let files = loaded.get(directory);
  if (files === undefined) {
    const names = readdirSync(directory, { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    files = names.map((name) => {
      const buffer = readFileSync(join(directory, name));
      // A plain Uint8Array view of the file (not a Buffer, whose methods differ), without copying.
      return { name, body: new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength) };
    });
    loaded.set(directory, files);
  }
  return [...files];
}

let warned = false;

/**
 * A vitest `describe` block that runs only where the corpus exists; elsewhere it is reported as skipped,
 * with a note (printed once per process) saying where the corpus was looked for.
 */
export function describeCorpus(title: string, fn: () => void): void {
  if (corpusDirectory() !== undefined) {
    describe(title, fn);
    return;
  }
  if (!warned) {
    warned = true;
    console.warn(missingNote());
  }
  describe.skip(title, fn);
}
