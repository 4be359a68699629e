/**
 * A RobotsStore over the Cache API of Cloudflare Workers (`robotstxt-wasm/cache-api`): the isolates of a
 * data centre share the robots.txt files one of them fetched.
 *
 * The Cache API has no atomic operation, so this store has no leases: sharing is best effort, and isolates
 * that miss an origin at the same moment each fetch it. What one isolate puts, the others of its data
 * centre match; other data centres do not see it, and on `*.workers.dev` hosts the Cache API stores
 * nothing (every match misses), so each isolate fetches for itself there.
 * https://developers.cloudflare.com/workers/runtime-apis/cache/
 *
 * @module robotstxt-wasm/cache-api
 */
import type { ResponseShape } from '../api/web-types.js';
import { checkWholeNumber } from '../fetch/options.js';
import { readLimited } from '../fetch/read-body.js';
import type { RobotsStore } from '../cache/robots-store.js';

/**
 * What the store uses of a Cache: `caches.default`, one that `caches.open(name)` gives, or anything with
 * these two methods. Requests are given as URL strings.
 */
export interface CacheApiCache {
  /** The response stored under `request`, or undefined when there is none. */
  match(request: string): Promise<ResponseShape | undefined>;
  /** Stores `response` under `request` for the lifetime its `Cache-Control: max-age` gives. */
  put(request: string, response: ResponseShape): Promise<unknown>;
}

/** Options of cacheApiStore(): which cache, the key prefix and the bound on values. */
export interface CacheApiStoreOptions {
  /** The cache to use. Default: `caches.default` (Cloudflare Workers). Not with `cacheName`. */
  readonly cache?: CacheApiCache;
  /** The name of a cache that `caches.open(name)` opens, instead of `caches.default`. */
  readonly cacheName?: string;
  /**
   * Put before every key, to keep apart crawlers that share a zone's cache (their agents differ, for
   * instance): printable ASCII without spaces, up to 256 characters. Default: none.
   */
  readonly prefix?: string;
  /** The longest value stored or read, in UTF-8 bytes. Default 4 MiB. */
  readonly maxValueBytes?: number;
}

/**
 * The host of every key's URL. `.invalid` is reserved (RFC 6761 §6.4): no such host exists, and nothing
 * is ever fetched from it; it only names entries in the cache.
 */
export const CACHE_KEY_HOST = 'robotstxt-wasm.invalid';

/**
 * A record holds a body of at most the cache's `maxBytes` (512,000 by default, one byte more when it was cut),
 * in base64 (4/3 of its size) when it is not UTF-8, and a header of up to 64 Ki characters of at most two
 * UTF-8 bytes each: 4 MiB holds the records of a `maxBytes` up to about 3 MB.
 */
const DEFAULT_MAX_VALUE_BYTES = 4 * 1024 * 1024;
const MAX_PREFIX_CHARS = 256;
/** The cache's keys are the record format and an origin: a few hundred characters at most. */
const MAX_KEY_CHARS = 1024;
const PRINTABLE_ASCII = /^[\x21-\x7e]*$/;

const utf8 = new TextEncoder();
// ignoreBOM: a value that starts with U+FEFF keeps it.
const utf8Text = new TextDecoder('utf-8', { ignoreBOM: true });

interface CacheStorageShape {
  readonly default?: unknown;
  open?(name: string): Promise<CacheApiCache>;
}

function globalCaches(): CacheStorageShape | undefined {
  const { caches } = globalThis as { caches?: CacheStorageShape };
  return typeof caches === 'object' && caches !== null ? caches : undefined;
}

function isCache(value: unknown): value is CacheApiCache {
  const methods = value as Partial<Record<keyof CacheApiCache, unknown>> | null | undefined;
  return typeof methods?.match === 'function' && typeof methods.put === 'function';
}

/** How the store reaches its cache: at once, or through caches.open(), once, tried again after a failure. */
function cacheOf(options: CacheApiStoreOptions): () => CacheApiCache | Promise<CacheApiCache> {
  const { cache, cacheName } = options;
  if (cache !== undefined && cacheName !== undefined) throw new TypeError('cacheApiStore takes cache or cacheName, not both');
  if (cache !== undefined) {
    if (!isCache(cache))
      throw new TypeError('cache must be a Cache (caches.default, or what caches.open(name) gives): it has no match or put method');
    return () => cache;
  }
  const caches = globalCaches();
  if (cacheName !== undefined) {
    if (typeof cacheName !== 'string' || cacheName === '') throw new TypeError('cacheName must be a non-empty string');
    const open = caches?.open;
    if (typeof open !== 'function')
      throw new TypeError('cacheName needs caches.open(), which this platform lacks (Cloudflare Workers has it): pass { cache } instead');
    let opened: Promise<CacheApiCache> | undefined;
    return () => {
      opened ??= open.call(caches, cacheName).catch((error: unknown) => {
        opened = undefined;
        throw error;
      });
      return opened;
    };
  }
  const fallback = caches?.default;
  if (!isCache(fallback))
    throw new TypeError(
      'cacheApiStore() found no caches.default (Cloudflare Workers has it): pass { cache } (an object with match and put) or { cacheName }',
    );
  return () => fallback;
}

function checkPrefix(prefix: unknown): string {
  if (typeof prefix !== 'string' || prefix.length > MAX_PREFIX_CHARS || !PRINTABLE_ASCII.test(prefix))
    throw new TypeError(`prefix must be printable ASCII without spaces, up to ${MAX_PREFIX_CHARS} characters`);
  return prefix;
}

/**
 * The URL a key is stored under: `https://robotstxt-wasm.invalid/<prefix and key, URI-component encoded>`,
 * one path segment whatever the key holds (`/` and `:` are encoded). encodeURIComponent leaves only
 * unreserved characters as they are, so URL normalization keeps the URL as it is; only a segment of dots
 * would be resolved away, which no key of the cache is.
 */
function keyUrl(prefix: string, key: string): string {
  if (typeof key !== 'string' || key === '' || key.length > MAX_KEY_CHARS || !PRINTABLE_ASCII.test(key))
    throw new TypeError(`a key must be printable ASCII without spaces, 1 to ${MAX_KEY_CHARS} characters`);
  const segment = encodeURIComponent(prefix + key);
  if (segment === '.' || segment === '..') throw new TypeError(`the key "${segment}" would name no entry of its own`);
  return `https://${CACHE_KEY_HOST}/${segment}`;
}

/**
 * A RobotsStore over the Workers Cache API, for RobotsCache's `store` option: `new RobotsCache({ userAgent,
 * store: cacheApiStore() })` in a Worker's module scope. Values are stored as responses whose
 * `Cache-Control: max-age` is their lifetime, rounded up to whole seconds, and their text in UTF-8 (a lone
 * surrogate comes back as U+FFFD; the cache's records hold none). A value over `maxValueBytes`
 * is refused (a RangeError) when written and read as absent when found (so the next write replaces it).
 * Throws a TypeError when no cache can be found or an option is wrong.
 *
 * @example
 * import { RobotsCache } from 'robotstxt-wasm';
 * import { cacheApiStore, type CacheApiCache } from 'robotstxt-wasm/cache-api';
 * // In a Worker, cacheApiStore() shares caches.default. Elsewhere, give it a cache: here one in memory.
 * const held = new Map<string, Response>();
 * const cache: CacheApiCache = {
 *   async match(url) {
 *     return held.get(url)?.clone();
 *   },
 *   async put(url, response) {
 *     held.set(url, response as Response);
 *   },
 * };
 * const store = cacheApiStore({ cache, prefix: 'crawler:' });
 * const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2', store });
 * // What the cache does with it, shown by hand: a response under a URL of the key, for ttlMs.
 * await store.set('example', 'a record', 60_000);
 * await store.get('example'); // 'a record'
 * [...held.keys()]; // ['https://robotstxt-wasm.invalid/crawler%3Aexample']
 * held.get('https://robotstxt-wasm.invalid/crawler%3Aexample')?.headers.get('cache-control'); // 'max-age=60'
 * robots.dispose();
 */
export function cacheApiStore(options: CacheApiStoreOptions = {}): RobotsStore {
  if (typeof options !== 'object' || options === null) throw new TypeError('cacheApiStore takes an options object, or nothing');
  const cache = cacheOf(options);
  const prefix = checkPrefix(options.prefix ?? '');
  const maxValueBytes = checkWholeNumber('maxValueBytes', options.maxValueBytes ?? DEFAULT_MAX_VALUE_BYTES, 1);
  return {
    async get(key) {
      const url = keyUrl(prefix, key);
      const response = await (await cache()).match(url);
      if (response === undefined) return undefined;
      const { bytes, truncated } = await readLimited(response.body, maxValueBytes);
      return truncated ? undefined : utf8Text.decode(bytes);
    },
    async set(key, value, ttlMs) {
      const url = keyUrl(prefix, key);
      if (typeof value !== 'string') throw new TypeError('a value must be a string');
      const bytes = utf8.encode(value);
      if (bytes.length > maxValueBytes) throw new RangeError(`a value of ${bytes.length} bytes is over maxValueBytes (${maxValueBytes})`);
      const seconds = Math.ceil(checkWholeNumber('ttlMs', ttlMs, 1) / 1000);
      const headers = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': `max-age=${seconds}` };
      await (await cache()).put(url, new Response(bytes, { headers }));
    },
  };
}
