/**
 * The real-world corpus (4,231 robots.txt files as sites served them, with a README of its own), found the same
 * way by every test and benchmark: `ROBOTS_CORPUS` when set and not empty, else the corpus folder beside the
 * repository (DEFAULT_DIRECTORY below). This is the one place that rule lives: the tests' helper
 * (test/support/corpus.ts) imports it and adds what needs vitest. It is plain JavaScript, typed in JSDoc, so that
 * the benchmarks run on plain Node.
 *
 * @example
 * if (corpusDirectory() !== undefined) for (const { name, body } of loadCorpus()) parseRobotsTxt(body);
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * One corpus file: its name (the host that served it) and its bytes, exactly as served.
 * @typedef {{ readonly name: string, readonly body: Uint8Array }} CorpusFile
 */

// bench/ → the repository root → its parent, resolved from this file so the working directory does not matter.
const DEFAULT_DIRECTORY = fileURLToPath(new URL('../../shared/corpus/robots', import.meta.url));

/** Where the corpus should be, whether or not it is there. @returns {string} */
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

/** @type {Map<string, readonly CorpusFile[]>} */
const loaded = new Map();

/**
 * Every corpus file as raw bytes (they need not be valid UTF-8), sorted by name in code unit order (so the
 * order is the same everywhere). Read once per process and directory; each call returns a fresh array. Throws
 * when the corpus is absent: check corpusDirectory() first.
 * @returns {CorpusFile[]}
 */
export function loadCorpus() {
  const directory = corpusDirectory();
  if (directory === undefined) throw new Error(`robots corpus not found at ${expectedDirectory()}; set ROBOTS_CORPUS`);
  let files = loaded.get(directory);
  if (files === undefined) {
    files = readdirSync(directory, { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((name) => {
        const buffer = readFileSync(join(directory, name));
        // A plain Uint8Array view of the file (not a Buffer, whose methods differ), without copying.
        return { name, body: new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength) };
      });
    loaded.set(directory, files);
  }
  return [...files];
}
