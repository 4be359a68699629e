/**
 * `robotstxt lint FILE|URL…`: what each robots.txt gets wrong, as each crawler reads it. Findings as
 * `file:line:col severity code message` (with the hint below), JSON lines, or GitHub Actions annotations.
 */
import { DEFAULT_LINT_MAX_BYTES, LINT_CODES, fetchRobotsTxt, lintRobotsTxt, type LintDiagnostic, type LintSeverity } from './library.js';
import { HOST_OPTIONS, HOST_OPTIONS_HELP, HostGuard, readHostPolicy, type HostPolicy } from './host-guard.js';
import { DEFAULT_USER_AGENT, jsonLine, noteRefusal, outcomeText, statusText, writeOut } from './report.js';
import { printable } from './printable.js';
import { recordingFetch } from './recording-fetch.js';
import { cutNote, readRobotsInput } from './robots-input.js';
import { EXIT_LINT_ERRORS, EXIT_OK, oneOf, readArguments, UsageError, wholeNumber } from './usage.js';

const DEFAULT_TIMEOUT_MS = 10_000;
const FORMATS = ['text', 'jsonl', 'github'] as const;
/** `json` was lint's name for its JSON lines before every subcommand said `jsonl`; it stays. */
const FORMAT_SYNONYMS = { json: 'jsonl' } as const;
/** How `lint` reads stdin, for the message that refuses an input it does not read. */
const FROM_STDIN = 'lint -';
const SEVERITIES = ['error', 'warning', 'info'] as const satisfies readonly LintSeverity[];

export const LINT_HELP = `robotstxt lint: what a robots.txt gets wrong, as Google, RFC 9309, Yandex and the 1994 readers each read it.

Usage:
  robotstxt lint [options] FILE|URL…

Arguments:
  FILE|URL  a robots.txt file (gzip is decompressed), "-" for stdin, or an http(s) URL: then the robots.txt
            of that URL's origin is fetched the RFC 9309 way (redirects followed) and linted; a URL with no
            file to lint (4xx, 5xx, unreachable) is reported on stderr and exits 2. bzip2, xz, zstd, UTF-16
            and binary files (an image, say) are refused (exit 2) with the command that turns them into text,
            e.g. bzcat r.bz2 | robotstxt lint -

Options:
  --format text|jsonl|github the output: text (default), file:line:col severity code message, the hint below
                             it; jsonl (or json), one JSON object per finding per line, {"file","line",
                             "column","severity","code","message","hint"}; github, GitHub Actions
                             annotations (::error file=…::)
  --disable CODE,…           codes not to report (repeatable)
  --min-severity LEVEL       error, warning or info (default): report nothing below LEVEL
  --max-bytes N              bytes of each file or response linted (default ${DEFAULT_LINT_MAX_BYTES}, twice Google's
                             500 KiB, so that what lies past Google's limit is seen); a longer one is linted up
                             to there, and file-too-large and a note on stderr give its whole length
  --user-agent HEADER        the User-Agent header of robots.txt requests
                             (default "${DEFAULT_USER_AGENT}")
  --timeout MS               one deadline for each fetch (default ${DEFAULT_TIMEOUT_MS})
${HOST_OPTIONS_HELP}

Line 0 (column 0) is the file as a whole. Codes: ${Object.keys(LINT_CODES).join(', ')}.

Exit codes:
  0  no error (warnings and infos may have been reported)
  1  at least one error
  2  usage or input errors: an unknown option or code, an unreadable file, a URL with no robots.txt

Example:
  $ robotstxt lint robots.txt
  robots.txt:3:11 error pattern-not-path Disallow value "private/" does not start with "/" or "*": it matches no URL
    hint: write the path from the root: Disallow: /private/`;

const OPTIONS = {
  format: { type: 'string' },
  disable: { type: 'string', multiple: true },
  'min-severity': { type: 'string' },
  'max-bytes': { type: 'string' },
  'user-agent': { type: 'string' },
  timeout: { type: 'string' },
  ...HOST_OPTIONS,
} as const;

/** One input, linted: its name as shown, and its findings. */
interface Linted {
  readonly name: string;
  readonly diagnostics: readonly LintDiagnostic[];
}

/** How inputs are linted (lintRobotsTxt's options) and how URLs are fetched: the header, the deadline, the hosts allowed. */
interface Settings {
  readonly disable: readonly string[];
  readonly minSeverity: LintSeverity;
  /** Bytes of each input linted; the first maxBytes + 1 are read, so that the linter knows of a cut. */
  readonly maxBytes: number;
  readonly userAgent: string;
  readonly timeoutMs: number;
  readonly hosts: HostPolicy;
}

/** Findings that say how long the file is. */
const LENGTH_CODES: ReadonlySet<string> = new Set(['file-too-large', 'file-over-yandex-limit']);

/**
 * The findings for the start of an input whose whole length is `size` (undefined when unknown). Of a cut
 * input the linter sees maxBytes + 1 bytes and says "the file is <that> bytes"; the whole length, which the
 * command knows (a file's size, a Content-Length) or knows it does not, is put in its place.
 */
function lintStart(bytes: Uint8Array, settings: Settings, size: number | undefined): LintDiagnostic[] {
  const { disable, minSeverity, maxBytes } = settings;
  const diagnostics = lintRobotsTxt(bytes, { disable, minSeverity, maxBytes });
  if (bytes.length <= maxBytes) return diagnostics;
  const said = `the file is ${bytes.length} bytes`;
  const whole = size === undefined ? `the file is over ${maxBytes} bytes` : `the file is ${size} bytes`;
  return diagnostics.map((d) =>
    LENGTH_CODES.has(d.code) && d.message.startsWith(said) ? { ...d, message: `${whole}${d.message.slice(said.length)}` } : d,
  );
}

async function lintFile(path: string, settings: Settings): Promise<Linted> {
  const name = path === '-' ? '<stdin>' : path;
  const input = await readRobotsInput(path, settings.maxBytes, FROM_STDIN);
  if (input.bytes.length > settings.maxBytes) process.stderr.write(cutNote(name, input.size, settings.maxBytes, 'linted'));
  return { name, diagnostics: lintStart(input.bytes, settings, input.size) };
}

async function lintUrl(url: string, settings: Settings): Promise<Linted> {
  const guard = new HostGuard(settings.hosts);
  const recorder = recordingFetch(guard, settings.maxBytes);
  const { userAgent, timeoutMs, maxBytes } = settings;
  const options = { userAgent, timeoutMs, maxBytes, fetch: recorder.fetch, allowHost: guard.allowHost };
  const result = await fetchRobotsTxt(url, options).catch((error: unknown) => {
    // Only a URL or an option the library refuses throws; the network's troubles are outcomes.
    if (error instanceof TypeError || error instanceof RangeError) throw new UsageError(`${url}: ${error.message}`);
    throw error;
  });
  noteRefusal(result, guard);
  if (result.outcome !== 'rules') {
    throw new UsageError(`${printable(result.robotsUrl)}: ${statusText(result)}, ${outcomeText(result)}; there is no file to lint`);
  }
  result.robots.dispose();
  // The whole length is known from Content-Length, when the response had one and was not compressed.
  const size = result.bytesIgnored === undefined ? undefined : result.bytes + result.bytesIgnored;
  if (result.truncated) process.stderr.write(cutNote(result.robotsUrl, size, maxBytes, 'linted'));
  return { name: result.robotsUrl, diagnostics: lintStart(recorder.body(), settings, size) };
}

const COLOURS: Readonly<Record<LintSeverity, string>> = { error: '\x1b[31m', warning: '\x1b[33m', info: '\x1b[36m' };

function textReport(linted: readonly Linted[], colour: boolean): string {
  const lines: string[] = [];
  const counts: Record<LintSeverity, number> = { error: 0, warning: 0, info: 0 };
  for (const { name, diagnostics } of linted) {
    for (const d of diagnostics) {
      counts[d.severity]++;
      const severity = colour ? `${COLOURS[d.severity]}${d.severity}\x1b[0m` : d.severity;
      lines.push(`${printable(name)}:${d.line}:${d.column} ${severity} ${d.code} ${printable(d.message)}`);
      if (d.hint !== undefined) lines.push(`  hint: ${printable(d.hint)}`);
    }
  }
  if (lines.length === 0) return '';
  lines.push(`${counts.error} error(s), ${counts.warning} warning(s), ${counts.info} info(s)`);
  return `${lines.join('\n')}\n`;
}

function jsonReport(linted: readonly Linted[]): string {
  return linted.flatMap(({ name, diagnostics }) => diagnostics.map((d) => jsonLine({ file: name, ...d, hint: d.hint }))).join('');
}

// GitHub's workflow command syntax: data escapes %, CR and LF; property values also escape ":" and ",".
const escapeData = (text: string): string => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (text: string): string => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
const GITHUB_LEVEL: Readonly<Record<LintSeverity, string>> = { error: 'error', warning: 'warning', info: 'notice' };

function githubReport(linted: readonly Linted[]): string {
  return linted
    .flatMap(({ name, diagnostics }) =>
      diagnostics.map((d) => {
        const where = d.line === 0 ? '' : `,line=${d.line},col=${d.column}`;
        const message = d.hint === undefined ? d.message : `${d.message}\n${d.hint}`;
        return `::${GITHUB_LEVEL[d.severity]} file=${escapeProperty(name)}${where},title=${escapeProperty(d.code)}::${escapeData(message)}\n`;
      }),
    )
    .join('');
}

function readDisabled(values: readonly string[] | undefined): string[] {
  const codes = (values ?? [])
    .flatMap((value) => value.split(','))
    .map((code) => code.trim())
    .filter((code) => code !== '');
  const unknown = codes.filter((code) => !Object.hasOwn(LINT_CODES, code));
  if (unknown.length > 0) {
    throw new UsageError(
      `--disable: unknown code ${unknown.map((code) => JSON.stringify(code)).join(', ')} (the codes are listed in robotstxt lint --help)`,
    );
  }
  return codes;
}

export async function runLint(args: readonly string[]): Promise<number> {
  const { values, positionals } = readArguments('lint', args, OPTIONS);
  if (positionals.length === 0)
    throw new UsageError('lint takes FILE|URL…, got none: e.g. robotstxt lint robots.txt (see robotstxt lint --help)');
  const format = oneOf('format', values.format, FORMATS, 'text', FORMAT_SYNONYMS);
  const settings: Settings = {
    disable: readDisabled(values.disable),
    minSeverity: oneOf('min-severity', values['min-severity'], SEVERITIES, 'info'),
    maxBytes: wholeNumber('max-bytes', values['max-bytes'], DEFAULT_LINT_MAX_BYTES, 0),
    userAgent: values['user-agent'] ?? DEFAULT_USER_AGENT,
    timeoutMs: wholeNumber('timeout', values.timeout, DEFAULT_TIMEOUT_MS),
    hosts: readHostPolicy(values['allow-internal-hosts'], values['allow-network']),
  };

  const linted: Linted[] = [];
  for (const input of positionals) linted.push(await (/^https?:\/\//i.test(input) ? lintUrl(input, settings) : lintFile(input, settings)));
  const colour = format === 'text' && process.stdout.isTTY === true && process.env.NO_COLOR === undefined;
  writeOut(format === 'jsonl' ? jsonReport(linted) : format === 'github' ? githubReport(linted) : textReport(linted, colour));
  return linted.some(({ diagnostics }) => diagnostics.some((d) => d.severity === 'error')) ? EXIT_LINT_ERRORS : EXIT_OK;
}
