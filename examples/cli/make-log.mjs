/**
 * Writes examples/cli/urls.txt: the sample crawl log that `npm start` filters (examples/cli/start.mjs).
 *
 *   node examples/cli/make-log.mjs
 *
 * Run it only to change the log: its output is committed, and a fixed-seed PRNG makes every choice, so a run
 * on any machine rewrites the same bytes (3,000 lines, about 125 KB). The log is what a crawler's frontier
 * looks like: one absolute URL per line, mostly https, hosts interleaved and skewed (news.example most often),
 * paths near the rules of each host's robots.txt in examples/cli/robots/ (so that both verdicts occur), some
 * queries and fragments, a few upper-case host names (looked up lower-cased), two hosts without a robots.txt
 * (blog.example and cdn.example: everything allowed) and a few malformed lines that no filter can read.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../../harness/random.mjs';

const LINES = 3_000;
const SEED = 0x5eed_c11;
const OUTPUT = fileURLToPath(new URL('./urls.txt', import.meta.url));

const random = mulberry32(SEED);
/** @template T @param {readonly T[]} items @returns {T} */
const pick = (items) => items[Math.floor(random() * items.length)];
const int = (below) => Math.floor(random() * below);
const hex = (digits) => Array.from({ length: digits }, () => '0123456789abcdef'[int(16)]).join('');

const WORDS = ['election', 'climate', 'markets', 'football', 'rfc-9309', 'robots', 'energy', 'budget', 'rail', 'space'];
const slug = () => `${pick(WORDS)}-${pick(WORDS)}-${1000 + int(9000)}`;
const CATEGORIES = ['shoes', 'coats', 'bags', 'hats'];
const TOPICS = ['install', 'configuration', 'matching', 'profiles', 'caching', 'errors'];

/** Each host: how often it appears (relative weight) and the paths a crawler finds there. */
const HOSTS = [
  {
    host: 'news.example',
    weight: 40,
    paths: [
      () => '/',
      () => `/world/2026/${slug()}`,
      () => `/business/markets/${slug()}`,
      () => `/world/2026/${slug()}#comments`,
      () => `/world/2026/${slug()}?session=${hex(8)}`,
      () => `/search?q=${pick(WORDS)}`,
      () => `/tag/${pick(WORDS)}`,
      () => pick(['/account/login', '/account/settings', '/account/signup']),
      () => `/reports/${2020 + int(7)}-q${1 + int(4)}.pdf`,
      () => `/reports/${2020 + int(7)}-q${1 + int(4)}.pdf?download=1`,
      () => `/world/2026/${slug()}?utm_source=newsletter&utm_medium=email`,
    ],
  },
  {
    host: 'shop.example',
    weight: 25,
    paths: [
      () => '/',
      () => '/catalog/index.html',
      () => `/catalog/${pick(CATEGORIES)}/`,
      () => `/catalog/${pick(CATEGORIES)}/item-${int(500)}`,
      () => `/catalog/${pick(CATEGORIES)}/photos/${int(500)}.jpg`,
      () => `/deals?sort=${pick(['price', 'new', 'rating'])}`,
      () => '/deals',
      () => pick(['/cart', `/cart/add?item=${int(500)}`, `/checkout/step-${1 + int(3)}`]),
      () => `/help/${pick(['returns', 'shipping', 'sizes'])}`,
    ],
  },
  {
    host: 'docs.example',
    weight: 20,
    paths: [
      () => '/',
      () => `/v2/guide/${pick(TOPICS)}`,
      () => `/v2/guide/${pick(TOPICS)}/print`,
      () => `/v2/api/${pick(TOPICS)}#${pick(['options', 'returns', 'example'])}`,
      () => `/v1/guide/${pick(TOPICS)}`,
      () => pick(['/v1/migration', '/v1/migration/from-v1']),
      () => `/drafts/${pick(TOPICS)}`,
      () => '/api/playground',
    ],
  },
  { host: 'staging.example', weight: 5, paths: [() => '/', () => `/v2/guide/${pick(TOPICS)}`, () => `/world/2026/${slug()}`] },
  { host: 'blog.example', weight: 7, paths: [() => '/', () => `/2026/0${1 + int(9)}/${slug()}`, () => '/feed.xml'] },
  { host: 'cdn.example', weight: 3, paths: [() => `/img/${hex(12)}.webp`, () => `/js/app.${hex(8)}.js`] },
];

/** Lines no filter can read as an http(s) URL: reported in the summary, never written to the output. */
const MALFORMED = ['not a url', 'https://', 'http//shop.example/cart', '://docs.example/v2/', 'https://news example/world'];

const totalWeight = HOSTS.reduce((sum, { weight }) => sum + weight, 0);
function pickHost() {
  let at = random() * totalWeight;
  for (const site of HOSTS) {
    at -= site.weight;
    if (at < 0) return site;
  }
  return HOSTS[HOSTS.length - 1];
}

/** A few upper-case host names: robots.txt files are looked up by the lower-cased host. */
const shout = (host) => host.replace(/^./, (first) => first.toUpperCase()).replace('.example', '.Example');

const lines = [];
for (let i = 0; i < LINES - MALFORMED.length; i++) {
  const site = pickHost();
  const scheme = random() < 0.85 ? 'https' : 'http';
  const host = random() < 0.03 ? shout(site.host) : site.host;
  lines.push(`${scheme}://${host}${pick(site.paths)()}`);
}
// The malformed lines go in at seeded places, none among the first lines that `npm start` shows.
for (const line of MALFORMED) lines.splice(20 + int(lines.length - 20), 0, line);

writeFileSync(OUTPUT, `${lines.join('\n')}\n`);
console.log(`wrote ${lines.length} lines to ${OUTPUT}`);
