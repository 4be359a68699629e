/**
 * robotstxt-wasm/redis against a real redis-server on 127.0.0.1 (test/support/redis-server.ts), with each client
 * it serves: node-redis 4, 5 and 6 and ioredis 5 and 6. First the adapter's own commands, then RobotsCache
 * sharing through it: each cache stands for a process of a fleet, with its own Redis connection. Time in the
 * caches is an injected clock; Redis keeps its own (the records' lifetimes there are checked with PTTL).
 */
import { createClient, RESP_TYPES } from 'redis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { createClient as createClient4 } from 'redis-4';
import { createClient as createClient5 } from 'redis-5';
import { Redis as Ioredis6 } from 'ioredis';
import { Redis as Ioredis5 } from 'ioredis-5';
import { connectRedis, REDIS_CLIENTS, type RedisConnection } from '../../../harness/redis-clients.mjs';
import { RobotsCache, type RobotsCacheOptions, type RobotsStore } from '../../../src/platform/inline.js';
import { maxRecordChars, recordKey, leaseKey } from '../../../src/cache/shared-record.js';
import { RECORD_GRACE_MS } from '../../../src/cache/shared-tier.js';
import { redisStore, type RedisClient } from '../../../src/store/redis.js';
import { closeServers, startServer, status, text, type Route } from '../../support/http-server.js';
import { redisServerTool, startRedisServer, type RedisServer } from '../../support/redis-server.js';

const UA = 'ExampleBot/1.2 (+https://example.com/bot)';
const RULES = 'User-agent: *\nDisallow: /private/\n';
const SECOND = 1000;
const DAY = 24 * 3600 * SECOND;
const PREFIX = 'test:';

const redis = redisServerTool();

let clock: number;
const caches: RobotsCache[] = [];
const connections: RedisConnection[] = [];

function cacheFor(store: RobotsStore, options: Partial<RobotsCacheOptions> = {}): RobotsCache {
  const cache = new RobotsCache({ userAgent: UA, now: () => clock, store, ...options });
  caches.push(cache);
  return cache;
}

/** A route that answers 304 to the validator it gave, and RULES with it otherwise (counting those). */
function conditional(etag: string): Route & { bodies: () => number } {
  let bodies = 0;
  const route = ((request, response) => {
    const headers = { 'cache-control': 'max-age=60', 'content-type': 'text/plain', etag };
    if (request.headers['if-none-match'] === etag) return void response.writeHead(304, headers).end();
    bodies++;
    response.writeHead(200, headers).end(RULES);
  }) as Route & { bodies: () => number };
  route.bodies = () => bodies;
  return route;
}

/** Bytes Redis has sent to its clients so far (INFO stats), this answer's own included. */
async function outputBytes(connection: RedisConnection): Promise<number> {
  const info = String(await connection.command(['INFO', 'stats']));
  const match = /total_net_output_bytes:(\d+)/.exec(info);
  if (match === null) throw new Error('INFO stats gave no total_net_output_bytes');
  return Number(match[1]);
}

/** A client that sends each command through `connection`, and records it: what the adapter asks Redis. */
function recording(connection: RedisConnection): { client: RedisClient; sent: string[][] } {
  const sent: string[][] = [];
  return { client: { sendCommand: (args) => (sent.push(args), connection.command(args)) }, sent };
}

/** 50 MiB: a value a damaged or foreign writer could leave, made in Redis without sending it (SETRANGE pads with zeros). */
const HUGE_BYTES = 50 * 1024 * 1024;

/** Waits for `check` to hold, looking every 10 ms, at most 200 times. */
async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  for (let look = 0; look < 200; look++) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return false;
}

it("accepts every installed client's type as it is, no cast needed", () => {
  expectTypeOf<ReturnType<typeof createClient>>().toExtend<RedisClient>();
  expectTypeOf<ReturnType<typeof createClient5>>().toExtend<RedisClient>();
  expectTypeOf<ReturnType<typeof createClient4>>().toExtend<RedisClient>();
  expectTypeOf<Ioredis6>().toExtend<RedisClient>();
  expectTypeOf<Ioredis5>().toExtend<RedisClient>();
});

it('says what to pass for a client that is neither, and for bad options', () => {
  for (const client of [{}, null, 'redis://127.0.0.1:6379', { get: () => undefined }]) {
    expect(() => redisStore(client as unknown as RedisClient)).toThrow(TypeError);
  }
  expect(() => redisStore({} as RedisClient)).toThrow(/createClient\(\).*new Redis\(\)/);
  const client: RedisClient = { sendCommand: async () => null };
  for (const prefix of ['with space:', 'line\n', 'x'.repeat(257), 42]) {
    expect(() => redisStore(client, { prefix: prefix as string })).toThrow(TypeError);
  }
  for (const maxValueLength of [0, 1.5, -1, '10']) {
    expect(() => redisStore(client, { maxValueLength: maxValueLength as number })).toThrow(RangeError);
  }
});

describe.skipIf(!redis.found)('against redis-server', () => {
  let server: RedisServer;

  beforeAll(async () => {
    server = await startRedisServer();
  });

  afterAll(async () => {
    await server?.close();
  });

  beforeEach(() => {
    clock = Date.UTC(2026, 0, 1);
  });

  afterEach(async () => {
    for (const cache of caches.splice(0)) cache.dispose();
    await Promise.all(connections.splice(0).map((connection) => connection.close()));
    await closeServers();
  });

  it('a reply that is not a string (node-redis mapping strings to Buffer) is an error, not a value', async () => {
    const client = await createClient({ url: server.url, RESP: 3 })
      .withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer })
      .on('error', () => undefined)
      .connect();
    try {
      const store = redisStore(client, { prefix: PREFIX });
      await store.set('bytes', 'value', 60_000);
      await expect(store.get('bytes')).rejects.toThrow(/GET with bytes, not a string or null/);
    } finally {
      client.destroy();
    }
  });

  describe.each(REDIS_CLIENTS)('%s', (name) => {
    let admin: RedisConnection;

    /** A connection of this client of its own, closed after the test: one process of the fleet. */
    async function connect(): Promise<RedisConnection> {
      const connection = await connectRedis(name, server.url);
      connections.push(connection);
      return connection;
    }

    async function storeOf(prefix = PREFIX): Promise<RobotsStore> {
      return redisStore((await connect()).client, { prefix });
    }

    beforeEach(async () => {
      admin = await connect();
      await admin.command(['FLUSHALL']);
    });

    describe('the commands', () => {
      it('get and set with PX: the value under the prefix, for its lifetime', async () => {
        const store = redisStore(admin.client, { prefix: PREFIX });
        expect(await store.get('a')).toBeUndefined();
        await store.set('a', 'first é ✓', 60_000);
        expect(await store.get('a')).toBe('first é ✓');
        expect(await admin.command(['GET', `${PREFIX}a`])).toBe('first é ✓');
        const pttl = Number(await admin.command(['PTTL', `${PREFIX}a`]));
        expect(pttl).toBeGreaterThan(0);
        expect(pttl).toBeLessThanOrEqual(60_000);

        await store.set('a', 'second', 2_000);
        expect(await store.get('a')).toBe('second');
        expect(Number(await admin.command(['PTTL', `${PREFIX}a`]))).toBeLessThanOrEqual(2_000);
        await store.set('short', 'gone soon', 20);
        expect(await eventually(async () => (await store.get('short')) === undefined)).toBe(true);
      });

      it('keys are the prefix and the cache key: another prefix sees none of them; the default is robotstxt:', async () => {
        await redisStore(admin.client, { prefix: PREFIX }).set('k', 'mine', 60_000);
        expect(await redisStore(admin.client, { prefix: 'other:' }).get('k')).toBeUndefined();
        await redisStore(admin.client).set('k', 'default', 60_000);
        expect(await admin.command(['GET', 'robotstxt:k'])).toBe('default');
        expect(await admin.command(['GET', `${PREFIX}k`])).toBe('mine');
      });

      it('a lease: SET NX PX taken once; given back only by the token that holds it', async () => {
        const store = redisStore(admin.client, { prefix: PREFIX });
        expect(await store.acquire?.('lease', 'one', 60_000)).toBe(true);
        expect(await store.acquire?.('lease', 'two', 60_000)).toBe(false);
        const pttl = Number(await admin.command(['PTTL', `${PREFIX}lease`]));
        expect(pttl).toBeGreaterThan(0);
        expect(pttl).toBeLessThanOrEqual(60_000);
        await store.release?.('lease', 'two');
        expect(await admin.command(['GET', `${PREFIX}lease`])).toBe('one');
        await store.release?.('lease', 'one');
        expect(await admin.command(['EXISTS', `${PREFIX}lease`])).toBe(0);
        expect(await store.acquire?.('lease', 'two', 60_000)).toBe(true);
      });

      it('refuses a value over maxValueLength and a lifetime that is not a whole number ≥ 1: nothing written', async () => {
        const store = redisStore(admin.client, { prefix: PREFIX, maxValueLength: 10 });
        await store.set('fits', 'x'.repeat(10), 60_000);
        await expect(store.set('long', 'x'.repeat(11), 60_000)).rejects.toThrow(RangeError);
        for (const ttl of [0, 1.5, Number.NaN]) await expect(store.set('ttl', 'x', ttl)).rejects.toThrow(RangeError);
        await expect(store.acquire?.('ttl', 'token', 0)).rejects.toThrow(RangeError);
        expect(await admin.command(['EXISTS', `${PREFIX}long`, `${PREFIX}ttl`])).toBe(0);
      });

      it('reads a value of at most 3 × maxValueLength bytes (a character takes up to 3 in UTF-8), in one command', async () => {
        await admin.command(['SET', `${PREFIX}fits`, '✓'.repeat(10)]);
        await admin.command(['SET', `${PREFIX}over`, `${'✓'.repeat(10)}x`]);
        const { client, sent } = recording(admin);
        const store = redisStore(client, { prefix: PREFIX, maxValueLength: 10 });
        expect(await store.get('fits')).toBe('✓'.repeat(10));
        expect(sent).toHaveLength(1);
        expect(await store.get('over')).toBeUndefined();
        expect(await store.get('none')).toBeUndefined();
        expect(sent.map(([command]) => command)).toEqual(['EVAL', 'EVAL', 'EVAL']);
      });

      it('a value of 50 MiB is never transferred: it reads as absent, and Redis sends a few bytes', async () => {
        await admin.command(['SETRANGE', `${PREFIX}huge`, String(HUGE_BYTES - 1), 'x']);
        expect(Number(await admin.command(['STRLEN', `${PREFIX}huge`]))).toBe(HUGE_BYTES);
        const store = redisStore((await connect()).client, { prefix: PREFIX });
        const before = await outputBytes(admin);
        expect(await store.get('huge')).toBeUndefined();
        // The second INFO's answer and the script's reply: a few kilobytes, not 50 MiB.
        expect((await outputBytes(admin)) - before).toBeLessThan(64 * 1024);
      });

      it("an error reply rejects (a key holding another type: Redis's WRONGTYPE)", async () => {
        await admin.command(['HSET', `${PREFIX}hash`, 'field', 'value']);
        await expect(redisStore(admin.client, { prefix: PREFIX }).get('hash')).rejects.toThrow(/WRONGTYPE/);
      });
    });

    describe('RobotsCache through the store', () => {
      it("a second process answers from the first one's record, without a fetch", async () => {
        const site = await startServer({ '/robots.txt': text(RULES) });
        const first = cacheFor(await storeOf());
        expect(await first.isAllowed(`${site.origin}/private/x`)).toBe(false);
        const second = cacheFor(await storeOf());
        expect(await second.explain(`${site.origin}/private/x`)).toMatchObject({
          allowed: false,
          line: 2,
          source: { origin: site.origin, from: 'store', outcome: 'rules', fetchedAt: clock, expiresAt: clock + DAY },
        });
        expect(await second.isAllowed(`${site.origin}/public`)).toBe(true);
        expect(site.count()).toBe(1);
        expect(first.stats().store).toMatchObject({ hits: 0, misses: 1, writes: 1, errors: 0, fallbacks: 0 });
        expect(second.stats().store).toMatchObject({ hits: 1, misses: 0, writes: 0, errors: 0, fallbacks: 0 });
        expect(second.stats()).toMatchObject({ fetches: 0, hits: 1 });

        // The record lives its entry's lifetime and the grace; the lease was given back.
        const pttl = Number(await admin.command(['PTTL', PREFIX + recordKey(site.origin)]));
        expect(pttl).toBeGreaterThan(DAY);
        expect(pttl).toBeLessThanOrEqual(DAY + RECORD_GRACE_MS);
        expect(await eventually(async () => (await admin.command(['EXISTS', PREFIX + leaseKey(site.origin)])) === 0)).toBe(true);
      });

      it("revalidates the fleet's expired record with its ETag: a 304 renews it for every process", async () => {
        const route = conditional('"v1"');
        const site = await startServer({ '/robots.txt': route });
        await cacheFor(await storeOf()).isAllowed(`${site.origin}/`);
        clock += 61 * SECOND;
        const second = cacheFor(await storeOf());
        expect((await second.get(site.origin)).from).toBe('revalidated');
        expect(site.requests[1]?.headers['if-none-match']).toBe('"v1"');
        expect(route.bodies()).toBe(1);
        expect(second.stats()).toMatchObject({ fetches: 1, revalidations: 1 });

        const third = cacheFor(await storeOf());
        expect(await third.explain(`${site.origin}/private/x`)).toMatchObject({
          allowed: false,
          source: { from: 'store', fetchedAt: clock, expiresAt: clock + 60 * SECOND },
        });
        expect(site.count()).toBe(2);
      });

      it("serves the fleet's copy stale through a 5xx, and shares that answer", async () => {
        const site = await startServer({ '/robots.txt': text(RULES, 200, { 'cache-control': 'max-age=60' }) });
        await cacheFor(await storeOf()).isAllowed(`${site.origin}/`);
        site.route('/robots.txt', status(503));
        clock += 61 * SECOND;
        const second = cacheFor(await storeOf());
        expect(await second.explain(`${site.origin}/private/x`)).toMatchObject({
          allowed: false,
          source: { from: 'stale', status: 200, refreshFailure: { status: 503 } },
        });
        // The third process reads the stale entry from the store (its back-off holds for the fleet): no fetch.
        const third = cacheFor(await storeOf());
        expect(await third.explain(`${site.origin}/private/x`)).toMatchObject({
          allowed: false,
          source: { from: 'stale', refreshFailure: { status: 503 } },
        });
        expect(third.stats()).toMatchObject({ fetches: 0, staleAnswers: 1, store: { hits: 1, misses: 0 } });
        expect(site.count()).toBe(2);
      });

      it('ignores a record that does not decode (counted as invalid) and replaces it', async () => {
        const site = await startServer({ '/robots.txt': text(RULES) });
        const key = PREFIX + recordKey(site.origin);
        await admin.command(['SET', key, '{"format":1}\ngarbage']);
        const robots = cacheFor(await storeOf());
        expect(await robots.isAllowed(`${site.origin}/private/x`)).toBe(false);
        expect(robots.stats().store).toMatchObject({ invalid: 1, misses: 1, writes: 1, hits: 0 });
        expect(site.count()).toBe(1);
        expect(await cacheFor(await storeOf()).isAllowed(`${site.origin}/private/x`)).toBe(false);
        expect(site.count()).toBe(1);
      });

      it('a damaged value of 50 MiB under a record key is not pulled: the process fetches, and its record replaces it', async () => {
        const site = await startServer({ '/robots.txt': text(RULES) });
        const key = PREFIX + recordKey(site.origin);
        await admin.command(['SETRANGE', key, String(HUGE_BYTES - 1), 'x']);
        const before = await outputBytes(admin);
        const robots = cacheFor(await storeOf());
        expect(await robots.isAllowed(`${site.origin}/private/x`)).toBe(false);
        expect((await outputBytes(admin)) - before).toBeLessThan(64 * 1024);
        expect(robots.stats().store).toMatchObject({ misses: 1, writes: 1, errors: 0, fallbacks: 0 });
        expect(Number(await admin.command(['STRLEN', key]))).toBeLessThan(1024);
        // A local miss the store answers is one round trip.
        const { client, sent } = recording(await connect());
        const reader = cacheFor(redisStore(client, { prefix: PREFIX }));
        expect((await reader.get(site.origin)).from).toBe('store');
        expect(sent).toHaveLength(1);
        expect(site.count()).toBe(1);
      });

      it('nothing a site serves writes past the bounds: a body past maxBytes, not UTF-8, kept for a year', async () => {
        const maxBytes = 64 * 1024;
        const body = new Uint8Array(4 * maxBytes).fill(0xff);
        body.set(new TextEncoder().encode(RULES));
        const site = await startServer({ '/robots.txt': text(body, 200, { 'cache-control': 'max-age=31536000' }) });
        const robots = cacheFor(await storeOf(), { maxBytes });
        expect(await robots.isAllowed(`${site.origin}/private/x`)).toBe(false);
        expect(robots.stats().store).toMatchObject({ writes: 1, errors: 0 });
        const key = PREFIX + recordKey(site.origin);
        expect(Number(await admin.command(['STRLEN', key]))).toBeLessThanOrEqual(maxRecordChars(maxBytes));
        expect(Number(await admin.command(['PTTL', key]))).toBeLessThanOrEqual(DAY + RECORD_GRACE_MS);
        const shared = cacheFor(await storeOf(), { maxBytes });
        expect(await shared.get(site.origin)).toMatchObject({ from: 'store', truncated: true, bytes: maxBytes });
      });
    });
  });
});
