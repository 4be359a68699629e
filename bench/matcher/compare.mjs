/**
 * Two builds of this library side by side: every workload of `npm run bench`, for both matchers, timed for a
 * build made before a change and for the build in dist/, interleaved (run 1 of every task for both builds, then
 * run 2, …) so that a slow spell of the machine hits both alike; the report gives each task's median per build
 * and their ratio (above 1: the after build is faster). A restructuring is held to "no row slower" with it.
 *
 *   node bench/matcher/compare.mjs BEFORE_DIST [AFTER_DIST] [--runs N] [--time MS] [--workloads crawler,hot] [--matchers wasm]
 *
 * The last column is the median of the per-run ratios (run i of after ÷ run i of before, the two timed side by side)
 * with their spread (± half the range): the noise a ratio is to be read against.
 *
 * BEFORE_DIST and AFTER_DIST are built dist/ directories (AFTER_DIST defaults to ./dist). One way to get the
 * before build: `git worktree add ../before <commit> && cd ../before && npm ci && npm run build`.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusDirectory, expectedDirectory } from '../../harness/corpus.mjs';
import { WORKLOADS } from '../lib/engines/engine.mjs';
import { rate, spread } from '../lib/format.mjs';
import { median } from '../lib/median.mjs';
import { step } from '../lib/worker-step.mjs';

/** @typedef {import('./worker.mjs').Timing} Timing */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const IMPLS = ['wasm', 'typescript'];

/** @param {string} name @param {number} fallback */
function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : Number(process.argv[at + 1]);
}

function main() {
  const positional = process.argv.slice(2).filter((arg, i, all) => !arg.startsWith('--') && !all[i - 1]?.startsWith('--'));
  const [beforeDist, afterDist = join(ROOT, 'dist')] = positional.map((path) => resolve(path));
  if (beforeDist === undefined || !existsSync(join(beforeDist, 'index.js')) || !existsSync(join(afterDist, 'index.js'))) {
    console.error('usage: node bench/matcher/compare.mjs BEFORE_DIST [AFTER_DIST] [--runs N] [--time MS] (each a built dist/ directory)');
    process.exitCode = 2;
    return;
  }
  if (corpusDirectory() === undefined) {
    console.log(`Comparison skipped: robots corpus not found at ${expectedDirectory()}; set ROBOTS_CORPUS to run it.`);
    return;
  }
  const runs = option('--runs', 5);
  const timeMs = option('--time', 1000);
  const only = process.argv.indexOf('--workloads');
  const workloads = only < 0 ? WORKLOADS : WORKLOADS.filter((workload) => (process.argv[only + 1] ?? '').split(',').includes(workload));
  const matchersAt = process.argv.indexOf('--matchers');
  const impls = matchersAt < 0 ? IMPLS : IMPLS.filter((impl) => (process.argv[matchersAt + 1] ?? '').split(',').includes(impl));
  const loadBefore = loadavg()[0] ?? 0;
  const dirs = { before: mkdtempSync(join(tmpdir(), 'robotstxt-before-')), after: mkdtempSync(join(tmpdir(), 'robotstxt-after-')) };
  try {
    cpSync(beforeDist, join(dirs.before, 'dist'), { recursive: true });
    cpSync(afterDist, join(dirs.after, 'dist'), { recursive: true });
    // One set of workloads for both builds: prepared once, copied beside the other build.
    step(['prepare', dirs.after]);
    for (const name of readdirSync(dirs.after))
      if (name !== 'dist') cpSync(join(dirs.after, name), join(dirs.before, name), { recursive: true });

    /** @type {Map<string, { before: number[], after: number[], unit: Timing['unit'], checksum: number }>} */
    const samples = new Map();
    for (let run = 1; run <= runs; run++) {
      for (const workload of workloads) {
        for (const impl of impls) {
          for (const build of /** @type {const} */ (['before', 'after'])) {
            const timing = /** @type {Timing} */ (step(['time', dirs[build], workload, impl, String(timeMs)]));
            const key = `${workload}/${impl}`;
            const entry = samples.get(key) ?? { before: [], after: [], unit: timing.unit, checksum: timing.checksum };
            // Both builds must decide alike: a faster build that answers otherwise is not the same library.
            if (timing.checksum !== entry.checksum)
              throw new Error(`${key}: the ${build} build decided differently (checksum ${timing.checksum} ≠ ${entry.checksum})`);
            entry[build].push(timing.perSecond);
            samples.set(key, entry);
          }
        }
      }
      process.stderr.write(`run ${run}/${runs} done\n`);
    }

    const lines = [
      `Before ${beforeDist}, after ${afterDist}; ${runs} interleaved runs of ${timeMs} ms per task; load average ${loadBefore.toFixed(2)} → ${(loadavg()[0] ?? 0).toFixed(2)}.`,
      '',
      '| workload | matcher | before (median) | after (median) | after / before | per-run after / before |',
      '| --- | --- | ---: | ---: | ---: | ---: |',
    ];
    for (const [key, { before, after, unit }] of samples) {
      const [workload, impl] = key.split('/');
      const unitLabel = { bytes: ' MB/s', checks: ' checks/s', files: ' per file' }[unit] ?? '';
      const ratio = median(after) / median(before);
      const perRun = after.map((value, i) => value / /** @type {number} */ (before[i]));
      lines.push(
        `| ${workload} | ${impl} | ${rate(median(before), unit)}${unitLabel} | ${rate(median(after), unit)}${unitLabel} | ${ratio.toFixed(3)} | ${`${median(perRun).toFixed(3)} ${spread(perRun)}`.trim()} |`,
      );
    }
    console.log(lines.join('\n'));
  } finally {
    rmSync(dirs.before, { recursive: true, force: true });
    rmSync(dirs.after, { recursive: true, force: true });
  }
}

main();
