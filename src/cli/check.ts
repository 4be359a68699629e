/**
 * `robotstxt check ROBOTS AGENT URL…`: the tester site owners know from search consoles. For each URL, the
 * verdict, the rule that decided it and its line; ROBOTS is a file, stdin, or fetched the RFC 9309 way.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { parseRobotsTxt, productToken, type Explanation, type ProfileName, type RobotsFetchResult, type RobotsTxt } from './library.js';
import {
  FETCH_OPTIONS,
  FETCH_OPTIONS_HELP,
  fetchFacts,
  fetchRobots,
  fetchSummary,
  jsonLine,
  printable,
  readSettings,
  type Settings,
  writeOut,
} from './report.js';
import { EXIT_DISALLOWED, EXIT_OK, readArguments, UsageError } from './usage.js';

export const CHECK_HELP = `robotstxt check: for each URL, whether AGENT may crawl it, and the rule and line that decided.

Usage:
  robotstxt check [options] ROBOTS AGENT URL…

Arguments:
  ROBOTS   a robots.txt file, "-" for stdin, or an http(s) URL: then the robots.txt of that URL's origin
           (<origin>/robots.txt, whatever the path) is fetched the RFC 9309 way, and the first line of the
           output says what came back: a 4xx (no file) allows everything; a 5xx, a 429, a timeout or an
           unreachable site disallows everything.
  AGENT    the crawler, as its product token (ExampleBot), as name/version (ExampleBot/1.2), or as its full
           User-Agent header in quotes: a value with spaces or parentheses is read as a header, and the
           crawler's token is taken from it the way productToken() does
           ("Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)" checks as ExampleBot).
  URL…     the URLs to check: absolute (https://example.com/a?b=1) or paths (/a?b=1), read as Google's
           tester reads them: the path, params and query, up to a #.

Options:
  --profile NAME           the matching rules: rfc9309 (default); google, which reproduces Google's
                           reference matcher and compares AGENT as given (ExampleBot/1.2 matches no group);
                           or yandex, Yandex's reading (User-agent: Yandex for all its robots, 32 KB limit)
  --format text|json       text (default): one aligned line per URL, verdict, URL, rule and line;
                           json: one object per URL per line, {"url","allowed","line","rule","agent",
                           "matched","profile","source"}; "rule" is {"kind","pattern"} or null
${FETCH_OPTIONS_HELP}
  (--user-agent and --timeout apply when ROBOTS is a URL; --max-bytes applies to files too)

Exit codes:
  0  every URL is allowed
  1  at least one URL is disallowed (a fetched robots.txt that disallows everything included)
  2  usage or input errors: missing arguments, an unreadable file, an invalid AGENT, URL or option

Examples:
  $ robotstxt check robots.txt ExampleBot /private/plans https://example.com/
  disallowed  /private/plans        disallow: /private/ (line 2)
  allowed     https://example.com/  (no rule)

  $ robotstxt check --format json --user-agent "ExampleBot/1.2 (+https://example.com/bot)" \\
      https://example.com/ "ExampleBot/1.2 (+https://example.com/bot)" /private/plans`;

/** ROBOTS as read or fetched: the parsed file, or the fetch that gave none. */
type Source =
  | { readonly kind: 'file'; readonly path: string; readonly robots: RobotsTxt }
  | { readonly kind: 'fetch'; readonly result: RobotsFetchResult; readonly robots: RobotsTxt | undefined };

interface Agent {
  /** What the library is asked with. */
  readonly name: string;
  /** The header it was read from, when AGENT was one. */
  readonly header: string | undefined;
}

interface Verdict extends Explanation {
  readonly url: string;
}

const NOT_A_TOKEN =
  'pass the crawler\'s name, letters, "_" and "-" only (ExampleBot), optionally with a version (ExampleBot/1.2), ' +
  'or its full User-Agent header in quotes; --profile google compares AGENT as given';

/** AGENT as the library takes it: a header's crawler token, or the value itself once the profile accepts it. */
function readAgent(value: string, profile: ProfileName): Agent {
  if (/[\s()]/.test(value)) {
    const token = productToken(value);
    if (token === undefined) {
      throw new UsageError(
        `AGENT ${JSON.stringify(value)} reads as a User-Agent header that names no crawler (only browser and platform ` +
          `names): pass the crawler's token, e.g. ExampleBot`,
      );
    }
    return { name: token, header: value };
  }
  // Checked before anything is read or fetched: a file of no groups compiles any agent the profile accepts.
  const empty = parseRobotsTxt('', { profile });
  try {
    empty.forAgent(value);
  } catch (error) {
    if (error instanceof TypeError) throw new UsageError(`AGENT ${JSON.stringify(value)} is not a product token: ${NOT_A_TOKEN}`);
    throw error;
  } finally {
    empty.dispose();
  }
  return { name: value, header: undefined };
}

/** At most `limit` + 1 bytes of a stream: one past the limit tells the parser whether the limit cut a line. */
export async function readUpTo(stream: AsyncIterable<Uint8Array>, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of stream) {
    chunks.push(chunk);
    length += chunk.length;
    if (length > limit) break;
  }
  return Buffer.concat(chunks, Math.min(length, limit + 1));
}

const READ_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

async function readFileSource(path: string, settings: Settings): Promise<Source> {
  let bytes: Uint8Array;
  try {
    // `end` is inclusive: maxBytes + 1 bytes at most, whatever the file's size (/dev/zero included).
    const stream = path === '-' ? process.stdin : createReadStream(path, { end: settings.maxBytes });
    bytes = await readUpTo(stream, settings.maxBytes);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const why = READ_ERRORS[code] ?? (error instanceof Error ? error.message : String(error));
    throw new UsageError(
      `cannot read ROBOTS ${JSON.stringify(path)}: ${why} (ROBOTS is a robots.txt file, "-" for stdin, or an http(s) URL)`,
    );
  }
  const robots = parseRobotsTxt(bytes, { profile: settings.profile, maxBytes: settings.maxBytes });
  if (robots.truncated) {
    const size =
      path === '-'
        ? undefined
        : await stat(path).then(
            (info) => (info.isFile() ? info.size : undefined),
            () => undefined,
          );
    process.stderr.write(
      `robotstxt: note: ${JSON.stringify(path)} is longer than --max-bytes ${settings.maxBytes}` +
        `${size === undefined ? '' : ` (${size} bytes)`}: only its first ${settings.maxBytes} bytes were parsed\n`,
    );
  }
  return { kind: 'file', path, robots };
}

async function readSource(robots: string, settings: Settings): Promise<Source> {
  if (!/^https?:\/\//i.test(robots)) return readFileSource(robots, settings);
  const result = await fetchRobots(robots, settings);
  return { kind: 'fetch', result, robots: result.robots };
}

/** A note for each origin among the URLs that is not the one whose robots.txt was fetched. */
function noteOtherOrigins(urls: readonly string[], origin: string): void {
  const others = new Set<string>();
  for (const url of urls) {
    if (!/^https?:\/\//i.test(url)) continue;
    try {
      const other = new URL(url).origin;
      if (other !== origin) others.add(other);
    } catch {
      // Not a URL the WHATWG parser reads: the matcher reads it Google's way, and there is no origin to compare.
    }
  }
  for (const other of others) {
    process.stderr.write(`robotstxt: note: URLs on ${printable(other)} are governed by its own robots.txt, not ${printable(origin)}'s\n`);
  }
}

function ruleText(verdict: Verdict, source: Source, matched: string | undefined): string {
  if (verdict.rule !== undefined) return `${verdict.rule.kind}: ${printable(verdict.rule.pattern)} (line ${verdict.line})`;
  if (source.kind === 'fetch' && source.robots === undefined) return `(${source.result.outcome}: ${source.result.reason})`;
  return matched === 'none' ? '(no rule: no group applies to this agent)' : '(no rule)';
}

/** Column width of the verdict, so that `allowed` and `disallowed` lines line up. */
const VERDICT_WIDTH = 'disallowed'.length;
// A very long URL gets a line of its own width rather than pushing every other line's rule far right.
const WIDEST_URL_COLUMN = 60;

function textReport(verdicts: readonly Verdict[], source: Source, agent: Agent, matched: string | undefined): string {
  const lines: string[] = [];
  if (source.kind === 'fetch') lines.push(`fetched ${fetchSummary(source.result)}`);
  if (agent.header !== undefined) lines.push(`agent ${agent.name} (the crawler token of ${JSON.stringify(printable(agent.header))})`);
  const urls = verdicts.map((verdict) => printable(verdict.url));
  const width = Math.min(WIDEST_URL_COLUMN, Math.max(...urls.map((url) => url.length)));
  verdicts.forEach((verdict, index) => {
    const url = (urls[index] as string).padEnd(width);
    lines.push(`${(verdict.allowed ? 'allowed' : 'disallowed').padEnd(VERDICT_WIDTH)}  ${url}  ${ruleText(verdict, source, matched)}`);
  });
  return `${lines.join('\n')}\n`;
}

function jsonReport(verdicts: readonly Verdict[], source: Source, agent: Agent, matched: string | undefined, profile: ProfileName): string {
  const from = source.kind === 'file' ? { kind: 'file', path: source.path } : { kind: 'fetch', ...fetchFacts(source.result) };
  return verdicts
    .map(({ url, allowed, line, rule }) => jsonLine({ url, allowed, line, rule, agent: agent.name, matched, profile, source: from }))
    .join('');
}

export async function runCheck(args: readonly string[]): Promise<number> {
  const { values, positionals } = readArguments('check', args, FETCH_OPTIONS);
  const settings = readSettings(values);
  const [robotsArgument, agentArgument, ...urls] = positionals;
  if (robotsArgument === undefined || agentArgument === undefined || urls.length === 0) {
    const missing = robotsArgument === undefined ? 'ROBOTS, AGENT and URL' : agentArgument === undefined ? 'AGENT and URL' : 'URL';
    throw new UsageError(
      `check takes ROBOTS AGENT URL…, missing ${missing}: e.g. robotstxt check robots.txt ExampleBot /private/x (see robotstxt check --help)`,
    );
  }
  const agent = readAgent(agentArgument, settings.profile);
  const source = await readSource(robotsArgument, settings);
  if (source.kind === 'fetch') noteOtherOrigins(urls, source.result.origin);

  let verdicts: Verdict[];
  let matched: string | undefined;
  if (source.robots === undefined) {
    const allowed = source.kind === 'fetch' && source.result.outcome === 'allow-all';
    verdicts = urls.map((url) => ({ url, allowed, line: 0 }));
  } else {
    const rules = source.robots.forAgent(agent.name);
    matched = rules.matched;
    verdicts = urls.map((url) => ({ url, ...rules.explain(url) }));
    source.robots.dispose();
  }

  const report =
    settings.format === 'json'
      ? jsonReport(verdicts, source, agent, matched, settings.profile)
      : textReport(verdicts, source, agent, matched);
  writeOut(report);
  return verdicts.every((verdict) => verdict.allowed) ? EXIT_OK : EXIT_DISALLOWED;
}
