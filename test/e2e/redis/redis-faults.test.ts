/**
 * Faults of a Redis store never stop the crawl, with each client robotstxt-wasm/redis serves: Redis stopped
 * mid-run (every call still answers, from the site; errors and fallbacks counted) and started again (the
 * store is used again), slow (CLIENT PAUSE: past the deadline), full (maxmemory reached: writes refused),
 * and a lease whose holder died (another process fetches once it expires). A real redis-server on
 * 127.0.0.1 (test/support/redis-server.ts) of this file's own, since these tests stop it.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectRedis, REDIS_CLIENTS, type RedisConnection } from '../../../harness/redis-clients.mjs';
import { RobotsCache, type RobotsCacheOptions } from '../../../src/platform/inline.js';
import { leaseKey, recordKey } from '../../../src/cache/shared-record.js';
import { redisStore } from '../../../src/store/redis.js';
import { closeServers, startServer, text, type TestServer } from '../../support/http-server.js';
import { redisServerTool, startRedisServer, type RedisServer } from '../../support/redis-server.js';

const UA = 'ExampleBot/1.2 (+https://example.com/bot)';
const RULES = 'User-agent: *\nDisallow: /private/\n';
const PREFIX = 'faults:';
/** Short deadlines, so that a fault shows at once; the defaults are 500 and 5,000 ms. */
const STORE = { storeTimeoutMs: 200, storeRetryMs: 100 } as const;

const redis = redisServerTool();

const caches: RobotsCache[] = [];
const connections: RedisConnection[] = [];

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe.skipIf(!redis.found)('a Redis store that fails', () => {
  let server: RedisServer;

  beforeAll(async () => {
    server = await startRedisServer();
  });

  afterAll(async () => {
    await server?.close();
  });

  afterEach(async () => {
    for (const cache of caches.splice(0)) cache.dispose();
    await Promise.all(connections.splice(0).map((connection) => connection.close()));
    await closeServers();
  });

  describe.each(REDIS_CLIENTS)('%s', (name) => {
    let admin: RedisConnection;

    async function connect(): Promise<RedisConnection> {
      const connection = await connectRedis(name, server.url);
      connections.push(connection);
      return connection;
    }

    /** A process of the fleet: a cache with a Redis connection of its own. */
    async function crawler(options: Partial<RobotsCacheOptions> = {}): Promise<RobotsCache> {
      const store = redisStore((await connect()).client, { prefix: PREFIX });
      const cache = new RobotsCache({ userAgent: UA, store, ...STORE, ...options });
      caches.push(cache);
      return cache;
    }

    function site(): Promise<TestServer> {
      return startServer({ '/robots.txt': text(RULES) });
    }

    beforeEach(async () => {
      admin = await connect();
      await admin.command(['FLUSHALL']);
    });

    it('stopped mid-run: every call answers from the site, errors and fallbacks counted; started again: the store is used again', async () => {
      const robots = await crawler();
      const before = await site();
      expect(await robots.isAllowed(`${before.origin}/private/x`)).toBe(false);
      expect(robots.stats().store).toMatchObject({ writes: 1, errors: 0, fallbacks: 0 });

      await server.stop();
      const during = [await site(), await site(), await site()];
      for (const { origin } of during) {
        expect(await robots.isAllowed(`${origin}/private/x`)).toBe(false);
        expect(await robots.isAllowed(`${origin}/public`)).toBe(true);
      }
      for (const { count } of during) expect(count()).toBe(1);
      const down = robots.stats().store;
      expect(down.errors).toBeGreaterThanOrEqual(1);
      expect(down.fallbacks).toBe(3);
      expect(down.writes).toBe(1);

      await server.start();
      // The client reconnects within its retry strategy (50 ms), the cache tries again after storeRetryMs:
      // some origin soon after is shared again.
      let after: TestServer | undefined;
      for (let attempt = 0; attempt < 100 && robots.stats().store.writes === 1; attempt++) {
        await sleep(50);
        after = await site();
        expect(await robots.isAllowed(`${after.origin}/private/x`)).toBe(false);
      }
      expect(robots.stats().store.writes).toBe(2);
      const other = await crawler();
      expect((await other.get((after as TestServer).origin)).from).toBe('store');
      expect((after as TestServer).count()).toBe(1);
    });

    it('slow (CLIENT PAUSE): a call past the deadline is fetched around, then the store is used again', async () => {
      const robots = await crawler();
      const slow = await site();
      await admin.command(['CLIENT', 'PAUSE', '1000', 'ALL']);
      try {
        expect(await robots.isAllowed(`${slow.origin}/private/x`)).toBe(false);
        expect(robots.stats().store).toMatchObject({ errors: 1, fallbacks: 1, writes: 0 });
      } finally {
        // Paused too, this answers when the pause ends: the next test finds Redis answering.
        await admin.command(['CLIENT', 'UNPAUSE']);
      }
      await sleep(STORE.storeRetryMs);
      const after = await site();
      expect(await robots.isAllowed(`${after.origin}/private/x`)).toBe(false);
      expect(robots.stats().store).toMatchObject({ errors: 1, writes: 1 });
    });

    it('full (maxmemory reached, no eviction): the refused writes are errors, the crawl goes on', async () => {
      const robots = await crawler();
      const full = await site();
      await admin.command(['CONFIG', 'SET', 'maxmemory', '1']);
      try {
        expect(await robots.isAllowed(`${full.origin}/private/x`)).toBe(false);
        expect(robots.stats().store).toMatchObject({ errors: 1, fallbacks: 1, writes: 0 });
      } finally {
        await admin.command(['CONFIG', 'SET', 'maxmemory', '0']);
      }
      expect(await admin.command(['EXISTS', PREFIX + recordKey(full.origin)])).toBe(0);
      await sleep(STORE.storeRetryMs);
      const after = await site();
      expect(await robots.isAllowed(`${after.origin}/private/x`)).toBe(false);
      expect(robots.stats().store).toMatchObject({ errors: 1, writes: 1 });
    });

    it('a lease whose holder died: another process waits, takes it over once it expires, and fetches', async () => {
      const orphan = await site();
      // What a process killed mid-fetch leaves: its lease, under a token nobody else has, and no record.
      await admin.command(['SET', PREFIX + leaseKey(orphan.origin), 'dead-process', 'PX', '300']);
      const robots = await crawler();
      expect(await robots.isAllowed(`${orphan.origin}/private/x`)).toBe(false);
      expect(robots.stats().store).toMatchObject({ waits: 1, takeovers: 1, writes: 1, errors: 0, fallbacks: 0 });
      expect(orphan.count()).toBe(1);
      expect((await (await crawler()).get(orphan.origin)).from).toBe('store');
    });
  });
});
