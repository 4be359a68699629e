/**
 * This library as built, on either of its matchers: `wasm`, the WebAssembly matcher users get, and
 * `typescript`, the TypeScript executor of the same bytecode (the reference, slow by design). Both run the
 * same loops; only the matcher differs.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MAIN_AGENT } from '../workloads.mjs';
import { outputProbe } from './engine.mjs';

/**
 * The built package's API, which is src/index.ts's (typed from the source, so that checking bench/ needs no build).
 * @typedef {typeof import('../../../src/index.js')} Library
 * @typedef {import('../../../src/index.js').AgentRules} AgentRules
 * @typedef {import('./engine.mjs').Engine} Engine
 * @typedef {import('./engine.mjs').Inputs} Inputs
 */

/**
 * This library as built: the orchestrator copies dist/ into <dir> before the first step, so every process of
 * one run measures the same build even while dist/ is rebuilt underneath (the copy is made once per run).
 * @param {string} dir
 * @returns {Promise<Library>}
 */
export function importLibrary(dir) {
  return import(pathToFileURL(join(dir, 'dist', 'index.js')).href);
}

/**
 * The library with `kind` as its matcher.
 * @param {string} dir @param {'wasm' | 'typescript'} kind
 */
export async function loadLibrary(dir, kind) {
  const lib = await importLibrary(dir);
  // setMatcher answers with the matcher it could get; a silent fallback would mislabel every number.
  const got = lib.setMatcher(kind);
  if (got !== kind) throw new Error(`asked for the ${kind} matcher, got ${got}`);
  return lib;
}

/**
 * `rules` compiled now, in the tier they compile to once their uncompiled verdicts are spent (scan for a small
 * ruleset): since the uncompiled tier (docs/design.md#tiers), forAgent() compiles nothing and the first verdicts are read from the rules as
 * written, so a measurement of compiled rules asks for it. An empty batch compiles and checks nothing; on older
 * builds, whose forAgent() compiled, it does nothing.
 * @template {AgentRules} T @param {T} rules @returns {T}
 */
export function compiledNow(rules) {
  rules.isAllowedMany([]);
  return rules;
}

/** Passes a crawler's steady state waits for, at most: each pass asks every ruleset of the mix a few times. */
const MAX_WARMUP_PASSES = 1000;

/**
 * Runs `run` (a pass over `checks`) until every ruleset it asks is in the indexed tier, the steady state of a
 * crawler that keeps its compiled rules (docs/design.md#tiers: the first checks of each are answered from the
 * rules as written, then by a scan, then through the indexes); what it took is reported with the timing.
 * @param {() => number} run @param {readonly { rules: AgentRules }[]} checks
 * @returns {import('./engine.mjs').Warmup}
 */
function untilIndexed(run, checks) {
  const rulesets = [...new Set(checks.map((check) => check.rules))];
  const started = performance.now();
  let passes = 0;
  while (passes < MAX_WARMUP_PASSES && rulesets.some((rules) => rules.tier !== 'indexed')) {
    run();
    passes++;
  }
  if (passes === MAX_WARMUP_PASSES) throw new Error(`the crawler mix did not reach the indexed tier in ${MAX_WARMUP_PASSES} passes`);
  return { passes, checks: passes * checks.length, ms: performance.now() - started };
}

/** @param {readonly Uint8Array[]} bodies */
function totalBytes(bodies) {
  return bodies.reduce((sum, body) => sum + body.byteLength, 0);
}

/**
 * @param {'wasm' | 'typescript'} kind
 * @param {string} label
 * @returns {Engine}
 */
function ours(kind, label) {
  /** @param {Inputs} inputs */
  const load = (inputs) => loadLibrary(inputs.dir, kind);
  return {
    impl: kind,
    label,
    passes: {
      async parse(inputs) {
        const { parseRobotsTxt } = await load(inputs);
        const { bodies } = inputs;
        return {
          ops: totalBytes(bodies),
          unit: 'bytes',
          run() {
            let groups = 0;
            // Nothing compiled, so nothing to dispose: what the parse made is garbage once counted.
            for (const body of bodies) groups += parseRobotsTxt(body).groups.length;
            return groups;
          },
        };
      },

      async compile(inputs) {
        const { parseRobotsTxt } = await load(inputs);
        const { bodies } = inputs;
        return {
          ops: totalBytes(bodies),
          unit: 'bytes',
          run() {
            let rulesetBytes = 0;
            for (const body of bodies) {
              const robots = parseRobotsTxt(body);
              rulesetBytes += compiledNow(robots.forAgent(MAIN_AGENT)).byteLength;
              robots.dispose();
            }
            return rulesetBytes;
          },
        };
      },

      async first(inputs) {
        const { parseRobotsTxt } = await load(inputs);
        const { body, agent, url } = inputs.typical;
        return {
          ops: 1,
          unit: 'files',
          run() {
            const robots = parseRobotsTxt(body);
            const allowed = robots.isAllowed(url, agent);
            // A crawler would keep the compiled rules for its next URLs; this loop gives their memory back.
            robots.dispose();
            return allowed ? 1 : 0;
          },
        };
      },

      async crawler(inputs) {
        const { parseRobotsTxt } = await load(inputs);
        const { agents } = inputs.workloads.crawler;
        // Compiled once per (site, agent), like a crawler's cache of compiled robots.txt.
        const compiled = inputs.bodies.map((body) => {
          const robots = parseRobotsTxt(body);
          return agents.map((agent) => robots.forAgent(agent));
        });
        const checks = inputs.frontier.map((check) => ({
          rules: /** @type {AgentRules} */ (compiled[check.site]?.[check.agentIndex]),
          url: check.url,
        }));
        const run = () => {
          let allowed = 0;
          for (const check of checks) if (check.rules.isAllowed(check.url)) allowed++;
          return allowed;
        };
        return {
          ops: checks.length,
          unit: 'checks',
          run,
          verdicts: () => Uint8Array.from(checks, (check) => (check.rules.isAllowed(check.url) ? 1 : 0)),
          warmup: untilIndexed(run, checks),
        };
      },

      async hot(inputs) {
        const { parseRobotsTxt } = await load(inputs);
        const { body, agent, urls } = inputs.hot;
        const rules = parseRobotsTxt(body).forAgent(agent);
        return {
          ops: urls.length,
          unit: 'checks',
          run() {
            let allowed = 0;
            for (const url of urls) if (rules.isAllowed(url)) allowed++;
            return allowed;
          },
          verdicts: () => Uint8Array.from(urls, (url) => (rules.isAllowed(url) ? 1 : 0)),
        };
      },

      async 'hot-utf8'(inputs) {
        const { parseRobotsTxt } = await load(inputs);
        const { body, agent, bytes, ranges, urls } = inputs.hot;
        const rules = parseRobotsTxt(body).forAgent(agent);
        // A build from before the single check on bytes has no such pass to time.
        if (typeof rules.isAllowedUtf8 !== 'function') throw new Error('this build has no rules.isAllowedUtf8');
        const count = urls.length;
        /** @param {number} i */
        const check = (i) => rules.isAllowedUtf8(bytes, /** @type {number} */ (ranges[2 * i]), /** @type {number} */ (ranges[2 * i + 1]));
        return {
          ops: count,
          unit: 'checks',
          run() {
            let allowed = 0;
            for (let i = 0; i < count; i++) {
              if (rules.isAllowedUtf8(bytes, /** @type {number} */ (ranges[2 * i]), /** @type {number} */ (ranges[2 * i + 1]))) allowed++;
            }
            return allowed;
          },
          verdicts: () => Uint8Array.from({ length: count }, (_, i) => (check(i) ? 1 : 0)),
        };
      },

      async 'batch-bytes'(inputs) {
        const { parseRobotsTxt } = await load(inputs);
        const { body, agent, bytes, ranges, urls } = inputs.hot;
        const rules = parseRobotsTxt(body).forAgent(agent);
        const out = new Uint8Array(urls.length);
        const probe = outputProbe(out);
        return {
          ops: urls.length,
          unit: 'checks',
          run() {
            rules.isAllowedBytes(bytes, ranges, out);
            return probe();
          },
          verdicts: () => rules.isAllowedBytes(bytes, ranges, new Uint8Array(urls.length)),
        };
      },

      async batch(inputs) {
        const { parseRobotsTxt } = await load(inputs);
        const { body, agent, urls } = inputs.hot;
        const rules = parseRobotsTxt(body).forAgent(agent);
        const out = new Uint8Array(urls.length);
        const probe = outputProbe(out);
        return {
          ops: urls.length,
          unit: 'checks',
          run() {
            rules.isAllowedManyInto(urls, out);
            return probe();
          },
          verdicts: () => rules.isAllowedManyInto(urls, new Uint8Array(urls.length)),
        };
      },
    },
  };
}

export const wasm = ours('wasm', 'robotstxt-wasm (wasm)');
export const typescript = ours('typescript', 'robotstxt-wasm (TS executor)');
