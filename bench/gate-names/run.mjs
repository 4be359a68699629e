/**
 * What reading a crawler's names from a User-Agent header costs, on headers of 1 KB and 128 KB: the example gate
 * (examples/worker/) reads every request's header with productTokens(), so an attacker picks the header.
 *
 *   npm run bench:gate-names [-- --quick]   (or, built: node bench/gate-names/run.mjs [--quick])
 *
 * productToken() reads any length, so it shows whether the reading is linear: its cost per character should be
 * the same at 1 KB and 128 KB (the ratio near 1, where a quadratic reading would show about 128). productTokens()
 * is bounded: it reads up to 8,192 characters and stops at the 33rd distinct name, so a 128 KB header costs no
 * more than an 8 KB one (it is refused unread). Each figure is the median of several rounds of CPU time (not wall
 * time: on a shared machine the process may wait for a core), per call.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { median } from '../lib/median.mjs';

const DIST = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
if (!existsSync(DIST)) {
  console.error('dist/ is missing: run `npm run build` first.');
  process.exit(1);
}
/** @type {typeof import('../../src/index.js')} */
const library = await import(new URL('../../dist/index.js', import.meta.url).href);
const { productToken, productTokens } = library;

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 3 : 7;
/** CPU time each round runs its calls for, at least. */
const ROUND_MS = quick ? 50 : 200;
const KB = 1024;

/**
 * Distinct names, `Botq Botr … Botqq …`, for a header of `length` characters.
 * @param {number} length
 */
function distinctNames(length) {
  const names = [];
  let total = 0;
  for (let i = 0; total < length; i++) {
    const name = `Bot${i.toString(26).replace(/\d/g, (digit) => 'qrstuvwxyz'[Number(digit)] ?? '')} `;
    names.push(name);
    total += name.length;
  }
  return names.join('').slice(0, length);
}

/**
 * Whole copies of `piece`, spaces and `end`: `length` characters.
 * @param {string} piece
 * @param {number} length
 * @param {string} end
 */
function repeated(piece, length, end) {
  const copies = piece.repeat(Math.floor((length - end.length) / piece.length));
  return copies.padEnd(length - end.length, ' ') + end;
}

/**
 * Header shapes, by length. The ones for productToken() hold their only name at the very end, so that all of the
 * header is read.
 * @type {Array<{ name: string, header: (length: number) => string }>}
 */
const SHAPES = [
  {
    name: 'browser products and comments',
    header: (length) =>
      repeated(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 ',
        length,
        ' ExampleBot/1.0',
      ),
  },
  { name: '( never closed, words after', header: (length) => repeated('(x 5X ', length, ' ExampleBot/1.0') },
  { name: 'nested comments holding commas', header: (length) => repeated('(a (b, c) d 5X) ', length, ' ExampleBot/1.0') },
  { name: 'stray ) and quoted pairs', header: (length) => repeated(') (\\) \\, x ', length, ' ExampleBot/1.0') },
];

/**
 * CPU nanoseconds per call of `read(header)`, the median of ROUNDS rounds.
 * @param {(header: string) => unknown} read
 * @param {string} header
 */
function cost(read, header) {
  const call = () => {
    try {
      read(header);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
    }
  };
  for (let i = 0; i < 3; i++) call();
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    let calls = 0;
    const start = process.cpuUsage();
    let elapsed = 0;
    while (elapsed < ROUND_MS * 1000) {
      call();
      calls++;
      const used = process.cpuUsage(start);
      elapsed = used.user + used.system;
    }
    rounds.push((elapsed * 1000) / calls);
  }
  return median(rounds);
}

/** @param {number} ns */
function show(ns) {
  return ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(1)} µs`;
}

console.log(`productToken(): the whole header read (linear if ns per character stays put)\n`);
console.log('shape'.padEnd(38) + '1 KB'.padStart(12) + '128 KB'.padStart(12) + '  ns/char 1 KB → 128 KB');
for (const shape of SHAPES) {
  const small = shape.header(KB);
  const large = shape.header(128 * KB);
  if (productToken(small) !== 'ExampleBot' || productToken(large) !== 'ExampleBot')
    throw new Error(`${shape.name}: the name at the end was not read`);
  const [a, b] = [cost(productToken, small), cost(productToken, large)];
  /** @type {(ns: number, length: number) => string} */
  const perChar = (ns, length) => (ns / length).toFixed(1);
  console.log(
    `${shape.name.padEnd(38)}${show(a).padStart(12)}${show(b).padStart(12)}  ${perChar(a, small.length)} → ${perChar(b, large.length)} (×${(b / large.length / (a / small.length)).toFixed(2)})`,
  );
}

console.log(`\nproductTokens(): bounded (8 KB read at most, 32 names)\n`);
console.log('shape'.padEnd(38) + '1 KB'.padStart(12) + '8 KB'.padStart(12) + '128 KB'.padStart(12));
for (const shape of [...SHAPES, { name: 'distinct names (refused at the 33rd)', header: distinctNames }]) {
  const [a, b, c] = [KB, 8 * KB, 128 * KB].map((length) => cost(productTokens, shape.header(length)));
  console.log(`${shape.name.padEnd(38)}${show(a ?? NaN).padStart(12)}${show(b ?? NaN).padStart(12)}${show(c ?? NaN).padStart(12)}`);
}
