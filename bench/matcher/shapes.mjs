/**
 * The crawler mix split by the shape of the ruleset each check is asked of, timed on the WebAssembly matcher for
 * two builds side by side: the rule search costs differently by shape (plain prefixes only, a few wildcard or `$`
 * rules, many, the piece automaton), and URLs with bytes that need percent-normalizing cost more than ASCII ones.
 * A change to one part of the matcher shows in its rows while the mix's average hides it.
 *
 *   node bench/matcher/shapes.mjs BEFORE_DIST [AFTER_DIST] [--runs N] [--time MS]
 *
 * Every (site, agent) of the mix is compiled indexed at once (`forAgent(agent, { indexed: true })`), so that no
 * tier switch lands inside a timed pass; each row keeps its checks in frontier order. Builds alternate process by
 * process (run 1 of both, then run 2, …); the report gives each row's median ns per check per build and the
 * median of the per-run ratios with their spread. AFTER_DIST defaults to ./dist.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusDirectory, expectedDirectory } from '../../harness/corpus.mjs';
import { spread } from '../lib/format.mjs';
import { median } from '../lib/median.mjs';
import { timePass } from '../lib/time-pass.mjs';
import { step } from '../lib/worker-step.mjs';
import { Inputs } from '../lib/inputs.mjs';
import { loadLibrary } from '../lib/engines/robotstxt-wasm.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SELF = fileURLToPath(import.meta.url);

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
 * One process: every row timed once for the build in <dir>/dist, starting from row `rotation` (each run starts
 * from another, so that no row is always the one timed on a cold process).
 * @param {string} dir @param {number} timeMs @param {number} rotation
 */
async function child(dir, timeMs, rotation) {
  const lib = await loadLibrary(dir, 'wasm');
  const inputs = new Inputs(dir);
  const { agents } = inputs.workloads.crawler;
  const compiled = inputs.bodies.map((body) => {
    const robots = lib.parseRobotsTxt(body);
    return agents.map((agent) => {
      const rules = robots.forAgent(agent, { indexed: true });
      return { rules, shape: shapeOf(rules.rules) };
    });
  });
  /** @type {{ rules: import('../lib/engines/robotstxt-wasm.mjs').AgentRules, url: string }[][]} */
  const rows = ROWS.map(() => []);
  for (const check of inputs.frontier) {
    const entry = /** @type {{ rules: import('../lib/engines/robotstxt-wasm.mjs').AgentRules, shape: number }} */ (
      compiled[check.site]?.[check.agentIndex]
    );
    const item = { rules: entry.rules, url: check.url };
    rows[entry.shape]?.push(item);
    rows[needsNormalizing(check.url) ? 5 : 4]?.push(item);
    rows[6]?.push(item);
  }
  /** @type {Record<string, { checks: number, ns: number, checksum: number }>} */
  const result = {};
  for (let k = 0; k < rows.length; k++) {
    const i = (k + rotation) % rows.length;
    const checks = /** @type {{ rules: import('../lib/engines/robotstxt-wasm.mjs').AgentRules, url: string }[]} */ (rows[i]);
    const name = /** @type {string} */ (ROWS[i]);
    const pass = {
      ops: checks.length,
      unit: /** @type {const} */ ('checks'),
      run() {
        let allowed = 0;
        for (const check of checks) if (check.rules.isAllowed(check.url)) allowed++;
        return allowed;
      },
    };
    const timing = await timePass(pass, name, timeMs);
    result[name] = { checks: checks.length, ns: 1e9 / timing.perSecond, checksum: timing.checksum };
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** @param {string} name @param {number} fallback */
function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : Number(process.argv[at + 1]);
}

function main() {
  const positional = process.argv.slice(2).filter((arg, i, all) => !arg.startsWith('--') && !all[i - 1]?.startsWith('--'));
  const [beforeDist, afterDist = join(ROOT, 'dist')] = positional.map((path) => resolve(path));
  if (beforeDist === undefined || !existsSync(join(beforeDist, 'index.js')) || !existsSync(join(afterDist, 'index.js'))) {
    console.error('usage: node bench/matcher/shapes.mjs BEFORE_DIST [AFTER_DIST] [--runs N] [--time MS] (each a built dist/ directory)');
    process.exitCode = 2;
    return;
  }
  if (corpusDirectory() === undefined) {
    console.log(`Shapes skipped: robots corpus not found at ${expectedDirectory()}; set ROBOTS_CORPUS to run it.`);
    return;
  }
  const runs = option('--runs', 3);
  const timeMs = option('--time', 500);
  const loadBefore = loadavg()[0] ?? 0;
  const dirs = { before: mkdtempSync(join(tmpdir(), 'robotstxt-before-')), after: mkdtempSync(join(tmpdir(), 'robotstxt-after-')) };
  try {
    cpSync(beforeDist, join(dirs.before, 'dist'), { recursive: true });
    cpSync(afterDist, join(dirs.after, 'dist'), { recursive: true });
    step(['prepare', dirs.after]);
    for (const name of readdirSync(dirs.after))
      if (name !== 'dist') cpSync(join(dirs.after, name), join(dirs.before, name), { recursive: true });
    /** @type {Map<string, { before: number[], after: number[], checks: number, checksum: number }>} */
    const samples = new Map();
    for (let run = 1; run <= runs; run++) {
      for (const build of /** @type {const} */ (['before', 'after'])) {
        /** @type {Record<string, { checks: number, ns: number, checksum: number }>} */
        const rows = step(['--child', dirs[build], String(timeMs), String(run - 1)], { script: SELF });
        for (const [name, row] of Object.entries(rows)) {
          const entry = samples.get(name) ?? { before: [], after: [], checks: row.checks, checksum: row.checksum };
          if (row.checksum !== entry.checksum) throw new Error(`${name}: the ${build} build decided differently`);
          entry[build].push(row.ns);
          samples.set(name, entry);
        }
      }
      process.stderr.write(`run ${run}/${runs} done\n`);
    }
    const total = samples.get('the whole mix')?.checks ?? 1;
    const lines = [
      `Before ${beforeDist}, after ${afterDist}; ${runs} alternating runs of ${timeMs} ms per row; load average ${loadBefore.toFixed(2)} → ${(loadavg()[0] ?? 0).toFixed(2)}.`,
      '',
      '| checks | share | before (ns per check) | after (ns per check) | after / before (per run) |',
      '| --- | ---: | ---: | ---: | ---: |',
    ];
    for (const name of ROWS) {
      const { before, after, checks } = /** @type {{ before: number[], after: number[], checks: number }} */ (samples.get(name));
      const perRun = after.map((value, i) => value / /** @type {number} */ (before[i]));
      lines.push(
        `| ${name} | ${((100 * checks) / total).toFixed(1)} % | ${median(before).toFixed(0)} | ${median(after).toFixed(0)} | ${`${median(perRun).toFixed(3)} ${spread(perRun)}`.trim()} |`,
      );
    }
    console.log(lines.join('\n'));
  } finally {
    rmSync(dirs.before, { recursive: true, force: true });
    rmSync(dirs.after, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') await child(/** @type {string} */ (process.argv[3]), Number(process.argv[4]), Number(process.argv[5]));
else main();
