/**
 * `npm run bench`: robotstxt-wasm against robots-parser and robots-txt-guard, side by side, on workloads built
 * from the real-world corpus (bench/lib/workloads.mjs), with the matcher's targets first. Prints a markdown report
 * (bench/matcher/report.mjs) and writes it to bench/RESULTS.md, in place of its previous section.
 *
 *   node bench/matcher/run.mjs            the full run (5 interleaved runs per task; several minutes on 2 cores)
 *   node bench/matcher/run.mjs --quick    2 runs, shorter budgets, for trying it out; prints, does not write RESULTS.md
 *
 * It builds nothing: the npm script builds dist/ first, and every measurement is of the built package.
 * Each (workload, engine) task runs in its own process (bench/matcher/worker.mjs, with the engine's module from
 * bench/lib/engines/); runs are interleaved (run 1 of every task, then run 2 of every task, …) so that a slow
 * spell of the machine hits all engines alike, and the report gives the median across runs.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusDirectory, expectedDirectory } from '../../harness/corpus.mjs';
import { WORKLOADS } from '../lib/engines/engine.mjs';
import { ENGINES } from '../lib/engines/index.mjs';
import { machine } from '../lib/machine.mjs';
import { snapshotDist } from '../lib/dist-snapshot.mjs';
import { megabytes, rate } from '../lib/format.mjs';
import { render, TITLE } from './report.mjs';
import { RESULTS, writeSection } from '../lib/results.mjs';
import { step } from '../lib/worker-step.mjs';

/**
 * @typedef {import('./worker.mjs').Prepared} Prepared
 * @typedef {import('./worker.mjs').Agreement} Agreement
 * @typedef {import('./worker.mjs').Disagreement} Disagreement
 * @typedef {import('./worker.mjs').Timing} Timing
 * @typedef {import('./memory.mjs').Memory} Memory
 * @typedef {import('./memory.mjs').Alloc} Alloc
 */

const quick = process.argv.includes('--quick');
const RUNS = quick ? 2 : 5;
/** tinybench's time budget per task and run, in ms. */
const TIME_MS = quick ? 250 : 1000;
const ALLOC_CHECKS = quick ? 1_000_000 : 10_000_000;

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** @param {string} line */
function log(line) {
  process.stderr.write(`${line}\n`);
}

/** @param {string} dir @returns {Prepared} */
function prepare(dir) {
  log(`building the workloads from ${corpusDirectory()} …`);
  /** @type {Prepared} */
  const prepared = step(['prepare', dir]);
  const { corpus, hot, typical } = prepared;
  log(
    `  fingerprint ${prepared.fingerprint}: ${corpus.files} files, ${megabytes(corpus.bytes)}; crawler mix ${prepared.crawlerChecks} checks; ` +
      `hot site ${hot.name} (${hot.rules} rules for Googlebot), ${hot.urls} URLs; typical file ${typical.name} (${typical.bytes} bytes)`,
  );
  return prepared;
}

/** @param {string} dir */
function checkAgreement(dir) {
  log('checking that the engines agree on the verdicts …');
  /** @type {Record<string, Agreement>} */
  const agreement = step(['agreement', dir]);
  for (const [key, value] of Object.entries(agreement)) log(`  ${key}: ${value.percent.toFixed(2)}% agree with robotstxt-wasm (wasm)`);
  /** @type {Record<string, Disagreement[]>} */
  const disagreements = JSON.parse(readFileSync(join(dir, 'disagreements.json'), 'utf8'));
  return { agreement, disagreements };
}

/**
 * Every (workload, engine) task the engines have a pass for, RUNS times, interleaved.
 * @param {string} dir
 */
function timeAll(dir) {
  const tasks = WORKLOADS.flatMap((workload) =>
    ENGINES.filter((engine) => engine.passes[workload] !== undefined).map((engine) => ({ workload, impl: engine.impl })),
  );
  /** @type {Map<string, Timing[]>} */
  const samples = new Map();
  for (let run = 1; run <= RUNS; run++) {
    for (const { workload, impl } of tasks) {
      const began = performance.now();
      /** @type {Timing} */
      const result = step(['time', dir, workload, impl, String(TIME_MS)]);
      const key = `${workload}/${impl}`;
      const previous = samples.get(key) ?? [];
      // Every run of a task must decide the same: otherwise something other than speed changed.
      if (previous[0] !== undefined && previous[0].checksum !== result.checksum) {
        throw new Error(`${key}: run ${run} decided differently from run 1 (${result.checksum} ≠ ${previous[0].checksum})`);
      }
      previous.push(result);
      samples.set(key, previous);
      const took = ((performance.now() - began) / 1000).toFixed(1);
      const unit = { bytes: ' MB/s', checks: ' checks/s', files: ' per file' }[result.unit];
      log(`  run ${run}/${RUNS} ${key.padEnd(26)} ${`${rate(result.perSecond, result.unit)}${unit}`.padEnd(18)} (${took} s)`);
    }
  }
  return samples;
}

function main() {
  const began = performance.now();
  // Other work on the machine skews every number: the load averages before and after go into the report.
  const loadBefore = loadavg()[0] ?? 0;
  if (corpusDirectory() === undefined) {
    // Not a failure: the corpus is shared, not part of the repository (as the corpus tests skip, visibly).
    console.log(`Benchmark skipped: robots corpus not found at ${expectedDirectory()}; set ROBOTS_CORPUS to run it.`);
    return;
  }
  if (!existsSync(join(ROOT, 'dist', 'index.js'))) {
    console.error('dist/ is missing: run `npm run bench` (which builds first) or `npm run build`.');
    process.exitCode = 1;
    return;
  }
  const { dir, build } = snapshotDist(ROOT, 'robotstxt-bench-');
  try {
    const prepared = prepare(dir);
    const { agreement, disagreements } = checkAgreement(dir);
    const samples = timeAll(dir);
    log('memory …');
    /** @type {Memory[]} */
    const memory = [step(['memory', dir, 'wasm'], { exposeGc: true }), step(['memory', dir, 'typescript'], { exposeGc: true })];
    log('allocation …');
    /** @type {Alloc} */
    const alloc = step(['alloc', dir, String(ALLOC_CHECKS)], { exposeGc: true });

    const report = render({
      machine: machine(),
      quick,
      runs: RUNS,
      build,
      load: { before: loadBefore, after: loadavg()[0] ?? 0 },
      prepared,
      agreement,
      disagreements,
      samples,
      memory,
      alloc,
      seconds: (performance.now() - began) / 1000,
    });
    console.log(report);
    if (quick) {
      log('(--quick: RESULTS.md left as it was; run without --quick to record results)');
    } else {
      writeSection(TITLE, report);
      log(`written to ${RESULTS}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
