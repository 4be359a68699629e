/**
 * Runs a fleet of crawler processes (harness/fleet-crawler.mjs) over the sites of harness/fleet-sites.mjs, for
 * test/e2e/redis/redis-fleet.test.ts and bench/fleet/run.mjs: each process loaded and connected first, then all started at
 * once, each asking every origin in an order of its own.
 *
 * @example
 * const sites = await startFleetSites(2000);
 * const { results } = await runFleet({ processes: 4, origins: 2000, port: sites.port, dist: 'dist', concurrency: 16 });
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CRAWLER = fileURLToPath(new URL('./fleet-crawler.mjs', import.meta.url));

/**
 * @typedef {import('./fleet-crawler.mjs').CrawlerConfig} CrawlerConfig
 * @typedef {import('./fleet-crawler.mjs').CrawlerResult} CrawlerResult
 * @typedef {import('./redis-clients.mjs').RedisClientName} RedisClientName
 */

/**
 * @typedef {object} Crawler
 * @property {Promise<void>} ready loaded, connected, waiting for go()
 * @property {() => void} go
 * @property {Promise<CrawlerResult>} result rejects when the process fails (or is killed)
 * @property {() => void} kill SIGKILL: a crash, mid-fetch
 */

/** Starts one crawler process. @param {CrawlerConfig} config @returns {Crawler} */
export function startCrawler(config) {
  const env = { ...process.env };
  delete env.NODE_OPTIONS; // a test runner's loader flags are not the crawler's
  const child = spawn(process.execPath, [CRAWLER, JSON.stringify(config)], { stdio: ['pipe', 'pipe', 'pipe'], env });
  let stdout = '';
  let stderr = '';
  /** @type {() => void} */
  let markReady = () => undefined;
  /** @type {Promise<void>} */
  const ready = new Promise((resolve) => (markReady = resolve));
  child.stdout.on('data', (chunk) => {
    stdout += chunk.toString();
    if (stdout.startsWith('ready\n')) markReady();
  });
  child.stderr.on('data', (chunk) => void (stderr += chunk.toString()));
  /** @type {Promise<CrawlerResult>} */
  const result = new Promise((resolve, reject) => {
    child.on('close', (code, signal) => {
      const last = stdout.trim().split('\n').at(-1) ?? '';
      if (code === 0 && last.startsWith('{')) return resolve(JSON.parse(last));
      reject(new Error(`fleet crawler exited with ${code ?? signal}: ${stderr.slice(-2000)}`));
    });
  });
  result.catch(() => undefined);
  const failed = result.then(() => Promise.reject(new Error('fleet crawler ended before it was ready')));
  return {
    ready: Promise.race([ready, failed]),
    go: () => void child.stdin.end('go\n'),
    result,
    kill: () => void child.kill('SIGKILL'),
  };
}

/**
 * @typedef {object} FleetOptions
 * @property {number} processes
 * @property {number} origins
 * @property {number} port the sites' server
 * @property {string} dist the build the crawlers load
 * @property {number} concurrency each process's questions in flight
 * @property {{ url: string, clients: readonly RedisClientName[], prefix: string, timeoutMs: number }} [redis] the shared
 *   store, process i connecting with clients[i % clients.length]; without it, each process fetches on its own
 */

/**
 * Runs the fleet: every process ready, then all started together. `wallMs`: from the start to the last result.
 * @param {FleetOptions} options
 * @returns {Promise<{ results: CrawlerResult[], wallMs: number }>}
 */
export async function runFleet(options) {
  const { redis } = options;
  const crawlers = Array.from({ length: options.processes }, (_, i) =>
    startCrawler({
      dist: options.dist,
      port: options.port,
      origins: options.origins,
      seed: i + 1,
      concurrency: options.concurrency,
      ...(redis === undefined
        ? {}
        : {
            redis: {
              url: redis.url,
              client: /** @type {RedisClientName} */ (redis.clients[i % redis.clients.length]),
              prefix: redis.prefix,
              timeoutMs: redis.timeoutMs,
            },
          }),
    }),
  );
  try {
    await Promise.all(crawlers.map((crawler) => crawler.ready));
  } catch (error) {
    for (const crawler of crawlers) crawler.kill();
    throw error;
  }
  const start = performance.now();
  for (const crawler of crawlers) crawler.go();
  const results = await Promise.all(crawlers.map((crawler) => crawler.result));
  return { results, wallMs: performance.now() - start };
}
