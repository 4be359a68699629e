/**
 * Ends a test run with one plain line, `Tests: N passed, N failed, N skipped`, which CI reads as the run's
 * result (vitest's own summary is not in a form it knows).
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const count = { passed: 0, failed: 0, skipped: 0, pending: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) count[test.result().state] += 1;
    }
    process.stdout.write(`\nTests: ${count.passed} passed, ${count.failed} failed, ${count.skipped + count.pending} skipped\n`);
  }
}
