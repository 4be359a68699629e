/**
 * The real-world corpus, found by the same rule as test/support/corpus.ts (which this mirrors; that one is
 * TypeScript and imports vitest, so the benchmarks, plain Node, cannot load it): `ROBOTS_CORPUS` when set
 * and not empty, else `../shared/corpus/robots` beside the repository. Keep the two in step.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// bench/ → the repository root → its parent, resolved from this file so the working directory does not matter.
const DEFAULT_DIRECTORY = fileURLToPath(new URL('../../shared/corpus/robots', import.meta.url));

/** Where the corpus should be, whether or not it is there. */
export function expectedDirectory() {
  const fromEnvironment = process.env.ROBOTS_CORPUS;
  return fromEnvironment !== undefined && fromEnvironment !== '' ? resolve(fromEnvironment) : DEFAULT_DIRECTORY;
}

/** @returns {string | undefined} the corpus directory, or undefined when it is absent */
export function corpusDirectory() {
  const directory = expectedDirectory();
  try {
    return statSync(directory).isDirectory() ? directory : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every corpus file as raw bytes, sorted by name in code unit order (the same order everywhere).
 * @returns {{ name: string, body: Uint8Array }[]}
 */
export function loadCorpus() {
  const directory = corpusDirectory();
  if (directory === undefined) throw new Error(`robots corpus not found at ${expectedDirectory()}; set ROBOTS_CORPUS`);
  return readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => {
      const buffer = readFileSync(join(directory, name));
      // A plain Uint8Array view (not a Buffer, whose methods differ), as the test helper returns.
      return { name, body: new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength) };
    });
}
