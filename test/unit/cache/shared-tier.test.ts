/**
 * RobotsCache's shared second level with a store in this process (test/support/memory-store.ts),
 * against real HTTP servers on 127.0.0.1: several caches stand for a fleet's processes. What is shared, one
 * fetch per origin through the lease, revalidation and stale answers through the shared record, a lease
 * whose holder died, and a store that fails in every way. test/e2e/redis/redis-store.test.ts runs the same against a
 * real Redis with both clients. The caches' clock is injected; the store's lifetimes and the leases run on
 * real time.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  publicHostsOnly,
  RobotsCache,
  RobotsCacheDisposedError,
  type RobotsCacheOptions,
  type RobotsStore,
} from '../../../src/platform/inline.js';
import { leaseKey, maxRecordChars, recordKey } from '../../../src/cache/shared-record.js';
import { RECORD_GRACE_MS } from '../../../src/cache/shared-tier.js';
import { closeServers, startServer, status, text, type Route, type TestServer } from '../../support/http-server.js';
import { loopbackOnlyFetch } from '../../support/loopback-fetch.js';
import { MemoryStore, withoutLeases } from '../../support/memory-store.js';

const UA = 'ExampleBot/1.2 (+https://example.com/bot)';
const RULES = 'User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n';
const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;

let clock: number;
const caches: RobotsCache[] = [];

beforeEach(() => {
  clock = Date.UTC(2026, 0, 1);
});

afterEach(async () => {
  for (const cache of caches.splice(0)) cache.dispose();
  await closeServers();
});

/** One process of the fleet: its own cache, the shared store. */
function processWith(store: RobotsStore, options: Partial<RobotsCacheOptions> = {}): RobotsCache {
  // A deadline no store call here comes near (the suite may run on a busy machine), but where a test says otherwise.
  const cache = new RobotsCache({ userAgent: UA, now: () => clock, store, storeTimeoutMs: 2_000, storeRetryMs: 200, ...options });
  caches.push(cache);
  return cache;
}

/** A route that answers with `route` after `ms`: other processes ask while the fetch is in flight. */
function slow(ms: number, route: Route): Route {
  return (request, response) => void setTimeout(() => route(request, response), ms);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function site(route: Route = text(RULES)): Promise<TestServer> {
  return startServer({ '/robots.txt': route });
}

describe('what one process fetched, the others read', () => {
  it('a second process answers from the store: no fetch, `from: "store"`, then from its own copy', async () => {
    const server = await site(text(RULES, 200, { 'cache-control': 'max-age=3600' }));
    const store = new MemoryStore();
    const first = processWith(store);
    expect(await first.isAllowed(`${server.origin}/private/x`)).toBe(false);
    const second = processWith(store);
    const explained = await second.explain(`${server.origin}/private/x`);
    expect(explained).toMatchObject({
      allowed: false,
      line: 2,
      source: { from: 'store', status: 200, fetchedAt: clock, expiresAt: clock + HOUR },
    });
    expect(await second.crawlDelay(`${server.origin}/`)).toBe(2);
    expect((await second.explain(`${server.origin}/public`)).source.from).toBe('cache');
    expect(server.count()).toBe(1);
    expect(first.stats()).toMatchObject({ fetches: 1, store: { hits: 0, misses: 1, writes: 1, errors: 0, fallbacks: 0 } });
    // A hit in the local level costs no round trip; the local miss cost one read.
    expect(second.stats()).toMatchObject({ fetches: 0, hits: 2, store: { hits: 1, misses: 0, writes: 0 } });
    expect(store.calls.filter((call) => call.method === 'get')).toHaveLength(3);
    const robots = await second.get(server.origin);
    expect(robots.outcome === 'rules' && robots.robots.sitemaps).toEqual([]);
  });

  it('writes one record per origin under the versioned key, for its lifetime and a day', async () => {
    const server = await site(text(RULES, 200, { 'cache-control': 'max-age=600' }));
    const store = new MemoryStore();
    await processWith(store).isAllowed(`${server.origin}/`);
    const set = store.calls.find((call) => call.method === 'set');
    expect(set).toEqual({ method: 'set', key: recordKey(server.origin), ttlMs: 600 * SECOND + RECORD_GRACE_MS });
    expect(store.peek(recordKey(server.origin))).toContain('User-agent: *\nDisallow: /private/');
  });

  it('shares allow-all and disallow-all answers too (a 404, a 503 and its back-off)', async () => {
    const missing = await site(status(404));
    const down = await site(status(503));
    const store = new MemoryStore();
    const first = processWith(store);
    expect(await first.isAllowed(`${missing.origin}/x`)).toBe(true);
    expect(await first.isAllowed(`${down.origin}/x`)).toBe(false);
    const second = processWith(store);
    expect(await second.explain(`${missing.origin}/x`)).toMatchObject({ allowed: true, source: { from: 'store', reason: 'client-error' } });
    expect(await second.explain(`${down.origin}/x`)).toMatchObject({
      allowed: false,
      source: { from: 'store', reason: 'server-error', expiresAt: clock + 60 * SECOND },
    });
    expect(missing.count() + down.count()).toBe(2);
  });

  it("shares a 429's Retry-After: no process of the fleet asks the site again before it", async () => {
    const server = await site(status(429, { 'retry-after': '600' }));
    const store = new MemoryStore();
    expect(await processWith(store).isAllowed(`${server.origin}/x`)).toBe(false);
    clock += 300 * SECOND;
    const later = processWith(store);
    expect(await later.explain(`${server.origin}/x`)).toMatchObject({
      allowed: false,
      source: { from: 'store', reason: 'rate-limited', expiresAt: clock - 300 * SECOND + 600 * SECOND },
    });
    expect(server.count()).toBe(1);
  });
});

describe('one fetch per origin across the fleet', () => {
  it('processes that miss at once: one takes the lease and fetches, the others wait for its record', async () => {
    const server = await site(slow(150, text(RULES)));
    const store = new MemoryStore();
    const fleet = [processWith(store), processWith(store), processWith(store), processWith(store)];
    const answers = await Promise.all(fleet.map((cache, i) => cache.isAllowed(`${server.origin}/${i % 2 === 0 ? 'private/' : ''}page`)));
    expect(answers).toEqual([false, true, false, true]);
    expect(server.count()).toBe(1);
    const stats = fleet.map((cache) => cache.stats().store);
    expect(stats.reduce((sum, { waits }) => sum + waits, 0)).toBe(3);
    expect(stats.reduce((sum, { hits }) => sum + hits, 0)).toBe(3);
    expect(stats.reduce((sum, { takeovers }) => sum + takeovers, 0)).toBe(0);
    // The lease is given back once the record is written.
    expect(store.peek(leaseKey(server.origin))).toBeUndefined();
  });

  it('a lease whose holder died: the others wait until it expires, then one takes it over and fetches', async () => {
    const server = await site();
    const store = new MemoryStore();
    store.put(leaseKey(server.origin), 'a process that died', 300);
    const cache = processWith(store);
    const started = Date.now();
    expect(await cache.isAllowed(`${server.origin}/private/x`)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(server.count()).toBe(1);
    expect(cache.stats().store).toMatchObject({ waits: 1, takeovers: 1, writes: 1 });
  });

  it('dispose() while waiting for another process: the caller gets RobotsCacheDisposedError, nothing is fetched', async () => {
    const server = await site();
    const store = new MemoryStore();
    store.put(leaseKey(server.origin), 'another process', 10_000);
    const cache = processWith(store);
    const waiting = cache.isAllowed(`${server.origin}/x`);
    await sleep(30);
    cache.dispose();
    await expect(waiting).rejects.toBeInstanceOf(RobotsCacheDisposedError);
    expect(server.count()).toBe(0);
    expect(cache.stats().store.fallbacks).toBe(0);
  });

  it('a store without leases (the Workers Cache API) shares best effort: a later miss reads what an earlier one stored', async () => {
    const server = await site();
    const store = new MemoryStore();
    await processWith(withoutLeases(store)).isAllowed(`${server.origin}/`);
    const second = processWith(withoutLeases(store));
    expect((await second.explain(`${server.origin}/private/`)).source.from).toBe('store');
    expect(server.count()).toBe(1);
    expect(store.count('acquire')).toBe(0);
  });
});

describe('revalidation, stale answers and back-off go through the shared record', () => {
  it("a process renews the fleet's expired copy with its validators: one 304, no body fetched again", async () => {
    const server = await site();
    server.route('/robots.txt', (request, response) => {
      if (request.headers['if-none-match'] === '"v1"') return void response.writeHead(304, { etag: '"v1"' }).end();
      response.writeHead(200, { etag: '"v1"', 'cache-control': 'max-age=60' }).end(RULES);
    });
    const store = new MemoryStore();
    await processWith(store).isAllowed(`${server.origin}/`);
    clock += 61 * SECOND;
    const later = processWith(store);
    const explained = await later.explain(`${server.origin}/private/x`);
    expect(explained).toMatchObject({ allowed: false, source: { from: 'revalidated', fetchedAt: clock, expiresAt: clock + 60 * SECOND } });
    expect(server.requests.map((request) => request.headers['if-none-match'])).toEqual([undefined, '"v1"']);
    expect(later.stats()).toMatchObject({ revalidations: 1, store: { misses: 1, writes: 1 } });
    // The renewed record answers the next process.
    expect((await processWith(store).explain(`${server.origin}/`)).source).toMatchObject({ from: 'store', fetchedAt: clock });
  });

  it("the fleet's last good copy stands in when the site fails, for every process, with the back-off shared", async () => {
    const server = await site(text(RULES));
    const store = new MemoryStore();
    await processWith(store).isAllowed(`${server.origin}/`);
    clock += DAY + SECOND;
    server.route('/robots.txt', status(503));
    const second = processWith(store);
    expect(await second.explain(`${server.origin}/private/x`)).toMatchObject({
      allowed: false,
      line: 2,
      source: {
        from: 'stale',
        reason: 'ok',
        refreshFailure: { reason: 'server-error', status: 503, at: clock },
        expiresAt: clock + 60 * SECOND,
      },
    });
    expect(await second.isAllowed(`${server.origin}/public`)).toBe(true);
    // A third process reads the stale entry without asking the site.
    const third = processWith(store);
    expect((await third.explain(`${server.origin}/private/x`)).source).toMatchObject({ from: 'stale', refreshFailure: { status: 503 } });
    expect(server.count()).toBe(2);
    // The next failure, from yet another process, doubles the shared back-off.
    clock += 61 * SECOND;
    const fourth = processWith(store);
    expect((await fourth.explain(`${server.origin}/x`)).source).toMatchObject({ from: 'stale', expiresAt: clock + 2 * 60 * SECOND });
    expect(server.count()).toBe(3);
  });
});

describe('a store that fails never stops the crawl', () => {
  for (const fault of ['reject', 'hang'] as const) {
    it(`a store whose calls ${fault === 'reject' ? 'reject' : 'never settle'}: every call answers, fetched locally; the store is tried again later`, async () => {
      const server = await site();
      const other = await site(text('User-agent: *\nDisallow: /\n'));
      const store = new MemoryStore();
      store.fault = fault;
      const cache = processWith(store, { storeTimeoutMs: 100 });
      expect(await cache.isAllowed(`${server.origin}/private/x`)).toBe(false);
      expect(cache.stats().store).toMatchObject({ errors: 1, fallbacks: 1, hits: 0, writes: 0 });
      // Resting: the next miss does not wait for the store again.
      const calls = store.calls.length;
      expect(await cache.isAllowed(`${other.origin}/x`)).toBe(false);
      expect(store.calls.length).toBe(calls);
      expect(cache.stats().store).toMatchObject({ errors: 1, fallbacks: 2 });
      // Back: after storeRetryMs the store is read and written again.
      store.fault = 'none';
      await sleep(250);
      clock += DAY + SECOND;
      expect(await cache.isAllowed(`${server.origin}/private/y`)).toBe(false);
      expect(cache.stats().store).toMatchObject({ errors: 1, fallbacks: 2, misses: 1, writes: 1 });
    });
  }

  it("a store that fails while a process waits for another's lease: it fetches itself", async () => {
    const server = await site();
    const store = new MemoryStore();
    store.put(leaseKey(server.origin), 'another process', 10_000);
    const cache = processWith(store);
    const waiting = cache.isAllowed(`${server.origin}/private/x`);
    await sleep(30);
    store.fault = 'reject';
    expect(await waiting).toBe(false);
    expect(cache.stats().store).toMatchObject({ waits: 1, errors: 1, fallbacks: 1 });
    expect(server.count()).toBe(1);
  });

  it('a record that does not decode is ignored, counted and replaced by the next fetch', async () => {
    const server = await site();
    const store = new MemoryStore();
    store.put(recordKey(server.origin), '{"format":1}\nUser-agent: *\nAllow: /\n');
    const cache = processWith(store);
    expect(await cache.isAllowed(`${server.origin}/private/x`)).toBe(false);
    expect(cache.stats().store).toMatchObject({ invalid: 1, misses: 1, writes: 1 });
    expect((await processWith(store).explain(`${server.origin}/private/x`)).source.from).toBe('store');
  });

  it('a store that answers something other than a string is an error, not a record', async () => {
    const server = await site();
    const odd: RobotsStore = { get: async () => 42 as unknown as string, set: async () => undefined };
    const cache = processWith(odd);
    expect(await cache.isAllowed(`${server.origin}/private/x`)).toBe(false);
    expect(cache.stats().store).toMatchObject({ errors: 1, fallbacks: 1 });
  });
});

describe('processes of another profile', () => {
  it("do not take each other's records: a 503 disallows for google and allows for yandex", async () => {
    const server = await site(status(503));
    const store = new MemoryStore();
    expect(await processWith(store, { profile: 'google' }).isAllowed(`${server.origin}/x`)).toBe(false);
    const yandex = processWith(store, { profile: 'yandex', agent: 'YandexBot' });
    expect(await yandex.explain(`${server.origin}/x`)).toMatchObject({ allowed: true, source: { from: 'network', reason: 'not-200' } });
    expect(yandex.stats().store.invalid).toBe(1);
  });
});

describe('a host the crawler refuses', () => {
  it('is refused before the store: nothing read, written or leased for it', async () => {
    const store = new MemoryStore();
    const { fetch, refused } = loopbackOnlyFetch();
    const cache = processWith(store, { allowHost: publicHostsOnly, fetch });
    expect(await cache.explain('http://10.0.0.1/x')).toMatchObject({ allowed: false, source: { reason: 'host-refused' } });
    expect(store.calls).toEqual([]);
    expect(refused).toEqual([]);
    expect(cache.stats().store).toMatchObject({ hits: 0, misses: 0, fallbacks: 0 });
  });
});

describe('bounds', () => {
  it('a body over maxBytes is shared cut, and no record is longer than the bound', async () => {
    const server = await site(text(`User-agent: *\n${'Disallow: /a-long-rule-for-a-large-file\n'.repeat(2_000)}`));
    const store = new MemoryStore();
    const maxBytes = 4_096;
    await processWith(store, { maxBytes }).isAllowed(`${server.origin}/`);
    const record = store.peek(recordKey(server.origin)) as string;
    expect(record.length).toBeLessThanOrEqual(maxRecordChars(maxBytes));
    const second = processWith(store, { maxBytes });
    expect(await second.explain(`${server.origin}/a-long-rule-for-a-large-file`)).toMatchObject({
      allowed: false,
      source: { from: 'store', truncated: true, bytes: maxBytes },
    });
    // A process reading another limit would parse another file: it fetches for itself.
    const wider = processWith(store, { maxBytes: 8_192 });
    expect((await wider.explain(`${server.origin}/`)).source).toMatchObject({ from: 'network', bytes: 8_192 });
    expect(wider.stats().store.invalid).toBe(1);
  });
});

describe('options', () => {
  it('say what to pass', () => {
    expect(() => new RobotsCache({ userAgent: UA, store: {} as RobotsStore })).toThrow(
      /store must be a RobotsStore .* no get or set method/,
    );
    const half = { get: async () => undefined, set: async () => undefined, acquire: async () => true };
    expect(() => new RobotsCache({ userAgent: UA, store: half as RobotsStore })).toThrow(/both acquire and release, or neither/);
    expect(() => new RobotsCache({ userAgent: UA, storeTimeoutMs: 100 })).toThrow(/storeTimeoutMs applies to a store/);
    expect(() => new RobotsCache({ userAgent: UA, store: new MemoryStore(), storeTimeoutMs: 0 })).toThrow(RangeError);
  });
});
