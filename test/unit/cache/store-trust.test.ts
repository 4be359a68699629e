/**
 * A record from the shared store is trusted no further than the reader's own fetch: its times are clamped to
 * what the reader would give (RFC 9309 §2.4: at most 24 hours, and the stale limit counted from the fetch), its
 * validators are sent only when they are header values (RFC 9110 §5.5), and an outcome of one process's own
 * policy (its allowHost, allowRedirect, or its fetch refusing an address) is neither written nor read. Caches
 * stand for a fleet's processes over a store in this process (test/support/memory-store.ts), against real HTTP
 * servers on 127.0.0.1; each cache has its own clock.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostRefusedError, RobotsCache, type RobotsCacheOptions, type RobotsStore } from '../../../src/platform/inline.js';
import { recordKey } from '../../../src/cache/shared-record.js';
import { closeServers, redirect, startServer, status, text, type TestServer } from '../../support/http-server.js';
import { MemoryStore } from '../../support/memory-store.js';

const UA = 'ExampleBot/1.2 (+https://example.com/bot)';
const RULES = 'User-agent: *\nDisallow: /private/\n';
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

/** One process of the fleet; `skewMs` is how far its clock runs ahead of the test's. */
function processWith(store: RobotsStore, options: Partial<RobotsCacheOptions> = {}, skewMs = 0): RobotsCache {
  const cache = new RobotsCache({ userAgent: UA, now: () => clock + skewMs, store, storeTimeoutMs: 2_000, ...options });
  caches.push(cache);
  return cache;
}

/** The record of `origin` with its JSON header changed by `change`, put back as another writer would. */
function rewrite(store: MemoryStore, origin: string, change: (header: Record<string, unknown>) => void): void {
  const record = store.peek(recordKey(origin)) as string;
  const newline = record.indexOf('\n');
  const header = JSON.parse(record.slice(0, newline)) as Record<string, unknown>;
  change(header);
  store.put(recordKey(origin), `${JSON.stringify(header)}\n${record.slice(newline + 1)}`);
}

function headerOf(store: MemoryStore, origin: string): Record<string, unknown> {
  const record = store.peek(recordKey(origin)) as string;
  return JSON.parse(record.slice(0, record.indexOf('\n'))) as Record<string, unknown>;
}

async function site(route = text(RULES)): Promise<TestServer> {
  return startServer({ '/robots.txt': route });
}

describe("a record's times are clamped to what the reader's own fetch would give", () => {
  it('a writer whose clock runs a year ahead: a reader answers from its record for at most its own 24 hours', async () => {
    const server = await site();
    const store = new MemoryStore();
    await processWith(store, {}, 365 * DAY).isAllowed(`${server.origin}/`);
    expect(headerOf(store, server.origin)).toMatchObject({ fetchedAt: clock + 365 * DAY, expiresAt: clock + 366 * DAY });
    const reader = processWith(store);
    expect((await reader.explain(`${server.origin}/private/x`)).source).toMatchObject({
      from: 'store',
      fetchedAt: clock,
      expiresAt: clock + DAY,
    });
    // A day later its copy has expired; with the store's record gone too, it fetches.
    clock += DAY;
    store.values.clear();
    expect((await reader.explain(`${server.origin}/private/x`)).source.from).toBe('network');
    expect(server.count()).toBe(2);
    expect(reader.stats().store.invalid).toBe(0);
  });

  it("expiresAt 1e300 answers no longer than the reader's maxLifetimeMs from the fetch", async () => {
    const server = await site();
    const store = new MemoryStore();
    await processWith(store).isAllowed(`${server.origin}/`);
    rewrite(store, server.origin, (header) => (header.expiresAt = 1e300));
    const reader = processWith(store, { maxLifetimeMs: HOUR });
    expect((await reader.explain(`${server.origin}/x`)).source).toMatchObject({ from: 'store', expiresAt: clock + HOUR });
    clock += HOUR;
    store.values.clear();
    expect((await reader.explain(`${server.origin}/x`)).source.from).toBe('network');
  });

  it("a back-off (a 503's disallow-all) lasts no longer than the reader's own longest back-off, an hour", async () => {
    const server = await site(status(503));
    const store = new MemoryStore();
    await processWith(store).isAllowed(`${server.origin}/`);
    rewrite(store, server.origin, (header) => (header.expiresAt = clock + 30 * DAY));
    expect((await processWith(store).explain(`${server.origin}/x`)).source).toMatchObject({
      from: 'store',
      reason: 'server-error',
      expiresAt: clock + HOUR,
    });
  });

  it('a stale copy is served no longer than 30 days after its fetch, whatever the record says', async () => {
    const server = await site(text(RULES, 200, { 'cache-control': 'max-age=60' }));
    const store = new MemoryStore();
    const writer = processWith(store);
    await writer.isAllowed(`${server.origin}/`);
    server.route('/robots.txt', status(503));
    clock += 61 * SECOND;
    expect((await writer.explain(`${server.origin}/private/x`)).source.from).toBe('stale');
    // Forty days on, a record that still claims to stand in for a year.
    clock += 40 * DAY;
    rewrite(store, server.origin, (header) => {
      header.expiresAt = clock + 365 * DAY;
      (header.refreshFailure as Record<string, unknown>).at = clock;
    });
    const reader = processWith(store);
    expect(await reader.explain(`${server.origin}/public`)).toMatchObject({
      allowed: false,
      source: { from: 'network', outcome: 'disallow-all', reason: 'server-error' },
    });
    expect(reader.stats()).toMatchObject({ fetches: 1, staleAnswers: 0 });
  });
});

describe('validators that are not header values are never sent', () => {
  it('an ETag with a line feed: the expired copy is fetched again without it, and the fleet gets a clean record', async () => {
    const server = await site();
    server.route('/robots.txt', (request, response) => {
      if (request.headers['if-none-match'] === '"v2"') return void response.writeHead(304, { etag: '"v2"' }).end();
      response.writeHead(200, { etag: '"v2"', 'cache-control': 'max-age=60' }).end(RULES);
    });
    const store = new MemoryStore();
    await processWith(store).isAllowed(`${server.origin}/`);
    rewrite(store, server.origin, (header) => {
      header.etag = '"x\ny"';
      header.lastModified = 'Thu, 01 Jan 2026 00:00:00 GMT\r\nX-Injected: 1';
    });
    clock += 61 * SECOND;
    const reader = processWith(store);
    expect(await reader.explain(`${server.origin}/private/x`)).toMatchObject({ allowed: false, source: { from: 'network', status: 200 } });
    expect(server.requests[1]?.headers).not.toHaveProperty('if-none-match');
    expect(server.requests[1]?.headers).not.toHaveProperty('if-modified-since');
    expect(server.requests[1]?.headers).not.toHaveProperty('x-injected');
    expect(headerOf(store, server.origin)).toMatchObject({ etag: '"v2"', stale: false });
    expect(headerOf(store, server.origin)).not.toHaveProperty('lastModified');
    // The next process renews the clean record with its ETag.
    clock += 61 * SECOND;
    expect((await processWith(store).explain(`${server.origin}/x`)).source.from).toBe('revalidated');
    expect(server.requests[2]?.headers['if-none-match']).toBe('"v2"');
  });

  it('a validator outside what a header carries (a character over U+00FF, a NUL) is dropped, not counted as damage', async () => {
    const server = await site(text(RULES, 200, { etag: '"v1"', 'cache-control': 'max-age=60' }));
    const store = new MemoryStore();
    await processWith(store).isAllowed(`${server.origin}/`);
    rewrite(store, server.origin, (header) => {
      header.etag = '"€"';
      header.lastModified = 'Thu\u0000';
    });
    clock += 61 * SECOND;
    const reader = processWith(store);
    expect((await reader.explain(`${server.origin}/x`)).source).toMatchObject({ from: 'network', status: 200 });
    expect(server.requests[1]?.headers).not.toHaveProperty('if-none-match');
    expect(reader.stats().store.invalid).toBe(0);
  });
});

describe("an outcome of one process's own policy is its own", () => {
  it("a fetch refused by the writer's own DNS check (host-refused) is not written; the next process fetches", async () => {
    const server = await site();
    const store = new MemoryStore();
    const refusing = processWith(store, {
      fetch: () => Promise.reject(new TypeError('fetch failed', { cause: new HostRefusedError('127.0.0.1', '127.0.0.1') })),
    });
    expect((await refusing.explain(`${server.origin}/x`)).source.reason).toBe('host-refused');
    expect(store.count('set')).toBe(0);
    expect(refusing.stats().store.writes).toBe(0);
    const other = processWith(store);
    expect((await other.explain(`${server.origin}/private/x`)).source).toMatchObject({ from: 'network', reason: 'ok' });
    expect(server.count()).toBe(1);
  });

  it("a redirect refused by the writer's allowRedirect is not written; a process without that policy follows it", async () => {
    const target = await site();
    const server = await site(redirect(`${target.origin}/robots.txt`));
    const store = new MemoryStore();
    const strict = processWith(store, { allowRedirect: () => false });
    expect((await strict.explain(`${server.origin}/private/x`)).source.reason).toBe('redirect-refused');
    expect(store.count('set')).toBe(0);
    const other = processWith(store);
    expect(await other.explain(`${server.origin}/private/x`)).toMatchObject({ allowed: false, source: { from: 'network', reason: 'ok' } });
  });

  it('a host-refused or redirect-refused record found in the store is not adopted: counted invalid, fetched and replaced', async () => {
    for (const reason of ['host-refused', 'redirect-refused'] as const) {
      const server = await site(status(503));
      const store = new MemoryStore();
      await processWith(store).isAllowed(`${server.origin}/`);
      rewrite(store, server.origin, (header) => {
        const facts = header.facts as Record<string, unknown>;
        facts.reason = reason;
        facts.outcome = reason === 'host-refused' ? 'disallow-all' : 'allow-all';
        facts.status = 0;
      });
      server.route('/robots.txt', text(RULES));
      const reader = processWith(store);
      expect(await reader.explain(`${server.origin}/public`)).toMatchObject({ allowed: true, source: { from: 'network', reason: 'ok' } });
      expect(reader.stats().store).toMatchObject({ invalid: 1, writes: 1 });
      expect((headerOf(store, server.origin).facts as Record<string, unknown>).reason).toBe('ok');
    }
  });
});

describe('a stale allow-all copy is shared like a stale file', () => {
  it('a 404, then the site down: every process keeps allowing, as the one that saw it', async () => {
    const server = await site(status(404));
    const store = new MemoryStore();
    const writer = processWith(store);
    await writer.isAllowed(`${server.origin}/`);
    clock += DAY;
    server.route('/robots.txt', status(503));
    expect(await writer.explain(`${server.origin}/x`)).toMatchObject({ allowed: true, source: { from: 'stale', reason: 'client-error' } });
    const reader = processWith(store);
    expect(await reader.explain(`${server.origin}/x`)).toMatchObject({
      allowed: true,
      source: { from: 'stale', reason: 'client-error', refreshFailure: { status: 503 } },
    });
    expect(reader.stats()).toMatchObject({ fetches: 0, store: { invalid: 0, hits: 1 } });
  });
});
