/**
 * `robotstxt lint FILE|URL…`: what each robots.txt gets wrong, as each crawler reads it. Findings as
 * `file:line:col severity code message` (with the hint below), JSON lines, or GitHub Actions annotations.
 */
import { createReadStream } from 'node:fs';
import {
  DEFAULT_LINT_MAX_BYTES,
  LINT_CODES,
  fetchRobotsTxt,
  lintRobotsTxt,
  type FetchLike,
  type LintDiagnostic,
  type LintSeverity,
} from './library.js';
import { HOST_OPTIONS, HOST_OPTIONS_HELP, HostGuard, readHostPolicy, type HostPolicy } from './host-guard.js';
import { DEFAULT_USER_AGENT, jsonLine, noteRefusal, outcomeText, printable, statusText, writeOut } from './report.js';
import { readUpTo } from './check.js';
import { withBody } from './response-body.js';
import { EXIT_LINT_ERRORS, EXIT_OK, oneOf, readArguments, UsageError, wholeNumber } from './usage.js';

/** Bytes of a file or response linted: the library's default, past Google's 500 KiB, so that the linter can say what lies beyond it. */
const LINT_MAX_BYTES = DEFAULT_LINT_MAX_BYTES;
const DEFAULT_TIMEOUT_MS = 10_000;
const FORMATS = ['text', 'json', 'github'] as const;
const SEVERITIES = ['error', 'warning', 'info'] as const satisfies readonly LintSeverity[];

export const LINT_HELP = `robotstxt lint: what a robots.txt gets wrong, as Google, RFC 9309, Yandex and the 1994 readers each read it.

Usage:
  robotstxt lint [options] FILE|URL…

Arguments:
  FILE|URL  a robots.txt file, "-" for stdin, or an http(s) URL: then the robots.txt of that URL's origin is
            fetched the RFC 9309 way (redirects followed) and linted; a URL with no file to lint (4xx, 5xx,
            unreachable) is reported on stderr and exits 2. At most ${LINT_MAX_BYTES} bytes of each are read.

Options:
  --format text|json|github  text (default): file:line:col severity code message, the hint below it;
                             json: one object per finding per line, {"file","line","column","severity",
                             "code","message","hint"}; github: GitHub Actions annotations (::error file=…::)
  --disable CODE,…           codes not to report (repeatable)
  --min-severity LEVEL       error, warning or info (default): report nothing below LEVEL
  --user-agent HEADER        the User-Agent header of robots.txt requests (default "${DEFAULT_USER_AGENT}")
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
  'user-agent': { type: 'string' },
  timeout: { type: 'string' },
  ...HOST_OPTIONS,
} as const;

/** One input, linted: its name as shown, and its findings. */
interface Linted {
  readonly name: string;
  readonly diagnostics: readonly LintDiagnostic[];
}

async function readFileInput(path: string): Promise<Uint8Array> {
  try {
    return await readUpTo(path === '-' ? process.stdin : createReadStream(path, { end: LINT_MAX_BYTES - 1 }), LINT_MAX_BYTES);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : error instanceof Error ? error.message : String(error);
    throw new UsageError(`cannot read ${JSON.stringify(path)}: ${why} (lint takes robots.txt files, "-" for stdin, or http(s) URLs)`);
  }
}

/**
 * The guard's fetch, keeping a copy of the last response's body as the library reads it: fetchRobotsTxt
 * gives the parsed file, and the linter needs its bytes.
 */
function recordingFetch(guard: HostGuard): { readonly fetch: FetchLike; body(): Uint8Array } {
  let chunks: Uint8Array[] = [];
  const fetch: FetchLike = async (url, init) => {
    const response = await guard.fetch(url, init);
    chunks = [];
    const copy = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        chunks.push(chunk);
        controller.enqueue(chunk);
      },
    });
    const body = response.body === null ? null : response.body.pipeThrough(copy);
    return withBody(response, body);
  };
  return { fetch, body: () => Buffer.concat(chunks).subarray(0, LINT_MAX_BYTES) };
}

/** How URLs are fetched: the request's header, its deadline, and the hosts allowed. */
interface UrlSettings {
  readonly userAgent: string;
  readonly timeoutMs: number;
  readonly hosts: HostPolicy;
}

async function lintUrl(url: string, settings: UrlSettings, lint: (body: Uint8Array) => LintDiagnostic[]): Promise<Linted> {
  const guard = new HostGuard(settings.hosts);
  const recorder = recordingFetch(guard);
  const { userAgent, timeoutMs } = settings;
  const options = { userAgent, timeoutMs, maxBytes: LINT_MAX_BYTES, fetch: recorder.fetch, allowHost: guard.allowHost };
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
  if (result.truncated)
    process.stderr.write(
      `robotstxt: note: ${printable(result.robotsUrl)} is longer than ${LINT_MAX_BYTES} bytes: only its start was linted\n`,
    );
  return { name: result.robotsUrl, diagnostics: lint(recorder.body()) };
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
  const format = oneOf('format', values.format, FORMATS, 'text');
  const minSeverity = oneOf('min-severity', values['min-severity'], SEVERITIES, 'info');
  const disable = readDisabled(values.disable);
  const urlSettings: UrlSettings = {
    userAgent: values['user-agent'] ?? DEFAULT_USER_AGENT,
    timeoutMs: wholeNumber('timeout', values.timeout, DEFAULT_TIMEOUT_MS),
    hosts: readHostPolicy(values['allow-internal-hosts'], values['allow-network']),
  };
  const lint = (body: Uint8Array): LintDiagnostic[] => lintRobotsTxt(body, { disable, minSeverity });

  const linted: Linted[] = [];
  for (const input of positionals) {
    if (/^https?:\/\//i.test(input)) linted.push(await lintUrl(input, urlSettings, lint));
    else linted.push({ name: input === '-' ? '<stdin>' : input, diagnostics: lint(await readFileInput(input)) });
  }
  const colour = format === 'text' && process.stdout.isTTY === true && process.env.NO_COLOR === undefined;
  writeOut(format === 'json' ? jsonReport(linted) : format === 'github' ? githubReport(linted) : textReport(linted, colour));
  return linted.some(({ diagnostics }) => diagnostics.some((d) => d.severity === 'error')) ? EXIT_LINT_ERRORS : EXIT_OK;
}
