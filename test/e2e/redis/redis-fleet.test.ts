/**
 * A fleet of crawlers sharing one Redis (docs/design.md#a-fleet): five processes, each with its own RobotsCache
 * and its own connection through a client of its own (node-redis 6, 5 and 4, ioredis 6 and 5, side by side),
 * asking about 2,000 origins in shuffled orders, all served by one HTTP server on 127.0.0.1 that counts the
 * fetches of each origin (harness/fleet-sites.mjs: the origins never resolve). Each origin is fetched once
 * across the fleet, and every verdict is right. Then a process killed mid-fetch, holding the origin's lease:
 * another fetches once the lease expires. The crawlers load the built package (dist/, which `npm test`
 * builds first), as a fleet's processes would.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  expectedVerdicts,
  FLEET_USER_AGENT,
  fleetFetch,
  originOf,
  pathsOf,
  startFleetSites,
  type FleetSites,
} from '../../../harness/fleet-sites.mjs';
import { runFleet, startCrawler } from '../../../harness/fleet-run.mjs';
import { connectRedis, REDIS_CLIENTS, type RedisConnection } from '../../../harness/redis-clients.mjs';
import { leaseKey } from '../../../src/cache/shared-record.js';
import { RobotsCache, type RobotsStoreStats } from '../../../src/platform/inline.js';
import { redisStore } from '../../../src/store/redis.js';
import { redisServerTool, startRedisServer, type RedisServer } from '../../support/redis-server.js';

const DIST = fileURLToPath(new URL('../../../dist', import.meta.url));
const ORIGINS = 2000;
const PROCESSES = 5;

const redis = redisServerTool();

function sum(stats: RobotsStoreStats[]): Record<keyof RobotsStoreStats, number> {
  const total = { hits: 0, misses: 0, writes: 0, errors: 0, fallbacks: 0, waits: 0, takeovers: 0, invalid: 0 };
  for (const each of stats) for (const key of Object.keys(total) as (keyof RobotsStoreStats)[]) total[key] += each[key];
  return total;
}

describe.skipIf(!redis.found)('a fleet of crawlers sharing Redis', () => {
  let server: RedisServer;
  let admin: RedisConnection;
  let sites: FleetSites | undefined;

  beforeAll(async () => {
    server = await startRedisServer();
    admin = await connectRedis('ioredis@6', server.url);
  });

  afterAll(async () => {
    await admin?.close();
    await server?.close();
  });

  afterEach(async () => {
    await sites?.close();
    sites = undefined;
  });

  it(`${PROCESSES} processes, ${ORIGINS} origins in shuffled orders: each origin fetched once across the fleet, every verdict right`, async () => {
    sites = await startFleetSites(ORIGINS);
    const { results } = await runFleet({
      processes: PROCESSES,
      origins: ORIGINS,
      port: sites.port,
      dist: DIST,
      concurrency: 16,
      // A deadline that a loaded 2-core machine keeps: a missed one would fetch around the store.
      redis: { url: server.url, clients: REDIS_CLIENTS, prefix: 'fleet:', timeoutMs: 2000 },
    });

    const wrong: string[] = [];
    for (const [process, { verdicts }] of results.entries()) {
      for (let index = 0; index < ORIGINS; index++) {
        if (verdicts[index] !== expectedVerdicts(index)) wrong.push(`process ${process}, ${originOf(index)}: ${verdicts[index]}`);
      }
    }
    expect(wrong).toEqual([]);

    const fetches = [...sites.fetches];
    expect(fetches.filter((count) => count === 0)).toEqual([]);
    const second = fetches.reduce((total, count) => total + count - 1, 0);
    const store = sum(results.map((result) => result.stats.store));
    // A second fetch of an origin only after a lease expired (a takeover) or around a failed store call.
    expect(second).toBeLessThanOrEqual(store.takeovers + store.fallbacks);
    expect(second).toBeLessThanOrEqual(ORIGINS / 100);
    expect(results.reduce((total, result) => total + result.stats.fetches, 0)).toBe(ORIGINS + second);
    expect(store.writes).toBe(ORIGINS + second);
    // Every question of a process answered from its own cache, the store, or its own fetch.
    for (const { stats } of results) expect(stats.fetches + stats.store.hits).toBe(ORIGINS);
    expect(((await admin.command(['KEYS', 'fleet:v1/record/*'])) as string[]).length).toBe(ORIGINS);
  }, 120_000);

  it('a process killed mid-fetch, holding the lease: another waits, and fetches once the lease expires', async () => {
    sites = await startFleetSites(1, { hangFirst: [0] });
    const prefix = 'killed:';
    // Short deadlines for the holder: its lease lasts two fetch deadlines, three store deadlines and a second
    // (5.6 s). Its fetch must not time out before it is killed: that would store an answer for the origin.
    const holder = startCrawler({
      dist: DIST,
      port: sites.port,
      origins: 1,
      seed: 1,
      concurrency: 1,
      timeoutMs: 2000,
      redis: { url: server.url, client: 'redis@6', prefix, timeoutMs: 200 },
    });
    await holder.ready;
    holder.go();
    const lease = prefix + leaseKey(originOf(0));
    for (let look = 0; look < 500 && !((await admin.command(['EXISTS', lease])) === 1 && sites.fetches[0] === 1); look++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(sites.fetches[0]).toBe(1);
    holder.kill();
    await expect(holder.result).rejects.toThrow(/SIGKILL/);

    const connection = await connectRedis('ioredis@6', server.url);
    const robots = new RobotsCache({
      userAgent: FLEET_USER_AGENT,
      fetch: fleetFetch(sites.port),
      store: redisStore(connection.client, { prefix }),
    });
    try {
      const verdicts = [];
      for (const path of pathsOf(0)) verdicts.push((await robots.isAllowed(originOf(0) + path)) ? '1' : '0');
      expect(verdicts.join('')).toBe(expectedVerdicts(0));
      expect(robots.stats().store).toMatchObject({ waits: 1, takeovers: 1, writes: 1, errors: 0, fallbacks: 0 });
      expect(sites.fetches[0]).toBe(2);
    } finally {
      robots.dispose();
      await connection.close();
    }
  });
});
