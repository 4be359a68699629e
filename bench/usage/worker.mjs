/**
 * One step of the usage suite per process, started by bench/usage/run.mjs (through bench/lib/worker-step.mjs): each
 * timing on a fresh VM, so that one call's JIT state and garbage never weigh on another's. A timing process loads
 * one engine: ours (usage() or isAllowed()) or robots-parser (isAllowed(), for reference: it has no usage API).
 *
 *   node bench/usage/worker.mjs prepare   <dir>                                   builds <dir>/usage.json
 *   node bench/usage/worker.mjs agreement <dir>                                   what the calls decide, compared
 *   node bench/usage/worker.mjs time      <dir> <shape> <variant> <call> <ms>
 *
 * Shapes, each on the corpus as it is (`plain`) and with usage lines added (`lines`, bench/usage/inputs.mjs):
 * - `hosts`: many hosts, random order, one URL per host: every corpus file parsed and its Googlebot rules taken
 *   beforehand (a crawler's cache), then one call per host per pass, each call on another host;
 * - `hot`: one hot site (the matcher suite's), its 10,000 URLs one call each;
 * - `hosts-allowed`, `hot-allowed`: the same with only the URLs that may be crawled (most of the mix's URLs are on
 *   Disallow rules' paths, and usage() answers those null after one verdict): every call reads the usage lines;
 * - `cold`: a host met cold: its bytes parsed, its Googlebot rules taken, one call, dispose(), every host in turn.
 *
 * The result is the last line of stdout, as JSON; anything else goes to stderr.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCorpus } from '../../harness/corpus.mjs';
import { loadRobotsParser } from '../lib/engines/robots-parser.mjs';
import { importLibrary, loadLibrary } from '../lib/engines/robotstxt-wasm.mjs';
import { timePass } from '../lib/time-pass.mjs';
import { buildWorkloads, MAIN_AGENT } from '../lib/workloads.mjs';
import { buildUsageWorkloads, CALLS, SHAPES, UsageInputs, VARIANTS } from './inputs.mjs';

/**
 * @typedef {import('../lib/engines/engine.mjs').Pass} Pass
 * @typedef {import('../lib/time-pass.mjs').PassTiming} PassTiming
 * @typedef {import('./inputs.mjs').Variant} Variant
 * @typedef {import('./inputs.mjs').LineCounts} LineCounts
 * @typedef {import('./inputs.mjs').Shape} Shape
 * @typedef {import('./inputs.mjs').Call} Call
 * @typedef {PassTiming & { shape: Shape, variant: Variant, call: Call }} Timing
 * What the steps answer, read by bench/usage/run.mjs.
 * @typedef {{ fingerprint: string, corpus: { files: number, bytes: number }, hot: { name: string, rules: number, urls: number }, lines: LineCounts }} Prepared
 * @typedef {{
 *   urls: number, allowed: number, nullMatches: number, sameVerdicts: number, withStatements: number, byPath: number,
 *   robotsParserSame: number, robotsParserVariantsSame: number,
 * }} VariantAgreement per shape's URLs: `nullMatches`, URLs where usage() is null exactly when isAllowed() is false;
 * `sameVerdicts`, URLs whose isAllowed() is the same in both variants; `withStatements`, answers naming a line;
 * `byPath`, answers naming a Content-Usage line with a path; `robotsParserSame`, robots-parser verdicts equal to
 * ours; `robotsParserVariantsSame`, robots-parser verdicts equal in both variants.
 * @typedef {Record<'hosts' | 'hot', Record<Variant, VariantAgreement>>} Agreement
 */

/**
 * Untimed passes over "many hosts" before timing: more than the 24 checks (8 answered from the rules as written,
 * 16 by the scan) after which any host's rules are in their last tier, so that every run times the same tiers
 * (the matcher suite's crawler mix is timed in that state too). The `cold` shape is the first check.
 */
const WARM_PASSES = 32;

/** @param {unknown} result */
function reply(result) {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** @param {string} dir */
async function prepare(dir) {
  const { parseRobotsTxt } = await importLibrary(dir);
  const files = loadCorpus();
  const workloads = buildUsageWorkloads(files, buildWorkloads(files, parseRobotsTxt), parseRobotsTxt);
  writeFileSync(join(dir, 'usage.json'), JSON.stringify(workloads));
  /** @type {Prepared} */
  const prepared = {
    fingerprint: workloads.fingerprint,
    corpus: workloads.corpus,
    hot: { name: workloads.hot.name, rules: workloads.hot.rules, urls: workloads.hot.paths.length },
    lines: workloads.lines,
  };
  reply(prepared);
}

/**
 * What usage() and isAllowed() answer on both shapes' URLs (fresh rules), and robots-parser's verdicts: usage() must
 * be null exactly where isAllowed() is false, and adding usage lines must change no verdict.
 * @param {string} dir
 */
async function agreement(dir) {
  const inputs = new UsageInputs(dir);
  const { parseRobotsTxt } = await loadLibrary(dir, 'wasm');
  const robotsParser = await loadRobotsParser();
  const decoder = new TextDecoder();
  const agent = MAIN_AGENT;
  /** @type {Record<'hosts' | 'hot', Record<Variant, { body: Uint8Array, robotsUrl: string, url: string }[]>>} */
  const cases = { hosts: { plain: [], lines: [] }, hot: { plain: [], lines: [] } };
  for (const variant of VARIANTS) {
    cases.hosts[variant] = inputs.hosts(variant);
    const hot = inputs.hot(variant);
    cases.hot[variant] = hot.urls.map((url) => ({ body: hot.body, robotsUrl: hot.robotsUrl, url }));
  }
  /** @type {Map<Uint8Array, { ours: import('../lib/engines/robotstxt-wasm.mjs').AgentRules, theirs: { isAllowed(url: string, ua?: string): boolean | undefined } }>} */
  const parsed = new Map();
  /** @param {{ body: Uint8Array, robotsUrl: string }} host */
  const rulesOf = (host) => {
    let entry = parsed.get(host.body);
    if (entry === undefined) {
      entry = { ours: parseRobotsTxt(host.body).forAgent(agent), theirs: robotsParser(host.robotsUrl, decoder.decode(host.body)) };
      parsed.set(host.body, entry);
    }
    return entry;
  };
  /** @type {Partial<Agreement>} */
  const summary = {};
  for (const shape of /** @type {const} */ (['hosts', 'hot'])) {
    /** @type {Record<Variant, boolean[]>} */
    const verdicts = { plain: [], lines: [] };
    /** @type {Record<Variant, (boolean | undefined)[]>} */
    const theirVerdicts = { plain: [], lines: [] };
    /** @type {Partial<Record<Variant, VariantAgreement>>} */
    const byVariant = {};
    for (const variant of VARIANTS) {
      const list = cases[shape][variant];
      let allowed = 0;
      let nullMatches = 0;
      let withStatements = 0;
      let byPath = 0;
      let robotsParserSame = 0;
      for (const host of list) {
        const { ours, theirs } = rulesOf(host);
        const answer = ours.usage(host.url);
        const verdict = ours.isAllowed(host.url);
        const their = theirs.isAllowed(host.url, agent);
        verdicts[variant].push(verdict);
        theirVerdicts[variant].push(their);
        if (verdict) allowed++;
        if ((answer === null) === !verdict) nullMatches++;
        if (answer !== null && answer.statements.length > 0) withStatements++;
        if (answer?.statements.some((statement) => statement.source === 'content-usage' && statement.path !== undefined)) byPath++;
        if (their === verdict) robotsParserSame++;
      }
      byVariant[variant] = {
        urls: list.length,
        allowed,
        nullMatches,
        sameVerdicts: 0,
        withStatements,
        byPath,
        robotsParserSame,
        robotsParserVariantsSame: 0,
      };
    }
    const sameVerdicts = verdicts.plain.filter((verdict, i) => verdict === verdicts.lines[i]).length;
    const robotsParserVariantsSame = theirVerdicts.plain.filter((verdict, i) => verdict === theirVerdicts.lines[i]).length;
    for (const variant of VARIANTS)
      Object.assign(/** @type {VariantAgreement} */ (byVariant[variant]), { sameVerdicts, robotsParserVariantsSame });
    summary[shape] = /** @type {Record<Variant, VariantAgreement>} */ (byVariant);
  }
  reply(summary);
}

/**
 * The pass of one (shape, variant, call), built before timing.
 * @param {UsageInputs} inputs @param {Shape} shape @param {Variant} variant @param {Call} call
 * @returns {Promise<Pass>}
 */
async function buildPass(inputs, shape, variant, call) {
  const agent = MAIN_AGENT;
  const allowedOnly = shape === 'hosts-allowed' || shape === 'hot-allowed';
  if (call === 'robots-parser') {
    const parse = await loadRobotsParser();
    const decoder = new TextDecoder();
    if (shape === 'cold') {
      const hosts = inputs.hosts(variant);
      return {
        ops: hosts.length,
        unit: 'files',
        // It takes text: from bytes, as a crawler receives them, decoding is part of the way to a verdict.
        run() {
          let allowed = 0;
          for (const host of hosts) if (parse(host.robotsUrl, decoder.decode(host.body)).isAllowed(host.url, agent) === true) allowed++;
          return allowed;
        },
      };
    }
    if (shape === 'hosts' || shape === 'hosts-allowed') {
      const checks = inputs
        .hosts(variant, allowedOnly)
        .map((host) => ({ robots: parse(host.robotsUrl, decoder.decode(host.body)), url: host.url }));
      return {
        ops: checks.length,
        unit: 'checks',
        run() {
          let allowed = 0;
          for (const check of checks) if (check.robots.isAllowed(check.url, agent) === true) allowed++;
          return allowed;
        },
      };
    }
    const { robotsUrl, body, urls } = inputs.hot(variant, allowedOnly);
    const robots = parse(robotsUrl, decoder.decode(body));
    return {
      ops: urls.length,
      unit: 'checks',
      run() {
        let allowed = 0;
        for (const url of urls) if (robots.isAllowed(url, agent) === true) allowed++;
        return allowed;
      },
    };
  }

  const { parseRobotsTxt } = await loadLibrary(inputs.dir, 'wasm');
  // Each loop is written out for its call, not through a callback, so that usage() and isAllowed() are equally
  // tight; each counts the URLs that may be crawled (usage() not null), so both passes of a shape answer alike.
  if (shape === 'cold') {
    const hosts = inputs.hosts(variant);
    return {
      ops: hosts.length,
      unit: 'files',
      run:
        call === 'usage'
          ? () => {
              let allowed = 0;
              for (const host of hosts) {
                const robots = parseRobotsTxt(host.body);
                if (robots.forAgent(agent).usage(host.url) !== null) allowed++;
                robots.dispose();
              }
              return allowed;
            }
          : () => {
              let allowed = 0;
              for (const host of hosts) {
                const robots = parseRobotsTxt(host.body);
                if (robots.forAgent(agent).isAllowed(host.url)) allowed++;
                robots.dispose();
              }
              return allowed;
            },
    };
  }
  if (shape === 'hosts' || shape === 'hosts-allowed') {
    const checks = inputs.hosts(variant, allowedOnly).map((host) => ({ rules: parseRobotsTxt(host.body).forAgent(agent), url: host.url }));
    /** @type {Pass} */
    const pass = {
      ops: checks.length,
      unit: 'checks',
      run:
        call === 'usage'
          ? () => {
              let allowed = 0;
              for (const check of checks) if (check.rules.usage(check.url) !== null) allowed++;
              return allowed;
            }
          : () => {
              let allowed = 0;
              for (const check of checks) if (check.rules.isAllowed(check.url)) allowed++;
              return allowed;
            },
    };
    for (let i = 0; i < WARM_PASSES; i++) pass.run();
    return pass;
  }
  const { body, urls } = inputs.hot(variant, allowedOnly);
  const rules = parseRobotsTxt(body).forAgent(agent);
  /** @type {Pass} */
  const pass = {
    ops: urls.length,
    unit: 'checks',
    run:
      call === 'usage'
        ? () => {
            let allowed = 0;
            for (const url of urls) if (rules.usage(url) !== null) allowed++;
            return allowed;
          }
        : () => {
            let allowed = 0;
            for (const url of urls) if (rules.isAllowed(url)) allowed++;
            return allowed;
          },
  };
  // More checks than any tier answers before the last (the whole hot site is asked per pass).
  for (let i = 0; i < Math.ceil(WARM_PASSES / urls.length); i++) pass.run();
  return pass;
}

/**
 * @template {string} T
 * @param {readonly T[]} known @param {string | undefined} value @param {string} what
 * @returns {T}
 */
function oneOf(known, value, what) {
  const found = known.find((candidate) => candidate === value);
  if (found === undefined) throw new Error(`bench/usage/worker.mjs: ${what} must be one of ${known.join(', ')}, got ${value}`);
  return found;
}

const [command, dir, ...rest] = process.argv.slice(2);
if (dir === undefined) throw new Error('usage: node bench/usage/worker.mjs <command> <dir> …');
switch (command) {
  case 'prepare':
    await prepare(dir);
    break;
  case 'agreement':
    await agreement(dir);
    break;
  case 'time': {
    const shape = oneOf(SHAPES, rest[0], 'shape');
    const variant = oneOf(VARIANTS, rest[1], 'variant');
    const call = oneOf(CALLS, rest[2], 'call');
    const pass = await buildPass(new UsageInputs(dir), shape, variant, call);
    /** @type {Timing} */
    const timing = { shape, variant, call, ...(await timePass(pass, `${shape}/${variant}/${call}`, Number(rest[3]))) };
    reply(timing);
    break;
  }
  default:
    throw new Error(`unknown command ${command}`);
}
