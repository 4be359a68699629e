/**
 * A measurement run by hand, not a test (speed is never asserted in a test): how much slower parsing and
 * compiling a small file gets once the WebAssembly heap holds 50,000 freed blocks between live rulesets.
 * The target is at most 2× the unfragmented time: a long-lived process that cached and dropped many files
 * must not pay for its history on every new one.
 *
 *   npm run build && node bench/hostile-memory/allocator-fragmentation.mjs [path/to/dist/index.js]
 *
 * Two kinds of holes: ones too small for anything the measured loop allocates (the allocator must not
 * search them one by one), and ones exactly the size of the measured ruleset (it must find one at once).
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { compiledNow } from '../lib/engines/robotstxt-wasm.mjs';

const entry = process.argv[2] ? pathToFileURL(resolve(process.argv[2])).href : new URL('../../dist/index.js', import.meta.url).href;
/** @type {typeof import('../../src/index.js')} */
const { parseRobotsTxt, matcherInfo } = await import(entry);

const SMALL = `User-agent: *
Disallow: /private/
Allow: /private/press
Disallow: /*.pdf$
Crawl-delay: 2

User-agent: ExampleBot
Disallow: /search
Allow: /search/about
Sitemap: https://example.com/sitemap.xml
`;
const TINY = 'User-agent: *\nDisallow: /x\n';
const HOLES = 50_000;
const ROUNDS = 7;
const ITERATIONS = 20_000;

/** Parse + compile + dispose of SMALL: the operation measured; returns nanoseconds per operation (median round). */
function measure() {
  /** @type {number[]} */
  const times = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < ITERATIONS; i++) {
      const robots = parseRobotsTxt(SMALL);
      compiledNow(robots.forAgent('ExampleBot'));
      robots.dispose();
    }
    times.push(Number(process.hrtime.bigint() - start) / ITERATIONS);
  }
  times.sort((a, b) => a - b);
  return /** @type {number} */ (times[Math.floor(ROUNDS / 2)]);
}

/** Compiles 2 × HOLES rulesets of `body`, then disposes every other one: HOLES holes, none adjacent. @param {string} body */
function fragment(body) {
  const kept = [];
  for (let i = 0; i < HOLES * 2; i++) {
    const rules = compiledNow(parseRobotsTxt(body).forAgent('ExampleBot'));
    if (i % 2 === 0) rules.dispose();
    else kept.push(rules);
  }
  return kept;
}

measure(); // warm-up: JIT and the matcher's buffers
const unfragmented = measure();
const small = fragment(TINY);
const withSmallHoles = measure();
for (const rules of small) rules.dispose();
const fitting = fragment(SMALL);
const withFittingHoles = measure();
for (const rules of fitting) rules.dispose();
const after = measure();

const format = (/** @type {number} */ ns) => `${(ns / 1000).toFixed(2)} µs`;
console.log(`entry: ${entry}`);
console.log(`parse + compile + dispose of a ${SMALL.length}-byte file, median of ${ROUNDS} rounds of ${ITERATIONS}:`);
console.log(`  unfragmented:                              ${format(unfragmented)}`);
console.log(`  ${HOLES} freed blocks too small to use:      ${format(withSmallHoles)}  (${(withSmallHoles / unfragmented).toFixed(2)}×)`);
console.log(
  `  ${HOLES} freed blocks of the ruleset's size: ${format(withFittingHoles)}  (${(withFittingHoles / unfragmented).toFixed(2)}×)`,
);
console.log(`  all disposed again:                        ${format(after)}  (${(after / unfragmented).toFixed(2)}×)`);
console.log(`wasmBytesInUse at the end: ${matcherInfo().wasmBytesInUse}`);
