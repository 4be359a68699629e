/**
 * Ends a test run with one plain line, `Tests: N passed, N failed, N skipped`, which CI reads as the run's
 * result (vitest's own summary is not in a form it knows). A test file that fails outside its tests (it does
 * not load, a suite-level hook throws, or a suite refuses to run without a program CI must have) counts as a
 * failed test, and so does each error no test caught: else the line could say "0 failed" for a failed run.
 */
import type { Reporter, SerializedError, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const count = { passed: 0, failed: 0, skipped: 0, pending: 0 };
    for (const module of testModules) {
      const before = count.failed;
      for (const test of module.children.allTests()) count[test.result().state] += 1;
      if (count.failed === before && module.errors().length > 0) count.failed += 1;
    }
    count.failed += unhandledErrors.length;
    process.stdout.write(`\nTests: ${count.passed} passed, ${count.failed} failed, ${count.skipped + count.pending} skipped\n`);
  }
}
