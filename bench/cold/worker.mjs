/**
 * One step of the cold-path benchmark per process, started by bench/cold/run.mjs (through bench/lib/worker-step.mjs):
 * each timing on a fresh VM, so that one engine's JIT state and garbage never weigh on another's.
 *
 *   node bench/cold/worker.mjs prepare  <dir>                                  builds <dir>/cold.json
 *   node bench/cold/worker.mjs features <dir>                                  { tiers: boolean }
 *   node bench/cold/worker.mjs time     <dir> <engine> <urls per host> <ms>    per-tier timings and verdicts
 *   node bench/cold/worker.mjs compile  <dir> <indexed | robots-parser> <ms>   whole-corpus parse (+ compile)
 *
 * A timing process first answers every URL once, untimed (the verdicts it returns, and its warm-up), then runs
 * the timed loop over every tier once more untimed, then repeats timed passes (each tier timed alone) until
 * the budget is spent, at least MIN_PASSES times; each tier's figure is its median pass. The result is the
 * last line of stdout, as JSON.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COLD_ENGINES, hasTiers, loadColdEngine, loadCompilePass } from './engines.mjs';
import { buildColdInputs, coldFilesByTier } from '../lib/cold-inputs.mjs';
import { loadCorpus } from '../../harness/corpus.mjs';
import { importLibrary } from '../lib/engines/robotstxt-wasm.mjs';
import { machineProbe } from '../lib/machine.mjs';
import { median } from '../lib/median.mjs';

/**
 * @typedef {import('../lib/cold-inputs.mjs').ColdInputs} ColdInputs
 * @typedef {import('../lib/cold-inputs.mjs').ColdFile} ColdFile
 * @typedef {import('./engines.mjs').ColdEngineName} ColdEngineName
 * @typedef {{ files: number, seconds: number, allowed: number }} TierTiming `seconds`: the median pass over the tier's files
 * @typedef {{ engine: ColdEngineName, urls: number, tiers: TierTiming[], passes: number, verdicts: string, answeredIn: Record<string, number>, probe: number }} ColdTiming
 * `verdicts`: one character per (host, URL) in corpus order, 1 allowed, 0 disallowed, 2 neither (robots-parser's
 * undefined); `answeredIn`: hosts by the tier their rules were in after their checks (ours; empty for the peers).
 * @typedef {{ engine: 'indexed' | 'robots-parser', bytes: number, seconds: number, passes: number, checksum: number, probe: number }} CompileTiming
 */

const MIN_PASSES = 5;

/** @param {unknown} result */
function reply(result) {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** @param {string} dir @returns {ColdInputs} */
function readInputs(dir) {
  return JSON.parse(readFileSync(join(dir, 'cold.json'), 'utf8'));
}

/**
 * Repeats `pass` over each group until `timeMs` is spent (at least MIN_PASSES times), each group timed alone.
 * @param {number} groups @param {(group: number) => number} pass @param {number} timeMs
 * @returns {{ seconds: number[], results: number[], passes: number }} the median seconds of each group, its pass's result
 */
function timePasses(groups, pass, timeMs) {
  /** @type {number[][]} */
  const samples = Array.from({ length: groups }, () => []);
  /** @type {number[]} */
  const results = [];
  const began = performance.now();
  let passes = 0;
  while (passes < MIN_PASSES || performance.now() - began < timeMs) {
    for (let group = 0; group < groups; group++) {
      const started = performance.now();
      const result = pass(group);
      samples[group]?.push((performance.now() - started) / 1000);
      // Every pass must decide as the first: otherwise something other than speed changed.
      if (passes > 0 && result !== results[group])
        throw new Error(`pass ${passes + 1} of group ${group} gave ${result}, not ${results[group]}`);
      results[group] = result;
    }
    passes++;
  }
  return { seconds: samples.map(median), results, passes };
}

/** @param {string} dir @param {ColdEngineName} name @param {number} urlCount @param {number} timeMs */
async function time(dir, name, urlCount, timeMs) {
  const byTier = coldFilesByTier(readInputs(dir), loadCorpus(), urlCount);
  const engine = await loadColdEngine(name, dir);
  // The untimed pass: what the engine decides, in corpus order (tier by tier, as the timed loop goes).
  let verdicts = '';
  /** @type {Record<string, number>} */
  const answeredIn = {};
  const allowedByTier = byTier.map((files) => {
    let allowed = 0;
    for (const file of files) {
      for (const url of file.urls) {
        const verdict = engine.verdict(file, url);
        verdicts += String(verdict);
        if (verdict === 1) allowed++;
      }
      if (engine.tier !== undefined) {
        const tier = engine.tier(file);
        answeredIn[tier] = (answeredIn[tier] ?? 0) + 1;
      }
    }
    return allowed;
  });
  for (const files of byTier) engine.run(files);
  const probe = machineProbe();
  const { seconds, results, passes } = timePasses(byTier.length, (tier) => engine.run(/** @type {ColdFile[]} */ (byTier[tier])), timeMs);
  results.forEach((allowed, tier) => {
    if (allowed !== allowedByTier[tier])
      throw new Error(`${name}: the timed loop allowed ${allowed} URLs of tier ${tier}, its verdicts ${allowedByTier[tier]}`);
  });
  /** @type {ColdTiming} */
  const timing = {
    engine: name,
    urls: urlCount,
    tiers: byTier.map((files, tier) => ({ files: files.length, seconds: seconds[tier] ?? NaN, allowed: results[tier] ?? 0 })),
    passes,
    verdicts,
    answeredIn,
    probe: probe.roundsPerMs,
  };
  reply(timing);
}

/** @param {string} dir @param {'indexed' | 'robots-parser'} name @param {number} timeMs */
async function compile(dir, name, timeMs) {
  const files = coldFilesByTier(readInputs(dir), loadCorpus(), 0).flat();
  const pass = await loadCompilePass(name, dir, files);
  pass();
  const probe = machineProbe();
  const { seconds, results, passes } = timePasses(1, pass, timeMs);
  /** @type {CompileTiming} */
  const timing = {
    engine: name,
    bytes: files.reduce((sum, file) => sum + file.body.byteLength, 0),
    seconds: seconds[0] ?? NaN,
    passes,
    checksum: results[0] ?? 0,
    probe: probe.roundsPerMs,
  };
  reply(timing);
}

/** @param {string | undefined} value @param {string} what */
function argument(value, what) {
  if (value === undefined) throw new Error(`bench/cold/worker.mjs: missing ${what}`);
  return value;
}

/** @param {string | undefined} value @returns {ColdEngineName} */
function engineName(value) {
  const name = COLD_ENGINES.find((known) => known === value);
  if (name === undefined) throw new Error(`unknown engine ${value} (known: ${COLD_ENGINES.join(', ')})`);
  return name;
}

const [command, dir, ...rest] = process.argv.slice(2);
if (dir === undefined) throw new Error('usage: node bench/cold/worker.mjs <command> <dir> …');
switch (command) {
  case 'prepare': {
    const inputs = buildColdInputs(loadCorpus(), (await importLibrary(dir)).parseRobotsTxt);
    writeFileSync(join(dir, 'cold.json'), JSON.stringify(inputs));
    reply({ fingerprint: inputs.fingerprint, files: inputs.sites.length, bytes: inputs.bytes, tierFiles: inputs.tierFiles });
    break;
  }
  case 'features':
    reply({ tiers: await hasTiers(dir) });
    break;
  case 'time':
    await time(dir, engineName(rest[0]), Number(argument(rest[1], 'URLs per host')), Number(argument(rest[2], 'time in ms')));
    break;
  case 'compile': {
    const name = argument(rest[0], 'engine');
    if (name !== 'indexed' && name !== 'robots-parser') throw new Error(`compile is timed for indexed or robots-parser, not ${name}`);
    await compile(dir, name, Number(argument(rest[1], 'time in ms')));
    break;
  }
  default:
    throw new Error(`unknown command ${command}`);
}
