/**
 * lintRobotsTxt(): what a robots.txt file gets wrong, as Google, RFC 9309, Yandex and the 1994 readers
 * each read it. It reads the file with the library's own line and record readers (src/parse/), so it sees
 * exactly what the parser sees, and never throws on any input.
 */
import { checkByteOrderMarks, checkEncoding, checkHtml, checkSize } from './check-file.js';
import { checkExtensions } from './check-extensions.js';
import { checkAgents, checkBlankLines, checkDisallowAll, checkGoogleCrawlDelay, checkOrphans } from './check-groups.js';
import { checkKeys } from './check-keys.js';
import { checkRules } from './check-rules.js';
import { LintContext } from './context.js';
import { SEVERITY_RANK, type LintDiagnostic, type LintOptions } from './diagnostic.js';
import { groupRecords } from './groups.js';
import { readFile } from './records.js';
import { LintSource } from './source.js';

function runChecks(context: LintContext): void {
  checkSize(context);
  checkEncoding(context);
  // An HTML page yields a finding per line that would only bury the one that matters.
  if (checkHtml(context)) return;
  const bomLines = checkByteOrderMarks(context);
  checkKeys(context, bomLines);
  checkOrphans(context);
  checkAgents(context);
  checkBlankLines(context);
  checkRules(context);
  checkExtensions(context);
  checkGoogleCrawlDelay(context);
  checkDisallowAll(context);
}

/**
 * The findings for `body`, in file order (file-wide ones, line 0, first).
 *
 * @example
 * import { lintRobotsTxt } from 'robotstxt-wasm';
 * lintRobotsTxt('Disallow: /x\n').map((d) => d.code); // ['rule-before-user-agent']
 * lintRobotsTxt('User-agent: *\nDisallow: /\n', { minSeverity: 'warning' }); // []
 */
export function lintRobotsTxt(body: string | Uint8Array, options: LintOptions = {}): LintDiagnostic[] {
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) {
    throw new TypeError(`Expected the robots.txt body as a string or a Uint8Array, got ${body === null ? 'null' : typeof body}`);
  }
  const source = new LintSource(body);
  const file = readFile(source);
  const context = new LintContext(source, file, groupRecords(source, file.records));
  runChecks(context);
  const disabled = new Set(options.disable ?? []);
  const floor = SEVERITY_RANK[options.minSeverity ?? 'info'];
  if (floor === undefined)
    throw new RangeError(`minSeverity must be 'error', 'warning' or 'info', got ${JSON.stringify(options.minSeverity)}`);
  return context.diagnostics
    .filter((diagnostic) => !disabled.has(diagnostic.code) && SEVERITY_RANK[diagnostic.severity] >= floor)
    .sort((a, b) => a.line - b.line || a.column - b.column);
}
