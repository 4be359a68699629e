/**
 * The crawler mix split by the shape of the ruleset each check is asked of, timed on the WebAssembly matcher for
 * two builds side by side: the rule search costs differently by shape (plain prefixes only, a few wildcard or `$`
 * rules, many, the piece automaton), and URLs with bytes that need percent-normalizing cost more than ASCII ones.
 * A change to one part of the matcher shows in its rows while the mix's average hides it.
 *
 *   node bench/matcher/shapes.mjs BEFORE_DIST [AFTER_DIST] [--rounds N] [--slice MS] [--by-host]
 *
 * Both builds are loaded in one process (each its own module and WebAssembly instance; twice, in two processes
 * that load them in either order) and every (site, agent) of
 * the mix is compiled indexed at once (`forAgent(agent, { indexed: true })`), so that no tier switch lands inside a
 * timed slice; each row keeps its checks in frontier order, or with `--by-host` sorted by host (one ruleset's
 * checks in a row, its tables in cache: the matcher's own work, without the misses of the mix). Per row, short slices of the two builds alternate
 * (before, after, then after, before, …), so that a busy spell of a shared machine weighs on both alike; the report
 * gives each build's median CPU ns per check and the median of the per-round ratios with their spread. AFTER_DIST
 * defaults to ./dist.
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { corpusDirectory, expectedDirectory } from '../../harness/corpus.mjs';
import { spread } from '../lib/format.mjs';
import { median } from '../lib/median.mjs';
import { step } from '../lib/worker-step.mjs';
import { Inputs } from '../lib/inputs.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SELF = fileURLToPath(import.meta.url);

/**
 * @typedef {import('../lib/engines/robotstxt-wasm.mjs').AgentRules} AgentRules
 * @typedef {{ rules: AgentRules, url: string, host: number }} Check
 */

/**
 * Searched-piece cost per path byte from which the compiler adds a piece automaton (AUTOMATON_MIN_COST in
 * src/compile/piece-automaton.ts), estimated here from the patterns as written.
 */
const AUTOMATON_MIN_COST = 1024;

/** The rows, in report order. */
const SHAPES = /** @type {const} */ (['plain prefixes only', '1–8 wildcard or $ rules', '9+ wildcard or $ rules', 'piece automaton']);
const ROWS = [...SHAPES, 'ASCII URLs', 'URLs to percent-normalize', 'the whole mix'];

/**
 * A pattern as the compiler stores it for matching: a trailing `*` dropped (with a `$` after it), `*` runs folded.
 * @param {string} written
 */
function stored(written) {
  let pattern = written.replace(/\*+/g, '*');
  if (pattern.endsWith('*$')) pattern = pattern.slice(0, -1);
  while (pattern.endsWith('*')) pattern = pattern.slice(0, -1);
  return pattern;
}

/**
 * The shape of one agent's rules (see SHAPES).
 * @param {readonly { pattern: string }[]} rules
 */
function shapeOf(rules) {
  let patternRules = 0;
  let cost = 0;
  for (const { pattern: written } of rules) {
    const pattern = stored(written);
    const wildcard = pattern.includes('*');
    if (!wildcard && !pattern.endsWith('$')) continue;
    patternRules++;
    if (!wildcard) continue;
    // The pieces searched after the first `*` (up to the last one when a `$` makes the last a suffix test).
    const anchored = pattern.endsWith('$');
    const searched = pattern.slice(pattern.indexOf('*') + 1, anchored ? pattern.lastIndexOf('*') : pattern.length);
    for (const char of searched) cost += char === '*' ? 8 : 1;
    if (searched.length > 0) cost += 8;
  }
  if (cost >= AUTOMATON_MIN_COST) return 3;
  return patternRules === 0 ? 0 : patternRules <= 8 ? 1 : 2;
}

/** @param {string} url */
const needsNormalizing = (url) => /[%\u0080-\uffff]/.test(url);

/**
 * Every check of the mix, for one build: its ruleset compiled indexed at once, sorted into the rows it belongs to.
 * @param {Inputs} inputs @param {string} dist
 */
async function rowsFor(inputs, dist) {
  const lib = await import(pathToFileURL(join(dist, 'index.js')).href);
  if (lib.setMatcher('wasm') !== 'wasm') throw new Error(`${dist}: no WebAssembly matcher`);
  const { agents } = inputs.workloads.crawler;
  const compiled = inputs.bodies.map((body) => {
    const robots = lib.parseRobotsTxt(body);
    return agents.map((agent) => {
      const rules = robots.forAgent(agent, { indexed: true });
      return { rules, shape: shapeOf(rules.rules) };
    });
  });
  /** @type {Check[][]} */
  const rows = ROWS.map(() => []);
  for (const check of inputs.frontier) {
    const entry = /** @type {{ rules: AgentRules, shape: number }} */ (compiled[check.site]?.[check.agentIndex]);
    const item = { rules: entry.rules, url: check.url, host: check.site * agents.length + check.agentIndex };
    rows[entry.shape]?.push(item);
    rows[needsNormalizing(check.url) ? 5 : 4]?.push(item);
    rows[6]?.push(item);
  }
  // Sorted by host (a stable sort: frontier order within a host), the checks of one ruleset follow each other
  // and its tables stay in cache: what is left is the matcher's work, without the misses of the mix.
  if (process.env.SHAPES_BY_HOST === '1') for (const row of rows) row.sort((a, b) => a.host - b.host);
  return rows;
}

/** @param {Check[]} checks */
function pass(checks) {
  let allowed = 0;
  for (const check of checks) if (check.rules.isAllowed(check.url)) allowed++;
  return allowed;
}

/** CPU time of this process in ms: what a slice costs while other processes share the cores. */
function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Nanoseconds of CPU time per check of one slice: passes over `checks` for at least `sliceMs` of it. CPU time, not
 * wall time: on a machine with more runnable processes than cores, wall time counts the time the process waited.
 * @param {Check[]} checks @param {number} sliceMs
 */
function slice(checks, sliceMs) {
  let passes = 0;
  const started = cpuMs();
  let elapsed = 0;
  do {
    pass(checks);
    passes++;
    elapsed = cpuMs() - started;
  } while (elapsed < sliceMs);
  return (elapsed * 1e6) / (passes * checks.length);
}

/** @param {string} name @param {number} fallback */
function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : Number(process.argv[at + 1]);
}

/**
 * One process's rounds: both builds loaded, `first` (0 before, 1 after) loaded first; per row, each build's CPU ns
 * per check, one sample per round.
 * @param {string} dir @param {[string, string]} dists @param {number} first @param {number} rounds @param {number} sliceMs
 */
async function child(dir, dists, first, rounds, sliceMs) {
  const inputs = new Inputs(dir);
  const loaded = first === 0 ? [await rowsFor(inputs, dists[0]), await rowsFor(inputs, dists[1])] : [];
  if (first !== 0) {
    const after = await rowsFor(inputs, dists[1]);
    loaded.push(await rowsFor(inputs, dists[0]), after);
  }
  /** @type {Record<string, { checks: number, before: number[], after: number[] }>} */
  const result = {};
  for (const [i, name] of ROWS.entries()) {
    const [before, after] = loaded.map((rows) => /** @type {Check[]} */ (rows[i]));
    if (before === undefined || after === undefined || before.length === 0) continue;
    // Both builds must decide alike: a faster build that answers otherwise is not the same library.
    if (pass(before) !== pass(after)) throw new Error(`${name}: the two builds decided differently`);
    /** @type {[number[], number[]]} */
    const times = [[], []];
    for (let round = 0; round < rounds + 2; round++) {
      // The first two rounds warm both builds' code and are not counted; the order alternates by round.
      for (const build of round % 2 === 0 ? [0, 1] : [1, 0]) {
        const ns = slice(build === 0 ? before : after, sliceMs);
        if (round >= 2) times[build]?.push(ns);
      }
    }
    result[name] = { checks: before.length, before: times[0], after: times[1] };
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

async function main() {
  const positional = process.argv.slice(2).filter((arg, i, all) => !arg.startsWith('--') && !all[i - 1]?.startsWith('--'));
  const [beforeDist, afterDist = join(ROOT, 'dist')] = positional.map((path) => resolve(path));
  if (beforeDist === undefined || !existsSync(join(beforeDist, 'index.js')) || !existsSync(join(afterDist, 'index.js'))) {
    console.error('usage: node bench/matcher/shapes.mjs BEFORE_DIST [AFTER_DIST] [--rounds N] [--slice MS] (each a built dist/ directory)');
    process.exitCode = 2;
    return;
  }
  if (corpusDirectory() === undefined) {
    console.log(`Shapes skipped: robots corpus not found at ${expectedDirectory()}; set ROBOTS_CORPUS to run it.`);
    return;
  }
  const rounds = option('--rounds', 10);
  // Read by the child processes.
  if (process.argv.includes('--by-host')) process.env.SHAPES_BY_HOST = '1';
  const sliceMs = option('--slice', 40);
  const loadBefore = loadavg()[0] ?? 0;
  const dir = mkdtempSync(join(tmpdir(), 'robotstxt-shapes-'));
  try {
    // The workloads are built by the after build's parser, as bench/matcher/compare.mjs builds them.
    cpSync(afterDist, join(dir, 'dist'), { recursive: true });
    step(['prepare', dir]);
    /** @type {Map<string, { checks: number, before: number[], after: number[] }>} */
    const samples = new Map();
    // The build loaded first in a process runs a few per cent faster (an A/A run shows it): one process loads the
    // before build first, the other the after build, and their rounds are pooled.
    for (const first of [0, 1]) {
      /** @type {Record<string, { checks: number, before: number[], after: number[] }>} */
      const rows = step(['--child', dir, beforeDist, afterDist, String(first), String(rounds), String(sliceMs)], { script: SELF });
      for (const [name, row] of Object.entries(rows)) {
        const entry = samples.get(name) ?? { checks: row.checks, before: [], after: [] };
        entry.before.push(...row.before);
        entry.after.push(...row.after);
        samples.set(name, entry);
      }
    }
    const total = samples.get('the whole mix')?.checks ?? 1;
    const lines = [
      `Before ${beforeDist}, after ${afterDist}; both builds in each of two processes (each loading another first), ${rounds} rounds each of ${sliceMs} ms CPU-time slices alternating the builds per row${process.env.SHAPES_BY_HOST === '1' ? ', checks sorted by host' : ', frontier order'}; load average ${loadBefore.toFixed(2)} → ${(loadavg()[0] ?? 0).toFixed(2)}.`,
      '',
      '| checks | share | before (CPU ns per check) | after (CPU ns per check) | after / before (median of rounds) |',
      '| --- | ---: | ---: | ---: | ---: |',
    ];
    for (const name of ROWS) {
      const row = samples.get(name);
      if (row === undefined) continue;
      const perRound = row.after.map((value, k) => value / /** @type {number} */ (row.before[k]));
      lines.push(
        `| ${name} | ${((100 * row.checks) / total).toFixed(1)} % | ${median(row.before).toFixed(0)} | ${median(row.after).toFixed(0)} | ${`${median(perRound).toFixed(3)} ${spread(perRound)}`.trim()} |`,
      );
    }
    console.log(lines.join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') {
  const [dir, before, after, first, rounds, sliceMs] = process.argv.slice(3);
  await child(
    /** @type {string} */ (dir),
    [/** @type {string} */ (before), /** @type {string} */ (after)],
    Number(first),
    Number(rounds),
    Number(sliceMs),
  );
} else {
  await main();
}
