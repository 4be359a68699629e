/**
 * The real-world corpus for the tests: where it is and how it is read come from harness/corpus.mjs, shared with
 * the benchmarks (plain Node, which cannot load this TypeScript file); this adds the vitest side. The corpus is
 * shared, not part of the repository, so suites that need it are skipped (visibly) where it is absent instead
 * of failing.
 *
 * @example
 * describeCorpus('the corpus', () => {
 *   it('parses every file', () => { for (const { body } of loadCorpus()) parseRobotsTxt(body); });
 * });
 */
import { describe } from 'vitest';
import { corpusDirectory, expectedDirectory, loadCorpus, type CorpusFile } from '../../harness/corpus.mjs';

export { corpusDirectory, loadCorpus, type CorpusFile };

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
    console.warn(`robots corpus not found at ${expectedDirectory()}; set ROBOTS_CORPUS to run the corpus tests`);
  }
  describe.skip(title, fn);
}
