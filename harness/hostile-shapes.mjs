/**
 * robots.txt files of hostile shapes, about 500 KB each, for the tests that hold what a kept file costs to
 * what its holder counts: RobotsCache (harness/cache-memory-probe.mjs) and the rules LRU of
 * `robotstxt filter` (test/unit/cli/cli-memory.test.ts).
 */
const SIZE = 500 * 1024;

/** `line(i)` repeated up to SIZE bytes (ASCII lines). @param {(i: number) => string} line */
function fill(line) {
  const parts = [];
  let length = 0;
  for (let i = 0; length < SIZE; i++) {
    const next = `${line(i)}\n`;
    if (length + next.length > SIZE) break;
    parts.push(next);
    length += next.length;
  }
  return parts.join('');
}

/** Base-36 names, distinct per i. @param {number} i */
const name = (i) => i.toString(36);

/** @type {Record<string, () => string>} */
export const SHAPES = {
  'many groups': () => fill((i) => (i % 2 === 0 ? 'User-agent:*' : 'Allow:/')),
  'many distinct groups': () => fill((i) => (i % 2 === 0 ? `User-agent:b${name(i)}` : `Allow:/${name(i)}`)),
  'many tiny rules': () => `User-agent:*\n${fill((i) => `Allow:/${name(i)}`)}`,
  'many sitemaps': () => fill((i) => `Sitemap:https://example.com/${name(i)}.xml`),
  'long lines': () => `User-agent:*\n${fill((i) => `Disallow:/${name(i)}${'x'.repeat(16_000)}`)}`,
  'html junk with one rule': () => `User-agent:*\nDisallow:/x\n${fill((i) => `<div class="c${name(i)}">text text text</div>`)}`,
  // Rules for another crawler, then one rule for every crawler: the selected rule is a tiny span of a body
  // that is mostly rules (a view of it would keep all of it).
  "other agents' rules, one for all": () => `User-agent:OtherBot\n${fill((i) => `Disallow:/${name(i)}`)}User-agent:*\nDisallow:/x\n`,
};
