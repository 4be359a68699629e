/**
 * The loop bench/runtimes/run.mjs times in Node, Bun and Deno alike: a single `rules.isAllowed(url)` on a small
 * ruleset, the same URLs in turn, in blocks of checks after a warm-up; then each way of writing those URLs into a
 * buffer as UTF-8, alone. Prints the median nanoseconds per check and per write over the blocks, and the matcher
 * that answered, as one JSON line.
 *
 *   RUNTIME bench/runtimes/check.mjs DIST [CHECKS_PER_BLOCK] [BLOCKS]
 *
 * DIST is a built dist/ directory (the package as built), so that two builds can be timed side by side.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from '../lib/median.mjs';

const [dist, perBlockArg = '500000', blocksArg = '9'] = process.argv.slice(2);
if (dist === undefined) throw new TypeError('usage: runtimes-check.mjs DIST [CHECKS_PER_BLOCK] [BLOCKS]');
const perBlock = Number(perBlockArg);
const blocks = Number(blocksArg);

/** @type {typeof import('../../src/index.js')} */
const library = await import(pathToFileURL(join(dist, 'index.js')).href);

/** A small site's robots.txt: a few rules, a wildcard and an end anchor among them. */
const BODY = 'User-agent: *\nDisallow: /private/\nAllow: /private/open\nDisallow: /*.pdf$\nDisallow: /search?\nDisallow: /tmp/\n';
/** URLs of ordinary shapes and lengths, absolute and not, allowed and not. */
const URLS = [
  'https://example.com/private/x',
  'https://example.com/a/b/c.html',
  'https://example.com/search?q=robots',
  'https://example.com/docs/report.pdf',
  '/private/open/1',
  'https://example.com/news/2024/05/story-of-the-day',
];

const rules = library.parseRobotsTxt(BODY).forAgent('ExampleBot');

/** @param {number} n @returns {number} the checks allowed, so that nothing is optimized away */
function checks(n) {
  let allowed = 0;
  for (let i = 0; i < n; i++) if (rules.isAllowed(/** @type {string} */ (URLS[i % URLS.length]))) allowed++;
  return allowed;
}

/**
 * The ways a runtime has to write a URL into a buffer as UTF-8, each alone (src/engine/utf8-writer.ts
 * chooses among them): what a check's cost is made of, and why the choice differs by runtime.
 * @type {Record<string, ((n: number) => number) | undefined>}
 */
const writers = (() => {
  const memory = new ArrayBuffer(1 << 16);
  const bytes = new Uint8Array(memory);
  const encoder = new TextEncoder();
  const target = bytes.subarray(64);
  const view = typeof Buffer === 'function' ? Buffer.from(memory) : undefined;
  /** Buffer.prototype.utf8Write, not in @types/node (Node leaves it undocumented). */
  const native = /** @type {{ utf8Write?: (text: string, at: number, capacity: number) => number } | undefined} */ (
    /** @type {unknown} */ (view)
  );
  const url = (/** @type {number} */ i) => /** @type {string} */ (URLS[i % URLS.length]);
  return {
    /** The loop by hand, ASCII URLs (the writer's loop takes this branch for them). */
    charCodeAt(n) {
      let sum = 0;
      for (let i = 0; i < n; i++) {
        const text = url(i);
        for (let k = 0; k < text.length; k++) bytes[64 + k] = text.charCodeAt(k);
        sum += text.length;
      }
      return sum;
    },
    encodeInto(n) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += encoder.encodeInto(url(i), target).written;
      return sum;
    },
    'Buffer.write':
      view &&
      ((n) => {
        let sum = 0;
        for (let i = 0; i < n; i++) sum += view.write(url(i), 64, 65_000, 'utf8');
        return sum;
      }),
    'Buffer.utf8Write':
      native?.utf8Write &&
      ((n) => {
        let sum = 0;
        for (let i = 0; i < n; i++)
          sum += /** @type {NonNullable<typeof native.utf8Write>} */ (native.utf8Write).call(view, url(i), 64, 65_000);
        return sum;
      }),
  };
})();

/** @param {(n: number) => number} loop @returns {number} median ns per call over the blocks, after a warm-up */
function timed(loop) {
  loop(perBlock);
  /** @type {number[]} */
  const times = [];
  for (let block = 0; block < blocks; block++) {
    const started = performance.now();
    loop(perBlock);
    times.push(((performance.now() - started) * 1e6) / perBlock);
  }
  return median(times);
}

const nsPerCheck = timed(checks);
/** @type {Record<string, number | null>} */
const nsPerWrite = {};
for (const [name, loop] of Object.entries(writers)) nsPerWrite[name] = loop === undefined ? null : timed(loop);
console.log(JSON.stringify({ nsPerCheck, nsPerWrite, matcher: library.matcherInfo().kind }));
