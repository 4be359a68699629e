/**
 * What changes between two versions of a file for the URLs and crawlers under test: every URL × crawler × reading
 * whose verdict differs, and nothing else.
 */
import type { Column, Matrix } from './matrix.js';

export interface VerdictChange {
  readonly url: string;
  readonly column: Column;
  readonly before: boolean;
  readonly after: boolean;
  /** The lines that decided, before and after (0: no rule decided). */
  readonly beforeLine: number;
  readonly afterLine: number;
}

/** The changed verdicts, URL by URL in input order, then column by column; `after` is the current matrix. */
export function changedVerdicts(before: Matrix, after: Matrix): VerdictChange[] {
  const changes: VerdictChange[] = [];
  after.urls.forEach((url, row) => {
    after.columns.forEach((column, index) => {
      const was = before.cells[row]?.[index]?.explanation;
      const now = after.cells[row]?.[index]?.explanation;
      if (was === undefined || now === undefined || was.allowed === now.allowed) return;
      changes.push({ url, column, before: was.allowed, after: now.allowed, beforeLine: was.line, afterLine: now.line });
    });
  });
  return changes;
}
