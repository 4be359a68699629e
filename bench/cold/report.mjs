/**
 * The markdown of bench/cold/run.mjs: the "Cold path" section of bench/RESULTS.md, from the run's timings. Per
 * size tier, per URL count, per engine; the ratios to robots-parser (medians of the per-run ratios: within a
 * run the engines are timed back to back, so a slow spell of the machine slows both sides of a ratio alike);
 * target 3's compile throughput; the verdict checks; the cold path's targets, met or not.
 */
import { TIERS, URL_COUNTS } from '../lib/cold-inputs.mjs';
import { describeMachine } from '../lib/machine.mjs';
import { median } from '../lib/median.mjs';
import { sectionHeading } from '../lib/results.mjs';
import { mark, megabytes, spread, targetsTable, times } from '../lib/format.mjs';

/**
 * @typedef {import('./worker.mjs').ColdTiming} ColdTiming
 * @typedef {import('./worker.mjs').CompileTiming} CompileTiming
 * @typedef {import('./engines.mjs').ColdEngineName} ColdEngineName
 * @typedef {'after' | 'before'} Build
 * @typedef {{ label: string, ok: boolean, detail: string }} VerdictCheck
 * @typedef {{
 *   machine: import('../lib/machine.mjs').Machine, quick: boolean, runs: number, load: { before: number, after: number },
 *   builds: Record<Build, { dir: string, hash: string, tiers: boolean } | undefined>,
 *   inputs: { fingerprint: string, files: number, bytes: number, tierFiles: number[] },
 *   cold: Map<string, ColdTiming[]>, compile: Map<string, CompileTiming[]>, checks: VerdictCheck[], seconds: number,
 * }} ColdResults `cold` by coldKey, `compile` by compileKey
 */

/** robots-parser does not depend on the build: its runs are filed under `after`. */
export const PEER = 'robots-parser';

/** @param {Build} build @param {ColdEngineName} engine @param {number} urls */
export function coldKey(build, engine, urls) {
  return `${engine === PEER ? 'after' : build}/${engine}/${urls}`;
}

/** @param {Build} build @param {'indexed' | 'robots-parser'} engine */
export function compileKey(build, engine) {
  return `${engine === PEER ? 'after' : build}/${engine}`;
}

/** Hosts per second over the whole corpus, in one run. @param {ColdTiming} timing */
function filesPerSecond(timing) {
  return timing.tiers.reduce((sum, tier) => sum + tier.files, 0) / timing.tiers.reduce((sum, tier) => sum + tier.seconds, 0);
}

/** µs per host of one tier (or of all, for `tier` undefined), in one run. @param {ColdTiming} timing @param {number | undefined} tier */
function microsPerFile(timing, tier) {
  if (tier === undefined) return 1e6 / filesPerSecond(timing);
  const entry = timing.tiers[tier];
  return entry === undefined ? NaN : (1e6 * entry.seconds) / entry.files;
}

/** @param {number} micros */
function showMicros(micros) {
  return Number.isNaN(micros) ? 'n/a' : micros >= 100 ? micros.toFixed(0) : micros.toFixed(1);
}

/** @param {number} perSecond */
function showRate(perSecond) {
  return `${(perSecond / 1e3).toFixed(1)} k`;
}

/** The timings of one task, read by the report. */
class ColdTimings {
  /** @param {Map<string, ColdTiming[]>} cold */
  constructor(cold) {
    this.cold = cold;
  }

  /** @param {Build} build @param {ColdEngineName} engine @param {number} urls */
  runs(build, engine, urls) {
    return this.cold.get(coldKey(build, engine, urls)) ?? [];
  }

  /**
   * The median over runs of `engine`'s speed over robots-parser's in the same run: overall (files/s) or in a tier.
   * @param {Build} build @param {ColdEngineName} engine @param {number} urls @param {number | undefined} tier
   */
  ratio(build, engine, urls, tier) {
    const peer = this.runs(build, PEER, urls);
    return median(
      this.runs(build, engine, urls).flatMap((timing, run) => {
        const theirs = peer[run];
        return theirs === undefined ? [] : [microsPerFile(theirs, tier) / microsPerFile(timing, tier)];
      }),
    );
  }
}

/** @param {ColdEngineName} engine @param {ColdResults['builds']['after']} build */
function engineLabel(engine, build) {
  return {
    native: "native: `parseRobotsTxt(bytes).forAgent('Googlebot')`, checks, `dispose()`",
    indexed: `native, indexed tier forced (\`forAgent('Googlebot', { indexed: true })\`)${build?.tiers ? '' : ': n/a, this build has no tiers (always indexed)'}`,
    'drop-in': "drop-in: `robotsParser(url, decode(bytes)).isAllowed(u, 'Googlebot')`",
    'robots-parser': 'robots-parser 3.0.1, from the decoded bytes',
  }[engine];
}

/** The per-tier table of one URL count. @param {ColdResults} results @param {number} urls */
function tierTable(results, urls) {
  const t = new ColdTimings(results.cold);
  const tierHeads = TIERS.map((tier, i) => `${tier.label} (${results.inputs.tierFiles[i] ?? 0})`);
  const lines = [
    `### ${urls} URL${urls === 1 ? '' : 's'} per host (µs per host; all: hosts/s and µs per host)`,
    '',
    `| engine | all: hosts/s | all: µs | ${tierHeads.join(' | ')} |`,
    `| --- | ---: | ---: | ${TIERS.map(() => '---:').join(' | ')} |`,
  ];
  for (const engine of /** @type {const} */ (['native', 'indexed', 'drop-in', 'robots-parser'])) {
    const runs = t.runs('after', engine, urls);
    if (runs.length === 0) {
      lines.push(`| ${engineLabel(engine, results.builds.after)} | n/a | n/a | ${TIERS.map(() => 'n/a').join(' | ')} |`);
      continue;
    }
    const rates = runs.map(filesPerSecond);
    const cells = TIERS.map((_, tier) => {
      const values = runs.map((timing) => microsPerFile(timing, tier));
      return `${showMicros(median(values))} ${spread(values)}`;
    });
    lines.push(
      `| ${engineLabel(engine, results.builds.after)} | ${showRate(median(rates))} ${spread(rates)} | ${showMicros(1e6 / median(rates))} | ${cells.join(' | ')} |`,
    );
  }
  for (const engine of /** @type {const} */ (['native', 'indexed', 'drop-in'])) {
    if (t.runs('after', engine, urls).length === 0) continue;
    const cells = TIERS.map((_, tier) => `**${times(t.ratio('after', engine, urls, tier))}**`);
    lines.push(`| ${engine} ÷ robots-parser (speed) | **${times(t.ratio('after', engine, urls, undefined))}** | | ${cells.join(' | ')} |`);
  }
  lines.push('');
  return lines;
}

/** Target 3: parse + compile to the full indexed bytecode, whole corpus. @param {ColdResults} results @param {Build} build */
function compileRatio(results, build) {
  const ours = results.compile.get(compileKey(build, 'indexed')) ?? [];
  const theirs = results.compile.get(compileKey(build, PEER)) ?? [];
  return median(
    ours.flatMap((timing, run) => (theirs[run] === undefined ? [] : [/** @type {CompileTiming} */ (theirs[run]).seconds / timing.seconds])),
  );
}

/** @param {ColdResults} results */
function compileSection(results) {
  /** @param {CompileTiming[]} runs */
  const mbs = (runs) => runs.map((timing) => timing.bytes / timing.seconds / 1e6);
  const rows = /** @type {const} */ ([
    [
      'after',
      'indexed',
      results.builds.after?.tiers
        ? "`forAgent('Googlebot', { indexed: true })`, then `dispose()`"
        : "`forAgent('Googlebot')` (this build is always indexed), then `dispose()`",
    ],
    [
      'before',
      'indexed',
      results.builds.before?.tiers ? 'the before build, indexed forced' : 'the before build, `forAgent` (always indexed)',
    ],
    ['after', 'robots-parser', "robots-parser 3.0.1's parse (its parse builds all it checks with), text decoded beforehand"],
  ]);
  const lines = [
    '### Parse + compile to the full indexed bytecode, one agent, whole corpus (target 3)',
    '',
    '| engine | MB/s |',
    '| --- | ---: |',
  ];
  for (const [build, engine, label] of rows) {
    const runs = results.compile.get(compileKey(build, engine));
    if (runs === undefined) continue;
    const values = mbs(runs);
    lines.push(`| ${label} | ${median(values).toFixed(1)} ${spread(values)} |`);
  }
  lines.push('', `Ours at **${times(compileRatio(results, 'after'))}** robots-parser's parse (median of the per-run ratios).`, '');
  return lines;
}

/** @param {ColdResults} results */
function beforeAfterSection(results) {
  if (results.builds.before === undefined) return [];
  const t = new ColdTimings(results.cold);
  const lines = [
    `### Before → after (before: \`${results.builds.before.hash}\`, after: \`${results.builds.after?.hash}\`, interleaved)`,
    '',
    '| engine | URLs | before: µs per host | after: µs per host | after ÷ before (speed) | ≤ 1 KB: before → after µs |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const urls of URL_COUNTS) {
    for (const engine of /** @type {const} */ (['native', 'indexed', 'drop-in'])) {
      const before = t.runs('before', engine, urls);
      const after = t.runs('after', engine, urls);
      if (before.length === 0 && after.length === 0) continue;
      /** @param {ColdTiming[]} runs @param {number | undefined} tier */
      const micros = (runs, tier) => showMicros(median(runs.map((timing) => microsPerFile(timing, tier))));
      const speed = median(
        after.flatMap((timing, run) =>
          before[run] === undefined
            ? []
            : [microsPerFile(/** @type {ColdTiming} */ (before[run]), undefined) / microsPerFile(timing, undefined)],
        ),
      );
      lines.push(
        `| ${engine} | ${urls} | ${micros(before, undefined)} | ${micros(after, undefined)} | ${times(speed)} | ${micros(before, 0)} → ${micros(after, 0)} |`,
      );
    }
  }
  lines.push('');
  return lines;
}

/** The cold path's targets, with what this run measured where it measures them. @param {ColdResults} results */
function targetsSection(results) {
  const t = new ColdTimings(results.cold);
  const agree = results.checks.every((check) => check.ok);
  const one = t.ratio('after', 'native', 1, undefined);
  const eight = t.ratio('after', 'native', 8, undefined);
  const tierRatios = URL_COUNTS.flatMap((urls) => TIERS.map((_, tier) => t.ratio('after', 'native', urls, tier)));
  const worstTier = Math.min(...tierRatios);
  const dropIn = t.ratio('after', 'drop-in', 1, undefined);
  const compile = compileRatio(results, 'after');
  const notHere = 'not measured by this benchmark';
  const rows = [
    ['1. native cold path ≥ 4× robots-parser with 1 URL per host', times(one), mark(agree && one >= 4)],
    ['1. … ≥ 3× with 8 URLs per host', times(eight), mark(agree && eight >= 3)],
    [
      '1. … every size tier ≥ 2× (1 and 8 URLs)',
      `lowest ${times(worstTier)} (by tier, ${URL_COUNTS.map(
        (urls, u) =>
          `${urls} URL${urls === 1 ? '' : 's'}: ${tierRatios
            .slice(u * TIERS.length, (u + 1) * TIERS.length)
            .map(times)
            .join(', ')}`,
      ).join('; ')})`,
      mark(agree && worstTier >= 2),
    ],
    [
      "2. the drop-in's cold path ≥ 2.5× robots-parser (1 URL)",
      `${times(dropIn)} (8 URLs: ${times(t.ratio('after', 'drop-in', 8, undefined))})`,
      mark(agree && dropIn >= 2.5),
    ],
    ['2. … its crawler-mix single check ≥ 5×', `${notHere}: \`npm run bench\`, Throughput, crawler mix, drop-in ÷ robots-parser`, '–'],
    ["3. parse + compile to the full indexed bytecode ≥ 2× robots-parser's parse", times(compile), mark(compile >= 2)],
    ['4. the WebAssembly lexer alone ≥ 1 GB/s', `${notHere} (an internal: no public entry times it alone)`, '–'],
    ['5. CLI: new host ≤ 40 µs; random ≤ 1.3× sorted; ≥ 1.5 M lines/s with 2 workers', `${notHere}: \`npm run bench:cli\``, '–'],
    ['6. workerd: bytes → first verdict, beside Node', `\`npm run bench:workers\` (its cold-path row)`, '–'],
    ['7. no regression elsewhere', `${notHere}: \`node bench/matcher/compare.mjs BEFORE_DIST dist\``, '–'],
  ];
  return targetsTable('### Targets', rows, [
    `A target is met only with every verdict check below passing${agree ? ' (they all pass)' : ' (**one fails**: no speed counts)'}.`,
    '',
  ]);
}

/** @param {ColdResults} results */
function verdictSection(results) {
  const t = new ColdTimings(results.cold);
  const lines = ['### Verdicts, checked before any figure counts', ''];
  for (const check of results.checks) lines.push(`- ${mark(check.ok)} ${check.label}: ${check.detail}`);
  // Which tier answered: a forced row whose hosts are not all indexed did not force anything.
  for (const engine of /** @type {const} */ (['native', 'indexed'])) {
    for (const urls of URL_COUNTS) {
      const answered = t.runs('after', engine, urls)[0]?.answeredIn;
      if (answered === undefined) continue;
      const shown = Object.entries(answered)
        .map(([tier, hosts]) => `${tier} ${hosts.toLocaleString('en')}`)
        .join(', ');
      lines.push(`- ${engine}, ${urls} URL${urls === 1 ? '' : 's'}: hosts by the tier their rules were in after their checks: ${shown}`);
    }
  }
  lines.push('');
  return lines;
}

/** @param {ColdResults} results */
function probeLine(results) {
  const probes = [...results.cold.values(), ...results.compile.values()].flat().map((timing) => timing.probe);
  const best = Math.max(...probes);
  return `Machine speed during the timings (a plain-JS probe before each, as a share of the best seen): ${((100 * Math.min(...probes)) / best).toFixed(0)}–100%, median ${((100 * median(probes)) / best).toFixed(0)}%.`;
}

/** The title of this section in bench/RESULTS.md (its heading adds the run's date). */
export const TITLE = "Cold path: a host's robots.txt bytes → its first verdicts";

/** The section, as bench/RESULTS.md holds it. @param {ColdResults} results */
export function renderCold(results) {
  const { machine, runs, load, inputs, builds } = results;
  const tiers = TIERS.map((tier, i) => `${tier.label} ${inputs.tierFiles[i] ?? 0}`).join(', ');
  return [
    sectionHeading(machine.date, TITLE),
    '',
    `${describeMachine(machine)} · load average ${load.before.toFixed(2)} before, ${load.after.toFixed(2)} after · ` +
      `${runs} interleaved run${runs === 1 ? '' : 's'} per task, each in its own process (engines and builds alternating), a warm-up pass first; ` +
      'medians across runs (± half the range); ratios are medians of the per-run ratios' +
      (results.quick ? ' · **--quick run, not representative**' : ''),
    '',
    `\`node bench/cold/run.mjs\` (\`npm run bench:cold\`). Build: dist/index.js \`${builds.after?.hash}\`${builds.before ? `, before \`${builds.before.hash}\`` : ''} (sha-256 prefix). ` +
      `Inputs (fingerprint \`${inputs.fingerprint}\`): the corpus, ${inputs.files} files, ${megabytes(inputs.bytes)}, each body cut at 512,000 bytes ` +
      `and read as \`Uint8Array\` before timing; by size: ${tiers}. Agent \`Googlebot\`; per host 1 or 8 URLs drawn (seeded) from its own ` +
      'rules for the agent (on, under and beside each pattern, wildcards filled) and plain paths, so that verdicts vary. ' +
      'Each host is met cold: parsed from its bytes, asked, dropped. robots-parser and the drop-in take text: decoding the bytes is in their time.',
    '',
    probeLine(results),
    '',
    ...targetsSection(results),
    ...URL_COUNTS.flatMap((urls) => tierTable(results, urls)),
    ...compileSection(results),
    ...beforeAfterSection(results),
    ...verdictSection(results),
    `Total benchmark time: ${(results.seconds / 60).toFixed(1)} min.`,
    '',
  ].join('\n');
}
