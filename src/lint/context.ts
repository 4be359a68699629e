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
    /** The codes to report: those neither disabled nor below the severity asked for. */
    private readonly enabled: ReadonlySet<LintCode>,
  ) {}

  /** Whether any of `codes` is reported: a check none of whose codes is wanted is not run at all. */
  wants(codes: readonly LintCode[]): boolean {
    return codes.some((code) => this.enabled.has(code));
  }

  get records(): readonly LintRecord[] {
    return this.file.records;
  }

  /** A finding at body[offset] on `line`. */
  at(code: LintCode, line: number, offset: number, message: string, hint?: string): void {
    if (!this.enabled.has(code)) return;
    this.push(code, line, this.source.column(line, offset), message, hint);
  }

  /** A finding about the file as a whole (line 0). */
  whole(code: LintCode, message: string, hint?: string): void {
    if (!this.enabled.has(code)) return;
    this.push(code, 0, 0, message, hint);
  }

  private push(code: LintCode, line: number, column: number, message: string, hint: string | undefined): void {
    const severity = LINT_CODES[code];
    // Literals, not a spread of one into the other: a spread costs ten times as much, and a file of short bad lines has a finding on each.
    this.diagnostics.push(hint === undefined ? { code, severity, line, column, message } : { code, severity, line, column, message, hint });
  }

  /** The record's value, decoded. */
  value(record: LintRecord): string {
    return this.source.text(record.valueStart, record.valueEnd);
  }
}

/** Shown back to the user: quoted, and cut when long (a hostile file could hold megabyte-long lines). */
export function quote(text: string, limit = 80): string {
  return JSON.stringify(shorten(text, limit));
}

/** `text` cut after `limit` code points, with "…" where it was cut. */
export function shorten(text: string, limit = 80): string {
  // Counted up to the limit, never over the whole text: a line can be 16 KB, and one finding is quoted per line.
  let end = 0;
  for (let points = 0; points < limit && end < text.length; points++) end += (text.codePointAt(end) as number) > 0xffff ? 2 : 1;
  return end < text.length ? `${text.slice(0, end)}…` : text;
}
