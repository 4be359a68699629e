/**
 * RobotsCache's options, checked once when a cache is made: a TypeError or RangeError that says what to
 * pass for a bad one, and the defaults filled in.
 */
import { profileNamed } from '../profile.js';
import { CACHE_LIMITS, type LifetimeBounds } from './cache-policy.js';
import { checkDuration, checkWholeNumber, resolveFetchOptions, type ResolvedFetchOptions } from '../fetch/options.js';
import { productToken } from './product-token.js';
import type { RobotsCacheOptions } from './robots-cache-types.js';
import type { RobotsStore } from './robots-store.js';

const DEFAULT_MAX_ENTRIES = 100_000;
const DEFAULT_MAX_MEMORY_BYTES = 512 * 1024 * 1024;

/** A cache's settings, every one checked and defaulted. */
export interface ResolvedCacheOptions {
  /** What each robots.txt fetch uses: its User-Agent header, profile, limits, fetch, and the cache's clock. */
  readonly fetch: ResolvedFetchOptions;
  readonly agent: string;
  readonly maxEntries: number;
  readonly maxMemoryBytes: number;
  readonly lifetimes: LifetimeBounds;
  readonly revalidate: boolean;
  readonly honorRetryAfter: boolean;
  /** The shared store and its call deadlines, when there is one. */
  readonly store: StoreSettings | undefined;
}

export interface StoreSettings {
  readonly store: RobotsStore;
  readonly timeoutMs: number;
  readonly retryMs: number;
}

const DEFAULT_STORE_TIMEOUT_MS = 500;
const DEFAULT_STORE_RETRY_MS = 5_000;

function checkStore(options: RobotsCacheOptions): StoreSettings | undefined {
  const { store } = options;
  if (store === undefined) {
    for (const name of ['storeTimeoutMs', 'storeRetryMs'] as const)
      if (options[name] !== undefined) throw new TypeError(`${name} applies to a store: pass store too, or leave ${name} out`);
    return undefined;
  }
  const methods = store as unknown as Partial<Record<keyof RobotsStore, unknown>> | null;
  const missing = (['get', 'set'] as const).filter((name) => typeof methods?.[name] !== 'function');
  if (missing.length > 0)
    throw new TypeError(
      `store must be a RobotsStore ({ get(key), set(key, value, ttlMs) }, and optionally acquire and release), ` +
        `such as redisStore(client) from 'robotstxt-wasm/redis'; it has no ${missing.join(' or ')} method`,
    );
  if ((typeof methods?.acquire === 'function') !== (typeof methods?.release === 'function'))
    throw new TypeError('store must have both acquire and release, or neither (a store without leases shares best effort)');
  return {
    store,
    timeoutMs: checkWholeNumber('storeTimeoutMs', options.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT_MS, 1),
    retryMs: checkWholeNumber('storeRetryMs', options.storeRetryMs ?? DEFAULT_STORE_RETRY_MS, 0),
  };
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

function derivedAgent(userAgent: string): string {
  const token = productToken(userAgent);
  if (token === undefined) {
    throw new TypeError(
      `Cannot find a crawler's product token in userAgent ${JSON.stringify(userAgent)} ` +
        `(browser and platform tokens such as Mozilla or Safari do not count): ` +
        `pass { agent: 'ExampleBot' } (letters, "_" and "-"), the name your robots.txt groups use`,
    );
  }
  return token;
}

/** Checks every option (the first bad one throws) and fills in the defaults. */
export function resolveCacheOptions(options: RobotsCacheOptions): ResolvedCacheOptions {
  // A JavaScript caller may pass nothing at all: resolveFetchOptions then says what userAgent needs.
  const now = checkClock((options as RobotsCacheOptions | undefined)?.now ?? Date.now);
  const fetch = resolveFetchOptions(options, now);
  const agent = options.agent ?? derivedAgent(fetch.userAgent);
  if (typeof agent !== 'string') throw new TypeError(`agent must be a product token such as "ExampleBot", got ${typeof agent}`);
  profileNamed(fetch.profile).agentKey(agent);
  return {
    fetch,
    agent,
    maxEntries: checkWholeNumber('maxEntries', options.maxEntries ?? DEFAULT_MAX_ENTRIES, 1),
    maxMemoryBytes: checkWholeNumber('maxMemoryBytes', options.maxMemoryBytes ?? DEFAULT_MAX_MEMORY_BYTES, 0),
    lifetimes: checkLifetimes(options),
    revalidate: checkFlag('revalidate', options.revalidate),
    honorRetryAfter: checkFlag('honorRetryAfter', options.honorRetryAfter),
    store: checkStore(options),
  };
}
