/**
 * The TypeScript matcher: runs the bytecode (src/compile/bytecode.ts) in plain TypeScript, the reference and
 * the fallback where WebAssembly cannot run. Its twin is the WebAssembly matcher (assembly/matcher.ts); the
 * names are theirs (decide, decidePath, verdictOf).
 *
 * Rule by rule (decideRuleByRule) it reads only the rule table and is written to be obviously right rather
 * than fast, on plain arrays: that way shares no algorithm with the WebAssembly matcher. A block with a piece
 * automaton is decided with it (src/engine/automaton.ts, a port of the WebAssembly one), so that a hostile
 * file costs this matcher no more than linear time either. The differential tests hold the WebAssembly
 * matcher to both ways, and all of them to a regular-expression oracle built from the definition of a pattern.
 */
import {
  HEADER_FLAGS,
  HEADER_RULE_COUNT,
  HEADER_SIZE,
  NO_MATCH,
  ROBOTS_TXT_IMPLICIT_ALLOW,
  RULE_ALLOW,
  RULE_END_ANCHORED,
  RULE_ENTRY_SIZE,
  RULE_FLAGS,
  RULE_IN_AUTOMATON,
  RULE_PATTERN_LENGTH,
  RULE_PATTERN_OFFSET,
  RULESET_NORMALIZE_URL,
  RULESET_PATH_ENDS_AT_NUL,
  RULESET_ROBOTS_TXT_ALLOWED,
} from '../layout.js';
import { automatonOf } from './automaton.js';
import { percentNormalize } from '../compile/normalize.js';
import { pathParamsQuery, withLeadingSlash } from './url-path.js';
import { QUESTION, STAR } from '../bytes.js';

const ROBOTS_TXT = new TextEncoder().encode('/robots.txt');

/** Decides `url` (a URL or a path, UTF-8): the index of the deciding rule, NO_MATCH, or ROBOTS_TXT_IMPLICIT_ALLOW. */
export function decide(block: Uint8Array, url: Uint8Array): number {
  return decideLocatedPath(block, pathParamsQuery(url), true);
}

/**
 * Decides `path` read as a path just as it stands: no URL is located in it (a leading `//` and a `#` are
 * ordinary bytes), only a missing leading `/` is added. What a URL object's pathname + search needs.
 */
export function decidePath(block: Uint8Array, path: Uint8Array): number {
  return decideLocatedPath(block, withLeadingSlash(path), true);
}

/** decide() from the rule table alone, rule by rule, whether or not the block has an automaton. */
export function decideRuleByRule(block: Uint8Array, url: Uint8Array): number {
  return decideLocatedPath(block, pathParamsQuery(url), false);
}

function decideLocatedPath(block: Uint8Array, located: Uint8Array, useAutomaton: boolean): number {
  const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
  const flags = view.getUint32(HEADER_FLAGS, true);
  const ruleCount = view.getUint32(HEADER_RULE_COUNT, true);
  const path = pathForRules(located, (flags & RULESET_PATH_ENDS_AT_NUL) !== 0, (flags & RULESET_NORMALIZE_URL) !== 0);
  if (flags & RULESET_ROBOTS_TXT_ALLOWED && isRobotsTxtPath(path)) return ROBOTS_TXT_IMPLICIT_ALLOW;

  const automaton = useAutomaton ? automatonOf(block, view) : undefined;
  for (let index = 0; index < ruleCount; index++) {
    const entry = HEADER_SIZE + index * RULE_ENTRY_SIZE;
    const ruleFlags = view.getUint16(entry + RULE_FLAGS, true);
    // The automaton decides its rules below, all at once: the rule table decides the others.
    if (automaton !== undefined && (ruleFlags & RULE_IN_AUTOMATON) !== 0) continue;
    const offset = view.getUint32(entry + RULE_PATTERN_OFFSET, true);
    const length = view.getUint16(entry + RULE_PATTERN_LENGTH, true);
    if (matchesPattern(path, block, offset, offset + length, (ruleFlags & RULE_END_ANCHORED) !== 0)) {
      if (automaton === undefined) return index;
      const earlier = automaton.scanPieces(path, index);
      return earlier === NO_MATCH ? index : earlier;
    }
  }
  return automaton === undefined ? NO_MATCH : automaton.scanPieces(path, ruleCount);
}

/**
 * The located path as the rules see it: cut at its first NUL (`pathEndsAtNul`, Google's C string), then
 * percent-normalized like the patterns (`normalizeUrl`, RFC 9309 §2.2.2).
 */
export function pathForRules(located: Uint8Array, pathEndsAtNul: boolean, normalizeUrl: boolean): Uint8Array {
  let path = located;
  if (pathEndsAtNul) path = beforeFirstNul(path);
  if (normalizeUrl) path = percentNormalize(path, true);
  return path;
}

/** Whether the rule at `index` allows (an out-of-table index means nothing disallowed). */
export function verdictOf(block: Uint8Array, index: number): boolean {
  if (index < 0) return true;
  const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
  return (view.getUint16(HEADER_SIZE + index * RULE_ENTRY_SIZE + RULE_FLAGS, true) & RULE_ALLOW) !== 0;
}

function beforeFirstNul(path: Uint8Array): Uint8Array {
  const nul = path.indexOf(0);
  return nul < 0 ? path : path.subarray(0, nul);
}

/** Whether `path` is `/robots.txt`, with or without a query (RFC 9309 §2.2.2 allows it implicitly). */
export function isRobotsTxtPath(path: Uint8Array): boolean {
  if (path.length < ROBOTS_TXT.length) return false;
  if (path.length > ROBOTS_TXT.length && path[ROBOTS_TXT.length] !== QUESTION) return false;
  return ROBOTS_TXT.every((byte, i) => path[i] === byte);
}

/**
 * Whether the pattern pattern[start, end) matches `path`: anchored at the start; `*` matches any run of
 * bytes (runs of `*` and a trailing `*` included); `anchored` pins the end (the pattern's final `$`, taken
 * off by the caller).
 *
 * Google's reference tracks every path position the pattern read so far can end at. After a `*` that set
 * is "every position from its smallest on", so only the earliest end of the piece before the next `*`
 * matters: each piece is searched leftmost from where the previous one ended. That keeps the cost at
 * O(|path| × |pattern|) even for `/a*a*a*…b` against a long path, where the set-based form is quadratic in
 * the number of pieces too.
 */
export function matchesPattern(path: Uint8Array, pattern: Uint8Array, start: number, end: number, anchored: boolean): boolean {
  // The first piece is compared as it is read: most patterns differ from a path within a byte or two.
  let pieceEnd = start;
  for (; pieceEnd < end; pieceEnd++) {
    const byte = pattern[pieceEnd] as number;
    if (byte === STAR) break;
    if (path[pieceEnd - start] !== byte) return false;
  }
  if (pieceEnd === end) return !anchored || path.length === end - start;
  let position = pieceEnd - start;
  for (let pieceStart = pieceEnd + 1; ; pieceStart = pieceEnd + 1) {
    pieceEnd = starOrEnd(pattern, pieceStart, end);
    const length = pieceEnd - pieceStart;
    if (pieceEnd === end && anchored)
      return path.length - length >= position && occursAt(path, path.length - length, pattern, pieceStart, end);
    const found = indexOfPiece(path, position, pattern, pieceStart, pieceEnd);
    if (found < 0) return false;
    if (pieceEnd === end) return true;
    position = found + length;
  }
}

/** The first `*` in pattern[from, end), or `end`. */
function starOrEnd(pattern: Uint8Array, from: number, end: number): number {
  for (let i = from; i < end; i++) if (pattern[i] === STAR) return i;
  return end;
}

/** Whether the piece pattern[start, end) occurs in `path` at `at`. */
function occursAt(path: Uint8Array, at: number, pattern: Uint8Array, start: number, end: number): boolean {
  if (at + end - start > path.length) return false;
  for (let i = start; i < end; i++) if (path[at + i - start] !== pattern[i]) return false;
  return true;
}

/** Where the piece pattern[start, end) first occurs in `path` from `from` on, or -1. */
function indexOfPiece(path: Uint8Array, from: number, pattern: Uint8Array, start: number, end: number): number {
  for (let at = from; at + end - start <= path.length; at++) if (occursAt(path, at, pattern, start, end)) return at;
  return -1;
}
