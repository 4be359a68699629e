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

const STAR = 0x2a;
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
  let path = located;
  if (flags & RULESET_PATH_ENDS_AT_NUL) path = beforeFirstNul(path);
  if (flags & RULESET_NORMALIZE_URL) path = percentNormalize(path, true);
  if (flags & RULESET_ROBOTS_TXT_ALLOWED && isRobotsTxt(path)) return ROBOTS_TXT_IMPLICIT_ALLOW;

  const automaton = useAutomaton ? automatonOf(block, view) : undefined;
  for (let index = 0; index < ruleCount; index++) {
    const entry = HEADER_SIZE + index * RULE_ENTRY_SIZE;
    const ruleFlags = view.getUint16(entry + RULE_FLAGS, true);
    // The automaton decides its rules below, all at once: the rule table decides the others.
    if (automaton !== undefined && (ruleFlags & RULE_IN_AUTOMATON) !== 0) continue;
    const offset = view.getUint32(entry + RULE_PATTERN_OFFSET, true);
    const length = view.getUint16(entry + RULE_PATTERN_LENGTH, true);
    if (matches(path, block.subarray(offset, offset + length), (ruleFlags & RULE_END_ANCHORED) !== 0)) {
      if (automaton === undefined) return index;
      const earlier = automaton.scanPieces(path, index);
      return earlier === NO_MATCH ? index : earlier;
    }
  }
  return automaton === undefined ? NO_MATCH : automaton.scanPieces(path, ruleCount);
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

function isRobotsTxt(path: Uint8Array): boolean {
  if (path.length < ROBOTS_TXT.length) return false;
  if (path.length > ROBOTS_TXT.length && path[ROBOTS_TXT.length] !== 0x3f /* ? */) return false;
  return ROBOTS_TXT.every((byte, i) => path[i] === byte);
}

/**
 * Anchored at the start; `*` matches any run of bytes; `anchored` pins the end.
 *
 * Google's reference tracks every path position the pattern read so far can end at. After a `*` that set
 * is "every position from its smallest on", so only the earliest end of the piece before the next `*`
 * matters: each piece is searched leftmost from where the previous one ended. That keeps the cost at
 * O(|path| × |pattern|) even for `/a*a*a*…b` against a long path, where the set-based form is quadratic in
 * the number of pieces too.
 */
function matches(path: Uint8Array, pattern: Uint8Array, anchored: boolean): boolean {
  const pieces = splitAt(pattern, STAR);
  const first = pieces[0] as Uint8Array;
  if (!occursAt(path, first, 0)) return false;
  if (pieces.length === 1) return !anchored || path.length === first.length;
  let position = first.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i] as Uint8Array;
    const found = indexOfBytes(path, piece, position);
    if (found < 0) return false;
    position = found + piece.length;
  }
  const last = pieces[pieces.length - 1] as Uint8Array;
  if (anchored) return path.length - last.length >= position && occursAt(path, last, path.length - last.length);
  return indexOfBytes(path, last, position) >= 0;
}

function splitAt(bytes: Uint8Array, separator: number): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === separator) {
      pieces.push(bytes.subarray(start, i));
      start = i + 1;
    }
  }
  return pieces;
}

function occursAt(haystack: Uint8Array, needle: Uint8Array, at: number): boolean {
  if (at + needle.length > haystack.length) return false;
  for (let i = 0; i < needle.length; i++) if (haystack[at + i] !== needle[i]) return false;
  return true;
}

function indexOfBytes(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  for (let at = from; at + needle.length <= haystack.length; at++) if (occursAt(haystack, needle, at)) return at;
  return -1;
}
