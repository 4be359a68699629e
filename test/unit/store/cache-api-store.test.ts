/**
 * cacheApiStore (`robotstxt-wasm/cache-api`) in Node, against a Cache of the test's that keeps what it is
 * given in memory: the key layout, the lifetimes it puts, its bounds and errors, and RobotsCache over it
 * (two caches sharing one Cache, and a Cache that fails). Inside workerd, with the runtime's own Cache API:
 * test/e2e/workers/workers.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RobotsCache } from '../../../src/platform/inline.js';
import { CACHE_KEY_HOST, cacheApiStore, type CacheApiCache } from '../../../src/store/cache-api.js';
import { recordKey } from '../../../src/cache/shared-record.js';
import { RECORD_GRACE_MS } from '../../../src/cache/shared-tier.js';
import { closeServers, startServer, text } from '../../support/http-server.js';

const UA = 'ExampleBot/1.2 (+https://example.com/bot)';

/** What a put left: the response's headers and body, by request URL. */
interface Held {
  readonly headers: Headers;
  readonly body: Uint8Array<ArrayBuffer>;
}

/** A Cache that holds every put in memory, and records the requests it was given. */
class MemoryCache implements CacheApiCache {
  readonly held = new Map<string, Held>();
  readonly requests: string[] = [];

  async match(request: string): Promise<Response | undefined> {
    this.requests.push(request);
    const held = this.held.get(request);
    return held === undefined ? undefined : new Response(held.body, { headers: held.headers });
  }

  async put(request: string, response: Response): Promise<void> {
    this.requests.push(request);
    this.held.set(request, { headers: response.headers, body: new Uint8Array(await response.arrayBuffer()) });
  }
}

afterEach(async () => {
  vi.unstubAllGlobals();
  await closeServers();
});

describe('cacheApiStore: keys, values and lifetimes', () => {
  it('stores each key under one path segment of a URL on a reserved host, which URL parsing keeps as it is', async () => {
    const cache = new MemoryCache();
    const key = recordKey('https://example.com:8443');
    await cacheApiStore({ cache }).set(key, 'value', 60_000);
    await cacheApiStore({ cache, prefix: 'crawler-a:' }).set(key, 'other', 60_000);
    const urls = [...cache.held.keys()];
    expect(urls).toEqual([
      `https://${CACHE_KEY_HOST}/v1%2Frecord%2Fhttps%3A%2F%2Fexample.com%3A8443`,
      `https://${CACHE_KEY_HOST}/crawler-a%3Av1%2Frecord%2Fhttps%3A%2F%2Fexample.com%3A8443`,
    ]);
    for (const url of urls) expect(new URL(url).href).toBe(url);
    expect(await cacheApiStore({ cache }).get(key)).toBe('value');
    expect(await cacheApiStore({ cache, prefix: 'crawler-a:' }).get(key)).toBe('other');
    expect(await cacheApiStore({ cache, prefix: 'crawler-b:' }).get(key)).toBeUndefined();
  });

  it('gives each value a max-age of its lifetime, rounded up to whole seconds, and no cookie', async () => {
    const cache = new MemoryCache();
    const store = cacheApiStore({ cache });
    for (const [ttlMs, maxAge] of [
      [1, 'max-age=1'],
      [1_000, 'max-age=1'],
      [1_001, 'max-age=2'],
      [86_400_000, 'max-age=86400'],
    ] as const) {
      await store.set('k', 'v', ttlMs);
      const { headers } = cache.held.get(`https://${CACHE_KEY_HOST}/k`) as Held;
      expect(headers.get('cache-control')).toBe(maxAge);
      expect(headers.get('set-cookie')).toBeNull();
    }
  });

  it('reads back what it stored, as UTF-8, a leading BOM and every plane included; a key never stored is undefined', async () => {
    const store = cacheApiStore({ cache: new MemoryCache() });
    const value = '\uFEFF{"a":1}\nUser-agent: *\nDisallow: /é/日本/😀\n';
    await store.set('v1/record/https://example.com', value, 1_000);
    expect(await store.get('v1/record/https://example.com')).toBe(value);
    expect(await store.get('v1/record/https://example.org')).toBeUndefined();
  });

  it('refuses a value over maxValueBytes, counted in UTF-8 bytes, and reads one found over it as absent', async () => {
    const cache = new MemoryCache();
    const store = cacheApiStore({ cache, maxValueBytes: 8 });
    await store.set('fits', 'ééééx'.slice(0, 4), 1_000);
    await expect(store.set('over', 'éééé_', 1_000)).rejects.toThrow(RangeError);
    expect(cache.held.has(`https://${CACHE_KEY_HOST}/over`)).toBe(false);
    await cacheApiStore({ cache }).set('big', 'x'.repeat(9), 1_000);
    expect(await store.get('big')).toBeUndefined();
    expect(await store.get('fits')).toBe('éééé');
  });

  it('reads a large value found over the bound only up to it', async () => {
    let pulled = 0;
    const endless: CacheApiCache = {
      async match() {
        const stream = new ReadableStream<Uint8Array>({
          pull(controller) {
            pulled++;
            controller.enqueue(new Uint8Array(64 * 1024));
          },
        });
        return new Response(stream);
      },
      async put() {},
    };
    expect(await cacheApiStore({ cache: endless, maxValueBytes: 1024 * 1024 }).get('k')).toBeUndefined();
    expect(pulled).toBeLessThan(40);
  });

  it('refuses keys, values and lifetimes outside its contract with a TypeError or RangeError', async () => {
    const store = cacheApiStore({ cache: new MemoryCache() });
    for (const key of ['', 'has space', 'é', 'x'.repeat(1025), '.', 7 as unknown as string])
      await expect(store.get(key), String(key)).rejects.toThrow(TypeError);
    await expect(cacheApiStore({ cache: new MemoryCache(), prefix: '.' }).set('.', 'v', 1_000)).rejects.toThrow(TypeError);
    await expect(store.set('k', 7 as unknown as string, 1_000)).rejects.toThrow(TypeError);
    for (const ttl of [0, 1.5, -1, Number.NaN]) await expect(store.set('k', 'v', ttl), String(ttl)).rejects.toThrow(RangeError);
  });
});

describe('cacheApiStore: which cache', () => {
  it('without a cache and outside Workers (no caches.default), a TypeError says what to pass', () => {
    expect(() => cacheApiStore()).toThrow(/no caches\.default .*pass \{ cache \}.*\{ cacheName \}/);
    vi.stubGlobal('caches', { open: async () => new MemoryCache() });
    expect(() => cacheApiStore()).toThrow(TypeError);
  });

  it('refuses a cache without match or put, both cache and cacheName, and bad options', () => {
    const cache = new MemoryCache();
    expect(() => cacheApiStore({ cache: { match: cache.match } as unknown as CacheApiCache })).toThrow(/no match or put/);
    expect(() => cacheApiStore({ cache, cacheName: 'robots' })).toThrow(/not both/);
    expect(() => cacheApiStore({ cacheName: 'robots' })).toThrow(/caches\.open\(\)/);
    expect(() => cacheApiStore({ cache, prefix: 'a b' })).toThrow(TypeError);
    expect(() => cacheApiStore({ cache, prefix: 'x'.repeat(257) })).toThrow(TypeError);
    expect(() => cacheApiStore({ cache, maxValueBytes: 0 })).toThrow(RangeError);
    expect(() => cacheApiStore(null as unknown as undefined)).toThrow(TypeError);
  });

  it('uses caches.default where there is one, and opens a named cache once, again after a failed open', async () => {
    const byDefault = new MemoryCache();
    const named = new MemoryCache();
    let opens = 0;
    vi.stubGlobal('caches', {
      default: byDefault,
      async open(name: string) {
        opens++;
        if (opens === 1) throw new Error('not now');
        return name === 'robots' ? named : new MemoryCache();
      },
    });
    await cacheApiStore().set('k', 'default', 1_000);
    expect(await cacheApiStore().get('k')).toBe('default');
    const store = cacheApiStore({ cacheName: 'robots' });
    await expect(store.get('k')).rejects.toThrow('not now');
    await store.set('k', 'named', 1_000);
    expect(await store.get('k')).toBe('named');
    expect(opens).toBe(2);
    expect(byDefault.held.size).toBe(1);
    expect(named.held.size).toBe(1);
  });
});

describe('RobotsCache over cacheApiStore', () => {
  it('a second cache answers from the record the first one stored, which lives for its lifetime and a day', async () => {
    const site = await startServer({ '/robots.txt': text('User-agent: *\nDisallow: /private/\n') });
    const cache = new MemoryCache();
    const now = Date.UTC(2026, 0, 1);
    const first = new RobotsCache({ userAgent: UA, store: cacheApiStore({ cache }), now: () => now });
    const second = new RobotsCache({ userAgent: UA, store: cacheApiStore({ cache }), now: () => now });
    expect(await first.explain(`${site.origin}/private/x`)).toMatchObject({ allowed: false, source: { from: 'network' } });
    expect(await second.explain(`${site.origin}/private/x`)).toMatchObject({ allowed: false, line: 2, source: { from: 'store' } });
    expect(site.count()).toBe(1);
    expect(second.stats().store).toMatchObject({ hits: 1, errors: 0 });
    const { headers } = cache.held.get(`https://${CACHE_KEY_HOST}/${encodeURIComponent(recordKey(site.origin))}`) as Held;
    // No Cache-Control from the site: the 24 h ceiling.
    expect(headers.get('cache-control')).toBe(`max-age=${(86_400_000 + RECORD_GRACE_MS) / 1000}`);
    first.dispose();
    second.dispose();
  });

  it('a Cache that fails leaves each cache fetching by itself, and every caller gets its answer', async () => {
    const site = await startServer({ '/robots.txt': text('User-agent: *\nDisallow: /private/\n') });
    const failing: CacheApiCache = {
      match: async () => Promise.reject(new Error('cache unavailable')),
      put: async () => Promise.reject(new Error('cache unavailable')),
    };
    const robots = new RobotsCache({ userAgent: UA, store: cacheApiStore({ cache: failing }) });
    expect(await robots.isAllowed(`${site.origin}/private/x`)).toBe(false);
    expect(await robots.isAllowed(`${site.origin}/public`)).toBe(true);
    expect(robots.stats().store).toMatchObject({ errors: 1, fallbacks: 1, hits: 0, writes: 0 });
    expect(site.count()).toBe(1);
    robots.dispose();
  });
});
