/**
 * Data flows one way (docs/design.md#the-flow): no module of src/ or assembly/ imports, directly or through others, a
 * module that imports it back, types included (a type-only cycle still says two modules share one job).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

// `import … from '…'`, `export … from '…'` and `import '…'`, over several lines; relative specifiers only.
const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^;'"]*?(?:from\s*)?['"](\.{1,2}\/[^'"]+)['"]/g;

/** The files of the project that `file` imports: `./x.js` in src/ and `./x` in assembly/ both name `x.ts`. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((match) => {
    const target = resolve(dirname(file), match[1] as string);
    return target.replace(/\.js$/, '').replace(/\.ts$/, '') + '.ts';
  });
}

/** Every cycle's files, as paths from the root, found by a depth-first search over the import graph. */
function cyclesIn(files: readonly string[]): string[][] {
  const known = new Set(files);
  const graph = new Map(files.map((file) => [file, importsOf(file).filter((target) => known.has(target))]));
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const target of graph.get(file) ?? []) {
      if (state.get(target) === 'open') cycles.push([...stack.slice(stack.indexOf(target)), target].map((path) => relative(root, path)));
      else if (state.get(target) === undefined) visit(target);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (state.get(file) === undefined) visit(file);
  return cycles;
}

describe('imports', () => {
  it('form no cycle in src/', () => {
    expect(cyclesIn(sourceFiles(join(root, 'src')))).toEqual([]);
  });

  it('form no cycle in assembly/', () => {
    expect(cyclesIn(sourceFiles(join(root, 'assembly')))).toEqual([]);
  });

  it('are all read by the check: a file that imports others has them in its graph', () => {
    // Guards the pattern above: were it to miss imports, no cycle could ever be found.
    expect(importsOf(join(root, 'assembly/filter/line-scanner.ts'))).toContain(join(root, 'assembly/matcher.ts'));
    expect(importsOf(join(root, 'src/engine/automaton.ts'))).toEqual(
      expect.arrayContaining([join(root, 'src/layout.ts'), join(root, 'src/compile/automaton-section.ts')]),
    );
    expect(importsOf(join(root, 'src/engine/matcher.ts'))).toEqual(
      expect.arrayContaining([join(root, 'src/layout.ts'), join(root, 'src/engine/automaton.ts'), join(root, 'src/engine/url-path.ts')]),
    );
  });
});
