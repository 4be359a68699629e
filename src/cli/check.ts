/**
 * `robotstxt check ROBOTS AGENT URL…`: the tester site owners know from search consoles. For each URL, the
 * verdict, the rule that decided it and its line; ROBOTS is a file, stdin, or fetched the RFC 9309 way. With
 * them, what the site says the content may be used for (rules.usage(url)), and the lines that say it.
 */
import { readAgent, type Agent } from './agent.js';
import {
  parseRobotsTxt,
  type Explanation,
  type ProfileName,
  type RobotsFetchResult,
  type RobotsTxt,
  type UsagePreferences,
  type UsageStatement,
} from './library.js';
import { NO_PREFERENCES } from '../usage/usage-rules.js';
import {
  FETCH_OPTIONS,
  FETCH_OPTIONS_HELP,
  fetchFacts,
  fetchRobots,
  fetchSummary,
  jsonLine,
  readSettings,
  type Settings,
  writeOut,
} from './report.js';
import { printable } from './printable.js';
import { cutNote, readRobotsInput } from './robots-input.js';
import { EXIT_DISALLOWED, EXIT_OK, oneOf, readArguments, UsageError } from './usage.js';

export const CHECK_HELP = `robotstxt check: for each URL, whether AGENT may crawl it, and the rule and line that decided.

Usage:
  robotstxt check [options] ROBOTS AGENT URL…

Arguments:
  ROBOTS   a robots.txt file (gzip is decompressed), "-" for stdin, or an http(s) URL: then the robots.txt
           of that URL's origin (<origin>/robots.txt, whatever the path) is fetched the RFC 9309 way, and the
           first line of the output says what came back: a 4xx (no file) allows everything; a 5xx, a 429, a
           timeout or an unreachable site disallows everything. bzip2, xz, zstd, UTF-16 and binary files are
           refused (exit 2) with the command that turns them into text, e.g. bzcat r.bz2 | robotstxt check - …
  AGENT    the crawler, as its product token (ExampleBot), as name/version (ExampleBot/1.2), or as its full
           User-Agent header in quotes: a value with parentheses, or with spaces and a "/", is read as a
           header, and the crawler's token is taken from it the way productToken() does
           ("Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)" checks as ExampleBot).
  URL…     the URLs to check: absolute (https://example.com/a?b=1) or paths (/a?b=1), read as Google's
           tester reads them: the path, params and query, up to a #.

Options:
  --profile NAME           the matching rules: rfc9309 (default); google, which reproduces Google's
                           reference matcher and compares AGENT as given (ExampleBot/1.2 matches no group);
                           or yandex, Yandex's reading (User-agent: Yandex for all its robots, 32 KB limit)
  --format text|jsonl      the output: text (default), one aligned line per URL, verdict, URL, rule and
                           line, and when the file has Content-Usage or Content-Signal lines, an indented
                           line under each: what the site says the content may be used for (train-ai,
                           search, ai-input: allow, disallow or unknown) and the lines that decided, or none
                           when the URL may not be crawled; jsonl (or json), one JSON object per URL per
                           line, {"url","allowed","line","rule","agent","matched","profile","source",
                           "usage"}; "rule" is {"kind","pattern"} or null; "usage" is rules.usage(url):
                           {"train-ai","search","ai-input","statements":[{"source","line","path",
                           "preference","reading"}]}, or null when the URL may not be crawled (a fetch
                           that allows everything states no preference: all unknown)
${FETCH_OPTIONS_HELP}
  (--user-agent and --timeout apply when ROBOTS is a URL; --max-bytes applies to files too, and a
  note on stderr gives the length of a file it cuts)

Exit codes:
  0  every URL is allowed
  1  at least one URL is disallowed (a fetched robots.txt that disallows everything included)
  2  usage or input errors: missing arguments, an unreadable file, an invalid AGENT, URL or option

Examples:
  $ robotstxt check robots.txt ExampleBot /private/plans https://example.com/
  disallowed  /private/plans        disallow: /private/ (line 2)
  allowed     https://example.com/  (no rule)

  $ robotstxt check robots.txt ExampleBot /articles/a   # with Content-Usage: train-ai=n on line 3
  allowed     /articles/a  (no rule)
              usage: train-ai disallow, search unknown, ai-input unknown (Content-Usage line 3: train-ai=n)

  $ robotstxt check --format jsonl --user-agent "ExampleBot/1.2 (+https://example.com/bot)" \\
      https://example.com/ "ExampleBot/1.2 (+https://example.com/bot)" /private/plans`;

/** ROBOTS as read or fetched: the parsed file, or the fetch that gave none. */
type Source =
  | { readonly kind: 'file'; readonly path: string; readonly robots: RobotsTxt }
  | { readonly kind: 'fetch'; readonly result: RobotsFetchResult; readonly robots: RobotsTxt | undefined };

interface Verdict extends Explanation {
  readonly url: string;
  /** What the site says the content may be used for; null when the URL may not be crawled. */
  readonly usage: UsagePreferences | null;
}

const FORMATS = ['text', 'jsonl'] as const;
/** `json` was check's name for its JSON lines before every subcommand said `jsonl`; it stays. */
const FORMAT_SYNONYMS = { json: 'jsonl' } as const;

/** How `check` reads stdin, for the message that refuses an input it does not read. */
const FROM_STDIN = 'check - AGENT URL…';

async function readFileSource(path: string, settings: Settings): Promise<Source> {
  const input = await readRobotsInput(path, settings.maxBytes, FROM_STDIN);
  const robots = parseRobotsTxt(input.bytes, { profile: settings.profile, maxBytes: settings.maxBytes });
  if (robots.truncated) process.stderr.write(cutNote(path === '-' ? 'stdin' : path, input.size, settings.maxBytes, 'parsed'));
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
/** A URL's usage line is under its URL: a reader of the verdict lines (`grep ^allowed`, awk's $1) skips it. */
const USAGE_INDENT = ' '.repeat(VERDICT_WIDTH + 2);

const SOURCE_NAMES = { 'content-usage': 'Content-Usage', 'content-signal': 'Content-Signal' } as const;

/** `Content-Usage line 4: /open/ train-ai=y`: a deciding line as written. */
function statementText(statement: UsageStatement): string {
  const path = statement.path === undefined ? '' : `${statement.path} `;
  return printable(`${SOURCE_NAMES[statement.source]} line ${statement.line}: ${path}${statement.preference}`);
}

/** `usage: train-ai disallow, search allow, ai-input unknown (Content-Usage line 3: train-ai=n; …)` */
function usageText(usage: UsagePreferences | null): string {
  if (usage === null) return 'usage: none, the URL may not be crawled';
  const preferences = `train-ai ${usage['train-ai']}, search ${usage.search}, ai-input ${usage['ai-input']}`;
  const lines =
    usage.statements.length === 0 ? 'no Content-Usage or Content-Signal line applies' : usage.statements.map(statementText).join('; ');
  return `usage: ${preferences} (${lines})`;
}

/**
 * Whether the text report shows each URL's usage line: when the file has a Content-Usage or Content-Signal
 * line (for any agent). Without one every answer is "unknown, no line applies", and the report stays the
 * lines it always was.
 */
function speaksOfUsage(robots: RobotsTxt | undefined): boolean {
  return robots !== undefined && robots.groups.some((group) => group.usage !== undefined);
}

function textReport(verdicts: readonly Verdict[], source: Source, agent: Agent, matched: string | undefined, showUsage: boolean): string {
  const lines: string[] = [];
  if (source.kind === 'fetch') lines.push(`fetched ${fetchSummary(source.result)}`);
  if (agent.header !== undefined) lines.push(`agent ${agent.name} (the crawler token of ${JSON.stringify(printable(agent.header))})`);
  const urls = verdicts.map((verdict) => printable(verdict.url));
  const width = Math.min(WIDEST_URL_COLUMN, Math.max(...urls.map((url) => url.length)));
  verdicts.forEach((verdict, index) => {
    const url = (urls[index] as string).padEnd(width);
    lines.push(`${(verdict.allowed ? 'allowed' : 'disallowed').padEnd(VERDICT_WIDTH)}  ${url}  ${ruleText(verdict, source, matched)}`);
    if (showUsage) lines.push(`${USAGE_INDENT}${usageText(verdict.usage)}`);
  });
  return `${lines.join('\n')}\n`;
}

function jsonReport(verdicts: readonly Verdict[], source: Source, agent: Agent, matched: string | undefined, profile: ProfileName): string {
  const from = source.kind === 'file' ? { kind: 'file', path: source.path } : { kind: 'fetch', ...fetchFacts(source.result) };
  return verdicts
    .map(({ url, allowed, line, rule, usage }) =>
      jsonLine({ url, allowed, line, rule, agent: agent.name, matched, profile, source: from, usage }),
    )
    .join('');
}

export async function runCheck(args: readonly string[]): Promise<number> {
  const { values, positionals } = readArguments('check', args, FETCH_OPTIONS);
  const settings = readSettings(values);
  const format = oneOf('format', values.format, FORMATS, 'text', FORMAT_SYNONYMS);
  const [robotsArgument, agentArgument, ...urls] = positionals;
  if (robotsArgument === undefined || agentArgument === undefined || urls.length === 0) {
    const missing = robotsArgument === undefined ? 'ROBOTS, AGENT and URL' : agentArgument === undefined ? 'AGENT and URL' : 'URL';
    throw new UsageError(
      `check takes ROBOTS AGENT URL…, missing ${missing}: e.g. robotstxt check robots.txt ExampleBot /private/x (see robotstxt check --help)`,
    );
  }
  const agent = readAgent(agentArgument, settings.profile, 'AGENT');
  const source = await readSource(robotsArgument, settings);
  if (source.kind === 'fetch') noteOtherOrigins(urls, source.result.origin);

  let verdicts: Verdict[];
  let matched: string | undefined;
  const showUsage = speaksOfUsage(source.robots);
  if (source.robots === undefined) {
    // As RobotsCache.usage() reads an outcome: allow-all (a 4xx) states no preference, disallow-all has none.
    const allowed = source.kind === 'fetch' && source.result.outcome === 'allow-all';
    verdicts = urls.map((url) => ({ url, allowed, line: 0, usage: allowed ? NO_PREFERENCES : null }));
  } else {
    const rules = source.robots.forAgent(agent.name);
    matched = rules.matched;
    verdicts = urls.map((url) => ({ url, ...rules.explain(url), usage: rules.usage(url) }));
    source.robots.dispose();
  }

  const report =
    format === 'jsonl'
      ? jsonReport(verdicts, source, agent, matched, settings.profile)
      : textReport(verdicts, source, agent, matched, showUsage);
  writeOut(report);
  return verdicts.every((verdict) => verdict.allowed) ? EXIT_OK : EXIT_DISALLOWED;
}
