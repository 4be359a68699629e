/**
 * The three readings the lab compares, and the crawlers it decides for, read the way the `robotstxt` command reads
 * them: a product token as written, or a full User-Agent header whose crawler productToken() names.
 */
import { isUserAgentHeader, parseRobotsTxt, productToken, type ProfileName } from 'robotstxt-wasm';

/** Every reading, in the order the matrix shows them. */
export const READINGS: readonly ProfileName[] = ['rfc9309', 'google', 'yandex'];

/** What the page calls each reading. */
export const READING_TITLE: Readonly<Record<ProfileName, string>> = { rfc9309: 'RFC 9309', google: 'Google', yandex: 'Yandex' };

export function isReading(value: string): value is ProfileName {
  return (READINGS as readonly string[]).includes(value);
}

/** `wanted` in the matrix's order, each once; none means all three. */
export function orderedReadings(wanted: readonly string[]): ProfileName[] {
  const chosen = READINGS.filter((reading) => wanted.includes(reading));
  return chosen.length === 0 ? [...READINGS] : chosen;
}

/** A crawler as the page was given it. */
export interface Crawler {
  /** As written (a token or a whole header). */
  readonly given: string;
  /** What the library is asked with: the token, or the header's crawler token. */
  readonly name: string;
}

/** A line of the crawler list that names no crawler, and why. */
export interface CrawlerProblem {
  readonly given: string;
  readonly problem: string;
}

/** A list of crawlers read: those the matrix decides for, and the lines it cannot. */
export interface CrawlerList {
  readonly crawlers: readonly Crawler[];
  readonly problems: readonly CrawlerProblem[];
}

/**
 * Reads each non-empty line as a crawler. A name must be one that every reading accepts (RFC 9309 and Yandex take
 * product tokens; Google compares any name as given), so that each column asks all three about the same crawler;
 * repeated crawlers are kept once.
 */
export function readCrawlers(lines: readonly string[]): CrawlerList {
  const crawlers: Crawler[] = [];
  const problems: CrawlerProblem[] = [];
  const seen = new Set<string>();
  const probe = parseRobotsTxt('');
  try {
    for (const line of lines) {
      const given = line.trim();
      if (given === '' || seen.has(given)) continue;
      seen.add(given);
      if (isUserAgentHeader(given)) {
        const name = productToken(given);
        if (name === undefined)
          problems.push({ given, problem: 'this User-Agent header names no crawler, only browser and platform names' });
        else crawlers.push({ given, name });
        continue;
      }
      try {
        probe.forAgent(given);
        crawlers.push({ given, name: given });
      } catch (error) {
        if (!(error instanceof TypeError)) throw error;
        problems.push({ given, problem: 'not a product token: letters, "_" and "-", optionally with a version (ExampleBot/1.2)' });
      }
    }
  } finally {
    probe.dispose();
  }
  return { crawlers, problems };
}

/** Crawlers a site owner most often writes groups for, offered as presets: their product tokens. */
export const PRESET_CRAWLERS: readonly string[] = [
  'Googlebot',
  'Googlebot-Image',
  'Google-Extended',
  'Bingbot',
  'YandexBot',
  'Applebot',
  'DuckDuckBot',
  'Baiduspider',
  'GPTBot',
  'ClaudeBot',
  'CCBot',
  'PerplexityBot',
];
