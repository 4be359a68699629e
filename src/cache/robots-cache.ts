/**
 * robots.txt per origin for a crawler: fetched by the standard, cached by the standard, shared between
 * concurrent callers, bounded in size, and compiled once per origin for the crawler's agent. This module is
 * the flow; the options are checked in cache-options.ts, the entries change by cache-transitions.ts, the
 * budgets are kept by lru-budget.ts, and concurrent callers share a fetch through flight.ts.
 * RFC 9309 §2.3.1, §2.4; https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt
 */
import { disposeKey } from '../api/disposable.js';
import type { AbortSignalShape, URLInput } from '../api/web-types.js';
import { resolveCacheOptions, type ResolvedCacheOptions } from './cache-options.js';
import { nextEntry, validatorsOf, withoutParse, type Copy, type Entry as CacheEntry } from './cache-transitions.js';
import { CachedFile } from './cached-file.js';
import type { RobotsStoreStats } from './robots-store.js';
import { Flight, requestsHaveOwnContexts, type Landing, type Waiter } from './flight.js';
import { fetchRobotsAt, hostRefusal, type FetchAttempt, type NotModified, type Validators } from '../fetch/fetch-robots.js';
import { LruBudget, type Share } from './lru-budget.js';
import { locateUrl, type RobotsLocation } from '../fetch/origin.js';
import type { RobotsFetchResult } from '../fetch/outcome.js';
import { parseFetchedRobotsTxt, type RobotsTxt } from '../api/robots-txt.js';
import type { SharedEntry } from './shared-record.js';
import { NO_PREFERENCES, type UsagePreferences } from '../usage/usage-rules.js';
import { SharedTier, UNAVAILABLE, type Lease } from './shared-tier.js';
import {
  RobotsCacheDisposedError,
  type CachedExplanation,
  type CachedRobots,
  type RobotsCacheOptions,
  type RobotsCacheStats,
  type RobotsCallOptions,
  type RobotsSource,
  type RobotsSourceKind,
} from './robots-cache-types.js';

/** An origin's entry, its file compiled for the cache's agent. */
type Entry = CacheEntry<CachedFile>;

/** What a fetch in flight lands with: the origin's new entry, and where it came from. */
interface Landed {
  readonly entry: Entry;
  readonly from: RobotsSourceKind;
}

type Reader<T> = (entry: Entry, url: URL, where: RobotsLocation, from: RobotsSourceKind) => T;

/** How long past its fetch's and store calls' deadlines a lease lasts before another process may take it over. */
const LEASE_MARGIN_MS = 1_000;

const NO_STORE_COUNTS: RobotsStoreStats = { hits: 0, misses: 0, writes: 0, errors: 0, fallbacks: 0, waits: 0, takeovers: 0, invalid: 0 };

function disposeCopy(copy: Copy<CachedFile>): void {
  copy.file?.dispose();
}

/** A fetch that lands after dispose(): nothing of it is kept. */
function dropAttempt(attempt: RobotsFetchResult | NotModified): void {
  if (attempt.outcome === 'rules') attempt.robots.dispose();
}

/** Bytes an entry's file holds (0 for an allow-all or disallow-all answer). */
function heldBy(entry: Entry): number {
  return entry.copy.file?.bytesHeld ?? 0;
}

/** What an entry's file shares with others: its compiled rulesets. */
function sharedBy(entry: Entry): readonly Share[] {
  return entry.copy.file?.shares ?? [];
}

/** An entry as its callers get it: a stale one says so, whatever brought it. */
function landed(entry: Entry, from: RobotsSourceKind): Landed {
  return { entry, from: entry.stale ? 'stale' : from };
}

function abortReason(signal: AbortSignalShape): unknown {
  return signal.reason ?? new Error('the call was aborted');
}

/**
 * The robots.txt of every origin a crawler visits, fetched on first use and cached by the standard.
 *
 * - 2xx: the file's rules; 3xx: up to 5 redirects followed (across hosts), then allow all; 4xx (401 and
 *   403 included): allow all; 5xx, 429, timeouts, network failures: disallow all.
 * - A copy is used for its `Cache-Control: max-age`, at least 60 s and at most 24 h (24 h by default), then
 *   revalidated with `ETag`/`Last-Modified` when it had them. When a refresh finds the site unreachable,
 *   the last good copy keeps answering (`from: 'stale'`) for up to 30 days after it was fetched; without
 *   one, everything is disallowed and the site is asked again after 1 min, 2 min, 4 min, … up to 1 h (or
 *   later, when its `Retry-After` says so).
 * - With `allowHost` (such as `publicHostsOnly`), a refused host is not fetched: it disallows everything
 *   (reason `'host-refused'`), and the policy is asked again after `minLifetimeMs`.
 * - Concurrent calls for one origin share one request; at most `maxEntries` origins are kept, the least
 *   recently used one dropped first (its compiled rules freed).
 * - URLs are parsed once, with the URL parser fetch() uses: the path and query that decide are those a
 *   crawler's fetch() of the same URL requests.
 *
 * @example
 * import { createServer } from 'node:http';
 * import { RobotsCache } from 'robotstxt-wasm';
 * // A site on 127.0.0.1 to ask; a crawler asks real sites by their URLs.
 * const site = createServer((request, response) => response.end('User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n\nSitemap: https://example.com/sitemap.xml\n'));
 * await new Promise<void>((listening) => site.listen(0, '127.0.0.1', listening));
 * const origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
 * const robots = new RobotsCache({ userAgent: 'Mozilla/5.0 (compatible; ExampleBot/1.2; +https://example.com/bot)' });
 * robots.agent; // 'ExampleBot'
 * await robots.isAllowed(`${origin}/private/x`); // false
 * await robots.isAllowed(`${origin}/some/page?x=1`); // true
 * site.close();
 */
export class RobotsCache {
  /** The User-Agent header sent with robots.txt requests. */
  readonly userAgent: string;
  /** The product token the rules are matched for. */
  readonly agent: string;
  private readonly settings: ResolvedCacheOptions;
  private readonly now: () => number;
  /** Each origin's entry, under the maxEntries and maxMemoryBytes budgets. */
  private readonly entries: LruBudget<string, Entry>;
  private readonly flights = new Map<string, Flight<Landed>>();
  /** Cloudflare Workers: callers in other requests' contexts watch a flight instead (src/cache/flight.ts). */
  private readonly requestsHaveOwnContexts = requestsHaveOwnContexts();
  private disposed = false;
  private readonly counts = { hits: 0, fetches: 0, revalidations: 0, staleAnswers: 0, evictions: 0 };
  /** The store the fleet shares, when the `store` option gives one. */
  private readonly shared: SharedTier | undefined;

  /**
   * Checks the options (TypeError or RangeError for a bad one) and makes an empty cache.
   *
   * @example
   * import { RobotsCache } from 'robotstxt-wasm';
   * const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2 (+https://example.com/bot)', timeoutMs: 5_000 });
   * robots.agent; // 'ExampleBot'
   */
  constructor(options: RobotsCacheOptions) {
    this.settings = resolveCacheOptions(options);
    this.userAgent = this.settings.fetch.userAgent;
    this.agent = this.settings.agent;
    this.now = this.settings.fetch.now;
    this.entries = new LruBudget(this.settings.maxEntries, this.settings.maxMemoryBytes, heldBy, sharedBy);
    const { store } = this.settings;
    if (store !== undefined) {
      this.shared = new SharedTier({
        store: store.store,
        timeoutMs: store.timeoutMs,
        retryMs: store.retryMs,
        // Its fetch's deadlines (a 304 for a copy gone meanwhile takes a second fetch), its store calls, a margin.
        leaseMs: 2 * this.settings.fetch.timeoutMs + 3 * store.timeoutMs + LEASE_MARGIN_MS,
        maxBytes: this.settings.fetch.maxBytes,
        now: this.now,
        lifetimes: this.settings.lifetimes,
        profile: this.settings.fetch.profile,
      });
    }
  }

  /** Origins cached (fetches still in flight not counted). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * May the crawler fetch `url`? Fetches the origin's robots.txt first when it is not cached or has expired.
   * Rejects with a TypeError for a URL that is not absolute http(s), with the signal's reason when
   * `signal` aborts first, and with RobotsCacheDisposedError after dispose(); anything the network does
   * is an answer.
   *
   * @example
   * import { createServer } from 'node:http';
   * import { RobotsCache } from 'robotstxt-wasm';
   * // A site on 127.0.0.1 to ask; a crawler asks real sites by their URLs.
   * const site = createServer((request, response) => response.end('User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n\nSitemap: https://example.com/sitemap.xml\n'));
   * await new Promise<void>((listening) => site.listen(0, '127.0.0.1', listening));
   * const origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
   * const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2' });
   * await robots.isAllowed(`${origin}/some/page?x=1`); // true
   * await robots.isAllowed(new URL(`${origin}/private/x`), { signal: AbortSignal.timeout(5_000) }); // false
   * site.close();
   */
  isAllowed(url: string | URLInput, options?: RobotsCallOptions): Promise<boolean> {
    return this.lookup(url, options, (entry, parsed) => {
      const { file, facts } = entry.copy;
      return file !== undefined ? file.rules.isAllowed(parsed) : facts.outcome === 'allow-all';
    });
  }

  /**
   * What the crawler may do with the content at `url` (AgentRules.usage() on the cached file): `null` when
   * it may not fetch it, a 5xx or unreachable robots.txt (disallow-all) included; every purpose `'unknown'`
   * when the file allows everything by its fetch (a 4xx: no file, no preference stated).
   *
   * @example
   * import { createServer } from 'node:http';
   * import { RobotsCache } from 'robotstxt-wasm';
   * // A site on 127.0.0.1 to ask; a crawler asks real sites by their URLs.
   * const site = createServer((request, response) => response.end('User-agent: *\nDisallow: /private/\nContent-Signal: search=yes, ai-train=no\n'));
   * await new Promise<void>((listening) => site.listen(0, '127.0.0.1', listening));
   * const origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
   * const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2' });
   * const usage = await robots.usage(`${origin}/some/page`);
   * usage?.['train-ai']; // 'disallow'
   * usage?.search; // 'allow'
   * await robots.usage(`${origin}/private/x`); // null
   * site.close();
   */
  usage(url: string | URLInput, options?: RobotsCallOptions): Promise<UsagePreferences | null> {
    return this.lookup(url, options, (entry, parsed) => {
      const { file, facts } = entry.copy;
      if (file !== undefined) return file.rules.usage(parsed);
      return facts.outcome === 'allow-all' ? NO_PREFERENCES : null;
    });
  }

  /**
   * The `Crawl-delay` (seconds) that applies to the crawler on `url`'s origin, or undefined.
   *
   * @example
   * import { createServer } from 'node:http';
   * import { RobotsCache } from 'robotstxt-wasm';
   * // A site on 127.0.0.1 to ask; a crawler asks real sites by their URLs.
   * const site = createServer((request, response) => response.end('User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n\nSitemap: https://example.com/sitemap.xml\n'));
   * await new Promise<void>((listening) => site.listen(0, '127.0.0.1', listening));
   * const origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
   * const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2' });
   * await robots.crawlDelay(`${origin}/`); // 2
   * site.close();
   */
  crawlDelay(url: string | URLInput, options?: RobotsCallOptions): Promise<number | undefined> {
    return this.lookup(url, options, (entry) => entry.copy.file?.rules.crawlDelay);
  }

  /**
   * The verdict on `url`, the rule that decided it (line 0 and no rule when none did, or when the
   * outcome is allow-all or disallow-all) and where the robots.txt came from.
   *
   * @example
   * import { createServer } from 'node:http';
   * import { RobotsCache } from 'robotstxt-wasm';
   * // A site on 127.0.0.1 to ask; a crawler asks real sites by their URLs.
   * const site = createServer((request, response) => response.end('User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n\nSitemap: https://example.com/sitemap.xml\n'));
   * await new Promise<void>((listening) => site.listen(0, '127.0.0.1', listening));
   * const origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
   * const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2' });
   * await robots.explain(`${origin}/private/x`);
   * // { allowed: false, line: 2, rule: { kind: 'disallow', pattern: '/private/' },
   * //   source: { outcome: 'rules', status: 200, from: 'network', … } }
   * site.close();
   */
  explain(url: string | URLInput, options?: RobotsCallOptions): Promise<CachedExplanation> {
    return this.lookup(url, options, (entry, parsed, where, from) => {
      const source = this.describe(where, entry, from);
      const { file, facts } = entry.copy;
      if (file === undefined) return { allowed: facts.outcome === 'allow-all', line: 0, source };
      return { ...file.rules.explain(parsed), source };
    });
  }

  /**
   * The robots.txt (or the allow-all / disallow-all outcome) for the origin of `originOrUrl`.
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
   * cached.outcome; // 'rules'
   * cached.robots?.sitemaps; // ['https://example.com/sitemap.xml']
   * site.close();
   */
  get(originOrUrl: string | URLInput, options?: RobotsCallOptions): Promise<CachedRobots> {
    return this.lookup(originOrUrl, options, (entry, _url, where, from): CachedRobots => {
      const source = this.describe(where, entry, from);
      const { file, facts } = entry.copy;
      if (file !== undefined) return { ...source, outcome: 'rules', robots: file.robots(), rules: file.rules };
      return { ...source, outcome: facts.outcome === 'allow-all' ? 'allow-all' : 'disallow-all' };
    });
  }

  /**
   * What the cache has done so far, and what it holds.
   *
   * @example
   * import { createServer } from 'node:http';
   * import { RobotsCache } from 'robotstxt-wasm';
   * // A site on 127.0.0.1 to ask; a crawler asks real sites by their URLs.
   * const site = createServer((request, response) => response.end('User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n\nSitemap: https://example.com/sitemap.xml\n'));
   * await new Promise<void>((listening) => site.listen(0, '127.0.0.1', listening));
   * const origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
   * const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2' });
   * await robots.isAllowed(`${origin}/a`);
   * await robots.isAllowed(`${origin}/b`);
   * robots.stats(); // { entries: 1, hits: 1, fetches: 1, revalidations: 0, staleAnswers: 0, evictions: 0, … }
   * site.close();
   */
  stats(): RobotsCacheStats {
    const store = { ...(this.shared?.counts ?? NO_STORE_COUNTS) };
    return { entries: this.entries.size, ...this.counts, bytesHeld: this.entries.bytesHeld, store };
  }

  /**
   * Drops every cached origin and frees their compiled rules; the cache stays usable (later calls fetch
   * anew). Fetches in flight go on and are cached when they land.
   *
   * @example
   * import { createServer } from 'node:http';
   * import { RobotsCache } from 'robotstxt-wasm';
   * // A site on 127.0.0.1 to ask; a crawler asks real sites by their URLs.
   * const site = createServer((request, response) => response.end('User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n\nSitemap: https://example.com/sitemap.xml\n'));
   * await new Promise<void>((listening) => site.listen(0, '127.0.0.1', listening));
   * const origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
   * const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2' });
   * await robots.isAllowed(`${origin}/`);
   * robots.clear();
   * robots.size; // 0
   * site.close();
   */
  clear(): void {
    for (const entry of this.entries.clear()) disposeCopy(entry.copy);
  }

  /**
   * Ends the cache: frees every compiled ruleset, cancels the fetches in flight (their callers get a
   * RobotsCacheDisposedError), and every later call rejects with that error too. Idempotent.
   *
   * @example
   * import { RobotsCache } from 'robotstxt-wasm';
   * const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2' });
   * robots.dispose(); // e.g. when the crawl ends
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.clear();
    const error = new RobotsCacheDisposedError();
    for (const flight of this.flights.values()) {
      flight.cancel.abort(error);
      flight.land({ error });
    }
    this.flights.clear();
  }
  /** dispose(), for `using`: `using robots = new RobotsCache({ userAgent: 'ExampleBot/1.2' });` ends the cache at the end of the block. */
  [disposeKey](): void {
    this.dispose();
  }

  /**
   * Calls `read` with the origin's entry as soon as there is one: at once when it is fresh, else when the
   * fetch (shared by every caller for that origin) settles. `read` runs in the same turn the entry is
   * found or stored, so no eviction can dispose it in between.
   */
  private lookup<T>(input: string | URLInput, options: RobotsCallOptions | undefined, read: Reader<T>): Promise<T> {
    let url: URL;
    let where: RobotsLocation;
    let signal: AbortSignalShape | undefined;
    try {
      if (this.disposed) throw new RobotsCacheDisposedError();
      ({ url, location: where } = locateUrl(input));
      signal = options?.signal as AbortSignalShape | undefined;
      if (signal?.aborted === true) throw abortReason(signal);
      const entry = this.entries.peek(where.origin);
      if (entry !== undefined && this.now() < entry.expiresAt) {
        this.entries.touch(where.origin);
        this.counts.hits++;
        if (entry.stale) this.counts.staleAnswers++;
        return Promise.resolve(read(entry, url, where, entry.stale ? 'stale' : 'cache'));
      }
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        waiter.done = true;
        reject(abortReason(signal as AbortSignalShape));
      };
      const waiter: Waiter<Landed> = {
        done: false,
        land: (landing) => {
          waiter.done = true;
          signal?.removeEventListener('abort', onAbort);
          if ('error' in landing) return reject(landing.error);
          const { entry, from } = landing.value;
          if (from === 'stale') this.counts.staleAnswers++;
          try {
            resolve(read(entry, url, where, from));
          } catch (error) {
            reject(error);
          }
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.await(where, waiter);
    });
  }

  /** Has `waiter` answered by the origin's flight, joined or launched. */
  private await(where: RobotsLocation, waiter: Waiter<Landed>): void {
    const joined = this.flights.get(where.origin);
    if (joined === undefined) return this.launch(where).notify(waiter);
    if (!this.requestsHaveOwnContexts) return joined.notify(waiter);
    joined.watch(waiter, () => {
      // Overdue: the request that launched it ended first and its fetch was cancelled. Fetch from here.
      if (this.flights.get(where.origin) === joined) this.flights.delete(where.origin);
      this.await(where, waiter);
    });
  }

  private launch(where: RobotsLocation): Flight<Landed> {
    // A fetch, and a second one when a 304 confirms a copy no longer held: two deadlines at most; with a
    // store, its calls and the wait for another process's lease too.
    const flight = new Flight<Landed>(2 * this.settings.fetch.timeoutMs + (this.shared?.longestWaitMs ?? 0));
    this.flights.set(where.origin, flight);
    void this.fly(where, flight);
    return flight;
  }

  private async fly(where: RobotsLocation, flight: Flight<Landed>): Promise<void> {
    let landing: Landing<Landed>;
    try {
      landing = { value: await this.fetchEntry(where, flight) };
    } catch (error) {
      landing = { error };
    }
    if (this.flights.get(where.origin) === flight) this.flights.delete(where.origin);
    flight.land(landing);
  }

  /**
   * The origin's next entry: refused by the crawler's own host policy, or through the store when there is
   * one, else from the site.
   */
  private async fetchEntry(where: RobotsLocation, flight: Flight<Landed>): Promise<Landed> {
    // The crawler's own decision, made without the network or the store (nothing of it is shared): no fetch
    // counted, no back-off (cache-transitions.ts).
    const refused = hostRefusal(where, this.settings.fetch);
    if (refused !== undefined) return landed(this.store(where.origin, { result: refused }), 'network');
    return this.shared === undefined ? this.fetchFromSite(where, flight) : this.fetchShared(this.shared, where, flight);
  }

  /**
   * The second level: a fresh record another process stored answers without the network. Else one process
   * of the fleet fetches (the one that takes the origin's lease; the others wait for its record), from the
   * fleet's last entry for the origin (its validators, its stale copy, its back-off), and stores what it
   * got. Whatever the store does, the caller gets an answer: a store that fails is fetched around.
   */
  private async fetchShared(shared: SharedTier, where: RobotsLocation, flight: Flight<Landed>): Promise<Landed> {
    const origin = where.origin;
    const record = await shared.read(origin);
    if (record !== UNAVAILABLE && record !== undefined && this.now() < record.expiresAt) {
      shared.counts.hits++;
      return landed(this.adopt(origin, record), 'store');
    }
    let lease: Lease | undefined;
    let usable = record !== UNAVAILABLE;
    if (usable) shared.counts.misses++;
    if (usable && shared.leases) {
      const first = await shared.claim(origin);
      const claim = first === 'held' ? await shared.waitFor(origin, flight.cancel.signal) : first;
      if (this.disposed) throw new RobotsCacheDisposedError();
      if (claim === UNAVAILABLE) usable = false;
      else if ('entry' in claim) {
        shared.counts.hits++;
        return landed(this.adopt(origin, claim.entry), 'store');
      } else lease = claim.lease;
    }
    if (!usable) shared.counts.fallbacks++;
    // An expired record is the fleet's latest word on the origin: what this fetch revalidates or follows.
    if (record !== UNAVAILABLE && record !== undefined) this.adoptExpired(origin, record);
    try {
      const landing = await this.fetchFromSite(where, flight);
      if (usable) await shared.write(origin, this.sharedEntry(landing.entry));
      return landing;
    } finally {
      if (lease !== undefined) void shared.release(lease);
    }
  }

  /**
   * Fetches the origin's robots.txt (conditionally, when its copy has validators), turns what came back
   * into the origin's next entry, and keeps that.
   */
  private async fetchFromSite(where: RobotsLocation, flight: Flight<Landed>): Promise<Landed> {
    const origin = where.origin;
    const held = this.entries.peek(origin)?.copy;
    const validators = this.settings.revalidate && held !== undefined ? validatorsOf(held) : undefined;
    const { result, body } = await this.fetchOnce(where, flight, validators);
    if (result.outcome !== 'not-modified') return landed(this.store(origin, { result, body }), 'network');
    const current = this.entries.peek(origin);
    if (current !== undefined && current.copy === held) {
      this.counts.revalidations++;
      return landed(this.keep(origin, nextEntry(current, result, this.now(), this.settings)), 'revalidated');
    }
    // The copy the 304 confirms was evicted or cleared meanwhile: fetch the file itself.
    return landed(this.store(origin, await this.fetchOnce(where, flight)), 'network');
  }

  /** One fetch, counted; one that lands after dispose() is dropped, and its callers get the error. */
  private fetchOnce(where: RobotsLocation, flight: Flight<Landed>): Promise<FetchAttempt<RobotsFetchResult>>;
  private fetchOnce(
    where: RobotsLocation,
    flight: Flight<Landed>,
    validators: Validators | undefined,
  ): Promise<FetchAttempt<RobotsFetchResult | NotModified>>;
  private async fetchOnce(
    where: RobotsLocation,
    flight: Flight<Landed>,
    validators?: Validators,
  ): Promise<FetchAttempt<RobotsFetchResult | NotModified>> {
    this.counts.fetches++;
    const attempt = await fetchRobotsAt(where, this.settings.fetch, flight.cancel.signal, validators);
    if (this.disposed) {
      dropAttempt(attempt.result);
      throw new RobotsCacheDisposedError();
    }
    return attempt;
  }

  /** Turns a fetch result into the origin's next entry (keeping a good copy through an outage) and keeps it. */
  private store(origin: string, { result, body }: FetchAttempt<RobotsFetchResult>): Entry {
    const now = this.now();
    const previous = this.entries.peek(origin);
    const file = result.outcome === 'rules' ? this.keepFile(result.robots, body ?? new Uint8Array(0), result.bytesIgnored) : undefined;
    return this.keep(origin, nextEntry(previous, { facts: withoutParse(result), file }, now, this.settings));
  }

  /** A record another process stored, kept as the origin's entry, compiled here (unless it is the copy held). */
  private adopt(origin: string, record: SharedEntry): Entry {
    const { copy } = record;
    const held = this.entries.peek(origin)?.copy.file;
    let file: CachedFile | undefined;
    if (copy.file !== undefined) {
      file = held?.holdsBody(copy.file) === true ? held : this.compileFile(copy.file, copy.facts.bytesIgnored);
    }
    return this.keep(origin, { ...record, copy: { ...copy, file } });
  }

  /** An expired record, kept as the origin's entry unless this process holds a later copy. */
  private adoptExpired(origin: string, record: SharedEntry): void {
    const held = this.entries.peek(origin);
    if (held === undefined || held.copy.fetchedAt <= record.copy.fetchedAt) this.adopt(origin, record);
  }

  /** An entry as the fleet shares it: the file's body instead of its compiled rules. */
  private sharedEntry(entry: Entry): SharedEntry {
    return { ...entry, copy: { ...entry.copy, file: entry.copy.file?.body } };
  }

  /** A body fetched by another process: parsed as this cache's fetch would have, then kept as keepFile() keeps it. */
  private compileFile(body: Uint8Array, bytesIgnored: number | undefined): CachedFile {
    const { profile, maxBytes } = this.settings.fetch;
    return this.keepFile(parseFetchedRobotsTxt(body, { profile, maxBytes }, bytesIgnored), body, bytesIgnored);
  }

  /**
   * Stores `entry` as the origin's most recently used, freeing the file it replaces (unless it keeps it)
   * and the files of the origins the budgets evict.
   */
  private keep(origin: string, entry: Entry): Entry {
    const replaced = this.entries.peek(origin);
    if (replaced !== undefined && replaced.copy.file !== entry.copy.file) disposeCopy(replaced.copy);
    for (const evicted of this.entries.set(origin, entry)) {
      disposeCopy(evicted.copy);
      this.counts.evictions++;
    }
    return entry;
  }

  /** The file of a 2xx: its bytes and the rules compiled for the cache's agent, without the parse tree. */
  private keepFile(robots: RobotsTxt, body: Uint8Array, bytesIgnored: number | undefined): CachedFile {
    const { profile, maxBytes } = this.settings.fetch;
    const parse = { profile, maxBytes, bytesIgnored };
    // Indexed at once: the budget counts an entry's bytes when it is stored, and a tier switch later would
    // change them (the scan tier is for rules asked a few times; a cache keeps rules to ask them again).
    const rules = robots.forAgent(this.agent, { indexed: true });
    return new CachedFile(body, parse, robots, this.agent, rules);
  }

  private describe(where: RobotsLocation, entry: Entry, from: RobotsSourceKind): RobotsSource {
    const { facts: result, fetchedAt } = entry.copy;
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
      bytesIgnored: result.bytesIgnored,
      contentType: result.contentType,
      looksLikeHtml: result.looksLikeHtml,
    };
    return entry.refreshFailure === undefined ? source : { ...source, refreshFailure: entry.refreshFailure };
  }
}
