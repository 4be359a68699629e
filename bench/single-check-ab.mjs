/**
 * Two builds of this library side by side on the single check (the "crawler mix" and "hot site" rows of
 * bench/run.mjs), for a change that must not slow it: `node bench/single-check-ab.mjs <before-dist> [<after-dist>]`
 * (the second defaults to ./dist). Each build is copied into a directory of its own, as bench/run.mjs copies
 * one, and timed by the same bench/worker.mjs steps, one process per step; the builds alternate run by run
 * so that a slow spell of a shared machine hits both alike. Prints the median checks per second of each.
 *
 *   --runs N     runs per (workload, build), default 7
 *   --time MS    tinybench's budget per run, default 500
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const WORKER = fileURLToPath(new URL('./worker.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SINGLE_CHECK_WORKLOADS = /** @type {const} */ (['crawler', 'hot']);

/** @param {string} name @param {string} fallback */
function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : (process.argv[at + 1] ?? fallback);
}

/**
 * One worker step; its answer is the last line of its stdout, as JSON.
 * @param {string[]} args
 * @returns {{ perSecond: number, checksum: number }}
 */
function step(args) {
  const result = spawnSync(process.execPath, [WORKER, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`bench/worker.mjs ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '');
}

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? /** @type {number} */ (sorted[middle]) : (/** @type {number} */ (sorted[middle - 1]) + /** @type {number} */ (sorted[middle])) / 2;
}

const positional = process.argv.slice(2).filter((arg, i, all) => !arg.startsWith('--') && !(all[i - 1] ?? '').startsWith('--'));
if (positional[0] === undefined) {
  console.error('usage: node bench/single-check-ab.mjs <before-dist> [<after-dist>] [--runs N] [--time MS]');
  process.exit(2);
}
const builds = [
  { label: 'before', dist: resolve(positional[0]) },
  { label: 'after', dist: resolve(positional[1] ?? join(ROOT, 'dist')) },
];
const runs = Number(option('--runs', '7'));
const timeMs = option('--time', '500');

const dirs = builds.map(({ dist }) => {
  const dir = mkdtempSync(join(tmpdir(), 'robotstxt-ab-'));
  cpSync(dist, join(dir, 'dist'), { recursive: true });
  step(['prepare', dir]);
  return dir;
});
try {
  /** @type {Map<string, number[]>} */
  const samples = new Map();
  /** @type {Map<string, number>} */
  const checksums = new Map();
  for (let run = 0; run < runs; run++) {
    for (const workload of SINGLE_CHECK_WORKLOADS) {
      // Alternate which build goes first, so that neither always follows the other's process.
      const order = run % 2 === 0 ? [0, 1] : [1, 0];
      for (const which of order) {
        const result = step(['time', /** @type {string} */ (dirs[which]), workload, 'wasm', timeMs]);
        // Both builds must decide alike: a speed-up that changes a verdict is not one.
        const seen = checksums.get(workload);
        if (seen !== undefined && seen !== result.checksum) throw new Error(`${workload}: the builds decided differently (${result.checksum} ≠ ${seen})`);
        checksums.set(workload, result.checksum);
        const key = `${workload}/${builds[which]?.label}`;
        samples.set(key, [...(samples.get(key) ?? []), result.perSecond]);
      }
    }
  }
  for (const workload of SINGLE_CHECK_WORKLOADS) {
    const [before, after] = builds.map(({ label }) => samples.get(`${workload}/${label}`) ?? []);
    const [b, a] = [median(before ?? []), median(after ?? [])];
    const format = (/** @type {number[]} */ values) => values.map((value) => (value / 1e6).toFixed(2)).join(' ');
    console.log(`${workload.padEnd(8)} before ${(b / 1e6).toFixed(2)} M checks/s (${format(before ?? [])})`);
    console.log(`${''.padEnd(8)} after  ${(a / 1e6).toFixed(2)} M checks/s (${format(after ?? [])})  ${(((a - b) / b) * 100).toFixed(1)}%`);
  }
} finally {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
