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
 */
import { canMatch, indexPageDirectoryLength, priorityOf, writeIndexPageDirectory } from '../compile/rules.js';
import { needsNormalizing, percentNormalizeInto } from '../compile/normalize.js';
import { Scratch } from '../compile/scratch.js';
import type { RuleRecords } from '../parse/rule-records.js';
import type { Profile } from '../profile.js';
import { isRobotsTxtPath, matchesPattern, pathForRules } from './matcher.js';
import { pathParamsQueryOf, withLeadingSlash } from './url-path.js';
import { DOLLAR } from '../bytes.js';

const utf8 = new TextEncoder();
/** The URL asked, as UTF-8. */
const urlScratch = new Scratch<Uint8Array>((length) => new Uint8Array(length));
/** A pattern normalized: the rare rules that percent-encoding changes. */
const normalizedScratch = new Scratch<Uint8Array>((length) => new Uint8Array(length));
/** The `…/$` pattern Google's index.html rule derives from an allow. */
const derivedScratch = new Scratch<Uint8Array>((length) => new Uint8Array(length));

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

/** Whether the highest-priority rule of `records` that matches `path` allows it (so also when none matches). */
function allowsPath(records: RuleRecords, profile: Profile, path: Uint8Array): boolean {
  const source = records.patterns;
  let best = Infinity;
  for (let rule = 0; rule < records.count; rule++) {
    let start = records.start(rule);
    let end = records.end(rule);
    if (!canMatch(source, start, end)) continue;
    let bytes = source;
    if (!records.plainPatterns && needsNormalizing(source, start, end)) {
      bytes = normalizedScratch.take(3 * (end - start));
      end = percentNormalizeInto(source, start, end, profile.normalizeUrl, bytes, 0);
      start = 0;
    }
    const allow = records.isAllow(rule);
    best = rank(path, bytes, start, end, allow, best);
    if (!allow || !profile.indexHtmlRule) continue;
    const directoryLength = indexPageDirectoryLength(bytes, start, end);
    if (directoryLength === 0) continue;
    const derived = derivedScratch.take(directoryLength);
    writeIndexPageDirectory(bytes, start, directoryLength, derived, 0);
    best = rank(path, derived, 0, directoryLength, true, best);
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
 * Whether `records` (one agent's selected rules) allow `input`: a URL string read as AgentRules.isAllowed()
 * reads it, or with `isPath` a path and query read just as they stand (a URL object's pathname + search).
 */
export function recordsAllow(records: RuleRecords, profile: Profile, input: string, isPath: boolean): boolean {
  // No pattern, no rule that can match: nothing is disallowed, whatever the URL (however long).
  if (records.patternBytes === 0) return true;
  const url = urlScratch.take(3 * input.length);
  const length = encodeInto(input, url);
  const located = isPath ? withLeadingSlash(url.subarray(0, length)) : pathParamsQueryOf(url, length);
  const path = pathForRules(located, profile.pathEndsAtNul, profile.normalizeUrl);
  if (profile.robotsTxtAlwaysAllowed && isRobotsTxtPath(path)) return true;
  return allowsPath(records, profile, path);
}
