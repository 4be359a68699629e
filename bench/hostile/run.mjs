/**
 * `npm run bench:hostile`: the CPU one check costs on robots.txt files built to be slow (the bound per
 * input kind: docs/design.md#hostile-input). A site controls both its robots.txt and the URLs it links to, so every shape below is a
 * file of at most 500 KiB (the parse limit) together with URLs chosen against it.
 *
 *   node bench/hostile/run.mjs                 both matchers, URLs of 2, 4, 8 and 16 KiB
 *   node bench/hostile/run.mjs --quick         fewer repetitions per URL
 *   node bench/hostile/run.mjs --max-seconds=N stop growing a shape's URL once one check took longer than N s
 *                                          (default 5), so that a slow build still finishes
 *
 * For every shape, matcher and URL length it times single isAllowed() calls, one URL at a time (the median of a
 * few calls per URL, after warm-up calls), and reports the slowest URL: the worst single check. Both matchers
 * must give the same verdicts; a difference is reported and fails the run. It builds nothing: the npm script
 * builds dist/ first.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cpus } from 'node:os';
import { mulberry32 as random } from '../../harness/random.mjs';
import { median } from '../lib/median.mjs';
import { compiledNow } from '../lib/engines/robotstxt-wasm.mjs';

const DIST = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
if (!existsSync(DIST)) {
  console.error('dist/ is missing: run `npm run bench:hostile` (which builds first) or `npm run build`.');
  process.exit(1);
}
/** @type {typeof import('../../src/index.js')} */
const library = await import(new URL('../../dist/index.js', import.meta.url).href);
const { parseRobotsTxt, setMatcher } = library;

const quick = process.argv.includes('--quick');
const maxSecondsArgument = process.argv.find((argument) => argument.startsWith('--max-seconds='));
const MAX_SECONDS = maxSecondsArgument === undefined ? 5 : Number(maxSecondsArgument.slice('--max-seconds='.length));
/** Timed calls per URL (after one warm-up call); the median is kept. */
const REPEATS = quick ? 3 : 7;
const LENGTHS = [2048, 4096, 8192, 16384];
/** @type {import('../../src/index.js').BackendKind[]} */
const MATCHERS = ['wasm', 'typescript'];
/** The parse limit, and so the largest file a site can make anyone read. */
const FILE_LIMIT = 512_000;
const AGENT = 'ExampleBot';

/**
 * A hostile file and the URLs of a given byte length it is asked about.
 * @typedef {{ name: string, what: string, body: string, urls: (length: number) => string[] }} Shape
 */

/**
 * `User-agent: *` and then the rule lines `next(i)` gives (i = 0, 1, …), as many as fit in the parse limit.
 * @param {(i: number) => string | undefined} next
 */
function fileOf(next) {
  let body = 'User-agent: *\n';
  for (let i = 0; ; i++) {
    const line = next(i);
    if (line === undefined || body.length + line.length + 1 > FILE_LIMIT) return body;
    body += `${line}\n`;
  }
}

/**
 * `/` then `fill` repeated (and cut) to `length` bytes in all; `tail` replaces the last bytes.
 * @param {number} length @param {string} fill @param {string} [tail]
 */
function url(length, fill, tail = '') {
  const body = fill.repeat(Math.ceil(length / fill.length)).slice(0, length - 1 - tail.length);
  return `/${body}${tail}`;
}

/**
 * The out-of-order shape's tokens: distinct, five bytes each.
 * @param {number} i
 */
function token(i) {
  return `x${i.toString(36).padStart(3, '0')}-`;
}

/** @type {Shape[]} */
const SHAPES = [
  {
    name: 'identical',
    what: '17,654 × `Disallow: /*aaaaaaaaaaaaaaab` (the file that started this benchmark)',
    body: fileOf((i) => (i < 17_654 ? 'Disallow: /*aaaaaaaaaaaaaaab' : undefined)),
    urls: (length) => [url(length, 'a'), url(length, 'a', 'b')],
  },
  (() => {
    // The same pieces in many combinations: the patterns differ, so no two rules are the same rule.
    const pool = ['aaaaaaaaaaaaaab', 'aaaaaaa', 'aab', 'ab', 'aaaa', 'b', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaab', 'ba', 'aaab', 'a'];
    /** @type {string[]} */
    const patterns = [];
    for (let pieces = 2; pieces <= 5 && patterns.length < 40_000; pieces++) {
      const total = pool.length ** pieces;
      for (let n = 0; n < total && patterns.length < 40_000; n++) {
        let rest = n;
        let pattern = '/';
        for (let k = 0; k < pieces; k++) {
          pattern += `*${pool[rest % pool.length]}`;
          rest = Math.floor(rest / pool.length);
        }
        patterns.push(`Disallow: ${pattern}${n % 3 === 0 ? '$' : ''}`);
      }
    }
    return {
      name: 'shared-pieces',
      what: '`/*p*q*r…`: every combination of 2 to 5 pieces from a pool of 10, some ending in `$`',
      body: fileOf((i) => patterns[i]),
      urls: (length) => [url(length, 'a'), url(length, 'a', 'b'), url(length, 'aaaaaaab')],
    };
  })(),
  {
    name: 'lengths',
    what: '`Disallow: /*a{k}b` for k = 1, 2, 3, …',
    body: fileOf((i) => `Disallow: /*${'a'.repeat(i + 1)}b`),
    urls: (length) => [url(length, 'a'), url(length, 'a', 'b')],
  },
  (() => {
    // Pieces that all occur in the URL, but not in the order the rule asks for them.
    const next = random(0x0dd);
    /** @type {string[]} */
    const patterns = [];
    for (let i = 0; i < 60_000; i++) {
      const a = Math.floor(next() * 3_300);
      const b = Math.floor(next() * 3_300);
      const c = Math.floor(next() * 3_300);
      const [high, middle, low] = /** @type {[number, number, number]} */ ([a, b, c].sort((x, y) => y - x));
      patterns.push(i % 2 === 0 ? `Disallow: /*${token(high)}*${token(low)}` : `Allow: /*${token(high)}*${token(middle)}*${token(low)}$`);
    }
    return {
      name: 'out-of-order',
      what: '`/*t{j}*t{i}` (and three pieces, `$`) with j > i, against a URL of t0 t1 t2 … in order',
      body: fileOf((i) => patterns[i]),
      urls: (length) => {
        let tokens = '';
        for (let i = 0; tokens.length < length; i++) tokens += token(i);
        return [`/${tokens.slice(0, length - 1)}`];
      },
    };
  })(),
  {
    name: 'dollar',
    what: '`Disallow: /*a{k}c*a{j}$`, with and without a `c` in the URL',
    body: fileOf((i) => `Disallow: /*${'a'.repeat(1 + (i % 97))}c*${'a'.repeat(1 + Math.floor(i / 97))}$`),
    urls: (length) => [url(length, 'a'), url(length, 'a', 'ca'), `${url(length / 2, 'a')}c${url(length / 2, 'a').slice(1)}`],
  },
  {
    name: 'suffix-chain',
    what: '`/*c*a{k}` and `/*a{k}*c`: pieces a, aa, aaa, … that all end wherever a run of a ends',
    body: fileOf((i) => (i % 2 === 0 ? `Disallow: /*c*${'a'.repeat(1 + i / 2)}` : `Allow: /*${'a'.repeat(1 + (i - 1) / 2)}*c`)),
    urls: (length) => [url(length, 'a'), `${url(length / 2, 'a')}c${url(length / 2, 'a').slice(1)}`, url(length, 'a', 'c')],
  },
  (() => {
    // Long pieces that share little: the automaton's trie gets a node per byte of them, its largest size
    // against the rules' text.
    const next = random(0x10b9);
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const piece = () => Array.from({ length: 200 }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
    return {
      name: 'long-pieces',
      what: '`Disallow: /*p*x` with p 200 random characters of [a-z0-9], a distinct one per line',
      body: fileOf(() => `Disallow: /*${piece()}*x`),
      urls: (length) => [
        `/${Array.from({ length: length - 1 }, () => alphabet[Math.floor(next() * alphabet.length)]).join('')}`,
        url(length, 'a'),
      ],
    };
  })(),
  {
    name: 'many-stars',
    what: '`Disallow: /*a*a*…*a*b` with 1, 2, 3, … pieces of `a`',
    body: fileOf((i) => `Disallow: /${'*a'.repeat(i + 1)}*b`),
    urls: (length) => [url(length, 'a'), url(length, 'ab')],
  },
];

/** @param {number} ms */
function formatMs(ms) {
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  if (ms >= 0.1) return `${ms.toFixed(2)} ms`;
  return `${(ms * 1000).toFixed(1)} µs`;
}

/** @param {string} line */
function log(line) {
  process.stderr.write(`${line}\n`);
}

/**
 * The worst single check (ms) of each URL length for one shape and matcher; `undefined` where skipped because a
 * shorter URL already took longer than MAX_SECONDS. Also returns every verdict, to compare the matchers.
 * @param {Shape} shape
 * @param {import('../../src/index.js').BackendKind} matcher
 */
function measure(shape, matcher) {
  setMatcher(matcher);
  const compileBegan = performance.now();
  const robots = parseRobotsTxt(shape.body);
  const rules = compiledNow(robots.forAgent(AGENT));
  const compileMs = performance.now() - compileBegan;
  // Warm-up: the shortest URLs a few times each, so that the first timings are not of unoptimized code.
  for (let round = 0; round < 3; round++) for (const target of shape.urls(LENGTHS[0] ?? 2048)) rules.isAllowed(target);
  /** @type {(number | undefined)[]} */
  const worst = [];
  /** @type {boolean[]} */
  const verdicts = [];
  let tooSlow = false;
  for (const length of LENGTHS) {
    if (tooSlow) {
      worst.push(undefined);
      continue;
    }
    let slowest = 0;
    for (const target of shape.urls(length)) {
      if (new TextEncoder().encode(target).length !== length)
        throw new Error(`${shape.name}: a URL of ${target.length} bytes where ${length} were meant`);
      const warmBegan = performance.now();
      verdicts.push(rules.isAllowed(target));
      const warmMs = performance.now() - warmBegan;
      const samples = [warmMs];
      // A check that takes seconds is measured once: its time is not noise.
      const repeats = warmMs > 1000 ? 0 : REPEATS;
      for (let r = 0; r < repeats; r++) {
        const began = performance.now();
        rules.isAllowed(target);
        samples.push(performance.now() - began);
      }
      const time = repeats === 0 ? warmMs : median(samples.slice(1));
      slowest = Math.max(slowest, time);
    }
    worst.push(slowest);
    log(`  ${shape.name.padEnd(14)} ${matcher.padEnd(10)} ${String(length).padStart(6)} B  ${formatMs(slowest)}`);
    if (slowest > MAX_SECONDS * 1000) tooSlow = true;
  }
  const rulesetBytes = rules.byteLength;
  const ruleCount = rules.rules.length;
  robots.dispose();
  return { worst, verdicts, compileMs, rulesetBytes, ruleCount };
}

function main() {
  log(`hostile shapes, files of at most ${FILE_LIMIT} bytes; URLs of ${LENGTHS.join(', ')} bytes`);
  /** @type {string[]} */
  const rows = [];
  /** @type {Record<string, (number | undefined)[]>} */
  const worstOf = Object.fromEntries(MATCHERS.map((matcher) => [matcher, LENGTHS.map(() => 0)]));
  let disagreements = 0;
  for (const shape of SHAPES) {
    /** @type {Record<string, ReturnType<typeof measure>>} */
    const results = {};
    for (const matcher of MATCHERS) results[matcher] = measure(shape, matcher);
    const wasm = /** @type {ReturnType<typeof measure>} */ (results.wasm);
    const typescript = /** @type {ReturnType<typeof measure>} */ (results.typescript);
    const compared = Math.min(wasm.verdicts.length, typescript.verdicts.length);
    for (let i = 0; i < compared; i++) {
      if (wasm.verdicts[i] !== typescript.verdicts[i]) disagreements++;
    }
    for (const matcher of MATCHERS) {
      const result = /** @type {ReturnType<typeof measure>} */ (results[matcher]);
      const cells = result.worst.map((ms) => (ms === undefined ? `> ${MAX_SECONDS} s before` : formatMs(ms)));
      const memory = matcher === 'wasm' ? `${(result.rulesetBytes / 1024).toFixed(0)} KiB` : '';
      rows.push(`| ${shape.name} | ${matcher} | ${cells.join(' | ')} | ${result.ruleCount} | ${formatMs(result.compileMs)} | ${memory} |`);
      const worst = /** @type {(number | undefined)[]} */ (worstOf[matcher]);
      result.worst.forEach((ms, i) => {
        const current = worst[i];
        worst[i] = ms === undefined || current === undefined ? undefined : Math.max(current, ms);
      });
    }
  }
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const header = LENGTHS.map((length) => `${length / 1024} KiB`);
  const lines = [
    `## Hostile robots.txt files: the worst single check`,
    '',
    `${cpu}, ${cpus().length} cores, Node ${process.version}; median of ${REPEATS} calls per URL, slowest URL of each shape.`,
    '',
    '| shape | matcher | ' + header.join(' | ') + ' | rules compiled | parse + compile | ruleset in wasm memory |',
    '| --- | --- | ' + header.map(() => '---:').join(' | ') + ' | ---: | ---: | ---: |',
    ...rows,
    ...MATCHERS.map((matcher) => {
      const cells = /** @type {(number | undefined)[]} */ (worstOf[matcher]).map((ms) =>
        ms === undefined ? `> ${MAX_SECONDS} s` : `**${formatMs(ms)}**`,
      );
      return `| **worst** | ${matcher} | ${cells.join(' | ')} | | | |`;
    }),
    '',
    'Shapes:',
    ...SHAPES.map((shape) => `- \`${shape.name}\`: ${shape.what} (${shape.body.length.toLocaleString('en')} bytes)`),
  ];
  console.log(lines.join('\n'));
  if (disagreements > 0) {
    console.error(`the matchers disagreed on ${disagreements} verdicts`);
    process.exitCode = 1;
  }
}

main();
