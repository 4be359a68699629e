/**
 * The benchmark's inputs, built from the real-world corpus and nothing else, the same on every machine and
 * every run: a fixed-seed PRNG makes every choice. They are built once per `npm run bench` (by the worker's
 * `prepare` step) and saved as JSON, so that every timed process, ours and the peers', reads identical inputs
 * and no peer's process has to load this library to build them.
 *
 * The URLs come from each site's own rules, as our parser lists them (`forAgent(agent).rules`): a crawler
 * mostly asks about paths near the ones a site cares about, and those are the paths where engines differ in
 * speed (a URL far from every rule is rejected early by any engine).
 */
import { createHash } from 'node:crypto';
import { pathsForPattern } from '../../harness/paths.mjs';
import { mulberry32 } from '../../harness/random.mjs';

/** The parser reads at most this many bytes of a body (its default maxBytes); every engine gets the same cut. */
export const MAX_BODY_BYTES = 512_000;

/** The agent the whole corpus is compiled for, and the hot site and the typical file are asked for. */
export const MAIN_AGENT = 'Googlebot';
export const CRAWLER_AGENTS = /** @type {const} */ ([MAIN_AGENT, 'SomeCrawler']);
/** URLs per (site, agent) in the crawler mix: enough to cover a site's rules, few enough for ~150k checks. */
export const URLS_PER_SITE_AGENT = 24;
/** The hot site is the one whose Googlebot rule count is nearest this (the middle of "hundreds of rules"). */
export const HOT_SITE_TARGET_RULES = 450;
export const HOT_SITE_URLS = 10_000;
/** "A typical file", for bytes → first verdict, is the one whose (capped) size is nearest this. */
export const TYPICAL_FILE_BYTES = 5_000;
const SEED = 0x5eed_2026;

/**
 * @template T
 * @param {T[]} items shuffled in place (Fisher–Yates)
 * @param {() => number} random
 * @returns {T[]}
 */
function shuffle(items, random) {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const item = /** @type {T} */ (items[i]);
    items[i] = /** @type {T} */ (items[j]);
    items[j] = item;
  }
  return items;
}

/**
 * The origin a corpus file was served from. Files are named after the host; a few carry the port as
 * `host_443`, which is written back as `host:443` so that it stays a valid absolute URL.
 * @param {string} name
 */
export function originOf(name) {
  return `https://${name.replace(/_(\d+)$/, ':$1')}`;
}

/**
 * The body every engine parses: the parser's own cut, so that all of them read the same bytes.
 * @param {Uint8Array} body
 */
export function cappedBody(body) {
  return body.subarray(0, MAX_BODY_BYTES);
}

/**
 * @typedef {{ agents: string[], rules: { rule: 'allow' | 'disallow', path: string }[] }} GuardGroup
 * @typedef {{
 *   fingerprint: string,
 *   corpus: { files: number, bytes: number },
 *   sites: { name: string, origin: string, guard: { groups: GuardGroup[] } }[],
 *   crawler: { agents: string[], site: number[], agent: number[], path: string[] },
 *   hot: { site: number, name: string, agent: string, rules: number, paths: string[] },
 *   typical: { site: number, name: string, bytes: number, agent: string, path: string },
 * }} Workloads
 */

/**
 * Builds every workload from the corpus with our parser (`parseRobotsTxt` from dist/).
 * @param {{ name: string, body: Uint8Array }[]} files
 * @param {(body: Uint8Array) => { groups: readonly { agents: readonly { value: string }[], rules: readonly { allow: boolean, pattern: Uint8Array }[] }[], forAgent(agent: string): { rules: readonly { kind: string, pattern: string }[] }, dispose(): void }} parseRobotsTxt
 * @returns {Workloads}
 */
export function buildWorkloads(files, parseRobotsTxt) {
  const random = mulberry32(SEED);
  const decoder = new TextDecoder();
  /** @type {Workloads['sites']} */
  const sites = [];
  /** @type {{ site: number, agent: number, path: string }[]} */
  const checks = [];
  let bytes = 0;
  let hot = { site: -1, rules: -1, patterns: /** @type {string[]} */ ([]) };
  let typical = { site: -1, bytes: -1 };

  files.forEach(({ name, body }, site) => {
    const capped = cappedBody(body);
    bytes += capped.byteLength;
    // Ties go to the first file in name order, as for the hot site.
    if (typical.site < 0 || Math.abs(capped.byteLength - TYPICAL_FILE_BYTES) < Math.abs(typical.bytes - TYPICAL_FILE_BYTES)) {
      typical = { site, bytes: capped.byteLength };
    }
    const robots = parseRobotsTxt(capped);
    // robots-txt-guard has no parser of its own that reads what ours does, so it is given our groups.
    const groups = robots.groups.map((group) => ({
      agents: group.agents.map((agent) => agent.value),
      rules: group.rules.map((rule) => ({
        rule: /** @type {'allow' | 'disallow'} */ (rule.allow ? 'allow' : 'disallow'),
        path: decoder.decode(rule.pattern),
      })),
    }));
    sites.push({ name, origin: originOf(name), guard: { groups } });

    CRAWLER_AGENTS.forEach((agentName, agent) => {
      const patterns = robots.forAgent(agentName).rules.map((rule) => rule.pattern);
      if (agent === 0) {
        const distance = Math.abs(patterns.length - HOT_SITE_TARGET_RULES);
        // Ties go to the first file in name order, so the choice is stable.
        if (hot.site < 0 || distance < Math.abs(hot.rules - HOT_SITE_TARGET_RULES)) {
          hot = { site, rules: patterns.length, patterns };
        }
      }
      // The home page is asked of every site, including those without rules.
      const candidates = [...new Set(['/', ...patterns.flatMap(pathsForPattern)])];
      const chosen = shuffle(candidates, random).slice(0, URLS_PER_SITE_AGENT);
      for (const path of chosen) checks.push({ site, agent, path });
    });
    robots.dispose();
  });

  // A crawler's frontier interleaves sites: every check is shuffled across all of them.
  shuffle(checks, random);
  // The typical file's first verdict is asked for the URL the frontier reaches first on that site for Googlebot
  // (every site has at least its home page there).
  const firstCheck = /** @type {{ path: string }} */ (checks.find((check) => check.site === typical.site && check.agent === 0));

  const hotCandidates = [...new Set(hot.patterns.flatMap(pathsForPattern))];
  /** @type {string[]} */
  const hotPaths = [];
  for (let i = 0; i < HOT_SITE_URLS; i++) {
    const base = /** @type {string} */ (hotCandidates[Math.floor(random() * hotCandidates.length)]);
    // Distinct strings, as a crawler's would be; some stay on the rule's own path, some go past it.
    const variant = Math.floor(random() * 3);
    hotPaths.push(variant === 0 ? base : variant === 1 ? `${base}${base.includes('?') ? '&' : '?'}id=${i}` : `${base}/${i}.html`);
  }

  const workloads = {
    fingerprint: '',
    corpus: { files: files.length, bytes },
    sites,
    crawler: {
      agents: [...CRAWLER_AGENTS],
      site: checks.map((check) => check.site),
      agent: checks.map((check) => check.agent),
      path: checks.map((check) => check.path),
    },
    hot: {
      site: hot.site,
      name: /** @type {{ name: string }} */ (files[hot.site]).name,
      agent: MAIN_AGENT,
      rules: hot.rules,
      paths: hotPaths,
    },
    typical: {
      site: typical.site,
      name: /** @type {{ name: string }} */ (files[typical.site]).name,
      bytes: typical.bytes,
      agent: MAIN_AGENT,
      path: firstCheck.path,
    },
  };
  // Identifies the inputs in RESULTS.md: numbers from two runs compare only when this matches.
  workloads.fingerprint = createHash('sha256').update(JSON.stringify(workloads)).digest('hex').slice(0, 12);
  return workloads;
}
