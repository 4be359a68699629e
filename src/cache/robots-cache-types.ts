/**
 * What RobotsCache's callers see: its options, its answers and their sources, its statistics, and the
 * error its calls reject with after dispose(). src/index.ts re-exports them all.
 */
import type { AgentRules, Explanation } from '../api/agent-rules.js';
import type { RobotsTxt } from '../api/robots-txt.js';
import type { AbortSignalInput } from '../api/web-types.js';
import type { FetchRobotsOptions } from '../fetch/options.js';
import type { RobotsFetchReason, RobotsFetchResult } from '../fetch/outcome.js';
import type { RobotsStore, RobotsStoreStats } from './robots-store.js';

/**
 * Options of RobotsCache: those of fetchRobotsTxt(), plus the agent, the bounds and the clock.
 *
 * @example
 * import { RobotsCache } from 'robotstxt-wasm';
 * const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2 (+https://example.com/bot)', maxEntries: 10_000 });
 * robots.agent; // 'ExampleBot'
 */
export interface RobotsCacheOptions extends FetchRobotsOptions {
  /**
   * The product token the rules are matched for. Default: the crawler's token in `userAgent`, found by
   * productToken() (`'Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)'` → `'ExampleBot'`);
   * a TypeError when it holds none.
   */
  readonly agent?: string;
  /** Origins kept; the least recently used one is dropped (and its memory freed) beyond. Default 100,000. */
  readonly maxEntries?: number;
  /**
   * Bytes the cached files may hold in all (their bodies and compiled rules, as stats().bytesHeld counts
   * them); beyond, the least recently used origins are dropped, whatever their number. The origin just
   * fetched is always kept, even alone over the budget. Default 536,870,912 (512 MiB).
   */
  readonly maxMemoryBytes?: number;
  /**
   * The shortest time a definitive answer is kept, whatever its `Cache-Control` says (`no-store`,
   * `max-age=0`, an invalid max-age): the cache never asks a site more often. Default 60,000 (1 min).
   */
  readonly minLifetimeMs?: number;
  /** The longest, and the lifetime without `Cache-Control`. Default and upper bound 86,400,000 (24 h, RFC 9309 §2.4). */
  readonly maxLifetimeMs?: number;
  /** Renew an expired copy with a conditional request (`If-None-Match`, `If-Modified-Since`); a 304 keeps it. Default true. */
  readonly revalidate?: boolean;
  /** Wait as long as a 429's or 503's `Retry-After` asks (at most 1 h) before asking again. Default true. */
  readonly honorRetryAfter?: boolean;
  /** The clock, in milliseconds since the epoch. Default `Date.now`; tests move it instead of sleeping. */
  readonly now?: () => number;
  /**
   * A store the crawler's processes share (Redis through `robotstxt-wasm/redis`, the Workers Cache API
   * through `robotstxt-wasm/cache-api`, or your own RobotsStore): asked when an origin is not in this cache or
   * has expired, before the network. With leases, one process of the fleet fetches an origin while the
   * others wait for what it stores.
   */
  readonly store?: RobotsStore;
  /** Each store call's deadline, in milliseconds: past it the cache fetches by itself. Default 500. */
  readonly storeTimeoutMs?: number;
  /** How long a store that failed (or missed a deadline) is left alone before it is tried again. Default 5,000. */
  readonly storeRetryMs?: number;
}

/** Options of one call: `signal` lets the caller stop waiting (the shared fetch goes on for the others). */
export interface RobotsCallOptions {
  /** Rejects the call with the signal's reason when it aborts first. */
  readonly signal?: AbortSignalInput;
}

/**
 * Where an answer came from: a fetch made for it, a conditional fetch that confirmed the copy held
 * (304), a fresh cached copy, a record another process of the fleet stored (the `store` option), or an old
 * copy standing in for an unreachable site. An answer of reason `'host-refused'` is `'network'` when the
 * `allowHost` decision was made for it, though nothing was sent.
 */
export type RobotsSourceKind = 'network' | 'revalidated' | 'cache' | 'store' | 'stale';

/** A refresh that found the site unreachable while an older copy was served instead. */
export interface RefreshFailure {
  /** Why the refresh failed: a reason whose outcome is `'disallow-all'` (`'timeout'`, `'server-error'` …). */
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
 * import { createServer } from 'node:http';
 * import { RobotsCache } from 'robotstxt-wasm';
 * // A site on 127.0.0.1 to ask; a crawler asks real sites by their URLs.
 * const site = createServer((request, response) => response.end('User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n\nSitemap: https://example.com/sitemap.xml\n'));
 * await new Promise<void>((listening) => site.listen(0, '127.0.0.1', listening));
 * const origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
 * const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2' });
 * (await robots.explain(`${origin}/private/x`)).source;
 * // { outcome: 'rules', reason: 'ok', status: 200, from: 'network', looksLikeHtml: false, … }
 * site.close();
 */
export interface RobotsSource extends Pick<
  RobotsFetchResult,
  | 'origin'
  | 'robotsUrl'
  | 'outcome'
  | 'reason'
  | 'status'
  | 'finalUrl'
  | 'redirects'
  | 'bytes'
  | 'truncated'
  | 'bytesIgnored'
  | 'contentType'
  | 'looksLikeHtml'
> {
  /** When the copy was fetched, or last confirmed by a 304 (the `now` clock, ms). */
  readonly fetchedAt: number;
  /** When the cache asks the network again (ms). */
  readonly expiresAt: number;
  /** Where the answer came from: the network, a 304, this cache, the shared store, or a stale copy. */
  readonly from: RobotsSourceKind;
  /** Set when `from` is `'stale'`: the refresh that failed. */
  readonly refreshFailure?: RefreshFailure;
}

/** An origin whose robots.txt was fetched (2xx): the file, and its rules compiled for the cache's agent. */
export interface CachedRobotsRules extends RobotsSource {
  /** The file's rules decide. */
  readonly outcome: 'rules';
  /** The parsed file (the cache's: do not dispose it). */
  readonly robots: RobotsTxt;
  /** Its rules for the cache's `agent`, compiled (the cache's: do not dispose them). */
  readonly rules: AgentRules;
}

/** An origin with no file to apply: everything allowed (4xx) or nothing (unreachable). */
export interface CachedRobotsVerdict extends RobotsSource {
  /** Everything may be crawled, or nothing: see RobotsOutcome. */
  readonly outcome: 'allow-all' | 'disallow-all';
  /** No file: always undefined. */
  readonly robots?: undefined;
  /** No rules: always undefined. */
  readonly rules?: undefined;
}

/**
 * What RobotsCache.get() returns. `robots` and `rules` belong to the cache: they are disposed when the
 * entry is refreshed or evicted, so use them right away and do not dispose them yourself.
 *
 * @example
 * import { createServer } from 'node:http';
 * import { RobotsCache } from 'robotstxt-wasm';
 * // A site on 127.0.0.1 to ask; a crawler asks real sites by their URLs.
 * const site = createServer((request, response) => response.end('User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n\nSitemap: https://example.com/sitemap.xml\n'));
 * await new Promise<void>((listening) => site.listen(0, '127.0.0.1', listening));
 * const origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
 * const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2' });
 * const cached = await robots.get(origin);
 * if (cached.outcome === 'rules') cached.robots.sitemaps; // ['https://example.com/sitemap.xml']
 * site.close();
 */
export type CachedRobots = CachedRobotsRules | CachedRobotsVerdict;

/** A verdict with the rule that decided it and the robots.txt it came from. */
export interface CachedExplanation extends Explanation {
  /** The robots.txt the verdict was read from (or the outcome that stood in for it). */
  readonly source: RobotsSource;
}

/** What a cache has done so far, for operators (RobotsCache.stats()). */
export interface RobotsCacheStats {
  /** Origins cached now. */
  readonly entries: number;
  /** Calls answered from this cache's own copy without waiting for the network or the store (stale copies included). */
  readonly hits: number;
  /** robots.txt fetches started (conditional ones included). */
  readonly fetches: number;
  /** Conditional fetches that the site answered 304 Not Modified: the copy was kept without parsing again. */
  readonly revalidations: number;
  /** Calls answered with an old copy standing in for an unreachable site. */
  readonly staleAnswers: number;
  /** Origins dropped because the cache was full. */
  readonly evictions: number;
  /** Body bytes and compiled rules' bytes the cached origins hold. */
  readonly bytesHeld: number;
  /** What the shared store did (the `store` option); all zero without one. */
  readonly store: RobotsStoreStats;
}

/** Thrown by every call on a RobotsCache after dispose(), and to callers whose fetch dispose() cancelled. */
export class RobotsCacheDisposedError extends Error {
  /** Made by the cache; its message says what to do instead. */
  constructor() {
    super('this RobotsCache was disposed; create a new RobotsCache (use clear() to empty a cache and keep using it)');
    this.name = 'RobotsCacheDisposedError';
  }
}
