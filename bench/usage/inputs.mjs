/**
 * The usage suite's inputs (bench/usage/run.mjs): the corpus as it is, the same files with usage lines added, and
 * the URLs both are asked, all built once per run by the `prepare` step and saved as JSON beside the build's copy,
 * so that every timing process reads the same bytes and URLs.
 *
 * The URLs are the matcher suite's (bench/lib/workloads.mjs), so that these rows stand beside its isAllowed()
 * rows: for "many hosts", each host's first Googlebot URL in the crawler mix, hosts in the order the mix first
 * reaches them (random, seeded); for the hot site, the hot site and its 10,000 URLs.
 *
 * Almost no real file has usage lines (bench/usage/corpus-count.mjs counts them), so the second corpus adds
 * some, drawn by a seeded PRNG: after the last rule of every group that has rules, a path-less Content-Signal
 * line and 1–8 Content-Usage lines whose paths are the group's own rule paths, some turned into `*` patterns
 * (draft-ietf-aipref-attach-05 §3: a usage line is a rule of its group; Content-Signal per
 * https://contentsignals.org/). A file without a group of rules gets a `User-agent: *` group of usage lines at
 * its end. Rules are untouched, so every URL keeps its verdict (the agreement step checks it).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCorpus } from '../../harness/corpus.mjs';
import { concat } from '../../harness/bytes.mjs';
import { mulberry32 } from '../../harness/random.mjs';
import { cappedBody, MAIN_AGENT } from '../lib/workloads.mjs';

/**
 * @typedef {import('../lib/workloads.mjs').Workloads} Workloads
 * @typedef {{ site: number, at: number, block: string }} Insertion `block`: base64 of the bytes put at body offset `at`
 * @typedef {{ files: number, groups: number, contentSignal: number, contentUsage: number, wildcards: number, appendedGroups: number }} LineCounts
 * @typedef {{
 *   fingerprint: string,
 *   corpus: { files: number, bytes: number },
 *   agent: string,
 *   sites: { name: string, origin: string }[],
 *   hosts: { site: number[], path: string[], allowed: number[] },
 *   hot: { site: number, name: string, rules: number, paths: string[], allowed: number[] },
 *   insertions: Insertion[],
 *   lines: LineCounts,
 * }} UsageWorkloads
 * @typedef {'plain' | 'lines'} Variant `plain`: the corpus as it is; `lines`: with usage lines added
 * @typedef {{ robotsUrl: string, body: Uint8Array, url: string }} Host one host of "many hosts", as every engine is given it
 */

/**
 * The suite's tasks: a shape of calls (bench/usage/worker.mjs says what each is), on a variant of the corpus, through
 * a call: our usage() or isAllowed(), or robots-parser's isAllowed().
 * @typedef {(typeof SHAPES)[number]} Shape
 * @typedef {(typeof CALLS)[number]} Call
 */
export const SHAPES = /** @type {const} */ (['hosts', 'hosts-allowed', 'hot', 'hot-allowed', 'cold']);
export const VARIANTS = /** @type {const} */ (['plain', 'lines']);
export const CALLS = /** @type {const} */ (['usage', 'isAllowed', 'robots-parser']);

const SEED = 0x05a9_e2026;
/** Content-Usage lines per group: 1 to this many. */
const MAX_CONTENT_USAGE = 8;
/** The share of Content-Usage paths written with a `*` (where the rule had none). */
const WILDCARD_SHARE = 0.3;
/** Statements of preference as sites write them (draft-ietf-aipref-vocab-07 §6), some with a parameter. */
const CONTENT_USAGE = ['train-ai=n', 'train-ai=y', 'train-ai=n, search=y', 'search=n', 'train-ai=y, search=y', 'train-ai=n;exp=1'];
const CONTENT_SIGNAL = [
  'search=yes, ai-train=no',
  'search=yes, ai-input=no, ai-train=no',
  'ai-train=no',
  'search=yes, ai-input=yes, ai-train=yes',
];

const SPACE = 0x20;
const TAB = 0x09;
const SLASH = 0x2f;
const STAR = 0x2a;
const DOT = 0x2e;
const LF = 0x0a;
const CR = 0x0d;
const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf];

/**
 * Where each line of `body` ends, its line break included, numbered as the parser numbers lines (CR, LF and CRLF
 * each end one; a leading byte order mark, whole or partial, is skipped): `ends[n]` for line n (1-based).
 * @param {Uint8Array} body
 * @returns {number[]}
 */
export function lineEnds(body) {
  let start = 0;
  while (start < BYTE_ORDER_MARK.length && body[start] === BYTE_ORDER_MARK[start]) start++;
  const ends = [start];
  for (let i = start; i < body.length; i++) {
    const byte = body[i];
    if (byte !== LF && byte !== CR) continue;
    if (byte === CR && body[i + 1] === LF) i++;
    ends.push(i + 1);
  }
  // The last line, without a line break (empty when the body ends with one).
  ends.push(body.length);
  return ends;
}

/**
 * A Content-Usage path from a rule's pattern: written with a leading `/` (attach-05 §3.2 reads a value as having
 * a path only when it starts with one), and with `*` in place of its last segment's name for WILDCARD_SHARE of
 * them; undefined for a pattern no path can be made of (empty, or holding a space, which would end the path).
 * @param {Uint8Array} pattern @param {() => number} random
 * @returns {Uint8Array | undefined}
 */
function usagePath(pattern, random) {
  if (pattern.length === 0 || pattern.includes(SPACE) || pattern.includes(TAB)) return undefined;
  const path = pattern[0] === SLASH ? pattern : Uint8Array.from([SLASH, ...pattern]);
  if (path.includes(STAR) || random() >= WILDCARD_SHARE) return path;
  const slash = path.lastIndexOf(SLASH);
  const dot = path.indexOf(DOT, slash);
  // `/a/b.html` → `/a/*.html`, `/a/b` → `/a/*`, `/a/` → `/a/*`.
  return Uint8Array.from([...path.subarray(0, slash + 1), STAR, ...(dot < 0 ? [] : path.subarray(dot))]);
}

/**
 * One group's usage lines: a path-less Content-Signal, then 1–8 Content-Usage lines on the group's rule paths.
 * @param {readonly Uint8Array[]} patterns the group's rule patterns @param {() => number} random @param {LineCounts} counts
 * @returns {Uint8Array[]} the lines' bytes, each with its line break
 */
function usageBlock(patterns, random, counts) {
  const encoder = new TextEncoder();
  /** @param {readonly string[]} items */
  const pick = (items) => /** @type {string} */ (items[Math.floor(random() * items.length)]);
  /** @type {Uint8Array[]} */
  const lines = [encoder.encode(`Content-Signal: ${pick(CONTENT_SIGNAL)}\n`)];
  counts.contentSignal++;
  const paths = patterns.map((pattern) => usagePath(pattern, random)).filter((path) => path !== undefined);
  if (paths.length === 0) paths.push(Uint8Array.of(SLASH));
  const count = 1 + Math.floor(random() * MAX_CONTENT_USAGE);
  for (let i = 0; i < count; i++) {
    const path = /** @type {Uint8Array} */ (paths[Math.floor(random() * paths.length)]);
    if (path.includes(STAR)) counts.wildcards++;
    lines.push(encoder.encode('Content-Usage: '), path, encoder.encode(` ${pick(CONTENT_USAGE)}\n`));
    counts.contentUsage++;
  }
  return lines;
}

/**
 * The usage lines to add to every file, as insertions into its capped body.
 * @param {readonly { name: string, body: Uint8Array }[]} files
 * @param {(body: Uint8Array) => { groups: readonly { rules: readonly { line: number, pattern: Uint8Array }[] }[], dispose(): void }} parseRobotsTxt
 * @returns {{ insertions: Insertion[], lines: LineCounts }}
 */
function generateInsertions(files, parseRobotsTxt) {
  const random = mulberry32(SEED);
  /** @type {LineCounts} */
  const lines = { files: 0, groups: 0, contentSignal: 0, contentUsage: 0, wildcards: 0, appendedGroups: 0 };
  /** @type {Insertion[]} */
  const insertions = [];
  const encoder = new TextEncoder();
  const base64 = (/** @type {Uint8Array} */ bytes) => Buffer.from(bytes).toString('base64');
  files.forEach(({ body }, site) => {
    const capped = cappedBody(body);
    const robots = parseRobotsTxt(capped);
    const ends = lineEnds(capped);
    const withRules = robots.groups.filter((group) => group.rules.length > 0);
    for (const group of withRules) {
      const last = /** @type {{ line: number }} */ (group.rules.at(-1)).line;
      const at = /** @type {number} */ (ends[last]);
      // The last line without a line break gets one, so that the usage lines start a line of their own.
      const broken = at === 0 || capped[at - 1] === LF || capped[at - 1] === CR;
      const block = usageBlock(
        group.rules.map((rule) => rule.pattern),
        random,
        lines,
      );
      insertions.push({ site, at, block: base64(concat(broken ? block : [encoder.encode('\n'), ...block])) });
      lines.groups++;
    }
    if (withRules.length === 0) {
      const broken = capped.length === 0 || capped[capped.length - 1] === LF || capped[capped.length - 1] === CR;
      const block = usageBlock([], random, lines);
      insertions.push({
        site,
        at: capped.length,
        block: base64(concat([encoder.encode(`${broken ? '' : '\n'}User-agent: *\n`), ...block])),
      });
      lines.appendedGroups++;
      lines.groups++;
    }
    lines.files++;
    robots.dispose();
  });
  return { insertions, lines };
}

/**
 * Builds the suite's inputs from the corpus, the matcher suite's workloads (built from the same corpus) and our
 * parser (`parseRobotsTxt` from the build measured).
 * `allowed`: the indexes of the URLs Googlebot may crawl (the same in both corpora), for the rows where every
 * call goes on to read the usage lines.
 * @param {readonly { name: string, body: Uint8Array }[]} files
 * @param {Workloads} workloads
 * @param {(body: Uint8Array) => ReturnType<Parameters<typeof generateInsertions>[1]> & { forAgent(agent: string): { isAllowed(url: string): boolean } }} parseRobotsTxt
 * @returns {UsageWorkloads}
 */
export function buildUsageWorkloads(files, workloads, parseRobotsTxt) {
  /** @type {number[]} */
  const order = [];
  /** @type {string[]} */
  const paths = [];
  const seen = new Set();
  const { site: sites, agent: agents, path: crawlerPaths, agents: agentNames } = workloads.crawler;
  const main = agentNames.indexOf(MAIN_AGENT);
  crawlerPaths.forEach((path, i) => {
    const site = sites[i];
    if (agents[i] !== main || seen.has(site)) return;
    seen.add(site);
    order.push(/** @type {number} */ (site));
    paths.push(path);
  });
  if (order.length !== files.length) throw new Error(`the crawler mix reaches ${order.length} of ${files.length} hosts for ${MAIN_AGENT}`);
  const { insertions, lines } = generateInsertions(files, parseRobotsTxt);
  const { site, name, rules, paths: hotPaths } = workloads.hot;
  /** @param {number} index @param {readonly string[]} urls @returns {number[]} */
  const allowedOf = (index, urls) => {
    const { body } = /** @type {{ body: Uint8Array }} */ (files[index]);
    const robots = parseRobotsTxt(cappedBody(body));
    const rules = robots.forAgent(MAIN_AGENT);
    const allowed = urls.flatMap((url, i) => (rules.isAllowed(url) ? [i] : []));
    robots.dispose();
    return allowed;
  };
  const origin = (/** @type {number} */ index) => /** @type {{ origin: string }} */ (workloads.sites[index]).origin;
  const hostsAllowed = order.flatMap((index, i) => (allowedOf(index, [origin(index) + paths[i]]).length > 0 ? [i] : []));
  const hotAllowed = allowedOf(
    site,
    hotPaths.map((path) => origin(site) + path),
  );
  /** @type {UsageWorkloads} */
  const built = {
    fingerprint: '',
    corpus: workloads.corpus,
    agent: MAIN_AGENT,
    sites: workloads.sites.map((entry) => ({ name: entry.name, origin: entry.origin })),
    hosts: { site: order, path: paths, allowed: hostsAllowed },
    hot: { site, name, rules, paths: hotPaths, allowed: hotAllowed },
    insertions,
    lines,
  };
  built.fingerprint = createHash('sha256').update(JSON.stringify(built)).digest('hex').slice(0, 12);
  return built;
}

/**
 * The inputs in the form the passes ask with, built on first use (before any timing) from the JSON `prepare`
 * saved and the corpus.
 */
export class UsageInputs {
  /** @type {Partial<Record<Variant, Uint8Array[]>>} */
  #bodies = {};
  /** @param {string} dir where `prepare` wrote usage.json, beside the snapshot of dist/ */
  constructor(dir) {
    this.dir = dir;
    /** @type {UsageWorkloads} */
    this.workloads = JSON.parse(readFileSync(join(dir, 'usage.json'), 'utf8'));
  }

  /**
   * Every capped corpus body, indexed like `workloads.sites`, as it is or with the usage lines (cut again at the
   * parser's limit, so that every engine reads the same bytes); refuses a corpus that changed since `prepare`.
   * @param {Variant} variant
   */
  bodies(variant) {
    let bodies = this.#bodies[variant];
    if (bodies === undefined) {
      const files = loadCorpus();
      const { sites } = this.workloads;
      if (files.length !== sites.length || files.some((file, i) => file.name !== sites[i]?.name))
        throw new Error('the corpus changed since the usage inputs were built; run the benchmark again');
      bodies = files.map((file) => cappedBody(file.body));
      if (variant === 'lines') bodies = withUsageLines(bodies, this.workloads.insertions);
      this.#bodies[variant] = bodies;
    }
    return bodies;
  }

  /**
   * "Many hosts": every host once, in the crawler mix's order, with its one URL; with `allowedOnly`, only the
   * hosts whose URL may be crawled.
   * @param {Variant} variant @param {boolean} [allowedOnly] @returns {Host[]}
   */
  hosts(variant, allowedOnly = false) {
    const bodies = this.bodies(variant);
    const { site: order, path: paths, allowed } = this.workloads.hosts;
    const hosts = order.map((site, i) => {
      const { origin } = /** @type {{ origin: string }} */ (this.workloads.sites[site]);
      return { robotsUrl: `${origin}/robots.txt`, body: /** @type {Uint8Array} */ (bodies[site]), url: origin + paths[i] };
    });
    return allowedOnly ? allowed.map((i) => /** @type {Host} */ (hosts[i])) : hosts;
  }

  /**
   * The hot site's body and its URLs; with `allowedOnly`, only those that may be crawled.
   * @param {Variant} variant @param {boolean} [allowedOnly]
   */
  hot(variant, allowedOnly = false) {
    const { site, paths, allowed } = this.workloads.hot;
    const { origin } = /** @type {{ origin: string }} */ (this.workloads.sites[site]);
    const urls = paths.map((path) => origin + path);
    return {
      robotsUrl: `${origin}/robots.txt`,
      body: /** @type {Uint8Array} */ (this.bodies(variant)[site]),
      urls: allowedOnly ? allowed.map((i) => /** @type {string} */ (urls[i])) : urls,
    };
  }
}

/**
 * The bodies with the insertions made (each file's in ascending offset order, as generated), cut at the parser's limit.
 * @param {readonly Uint8Array[]} bodies @param {readonly Insertion[]} insertions
 */
export function withUsageLines(bodies, insertions) {
  /** @type {Map<number, Insertion[]>} */
  const bySite = new Map();
  for (const insertion of insertions) bySite.set(insertion.site, [...(bySite.get(insertion.site) ?? []), insertion]);
  return bodies.map((body, site) => {
    const own = bySite.get(site);
    if (own === undefined) return body;
    /** @type {Uint8Array[]} */
    const parts = [];
    let from = 0;
    for (const { at, block } of own) {
      parts.push(body.subarray(from, at), new Uint8Array(Buffer.from(block, 'base64')));
      from = at;
    }
    parts.push(body.subarray(from));
    return cappedBody(concat(parts));
  });
}
