/**
 * The loop bench/runtimes.mjs times in Node, Bun and Deno alike: a single `rules.isAllowed(url)` on a small
 * ruleset, the same URLs in turn, in blocks of checks after a warm-up; prints the median nanoseconds per check
 * over the blocks, and the matcher that answered, as one JSON line.
 *
 *   RUNTIME bench/runtimes-check.mjs DIST [CHECKS_PER_BLOCK] [BLOCKS]
 *
 * DIST is a built dist/ directory (the package as built), so that two builds can be timed side by side.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from './median.mjs';

const [dist, perBlockArg = '1000000', blocksArg = '9'] = process.argv.slice(2);
if (dist === undefined) throw new TypeError('usage: runtimes-check.mjs DIST [CHECKS_PER_BLOCK] [BLOCKS]');
const perBlock = Number(perBlockArg);
const blocks = Number(blocksArg);

/** @type {typeof import('../src/index.js')} */
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

checks(perBlock);
/** @type {number[]} */
const times = [];
let allowed = 0;
for (let block = 0; block < blocks; block++) {
  const started = performance.now();
  allowed += checks(perBlock);
  times.push(((performance.now() - started) * 1e6) / perBlock);
}
console.log(JSON.stringify({ nsPerCheck: median(times), matcher: library.matcherInfo().kind, allowed }));
