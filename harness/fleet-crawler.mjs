/**
 * One crawler process of a fleet (test/e2e/redis/redis-fleet.test.ts, bench/fleet/run.mjs): its own RobotsCache, with its
 * own Redis connection when the fleet shares a store, asking FleetBot's questions of origins 0 to origins - 1
 * (harness/fleet-sites.mjs) in an order of its own. It prints `ready` once loaded and connected, starts on a
 * `go` line on stdin (so that a fleet starts together), then prints its result as one JSON line.
 *
 *   node harness/fleet-crawler.mjs '<CrawlerConfig as JSON>'
 */
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { connectRedis, countRoundTrips } from './redis-clients.mjs';
import { FLEET_USER_AGENT, fleetFetch, originOf, pathsOf } from './fleet-sites.mjs';
import { mulberry32 } from './random.mjs';

/**
 * @typedef {object} CrawlerConfig
 * @property {string} dist the build's directory (its index.js and redis.js)
 * @property {number} port the sites' server
 * @property {number} origins how many origins to ask of (0 to origins - 1)
 * @property {number} seed the order: a shuffle of its own per seed
 * @property {number} concurrency questions in flight at once
 * @property {number} [timeoutMs] each fetch's deadline
 * @property {{ url: string, client: import('./redis-clients.mjs').RedisClientName, prefix: string, timeoutMs: number }} [redis] the shared store
 */

/**
 * @typedef {object} CrawlerResult
 * @property {Record<number, string>} verdicts per origin, its verdicts on pathsOf(origin): `1` allowed
 * @property {import('../src/index.js').RobotsCacheStats} stats
 * @property {number} ms the questions' wall time
 * @property {number} checks questions asked
 * @property {number} roundTrips calls to the store (each one round trip to Redis)
 */

/** A shuffle of 0 to count - 1, the same for the same seed (mulberry32). @param {number} count @param {number} seed */
function shuffled(count, seed) {
  const random = mulberry32(seed);
  const order = Array.from({ length: count }, (_, i) => i);
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [/** @type {number} */ (order[j]), /** @type {number} */ (order[i])];
  }
  return order;
}

/** @type {CrawlerConfig} */
const config = JSON.parse(process.argv[2] ?? '{}');
/** @type {typeof import('../src/index.js')} */
const { RobotsCache } = await import(pathToFileURL(join(config.dist, 'index.js')).href);
/** @type {typeof import('../src/store/redis.js')} */
const { redisStore } = await import(pathToFileURL(join(config.dist, 'redis.js')).href);

const connection = config.redis === undefined ? undefined : await connectRedis(config.redis.client, config.redis.url);
const counted = connection === undefined ? undefined : countRoundTrips(redisStore(connection.client, { prefix: config.redis?.prefix }));
const robots = new RobotsCache({
  userAgent: FLEET_USER_AGENT,
  fetch: fleetFetch(config.port),
  ...(config.timeoutMs === undefined ? {} : { timeoutMs: config.timeoutMs }),
  ...(counted === undefined ? {} : { store: counted.store, storeTimeoutMs: config.redis?.timeoutMs }),
});

const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
for await (const line of lines) if (line === 'go') break;

const order = shuffled(config.origins, config.seed);
/** @type {Record<number, string>} */
const verdicts = {};
let next = 0;
const crawl = async () => {
  while (next < order.length) {
    const index = /** @type {number} */ (order[next++]);
    let answers = '';
    for (const path of pathsOf(index)) answers += (await robots.isAllowed(originOf(index) + path)) ? '1' : '0';
    verdicts[index] = answers;
  }
};
const start = performance.now();
await Promise.all(Array.from({ length: config.concurrency }, crawl));
const ms = performance.now() - start;

/** @type {CrawlerResult} */
const result = { verdicts, stats: robots.stats(), ms, checks: order.length * 3, roundTrips: counted?.roundTrips() ?? 0 };
process.stdout.write(`${JSON.stringify(result)}\n`);
robots.dispose();
lines.close();
await connection?.close();
