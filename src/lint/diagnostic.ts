/** What the linter reports: one finding, its place in the file, and how much it matters. */

/**
 * - `error`: a line cannot do what it was written to do for the crawlers that matter (it is ignored, or
 *   matches nothing, or hides the rest of the file);
 * - `warning`: crawlers read the line differently (Google, RFC 9309, Yandex, the 1994 readers);
 * - `info`: style and advice; nothing is lost.
 */
export type LintSeverity = 'error' | 'warning' | 'info';

/**
 * One finding.
 *
 * @example
 * import { lintRobotsTxt } from 'robotstxt-wasm';
 * const found = lintRobotsTxt('User-agent: *\nDisallow: private/\n');
 * found.map((d) => [d.code, d.severity, d.line, d.column]); // [['pattern-not-path', 'error', 2, 11]]
 * found.map((d) => d.hint); // ['write the path from the root: Disallow: /private/']
 */
export interface LintDiagnostic {
  /** Stable kebab-case code (see LINT_CODES). */
  readonly code: string;
  /** How much it matters: the code's one severity (see LINT_CODES). */
  readonly severity: LintSeverity;
  /** 1-based line; 0 for the file as a whole. */
  readonly line: number;
  /** 1-based column in Unicode code points of the decoded line; 0 when `line` is 0. */
  readonly column: number;
  /** What is wrong and why it matters, in one sentence naming the line's own values. */
  readonly message: string;
  /** What to write instead, when there is something to write. */
  readonly hint?: string;
}

/**
 * Options of lintRobotsTxt(): which findings to report, and how much of the body to read.
 *
 * @example
 * import { lintRobotsTxt } from 'robotstxt-wasm';
 * const body = 'User-agent: *\nDisallow: /a\n\nDisallow: /b\n';
 * lintRobotsTxt(body).map((d) => d.code); // ['blank-line-in-group']
 * lintRobotsTxt(body, { minSeverity: 'warning' }); // []
 * lintRobotsTxt(body, { disable: ['blank-line-in-group'] }); // []
 */
export interface LintOptions {
  /** Codes not to report; codes the linter does not know are ignored, so a list written for a later version still works. */
  readonly disable?: readonly string[];
  /** Report nothing below this severity. Default `'info'` (everything). */
  readonly minSeverity?: LintSeverity;
  /**
   * Bytes of the body that are linted: a whole number, or `Infinity` for all of them. Default
   * {@link DEFAULT_LINT_MAX_BYTES}. A longer body is linted up to there (a line the limit cuts is left out, as the
   * parser leaves it) and reported as `file-too-large` with its whole length.
   */
  readonly maxBytes?: number;
}

/**
 * What lintRobotsTxt() reads of a body unless told otherwise: twice the parser's 500 KiB, so that what lies past
 * Google's limit is seen and reported, while a service that lints uploaded files spends bounded time on each.
 */
export const DEFAULT_LINT_MAX_BYTES = 1_024_000;

/** Higher is more severe: for --min-severity and for sorting summaries. */
export const SEVERITY_RANK: Readonly<Record<LintSeverity, number>> = { info: 0, warning: 1, error: 2 };
