/**
 * `robotstxt fetch URL`: one robots.txt fetched the way RFC 9309 and Google say (fetchRobotsTxt), and
 * everything that came back: the outcome and why, the HTTP facts, how long a cache keeps it, what it holds.
 */
import type { Diagnostic, Group, RobotsFetchResult, RobotsTxt } from './library.js';
import {
  cacheTerm,
  columns,
  duration,
  FETCH_OPTIONS,
  FETCH_OPTIONS_HELP,
  fetchFacts,
  fetchRobots,
  jsonLine,
  outcomeText,
  plural,
  readSettings,
  writeOut,
} from './report.js';
import { printable } from './printable.js';
import { EXIT_OK, oneOf, readArguments, UsageError } from './usage.js';

export const FETCH_HELP = `robotstxt fetch: fetch an origin's robots.txt the RFC 9309 way and report what came back.

Usage:
  robotstxt fetch [options] URL

  URL is any http(s) URL of the site: the robots.txt of its origin (<origin>/robots.txt) is fetched with a
  GET, redirects followed (up to 5), and the answer read as a crawler must: 2xx the file's rules; 4xx
  allow-all; 5xx, 429, a timeout or a network error disallow-all.

Reported: the outcome and its reason, the status, the final URL and redirects, the size (bytes parsed,
truncated or not), how long a cache keeps the answer (Cache-Control max-age, within 1 min and 24 h; or when
an unreachable site is asked again), the content type and whether it looks like an HTML page, and what the
file holds: each group's user-agents, rules and crawl-delay, the sitemaps, Yandex's host, diagnostics.

Options:
  --format text|json       the output: text (default), a readable report; json (or jsonl: it is one
                           line), one object with every field of the fetch result and "file": {"groups",
                           "sitemaps","host","diagnostics"} (null when no file was parsed)
  --profile NAME           the parsing profile: rfc9309 (default), google or yandex
${FETCH_OPTIONS_HELP}

Exit codes:
  0  a result came back, whatever the outcome (a 404 or a 503 included: the report says what it means)
  2  usage errors: no URL or more than one, a URL that is not http(s), an invalid option

Examples:
  $ robotstxt fetch https://example.com/
  robots.txt    https://example.com/robots.txt
  outcome       rules (ok): the file's rules decide
  status        200
  …
  $ robotstxt fetch --format json --user-agent "ExampleBot/1.2 (+https://example.com/bot)" https://example.com/`;

const FORMATS = ['text', 'json'] as const;
/** The report is one JSON object on one line: a JSON lines reader takes it too, so the other commands' name stays. */
const FORMAT_SYNONYMS = { jsonl: 'json' } as const;

// A file of thousands of groups or sitemaps: the text report shows the first ones, the JSON report all.
const LISTED_IN_TEXT = 50;

function groupFacts(group: Group) {
  const allow = group.rules.filter((rule) => rule.allow).length;
  return {
    line: group.agents[0]?.line ?? 0,
    agents: group.agents.map((agent) => agent.value),
    rules: group.rules.length,
    allow,
    disallow: group.rules.length - allow,
    crawlDelay: group.crawlDelay,
  };
}

/** How many diagnostics of each code: `unknown-directive 2, malformed-line 1`. */
function tally(diagnostics: readonly Diagnostic[]): string {
  const counts = new Map<string, number>();
  for (const { code } of diagnostics) counts.set(code, (counts.get(code) ?? 0) + 1);
  return [...counts].map(([code, count]) => `${code} ${count}`).join(', ');
}

function listed<T>(items: readonly T[], show: (item: T) => string): string[] {
  const lines = items.slice(0, LISTED_IN_TEXT).map(show);
  if (items.length > LISTED_IN_TEXT) lines.push(`… and ${items.length - LISTED_IN_TEXT} more (--format json lists them all)`);
  return lines;
}

function sizeText(result: RobotsFetchResult): string {
  if (result.outcome !== 'rules') return '(no file)';
  if (!result.truncated) return `${plural(result.bytes, 'byte')}, whole`;
  const ignored =
    result.bytesIgnored === undefined ? 'the rest, of unknown size, ignored' : `${plural(result.bytesIgnored, 'more byte')} ignored`;
  return `${plural(result.bytes, 'byte')} parsed, truncated at --max-bytes: ${ignored}`;
}

function cacheText(result: RobotsFetchResult): string {
  const term = cacheTerm(result);
  if (term.lifetimeMs !== undefined) return `kept ${duration(term.lifetimeMs)} (${term.why})`;
  return `not kept: asked again after ${duration(term.nextFetchAfterMs ?? 0)} (${term.why})`;
}

/** A report line: a key and its value (aligned with the others), or an indented line of a list. */
type Line = readonly [string, string] | string;

function fileLines(robots: RobotsTxt): Line[] {
  const facts = robots.groups.map(groupFacts);
  const heads = columns(facts.map((group) => [`line ${group.line}`, `User-agent: ${printable(group.agents.join(', '))}`]));
  const groups = columns(
    facts.map((group, index) => {
      const delay = group.crawlDelay === undefined ? '' : `, crawl-delay ${group.crawlDelay}`;
      return [heads[index] as string, `${plural(group.rules, 'rule')}${delay}`];
    }),
    '  ',
  );
  const diagnostics = robots.diagnostics.length === 0 ? '0' : `${robots.diagnostics.length} (${tally(robots.diagnostics)})`;
  return [
    ['groups', String(robots.groups.length)],
    ...listed(groups, (line) => line),
    ['sitemaps', String(robots.sitemaps.length)],
    ...listed(robots.sitemaps, (sitemap) => `  ${printable(sitemap)}`),
    ['host', robots.host === undefined ? '(none)' : printable(robots.host)],
    ['diagnostics', diagnostics],
  ];
}

function textReport(result: RobotsFetchResult): string {
  const redirects = result.redirects === 0 ? 'no redirects' : plural(result.redirects, 'redirect');
  const html = result.looksLikeHtml ? 'looks like HTML (parsed anyway: only valid lines count)' : 'not HTML';
  const lines: Line[] = [
    ['robots.txt', printable(result.robotsUrl)],
    ['outcome', outcomeText(result)],
    ['status', result.status === 0 ? '0 (no response)' : String(result.status)],
    ['final URL', `${printable(result.finalUrl)} (${redirects})`],
    ['size', sizeText(result)],
    ['cache', cacheText(result)],
    [
      'content type',
      `${result.contentType === undefined ? '(none)' : printable(result.contentType)}${result.outcome === 'rules' ? `, ${html}` : ''}`,
    ],
  ];
  if (result.retryAfter !== undefined) lines.push(['retry after', `${result.retryAfter} s`]);
  if (result.etag !== undefined) lines.push(['etag', printable(result.etag)]);
  if (result.lastModified !== undefined) lines.push(['last modified', printable(result.lastModified)]);
  if (result.robots !== undefined) lines.push(...fileLines(result.robots));
  const width = Math.max(...lines.map((line) => (typeof line === 'string' ? 0 : line[0].length)));
  return `${lines.map((line) => (typeof line === 'string' ? line : `${line[0].padEnd(width)}  ${line[1]}`)).join('\n')}\n`;
}

function jsonReport(result: RobotsFetchResult, profile: string, userAgent: string): string {
  const { robots } = result;
  const term = cacheTerm(result);
  const file =
    robots === undefined
      ? null
      : {
          groups: robots.groups.map(groupFacts),
          sitemaps: robots.sitemaps,
          host: robots.host,
          diagnostics: robots.diagnostics,
        };
  return jsonLine({
    ...fetchFacts(result),
    origin: result.origin,
    bytes: result.bytes,
    truncated: result.truncated,
    bytesIgnored: result.bytesIgnored,
    contentType: result.contentType,
    looksLikeHtml: result.looksLikeHtml,
    maxAge: result.maxAge,
    cacheLifetimeMs: term.lifetimeMs,
    nextFetchAfterMs: term.nextFetchAfterMs,
    retryAfter: result.retryAfter,
    etag: result.etag,
    lastModified: result.lastModified,
    profile,
    userAgent,
    file,
  });
}

export async function runFetch(args: readonly string[]): Promise<number> {
  const { values, positionals } = readArguments('fetch', args, FETCH_OPTIONS);
  const settings = readSettings(values);
  const format = oneOf('format', values.format, FORMATS, 'text', FORMAT_SYNONYMS);
  const [url, ...extra] = positionals;
  if (url === undefined || extra.length > 0) {
    const got = url === undefined ? 'none' : positionals.map((value) => JSON.stringify(value)).join(', ');
    throw new UsageError(`fetch takes one URL, e.g. robotstxt fetch https://example.com/ (got ${got}; see robotstxt fetch --help)`);
  }
  const result = await fetchRobots(url, settings);
  const report = format === 'json' ? jsonReport(result, settings.profile, settings.userAgent) : textReport(result);
  result.robots?.dispose();
  writeOut(report);
  return EXIT_OK;
}
