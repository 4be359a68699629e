/**
 * The native cold path of two builds in one process, alternating pass by pass: for a change whose effect is
 * smaller than the machine's noise between processes (bench/cold/run.mjs runs each engine in a process of its own,
 * where a slow spell of a shared machine can move a row by 20 % or more). Each size tier's hosts, `--urls` URLs
 * each (the inputs of bench/cold/run.mjs), parsed from their bytes, asked, dropped; 15 timed passes per build and
 * tier after 3 untimed ones, the builds' order swapped every pass; medians and the median ratio.
 *
 *   node bench/cold/ab.mjs BEFORE_DIST [AFTER_DIST] [--urls N]
 *
 * BEFORE_DIST and AFTER_DIST are built dist/ directories (AFTER_DIST defaults to ./dist). Both builds must give
 * the same verdicts, which is checked before timing.
 */
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildColdInputs, coldFilesByTier, TIERS } from '../lib/cold-inputs.mjs';
import { loadCorpus } from '../../harness/corpus.mjs';
import { median } from '../lib/median.mjs';
import { MAIN_AGENT } from '../lib/workloads.mjs';

/** @typedef {typeof import('../../src/index.js')} Library @typedef {import('../lib/cold-inputs.mjs').ColdFile} ColdFile */

const PASSES = 15;
const WARM_UP = 3;

/** @param {string} name @returns {string | undefined} */
function option(name) {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}

const positional = process.argv.slice(2).filter((argument, i, all) => !argument.startsWith('--') && all[i - 1] !== '--urls');
const [beforeDir, afterDir = fileURLToPath(new URL('../../dist', import.meta.url))] = positional;
if (beforeDir === undefined) throw new Error('usage: node bench/cold/ab.mjs BEFORE_DIST [AFTER_DIST] [--urls N]');
const urlCount = Number(option('--urls') ?? 1);

/** @param {string} dir @returns {Promise<Library>} */
const load = (dir) => import(pathToFileURL(resolve(dir, 'index.js')).href);
const before = await load(beforeDir);
const after = await load(afterDir);

/** The allowed URLs of one pass over `files`. @param {Library} lib @param {readonly ColdFile[]} files */
function pass(lib, files) {
  let allowed = 0;
  for (const file of files) {
    const robots = lib.parseRobotsTxt(file.body);
    const rules = robots.forAgent(MAIN_AGENT);
    for (const url of file.urls) if (rules.isAllowed(url)) allowed++;
    robots.dispose();
  }
  return allowed;
}

/** µs per host of one timed pass. @param {Library} lib @param {readonly ColdFile[]} files */
function timed(lib, files) {
  const began = process.hrtime.bigint();
  pass(lib, files);
  return Number(process.hrtime.bigint() - began) / 1e3 / files.length;
}

const corpus = loadCorpus();
const byTier = coldFilesByTier(buildColdInputs(corpus, after.parseRobotsTxt), corpus, urlCount);
console.log(`${urlCount} URL(s) per host; µs per host, medians of ${PASSES} passes; before ${beforeDir}, after ${afterDir}\n`);
console.log('| tier | hosts | before | after | after ÷ before (time) |\n| --- | ---: | ---: | ---: | ---: |');
byTier.forEach((files, tier) => {
  if (pass(before, files) !== pass(after, files)) throw new Error(`tier ${tier}: the builds decided differently`);
  for (let i = 0; i < WARM_UP; i++) {
    pass(before, files);
    pass(after, files);
  }
  /** @type {number[]} */ const beforeTimes = [];
  /** @type {number[]} */ const afterTimes = [];
  /** @type {number[]} */ const ratios = [];
  for (let i = 0; i < PASSES; i++) {
    const [first, second] = i % 2 === 0 ? [before, after] : [after, before];
    const firstTime = timed(first, files);
    const secondTime = timed(second, files);
    const [b, a] = first === before ? [firstTime, secondTime] : [secondTime, firstTime];
    beforeTimes.push(b);
    afterTimes.push(a);
    ratios.push(a / b);
  }
  const label = TIERS[tier]?.label ?? String(tier);
  console.log(
    `| ${label} | ${files.length} | ${median(beforeTimes).toFixed(1)} | ${median(afterTimes).toFixed(1)} | ${median(ratios).toFixed(2)} |`,
  );
});
