/**
 * How many corpus files carry usage lines: Content-Usage (draft-ietf-aipref-attach-05 §3), Content-Signal
 * (https://contentsignals.org/) and License, and how many have a group holding a Content-Usage or Content-Signal
 * line, as the parser groups them. Run alone it prints the count; bench/usage/run.mjs puts it in its RESULTS.md
 * section.
 *
 *   node bench/usage/corpus-count.mjs [--dist DIR]      DIR: a built dist/ (./dist by default; `npm run build` first)
 *
 * A line counts by its key as the parser reads keys (src/parse/records.ts, src/parse/group-extensions.ts): a `#`
 * starts a comment, ASCII whitespace around the line and around the key is dropped, the key is what stands before
 * the first `:` (or, on a line without one, the first of exactly two space-separated tokens), compared
 * case-insensitively with the whole name. Wherever the line stands: a usage line before any User-agent line
 * counts here (the parser ignores it), so does a License line whose value is not a URL. The parser then tells
 * which lines are in a group (RobotsTxt.groups[].usage) and which License values it keeps (RobotsTxt.licenses);
 * the count refuses a file where the parser found a line this reading did not.
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { corpusDirectory, expectedDirectory, loadCorpus } from '../../harness/corpus.mjs';
import { cappedBody } from '../lib/workloads.mjs';
import { lineEnds } from './inputs.mjs';

/**
 * @typedef {'content-usage' | 'content-signal' | 'license'} CountedKey
 * @typedef {{ files: number, lines: number }} KeyCount files carrying the key, and its lines in all of them
 * @typedef {{
 *   files: number,
 *   keys: Record<CountedKey, KeyCount>,
 *   inGroup: { files: number, contentUsage: number, contentSignal: number },
 *   licensesKept: { files: number, urls: number },
 *   examples: Record<CountedKey, string[]>,
 * }} CorpusCount `inGroup`: files with a group holding a usage line, and those lines by kind;
 * `licensesKept`: files whose License lines give at least one absolute URL, and those URLs
 * @typedef {{ groups: readonly { usage?: readonly { source: string }[] }[], licenses: readonly string[], dispose(): void }} Parsed
 */

export const COUNTED_KEYS = /** @type {const} */ (['content-usage', 'content-signal', 'license']);
const EXAMPLES = 5;

const HASH = 0x23;
const COLON = 0x3a;

/** @param {number | undefined} byte */
function isAsciiWhitespace(byte) {
  return byte === 0x20 || (byte !== undefined && byte >= 0x09 && byte <= 0x0d);
}

/** @param {number | undefined} byte */
function isSpaceOrTab(byte) {
  return byte === 0x20 || byte === 0x09;
}

/**
 * The key of the line body[start, end) lower-cased, if the line is a record; undefined for a blank line, a comment
 * or a malformed one.
 * @param {Uint8Array} body @param {number} start @param {number} end
 */
export function lineKey(body, start, end) {
  const nul = body.subarray(start, end).indexOf(0);
  if (nul >= 0) end = start + nul;
  const hash = body.subarray(start, end).indexOf(HASH);
  if (hash >= 0) end = start + hash;
  while (start < end && isAsciiWhitespace(body[start])) start++;
  while (end > start && isAsciiWhitespace(body[end - 1])) end--;
  if (start === end) return undefined;
  const colon = body.subarray(start, end).indexOf(COLON);
  let separator = colon < 0 ? end : start + colon;
  if (colon < 0) {
    // No colon: a key only when the line is exactly two tokens (`Content-Usage train-ai=n`).
    separator = start;
    while (separator < end && !isSpaceOrTab(body[separator])) separator++;
    let valueStart = separator;
    while (valueStart < end && isSpaceOrTab(body[valueStart])) valueStart++;
    if (separator === end) return undefined;
    for (let i = valueStart; i < end; i++) if (isSpaceOrTab(body[i])) return undefined;
  }
  let keyEnd = separator;
  while (keyEnd > start && isAsciiWhitespace(body[keyEnd - 1])) keyEnd--;
  if (keyEnd === start) return undefined;
  return new TextDecoder().decode(body.subarray(start, keyEnd)).toLowerCase();
}

/**
 * @param {readonly { name: string, body: Uint8Array }[]} files
 * @param {(body: Uint8Array) => Parsed} parseRobotsTxt
 * @returns {CorpusCount}
 */
export function countUsageLines(files, parseRobotsTxt) {
  /** @type {CorpusCount} */
  const count = {
    files: files.length,
    keys: { 'content-usage': { files: 0, lines: 0 }, 'content-signal': { files: 0, lines: 0 }, license: { files: 0, lines: 0 } },
    inGroup: { files: 0, contentUsage: 0, contentSignal: 0 },
    licensesKept: { files: 0, urls: 0 },
    examples: { 'content-usage': [], 'content-signal': [], license: [] },
  };
  for (const { name, body } of files) {
    // What the parser reads: the body cut at its limit.
    const capped = cappedBody(body);
    const ends = lineEnds(capped);
    /** @type {Record<CountedKey, number>} */
    const lines = { 'content-usage': 0, 'content-signal': 0, license: 0 };
    for (let line = 1; line < ends.length; line++) {
      const key = lineKey(capped, /** @type {number} */ (ends[line - 1]), /** @type {number} */ (ends[line]));
      const counted = COUNTED_KEYS.find((candidate) => candidate === key);
      if (counted !== undefined) lines[counted]++;
    }
    for (const key of COUNTED_KEYS) {
      if (lines[key] === 0) continue;
      count.keys[key].files++;
      count.keys[key].lines += lines[key];
      if (count.examples[key].length < EXAMPLES) count.examples[key].push(name);
    }
    const robots = parseRobotsTxt(capped);
    const usage = robots.groups.flatMap((group) => group.usage ?? []);
    const contentUsage = usage.filter((statement) => statement.source === 'content-usage').length;
    const contentSignal = usage.length - contentUsage;
    if (contentUsage > lines['content-usage'] || contentSignal > lines['content-signal'] || robots.licenses.length > lines.license)
      throw new Error(`${name}: the parser found usage or License lines that this count's reading of keys did not`);
    if (usage.length > 0) count.inGroup.files++;
    count.inGroup.contentUsage += contentUsage;
    count.inGroup.contentSignal += contentSignal;
    if (robots.licenses.length > 0) count.licensesKept.files++;
    count.licensesKept.urls += robots.licenses.length;
    robots.dispose();
  }
  return count;
}

/** @param {number} part @param {number} whole */
function share(part, whole) {
  return `${((100 * part) / whole).toFixed(part > 0 && part < whole / 100 ? 2 : 1)} %`;
}

/**
 * The count as markdown lines: a table, then what it means.
 * @param {CorpusCount} count
 */
export function renderCount(count) {
  const { files, keys, inGroup, licensesKept, examples } = count;
  /** @param {CountedKey} key @param {string} label */
  const row = (key, label) =>
    `| ${label} | ${keys[key].files} | ${share(keys[key].files, files)} | ${keys[key].lines} | ${examples[key].map((name) => `\`${name}\``).join(', ') || '–'} |`;
  return [
    `Of the corpus's ${files.toLocaleString('en-US')} files:`,
    '',
    '| lines keyed | files | share | lines | files (first few) |',
    '| --- | ---: | ---: | ---: | --- |',
    row('content-usage', '`Content-Usage`'),
    row('content-signal', '`Content-Signal`'),
    row('license', '`License`'),
    `| a group holding a \`Content-Usage\` or \`Content-Signal\` line | ${inGroup.files} | ${share(inGroup.files, files)} | ${inGroup.contentUsage + inGroup.contentSignal} | |`,
    '',
    `A key counts as the parser reads it (any case, whitespace around it, \`#\` comments dropped), wherever the line stands; ` +
      `the group row is the parser's grouping. License values kept (absolute URLs): ${licensesKept.urls} in ${licensesKept.files} files.`,
  ];
}

async function main() {
  if (corpusDirectory() === undefined) {
    console.log(`Count skipped: robots corpus not found at ${expectedDirectory()}; set ROBOTS_CORPUS to run it.`);
    return;
  }
  const at = process.argv.indexOf('--dist');
  const dist = resolve(at < 0 ? new URL('../../dist', import.meta.url).pathname : (process.argv[at + 1] ?? 'dist'));
  /** @type {typeof import('../../src/index.js')} */
  const lib = await import(pathToFileURL(join(dist, 'index.js')).href);
  console.log(`Corpus: ${corpusDirectory()}\n`);
  console.log(renderCount(countUsageLines(loadCorpus(), (body) => lib.parseRobotsTxt(body))).join('\n'));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
