/**
 * robots.txt per origin for a crawler: fetched by the standard, cached by the standard, shared between
 * concurrent callers, bounded in size, and compiled once per origin for the crawler's agent.
 * RFC 9309 §2.3.1, §2.4; https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt
 */
import { disposeKey } from '../disposable.js';
import type { AgentRules, Explanation } from '../agent-rules.js';
import { profileNamed } from '../profile.js';
import type { RobotsTxt } from '../robots-txt.js';
import type { AbortSignalInput, AbortSignalShape, URLInput } from '../web-types.js';
import { backoffAfter, CACHE_LIMITS, lifetimeOf, type LifetimeBounds } from './cache-policy.js';
import { CachedFile } from './cached-file.js';
import { Flight, requestsHaveOwnContexts, type Landing, type Waiter } from './flight.js';
import { fetchRobotsAt, type FetchAttempt, type NotModified, type Validators } from './fetch-robots.js';
import { checkDuration, checkWholeNumber, resolveFetchOptions, type FetchRobotsOptions, type ResolvedFetchOptions } from './options.js';
import { locateUrl, type RobotsLocation } from './origin.js';
import type { RobotsFetchReason, RobotsFetchResult, RobotsFetchRules, RobotsFetchVerdict, RobotsOutcome } from './outcome.js';
import { productToken } from './product-token.js';

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
}

const DEFAULT_MAX_MEMORY_BYTES = 512 * 1024 * 1024;

/** Options of one call: `signal` lets the caller stop waiting (the shared fetch goes on for the others). */
export interface RobotsCallOptions {
  readonly signal?: AbortSignalInput;
}

/**
 * Where an answer came from: a fetch made for it, a conditional fetch that confirmed the copy held
 * (304), a fresh cached copy, or an old copy standing in for an unreachable site.
 */
export type RobotsSourceKind = 'network' | 'revalidated' | 'cache' | 'stale';

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
 * import { RobotsCache } from 'robotstxt-wasm';
 * const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2' });
 * (await robots.explain('https://example.com/private/x')).source;
 * // { origin: 'https://example.com', outcome: 'rules', reason: 'ok', status: 200, from: 'network', looksLikeHtml: false, … }
 */
export interface RobotsSource
  extends Pick<
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
 * import { RobotsCache } from 'robotstxt-wasm';
 * const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2' });
 * const cached = await robots.get('https://example.com');
 * if (cached.outcome === 'rules') cached.robots.sitemaps; // ['https://example.com/sitemap.xml']
 */
export type CachedRobots = CachedRobotsRules | CachedRobotsVerdict;

/** A verdict with the rule that decided it and the robots.txt it came from. */
export interface CachedExplanation extends Explanation {
  readonly source: RobotsSource;
}

/** What a cache has done so far, for operators (RobotsCache.stats()). */
export interface RobotsCacheStats {
  /** Origins cached now. */
  readonly entries: number;
  /** Calls answered from a cached copy without waiting for the network (stale copies included). */
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
}

/** Thrown by every call on a RobotsCache after dispose(), and to callers whose fetch dispose() cancelled. */
export class RobotsCacheDisposedError extends Error {
  constructor() {
    super('this RobotsCache was disposed; create a new RobotsCache (use clear() to empty a cache and keep using it)');
    this.name = 'RobotsCacheDisposedError';
  }
}

/** A fetch result without its parse tree: what the cache reports of it. */
type FetchFacts = Omit<RobotsFetchVerdict, 'outcome' | 'robots'> & { readonly outcome: RobotsOutcome };

/** One fetched answer as the cache keeps it. */
interface Copy {
  readonly facts: FetchFacts;
  /** The file and its rules compiled for the cache's agent, when the outcome is 'rules'. */
  readonly file: CachedFile | undefined;
  /** When it was fetched or last confirmed by a 304. */
  readonly fetchedAt: number;
  /** Cache-Control max-age (seconds) and validators, updated by a 304 (RFC 9111 §4.3.4). */
  readonly maxAge: number | undefined;
  readonly etag: string | undefined;
  readonly lastModified: string | undefined;
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

/** What a fetch in flight lands with: the origin's new entry, and where it came from. */
interface Landed {
  readonly entry: Entry;
  readonly from: RobotsSourceKind;
}

type Reader<T> = (entry: Entry, url: URL, where: RobotsLocation, from: RobotsSourceKind) => T;

function disposeCopy(copy: Copy): void {
  copy.file?.dispose();
}

/** A fetch that lands after dispose(): nothing of it is kept. */
function dropAttempt(attempt: RobotsFetchResult | NotModified): void {
  if (attempt.outcome === 'rules') attempt.robots.dispose();
}

/** The result without its parse tree, which the cache does not keep. */
function withoutParse(result: RobotsFetchResult): FetchFacts {
  if (result.outcome !== 'rules') return result;
  const { robots: _parsed, ...facts } = result;
  return facts;
}

/** Bytes an entry's file holds (0 for an allow-all or disallow-all answer). */
function heldBy(entry: Entry): number {
  return entry.copy.file?.bytesHeld ?? 0;
}

function validatorsOf(copy: Copy): Validators | undefined {
  if (copy.file === undefined || (copy.etag === undefined && copy.lastModified === undefined)) return undefined;
  return { url: copy.facts.finalUrl, etag: copy.etag, lastModified: copy.lastModified };
}

function checkFlag(name: string, value: unknown): boolean {
  if (value === undefined) return true;
  if (typeof value !== 'boolean') throw new TypeError(`${name} must be true or false, got ${typeof value}`);
  return value;
}

function checkLifetimes(options: RobotsCacheOptions): LifetimeBounds {
  const max = checkDuration('maxLifetimeMs', options.maxLifetimeMs ?? CACHE_LIMITS.maxLifetime);
  if (max > CACHE_LIMITS.maxLifetime) {
    throw new RangeError(`maxLifetimeMs must be at most ${CACHE_LIMITS.maxLifetime} (24 hours, RFC 9309 §2.4), got ${max}`);
  }
  const min = checkDuration('minLifetimeMs', options.minLifetimeMs ?? Math.min(CACHE_LIMITS.minLifetime, max));
  if (min > max) throw new RangeError(`minLifetimeMs (${min}) must not exceed maxLifetimeMs (${max})`);
  return { min, max };
}

function checkClock(now: unknown): () => number {
  if (typeof now !== 'function') throw new TypeError(`now must be a function returning milliseconds, got ${typeof now}`);
  const clock = now as () => unknown;
  const read = (): number => {
    const time = clock();
    if (typeof time !== 'number' || !Number.isFinite(time)) {
      throw new TypeError(`now() must return a finite number of milliseconds since the epoch, got ${String(time)}`);
    }
    return time;
  };
  read();
  return read;
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
 * - Concurrent calls for one origin share one request; at most `maxEntries` origins are kept, the least
 *   recently used one dropped first (its compiled rules freed).
 * - URLs are parsed once, with the URL parser fetch() uses: the path and query that decide are those a
 *   crawler's fetch() of the same URL requests.
 *
 * @example
 * import { RobotsCache } from 'robotstxt-wasm';
 * const robots = new RobotsCache({ userAgent: 'Mozilla/5.0 (compatible; ExampleBot/1.2; +https://example.com/bot)' });
 * robots.agent; // 'ExampleBot'
 * await robots.isAllowed('https://example.com/private/x'); // false
 * await robots.isAllowed('https://example.com/some/page?x=1'); // true
 */
export class RobotsCache {
  /** The User-Agent header sent with robots.txt requests. */
  readonly userAgent: string;
  /** The product token the rules are matched for. */
  readonly agent: string;
  private readonly options: ResolvedFetchOptions;
  private readonly maxEntries: number;
  private readonly maxMemoryBytes: number;
  /** What the cached files hold, kept current by remember() and the evictions. */
  private bytesHeld = 0;
  private readonly lifetimes: LifetimeBounds;
  private readonly revalidate: boolean;
  private readonly honorRetryAfter: boolean;
  private readonly now: () => number;
  /** In least-recently-used order: an entry is deleted and set again on each use. */
  private readonly entries = new Map<string, Entry>();
  private readonly flights = new Map<string, Flight<Landed>>();
  /** Cloudflare Workers: callers in other requests' contexts watch a flight instead (src/fetch/flight.ts). */
  private readonly requestsHaveOwnContexts = requestsHaveOwnContexts();
  private disposed = false;
  private readonly counts = { hits: 0, fetches: 0, revalidations: 0, staleAnswers: 0, evictions: 0 };

  /**
   * Checks the options (TypeError or RangeError for a bad one) and makes an empty cache.
   *
   * @example
   * import { RobotsCache } from 'robotstxt-wasm';
   * const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2 (+https://example.com/bot)', timeoutMs: 5_000 });
   * robots.agent; // 'ExampleBot'
   */
  constructor(options: RobotsCacheOptions) {
    const now = checkClock((options as RobotsCacheOptions | undefined)?.now ?? Date.now);
    this.options = resolveFetchOptions(options, now);
    this.userAgent = this.options.userAgent;
    this.agent = options.agent ?? this.derivedAgent();
    if (typeof this.agent !== 'string') throw new TypeError(`agent must be a product token such as "ExampleBot", got ${typeof this.agent}`);
    profileNamed(this.options.profile).agentKey(this.agent);
    this.maxEntries = checkWholeNumber('maxEntries', options.maxEntries ?? 100_000, 1);
    this.maxMemoryBytes = checkWholeNumber('maxMemoryBytes', options.maxMemoryBytes ?? DEFAULT_MAX_MEMORY_BYTES, 0);
    this.lifetimes = checkLifetimes(options);
    this.revalidate = checkFlag('revalidate', options.revalidate);
    this.honorRetryAfter = checkFlag('honorRetryAfter', options.honorRetryAfter);
    this.now = now;
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
   * import { RobotsCache } from 'robotstxt-wasm';
   * const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2' });
   * await robots.isAllowed('https://example.com/some/page?x=1'); // true
   * await robots.isAllowed(new URL('https://example.com/private/x'), { signal: AbortSignal.timeout(5_000) }); // false
   */
  isAllowed(url: string | URLInput, options?: RobotsCallOptions): Promise<boolean> {
    return this.lookup(url, options, (entry, parsed) => {
      const { file, facts } = entry.copy;
      return file !== undefined ? file.rules.isAllowed(parsed) : facts.outcome === 'allow-all';
    });
  }

  /**
   * The `Crawl-delay` (seconds) that applies to the crawler on `url`'s origin, or undefined.
   *
   * @example
   * import { RobotsCache } from 'robotstxt-wasm';
   * const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2' });
   * await robots.crawlDelay('https://example.com/'); // 2
   */
  crawlDelay(url: string | URLInput, options?: RobotsCallOptions): Promise<number | undefined> {
    return this.lookup(url, options, (entry) => entry.copy.file?.rules.crawlDelay);
  }

  /**
   * The verdict on `url`, the rule that decided it (line 0 and no rule when none did, or when the
   * outcome is allow-all or disallow-all) and where the robots.txt came from.
   *
   * @example
   * import { RobotsCache } from 'robotstxt-wasm';
   * const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2' });
   * await robots.explain('https://example.com/private/x');
   * // { allowed: false, line: 2, rule: { kind: 'disallow', pattern: '/private/' },
   * //   source: { origin: 'https://example.com', outcome: 'rules', status: 200, from: 'network', … } }
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
   * import { RobotsCache } from 'robotstxt-wasm';
   * const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2' });
   * const cached = await robots.get('https://example.com');
   * cached.outcome; // 'rules'
   * cached.robots?.sitemaps; // ['https://example.com/sitemap.xml']
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
   * import { RobotsCache } from 'robotstxt-wasm';
   * const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2' });
   * await robots.isAllowed('https://example.com/a');
   * await robots.isAllowed('https://example.com/b');
   * robots.stats(); // { entries: 1, hits: 1, fetches: 1, revalidations: 0, staleAnswers: 0, evictions: 0, … }
   */
  stats(): RobotsCacheStats {
    return { entries: this.entries.size, ...this.counts, bytesHeld: this.bytesHeld };
  }

  /**
   * Drops every cached origin and frees their compiled rules; the cache stays usable (later calls fetch
   * anew). Fetches in flight go on and are cached when they land.
   *
   * @example
   * import { RobotsCache } from 'robotstxt-wasm';
   * const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2' });
   * await robots.isAllowed('https://example.com/');
   * robots.clear();
   * robots.size; // 0
   */
  clear(): void {
    for (const entry of this.entries.values()) disposeCopy(entry.copy);
    this.entries.clear();
    this.bytesHeld = 0;
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
  /** dispose(), for `using`: `using rules = robots.forAgent('ExampleBot');` frees them at the end of the block. */
  [disposeKey](): void {
    this.dispose();
  }


  private derivedAgent(): string {
    const token = productToken(this.userAgent);
    if (token === undefined) {
      throw new TypeError(
        `Cannot find a crawler's product token in userAgent ${JSON.stringify(this.userAgent)} ` +
          `(browser and platform tokens such as Mozilla or Safari do not count): ` +
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
  private lookup<T>(input: string | URLInput, options: RobotsCallOptions | undefined, read: Reader<T>): Promise<T> {
    let url: URL;
    let where: RobotsLocation;
    let signal: AbortSignalShape | undefined;
    try {
      if (this.disposed) throw new RobotsCacheDisposedError();
      ({ url, location: where } = locateUrl(input));
      signal = options?.signal as AbortSignalShape | undefined;
      if (signal?.aborted === true) throw abortReason(signal);
      const entry = this.entries.get(where.origin);
      if (entry !== undefined && this.now() < entry.expiresAt) {
        this.remember(where.origin, entry);
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
    // A fetch, and a second one when a 304 confirms a copy no longer held: two deadlines at most.
    const flight = new Flight<Landed>(2 * this.options.timeoutMs);
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

  /** Fetches the origin's robots.txt (conditionally, when its copy has validators) and stores the entry. */
  private async fetchEntry(where: RobotsLocation, flight: Flight<Landed>): Promise<Landed> {
    const held = this.entries.get(where.origin)?.copy;
    const validators = this.revalidate && held !== undefined ? validatorsOf(held) : undefined;
    this.counts.fetches++;
    const attempt = await fetchRobotsAt(where, this.options, flight.cancel.signal, validators);
    if (this.disposed) {
      dropAttempt(attempt.result);
      throw new RobotsCacheDisposedError();
    }
    const { result, body } = attempt;
    let entry: Entry;
    let from: RobotsSourceKind = 'network';
    if (result.outcome !== 'not-modified') {
      entry = this.store(where.origin, { result, body });
    } else if (held !== undefined && this.entries.get(where.origin)?.copy === held) {
      this.counts.revalidations++;
      entry = this.renew(where.origin, held, result);
      from = 'revalidated';
    } else {
      // The copy the 304 confirms was evicted or cleared meanwhile: fetch the file itself.
      this.counts.fetches++;
      const refetched = await fetchRobotsAt(where, this.options, flight.cancel.signal);
      if (this.disposed) {
        dropAttempt(refetched.result);
        throw new RobotsCacheDisposedError();
      }
      entry = this.store(where.origin, refetched);
    }
    return { entry, from: entry.stale ? 'stale' : from };
  }

  /** A 304: the copy held is good for another lifetime, with the headers the 304 updated. */
  private renew(origin: string, held: Copy, confirmation: NotModified): Entry {
    const now = this.now();
    const maxAge = confirmation.maxAge ?? held.maxAge;
    const copy: Copy = {
      ...held,
      fetchedAt: now,
      maxAge,
      etag: confirmation.etag ?? held.etag,
      lastModified: confirmation.lastModified ?? held.lastModified,
    };
    const entry: Entry = { copy, stale: false, expiresAt: now + lifetimeOf(maxAge, this.lifetimes), failures: 0, refreshFailure: undefined };
    this.remember(origin, entry);
    return entry;
  }

  /** Turns a fetch result into the origin's entry (keeping a good copy through an outage) and stores it. */
  private store(origin: string, { result, body }: FetchAttempt<RobotsFetchResult>): Entry {
    const now = this.now();
    const previous = this.entries.get(origin);
    let entry: Entry;
    if (result.outcome !== 'disallow-all') {
      const copy: Copy = {
        facts: withoutParse(result),
        file: result.outcome === 'rules' ? this.keepFile(result, body) : undefined,
        fetchedAt: now,
        maxAge: result.maxAge,
        etag: result.etag,
        lastModified: result.lastModified,
      };
      entry = { copy, stale: false, expiresAt: now + lifetimeOf(result.maxAge, this.lifetimes), failures: 0, refreshFailure: undefined };
    } else {
      const failures = (previous?.failures ?? 0) + 1;
      const retryAt = now + backoffAfter(failures, this.honorRetryAfter ? result.retryAfter : undefined);
      const kept = previous?.copy;
      const staleUntil = kept === undefined ? 0 : kept.fetchedAt + CACHE_LIMITS.staleLimit;
      if (kept !== undefined && kept.facts.outcome !== 'disallow-all' && now < staleUntil) {
        const refreshFailure = { reason: result.reason, status: result.status, at: now };
        entry = { copy: kept, stale: true, expiresAt: Math.min(retryAt, staleUntil), failures, refreshFailure };
      } else {
        const copy: Copy = { facts: result, file: undefined, fetchedAt: now, maxAge: undefined, etag: undefined, lastModified: undefined };
        entry = { copy, stale: false, expiresAt: retryAt, failures, refreshFailure: undefined };
      }
    }
    if (previous !== undefined && previous.copy.file !== entry.copy.file) disposeCopy(previous.copy);
    this.remember(origin, entry);
    for (const [oldest, evicted] of this.entries) {
      const full = this.entries.size > this.maxEntries || this.bytesHeld > this.maxMemoryBytes;
      if (!full || oldest === origin) break;
      this.entries.delete(oldest);
      this.bytesHeld -= heldBy(evicted);
      disposeCopy(evicted.copy);
      this.counts.evictions++;
    }
    return entry;
  }

  /** The file of a 2xx: its bytes and the rules compiled for the cache's agent, without the parse tree. */
  private keepFile(result: RobotsFetchRules, body: Uint8Array | undefined): CachedFile {
    const parse = { profile: this.options.profile, maxBytes: this.options.maxBytes, bytesIgnored: result.bytesIgnored };
    return new CachedFile(body ?? new Uint8Array(0), parse, result.robots, this.agent, result.robots.forAgent(this.agent));
  }

  /** Stores `entry` as the most recently used, replacing the origin's previous one. */
  private remember(origin: string, entry: Entry): void {
    const previous = this.entries.get(origin);
    this.bytesHeld += heldBy(entry) - (previous === undefined ? 0 : heldBy(previous));
    this.entries.delete(origin);
    this.entries.set(origin, entry);
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
