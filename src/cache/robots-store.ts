/**
 * The shared second level of RobotsCache: what a store must do, and what the cache counts of it.
 * Adapters: src/store/redis.ts (`robotstxt-wasm/redis`), src/store/cache-api.ts (`robotstxt-wasm/cache-api`).
 */

/**
 * A key-value store that crawler processes share, such as Redis or the Workers Cache API. RobotsCache keeps
 * its own LRU as the first level and asks the store when an origin is not there or has expired, before the
 * network; what one process fetched, the others read. Keys are short ASCII strings the cache makes (the
 * record format's version and the origin: `v1/record/https://example.com`); the store adds its own prefix.
 * Values are strings of at most about 4/3 of the cache's `maxBytes` plus 64 KiB.
 *
 * Every call may reject or never settle: the cache gives each one its own deadline (`storeTimeoutMs`), and
 * a store that fails is left alone for `storeRetryMs` while the cache fetches from the sites itself. Its
 * callers never see a store's error.
 *
 * @example
 * import { RobotsCache, type RobotsStore } from 'robotstxt-wasm';
 * // A store within one process, to show the shape: a real one is shared (robotstxt-wasm/redis).
 * const values = new Map<string, { value: string; until: number }>();
 * const store: RobotsStore = {
 *   async get(key) {
 *     const held = values.get(key);
 *     return held !== undefined && Date.now() < held.until ? held.value : undefined;
 *   },
 *   async set(key, value, ttlMs) {
 *     values.set(key, { value, until: Date.now() + ttlMs });
 *   },
 * };
 * const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2', store });
 * robots.stats().store; // { hits: 0, misses: 0, writes: 0, errors: 0, fallbacks: 0, waits: 0, takeovers: 0, invalid: 0 }
 */
export interface RobotsStore {
  /**
   * The value stored under `key`, or undefined when there is none (never written, or its lifetime ended). A
   * store may bound what it reads (robotstxt-wasm/redis and robotstxt-wasm/cache-api do): a value over its
   * bound is best answered as none, without transferring it, and the next write replaces it.
   */
  get(key: string): Promise<string | undefined>;
  /** Stores `value` under `key`, replacing what was there, for `ttlMs` milliseconds (a whole number ≥ 1). */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /**
   * Takes the lease `key` for `ttlMs` when nobody holds it (Redis: `SET key token NX PX ttlMs`): true when
   * taken. With leases, one process of the fleet fetches an origin while the others wait for its record;
   * without them (the Cache API has no atomic operation), sharing is best effort: processes that miss at the
   * same moment each fetch.
   */
  acquire?(key: string, token: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease back when `token` still holds it (another process may have taken it since it expired). */
  release?(key: string, token: string): Promise<void>;
}

/** What RobotsCache did with its store (RobotsCacheStats.store); all zero without one. */
export interface RobotsStoreStats {
  /** Local misses answered by a record another process (or this one, earlier) stored. */
  readonly hits: number;
  /** Local misses the store had no usable record for. */
  readonly misses: number;
  /** Records written after a fetch. */
  readonly writes: number;
  /** Store calls that failed, or missed their deadline. */
  readonly errors: number;
  /** Local misses fetched without the store because it had failed (down, slow, answering errors). */
  readonly fallbacks: number;
  /** Local misses that waited for another process's fetch (its lease) instead of fetching. */
  readonly waits: number;
  /**
   * Leases taken over after their holder let them go without storing a record (it died, its write failed, or
   * its fetch ended in a refusal of its own host policy, which is not shared).
   */
  readonly takeovers: number;
  /**
   * Records that did not decode (another format, damaged, too large, an outcome of its writer's own host
   * policy): ignored and replaced, never used.
   */
  readonly invalid: number;
}
