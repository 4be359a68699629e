/**
 * `npm run bench:workers`: the per-check cost inside Cloudflare's runtime (workerd, through miniflare) and in
 * Node, on the same inputs: single isAllowed() calls, the batch entry, and parse + compile + one check; and the
 * cold path (target 6 of the cold path's targets in bench/RESULTS.md): a sample of corpus files, each host's bytes taken to its first verdict.
 * Each workerd figure is the wall time of a request that runs the loop, less that of a request that runs it
 * for no iteration (so the request's own cost drops out), over the iterations; medians of 5.
 *
 * The inputs: the bundled example news site (7 rules), and a generated site of 450 rules (plain prefixes,
 * 5 % with `*` or `$`) with URLs near them, from the benches' seeded generator; for the cold path, every
 * COLD_STEP-th corpus file, each handed to the Worker once as bytes, with the first URL bench/cold/run.mjs draws
 * for it (skipped when the corpus is absent).
 *
 *   node bench/workers/run.mjs [--cold-only]
 */
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { buildColdInputs, coldFilesByTier } from '../lib/cold-inputs.mjs';
import { corpusDirectory, loadCorpus } from '../../harness/corpus.mjs';
import { coldPasses, timedLoops } from './loops.js';
import { mulberry32 } from '../../harness/random.mjs';
import { median } from '../lib/median.mjs';

/**
 * @typedef {{ body: string, urls: string[] }} Site
 * @typedef {import('./loops.js').Mode} Mode
 * @typedef {{ body: Uint8Array, url: string }} ColdSampleFile
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** @type {typeof import('../../src/index.js')} */
const library = await import(new URL('../../dist/index.js', import.meta.url).href);
const ROUNDS = 5;
/** The cold path's sample: every COLD_STEP-th corpus file in name order, COLD_PASSES passes over it per timing. */
const COLD_STEP = 10;
const COLD_PASSES = 10;

/** @returns {Site} */
function generatedSite() {
  const next = mulberry32(0x9a7e);
  /** @param {string[]} items */
  const pick = (items) => /** @type {string} */ (items[Math.floor(next() * items.length)]);
  const words = ['news', 'shop', 'account', 'search', 'media', 'user', 'cart', 'api', 'static', 'blog', 'tag', 'page'];
  const lines = ['User-agent: *'];
  /** @type {string[]} */
  const paths = [];
  for (let i = 0; i < 450; i++) {
    const path = `/${pick(words)}/${pick(words)}-${i}/`;
    paths.push(path);
    const kind = next() < 0.7 ? 'Disallow' : 'Allow';
    const shape = next();
    // Mostly plain prefixes, as real files are; a few wildcards and end anchors.
    lines.push(`${kind}: ${shape < 0.03 ? `${path}*.php$` : shape < 0.05 ? `/*/${pick(words)}-${i}/print` : path}`);
  }
  const urls = Array.from({ length: 2_000 }, (_, i) => `${pick(paths)}${pick(words)}/${i}?ref=${pick(words)}`);
  return { body: `${lines.join('\n')}\n`, urls };
}

/** @returns {Site} */
function exampleSite() {
  const body = readFileSync(new URL('../../examples/sites/news-site.txt', import.meta.url), 'utf8');
  const paths = ['/world/2026/story-', '/search?q=', '/account/', '/account/signup/', '/reports/q', '/page?session=', '/drafts/'];
  const urls = Array.from({ length: 2_000 }, (_, i) => `${paths[i % paths.length]}${i}${i % 5 === 0 ? '.pdf' : ''}`);
  return { body, urls };
}

/** @type {Record<Mode, number>} */
const LOOPS = { single: 1_000_000, batch: 2_000_000, compile: 2_000, encodeInto: 2_000_000, charCodeAt: 2_000_000 };
const MODES = /** @type {Mode[]} */ (Object.keys(LOOPS));
/** How a URL can be copied into WebAssembly memory: the copies alone, of the site's URLs (ASCII). */
const COPIES = /** @type {const} */ (['encodeInto', 'charCodeAt']);

/** The loops of bench/workers/loops.js, timed in this process. @param {Site} site @param {Mode} mode @param {number} n */
function nodeLoop(site, mode, n) {
  const rules = library.parseRobotsTxt(site.body).forAgent('ExampleBot');
  const loops = timedLoops(library.parseRobotsTxt, site.body, site.urls, rules);
  const began = performance.now();
  loops[mode](n);
  const elapsed = performance.now() - began;
  rules.dispose();
  return { elapsed };
}

/** The Worker of bench/workers/check.js, in workerd, with the package's Workers entry as its modules. */
function startWorkerd() {
  return new Miniflare({
    modules: true,
    scriptPath: 'bench/workers/check.js',
    modulesRoot: ROOT,
    modulesRules: [
      { type: 'CompiledWasm', include: ['**/*.wasm'] },
      { type: 'ESModule', include: ['**/*.js'] },
    ],
    compatibilityDate: '2025-06-01',
  });
}

/** @param {Miniflare} miniflare @param {string} path @param {RequestInit} [init] @returns {Promise<Record<string, unknown>>} */
async function ask(miniflare, path, init) {
  return /** @type {Record<string, unknown>} */ (
    await (await miniflare.dispatchFetch(`http://bench.test${path}`, /** @type {never} */ (init))).json()
  );
}

/** A request's wall time, in ms. @param {Miniflare} miniflare @param {string} path */
async function timed(miniflare, path) {
  const began = performance.now();
  await ask(miniflare, path);
  return performance.now() - began;
}

/** @param {Site} site @returns {Promise<Record<Mode, number>>} ms per call, by loop */
async function workerdTimes(site) {
  const miniflare = startWorkerd();
  try {
    const setup = await ask(miniflare, '/setup', { method: 'POST', body: JSON.stringify(site) });
    if (setup.kind !== 'wasm') throw new Error(`the matcher in workerd is ${setup.kind}`);
    /** @type {Partial<Record<Mode, number>>} */
    const perCall = {};
    for (const mode of MODES) {
      const n = LOOPS[mode];
      const run = (/** @type {number} */ count) => timed(miniflare, `/run?mode=${mode}&n=${count}`);
      await run(n); // warm-up
      const samples = [];
      for (let round = 0; round < ROUNDS; round++) samples.push(((await run(n)) - (await run(0))) / n);
      perCall[mode] = median(samples);
    }
    return /** @type {Record<Mode, number>} */ (perCall);
  } finally {
    await miniflare.dispose();
  }
}

/** The cold path's sample, or undefined without the corpus. @returns {ColdSampleFile[] | undefined} */
function coldSample() {
  if (corpusDirectory() === undefined) return undefined;
  const files = loadCorpus().filter((_, i) => i % COLD_STEP === 0);
  const inputs = buildColdInputs(files, library.parseRobotsTxt);
  return coldFilesByTier(inputs, files, 1)
    .flat()
    .map((file) => ({ body: file.body, url: /** @type {string} */ (file.urls[0]) }));
}

/**
 * Bytes → first verdict per file, in workerd and in Node, rounds alternating between them. Both must allow
 * the same URLs.
 * @param {ColdSampleFile[]} sample
 * @returns {Promise<{ node: number, workerd: number }>} ms per file
 */
async function coldTimes(sample) {
  const miniflare = startWorkerd();
  try {
    const files = sample.map((file) => ({ body: Buffer.from(file.body).toString('base64'), url: file.url }));
    const setup = await ask(miniflare, '/cold-setup', { method: 'POST', body: JSON.stringify({ files }) });
    if (setup.kind !== 'wasm' || setup.files !== sample.length)
      throw new Error(`the cold setup in workerd answered ${JSON.stringify(setup)}`);
    const node = coldPasses(library.parseRobotsTxt, sample);
    const inWorkerd = (await ask(miniflare, '/cold?n=1')).sum;
    if (inWorkerd !== node(1)) throw new Error(`workerd allowed ${inWorkerd} first URLs of the sample, Node ${node(1)}`);
    const run = (/** @type {number} */ count) => timed(miniflare, `/cold?n=${count}`);
    await run(COLD_PASSES); // warm-up
    node(COLD_PASSES);
    /** @type {{ node: number[], workerd: number[] }} */
    const samples = { node: [], workerd: [] };
    const perFile = COLD_PASSES * sample.length;
    for (let round = 0; round < ROUNDS; round++) {
      samples.workerd.push(((await run(COLD_PASSES)) - (await run(0))) / perFile);
      const began = performance.now();
      node(COLD_PASSES);
      samples.node.push((performance.now() - began) / perFile);
    }
    return { node: median(samples.node), workerd: median(samples.workerd) };
  } finally {
    await miniflare.dispose();
  }
}

/** @param {Site} site @returns {Record<Mode, number>} ms per call, by loop */
function nodeTimes(site) {
  /** @type {Partial<Record<Mode, number>>} */
  const perCall = {};
  for (const mode of MODES) {
    const n = LOOPS[mode];
    nodeLoop(site, mode, n); // warm-up
    perCall[mode] = median(Array.from({ length: ROUNDS }, () => nodeLoop(site, mode, n).elapsed / n));
  }
  return /** @type {Record<Mode, number>} */ (perCall);
}

const format = (/** @type {number} */ ms) => (ms * 1e6 >= 10_000 ? `${(ms * 1e3).toFixed(1)} µs` : `${(ms * 1e6).toFixed(0)} ns`);

const rows = [];
/** @type {[string, Site][]} */
const sites = [
  ['news site (7 rules)', exampleSite()],
  ['generated site (450 rules)', generatedSite()],
];
// --cold-only: the cold-path row alone (the per-check loops take minutes).
for (const [name, site] of process.argv.includes('--cold-only') ? [] : sites) {
  const workerd = await workerdTimes(site);
  const node = nodeTimes(site);
  const averageLength = Math.round(site.urls.reduce((total, url) => total + url.length, 0) / site.urls.length);
  /** @type {[Mode, string][]} */
  const labels = [
    ['single', 'single isAllowed()'],
    ['batch', 'isAllowedManyInto(), per URL'],
    ['compile', 'parse + compile + one check'],
    ...COPIES.map((copy) => /** @type {[Mode, string]} */ ([copy, `copying a URL (${averageLength} characters) by ${copy}, alone`])),
  ];
  for (const [mode, label] of labels) {
    rows.push(`| ${name} | ${label} | ${format(node[mode])} | ${format(workerd[mode])} | ${(workerd[mode] / node[mode]).toFixed(2)}× |`);
  }
}
const sample = coldSample();
if (sample !== undefined) {
  const { node, workerd } = await coldTimes(sample);
  rows.push(
    `| corpus sample (${sample.length} files, every ${COLD_STEP}th) | bytes → first verdict: \`parseRobotsTxt(bytes).forAgent('Googlebot')\`, one check, \`dispose()\`, per file | ` +
      `${format(node)} | ${format(workerd)} | ${(workerd / node).toFixed(2)}× |`,
  );
} else {
  console.error('cold-path row skipped: the robots corpus is absent (set ROBOTS_CORPUS)');
}
console.log(`## Workers: per-check cost in workerd and in Node\n`);
console.log(
  `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores; Node ${process.version}; workerd from miniflare; medians of ${ROUNDS}.\n`,
);
console.log('| site | call | Node | workerd | workerd / Node |\n| --- | --- | ---: | ---: | ---: |');
console.log(rows.join('\n'));
