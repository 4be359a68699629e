/**
 * The engines of the cold path (bench/cold/run.mjs): from a host's robots.txt bytes to its first verdicts, one
 * fresh parse per host. Each engine's loop is written out on its own, not through a shared helper taking a
 * callback, so that all are equally tight (as bench/lib/engines/ does for the other workloads); `run` returns how
 * many URLs it found allowed, which depends on every check, and `verdict` answers one URL of one host for the
 * untimed pass that records what the engine decided.
 *
 * - `native`: `parseRobotsTxt(bytes).forAgent(agent)`, the checks, `dispose()`: what a crawler meeting a host does.
 * - `indexed`: the same with the indexed tier forced (`forAgent(agent, { indexed: true })`), on builds that have
 *   tiers; a build without them is always indexed, and answers `features` with `indexed: false`.
 * - `drop-in`: `robotsParser(url, text).isAllowed(u, agent)` from the build's `compat/robots-parser`.
 * - `robots-parser`: the package itself. Both take text: the bytes are decoded inside the timing, as a crawler
 *   holding bytes must.
 */
import { importLibrary } from '../lib/engines/robotstxt-wasm.mjs';
import { loadDropIn, loadRobotsParser } from '../lib/engines/robots-parser.mjs';
import { MAIN_AGENT } from '../lib/workloads.mjs';

/**
 * @typedef {import('../lib/cold-inputs.mjs').ColdFile} ColdFile
 * @typedef {import('../lib/engines/robotstxt-wasm.mjs').Library} Library
 * @typedef {import('../lib/engines/robotstxt-wasm.mjs').AgentRules} AgentRules
 * @typedef {import('../lib/engines/robots-parser.mjs').RobotsParser} RobotsParser
 * What a tiered build adds to AgentRules and forAgent; typed here, not from src/, so that bench/ type-checks
 * against a source with or without tiers.
 * @typedef {AgentRules & { tier?: string }} TieredRules
 * @typedef {{ forAgent(agent: string, options?: { indexed?: boolean }): TieredRules, dispose(): void }} TieredRobots
 * @typedef {'native' | 'indexed' | 'drop-in' | 'robots-parser'} ColdEngineName
 * @typedef {{
 *   run: (files: readonly ColdFile[]) => number,
 *   verdict: (file: ColdFile, url: string) => 0 | 1 | 2,
 *   tier?: (file: ColdFile) => string,
 * }} ColdEngine `tier`: the tier a host's rules are in after its checks, on a build that says (ours only)
 */

export const COLD_ENGINES = /** @type {const} */ (['native', 'indexed', 'drop-in', 'robots-parser']);
const FORCED = /** @type {const} */ ({ indexed: true });

/** @param {Library} lib @param {Uint8Array} body @returns {TieredRobots} */
function tieredParse(lib, body) {
  return /** @type {TieredRobots} */ (/** @type {unknown} */ (lib.parseRobotsTxt(body)));
}

/**
 * Whether the build in `dir` has the tiers (its rules say which they answer in): without them, forcing the
 * indexed tier means nothing and its rows are "n/a".
 * @param {string} dir
 */
export async function hasTiers(dir) {
  const robots = tieredParse(await importLibrary(dir), new TextEncoder().encode('User-agent: *\nDisallow: /x\n'));
  const tiered = 'tier' in robots.forAgent(MAIN_AGENT, FORCED);
  robots.dispose();
  return tiered;
}

/** @param {Library} lib @returns {ColdEngine} */
function native(lib) {
  const { parseRobotsTxt } = lib;
  return {
    run(files) {
      let allowed = 0;
      for (const file of files) {
        const robots = parseRobotsTxt(file.body);
        const rules = robots.forAgent(MAIN_AGENT);
        for (const url of file.urls) if (rules.isAllowed(url)) allowed++;
        robots.dispose();
      }
      return allowed;
    },
    verdict(file, url) {
      const robots = parseRobotsTxt(file.body);
      const allowed = robots.forAgent(MAIN_AGENT).isAllowed(url);
      robots.dispose();
      return allowed ? 1 : 0;
    },
    tier(file) {
      const robots = tieredParse(lib, file.body);
      const rules = robots.forAgent(MAIN_AGENT);
      // Read after the host's checks: a tiered build may move its rules to another tier as they are asked.
      for (const url of file.urls) rules.isAllowed(url);
      const tier = rules.tier ?? 'indexed (untiered build)';
      robots.dispose();
      return tier;
    },
  };
}

/** @param {Library} lib @returns {ColdEngine} */
function indexed(lib) {
  return {
    run(files) {
      let allowed = 0;
      for (const file of files) {
        const robots = tieredParse(lib, file.body);
        const rules = robots.forAgent(MAIN_AGENT, FORCED);
        for (const url of file.urls) if (rules.isAllowed(url)) allowed++;
        robots.dispose();
      }
      return allowed;
    },
    verdict(file, url) {
      const robots = tieredParse(lib, file.body);
      const allowed = robots.forAgent(MAIN_AGENT, FORCED).isAllowed(url);
      robots.dispose();
      return allowed ? 1 : 0;
    },
    tier(file) {
      const robots = tieredParse(lib, file.body);
      const tier = robots.forAgent(MAIN_AGENT, FORCED).tier ?? 'none';
      robots.dispose();
      return tier;
    },
  };
}

/** @param {RobotsParser} parse @returns {ColdEngine} */
function robotsParserInterface(parse) {
  const decoder = new TextDecoder();
  return {
    run(files) {
      let allowed = 0;
      for (const file of files) {
        const robots = parse(file.robotsUrl, decoder.decode(file.body));
        for (const url of file.urls) if (robots.isAllowed(url, MAIN_AGENT) === true) allowed++;
      }
      return allowed;
    },
    verdict(file, url) {
      // 2: robots-parser's `undefined`, "this URL is not for this robots.txt".
      const verdict = parse(file.robotsUrl, decoder.decode(file.body)).isAllowed(url, MAIN_AGENT);
      return verdict === undefined ? 2 : verdict ? 1 : 0;
    },
  };
}

/**
 * The engine named, loaded from the build copied into `dir` (robots-parser from node_modules).
 * @param {ColdEngineName} name @param {string} dir
 * @returns {Promise<ColdEngine>}
 */
export async function loadColdEngine(name, dir) {
  switch (name) {
    case 'native':
      return native(await importLibrary(dir));
    case 'indexed':
      if (!(await hasTiers(dir))) throw new Error('this build has no tiers: its indexed row is n/a');
      return indexed(await importLibrary(dir));
    case 'drop-in':
      return robotsParserInterface(await loadDropIn(dir));
    case 'robots-parser':
      return robotsParserInterface(await loadRobotsParser());
  }
}

/**
 * Parse + compile to the full indexed bytecode for one agent, the whole corpus (target 3), or robots-parser's
 * parse of the text decoded beforehand (its parse builds all it checks with, as the main benchmark's rows).
 * @param {'indexed' | 'robots-parser'} name @param {string} dir @param {readonly ColdFile[]} files the whole corpus
 * @returns {Promise<() => number>} one pass over the corpus
 */
export async function loadCompilePass(name, dir, files) {
  if (name === 'robots-parser') {
    const parse = await loadRobotsParser();
    const decoder = new TextDecoder();
    const texts = files.map((file) => ({ url: file.robotsUrl, text: decoder.decode(file.body) }));
    return () => {
      let parsed = 0;
      for (const { url, text } of texts) if (parse(url, text)) parsed++;
      return parsed;
    };
  }
  const bodies = files.map((file) => file.body);
  const lib = await importLibrary(dir);
  // A build without tiers compiles the full indexed bytecode in plain forAgent, and ignores the option.
  return () => {
    let bytecode = 0;
    for (const body of bodies) {
      const robots = tieredParse(lib, body);
      bytecode += robots.forAgent(MAIN_AGENT, FORCED).byteLength;
      robots.dispose();
    }
    return bytecode;
  };
}
