/**
 * `npm run bench:headline`: the table bench/RESULTS.md opens with, regenerated in one short run. It times a fixed
 * set of the suites' own tasks, through their own worker processes and with their methods: the matcher's
 * workloads (bench/matcher/worker.mjs: parse + compile, the first verdict, the crawler mix, the hot site) and the
 * cold path with 1 URL per host (bench/cold/worker.mjs), for this library, its robots-parser drop-in and
 * robots-parser itself. Every task runs in a process of its own; runs are interleaved (run 1 of every task, then
 * run 2, …) so that a slow spell of the shared machine hits all engines alike; each figure is the median across
 * runs (± half the range), each ratio the median of the per-run ratios. Every run of a task must decide the same.
 *
 *   node bench/headline/run.mjs [--runs N] [--time MS] [--print]
 *
 * --runs: interleaved runs per task (3 by default); --time: each timing process's budget in ms (500 by default);
 * --print: print the table, leave RESULTS.md as it is. Otherwise the table replaces what stands between the
 * headline markers at the top of bench/RESULTS.md (bench/lib/results.mjs). Fewer and shorter runs than the
 * suites' full runs, so its figures are rougher than theirs (the sections below the headline). It builds
 * nothing: the npm script builds dist/ first. Without the corpus it prints a note and exits 0.
 */
import { existsSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusDirectory, expectedDirectory } from '../../harness/corpus.mjs';
import { peerVersion } from '../lib/engines/engine.mjs';
import { describeMachine, machine } from '../lib/machine.mjs';
import { snapshotDist } from '../lib/dist-snapshot.mjs';
import { median } from '../lib/median.mjs';
import { RESULTS, writeHeadline } from '../lib/results.mjs';
import { step } from '../lib/worker-step.mjs';
import { rate, times } from '../lib/format.mjs';
import { TIERS } from '../lib/cold-inputs.mjs';

/**
 * @typedef {import('../matcher/worker.mjs').Prepared} Prepared
 * @typedef {import('../matcher/worker.mjs').Timing} Timing
 * @typedef {import('../cold/worker.mjs').ColdTiming} ColdTiming
 * @typedef {{ key: string, args: string[], script?: string }} Task
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const COLD_WORKER = fileURLToPath(new URL('../cold/worker.mjs', import.meta.url));

/** @param {string} name @returns {string | undefined} */
function option(name) {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}

/** @param {string} line */
function log(line) {
  process.stderr.write(`${line}\n`);
}

const RUNS = Number(option('--runs') ?? 3);
const TIME_MS = Number(option('--time') ?? 500);

/** The matcher's tasks: [workload, impl]; and the cold path's engines, 1 URL per host. */
const MATCHER_TASKS = /** @type {const} */ ([
  ['compile', 'wasm'],
  ['parse', 'robots-parser'],
  ['first', 'wasm'],
  ['first', 'drop-in'],
  ['first', 'robots-parser'],
  ['crawler', 'wasm'],
  ['crawler', 'drop-in'],
  ['crawler', 'robots-parser'],
  ['hot', 'wasm'],
  ['hot', 'drop-in'],
  ['hot', 'robots-parser'],
  ['batch-bytes', 'wasm'],
  ['hot-utf8', 'wasm'],
]);
const COLD_ENGINES = /** @type {const} */ (['native', 'drop-in', 'robots-parser']);
/** The cold path's URLs per host: a host asked once, and a host asked a few times. */
const COLD_URLS = /** @type {const} */ ([1, 8]);

/** @param {ColdTiming} timing hosts per second over the whole corpus */
function hostsPerSecond(timing) {
  return timing.tiers.reduce((sum, tier) => sum + tier.files, 0) / timing.tiers.reduce((sum, tier) => sum + tier.seconds, 0);
}

/**
 * Each size tier's hosts per second, as keys of their own (`<key>#<tier>`): the weakest tier is a target's row.
 * @param {string} key @param {ColdTiming} timing @param {Speeds} speeds
 */
function tierSpeeds(key, timing, speeds) {
  timing.tiers.forEach((tier, index) => {
    if (tier.files > 0) speeds.add(`${key}#${index}`, tier.files / tier.seconds);
  });
}

/** A figure's runs, as speeds (higher is faster) by task key. */
class Speeds {
  /** @type {Map<string, number[]>} */
  runs = new Map();

  /** @param {string} key @param {number} perSecond */
  add(key, perSecond) {
    const runs = this.runs.get(key) ?? [];
    runs.push(perSecond);
    this.runs.set(key, runs);
  }

  /** @param {string} key */
  median(key) {
    return median(this.runs.get(key) ?? []);
  }

  /** Half the range across runs, relative to the median. @param {string} key */
  spread(key) {
    const values = this.runs.get(key) ?? [];
    return values.length > 1 ? `±${((50 * (Math.max(...values) - Math.min(...values))) / median(values)).toFixed(0)}%` : '';
  }

  /** `ours` ÷ `theirs` as the median of the per-run ratios. @param {string} ours @param {string} theirs */
  ratio(ours, theirs) {
    const a = this.runs.get(ours) ?? [];
    const b = this.runs.get(theirs) ?? [];
    return median(a.flatMap((value, run) => (b[run] === undefined ? [] : [value / /** @type {number} */ (b[run])])));
  }
}

/**
 * Every task RUNS times, interleaved; each run of a task must decide as its first run did.
 * @param {Task[]} tasks @param {Speeds} speeds @param {Map<string, string>} units
 */
function timeAll(tasks, speeds, units) {
  /** @type {Map<string, string | number>} */
  const decided = new Map();
  for (let run = 1; run <= RUNS; run++) {
    for (const task of tasks) {
      const began = performance.now();
      /** @type {Timing | ColdTiming} */
      const result = step(task.args, task.script === undefined ? {} : { script: task.script });
      const verdicts = 'checksum' in result ? result.checksum : result.verdicts;
      const first = decided.get(task.key);
      if (first === undefined) decided.set(task.key, verdicts);
      else if (first !== verdicts) throw new Error(`${task.key}: run ${run} decided differently from run 1`);
      const perSecond = 'perSecond' in result ? result.perSecond : hostsPerSecond(result);
      speeds.add(task.key, perSecond);
      if ('tiers' in result) tierSpeeds(task.key, result, speeds);
      if ('unit' in result) units.set(task.key, result.unit);
      log(`  run ${run}/${RUNS} ${task.key.padEnd(26)} ${((performance.now() - began) / 1000).toFixed(1)} s`);
    }
  }
}

/**
 * @param {Speeds} speeds @param {Map<string, string>} units @param {Prepared} prepared
 * @param {{ date: string, machineLine: string, build: string, load: { before: number, after: number }, busy: boolean, seconds: number, memory: { distinct: number, total: number } }} run
 */
function render(speeds, units, prepared, run) {
  const peer = `robots-parser ${peerVersion('robots-parser')}`;
  /** A matcher figure as its report shows it. @param {string} key */
  const shown = (key) => {
    const value = speeds.median(key);
    if (Number.isNaN(value)) return '–';
    const unit = /** @type {Timing['unit']} */ (units.get(key) ?? 'checks');
    return `${rate(value, unit)}${unit === 'bytes' ? ' MB/s' : unit === 'checks' ? '/s' : ''} ${speeds.spread(key)}`.trim();
  };
  /** @param {string} key */
  const micros = (key) => {
    const value = speeds.median(key);
    return Number.isNaN(value) ? '–' : `${(1e6 / value).toFixed(1)} µs ${speeds.spread(key)}`.trim();
  };
  /** @param {string} ours @param {string} theirs */
  const ratio = (ours, theirs) => `**${times(speeds.ratio(ours, theirs))}**`;
  /** The size tier where `ours` leads `theirs` least, and by how much. @param {string} ours @param {string} theirs */
  const weakestTier = (ours, theirs) => {
    const ratios = TIERS.map((tier, index) => ({ tier: tier.label, ratio: speeds.ratio(`${ours}#${index}`, `${theirs}#${index}`) })).filter(
      (entry) => !Number.isNaN(entry.ratio),
    );
    const weakest = ratios.reduce((low, entry) => (entry.ratio < low.ratio ? entry : low));
    return `**${times(weakest.ratio)}** (${weakest.tier})`;
  };
  /** ns per check. @param {string} key */
  const nanos = (key) => {
    const value = speeds.median(key);
    return Number.isNaN(value) ? '–' : `${(1e9 / value).toFixed(0)} ns`;
  };
  const rows = [
    [
      'Parse + compile for one agent, whole corpus',
      shown('compile/wasm'),
      '–',
      `${shown('parse/robots-parser')} (its parse)`,
      ratio('compile/wasm', 'parse/robots-parser'),
    ],
    [
      `Bytes → first verdict, typical ${(prepared.typical.bytes / 1000).toFixed(0)} KB file (per file)`,
      shown('first/wasm'),
      shown('first/drop-in'),
      shown('first/robots-parser'),
      ratio('first/wasm', 'first/robots-parser'),
    ],
    [
      'A host met cold: its bytes → its first verdict, every corpus file (per host)',
      micros('cold-1/native'),
      micros('cold-1/drop-in'),
      micros('cold-1/robots-parser'),
      `${ratio('cold-1/native', 'cold-1/robots-parser')}; drop-in ${ratio('cold-1/drop-in', 'cold-1/robots-parser')}`,
    ],
    [
      'A host met cold, its first 8 verdicts (per host)',
      micros('cold-8/native'),
      micros('cold-8/drop-in'),
      micros('cold-8/robots-parser'),
      `${ratio('cold-8/native', 'cold-8/robots-parser')}; drop-in ${ratio('cold-8/drop-in', 'cold-8/robots-parser')}`,
    ],
    [
      'A host met cold, the weakest size tier (1 URL per host; 8)',
      '–',
      '–',
      '–',
      `${weakestTier('cold-1/native', 'cold-1/robots-parser')}; ${weakestTier('cold-8/native', 'cold-8/robots-parser')}`,
    ],
    [
      'Crawler mix, single check',
      shown('crawler/wasm'),
      shown('crawler/drop-in'),
      shown('crawler/robots-parser'),
      ratio('crawler/wasm', 'crawler/robots-parser'),
    ],
    [
      `One hot site (${prepared.hot.rules} rules), single check`,
      shown('hot/wasm'),
      shown('hot/drop-in'),
      shown('hot/robots-parser'),
      ratio('hot/wasm', 'hot/robots-parser'),
    ],
    ['One hot site, batch of UTF-8 bytes (`isAllowedBytes`)', `${shown('batch-bytes/wasm')} (${nanos('batch-bytes/wasm')})`, '–', '–', '–'],
    ['One hot site, single check on UTF-8 bytes (`isAllowedUtf8`)', `${shown('hot-utf8/wasm')} (${nanos('hot-utf8/wasm')})`, '–', '–', '–'],
    [
      "Memory per compiled agent ÷ its rules' text, every corpus file for both crawler agents",
      `${run.memory.distinct.toFixed(2)}× (distinct blocks); ${run.memory.total.toFixed(2)}× with the JS heap`,
      '–',
      '–',
      '–',
    ],
  ];
  return [
    `## Headline (${run.date.slice(0, 10)})`,
    '',
    `${run.machineLine} · load average ${run.load.before.toFixed(2)} before, ${run.load.after.toFixed(2)} after · ` +
      `${RUNS} interleaved run${RUNS === 1 ? '' : 's'} per task of ${TIME_MS} ms, each in its own process; medians across runs (± half the range); ` +
      `ratios are medians of the per-run ratios (higher: robotstxt-wasm faster) · ${(run.seconds / 60).toFixed(1)} min`,
    '',
    ...(run.busy
      ? ['**A busy machine** (load average above its core count): other work shared the cores, so every figure is rough.', '']
      : []),
    `\`npm run bench:headline\`. Build: dist/index.js \`${run.build}\` (sha-256 prefix). Inputs (fingerprint \`${prepared.fingerprint}\`): ` +
      `the corpus, ${prepared.corpus.files.toLocaleString('en')} files; agent Googlebot. A short run of the suites' own tasks: ` +
      'each row is measured in full, with its method and its inputs, by the section named below.',
    '',
    `| | robotstxt-wasm | its robots-parser drop-in | ${peer} | robotstxt-wasm ÷ robots-parser |`,
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
    '',
    'The cold rows: the cold path (`npm run bench:cold`), every tier, its weakest size tier apart; the memory row: ' +
      "the matcher suite's memory step (`npm run bench`, Memory); the others: the matcher against its peers, Throughput. " +
      'Single checks are `rules.isAllowed(url)` on rules compiled beforehand, the crawler mix at steady state (every ' +
      "ruleset indexed; the warm-up is run before timing); robots-parser's parse builds all it checks with, so its " +
      'parse stands for its parse + compile. The targets of this round, `robotstxt filter --workers 2` among them, and ' +
      'the floors of those not met: the section "Speed, round three" below.',
  ].join('\n');
}

function main() {
  const began = performance.now();
  const loadBefore = loadavg()[0] ?? 0;
  if (corpusDirectory() === undefined) {
    console.log(`Headline skipped: robots corpus not found at ${expectedDirectory()}; set ROBOTS_CORPUS to run it.`);
    return;
  }
  if (!existsSync(join(ROOT, 'dist', 'index.js'))) {
    console.error('dist/ is missing: run `npm run bench:headline` (which builds first) or `npm run build`.');
    process.exitCode = 1;
    return;
  }
  const { dir, build } = snapshotDist(ROOT, 'robotstxt-headline-');
  try {
    log(`building the workloads from ${corpusDirectory()} …`);
    /** @type {Prepared} */
    const prepared = step(['prepare', dir]);
    step(['prepare', dir], { script: COLD_WORKER });
    /** @type {Task[]} */
    const tasks = [
      ...MATCHER_TASKS.map(([workload, impl]) => ({ key: `${workload}/${impl}`, args: ['time', dir, workload, impl, String(TIME_MS)] })),
      ...COLD_URLS.flatMap((urls) =>
        COLD_ENGINES.map((engine) => ({
          key: `cold-${urls}/${engine}`,
          args: ['time', dir, engine, String(urls), String(TIME_MS)],
          script: COLD_WORKER,
        })),
      ),
    ];
    const speeds = new Speeds();
    /** @type {Map<string, string>} */
    const units = new Map();
    timeAll(tasks, speeds, units);
    log('  memory …');
    /** @type {import('../matcher/memory.mjs').Memory} */
    const measured = step(['memory', dir, 'wasm'], { exposeGc: true });
    const jsBytes = measured.heapUsed.after - measured.heapUsed.before + (measured.arrayBuffers.after - measured.arrayBuffers.before);
    const wasmBytes = measured.wasm.after - measured.wasm.before;
    const memory = { distinct: wasmBytes / measured.ruleTextBytes, total: (wasmBytes + jsBytes) / measured.ruleTextBytes };
    const m = machine();
    const loadAfter = loadavg()[0] ?? 0;
    const headline = render(speeds, units, prepared, {
      date: m.date,
      machineLine: describeMachine(m),
      build,
      load: { before: loadBefore, after: loadAfter },
      busy: Math.max(loadBefore, loadAfter) > m.cores,
      seconds: (performance.now() - began) / 1000,
      memory,
    });
    console.log(headline);
    if (process.argv.includes('--print')) log('(--print: RESULTS.md left as it was)');
    else {
      writeHeadline(headline);
      log(`written to ${RESULTS}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
