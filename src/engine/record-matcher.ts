/**
 * The first verdicts of a ruleset, read from its rules as the file wrote them (RuleRecords), with nothing
 * compiled: no sort, no bytecode, no copy into the matcher's memory. A crawler meeting a host asks its rules
 * once or a few times, and for a small file compiling costs more than everything else on the way from its
 * bytes to the first verdict: two thirds of that time for a file ≤ 1 KB (docs/design.md#tiers).
 *
 * The rules are the compiled ones by construction: the same patterns kept (canMatch), normalized the same way
 * (percentNormalizeInto), the same `…/$` added by Google's index.html rule, ranked by the same priorityOf,
 * matched by the TypeScript matcher's matchesPattern, on the path its pathForRules prepares. Only the verdict
 * is answered: which of two equal rules decided does not change it, so repeats need no removing.
 * test/conformance/tiers.test.ts holds this tier to the compiled ones on the corpus, and test/conformance/differential.test.ts on random
 * files and URLs (the compiled tiers being held there to the reference executor and the oracle).
 *
 * The first verdict tries the records as they are, normalizing and ranking each rule as it goes. What every
 * later verdict would do again per rule (the can-match test, percent-normalizing, the priority, the
 * index.html rule's search for `/index.htm`) is done once, on the second, into the records' VerdictRules: a
 * host asked once pays nothing for it, one asked 8 times pays it once, and each verdict after is one tight loop.
 */
import { canMatch, indexPageDirectoryLength, priorityOf } from '../compile/rules.js';
import { needsNormalizing, percentNormalizeInto } from '../compile/normalize.js';
import { Scratch } from '../compile/scratch.js';
import type { RuleRecords, VerdictRules } from '../parse/rule-records.js';
import type { Profile } from '../profile.js';
import { isRobotsTxtPath, matchesPattern } from './matcher.js';
import { pathParamsQueryOf, withLeadingSlash } from './url-path.js';
import { DOLLAR } from '../bytes.js';

const utf8 = new TextEncoder();
/** The URL asked, as UTF-8. */
const urlScratch = new Scratch<Uint8Array>((length) => new Uint8Array(length));
/** The URL's path percent-normalized, for the URLs that normalizing changes. */
const pathScratch = new Scratch<Uint8Array>((length) => new Uint8Array(length));

/** One entry of VerdictRules: the span bytes[start, end) and the key (priority × 2, + 1 when anchored). */
function addEntry(entries: number[], start: number, end: number, priority: number, anchored: boolean): void {
  entries.push(start, end, priority * 2 + (anchored ? 1 : 0));
}

/** The records prepared for their verdicts under `profile` (VerdictRules): made once, kept on the records. */
function verdictRules(records: RuleRecords, profile: Profile): VerdictRules {
  const kept = records.verdictRules;
  if (kept !== undefined && kept.profile === profile) return kept;
  const source = records.patterns;
  // Patterns that percent-encoding leaves as they are (almost all) are read where they are.
  const plain = records.plainPatterns;
  const bytes = plain ? source : new Uint8Array(3 * records.patternBytes);
  const entries: number[] = [];
  let at = 0;
  for (let rule = 0; rule < records.count; rule++) {
    let start = records.start(rule);
    let end = records.end(rule);
    if (!canMatch(source, start, end)) continue;
    if (!plain) {
      const to = percentNormalizeInto(source, start, end, profile.normalizeUrl, bytes, at);
      start = at;
      end = at = to;
    }
    const allow = records.isAllow(rule);
    const anchored = bytes[end - 1] === DOLLAR;
    addEntry(entries, start, anchored ? end - 1 : end, priorityOf(end - start, allow), anchored);
    if (!allow || !profile.indexHtmlRule) continue;
    // The `…/$` derived from it is a prefix of the pattern itself, anchored: the same bytes, a shorter span.
    const directoryLength = indexPageDirectoryLength(bytes, start, end);
    if (directoryLength > 0) addEntry(entries, start, start + directoryLength - 1, priorityOf(directoryLength, true), true);
  }
  records.verdictRules = { profile, bytes: plain ? bytes : bytes.subarray(0, at), entries };
  return records.verdictRules;
}

/** A pattern normalized: the rare rules that percent-encoding changes (a first verdict's). */
const normalizedScratch = new Scratch<Uint8Array>((length) => new Uint8Array(length));

/**
 * `best` (a priority, priorityOf), or the priority of the normalized pattern bytes[start, end) of a rule when
 * it outranks `best` and matches `path`.
 */
function rank(path: Uint8Array, bytes: Uint8Array, start: number, end: number, allow: boolean, best: number): number {
  const priority = priorityOf(end - start, allow);
  if (priority >= best) return best;
  const anchored = end > start && bytes[end - 1] === DOLLAR;
  return matchesPattern(path, bytes, start, anchored ? end - 1 : end, anchored) ? priority : best;
}

/**
 * The first verdict: the same rules as VerdictRules holds, read straight from the records, each normalized
 * and ranked as it is tried. Preparing them costs more than this one pass, which a host asked once is all
 * that it needs.
 */
function allowsPathDirectly(records: RuleRecords, profile: Profile, path: Uint8Array): boolean {
  const source = records.patterns;
  const plain = records.plainPatterns;
  let best = Infinity;
  for (let rule = 0; rule < records.count; rule++) {
    let start = records.start(rule);
    let end = records.end(rule);
    if (!canMatch(source, start, end)) continue;
    let bytes = source;
    if (!plain && needsNormalizing(source, start, end)) {
      bytes = normalizedScratch.take(3 * (end - start));
      end = percentNormalizeInto(source, start, end, profile.normalizeUrl, bytes, 0);
      start = 0;
    }
    const allow = records.isAllow(rule);
    best = rank(path, bytes, start, end, allow, best);
    if (!allow || !profile.indexHtmlRule) continue;
    const directoryLength = indexPageDirectoryLength(bytes, start, end);
    // The `…/$` derived is the pattern's own prefix, anchored: ranked by its own length.
    if (directoryLength === 0) continue;
    const priority = priorityOf(directoryLength, true);
    if (priority < best && matchesPattern(path, bytes, start, start + directoryLength - 1, true)) best = priority;
  }
  return best === Infinity || best % 2 === 0;
}

/** Whether the highest-priority rule that matches `path` allows it (so also when none matches). */
function allowsPath(rules: VerdictRules, path: Uint8Array): boolean {
  const { bytes, entries } = rules;
  let best = Infinity;
  for (let i = 0; i < entries.length; i += 3) {
    const key = entries[i + 2] as number;
    const priority = key >>> 1;
    // Only a rule that outranks the best match so far can change the verdict.
    if (priority >= best) continue;
    if (matchesPattern(path, bytes, entries[i] as number, entries[i + 1] as number, (key & 1) === 1)) best = priority;
  }
  return best === Infinity || best % 2 === 0;
}

/** Writes `input` as UTF-8 into `out` (3 bytes per UTF-16 unit at most); returns the length. */
function encodeInto(input: string, out: Uint8Array): number {
  // Most URLs are ASCII: a loop costs less than the encoder's call.
  for (let i = 0; i < input.length; i++) {
    const unit = input.charCodeAt(i);
    if (unit >= 0x80) return utf8.encodeInto(input, out).written;
    out[i] = unit;
  }
  return input.length;
}

/**
 * The located path as the rules see it: matcher.ts's pathForRules, normalizing into a scratch array rather
 * than a new one (a URL with an escape or a non-ASCII byte would allocate on every verdict).
 */
function pathForRules(located: Uint8Array, profile: Profile): Uint8Array {
  let path = located;
  if (profile.pathEndsAtNul) {
    const nul = path.indexOf(0);
    if (nul >= 0) path = path.subarray(0, nul);
  }
  if (!profile.normalizeUrl || !needsNormalizing(path)) return path;
  const out = pathScratch.take(3 * path.length);
  return out.subarray(0, percentNormalizeInto(path, 0, path.length, true, out, 0));
}

/**
 * Whether `records` (one agent's selected rules) allow `input`: a URL string read as AgentRules.isAllowed()
 * reads it, or with `isPath` a path and query read just as they stand (a URL object's pathname + search).
 */
export function recordsAllow(records: RuleRecords, profile: Profile, input: string, isPath: boolean): boolean {
  // No pattern, no rule that can match: nothing is disallowed, whatever the URL (however long).
  if (records.patternBytes === 0) return true;
  const url = urlScratch.take(3 * input.length);
  const length = encodeInto(input, url);
  const located = isPath ? withLeadingSlash(url.subarray(0, length)) : pathParamsQueryOf(url, length);
  const path = pathForRules(located, profile);
  if (profile.robotsTxtAlwaysAllowed && isRobotsTxtPath(path)) return true;
  if (records.verdictRules !== undefined || records.directVerdicts > 0) return allowsPath(verdictRules(records, profile), path);
  records.directVerdicts++;
  return allowsPathDirectly(records, profile, path);
}
