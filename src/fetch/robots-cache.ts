/**
 * robots.txt per origin for a crawler: fetched by the standard, cached by the standard, shared between
 * concurrent callers, bounded in size, and compiled once per origin for the crawler's agent.
 * spec: RFC 9309 §2.3.1, §2.4; 003_14cd348ff9b99c23.txt, "Handling HTTP result codes".
 */
import type { AgentRules, Explanation } from '../agent-rules.js';
import { profileNamed } from '../profile.js';
import type { RobotsTxt } from '../robots-txt.js';
import { backoffAfter, CACHE_LIMITS, lifetimeOf } from './cache-policy.js';
import { fetchRobotsAt } from './fetch-robots.js';
import { checkWholeNumber, resolveFetchOptions, type FetchRobotsOptions, type ResolvedFetchOptions } from './options.js';
import { robotsLocation, type RobotsLocation } from './origin.js';
import type { RobotsFetchReason, RobotsFetchResult } from './outcome.js';

/**
 * Options of RobotsCache: those of fetchRobotsTxt(), plus the agent, the size bound and the clock.
 *
 * @example
 * new RobotsCache({ userAgent: 'ExampleBot/1.2 (+https://example.com/bot)', maxEntries: 10_000 });
 */
export interface RobotsCacheOptions extends FetchRobotsOptions {
  /**
   * The product token the rules are matched for. Default: the leading product token of `userAgent`
   * (`'ExampleBot/1.2 (+https://example.com/bot)'` → `'ExampleBot'`).
   */
  readonly agent?: string;
  /** Origins kept; the least recently used one is dropped (and its memory freed) beyond. Default 100,000. */
  readonly maxEntries?: number;
  /** The clock, in milliseconds since the epoch. Default `Date.now`; tests move it instead of sleeping. */
  readonly now?: () => number;
}

/** Where an answer came from: a fetch made for it, a fresh cached copy, or an old copy standing in for an unreachable site. */
export type RobotsSourceKind = 'network' | 'cache' | 'stale';

/** A refresh that found the site unreachable while an older copy was served instead. */
export interface RefreshFailure {
  readonly reason: RobotsFetchReason;
  /** 0 when no response arrived. */
  readonly status: number;
  /** When it happened (the `now` clock). */
  readonly at: number;
}

/**
 * The robots.txt behind an answer: which fetch, when, until when, and how it ended.
 *
 * @example
 * (await robots.explain('https://example.com/private/x')).source;
 * // { origin: 'https://example.com', outcome: 'rules', reason: 'ok', status: 200, from: 'cache',
 * //   fetchedAt: 1767225600000, expiresAt: 1767312000000, contentType: 'text/plain', looksLikeHtml: false, … }
 */
export interface RobotsSource
  extends Pick<
    RobotsFetchResult,
    'origin' | 'robotsUrl' | 'outcome' | 'reason' | 'status' | 'finalUrl' | 'redirects' | 'bytes' | 'truncated' | 'contentType' | 'looksLikeHtml'
  > {
  /** When the copy was fetched (the `now` clock, ms). */
  readonly fetchedAt: number;
  /** When the cache asks the network again (ms). */
  readonly expiresAt: number;
  readonly from: RobotsSourceKind;
  /** Set when `from` is `'stale'`: the refresh that failed. */
  readonly refreshFailure?: RefreshFailure;
}

/** An origin whose robots.txt was fetched (2xx): the file, and its rules compiled for the cache's agent. */
export interface CachedRobotsRules extends RobotsSource {
  readonly outcome: 'rules';
  readonly robots: RobotsTxt;
  readonly rules: AgentRules;
}

/** An origin with no file to apply: everything allowed (4xx) or nothing (unreachable). */
export interface CachedRobotsVerdict extends RobotsSource {
  readonly outcome: 'allow-all' | 'disallow-all';
  readonly robots?: undefined;
  readonly rules?: undefined;
}

/**
 * What RobotsCache.get() returns. `robots` and `rules` belong to the cache: they are disposed when the
 * entry is refreshed or evicted, so use them right away and do not dispose them yourself.
 *
 * @example
 * const cached = await robots.get('https://example.com');
 * if (cached.outcome === 'rules') cached.robots.sitemaps; // ['https://example.com/sitemap.xml']
 */
export type CachedRobots = CachedRobotsRules | CachedRobotsVerdict;

/** A verdict with the rule that decided it and the robots.txt it came from. */
export interface CachedExplanation extends Explanation {
  readonly source: RobotsSource;
}

/** One fetched answer as the cache keeps it. */
interface Copy {
  readonly result: RobotsFetchResult;
  /** The rules compiled for the cache's agent when the outcome is 'rules'. */
  readonly rules: AgentRules | undefined;
  readonly fetchedAt: number;
}

interface Entry {
  readonly copy: Copy;
  /** The copy is older than its lifetime, served because the site became unreachable. */
  readonly stale: boolean;
  /** When the next caller triggers a fetch. */
  readonly expiresAt: number;
  /** Unreachable answers in a row, for the back-off. */
  readonly failures: number;
  readonly refreshFailure: RefreshFailure | undefined;
}

interface Waiter {
  settle(entry: Entry): void;
  fail(error: unknown): void;
}

const LEADING_PRODUCT = /^[A-Za-z_-]+/;

function disposeCopy(copy: Copy): void {
  copy.result.robots?.dispose();
}

function urlText(input: string | URL): string {
  return typeof input === 'string' ? input : input.href;
}

/**
 * The robots.txt of every origin a crawler visits, fetched on first use and cached by the standard.
 *
 * - 2xx: the file's rules; 3xx: up to 5 redirects followed (across hosts), then allow all; 4xx (401 and
 *   403 included): allow all; 5xx, 429, timeouts, network failures: disallow all.
 * - A copy is used for its `Cache-Control: max-age`, at least 60 s and at most 24 h (24 h by default).
 *   When a refresh finds the site unreachable, the last good copy keeps answering (`from: 'stale'`) for
 *   up to 30 days after it was fetched; without one, everything is disallowed and the site is asked
 *   again after 1 min, 2 min, 4 min, … up to 1 h.
 * - Concurrent calls for one origin share one request; at most `maxEntries` origins are kept, the least
 *   recently used one dropped first (its compiled rules freed).
 *
 * @example
 * const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2 (+https://example.com/bot)' });
 * if (await robots.isAllowed('https://example.com/some/page?x=1')) {
 *   // fetch the page, waiting (await robots.crawlDelay(url)) ?? 0 seconds between requests to the origin
 * }
 */
export class RobotsCache {
  /** The User-Agent header sent with robots.txt requests. */
  readonly userAgent: string;
  /** The product token the rules are matched for. */
  readonly agent: string;
  private readonly options: ResolvedFetchOptions;
  private readonly maxEntries: number;
  private readonly now: () => number;
  /** In least-recently-used order: an entry is deleted and set again on each use. */
  private readonly entries = new Map<string, Entry>();
  private readonly flights = new Map<string, Waiter[]>();

  /**
   * Checks the options (TypeError or RangeError for a bad one) and makes an empty cache.
   *
   * @example
   * const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2 (+https://example.com/bot)', timeoutMs: 5_000 });
   * robots.agent; // 'ExampleBot'
   */
  constructor(options: RobotsCacheOptions) {
    this.options = resolveFetchOptions(options);
    this.userAgent = this.options.userAgent;
    this.agent = options.agent ?? this.derivedAgent();
    if (typeof this.agent !== 'string') throw new TypeError(`agent must be a product token such as "ExampleBot", got ${typeof this.agent}`);
    profileNamed(this.options.profile).agentKey(this.agent);
    this.maxEntries = checkWholeNumber('maxEntries', options.maxEntries ?? 100_000, 1);
    const now = options.now ?? Date.now;
    if (typeof now !== 'function') throw new TypeError(`now must be a function returning milliseconds, got ${typeof now}`);
    this.now = () => now();
  }

  /** Origins cached (fetches still in flight not counted). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * May the crawler fetch `url`? Fetches the origin's robots.txt first when it is not cached or has expired.
   * Throws a TypeError for a URL that is not absolute http(s); anything the network does is an answer.
   *
   * @example
   * await robots.isAllowed('https://example.com/some/page?x=1'); // true
   */
  isAllowed(url: string | URL): Promise<boolean> {
    return this.lookup(url, (entry) => {
      const { rules, result } = entry.copy;
      return rules !== undefined ? rules.isAllowed(urlText(url)) : result.outcome === 'allow-all';
    });
  }

  /**
   * The `Crawl-delay` (seconds) that applies to the crawler on `url`'s origin, or undefined.
   *
   * @example
   * await robots.crawlDelay('https://example.com/'); // 2
   */
  crawlDelay(url: string | URL): Promise<number | undefined> {
    return this.lookup(url, (entry) => entry.copy.rules?.crawlDelay);
  }

  /**
   * The verdict on `url`, the rule that decided it (line 0 and no rule when none did, or when the
   * outcome is allow-all or disallow-all) and where the robots.txt came from.
   *
   * @example
   * await robots.explain('https://example.com/private/x');
   * // { allowed: false, line: 3, rule: { kind: 'disallow', pattern: '/private/' },
   * //   source: { origin: 'https://example.com', outcome: 'rules', status: 200, from: 'cache', … } }
   */
  explain(url: string | URL): Promise<CachedExplanation> {
    return this.lookup(url, (entry, where, from) => {
      const source = this.describe(where, entry, from);
      const { rules, result } = entry.copy;
      if (rules === undefined) return { allowed: result.outcome === 'allow-all', line: 0, source };
      return { ...rules.explain(urlText(url)), source };
    });
  }

  /**
   * The robots.txt (or the allow-all / disallow-all outcome) for the origin of `originOrUrl`.
   *
   * @example
   * const cached = await robots.get('https://example.com');
   * cached.outcome; // 'rules'
   * cached.robots?.sitemaps; // ['https://example.com/sitemap.xml']
   */
  get(originOrUrl: string | URL): Promise<CachedRobots> {
    return this.lookup(originOrUrl, (entry, where, from): CachedRobots => {
      const source = this.describe(where, entry, from);
      const { result, rules } = entry.copy;
      if (result.outcome === 'rules' && rules !== undefined) return { ...source, outcome: 'rules', robots: result.robots, rules };
      return { ...source, outcome: result.outcome === 'allow-all' ? 'allow-all' : 'disallow-all' };
    });
  }

  /**
   * Drops every cached origin and frees their compiled rules. The cache stays usable: later calls fetch anew.
   *
   * @example
   * robots.dispose(); // e.g. when the crawl ends
   */
  dispose(): void {
    for (const entry of this.entries.values()) disposeCopy(entry.copy);
    this.entries.clear();
  }

  private derivedAgent(): string {
    const token = LEADING_PRODUCT.exec(this.userAgent)?.[0];
    if (token === undefined) {
      throw new TypeError(
        `Cannot derive a product token from userAgent ${JSON.stringify(this.userAgent)}: ` +
          `pass { agent: 'ExampleBot' } (letters, "_" and "-"), the name your robots.txt groups use`,
      );
    }
    return token;
  }

  /**
   * Calls `read` with the origin's entry as soon as there is one: at once when it is fresh, else when the
   * fetch (shared by every caller for that origin) settles. `read` runs in the same turn the entry is
   * found or stored, so no eviction can dispose it in between.
   */
  private lookup<T>(input: string | URL, read: (entry: Entry, where: RobotsLocation, from: RobotsSourceKind) => T): Promise<T> {
    let where: RobotsLocation;
    try {
      where = robotsLocation(input);
    } catch (error) {
      return Promise.reject(error);
    }
    const entry = this.entries.get(where.origin);
    if (entry !== undefined && this.now() < entry.expiresAt) {
      this.remember(where.origin, entry);
      try {
        return Promise.resolve(read(entry, where, entry.stale ? 'stale' : 'cache'));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise<T>((resolve, reject) => {
      let waiters = this.flights.get(where.origin);
      if (waiters === undefined) {
        waiters = [];
        this.flights.set(where.origin, waiters);
        void this.fly(where, waiters);
      }
      waiters.push({
        settle: (settled) => {
          try {
            resolve(read(settled, where, settled.stale ? 'stale' : 'network'));
          } catch (error) {
            reject(error);
          }
        },
        fail: reject,
      });
    });
  }

  private async fly(where: RobotsLocation, waiters: readonly Waiter[]): Promise<void> {
    let entry: Entry;
    try {
      const result = await fetchRobotsAt(where, this.options);
      entry = this.store(where.origin, result);
    } catch (error) {
      this.flights.delete(where.origin);
      for (const waiter of waiters) waiter.fail(error);
      return;
    }
    this.flights.delete(where.origin);
    for (const waiter of waiters) waiter.settle(entry);
  }

  /** Turns a fetch result into the origin's entry (keeping a good copy through an outage) and stores it. */
  private store(origin: string, result: RobotsFetchResult): Entry {
    const now = this.now();
    const previous = this.entries.get(origin);
    let entry: Entry;
    if (result.outcome !== 'disallow-all') {
      const rules = result.outcome === 'rules' ? result.robots.forAgent(this.agent) : undefined;
      const copy = { result, rules, fetchedAt: now };
      entry = { copy, stale: false, expiresAt: now + lifetimeOf(result), failures: 0, refreshFailure: undefined };
    } else {
      const failures = (previous?.failures ?? 0) + 1;
      const retryAt = now + backoffAfter(failures);
      const kept = previous?.copy;
      const staleUntil = kept === undefined ? 0 : kept.fetchedAt + CACHE_LIMITS.staleLimit;
      if (kept !== undefined && kept.result.outcome !== 'disallow-all' && now < staleUntil) {
        const refreshFailure = { reason: result.reason, status: result.status, at: now };
        entry = { copy: kept, stale: true, expiresAt: Math.min(retryAt, staleUntil), failures, refreshFailure };
      } else {
        entry = { copy: { result, rules: undefined, fetchedAt: now }, stale: false, expiresAt: retryAt, failures, refreshFailure: undefined };
      }
    }
    if (previous !== undefined && previous.copy !== entry.copy) disposeCopy(previous.copy);
    this.remember(origin, entry);
    for (const [oldest, evicted] of this.entries) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
      disposeCopy(evicted.copy);
    }
    return entry;
  }

  private remember(origin: string, entry: Entry): void {
    this.entries.delete(origin);
    this.entries.set(origin, entry);
  }

  private describe(where: RobotsLocation, entry: Entry, from: RobotsSourceKind): RobotsSource {
    const { result, fetchedAt } = entry.copy;
    const source: RobotsSource = {
      origin: where.origin,
      robotsUrl: where.robotsUrl,
      outcome: result.outcome,
      reason: result.reason,
      status: result.status,
      fetchedAt,
      expiresAt: entry.expiresAt,
      from,
      finalUrl: result.finalUrl,
      redirects: result.redirects,
      bytes: result.bytes,
      truncated: result.truncated,
      contentType: result.contentType,
      looksLikeHtml: result.looksLikeHtml,
    };
    return entry.refreshFailure === undefined ? source : { ...source, refreshFailure: entry.refreshFailure };
  }
}
