/**
 * What the robots.txt lab must show, answered by the library itself: the built package (dist/index.js), loaded
 * by Node as users load it, asked the questions each cell, diff row and simulated fetch stands for. And the
 * corpus files the matrix is checked on, chosen deterministically for the rules that tell the readings apart
 * (wildcards, `$`, Yandex's own lines, non-ASCII and percent-encoded paths), each with URLs made from its own
 * patterns.
 */
import { createHash } from 'node:crypto';
import type * as Entry from '../../src/index.js';
import type { CorpusFile } from './corpus.js';
import { plainFragment, READINGS, type DiffRow, type LabState, type MatrixColumn, type Reading } from './lab-page.js';

export type Library = typeof Entry;

/** The package as `npm test` builds it first: dist/index.js, the Node entry. */
export async function builtLibrary(): Promise<Library> {
  return (await import(new URL('../../dist/index.js', import.meta.url).href)) as Library;
}

/** The name the lab asks the library about for a crawler given as a name or as a full User-Agent header. */
export function agentName(library: Library, agent: string): string {
  return library.productToken(agent) ?? agent;
}

/** The columns the lab shows for `state`: agent-major, readings in the profiles' order. */
export function columnsOf(state: LabState): MatrixColumn[] {
  const readings = READINGS.filter((reading) => state.profiles === undefined || state.profiles.includes(reading));
  return state.agents.flatMap((agent) => readings.map((profile) => ({ agent, profile })));
}

/** A cell as the library answers it: `<url> | <agent> | <reading>: <verdict> line <n>`. */
export function cellKey(url: string, column: MatrixColumn, verdict: string, line: string | number): string {
  return `${url} | ${column.agent} | ${column.profile}: ${verdict} line ${line}`;
}

/** Verdicts of `robots` under `reading` for one agent, parsed once per (file, reading). */
function asker(library: Library, robots: string): (reading: Reading, agent: string) => Entry.AgentRules {
  const parsed = new Map<Reading, Entry.RobotsTxt>();
  return (reading, agent) => {
    let robotsTxt = parsed.get(reading);
    if (robotsTxt === undefined) {
      robotsTxt = library.parseRobotsTxt(robots, { profile: reading });
      parsed.set(reading, robotsTxt);
    }
    return robotsTxt.forAgent(agentName(library, agent));
  };
}

/** Every cell of the matrix for `state` (row by row, column by column), as cellKey() writes them. */
export function expectedCells(library: Library, state: LabState): string[] {
  const ask = asker(library, state.robots);
  const columns = columnsOf(state);
  return state.urls.flatMap((url) =>
    columns.map((column) => {
      const { allowed, line } = ask(column.profile as Reading, column.agent).explain(url);
      return cellKey(url, column, allowed ? 'allowed' : 'disallowed', line);
    }),
  );
}

/** The deciding line of one cell. */
export function decidingLine(library: Library, state: LabState, url: string, column: MatrixColumn): number {
  return asker(library, state.robots)(column.profile as Reading, column.agent).explain(url).line;
}

/** The verdicts that differ between `state.before` and `state.robots`, as `#diff` lists them. */
export function expectedDiff(library: Library, state: LabState): DiffRow[] {
  if (state.before === undefined) return [];
  const before = asker(library, state.before);
  const after = asker(library, state.robots);
  const verdict = (allowed: boolean): string => (allowed ? 'allowed' : 'disallowed');
  return state.urls.flatMap((url) =>
    columnsOf(state).flatMap(({ agent, profile }) => {
      const was = verdict(before(profile as Reading, agent).isAllowed(url));
      const is = verdict(after(profile as Reading, agent).isAllowed(url));
      return was === is ? [] : [{ url, agent, profile, before: was, after: is }];
    }),
  );
}

/** Diff rows in one order, for comparing sets. */
export function sortedRows(rows: readonly DiffRow[]): string[] {
  return rows.map((row) => `${row.url} | ${row.agent} | ${row.profile}: ${row.before} → ${row.after}`).sort();
}

/** The file's lines as an editor numbers them (CR LF, CR and LF each end one), 1-based by index + 1. */
export function linesOf(robots: string): string[] {
  return robots.split(/\r\n|\r|\n/);
}

// ---------------------------------------------------------------------------------------------------------
// The corpus files the matrix is checked on.

/** Crawlers of every column: four product tokens, and a full header the page must read through productToken(). */
export const CORPUS_AGENTS: readonly string[] = [
  'Googlebot',
  'Bingbot',
  'YandexBot',
  'GPTBot',
  'Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)',
];

/** URLs per file. */
const URLS_PER_FILE = 20;

/** The most a state's fragment may hold: a file that does not fit in a URL this long is skipped. */
export const MAX_FRAGMENT = 200_000;

/** `Allow:` and `Disallow:` lines' patterns, as written, in file order. */
function rulePatterns(robots: string): { kind: 'allow' | 'disallow'; pattern: string }[] {
  return linesOf(robots).flatMap((line) => {
    const match = /^[ \t]*(allow|disallow)[ \t]*:[ \t]*([^#\s]*)/i.exec(line);
    const pattern = match?.[2] ?? '';
    return match === null || pattern === '' ? [] : [{ kind: match[1]?.toLowerCase() === 'allow' ? 'allow' : 'disallow', pattern }];
  });
}

/** What picks a file: the first in a fixed shuffle of the corpus that has the trait and is not yet picked. */
const TRAITS: readonly { readonly name: string; readonly has: (robots: string) => boolean }[] = [
  {
    name: 'a Disallow wildcard',
    has: (robots) => rulePatterns(robots).some((rule) => rule.kind === 'disallow' && rule.pattern.includes('*')),
  },
  { name: 'an Allow wildcard', has: (robots) => rulePatterns(robots).some((rule) => rule.kind === 'allow' && rule.pattern.includes('*')) },
  { name: 'a `$` end anchor', has: (robots) => rulePatterns(robots).some((rule) => rule.pattern.endsWith('$')) },
  { name: 'a Yandex group', has: (robots) => /^[ \t]*user-agent[ \t]*:[ \t]*yandex/im.test(robots) },
  { name: 'Clean-param', has: (robots) => /^[ \t]*clean-param[ \t]*:/im.test(robots) },
  { name: 'a non-ASCII path', has: (robots) => rulePatterns(robots).some((rule) => /[^\x00-\x7f]/.test(rule.pattern)) },
  { name: 'a percent-encoded path', has: (robots) => rulePatterns(robots).some((rule) => /%[0-9a-f]{2}/i.test(rule.pattern)) },
  {
    name: 'a group of its own for a crawler of the columns',
    has: (robots) => /^[ \t]*user-agent[ \t]*:[ \t]*(googlebot|bingbot|gptbot)\b/im.test(robots),
  },
];

/** `n` items spread evenly over `items`, first and last included. */
function spread<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  return Array.from({ length: n }, (_, index) => items[Math.round((index * (items.length - 1)) / (n - 1))] as T);
}

/** Patterns a file's traits show in, first: a wildcard, an end anchor, a non-ASCII and a percent-encoded path. */
const TELLING_PATTERNS: readonly RegExp[] = [/\*/, /\$$/, /[^\x00-\x7f]/, /%[0-9a-f]{2}/i];

/** Patterns a file's URLs are made from. */
const PATTERNS_PER_FILE = 5;

/**
 * The path spelled another way: its non-ASCII characters percent-encoded if written raw, its `%XX` decoded if
 * written encoded, else its first ASCII letter or digit written as `%XX` (which some readings decode first).
 */
function respelled(path: string): string {
  if (/[^\x00-\x7f]/.test(path)) return path.replace(/[^\x00-\x7f]+/g, (raw) => encodeURIComponent(raw));
  if (/%[0-9a-f]{2}/i.test(path)) {
    try {
      return decodeURIComponent(path);
    } catch {
      // A `%` that starts no valid UTF-8: spelled as it is.
    }
  }
  const at = path.search(/[A-Za-z0-9]/);
  if (at === -1) return path;
  return `${path.slice(0, at)}%${path.charCodeAt(at).toString(16).toUpperCase()}${path.slice(at + 1)}`;
}

/** One URL a line of a textarea: no whitespace or control characters, no fragment, not too long. */
function fitsALine(url: string): boolean {
  return !/[\s\x00-\x1f\x7f#]/.test(url) && url.length <= 300;
}

/**
 * ~20 URLs made from the file's own patterns, `/` first: each of PATTERNS_PER_FILE patterns (the telling ones,
 * then others spread over the file) as a path and with its wildcards filled and a suffix, and two more of: with a
 * query, spelled another way, past its end anchor, as an absolute URL (the one its trait asks for first, the rest
 * in turns, so that every kind is among the URLs).
 */
export function urlsFor(robots: string): string[] {
  const patterns = [...new Set(rulePatterns(robots).map((rule) => rule.pattern))];
  const telling = TELLING_PATTERNS.flatMap((trait) => patterns.find((pattern) => trait.test(pattern)) ?? []);
  const picked = [...new Set([...telling, ...spread(patterns, PATTERNS_PER_FILE)])].slice(0, PATTERNS_PER_FILE);
  const urls = new Set<string>(['/']);
  picked.forEach((pattern, index) => {
    const path = (pattern.startsWith('/') ? pattern : `/${pattern}`).replace(/\$$/, '');
    const bare = path.replaceAll('*', '');
    const filled = path.replaceAll('*', 'lab7');
    const extras = [`${bare}?id=7&utm_source=lab`, respelled(filled), `${bare}x/`, `https://example.com${filled}`];
    const first = pattern.endsWith('$') ? 2 : /[^\x00-\x7f]|%[0-9a-f]{2}/i.test(pattern) ? 1 : index % extras.length;
    const second = (first + 1 + (index % 3)) % extras.length;
    for (const url of [bare, `${filled}page.html`, extras[first], extras[second]]) if (url !== undefined && fitsALine(url)) urls.add(url);
  });
  return [...urls].slice(0, URLS_PER_FILE);
}

/** A corpus file chosen for the matrix test, with the state that shows it. */
export interface ChosenFile {
  readonly name: string;
  readonly trait: string;
  readonly state: LabState;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decoded(body: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(body);
  } catch {
    return undefined;
  }
}

/**
 * One file per trait, from the corpus in a fixed order (by the SHA-256 of each name, so that the picks are
 * spread over the corpus, not its first names): valid UTF-8 (the editor holds text), with at least three rules,
 * and a state whose fragment fits in MAX_FRAGMENT.
 */
export function chooseCorpusFiles(corpus: readonly CorpusFile[]): ChosenFile[] {
  const order = corpus
    .map((file) => ({ file, key: createHash('sha256').update(file.name).digest('hex') }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ file }) => file);
  const chosen: ChosenFile[] = [];
  for (const trait of TRAITS) {
    for (const file of order) {
      if (chosen.some((picked) => picked.name === file.name)) continue;
      const robots = decoded(file.body);
      if (robots === undefined || rulePatterns(robots).length < 3 || !trait.has(robots)) continue;
      const state: LabState = { robots, agents: CORPUS_AGENTS, urls: urlsFor(robots) };
      if (plainFragment(state).length > MAX_FRAGMENT) continue;
      chosen.push({ name: file.name, trait: trait.name, state });
      break;
    }
  }
  return chosen;
}

/** The readings of a fetch the library makes, one per profile: what `#simulation` must show. */
export interface FetchReading {
  readonly profile: Reading;
  readonly outcome: string;
  readonly reason: string;
}
