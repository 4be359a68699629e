/**
 * lintRobotsTxt(): what a robots.txt file gets wrong, as Google, RFC 9309, Yandex and the 1994 readers
 * each read it. It reads the file with the library's own line and record readers (src/parse/), so it sees
 * exactly what the parser sees, and never throws on any input.
 *
 * A service may lint files strangers upload: every check is linear in the file's length, the body is read up
 * to `maxBytes`, and a check none of whose codes is wanted does not run.
 */
import { byteOrderMarks, checkByteOrderMarks, checkEncoding, checkHtml, checkSize } from './check-file.js';
import { checkExtensions } from './check-extensions.js';
import { checkAgents, checkBlankLines, checkDisallowAll, checkGoogleCrawlDelay, checkOrphans } from './check-groups.js';
import { checkKeys } from './check-keys.js';
import { checkRules, RULE_CODES } from './check-rules.js';
import { checkUsageGroups, USAGE_GROUP_CODES } from './check-usage-groups.js';
import { checkUsageLines, USAGE_LINE_CODES } from './check-usage.js';
import { LINT_CODES, type LintCode } from './codes.js';
import { LintContext } from './context.js';
import { DEFAULT_LINT_MAX_BYTES, SEVERITY_RANK, type LintDiagnostic, type LintOptions } from './diagnostic.js';
import { groupRecords } from './groups.js';
import { readFile } from './records.js';
import { LintSource } from './source.js';

/** A check and the codes it reports. */
interface Check {
  readonly codes: readonly LintCode[];
  readonly run: (context: LintContext, marks: ReadonlyMap<number, number>) => void;
}

// In the order they run; checkRules() skips its own parts by their codes.
const CHECKS: readonly Check[] = [
  { codes: ['bom-not-at-start'], run: checkByteOrderMarks },
  {
    codes: ['malformed-line', 'missing-colon', 'google-only-spelling', 'unknown-directive', 'unsupported-directive', 'line-too-long'],
    run: checkKeys,
  },
  { codes: ['rule-before-user-agent'], run: checkOrphans },
  {
    codes: ['empty-user-agent', 'user-agent-wildcard', 'user-agent-no-token', 'user-agent-version', 'yandex-agent-family'],
    run: checkAgents,
  },
  { codes: ['blank-line-before-rules', 'blank-line-in-group'], run: checkBlankLines },
  { codes: RULE_CODES, run: checkRules },
  {
    codes: ['sitemap-not-absolute', 'host-invalid', 'host-repeated', 'crawl-delay-invalid', 'clean-param-invalid', 'license-invalid'],
    run: checkExtensions,
  },
  { codes: USAGE_LINE_CODES, run: checkUsageLines },
  { codes: USAGE_GROUP_CODES, run: checkUsageGroups },
  { codes: ['crawl-delay-google'], run: checkGoogleCrawlDelay },
  { codes: ['disallow-all'], run: checkDisallowAll },
];

function runChecks(context: LintContext): void {
  if (context.wants(['file-too-large', 'file-over-yandex-limit'])) checkSize(context);
  if (context.wants(['invalid-utf8'])) checkEncoding(context);
  // An HTML page yields a finding per line that would only bury the one that matters: looked for even when
  // html-served is not wanted, since it still makes every line-by-line finding noise.
  if (checkHtml(context)) return;
  // Lines with a byte order mark inside are the mark's to explain, whether or not that finding is wanted.
  const marks = byteOrderMarks(context.source);
  for (const check of CHECKS) if (context.wants(check.codes)) check.run(context, marks);
}

function checkMaxBytes(maxBytes: unknown): number {
  if (maxBytes === Infinity || (Number.isSafeInteger(maxBytes) && (maxBytes as number) >= 0)) return maxBytes as number;
  throw new RangeError(`maxBytes must be a whole number of bytes ≥ 0 (or Infinity), got ${String(maxBytes)}`);
}

/** The codes to report: every known code less the disabled ones and those below `minSeverity`. */
function enabledCodes(options: LintOptions): Set<LintCode> {
  const floor = SEVERITY_RANK[options.minSeverity ?? 'info'];
  if (floor === undefined)
    throw new RangeError(`minSeverity must be 'error', 'warning' or 'info', got ${JSON.stringify(options.minSeverity)}`);
  const disabled = new Set(options.disable ?? []);
  const enabled = new Set<LintCode>();
  for (const [code, severity] of Object.entries(LINT_CODES) as [LintCode, keyof typeof SEVERITY_RANK][]) {
    if (!disabled.has(code) && SEVERITY_RANK[severity] >= floor) enabled.add(code);
  }
  return enabled;
}

/**
 * The findings for `body`, in file order (file-wide ones, line 0, first). At most `maxBytes` of it are linted
 * (default {@link DEFAULT_LINT_MAX_BYTES}); a longer body is reported as `file-too-large` with its whole length.
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
  const enabled = enabledCodes(options);
  const source = new LintSource(body, checkMaxBytes(options.maxBytes ?? DEFAULT_LINT_MAX_BYTES));
  const file = readFile(source);
  const context = new LintContext(source, file, groupRecords(source, file.records), enabled);
  runChecks(context);
  return context.diagnostics.sort((a, b) => a.line - b.line || a.column - b.column);
}
