/**
 * One benchmark step per process, started by bench/matcher/run.mjs. V8 shares type feedback, inline caches and
 * optimised code within a process, so an engine timed after another would inherit (or suffer from) its
 * neighbour's state; one process per task keeps every measurement on a fresh VM. A timing process loads one
 * engine (bench/lib/engines/): a peer's process never loads this library, and ours never loads a peer.
 *
 *   node bench/matcher/worker.mjs prepare   <dir>                     builds the workloads into <dir>/workloads.json
 *   node bench/matcher/worker.mjs agreement <dir>                     every engine's verdicts, compared with ours
 *   node bench/matcher/worker.mjs time      <dir> <workload> <impl> <timeMs>
 *   node --expose-gc bench/matcher/worker.mjs memory <dir> <wasm | typescript>
 *   node --expose-gc bench/matcher/worker.mjs alloc  <dir> <checks>
 *
 * The result is the last line of stdout, as JSON; anything else goes to stderr.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCorpus } from '../../harness/corpus.mjs';
import { WORKLOADS } from '../lib/engines/engine.mjs';
import { ENGINES, engineNamed } from '../lib/engines/index.mjs';
import { importLibrary, wasm } from '../lib/engines/robotstxt-wasm.mjs';
import { Inputs } from '../lib/inputs.mjs';
import { alloc, memory } from './memory.mjs';
import { timePass } from '../lib/time-pass.mjs';
import { buildWorkloads } from '../lib/workloads.mjs';

/**
 * @typedef {import('../lib/engines/engine.mjs').Workload} Workload
 * @typedef {import('../lib/engines/engine.mjs').Engine} Engine
 * What the steps answer, read by bench/matcher/run.mjs and bench/matcher/report.mjs.
 * @typedef {{ fingerprint: string, corpus: { files: number, bytes: number }, crawlerChecks: number, hot: { name: string, rules: number, urls: number }, typical: { name: string, bytes: number, path: string } }} Prepared
 * @typedef {{ same: number, total: number, percent: number }} Agreement
 * @typedef {{ site: string, agent: string, path: string, ours: boolean, theirs: boolean | 'undefined' }} Disagreement
 * @typedef {import('../lib/time-pass.mjs').PassTiming & { workload: Workload, impl: string, warmup?: import('../lib/engines/engine.mjs').Warmup }} Timing
 */

/** The check workloads whose verdicts are compared, each with the single checks of ours it must match. */
const COMPARED = /** @type {const} */ ([
  ['crawler', 'crawler'],
  ['hot', 'hot'],
  ['hot-utf8', 'hot'],
  ['batch-bytes', 'hot'],
  ['batch', 'hot'],
]);

/** @param {unknown} result */
function reply(result) {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** @param {string} dir */
async function prepare(dir) {
  const { parseRobotsTxt } = await importLibrary(dir);
  const workloads = buildWorkloads(loadCorpus(), parseRobotsTxt);
  writeFileSync(join(dir, 'workloads.json'), JSON.stringify(workloads));
  const { hot, typical } = workloads;
  /** @type {Prepared} */
  const prepared = {
    fingerprint: workloads.fingerprint,
    corpus: workloads.corpus,
    crawlerChecks: workloads.crawler.path.length,
    hot: { name: hot.name, rules: hot.rules, urls: hot.paths.length },
    typical: { name: typical.name, bytes: typical.bytes, path: typical.path },
  };
  reply(prepared);
}

/**
 * Every engine's verdicts on the crawler mix and on the hot site (single and batches), compared with our single
 * check on the WebAssembly matcher. Up to 2,000 differing cases per comparison are written to
 * <dir>/disagreements.json for a closer look.
 * @param {string} dir
 */
async function agreement(dir) {
  const inputs = new Inputs(dir);
  const { workloads } = inputs;
  /** @type {Record<string, Agreement>} */
  const summary = {};
  /** @type {Record<string, Disagreement[]>} */
  const examples = {};
  /** @type {Record<'crawler' | 'hot', (i: number) => { site: number, agent: string, path: string }>} */
  const describe = {
    crawler: (i) => {
      const check = /** @type {import('../lib/inputs.mjs').FrontierCheck} */ (inputs.frontier[i]);
      return { site: check.site, agent: check.agent, path: check.path };
    },
    hot: (i) => ({ site: workloads.hot.site, agent: workloads.hot.agent, path: /** @type {string} */ (workloads.hot.paths[i]) }),
  };
  /** @param {Engine} engine @param {Workload} workload */
  const verdictsOf = async (engine, workload) => {
    const build = engine.passes[workload];
    return build === undefined ? undefined : (await build(inputs)).verdicts?.();
  };
  /** @param {'crawler' | 'hot'} workload */
  const referenceOf = async (workload) => {
    const verdicts = await verdictsOf(wasm, workload);
    if (verdicts === undefined) throw new Error(`our ${workload} pass gives no verdicts`);
    return verdicts;
  };
  const reference = { crawler: await referenceOf('crawler'), hot: await referenceOf('hot') };
  for (const engine of ENGINES) {
    for (const [workload, single] of COMPARED) {
      // The reference itself is not compared; the batches of our engine are: they must decide as its single check.
      if (engine === wasm && workload === single) continue;
      const theirs = await verdictsOf(engine, workload);
      if (theirs === undefined) continue;
      const ours = reference[single];
      let same = 0;
      /** @type {Disagreement[]} */
      const differing = [];
      for (let i = 0; i < ours.length; i++) {
        if (ours[i] === theirs[i]) {
          same++;
        } else if (differing.length < 2000) {
          const { site, agent, path } = describe[single](i);
          differing.push({
            site: inputs.site(site).name,
            agent,
            path,
            ours: ours[i] === 1,
            theirs: theirs[i] === 2 ? 'undefined' : theirs[i] === 1,
          });
        }
      }
      const key = `${workload}/${engine.impl}`;
      summary[key] = { same, total: ours.length, percent: (100 * same) / ours.length };
      examples[key] = differing;
    }
  }
  writeFileSync(join(dir, 'disagreements.json'), JSON.stringify(examples, null, 1));
  reply(summary);
}

/** @param {string} dir @param {string} workload @param {string} impl @param {number} timeMs */
async function time(dir, workload, impl, timeMs) {
  const known = WORKLOADS.find((candidate) => candidate === workload);
  if (known === undefined) throw new Error(`unknown workload ${workload} (known: ${WORKLOADS.join(', ')})`);
  const build = engineNamed(impl).passes[known];
  if (build === undefined) throw new Error(`${impl} has no ${workload} pass`);
  const pass = await build(new Inputs(dir));
  /** @type {Timing} */
  const timing = { workload: known, impl, ...(await timePass(pass, `${workload}/${impl}`, timeMs)), warmup: pass.warmup };
  reply(timing);
}

/** @param {string | undefined} value @param {string} what */
function argument(value, what) {
  if (value === undefined) throw new Error(`bench/matcher/worker.mjs: missing ${what}`);
  return value;
}

const [command, dir, ...rest] = process.argv.slice(2);
if (dir === undefined) throw new Error('usage: node bench/matcher/worker.mjs <command> <dir> …');
switch (command) {
  case 'prepare':
    await prepare(dir);
    break;
  case 'agreement':
    await agreement(dir);
    break;
  case 'time':
    await time(dir, argument(rest[0], 'workload'), argument(rest[1], 'engine'), Number(argument(rest[2], 'time in ms')));
    break;
  case 'memory': {
    const impl = argument(rest[0], 'matcher');
    if (impl !== 'wasm' && impl !== 'typescript') throw new Error(`memory is measured for wasm or typescript, not ${impl}`);
    reply(await memory(dir, impl));
    break;
  }
  case 'alloc':
    reply(await alloc(dir, Number(argument(rest[0], 'number of checks'))));
    break;
  default:
    throw new Error(`unknown command ${command}`);
}
