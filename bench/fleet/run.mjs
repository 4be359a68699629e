/**
 * `npm run bench:fleet`: a fleet of crawler processes sharing robots.txt through Redis (robotstxt-wasm/redis), in
 * the fleet test's shape (test/e2e/redis/redis-fleet.test.ts): N processes (1, 2 and 4 by default), each with its own
 * RobotsCache and Redis connection, ask FleetBot's three questions of every origin in orders of their own, all
 * origins served by one HTTP server on 127.0.0.1 (harness/fleet-sites.mjs); the same fleet again without the store,
 * each process fetching for itself. Reported: fetches per origin across the fleet, checks/s (all processes' checks
 * over the wall time from the start to the last process's end) and round trips to Redis per check (store calls). Then, in this
 * process, one origin at a time: what a local miss answered by the store costs (a GET, the parse and compile)
 * against a local miss fetched from the loopback server, and a local hit.
 *
 *   node bench/fleet/run.mjs [--origins 2000] [--processes 1,2,4] [--concurrency 16] [--probe 500] [--write]
 *
 * --write puts the section into bench/RESULTS.md. It builds nothing: the npm script builds dist/ first. Without
 * redis-server it prints a note saying how to install it and exits 0.
 */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { fleetFetch, FLEET_USER_AGENT, originOf, startFleetSites } from '../../harness/fleet-sites.mjs';
import { runFleet } from '../../harness/fleet-run.mjs';
import { machine } from '../lib/machine.mjs';
import { sectionHeading, writeSection } from '../lib/results.mjs';
import { median } from '../lib/median.mjs';
import { connectRedis, countRoundTrips, REDIS_CLIENTS } from '../../harness/redis-clients.mjs';
import { REDIS_INSTALL, redisServerInstalled, startRedisServer } from '../../harness/redis-server.mjs';

const DIST = fileURLToPath(new URL('../../dist', import.meta.url));
const TITLE = 'A fleet sharing Redis (robotstxt-wasm/redis)';

/** @param {string} name @param {string} fallback */
function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : (process.argv[at + 1] ?? fallback);
}

/** @param {string} line */
function log(line) {
  process.stderr.write(`${line}\n`);
}

const ORIGINS = Number(option('--origins', '2000'));
const PROCESSES = option('--processes', '1,2,4').split(',').map(Number);
const CONCURRENCY = Number(option('--concurrency', '16'));
const PROBE = Number(option('--probe', '500'));

if (!redisServerInstalled()) {
  console.log(`bench:fleet skipped: redis-server is not installed (${REDIS_INSTALL})`);
  process.exit(0);
}

/** @type {typeof import('../../src/index.js')} */
const { RobotsCache } = await import(new URL('../../dist/index.js', import.meta.url).href);
/** @type {typeof import('../../src/store/redis.js')} */
const { redisStore } = await import(new URL('../../dist/redis.js', import.meta.url).href);

const redis = await startRedisServer();
const admin = await connectRedis('ioredis@6', redis.url);

/**
 * @typedef {{ processes: number, store: boolean, fetchesPerOrigin: number, checksPerSecond: number, roundTripsPerCheck: number,
 *   wallMs: number, waits: number, takeovers: number, fallbacks: number }} FleetRow
 */

/** @param {number} processes @param {boolean} store @returns {Promise<FleetRow>} */
async function fleetRow(processes, store) {
  const sites = await startFleetSites(ORIGINS);
  const { results, wallMs } = await runFleet({
    processes,
    origins: ORIGINS,
    port: sites.port,
    dist: DIST,
    concurrency: CONCURRENCY,
    ...(store ? { redis: { url: redis.url, clients: REDIS_CLIENTS, prefix: `bench-${processes}:`, timeoutMs: 2000 } } : {}),
  });
  await sites.close();
  const checks = results.reduce((total, result) => total + result.checks, 0);
  const fetches = sites.fetches.reduce((total, count) => total + count, 0);
  /** @param {'waits' | 'takeovers' | 'fallbacks'} key */
  const total = (key) => results.reduce((sum, result) => sum + result.stats.store[key], 0);
  const roundTrips = results.reduce((sum, result) => sum + result.roundTrips, 0);
  const row = {
    processes,
    store,
    fetchesPerOrigin: fetches / ORIGINS,
    checksPerSecond: checks / (wallMs / 1000),
    roundTripsPerCheck: roundTrips / checks,
    wallMs,
    waits: total('waits'),
    takeovers: total('takeovers'),
    fallbacks: total('fallbacks'),
  };
  log(`${processes} process(es) ${store ? 'with' : 'without'} the store: ${JSON.stringify(row)}`);
  return row;
}

/** Blocks a timed pass is cut into: the report takes the median block's time, not one slow spell's. */
const BLOCKS = 10;

/**
 * One origin at a time, `count` origins from `first`, each asked once: µs per origin (the median of BLOCKS
 * blocks of origins), and round trips to Redis per origin.
 * @param {import('../../src/index.js').RobotsCache} robots @param {() => number} roundTrips @param {number} first @param {number} count
 */
async function perOrigin(robots, roundTrips, first, count) {
  const before = roundTrips();
  const size = Math.max(1, Math.floor(count / BLOCKS));
  /** @type {number[]} */
  const blocks = [];
  for (let block = first; block < first + count; block += size) {
    const end = Math.min(block + size, first + count);
    const start = performance.now();
    for (let index = block; index < end; index++) await robots.isAllowed(`${originOf(index)}/public`);
    blocks.push(((performance.now() - start) * 1000) / (end - block));
  }
  return { us: median(blocks), roundTrips: (roundTrips() - before) / count };
}

/** @typedef {{ what: string, us: number, roundTrips: number }} ProbeRow */

/**
 * A store hit and a local hit (with each client family), and a fetch, one origin at a time: origins 0 to 2P - 1
 * are stored by another cache first; a warm-up pass over the first P, then the next P are timed as store hits,
 * then again as local hits; without the store, origins 2P to 4P - 1, the first half as the warm-up.
 * @returns {Promise<ProbeRow[]>}
 */
async function probeRows() {
  const sites = await startFleetSites(4 * PROBE);
  const fetch = fleetFetch(sites.port);
  /** @type {ProbeRow[]} */
  const rows = [];
  for (const client of /** @type {const} */ (['redis@6', 'ioredis@6'])) {
    const prefix = `probe-${client}:`;
    const writer = await connectRedis(client, redis.url);
    const reader = await connectRedis(client, redis.url);
    const fill = new RobotsCache({ userAgent: FLEET_USER_AGENT, fetch, store: redisStore(writer.client, { prefix }) });
    await perOrigin(fill, () => 0, 0, 2 * PROBE);
    const counted = countRoundTrips(redisStore(reader.client, { prefix }));
    const shared = new RobotsCache({ userAgent: FLEET_USER_AGENT, fetch, store: counted.store });
    await perOrigin(shared, counted.roundTrips, 0, PROBE);
    rows.push({ what: `local miss, store hit (${client})`, ...(await perOrigin(shared, counted.roundTrips, PROBE, PROBE)) });
    rows.push({ what: `local hit (the same cache)`, ...(await perOrigin(shared, counted.roundTrips, PROBE, PROBE)) });
    for (const cache of [fill, shared]) cache.dispose();
    await Promise.all([writer.close(), reader.close()]);
  }
  const alone = new RobotsCache({ userAgent: FLEET_USER_AGENT, fetch });
  await perOrigin(alone, () => 0, 2 * PROBE, PROBE);
  rows.push({ what: 'local miss, fetched from the loopback server (no store)', ...(await perOrigin(alone, () => 0, 3 * PROBE, PROBE)) });
  alone.dispose();
  await sites.close();
  return rows;
}

/** @param {number} value @param {number} digits */
function fixed(value, digits) {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

const loadAtStart = loadavg()[0] ?? 0;
const rows = [];
for (const processes of PROCESSES) for (const store of [true, false]) rows.push(await fleetRow(processes, store));
const probes = await probeRows();
const version = /redis_version:(\S+)/.exec(String(await admin.command(['INFO', 'server'])))?.[1] ?? 'unknown';
await admin.close();
await redis.close();

const host = machine();
const fetchRow = probes.at(-1);
const section = [
  sectionHeading(host.date, TITLE),
  '',
  `${host.cpu}, ${host.cores} cores, Node ${host.node}, redis-server ${version}, ${host.date.slice(0, 10)}, load average ${fixed(loadAtStart, 1)} at the start and ${fixed(loadavg()[0] ?? 0, 1)} at the end (the machine is shared). \`node bench/fleet/run.mjs --origins ${ORIGINS} --concurrency ${CONCURRENCY} --probe ${PROBE}\`: each process asks FleetBot's 3 questions of every one of ${fixed(ORIGINS, 0)} origins in an order of its own, ${CONCURRENCY} origins in flight; with the store, the processes connect through node-redis 6, 5, 4 and ioredis 6, 5 in turn (storeTimeoutMs 2000); every origin served by one HTTP server on 127.0.0.1 through a routing fetch (Node's fetch).`,
  '',
  '| processes | store | fetches per origin | checks/s | round trips to Redis per check | wall time | waits | takeovers | fallbacks |',
  '| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...rows.map(
    (row) =>
      `| ${row.processes} | ${row.store ? 'Redis' : 'none'} | ${fixed(row.fetchesPerOrigin, 3)} | **${fixed(row.checksPerSecond, 0)}** | ${row.store ? fixed(row.roundTripsPerCheck, 2) : '–'} | ${fixed(row.wallMs / 1000, 2)} s | ${row.waits} | ${row.takeovers} | ${row.fallbacks} |`,
  ),
  '',
  'A process that misses locally makes one round trip when the store has the record (GET), and five when it fetches (GET, SET NX for the lease, GET again, SET of the record, the release script); the two other questions of an origin are local hits. Fetches per origin above 1 without the store are each process fetching for itself.',
  '',
  `One origin at a time in this process (${fixed(PROBE, 0)} origins each, after a warm-up pass of as many; the median of ${BLOCKS} blocks of origins): what a question costs when the origin is in the local cache, when it is not but another process stored it, and when it must be fetched.`,
  '',
  '| question | µs per origin | round trips to Redis per origin | vs the fetch |',
  '| --- | ---: | ---: | ---: |',
  ...probes.map(
    (row) =>
      `| ${row.what} | **${fixed(row.us, 0)}** | ${fixed(row.roundTrips, 2)} | ${fetchRow === undefined ? '' : `${fixed(row.us / fetchRow.us, 2)}×`} |`,
  ),
  '',
].join('\n');

console.log(section);
if (process.argv.includes('--write')) {
  // In place of the one a previous run wrote, else at the end.
  writeSection(TITLE, section);
  log('bench/RESULTS.md updated');
}
