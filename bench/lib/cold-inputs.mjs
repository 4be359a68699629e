/**
 * The cold path's inputs (bench/cold/run.mjs): every corpus file with its size tier and the URLs a crawler asks
 * on first meeting its host. Built once per run, by the `prepare` step of bench/cold/worker.mjs with the
 * measured build's parser, and saved as JSON beside every build's copy, so that all engines and both builds
 * of a comparison read the very same URLs.
 *
 * The URLs come from the host's own rules for the agent (bench/lib/workloads.mjs pathsForPattern: on, under and
 * beside each rule, wildcards filled) mixed with plain paths no rule was written for, drawn by a seeded PRNG:
 * verdicts then vary, as a crawler's do. The first URL of a host is its 1-URL case; its first 8 the 8-URL case.
 */
import { createHash } from 'node:crypto';
import { cappedBody, MAIN_AGENT, originOf } from './workloads.mjs';
import { pathsForPattern } from '../../harness/paths.mjs';
import { mulberry32 } from '../../harness/random.mjs';

/** The cold path's size tiers, by capped body size; a file is in the first tier whose `max` it does not pass. */
export const TIERS = /** @type {const} */ ([
  { label: '≤ 1 KB', max: 1024 },
  { label: '1–4 KB', max: 4096 },
  { label: '4–16 KB', max: 16_384 },
  { label: '16–64 KB', max: 65_536 },
  { label: '> 64 KB', max: Infinity },
]);
/** URLs asked per host: the first verdict alone, and a crawler's first few. */
export const URL_COUNTS = /** @type {const} */ ([1, 8]);
const MAX_URLS = 8;
const SEED = 0xc01d_0020;
/** Words for the plain paths, which no rule was written for. */
const WORDS = ['news', 'about', 'shop', 'blog', 'search', 'account', 'media', 'page', 'tag', 'api'];

/**
 * @typedef {{ name: string, tier: number, paths: string[] }} ColdSite `paths`: MAX_URLS paths, the order they are asked in
 * @typedef {{ fingerprint: string, agent: string, bytes: number, tierFiles: number[], sites: ColdSite[] }} ColdInputs
 * @typedef {{ robotsUrl: string, body: Uint8Array, urls: string[] }} ColdFile one host as an engine is given it
 */

/** @param {number} bytes @returns {number} the index of its tier in TIERS */
export function tierOf(bytes) {
  return TIERS.findIndex((tier) => bytes <= tier.max);
}

/**
 * Builds the inputs from the corpus with our parser (`parseRobotsTxt` from the build measured).
 * @param {readonly { name: string, body: Uint8Array }[]} files
 * @param {(body: Uint8Array) => { forAgent(agent: string): { rules: readonly { pattern: string }[] }, dispose(): void }} parseRobotsTxt
 * @returns {ColdInputs}
 */
export function buildColdInputs(files, parseRobotsTxt) {
  const random = mulberry32(SEED);
  /** @param {readonly string[]} items */
  const pick = (items) => /** @type {string} */ (items[Math.floor(random() * items.length)]);
  const plainPath = () => `/${pick(WORDS)}/${Math.floor(random() * 1000)}${random() < 0.5 ? '.html' : `?id=${Math.floor(random() * 100)}`}`;
  const tierFiles = TIERS.map(() => 0);
  let bytes = 0;
  const sites = files.map(({ name, body }) => {
    const capped = cappedBody(body);
    bytes += capped.byteLength;
    const tier = tierOf(capped.byteLength);
    tierFiles[tier] = (tierFiles[tier] ?? 0) + 1;
    const robots = parseRobotsTxt(capped);
    const patterns = robots.forAgent(MAIN_AGENT).rules.map((rule) => rule.pattern);
    robots.dispose();
    const candidates = [...new Set(['/', plainPath(), plainPath(), ...patterns.flatMap(pathsForPattern)])];
    // Fisher–Yates, stopped once the first MAX_URLS places are drawn.
    for (let i = 0; i < Math.min(MAX_URLS, candidates.length); i++) {
      const j = i + Math.floor(random() * (candidates.length - i));
      const chosen = /** @type {string} */ (candidates[j]);
      candidates[j] = /** @type {string} */ (candidates[i]);
      candidates[i] = chosen;
    }
    const paths = candidates.slice(0, MAX_URLS);
    // A host with few rules is asked plain paths for the rest.
    while (paths.length < MAX_URLS) paths.push(plainPath());
    return { name, tier, paths };
  });
  const inputs = { fingerprint: '', agent: MAIN_AGENT, bytes, tierFiles, sites };
  inputs.fingerprint = createHash('sha256').update(JSON.stringify(inputs)).digest('hex').slice(0, 12);
  return inputs;
}

/**
 * The hosts of each tier as engines are given them, `urlCount` URLs each, from the corpus bodies (read here,
 * before any timing; refuses a corpus that changed since `prepare`).
 * @param {ColdInputs} inputs
 * @param {readonly { name: string, body: Uint8Array }[]} files the corpus (harness/corpus.mjs loadCorpus)
 * @param {number} urlCount
 * @returns {ColdFile[][]} by tier, in corpus order within each
 */
export function coldFilesByTier(inputs, files, urlCount) {
  if (files.length !== inputs.sites.length || files.some((file, i) => file.name !== inputs.sites[i]?.name))
    throw new Error('the corpus changed since the cold inputs were built; run the benchmark again');
  /** @type {ColdFile[][]} */
  const byTier = TIERS.map(() => []);
  inputs.sites.forEach((site, i) => {
    const origin = originOf(site.name);
    const body = cappedBody(/** @type {{ body: Uint8Array }} */ (files[i]).body);
    byTier[site.tier]?.push({ robotsUrl: `${origin}/robots.txt`, body, urls: site.paths.slice(0, urlCount).map((path) => origin + path) });
  });
  return byTier;
}
