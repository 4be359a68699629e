/**
 * The first checks of an agent's rules, answered by a scan of its normalised patterns rule by rule, with
 * no compile: most hosts of a broad crawl are asked once or a few times, and compiling their rules for the
 * WebAssembly matcher costs more than scanning them that often (the caller compiles once an agent has
 * been asked UNCOMPILED_CHECKS times, or when a scan could cost more than SCAN_WORK_LIMIT steps: RuleRecords.scanWork()).
 *
 * robots-parser's matching: `*` matches any run of characters, `$` only as a pattern's last character
 * anchors it at the path's end, every other character matches itself, and a pattern matches a path that
 * starts with what it describes. Its precedence: the longest pattern; an allow wins a tie; else the first.
 * The scan finds a pattern's pieces (the runs between `*`s) leftmost, each after the one before, the first
 * at the path's start and, for an anchored pattern, the last at its end: leftmost is never worse, so a
 * match exists exactly when this finds one.
 */
import type { RuleRecords } from '../parse/rule-records.js';
import { DOLLAR, STAR } from '../bytes.js';

/**
 * Checks answered by a scan of an agent's rules as written, before they are compiled (the drop-in's
 * counterpart of RECORD_CHECKS in src/api/agent-rules.ts). Compiling a median agent (9 rules) costs
 * about as much as 20 scans of it; a crawler that asks more than a few URLs of a host goes on asking.
 */
export const UNCOMPILED_CHECKS = 8;

/** Whether `path` at `at` holds patterns[start, end) (no `*` in it). */
function holdsAt(patterns: Uint8Array, start: number, end: number, path: string, at: number): boolean {
  if (at + (end - start) > path.length) return false;
  for (let i = start; i < end; i++, at++) if (path.charCodeAt(at) !== patterns[i]) return false;
  return true;
}

/** Where patterns[start, end) first occurs in `path` at or after `from`, or -1. */
function find(patterns: Uint8Array, start: number, end: number, path: string, from: number): number {
  for (let at = from; at + (end - start) <= path.length; at++) if (holdsAt(patterns, start, end, path, at)) return at;
  return -1;
}

/** Where the first `*` in patterns[start, end) is, or `end`. */
function nextStar(patterns: Uint8Array, start: number, end: number): number {
  for (let i = start; i < end; i++) if (patterns[i] === STAR) return i;
  return end;
}

/** Whether the pattern patterns[start, end) matches `path`, robots-parser's way. */
export function patternMatches(patterns: Uint8Array, start: number, end: number, path: string): boolean {
  const anchored = end > start && patterns[end - 1] === DOLLAR;
  if (anchored) end--;
  let star = nextStar(patterns, start, end);
  if (!holdsAt(patterns, start, star, path, 0)) return false;
  let at = star - start;
  if (star === end) return !anchored || at === path.length;
  for (;;) {
    const pieceStart = star + 1;
    star = nextStar(patterns, pieceStart, end);
    if (star === end) {
      if (!anchored) return find(patterns, pieceStart, end, path, at) >= 0;
      const last = path.length - (end - pieceStart);
      return last >= at && holdsAt(patterns, pieceStart, end, path, last);
    }
    const found = find(patterns, pieceStart, star, path, at);
    if (found < 0) return false;
    at = found + (star - pieceStart);
  }
}

/** The line of the rule that decides `path` (0 when none does), negated for a disallow. */
export function scanSignedLine(records: RuleRecords, path: string): number {
  const patterns = records.patterns;
  let best = -1;
  let bestLength = -1;
  for (let rule = 0; rule < records.count; rule++) {
    const start = records.start(rule);
    const end = records.end(rule);
    const length = end - start;
    // Only a longer pattern, or an allow as long as a disallow, can take the decision from the one found.
    if (length < bestLength || (length === bestLength && (!records.isAllow(rule) || records.isAllow(best)))) continue;
    if (patternMatches(patterns, start, end, path)) {
      best = rule;
      bestLength = length;
    }
  }
  if (best < 0) return 0;
  return records.isAllow(best) ? records.line(best) : -records.line(best);
}
