/**
 * The package as a user of another runtime meets it: plain JavaScript that imports the built package by its
 * name (Node, Bun and Deno all resolve a package's own name through its "exports" from inside it), run by
 * Node, Bun and Deno in turn (test/e2e/runtimes/runtimes.test.ts), which compares what each prints with what Node prints.
 *
 *     node test/e2e/runtimes/smoke.mjs ORIGIN
 *     bun test/e2e/runtimes/smoke.mjs ORIGIN
 *     deno run --allow-net=127.0.0.1 test/e2e/runtimes/smoke.mjs ORIGIN
 *
 * ORIGIN is a loopback server's (`http://127.0.0.1:PORT`) that answers /robots.txt with ROBOTS (./smoke-robots.mjs), for
 * RobotsCache. Prints one JSON object of answers: the same on every runtime, and none of it about the runtime.
 */
import { matcherInfo, parseRobotsTxt, RobotsCache } from 'robotstxt-wasm';
import robotsParser from 'robotstxt-wasm/compat/robots-parser';
import { ROBOTS } from './smoke-robots.mjs';

/** URLs that reach each kind of rule, the wildcard, a percent-encoded and a raw non-ASCII path among them. */
const URLS = [
  'https://example.com/',
  'https://example.com/private/x',
  'https://example.com/private/open/y',
  'https://example.com/doc.pdf',
  'https://example.com/doc.pdf?x=1',
  'https://example.com/no-bots/z',
  'https://example.com/café/menu',
  'https://example.com/cafés',
  '/private/open',
  'https://example.com/%70rivate/x',
  // A lone surrogate, which a URL writer must write as U+FFFD (as TextEncoder does) for the rule to match.
  'https://example.com/odd\ud800/x',
];

const origin = process.argv[2];
if (origin === undefined) throw new TypeError('usage: smoke.mjs ORIGIN (a loopback server answering /robots.txt with ROBOTS)');

const robots = parseRobotsTxt(ROBOTS);
const parse = {
  groups: robots.groups.length,
  sitemaps: robots.sitemaps,
  diagnostics: robots.diagnostics.map(({ code, line }) => ({ code, line })),
};

const rules = robots.forAgent('SmokeBot');
const star = robots.forAgent('OtherBot');
// Past the first few checks, answered from the rules as written, every verdict comes from the compiled
// WebAssembly matcher: two rounds reach it.
const check = [0, 1].map(() => URLS.map((url) => [rules.isAllowed(url), star.isAllowed(url)]));
const explain = URLS.map((url) => rules.explain(url));
const batch = rules.isAllowedMany(URLS);

const encoder = new TextEncoder();
const lines = encoder.encode(URLS.join('\n'));
const ranges = new Uint32Array(URLS.length * 2);
let offset = 0;
URLS.forEach((url, i) => {
  ranges[2 * i] = offset;
  offset += encoder.encode(url).length;
  ranges[2 * i + 1] = offset;
  offset += 1;
});
const bytes = Array.from(rules.isAllowedBytes(lines, ranges));
// The single check on bytes, three rounds: the last ones on indexed rules, through the address they keep.
const utf8 = [0, 1, 2].map(() => URLS.map((_, i) => rules.isAllowedUtf8(lines, ranges[2 * i], ranges[2 * i + 1])));

const dropIn = robotsParser('https://example.com/robots.txt', ROBOTS);
const dropInAnswers = {
  verdicts: URLS.filter((url) => url.startsWith('https:')).map((url) => [
    dropIn.isAllowed(url, 'SmokeBot/1.0'),
    dropIn.getMatchingLineNumber(url, 'SmokeBot/1.0'),
  ]),
  crawlDelay: dropIn.getCrawlDelay('OtherBot'),
  sitemaps: dropIn.getSitemaps(),
  // robots-parser's answer for a URL of another origin: undefined, which JSON would leave out.
  otherOrigin: String(dropIn.isAllowed('https://other.example/', 'SmokeBot')),
};

const cache = new RobotsCache({ userAgent: 'SmokeBot/1.0 (+https://example.com/bot)' });
const cached = {
  agent: cache.agent,
  verdicts: await Promise.all(['/', '/private/x', '/no-bots/z', '/caf%C3%A9/'].map((path) => cache.isAllowed(`${origin}${path}`))),
  // The source without its times, which differ from run to run.
  explain: await cache.explain(`${origin}/no-bots/z`).then(({ allowed, line, rule, source }) => ({
    allowed,
    line,
    rule,
    source: { outcome: source.outcome, reason: source.reason, status: source.status, bytes: source.bytes, from: source.from },
  })),
  crawlDelay: await cache.crawlDelay(`${origin}/`),
  fetched: cache.stats().fetches,
};
cache.dispose();

process.stdout.write(
  `${JSON.stringify({ parse, check, explain, batch, bytes, utf8, dropIn: dropInAnswers, cache: cached, matcher: matcherInfo().kind })}\n`,
);
