/**
 * One agent's rules → normalized patterns in priority order, so that the first match is the answer.
 *
 * - Patterns are percent-normalized (src/compile/normalize.ts) for the profile.
 * - Priority is the normalized pattern's length in octets, `*` and `$` counted (RFC 9309 §2.2.2: the most
 *   specific match wins); on equal length, allow before disallow; then the earlier line.
 * - Empty patterns have no effect, and a pattern starting with neither `/` nor `*` can never match a path:
 *   both are left out.
 * - Google's index.html rule: `Allow: /dir/index.htm…` also allows `/dir/$`, as a rule of its own.
 * - A rule that repeats another (the same normalized pattern, the same kind) is kept once: the first in
 *   priority order, the earliest line, which is the one that decided (and that explain() reported) before.
 *   A file of thousands of copies of one wildcard line then costs one rule per check.
 *
 * The rules are read where the parser packed them (RuleRecords) and compiled into typed arrays that are
 * reused from one compile to the next: no object and no allocation per rule.
 */
import type { Profile } from '../profile.js';
import type { RuleRange, RuleRecords } from '../parse/rule-records.js';
import type { PatternList } from './bytecode.js';
import { hashBytes } from './byte-strings.js';
import { percentNormalizeInto } from './normalize.js';
import { Scratch } from './scratch.js';
import { DOLLAR, SLASH, STAR } from '../bytes.js';

/**
 * The rules of one agent, in priority order: what the bytecode and the rule table are written from. Its
 * arrays are scratch arrays (src/compile/scratch.ts), longer than `count` and valid until the next compile:
 * write the bytecode and the rule table from them at once.
 */
export interface CompiledRules extends PatternList {
  /** Per rule: the record (in the file's RuleRecords) it comes from, with DERIVED when it is the index.html rule's. */
  readonly sources: Uint32Array;
}

/** In CompiledRules.sources: the rule is `…/$`, derived by the index.html rule from the allow it names. */
export const DERIVED = 0x8000_0000;

const INDEX_HTM = new TextEncoder().encode('/index.htm');

/**
 * Sort keys: priority above, the rule's place in line order below, so that a native numeric sort of a
 * Float64Array puts the rules in priority order (lengths stay below 2^20: a line holds at most 16,663
 * bytes, three times that once percent-encoded; 2^52 stays exact).
 */
const ORDER_BITS = 2 ** 31;
const LENGTH_LIMIT = 2 ** 20;

/** Whether out[at, end) holds `/index.htm` at `at`. */
function indexPageAt(out: Uint8Array, at: number, end: number): boolean {
  if (at + INDEX_HTM.length > end) return false;
  for (let i = 0; i < INDEX_HTM.length; i++) if (out[at + i] !== INDEX_HTM[i]) return false;
  return true;
}

/**
 * Whether the pattern source[start, end), as written, can ever match: empty patterns have no effect, and a
 * path starts with `/`, so a pattern must start with `/` or `*` (percent-encoding keeps both and makes neither).
 */
export function canMatch(source: Uint8Array, start: number, end: number): boolean {
  const first = source[start];
  return end > start && (first === SLASH || first === STAR);
}

/**
 * Google's index.html rule: for the normalized allow pattern bytes[start, end) of the form `…/index.htm…`,
 * the length of the `…/$` it also allows; 0 for any other pattern.
 */
export function indexPageDirectoryLength(bytes: Uint8Array, start: number, end: number): number {
  let slash = end - 1;
  while (slash >= start && bytes[slash] !== SLASH) slash--;
  return slash >= start && indexPageAt(bytes, slash, end) ? slash - start + 2 : 0;
}

/**
 * Writes into `to` at `at` the `…/$` pattern (of `length` bytes, indexPageDirectoryLength) derived from the
 * pattern at `start` in `from` (which may be `to`).
 */
export function writeIndexPageDirectory(from: Uint8Array, start: number, length: number, to: Uint8Array, at: number): void {
  to.set(from.subarray(start, start + length - 1), at);
  to[at + length - 1] = DOLLAR;
}

/**
 * A rule's priority as one number, lower first: the normalized pattern's length in octets, longer first
 * (`*` and `$` counted: RFC 9309 §2.2.2, the most specific match wins), then allow before disallow. Even
 * for an allow.
 */
export function priorityOf(length: number, allow: boolean): number {
  return (LENGTH_LIMIT - length) * 2 + (allow ? 0 : 1);
}

const newBytes = (length: number): Uint8Array => new Uint8Array(length);
const newWords = (length: number): Uint32Array => new Uint32Array(length);
// The rules as read, in line order: their normalized patterns, and sort keys that put them in priority order.
const patternScratch = new Scratch(newBytes);
const startScratch = new Scratch(newWords);
const lengthScratch = new Scratch(newWords);
const sourceScratch = new Scratch(newWords);
const keyScratch = new Scratch((length) => new Float64Array(length));
// The rules kept, in priority order.
const keptStartScratch = new Scratch(newWords);
const keptLengthScratch = new Scratch(newWords);
const keptSourceScratch = new Scratch(newWords);
const keptAllowScratch = new Scratch(newBytes);
/** The hash table of a long run: the kept rules by the hash of their patterns, -1 for none. */
const slotScratch = new Scratch((length) => new Int32Array(length));

/** Whether patterns[aStart, aStart + length) and patterns[bStart, …) are equal; compared from the end, where siblings differ. */
function sameBytes(patterns: Uint8Array, aStart: number, bStart: number, length: number): boolean {
  for (let i = length - 1; i >= 0; i--) if (patterns[aStart + i] !== patterns[bStart + i]) return false;
  return true;
}

/**
 * Compiles the rules of `ranges` (a selection's groups, in file order) of `records`: normalized into one
 * buffer, sorted by priority, each repeated rule (the same kind, the same normalized pattern) after its
 * first left out.
 */
export function compileRules(records: RuleRecords, ranges: readonly RuleRange[], profile: Profile): CompiledRules {
  const source = records.patterns;
  let written = 0;
  let rules = 0;
  for (const range of ranges) {
    rules += range.endRule - range.firstRule;
    for (let rule = range.firstRule; rule < range.endRule; rule++) written += records.end(rule) - records.start(rule);
  }
  // Room for the patterns as written; grown when percent-encoding or `…/$` needs more.
  let bytes = patternScratch.take(written);
  // At most one rule derived per rule.
  const starts = startScratch.take(2 * rules);
  const lengths = lengthScratch.take(2 * rules);
  const sources = sourceScratch.take(2 * rules);
  const keys = keyScratch.take(2 * rules);
  let at = 0;
  let count = 0;
  const add = (start: number, length: number, allow: boolean, from: number): void => {
    starts[count] = start;
    lengths[count] = length;
    sources[count] = from;
    keys[count] = priorityOf(length, allow) * ORDER_BITS + count;
    count++;
  };
  for (const range of ranges) {
    for (let rule = range.firstRule; rule < range.endRule; rule++) {
      const start = records.start(rule);
      const end = records.end(rule);
      if (!canMatch(source, start, end)) continue;
      bytes = patternScratch.grow(bytes, at + 3 * (end - start), at);
      const patternStart = at;
      at = percentNormalizeInto(source, start, end, profile.normalizeUrl, bytes, at);
      const allow = records.isAllow(rule);
      add(patternStart, at - patternStart, allow, rule);
      if (!allow || !profile.indexHtmlRule) continue;
      const directoryLength = indexPageDirectoryLength(bytes, patternStart, at);
      if (directoryLength === 0) continue;
      bytes = patternScratch.grow(bytes, at + directoryLength, at);
      writeIndexPageDirectory(bytes, patternStart, directoryLength, bytes, at);
      add(at, directoryLength, true, rule | DERIVED);
      at += directoryLength;
    }
  }
  keys.subarray(0, count).sort();
  return withoutRepeats(bytes, keys, count, starts, lengths, sources);
}

/** Runs of rules of one length and kind longer than this are searched for repeats through a hash table. */
const SHORT_RUN = 16;

/**
 * The rules in the priority order `order` gives (sort keys), each repeated rule after its first left out.
 * Repeats share a length and a kind, so they fall in the same run of the sorted rules: a short run is
 * compared pair by pair, a long one (thousands of copies of a line) through an open-addressing table of
 * the rules kept.
 */
function withoutRepeats(
  bytes: Uint8Array,
  order: Float64Array,
  count: number,
  starts: Uint32Array,
  lengths: Uint32Array,
  sources: Uint32Array,
): CompiledRules {
  const keptStarts = keptStartScratch.take(count);
  const keptLengths = keptLengthScratch.take(count);
  const keptSources = keptSourceScratch.take(count);
  const keptAllows = keptAllowScratch.take(count);
  let kept = 0;
  for (let runStart = 0; runStart < count;) {
    const priority = Math.floor((order[runStart] as number) / ORDER_BITS);
    let runEnd = runStart + 1;
    while (runEnd < count && Math.floor((order[runEnd] as number) / ORDER_BITS) === priority) runEnd++;
    const firstKept = kept;
    let slots: Int32Array | undefined;
    let mask = 0;
    if (runEnd - runStart > SHORT_RUN) {
      let size = 1;
      while (size < 2 * (runEnd - runStart)) size *= 2;
      slots = slotScratch.take(size).fill(-1, 0, size);
      mask = size - 1;
    }
    for (let k = runStart; k < runEnd; k++) {
      const candidate = (order[k] as number) - priority * ORDER_BITS;
      const start = starts[candidate] as number;
      const length = lengths[candidate] as number;
      let repeat = false;
      if (slots === undefined) {
        for (let j = firstKept; j < kept && !repeat; j++) repeat = sameBytes(bytes, keptStarts[j] as number, start, length);
      } else {
        let slot = hashBytes(bytes, start, start + length) & mask;
        for (; slots[slot] !== -1 && !repeat; slot = (slot + 1) & mask)
          repeat = sameBytes(bytes, keptStarts[slots[slot] as number] as number, start, length);
        if (!repeat) slots[slot] = kept;
      }
      if (repeat) continue;
      keptStarts[kept] = start;
      keptLengths[kept] = length;
      keptSources[kept] = sources[candidate] as number;
      keptAllows[kept] = priority % 2 === 0 ? 1 : 0;
      kept++;
    }
    runStart = runEnd;
  }
  return { count: kept, bytes, starts: keptStarts, lengths: keptLengths, allows: keptAllows, sources: keptSources };
}
