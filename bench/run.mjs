/**
 * `npm run bench`: robotstxt-wasm against robots-parser and robots-txt-guard, side by side, on workloads built
 * from the real-world corpus (bench/workloads.mjs). Prints a markdown report and writes it to bench/RESULTS.md.
 *
 *   node bench/run.mjs            the full run (5 interleaved runs per task; a few minutes on 2 cores)
 *   node bench/run.mjs --quick    2 runs, shorter budgets, for trying it out; prints, does not write RESULTS.md
 *
 * It builds nothing: the npm script builds dist/ first, and every measurement is of the built package.
 * Each (workload, engine) task runs in its own process (bench/worker.mjs); runs are interleaved (run 1 of
 * every task, then run 2 of every task, …) so that a slow spell of the machine hits all engines alike, and the
 * report gives the median across runs.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { arch, cpus, loadavg, platform, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusDirectory, expectedDirectory } from './corpus.mjs';

const quick = process.argv.includes('--quick');
const RUNS = quick ? 2 : 5;
/** tinybench's time budget per task and run, in ms. */
const TIME_MS = quick ? 250 : 1000;
const ALLOC_CHECKS = quick ? 1_000_000 : 10_000_000;

const WORKER = fileURLToPath(new URL('./worker.mjs', import.meta.url));
const RESULTS = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** @typedef {'wasm' | 'typescript' | 'robots-parser' | 'guard'} Impl */
/**
 * What the worker's steps answer (bench/worker.mjs).
 * @typedef {{ fingerprint: string, corpus: { files: number, bytes: number }, crawlerChecks: number, hot: { name: string, rules: number, urls: number } }} Prepared
 * @typedef {{ before: number, after: number, disposed: number }} Phases
 * @typedef {{ impl: Impl, agents: number, rules: number, ruleTextBytes: number, rulesetBytes: number, wasm: Phases, heapUsed: Phases, arrayBuffers: Phases }} Memory
 * @typedef {{ calls: number, seconds: number, minor: number, major: number, other: number, heapDelta: number, perSecond: number }} Collections
 * @typedef {{ count: number, urls: number, asciiUrls: number, control: Collections, checks: Collections, asciiChecks?: Collections }} Alloc
 * @typedef {{ workload: string, impl: Impl, unit: 'checks' | 'bytes', perSecond: number, checksum: number, probe: number }} Timing
 * @typedef {{ site: string, agent: string, path: string, ours: boolean, theirs: boolean | 'undefined' }} Disagreement
 */
/** @type {Impl[]} */
const IMPLS = ['wasm', 'typescript', 'robots-parser', 'guard'];
const WORKLOADS = /** @type {const} */ (['crawler', 'hot', 'batch', 'parse']);

/** Sections of RESULTS.md written by hand from other benchmarks (bench/hostile*.mjs, bench/workers.mjs), from the
 * first on: kept by a new run. */
const KEPT_FROM = '\n## Hostile input';

function keptSections() {
  const previous = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '';
  const at = previous.indexOf(KEPT_FROM);
  return at < 0 ? '' : previous.slice(at);
}

/** @param {string} name */
function peerVersion(name) {
  try {
    return JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return '?';
  }
}

const LABEL = {
  wasm: 'robotstxt-wasm (wasm)',
  typescript: 'robotstxt-wasm (TS executor)',
  'robots-parser': `robots-parser ${peerVersion('robots-parser')}`,
  guard: `robots-txt-guard ${peerVersion('robots-txt-guard')}`,
};

/**
 * Runs one worker step and returns its JSON answer (its last line of stdout).
 * @param {string[]} args
 * @param {{ exposeGc?: boolean }} [options]
 */
function step(args, options = {}) {
  const result = spawnSync(process.execPath, [...(options.exposeGc ? ['--expose-gc'] : []), WORKER, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`bench/worker.mjs ${args.slice(0, 1).concat(args.slice(2)).join(' ')} failed (exit ${result.status ?? result.signal})`);
  const lines = result.stdout.trim().split('\n');
  return /** @type {unknown} */ (JSON.parse(/** @type {string} */ (lines.at(-1))));
}

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? /** @type {number} */ (sorted[middle]) : (/** @type {number} */ (sorted[middle - 1]) + /** @type {number} */ (sorted[middle])) / 2;
}

/** @param {number} value */
function si(value) {
  if (value >= 1e9) return `${(value / 1e9).toFixed(2)} G`;
  if (value >= 1e6) return `${(value / 1e6).toFixed(value >= 1e8 ? 0 : value >= 1e7 ? 1 : 2)} M`;
  if (value >= 1e3) return `${(value / 1e3).toFixed(value >= 1e5 ? 0 : 1)} k`;
  return value.toFixed(0);
}

/** @param {number} bytes */
function megabytes(bytes) {
  return `${(bytes / 1e6).toFixed(2)} MB`;
}

/** @param {number} ratio */
function times(ratio) {
  return `${ratio >= 10 ? ratio.toFixed(0) : ratio.toFixed(1)}×`;
}

/** @param {boolean} ok */
function mark(ok) {
  return ok ? '✓' : '✗';
}

/** @param {string} line */
function log(line) {
  process.stderr.write(`${line}\n`);
}

function machine() {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model.trim() ?? 'unknown CPU',
    cores: cpu.length,
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    node: process.version,
    os: `${platform()} ${arch()}`,
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  };
}

function main() {
  const began = performance.now();
  // Other work on the machine skews every number: the load averages before and after go into the report.
  const loadBefore = loadavg()[0] ?? 0;
  if (corpusDirectory() === undefined) {
    // Not a failure: the corpus is shared, not part of the repository (as the corpus tests skip, visibly).
    console.log(`Benchmark skipped: robots corpus not found at ${expectedDirectory()}; set ROBOTS_CORPUS to run it.`);
    return;
  }
  if (!existsSync(join(ROOT, 'dist', 'index.js'))) {
    console.error('dist/ is missing: run `npm run bench` (which builds first) or `npm run build`.');
    process.exitCode = 1;
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'robotstxt-bench-'));
  try {
    // A snapshot of the build: dist/ may be rebuilt while the benchmark runs, and a run must measure one build.
    cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
    const build = createHash('sha256').update(readFileSync(join(dir, 'dist', 'index.js'))).digest('hex').slice(0, 12);
    log(`building the workloads from ${corpusDirectory()} …`);
    const prepared = /** @type {Prepared} */ (step(['prepare', dir]));
    log(
      `  fingerprint ${prepared.fingerprint}: ${prepared.corpus.files} files, ${megabytes(prepared.corpus.bytes)}; ` +
        `crawler mix ${prepared.crawlerChecks} checks; hot site ${prepared.hot.name} (${prepared.hot.rules} rules for Googlebot), ${prepared.hot.urls} URLs`,
    );

    log('checking that the engines agree on the verdicts …');
    const agreement = /** @type {Record<string, { same: number, total: number, percent: number }>} */ (step(['agreement', dir]));
    for (const [key, value] of Object.entries(agreement)) log(`  ${key}: ${value.percent.toFixed(2)}% agree with robotstxt-wasm (wasm)`);
    const disagreements = /** @type {Record<string, Disagreement[]>} */ (JSON.parse(readFileSync(join(dir, 'disagreements.json'), 'utf8')));

    /** @type {Map<string, Timing[]>} */
    const samples = new Map();
    for (let run = 1; run <= RUNS; run++) {
      for (const workload of WORKLOADS) {
        for (const impl of IMPLS) {
          const stepBegan = performance.now();
          const result = /** @type {Timing} */ (step(['time', dir, workload, impl, String(TIME_MS)]));
          const key = `${workload}/${impl}`;
          const previous = samples.get(key) ?? [];
          // Every run of a task must decide the same: otherwise something other than speed changed.
          if (previous[0] !== undefined && previous[0].checksum !== result.checksum) {
            throw new Error(`${key}: run ${run} decided differently from run 1 (${result.checksum} ≠ ${previous[0].checksum})`);
          }
          previous.push(result);
          samples.set(key, previous);
          const took = ((performance.now() - stepBegan) / 1000).toFixed(1);
          log(`  run ${run}/${RUNS} ${key.padEnd(24)} ${`${si(result.perSecond)}${result.unit === 'bytes' ? 'B' : ' checks'}/s`.padEnd(18)} (${took} s)`);
        }
      }
    }

    log('memory …');
    const memory = IMPLS.slice(0, 2).map((impl) => /** @type {Memory} */ (step(['memory', dir, impl], { exposeGc: true })));
    log('allocation …');
    const alloc = /** @type {Alloc} */ (step(['alloc', dir, String(ALLOC_CHECKS)], { exposeGc: true }));

    const seconds = (performance.now() - began) / 1000;
    const load = { before: loadBefore, after: loadavg()[0] ?? 0 };
    const report = render({ build, load, prepared, agreement, disagreements, samples, memory, alloc, seconds });
    console.log(report);
    if (quick) {
      log('(--quick: RESULTS.md left as it was; run without --quick to record results)');
    } else {
      writeFileSync(RESULTS, `${report.trimEnd()}\n${keptSections()}`);
      log(`written to ${RESULTS}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * @param {{
 *   build: string, load: { before: number, after: number }, prepared: Prepared, agreement: Record<string, { same: number, total: number, percent: number }>,
 *   disagreements: Record<string, Disagreement[]>,
 *   samples: Map<string, Timing[]>, memory: Memory[], alloc: Alloc, seconds: number,
 * }} results
 */
function render({ build, load, prepared, agreement, disagreements, samples, memory, alloc, seconds }) {
  const m = machine();
  /** @param {string} key */
  const stats = (key) => {
    const values = (samples.get(key) ?? []).map((sample) => sample.perSecond);
    const mid = median(values);
    // Half the range across runs, relative to the median: how much to trust the digits.
    const spread = values.length > 1 ? (Math.max(...values) - Math.min(...values)) / 2 / mid : 0;
    return { median: mid, spread };
  };
  /**
   * wasm ÷ another engine, as the median of the per-run ratios: within a run the engines of one workload are
   * timed back to back, so a slow spell of the (shared) machine slows both sides of a ratio alike.
   * @param {string} workload @param {Impl} other
   */
  const ratio = (workload, other) => {
    const ours = samples.get(`${workload}/wasm`) ?? [];
    const theirs = samples.get(`${workload}/${other}`) ?? [];
    return median(ours.flatMap((sample, run) => (theirs[run] === undefined ? [] : [sample.perSecond / theirs[run].perSecond])));
  };
  const out = [];
  out.push('# Benchmark results', '');
  out.push(
    `${m.date} · ${m.cpu}, ${m.cores} cores, ${m.memory} · Node ${m.node} (${m.os}) · ` +
      `load average ${load.before.toFixed(2)} before, ${load.after.toFixed(2)} after · ` +
      `${RUNS} interleaved runs per task, each in its own process; medians across runs (± half the range); ` +
      'ratios are medians of the per-run ratios' +
      (quick ? ' · **--quick run, not representative**' : ''),
    '',
  );
  out.push(
    `Build: dist/index.js \`${build}\` (sha-256 prefix). Inputs (fingerprint \`${prepared.fingerprint}\`): the corpus, ${prepared.corpus.files} files, ${megabytes(prepared.corpus.bytes)} ` +
      `(each body cut at 512,000 bytes, for every engine). Crawler mix: ${prepared.crawlerChecks.toLocaleString('en')} checks over every site, ` +
      `for Googlebot and for an unnamed crawler. Hot site: \`${prepared.hot.name}\`, ${prepared.hot.rules} rules for Googlebot, ` +
      `${prepared.hot.urls.toLocaleString('en')} URLs cycled.`,
    '',
  );

  const titles = {
    crawler: 'Crawler mix, single call (checks/s)',
    hot: 'One hot site, single call (checks/s)',
    batch: 'One hot site, batch (checks/s)',
    parse: 'Parse + compile, whole corpus (MB/s)',
  };
  /** @type {Record<string, string>} */
  const targets = {};
  const crawler = { rp: ratio('crawler', 'robots-parser'), guard: ratio('crawler', 'guard') };
  targets.crawler = `≥ 50× robots-parser ${mark(crawler.rp >= 50)}, ≥ 5× guard ${mark(crawler.guard >= 5)}`;
  targets.hot = `≥ 10 M/s ${mark(stats('hot/wasm').median >= 10e6)}`;
  targets.batch = `≥ 20 M/s ${mark(stats('batch/wasm').median >= 20e6)}`;
  targets.parse = `≥ 4× robots-parser ${mark(ratio('parse', 'robots-parser') >= 4)}`;

  out.push('## Throughput', '');
  out.push(`| workload | ${IMPLS.map((impl) => LABEL[impl]).join(' | ')} | wasm ÷ robots-parser | wasm ÷ guard | target |`);
  out.push(`| --- | ${IMPLS.map(() => '---:').join(' | ')} | ---: | ---: | --- |`);
  for (const workload of WORKLOADS) {
    const cells = IMPLS.map((impl) => {
      const { median: mid, spread } = stats(`${workload}/${impl}`);
      const value = workload === 'parse' ? `${(mid / 1e6).toFixed(1)}` : si(mid);
      const note =
        workload === 'batch' && (impl === 'robots-parser' || impl === 'guard')
          ? ' (loop)'
          : workload === 'parse' && impl === 'guard'
            ? ' (compile only¹)'
            : '';
      return `${value}${note} ±${(spread * 100).toFixed(0)}%`;
    });
    out.push(
      `| ${titles[workload]} | ${cells.join(' | ')} | ${times(ratio(workload, 'robots-parser'))} | ` +
        `${times(ratio(workload, 'guard'))}${workload === 'parse' ? '¹' : ''} | ${targets[workload]} |`,
    );
  }
  out.push('');
  out.push(
    '¹ robots-txt-guard has no parser: its column times only its construction from our parser\'s groups, ' +
      'so the ratio compares our parse + compile with its compile alone. "(loop)": the engine has no batch API; ' +
      'its single check is called in a loop that writes the same output array.',
    '',
  );

  // Every run's number, in run order: a spread that comes from one slow spell of the machine shows here.
  out.push('<details><summary>Every run, in order</summary>', '');
  out.push(`| task | ${Array.from({ length: RUNS }, (_, run) => `run ${run + 1}`).join(' | ')} |`);
  out.push(`| --- | ${Array.from({ length: RUNS }, () => '---:').join(' | ')} |`);
  for (const workload of WORKLOADS) {
    for (const impl of IMPLS) {
      const runs = samples.get(`${workload}/${impl}`) ?? [];
      const cells = runs.map((sample) => (workload === 'parse' ? (sample.perSecond / 1e6).toFixed(1) : si(sample.perSecond)));
      out.push(`| ${workload} / ${LABEL[impl]} | ${cells.join(' | ')} |`);
    }
  }
  // The machine probe (bench/worker.mjs) taken in each task just before timing, as a share of the best seen:
  // a run where it is low was slowed by something else on the machine, not by the code.
  const probes = [...samples.values()].flat().map((sample) => sample.probe);
  const best = Math.max(...probes);
  const probeCells = Array.from({ length: RUNS }, (_, run) => {
    const ofRun = [...samples.values()].flatMap((runs) => (runs[run] === undefined ? [] : [runs[run].probe / best]));
    return `${(100 * Math.min(...ofRun)).toFixed(0)}–${(100 * Math.max(...ofRun)).toFixed(0)}%`;
  });
  out.push(`| machine speed during the run (plain-JS probe, % of the best) | ${probeCells.join(' | ')} |`);
  out.push('', '</details>', '');

  out.push('## Memory (every corpus file compiled for Googlebot at once)', '');
  out.push('| matcher | agents | rules | rules\' text | WebAssembly memory | JS heap + ArrayBuffers | per agent | ÷ rules\' text | all disposed: WebAssembly memory back to baseline |');
  out.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  let memoryOk = true;
  for (const entry of memory) {
    const wasm = entry.wasm.after - entry.wasm.before;
    const js = entry.heapUsed.after - entry.heapUsed.before + (entry.arrayBuffers.after - entry.arrayBuffers.before);
    const total = wasm + js;
    const back = entry.wasm.disposed === entry.wasm.before;
    if (entry.impl === 'wasm') memoryOk = total <= 2 * entry.ruleTextBytes && back;
    out.push(
      `| ${LABEL[/** @type {Impl} */ (entry.impl)]} | ${entry.agents} | ${entry.rules.toLocaleString('en')} | ${megabytes(entry.ruleTextBytes)} | ` +
        `${megabytes(wasm)} | ${megabytes(js)} | ${Math.round(total / entry.agents).toLocaleString('en')} B | ` +
        `${(total / entry.ruleTextBytes).toFixed(2)}× (WebAssembly alone ${(wasm / entry.ruleTextBytes).toFixed(2)}×) | ` +
        `${entry.impl === 'wasm' ? `${back ? 'yes' : '**no**'}: ${entry.wasm.before.toLocaleString('en')} → ${entry.wasm.after.toLocaleString('en')} → ${entry.wasm.disposed.toLocaleString('en')} B` : 'n/a'} |`,
    );
  }
  out.push('');
  out.push(
    `Target: a compiled agent costs at most 2× its rules' text (counted as \`Disallow: \` + pattern per compiled rule), ` +
      `in WebAssembly memory and JS heap together, and none of it leaks after dispose: ${mark(memoryOk)}. ` +
      'JS heap: `heapUsed` + `arrayBuffers` growth after `global.gc()`, the compiled agents still referenced.',
    '',
  );

  out.push(`## Allocation (${alloc.count.toLocaleString('en')} single checks on the hot site)`, '');
  out.push('| loop | calls | seconds | scavenges | major GCs | other GC entries | heap growth | calls/s |');
  out.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  /** @param {string} title @param {Collections} c */
  const allocRow = (title, c) =>
    `| ${title} | ${c.calls.toLocaleString('en')} | ${c.seconds.toFixed(1)} | ${c.minor} | ${c.major} | ${c.other} | ${megabytes(c.heapDelta)} | ${si(c.perSecond)} |`;
  out.push(allocRow(`\`rules.isAllowed(url)\`, all ${alloc.urls.toLocaleString('en')} URLs`, alloc.checks));
  out.push(allocRow('control: the same walk for as long, no check', alloc.control));
  if (alloc.asciiChecks !== undefined) {
    out.push(allocRow(`\`rules.isAllowed(url)\`, only the ${alloc.asciiUrls.toLocaleString('en')} ASCII URLs`, alloc.asciiChecks));
  }
  // Allocation on the check path shows as scavenges and heap growth beyond the control's; major GCs that
  // come with no growth are V8's timers (the memory reducer after the harness's own gc()), in both loops.
  const extraGrowth = alloc.checks.heapDelta - alloc.control.heapDelta;
  const allocOk = alloc.checks.minor <= alloc.control.minor && extraGrowth < 1e6;
  out.push('');
  out.push(
    `Target: no garbage collection attributable to checking (no more scavenges than the control, and under 1 MB more heap growth): ${mark(allocOk)}` +
      (allocOk || alloc.asciiChecks === undefined
        ? '.'
        : alloc.asciiChecks.minor <= alloc.control.minor
          ? ' (URLs with non-ASCII characters allocate; ASCII URLs do not).'
          : '.'),
    '',
  );

  out.push('## Agreement with robotstxt-wasm (wasm, single check), before timing', '');
  out.push('| engine | crawler mix | hot site | hot site, batch |');
  out.push('| --- | ---: | ---: | ---: |');
  for (const impl of IMPLS) {
    // Our own engines run the same bytecode: any difference there is a bug, and is marked as one.
    const ours = impl === 'wasm' || impl === 'typescript';
    const cell = (/** @type {string} */ workload) => {
      const entry = agreement[`${workload}/${impl}`];
      if (entry === undefined) return '–';
      const differ = entry.total - entry.same;
      return `${entry.percent.toFixed(2)}% (${differ.toLocaleString('en')} differ)${ours && differ > 0 ? ' ✗ **must be 100%**' : ''}`;
    };
    out.push(`| ${LABEL[impl]} | ${cell('crawler')} | ${cell('hot')} | ${cell('batch')} |`);
  }
  out.push('');
  out.push(
    'Our batch entry and the TS executor (the same bytecode) must agree 100%. The peers differ on edge cases; the causes found by reading ' +
      'the differing cases: Google\'s accepted spellings (`Disalow:`, `User Agent:`, `Disallow /x` without a colon), which the ' +
      'peers ignore; user-agent lines separated only by non-rule lines (`Crawl-delay`, `Sitemap`) forming one group; several `*` ' +
      'groups merged (robots-txt-guard takes the first) and its substring match of agents (`User-agent: crawler` applies to ' +
      '`SomeCrawler`); an empty query (`/a?`) dropped by robots-parser\'s URL parser; robots-parser percent-encoding `|`, `[`, `]` ' +
      'and spaces in the URL but not in the pattern, and trimming Unicode spaces from patterns; `/robots.txt` always allowed ' +
      '(RFC 9309); Google\'s `index.html` rule. First examples of each engine:',
    '',
  );
  for (const impl of IMPLS.slice(1)) {
    const examples = disagreements[`crawler/${impl}`] ?? [];
    for (const example of examples.slice(0, 3)) {
      out.push(
        `- ${LABEL[impl]}: \`${example.site}\` ${example.agent} \`${example.path}\`: ours ${example.ours ? 'allow' : 'disallow'}, theirs ${example.theirs === true ? 'allow' : example.theirs === false ? 'disallow' : String(example.theirs)}`,
      );
    }
  }
  out.push('');
  out.push(`Total benchmark time: ${(seconds / 60).toFixed(1)} min.`, '');
  return out.join('\n');
}

main();
