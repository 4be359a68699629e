/**
 * `npm run bench:usage`: what `usage()` costs beside `isAllowed()` on the same URLs, on the corpus as it is (almost
 * no file has usage lines: those files should pay nothing) and on the same files with usage lines added
 * (bench/usage/inputs.mjs), with robots-parser's isAllowed() for reference (it has no usage API); and how many
 * corpus files carry usage lines (bench/usage/corpus-count.mjs). Prints a markdown section; `--write` puts it in
 * bench/RESULTS.md in place of its previous one.
 *
 *   node bench/usage/run.mjs [--runs N] [--time MS] [--quick] [--write]
 *
 * 5 interleaved runs of 1000 ms per task by default; `--quick`: 2 runs of 250 ms (not with `--write`). Each task
 * runs in its own process (bench/usage/worker.mjs), run 1 of every task, then run 2, …, so that a slow spell of
 * the machine hits every task alike; figures are medians across runs (± half the range), and a ratio is the median
 * of the per-run ratios. It builds nothing: the npm script builds dist/ first.
 */
import { existsSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { corpusDirectory, expectedDirectory, loadCorpus } from '../../harness/corpus.mjs';
import { snapshotDist } from '../lib/dist-snapshot.mjs';
import { rate, spread } from '../lib/format.mjs';
import { describeMachine, machine } from '../lib/machine.mjs';
import { median } from '../lib/median.mjs';
import { RESULTS, sectionHeading, writeSection } from '../lib/results.mjs';
import { step } from '../lib/worker-step.mjs';
import { peerVersion } from '../lib/engines/engine.mjs';
import { countUsageLines, renderCount } from './corpus-count.mjs';
import { CALLS, SHAPES, VARIANTS } from './inputs.mjs';

/**
 * @typedef {import('./worker.mjs').Timing} Timing
 * @typedef {import('./worker.mjs').Prepared} Prepared
 * @typedef {import('./worker.mjs').Agreement} Agreement
 * @typedef {import('./inputs.mjs').Shape} Shape
 * @typedef {import('./inputs.mjs').Call} Call
 * @typedef {import('./inputs.mjs').Variant} Variant
 */

export const TITLE = 'Usage preferences';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WORKER = fileURLToPath(new URL('./worker.mjs', import.meta.url));

/** @param {string} name @param {number} fallback */
function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : Number(process.argv[at + 1]);
}

const quick = process.argv.includes('--quick');
const write = process.argv.includes('--write');
const RUNS = option('--runs', quick ? 2 : 5);
const TIME_MS = option('--time', quick ? 250 : 1000);

/** @param {string} line */
function log(line) {
  process.stderr.write(`${line}\n`);
}

/** @type {Record<Shape, string>} */
const SHAPE_TITLES = {
  hosts: 'Many hosts, random order, one URL per host',
  'hosts-allowed': 'Many hosts, only the URLs that may be crawled',
  hot: 'One hot site, single calls',
  'hot-allowed': 'One hot site, only the URLs that may be crawled',
  cold: 'A host met cold: bytes → parse → one call → dispose',
};

/** robots-parser is timed on the corpus as it is, on every URL: it reads no usage line, and is there for reference. */
/** @param {Shape} shape @param {Variant} variant @param {Call} call */
function isTask(shape, variant, call) {
  return call !== 'robots-parser' || (variant === 'plain' && !shape.endsWith('-allowed'));
}

/** @param {string} dir */
function checkAgreement(dir) {
  /** @type {Agreement} */
  const agreement = step(['agreement', dir], { script: WORKER });
  for (const shape of /** @type {const} */ (['hosts', 'hot'])) {
    for (const variant of VARIANTS) {
      const a = agreement[shape][variant];
      // usage() answers null exactly where isAllowed() is false, and the added lines change no verdict.
      if (a.nullMatches !== a.urls || a.sameVerdicts !== a.urls)
        throw new Error(`${shape}/${variant}: usage() and isAllowed() disagree (${JSON.stringify(a)})`);
      if (variant === 'plain' && a.withStatements !== 0)
        log(`  note: ${a.withStatements} ${shape} URLs of the corpus as it is have usage lines`);
    }
  }
  return agreement;
}

/**
 * @param {Map<string, Timing[]>} samples
 * @param {{ prepared: Prepared, agreement: Agreement, build: string, load: { before: number, after: number }, seconds: number, count: string[] }} context
 */
function render(samples, { prepared, agreement, build, load, seconds, count }) {
  const m = machine();
  /** @param {Shape} shape @param {Variant} variant @param {Call} call */
  const runsOf = (shape, variant, call) => samples.get(`${shape}/${variant}/${call}`) ?? [];
  /** @param {Timing[]} runs */
  const figure = (runs) => {
    const first = runs[0];
    if (first === undefined) return '–';
    const rates = runs.map((run) => run.perSecond);
    return `${rate(median(rates), first.unit)}${first.unit === 'checks' ? '/s' : ''} ${spread(rates)}`.trimEnd();
  };
  /** Per-run ratios of a's rate to b's (run i against run i), their median and spread. @param {Timing[]} a @param {Timing[]} b */
  const ratio = (a, b) => {
    const ratios = a.flatMap((run, i) => (b[i] === undefined ? [] : [run.perSecond / /** @type {Timing} */ (b[i]).perSecond]));
    return ratios.length === 0 ? '–' : `${median(ratios).toFixed(2)}× ${spread(ratios)}`.trimEnd();
  };
  const { lines, hot } = prepared;
  const hostsLines = agreement.hosts.lines;
  const hotLines = agreement.hot.lines;
  const rows = SHAPES.flatMap((shape) =>
    VARIANTS.map((variant) => {
      const usage = runsOf(shape, variant, 'usage');
      const isAllowed = runsOf(shape, variant, 'isAllowed');
      const theirs = runsOf(shape, variant, 'robots-parser');
      const ops = usage[0]?.unit === 'files' ? ' (per host)' : '';
      return (
        `| ${SHAPE_TITLES[shape]}${ops} | ${variant === 'plain' ? 'as it is' : 'with usage lines'} | ${figure(usage)} | ${figure(isAllowed)} | ` +
        `**${ratio(isAllowed, usage)}** | ${figure(theirs)} | ${theirs.length === 0 ? '–' : ratio(isAllowed, theirs)} |`
      );
    }),
  );
  return [
    sectionHeading(m.date, TITLE),
    '',
    `${describeMachine(m)} · load average ${load.before.toFixed(2)} before, ${load.after.toFixed(2)} after · ${RUNS} interleaved runs per task of ${TIME_MS} ms, ` +
      `each in its own process; medians across runs (± half the range); ratios are medians of the per-run ratios · ${(seconds / 60).toFixed(1)} min`,
    '',
    `\`node bench/usage/run.mjs --write\` (\`npm run bench:usage -- --write\`; prints only without \`--write\`: ` +
      `\`--quick\` for 2 short runs). Build: dist/index.js \`${build}\` (sha-256 prefix). Inputs (fingerprint \`${prepared.fingerprint}\`): the corpus, ` +
      `${prepared.corpus.files.toLocaleString('en-US')} files; agent Googlebot.`,
    '',
    '### Usage lines in the corpus',
    '',
    ...count,
    '',
    'Rerun alone: `node bench/usage/corpus-count.mjs` (after `npm run build`; `ROBOTS_CORPUS` names another corpus).',
    '',
    '### What `usage()` costs beside `isAllowed()`',
    '',
    `The same URLs for both calls: the matcher suite's (\`npm run bench\`): each host's first Googlebot URL of its crawler mix, hosts in the ` +
      `order the mix first reaches them, and its hot site \`${hot.name}\` (${hot.rules} rules for Googlebot, ${hot.urls.toLocaleString('en-US')} URLs). ` +
      `Rules are taken beforehand and warmed into their last tier, except on the cold path (the first call on a host). ` +
      `"With usage lines": every file with a generated mix added after the last rule of each group that has rules ` +
      `(${lines.groups.toLocaleString('en-US')} groups, ${lines.appendedGroups} of them a \`User-agent: *\` group added to a file without rules): ` +
      `a path-less \`Content-Signal\` and 1–8 \`Content-Usage\` lines on the group's own rule paths ` +
      `(${lines.contentUsage.toLocaleString('en-US')} lines, ${lines.wildcards.toLocaleString('en-US')} of them with \`*\`). ` +
      `The added lines change no verdict (checked on every URL), and \`usage()\` is null exactly where \`isAllowed()\` is false. ` +
      `Of the hosts' URLs, ${hostsLines.allowed.toLocaleString('en-US')} of ${hostsLines.urls.toLocaleString('en-US')} may be crawled ` +
      `(${hostsLines.withStatements.toLocaleString('en-US')} answers name a line, ${hostsLines.byPath} a \`Content-Usage\` path); ` +
      `of the hot site's, ${hotLines.allowed.toLocaleString('en-US')} (${hotLines.withStatements.toLocaleString('en-US')}, ${hotLines.byPath}): ` +
      `most URLs are on Disallow paths, where \`usage()\` answers null after one verdict, hence the rows of allowed URLs alone.`,
    '',
    `| workload | corpus | \`usage()\` | \`isAllowed()\` | \`usage()\`'s time ÷ \`isAllowed()\`'s | robots-parser ${peerVersion('robots-parser')} \`isAllowed()\` | our \`isAllowed()\` ÷ robots-parser |`,
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    "Ratios of times (`usage()`'s ÷ `isAllowed()`'s: 1.00× is the same cost) and of speeds (ours ÷ robots-parser: higher is ours faster).",
  ];
}

async function main() {
  const began = performance.now();
  const loadBefore = loadavg()[0] ?? 0;
  if (corpusDirectory() === undefined) {
    console.log(`Benchmark skipped: robots corpus not found at ${expectedDirectory()}; set ROBOTS_CORPUS to run it.`);
    return;
  }
  if (!existsSync(join(ROOT, 'dist', 'index.js'))) {
    console.error('dist/ is missing: run `npm run bench:usage` (which builds first) or `npm run build`.');
    process.exitCode = 1;
    return;
  }
  if (quick && write) {
    console.error('--quick runs are not recorded: leave out --write, or --quick.');
    process.exitCode = 2;
    return;
  }
  const { dir, build } = snapshotDist(ROOT, 'robotstxt-usage-');
  try {
    log(`building the inputs from ${corpusDirectory()} …`);
    /** @type {Prepared} */
    const prepared = step(['prepare', dir], { script: WORKER });
    log(`  fingerprint ${prepared.fingerprint}; usage lines added: ${JSON.stringify(prepared.lines)}`);
    log('counting usage lines in the corpus …');
    /** @type {typeof import('../../src/index.js')} */
    const lib = await import(pathToFileURL(join(dir, 'dist', 'index.js')).href);
    const count = renderCount(countUsageLines(loadCorpus(), (body) => lib.parseRobotsTxt(body)));
    log('checking what the calls answer …');
    const agreement = checkAgreement(dir);

    const tasks = SHAPES.flatMap((shape) =>
      VARIANTS.flatMap((variant) => CALLS.filter((call) => isTask(shape, variant, call)).map((call) => ({ shape, variant, call }))),
    );
    /** @type {Map<string, Timing[]>} */
    const samples = new Map();
    for (let run = 1; run <= RUNS; run++) {
      for (const { shape, variant, call } of tasks) {
        const key = `${shape}/${variant}/${call}`;
        /** @type {Timing} */
        const timing = step(['time', dir, shape, variant, call, String(TIME_MS)], { script: WORKER });
        const previous = samples.get(key) ?? [];
        // Every run of a task must decide the same: otherwise something other than speed changed.
        if (previous[0] !== undefined && previous[0].checksum !== timing.checksum)
          throw new Error(`${key}: run ${run} decided differently from run 1 (${timing.checksum} ≠ ${previous[0].checksum})`);
        samples.set(key, [...previous, timing]);
        log(`  run ${run}/${RUNS} ${key.padEnd(34)} ${rate(timing.perSecond, timing.unit)}${timing.unit === 'checks' ? '/s' : ''}`);
      }
    }
    // usage() and isAllowed() count the same URLs as crawlable: the same answers, or not the same library.
    for (const shape of SHAPES)
      for (const variant of VARIANTS) {
        const usage = samples.get(`${shape}/${variant}/usage`)?.[0]?.checksum;
        const isAllowed = samples.get(`${shape}/${variant}/isAllowed`)?.[0]?.checksum;
        if (usage !== isAllowed) throw new Error(`${shape}/${variant}: usage() allowed ${usage}, isAllowed() ${isAllowed}`);
      }

    const report = render(samples, {
      prepared,
      agreement,
      build,
      load: { before: loadBefore, after: loadavg()[0] ?? 0 },
      seconds: (performance.now() - began) / 1000,
      count,
    }).join('\n');
    console.log(report);
    if (write) {
      writeSection(TITLE, report);
      log(`written to ${RESULTS}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
