/**
 * One pass timed the way every single-process timing of the matcher's suites is (bench/matcher/worker.mjs,
 * bench/usage/worker.mjs): a first untimed call that warms the code and sizes an iteration, then tinybench's
 * median iteration. Shared so that rows of two suites set side by side were timed alike.
 */
import { Bench } from 'tinybench';
import { machineProbe } from './machine.mjs';

/**
 * @typedef {import('./engines/engine.mjs').Pass} Pass
 * What a timed pass answers: its rate in `unit`s per second, the work of one timed iteration, tinybench's
 * sample count and relative margin of error, the pass's result (which every run of it must repeat), the
 * machine's speed just before (machineProbe) and a bit that keeps the timed loop's results observable.
 * @typedef {{ unit: Pass['unit'], perSecond: number, opsPerIteration: number, iterations: number, rme: number, checksum: number, probe: number, sink: number }} PassTiming
 */

/** A timed iteration repeats its pass until it lasts at least this long, so the timer's resolution does not matter. */
const MIN_ITERATION_MS = 20;

/**
 * @param {Pass} pass
 * @param {string} name tinybench's task name
 * @param {number} timeMs tinybench's time budget
 * @returns {Promise<PassTiming>}
 */
export async function timePass(pass, name, timeMs) {
  const probe = machineProbe();
  // The first call is untimed: it warms the code and tells how many passes make one timed iteration.
  const started = performance.now();
  const checksum = pass.run();
  const once = performance.now() - started;
  const reps = Math.max(1, Math.min(1000, Math.ceil(MIN_ITERATION_MS / Math.max(once, 0.001))));
  // A pass that takes a good part of the budget was warmed enough by the call above; more warm-up passes
  // would only stretch the run. Iterations go on until the time budget is spent, but a pass longer than the
  // budget (the slow engines on the crawler mix, the TypeScript executor, which is slow by design) is timed
  // once per process: the medians across processes then do the smoothing.
  const long = once > timeMs / 4;
  let sink = 0;
  const bench = new Bench({
    time: timeMs,
    iterations: 1,
    warmup: !long,
    warmupTime: Math.min(250, timeMs / 4),
    warmupIterations: 1,
    throws: true,
  });
  bench.add(name, () => {
    for (let r = 0; r < reps; r++) sink = (sink + pass.run()) | 0;
  });
  await bench.run();
  const result = /** @type {import('tinybench').Task} */ (bench.tasks[0]).result;
  if (result.state !== 'completed') throw new Error(`tinybench ended in state ${result.state}`);
  const seconds = result.latency.p50 / 1000;
  return {
    unit: pass.unit,
    perSecond: (pass.ops * reps) / seconds,
    opsPerIteration: pass.ops * reps,
    iterations: result.latency.samplesCount,
    rme: result.latency.rme,
    checksum,
    probe: probe.roundsPerMs,
    sink: (sink ^ probe.state) & 1,
  };
}
