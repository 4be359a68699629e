/**
 * `npm run bench:cold`: the cold path, from a host's robots.txt bytes to its first verdicts, over
 * every corpus file, per size tier, with 1 and 8 URLs per host: our native entry (and its indexed tier forced,
 * on builds that have tiers), our robots-parser drop-in, and robots-parser itself, side by side in one run;
 * then target 3 (parse + compile to the full indexed bytecode against robots-parser's parse). Prints the
 * "Cold path" section of bench/RESULTS.md (bench/cold/report.mjs); `--write` puts it there.
 *
 *   node bench/cold/run.mjs [--dist DIR] [--before DIR] [--runs N] [--time MS] [--quick] [--write]
 *
 * --dist: the build measured (./dist by default); --before: a second build, timed interleaved with it (run 1 of
 * every task for both, then run 2, …) and required to decide every URL alike. Each task runs in its own
 * process (bench/cold/worker.mjs); --time is each process's timed budget (it times at least 5 passes).
 * --quick: 2 runs, short budgets, to try it out (not for RESULTS.md).
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COLD_ENGINES } from './engines.mjs';
import { TIERS, URL_COUNTS } from '../lib/cold-inputs.mjs';
import { coldKey, compileKey, PEER, renderCold, TITLE } from './report.mjs';
import { RESULTS, writeSection } from '../lib/results.mjs';
import { corpusDirectory, expectedDirectory } from '../../harness/corpus.mjs';
import { machine } from '../lib/machine.mjs';
import { step } from '../lib/worker-step.mjs';

/**
 * @typedef {import('./worker.mjs').ColdTiming} ColdTiming
 * @typedef {import('./worker.mjs').CompileTiming} CompileTiming
 * @typedef {import('./report.mjs').Build} Build
 * @typedef {import('./report.mjs').ColdResults} ColdResults
 * @typedef {import('./report.mjs').VerdictCheck} VerdictCheck
 * @typedef {import('../lib/cold-inputs.mjs').ColdInputs} ColdInputs
 * @typedef {import('../lib/cold-inputs.mjs').ColdSite} ColdSite
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WORKER = fileURLToPath(new URL('./worker.mjs', import.meta.url));

/** @param {string} name @returns {string | undefined} */
function option(name) {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}

/** @param {string} line */
function log(line) {
  process.stderr.write(`${line}\n`);
}

/** @param {string} dir @template T @param {string[]} args @returns {T} */
function coldStep(dir, ...args) {
  const [command, ...rest] = args;
  return step([/** @type {string} */ (command), dir, ...rest], { script: WORKER });
}

/** @param {string} dist a built dist/ directory, copied so that a rebuild during the run changes nothing */
function snapshot(dist) {
  const dir = mkdtempSync(join(tmpdir(), 'robotstxt-cold-'));
  cpSync(dist, join(dir, 'dist'), { recursive: true });
  const hash = createHash('sha256')
    .update(readFileSync(join(dir, 'dist', 'index.js')))
    .digest('hex')
    .slice(0, 12);
  return { dir, hash, tiers: /** @type {{ tiers: boolean }} */ (coldStep(dir, 'features')).tiers };
}

/**
 * How far two verdict strings agree; `examples` names the first differing hosts and paths.
 * @param {string} ours @param {string} theirs @param {number} urls @param {readonly ColdSite[]} sites
 */
function compareVerdicts(ours, theirs, urls, sites) {
  let differ = 0;
  /** @type {string[]} */
  const examples = [];
  for (let i = 0; i < ours.length; i++) {
    if (ours[i] === theirs[i]) continue;
    differ++;
    const site = sites[Math.floor(i / urls)];
    if (examples.length < 3) examples.push(`\`${site?.name}\` \`${site?.paths[i % urls]}\`: ${ours[i]} vs ${theirs[i]}`);
  }
  return { differ, total: ours.length, examples, ok: differ === 0 && ours.length === theirs.length };
}

/**
 * @param {Map<string, ColdTiming[]>} cold @param {ColdResults['builds']} builds
 * @param {readonly ColdSite[]} sites in the order of the verdicts (the timing processes go tier by tier)
 * @returns {VerdictCheck[]}
 */
function verdictChecks(cold, builds, sites) {
  /** @type {VerdictCheck[]} */
  const checks = [];
  /** @param {string} label @param {string} a @param {string} b @param {ColdTiming[] | undefined} left @param {ColdTiming[] | undefined} right @param {number} urls @param {boolean} must */
  const add = (label, a, b, left, right, urls, must) => {
    const ours = left?.[0]?.verdicts;
    const theirs = right?.[0]?.verdicts;
    if (ours === undefined || theirs === undefined) return;
    const { differ, total, examples, ok } = compareVerdicts(ours, theirs, urls, sites);
    const detail = `${(total - differ).toLocaleString('en')} of ${total.toLocaleString('en')} verdicts the same${differ > 0 ? ` (${examples.join('; ')}; 1 allowed, 0 disallowed, 2 undefined)` : ''}`;
    checks.push({
      label: `${label}, ${urls} URL${urls === 1 ? '' : 's'} (${a} = ${b})`,
      ok: ok || !must,
      detail: must ? detail : `${detail}; informational`,
    });
  };
  for (const urls of URL_COUNTS) {
    const of = (/** @type {Build} */ build, /** @type {import('./engines.mjs').ColdEngineName} */ engine) =>
      cold.get(coldKey(build, engine, urls));
    add('native and its indexed tier decide alike', 'native', 'indexed', of('after', 'native'), of('after', 'indexed'), urls, true);
    add('the drop-in decides exactly as robots-parser', 'drop-in', 'robots-parser', of('after', 'drop-in'), of('after', PEER), urls, true);
    if (builds.before !== undefined) {
      add(
        'the before and after builds decide alike',
        'native before',
        'native after',
        of('before', 'native'),
        of('after', 'native'),
        urls,
        true,
      );
      add('… their indexed tiers too', 'indexed before', 'indexed after', of('before', 'indexed'), of('after', 'indexed'), urls, true);
      add('… their drop-ins too', 'drop-in before', 'drop-in after', of('before', 'drop-in'), of('after', 'drop-in'), urls, true);
    }
    add(
      'native against robots-parser (they differ where robots-parser departs from RFC 9309 and Google)',
      'native',
      'robots-parser',
      of('after', 'native'),
      of('after', PEER),
      urls,
      false,
    );
  }
  return checks;
}

function main() {
  const began = performance.now();
  const loadBefore = loadavg()[0] ?? 0;
  if (corpusDirectory() === undefined) {
    console.log(`Cold-path benchmark skipped: robots corpus not found at ${expectedDirectory()}; set ROBOTS_CORPUS to run it.`);
    return;
  }
  const quick = process.argv.includes('--quick');
  const runs = Number(option('--runs') ?? (quick ? 2 : 5));
  const timeMs = Number(option('--time') ?? (quick ? 200 : 1000));
  const afterDist = resolve(option('--dist') ?? join(ROOT, 'dist'));
  const beforeOption = option('--before');
  const beforeDist = beforeOption === undefined ? undefined : resolve(beforeOption);
  for (const dist of [afterDist, beforeDist]) {
    if (dist !== undefined && !existsSync(join(dist, 'index.js'))) {
      console.error(`${dist} is not a built dist/ directory (run \`npm run build\`)`);
      process.exitCode = 2;
      return;
    }
  }
  /** @type {ColdResults['builds']} */
  const builds = { after: snapshot(afterDist), before: beforeDist === undefined ? undefined : snapshot(beforeDist) };
  const { after, before } = builds;
  try {
    if (after === undefined) throw new Error('no build to measure');
    log(`preparing the inputs with ${afterDist} …`);
    /** @type {ColdResults['inputs']} */
    const inputs = coldStep(after.dir, 'prepare');
    if (before !== undefined) cpSync(join(after.dir, 'cold.json'), join(before.dir, 'cold.json'));
    const present = /** @type {[Build, NonNullable<ColdResults['builds']['after']>][]} */ (
      Object.entries(builds).filter(([, build]) => build !== undefined)
    );
    const tasks = URL_COUNTS.flatMap((urls) =>
      COLD_ENGINES.flatMap((engine) =>
        (engine === PEER ? present.slice(0, 1) : present)
          .filter(([, build]) => engine !== 'indexed' || build.tiers)
          .map(([name, build]) => ({ urls, engine, name, dir: build.dir })),
      ),
    );
    const compileTasks = present
      .map(([name, build]) => ({ engine: /** @type {'indexed' | 'robots-parser'} */ ('indexed'), name, dir: build.dir }))
      .concat([{ engine: PEER, name: 'after', dir: after.dir }]);
    /** @type {Map<string, ColdTiming[]>} */
    const cold = new Map();
    /** @type {Map<string, CompileTiming[]>} */
    const compile = new Map();
    for (let run = 1; run <= runs; run++) {
      for (const { urls, engine, name, dir } of tasks) {
        /** @type {ColdTiming} */
        const timing = coldStep(dir, 'time', engine, String(urls), String(timeMs));
        const key = coldKey(name, engine, urls);
        const previous = cold.get(key) ?? [];
        if (previous[0] !== undefined && previous[0].verdicts !== timing.verdicts)
          throw new Error(`${key}: run ${run} decided differently from run 1`);
        cold.set(key, [...previous, timing]);
        const hosts = timing.tiers.reduce((sum, tier) => sum + tier.files, 0);
        const seconds = timing.tiers.reduce((sum, tier) => sum + tier.seconds, 0);
        log(`  run ${run}/${runs} ${key.padEnd(26)} ${((1e6 * seconds) / hosts).toFixed(1)} µs per host`);
      }
      for (const { engine, name, dir } of compileTasks) {
        /** @type {CompileTiming} */
        const timing = coldStep(dir, 'compile', engine, String(timeMs));
        const key = compileKey(name, engine);
        compile.set(key, [...(compile.get(key) ?? []), timing]);
        log(`  run ${run}/${runs} compile ${key.padEnd(18)} ${(timing.bytes / timing.seconds / 1e6).toFixed(1)} MB/s`);
      }
    }
    /** @type {ColdInputs} */
    const prepared = JSON.parse(readFileSync(join(after.dir, 'cold.json'), 'utf8'));
    const inTierOrder = TIERS.flatMap((_, tier) => prepared.sites.filter((site) => site.tier === tier));
    const checks = verdictChecks(cold, builds, inTierOrder);
    const section = renderCold({
      machine: machine(),
      quick,
      runs,
      load: { before: loadBefore, after: loadavg()[0] ?? 0 },
      builds,
      inputs,
      cold,
      compile,
      checks,
      seconds: (performance.now() - began) / 1000,
    });
    console.log(section);
    if (checks.some((check) => !check.ok)) {
      log('a verdict check failed: see "Verdicts" above');
      process.exitCode = 1;
    }
    if (process.argv.includes('--write')) {
      if (quick) log('(--quick: RESULTS.md left as it was; run without --quick to record results)');
      else {
        // In place of the one a previous run wrote, else at the end.
        writeSection(TITLE, section);
        log(`written to ${RESULTS}`);
      }
    }
  } finally {
    for (const build of [after, before]) if (build !== undefined) rmSync(build.dir, { recursive: true, force: true });
  }
}

main();
