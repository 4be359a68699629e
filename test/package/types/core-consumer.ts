/**
 * A consumer of the published declarations that names no platform global: it must compile with
 * `lib: ["es2022"]` alone (no DOM, no @types/node), where URL, Response and AbortSignal do not exist.
 * Compiled by test/package/package.test.ts against dist/; not run.
 */
import { parseRobotsTxt, productToken, RobotsCache, type FetchLike, type RobotsFetchResult, type RobotsCacheStats } from 'robotstxt-wasm';
import { cacheApiStore, type CacheApiCache } from 'robotstxt-wasm/cache-api';
import { redisStore, type NodeRedisClient } from 'robotstxt-wasm/redis';

const robots = parseRobotsTxt('User-agent: *\nDisallow: /private/\n');
const allowed: boolean = robots.isAllowed('https://example.com/private/x', 'ExampleBot');
const rules = robots.forAgent('ExampleBot');
const verdicts: boolean[] = rules.isAllowedMany(['/a', '/private/b']);
const fromBytes: boolean = rules.isAllowedUtf8(new Uint8Array([0x2f, 0x61]), 0, 2);
const line: number = rules.explain('/private/x').line;
const token: string | undefined = productToken('Mozilla/5.0 (compatible; ExampleBot/2.1)');

// A custom fetch written against the structural shapes alone.
const fetchLike: FetchLike = async (url, init) => ({
  status: url.endsWith('/robots.txt') && init.method === 'GET' ? 404 : 500,
  headers: { get: (name: string) => (name === 'content-type' ? 'text/plain' : null) },
  body: null,
});
const cache = new RobotsCache({ userAgent: 'ExampleBot/1.2', fetch: fetchLike, maxLifetimeMs: 3_600_000 });
// The Redis adapter, given a client written against its structural type alone (no Redis package needed).
const redisClient: NodeRedisClient = { sendCommand: async (args) => (args[0] === 'GET' ? null : 'OK') };
const sharedThroughRedis = new RobotsCache({ userAgent: 'ExampleBot/1.2', store: redisStore(redisClient, { prefix: 'crawler:' }) });
async function use(): Promise<void> {
  const ok: boolean = await cache.isAllowed('https://example.com/');
  const stats: RobotsCacheStats = cache.stats();
  const result: RobotsFetchResult | undefined = undefined;
  void [ok, stats, result];
}

// A Cache of the store's structural shapes: one that never holds anything.
const nothingHeld: CacheApiCache = { match: async () => undefined, put: async () => undefined };
const shared = new RobotsCache({ userAgent: 'ExampleBot/1.2', fetch: fetchLike, store: cacheApiStore({ cache: nothingHeld }) });

void [allowed, verdicts, fromBytes, line, token, use, shared, sharedThroughRedis];
