/** What every check is given: the file, its records and groups, and where to report. */
import { LINT_CODES, type LintCode } from './codes.js';
import type { LintDiagnostic } from './diagnostic.js';
import type { Grouping } from './groups.js';
import type { LintRecord, ReadFile } from './records.js';
import type { LintSource } from './source.js';

export class LintContext {
  readonly diagnostics: LintDiagnostic[] = [];

  constructor(
    readonly source: LintSource,
    readonly file: ReadFile,
    readonly grouping: Grouping,
  ) {}

  get records(): readonly LintRecord[] {
    return this.file.records;
  }

  /** A finding at body[offset] on `line`. */
  at(code: LintCode, line: number, offset: number, message: string, hint?: string): void {
    this.push(code, line, this.source.column(line, offset), message, hint);
  }

  /** A finding about the file as a whole (line 0). */
  whole(code: LintCode, message: string, hint?: string): void {
    this.push(code, 0, 0, message, hint);
  }

  private push(code: LintCode, line: number, column: number, message: string, hint: string | undefined): void {
    const diagnostic: LintDiagnostic = { code, severity: LINT_CODES[code], line, column, message };
    this.diagnostics.push(hint === undefined ? diagnostic : { ...diagnostic, hint });
  }

  /** The record's value, decoded. */
  value(record: LintRecord): string {
    return this.source.text(record.valueStart, record.valueEnd);
  }
}

/** Shown back to the user: quoted, and cut when long (a hostile file could hold megabyte-long lines). */
export function quote(text: string, limit = 80): string {
  const cut = [...text];
  return JSON.stringify(cut.length > limit ? `${cut.slice(0, limit).join('')}…` : text);
}
