/**
 * The WebAssembly lexer alone (the cold path's target 4 in bench/RESULTS.md: ≥ 1 GB/s): each corpus body (cut at 512,000 bytes) copied
 * into linear memory and lexed to records in chunks of 4,096 as src/engine/wasm-lexer.ts drives it, with no
 * handler work; MB/s of input over the whole corpus and by file-size tier.
 *
 * `node bench/lexer/run.mjs [dist…] [--runs N]` (by default dist/ alone, 5 runs); two builds (before, after) are
 * measured side by side with the ratio of each run's pair. Each run of each build is its own process, the
 * builds alternating, and every figure is the median across runs, reported with its spread (± half the
 * range) since the machine may be shared.
 * The module is read from `<dist>/matcher.wasm` and its layout (RECORD_SIZE, VECTOR_SLACK) from the globals
 * it exports, so that the bench copies nothing of the layout by hand.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusDirectory, loadCorpus } from '../../harness/corpus.mjs';
import { median } from '../lib/median.mjs';

const BODY_LIMIT = 512_000;
const RECORDS_PER_CHUNK = 4096;
/**
 * Each measurement lexes its files for this much CPU time at least, after a warm-up of the same length. CPU
 * time, not wall time: on a shared machine the process waits for a core, and that wait is not the lexer's.
 */
const MEASURE_MS = 1_500;
/** Size tiers, by upper bound in bytes (inclusive). */
const TIERS = /** @type {const} */ ([
  ['≤ 1 KB', 1024],
  ['1–4 KB', 4096],
  ['4–16 KB', 16_384],
  ['16–64 KB', 65_536],
  ['> 64 KB', Infinity],
]);
const ALL = 'whole corpus';
const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf];

/**
 * @typedef {{
 *   memory: WebAssembly.Memory,
 *   heapBase(): number,
 *   lex(body: number, length: number, start: number, lineNumber: number, out: number, maxRecords: number): number,
 *   lexResumeAt(): number,
 *   lexLineNumber(): number,
 *   lexFinished(): number,
 *   RECORD_SIZE: WebAssembly.Global,
 *   VECTOR_SLACK: WebAssembly.Global,
 * }} LexerModule
 */

/**
 * The lexer of the build in `dist`, as a function from a body to its record count.
 * @param {string} dist
 * @param {number} largest the longest body it will be given
 */
function loadLexer(dist, largest) {
  const module = new WebAssembly.Module(readFileSync(join(dist, 'matcher.wasm')));
  const exports = /** @type {LexerModule} */ (/** @type {unknown} */ (new WebAssembly.Instance(module, {}).exports));
  const recordSize = Number(exports.RECORD_SIZE.value);
  const slack = Number(exports.VECTOR_SLACK.value);
  const records = exports.heapBase();
  const bodyPointer = records + RECORDS_PER_CHUNK * recordSize;
  const needed = bodyPointer + largest + slack;
  const { memory } = exports;
  if (needed > memory.buffer.byteLength) memory.grow(Math.ceil((needed - memory.buffer.byteLength) / 65_536));
  const bytes = new Uint8Array(memory.buffer);
  /** @param {Uint8Array} body */
  return (body) => {
    bytes.set(body, bodyPointer);
    // The byte order mark, whole or partial, is skipped by the host (src/engine/wasm-lexer.ts).
    let start = 0;
    while (start < BYTE_ORDER_MARK.length && body[start] === BYTE_ORDER_MARK[start]) start++;
    let line = 0;
    let total = 0;
    for (;;) {
      total += exports.lex(bodyPointer, body.length, start, line, records, RECORDS_PER_CHUNK);
      if (exports.lexFinished()) return total;
      start = exports.lexResumeAt();
      line = exports.lexLineNumber();
    }
  };
}

/** @param {number} size */
function tierOf(size) {
  return TIERS.find(([, limit]) => size <= limit)?.[0] ?? ALL;
}

/**
 * One process's measurement: MB/s per tier and overall, and the records produced (a check that both builds
 * did the same work).
 * @param {string} dist
 */
function child(dist) {
  const bodies = loadCorpus().map(({ body }) => body.subarray(0, BODY_LIMIT));
  const lex = loadLexer(dist, Math.max(...bodies.map((body) => body.length)));
  /** @type {Map<string, Uint8Array[]>} */
  const groups = new Map([[ALL, bodies]]);
  for (const body of bodies) {
    const tier = tierOf(body.length);
    const group = groups.get(tier);
    if (group === undefined) groups.set(tier, [body]);
    else group.push(body);
  }
  /** @type {Record<string, { mbps: number, records: number, files: number, bytes: number }>} */
  const out = {};
  for (const [name, group] of groups) {
    const bytes = group.reduce((sum, body) => sum + body.length, 0);
    /** @returns {{ seconds: number, records: number }} */
    const pass = () => {
      let passes = 0;
      let records = 0;
      const begin = process.cpuUsage();
      let elapsed = 0;
      do {
        for (const body of group) records += lex(body);
        passes++;
        const { user, system } = process.cpuUsage(begin);
        elapsed = (user + system) / 1000;
      } while (elapsed < MEASURE_MS);
      return { seconds: elapsed / 1000 / passes, records: records / passes };
    };
    pass();
    const { seconds, records } = pass();
    out[name] = { mbps: bytes / 1e6 / seconds, records, files: group.length, bytes };
  }
  process.stdout.write(JSON.stringify(out));
}

/** @param {number} x */
const format = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

function main() {
  const args = process.argv.slice(2);
  if (args[0] === '--child') return child(resolve(args[1] ?? 'dist'));
  const runsAt = args.indexOf('--runs');
  const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 5;
  const dirs = args.filter((arg, i) => !arg.startsWith('--') && (runsAt < 0 || i !== runsAt + 1));
  const builds = (dirs.length > 0 ? dirs : ['dist']).map((dir) => resolve(dir));
  if (corpusDirectory() === undefined) {
    console.log('corpus absent (set ROBOTS_CORPUS): nothing to measure');
    return;
  }
  const self = fileURLToPath(import.meta.url);
  /** @type {Record<string, { mbps: number, records: number, files: number, bytes: number }>[][]} */
  const results = builds.map(() => []);
  for (let run = 0; run < runs; run++) {
    builds.forEach((dist, b) => {
      const output = execFileSync(process.execPath, [self, '--child', dist], { encoding: 'utf8', maxBuffer: 1 << 20 });
      results[b]?.push(JSON.parse(output));
    });
  }
  const names = [ALL, ...TIERS.map(([name]) => name)];
  const header = ['tier', 'files', 'MB', ...builds.map((dist, b) => `build ${b + 1} MB/s`)];
  if (builds.length === 2) header.push('ratio (median of per-run ratios)');
  console.log(`builds: ${builds.map((dist, b) => `${b + 1} = ${dist}`).join(', ')}; ${runs} interleaved runs each`);
  console.log(`| ${header.join(' | ')} |`);
  console.log(`| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`);
  for (const name of names) {
    const first = results[0]?.[0]?.[name];
    if (first === undefined) continue;
    const cells = [name, String(first.files), (first.bytes / 1e6).toFixed(2)];
    const perBuild = results.map((perRun) => perRun.map((result) => result[name]?.mbps ?? NaN));
    for (const values of perBuild) {
      const spread = (Math.max(...values) - Math.min(...values)) / 2 / median(values);
      cells.push(`${format(median(values))} ±${(spread * 100).toFixed(0)}%`);
    }
    const [before, after] = perBuild;
    if (before !== undefined && after !== undefined && builds.length === 2) {
      cells.push(`${median(after.map((value, i) => value / (before[i] ?? NaN))).toFixed(2)}×`);
    }
    console.log(`| ${cells.join(' | ')} |`);
  }
  const records = results.map((perRun) => perRun[0]?.[ALL]?.records);
  console.log(`records per pass over the corpus: ${records.join(' / ')}`);
}

main();
