// The matcher: decides one URL (or one path, given as a path) against one compiled ruleset, and reduces
// the decision to a verdict.
//
// It knows bytes and the bytecode format (src/compile/bytecode.ts, whose offsets ./layout.ts names),
// nothing else. The TypeScript matcher in src/engine/matcher.ts (with src/engine/automaton.ts) is the
// reference this module must agree with, verdict for verdict.

import {
  AUTOMATON_RULE_COUNT, AUTOMATON_RULE_ENTRY_SIZE, AUTOMATON_RULE_INDEX, AUTOMATON_RULES, HEAD_AUTOMATON_RULE, HEAD_ENTRY_SIZE,
  HEAD_LENGTH, HEAD_LIST_START, HEAD_PARENT, HEADER_AUTOMATON, HEADER_HEAD_INDEX, HEADS_COUNT, HEADS_HEADER_SIZE,
  HEADS_RULE_COUNT, HEADER_FLAGS, HEADER_PATTERN_LIST, HEADER_PATTERN_RULE_COUNT, HEADER_PREFIX_COUNT, HEADER_PREFIX_INDEX,
  HEADER_RULE_COUNT, HEADER_SIZE, NO_MATCH, PATTERN_LIST_ENTRY_SIZE, PREFIX_BEST_INDEX, PREFIX_ENTRY_SIZE,
  PREFIX_PARENT, PREFIX_RULE_INDEX, ROBOTS_TXT_IMPLICIT_ALLOW, RULE_ALLOW, RULE_END_ANCHORED, RULE_ENTRY_SIZE,
  RULE_FLAGS, RULE_HAS_WILDCARD, RULE_PATTERN_LENGTH, RULE_PATTERN_OFFSET, RULESET_NORMALIZE_URL,
  RULESET_PATH_ENDS_AT_NUL, RULESET_ROBOTS_TXT_ALLOWED, USE_MARK,
} from './layout';
import { automatonOf, automatonRuleIndex, scanPieces } from './automaton';
import { bytesEqual, findByte } from './scan';
import { copyInto, firstHash, isRobotsTxtPath, normalizeInto, pathStartOf, scanPath, specialBytes } from './url-path';
import { matchesPattern } from './wildcard';
import { SLASH } from './bytes';

/**
 * Decides `input[0..length)` (a URL or a path, UTF-8) against the ruleset at `ruleset`.
 * `scratch` must hold at least 3 × length + 1 bytes, and VECTOR_SLACK more; the path is rewritten there when it
 * needs a leading slash or percent-normalization.
 * Returns the index of the deciding rule, -1 when no rule matches, -2 for the implicitly allowed /robots.txt.
 */
export function decide(ruleset: usize, input: usize, length: usize, scratch: usize): i32 {
  let pathStart = pathStartOf(input, length);
  let pathEnd: usize = 0;
  let prependSlash = true;
  let special = false;
  if (pathStart < length && firstHash > pathStart) {
    scanPath(input, pathStart, length);
    pathEnd = firstHash;
    special = specialBytes;
    prependSlash = load<u8>(input + pathStart) != SLASH;
  } else {
    pathStart = 0;
  }
  return decideLocated(ruleset, input + pathStart, pathEnd - pathStart, prependSlash, special, scratch);
}

/**
 * Decides `input[0..length)` read as a path (and query) just as it stands: no URL is located in it, so
 * neither a leading "//" nor a '#' means anything; only a missing leading '/' is added. For hosts that
 * parsed the URL themselves (a URL object's pathname + search is what a fetch of it requests).
 * Same arguments and result as decide().
 */
export function decidePath(ruleset: usize, input: usize, length: usize, scratch: usize): i32 {
  // scanPath stops at a '#', which is an ordinary byte here: scan on past each one.
  let special = false;
  let from: usize = 0;
  while (true) {
    scanPath(input, from, length);
    special = special || specialBytes;
    if (firstHash >= length) break;
    from = firstHash + 1;
  }
  return decideLocated(ruleset, input, length, length == 0 || load<u8>(input) != SLASH, special, scratch);
}

/**
 * What decide() and decidePath() share once the path is found: `path[0..pathLength)`, missing its leading
 * '/' when `prependSlash`; `special` when a '%', a byte ≥ 0x80 or a NUL stands in it. Inlined, so that a
 * string check costs no call more than it did before the path entry shared this tail.
 */
// @ts-ignore: decorator
@inline
function decideLocated(ruleset: usize, path: usize, pathLength: usize, prependSlash: bool, special: bool, scratch: usize): i32 {
  // Marked used for residency's clock here, next to the header this check reads anyway: the host's single
  // check then touches no object of the ruleset's (src/engine/residency.ts).
  store<u32>(ruleset - USE_MARK, 1);
  const flags = load<u32>(ruleset + HEADER_FLAGS);
  // Google's reference reads the path as a C string. The scan flags a NUL with the other rare bytes, so
  // only paths that hold one of them are searched.
  if (special && (flags & RULESET_PATH_ENDS_AT_NUL) != 0) pathLength = findByte(path, 0, pathLength, 0);
  const normalize = (flags & RULESET_NORMALIZE_URL) != 0 && special;
  if (prependSlash || normalize) {
    let out = scratch;
    if (prependSlash) {
      store<u8>(out, SLASH);
      out++;
    }
    out = normalize ? normalizeInto(path, pathLength, out) : copyInto(path, pathLength, out);
    path = scratch;
    pathLength = out - scratch;
  }

  if ((flags & RULESET_ROBOTS_TXT_ALLOWED) != 0 && isRobotsTxtPath(path, pathLength)) {
    return ROBOTS_TXT_IMPLICIT_ALLOW;
  }

  // The longest plain prefix decides unless a pattern rule of higher priority (lower index) matches. A scan
  // block has no index: its pattern list holds every rule, and the first that matches decides.
  const best = longestPrefixRule(ruleset, path, pathLength);
  let limit: u32 = best < 0 ? load<u32>(ruleset + HEADER_RULE_COUNT) : <u32>best;
  const heads = load<u32>(ruleset + HEADER_HEAD_INDEX);
  let decided = best;
  if (heads != 0) {
    const found = bestByHead(ruleset, ruleset + heads, path, pathLength, limit);
    if (found >= 0) {
      decided = found;
      limit = <u32>found;
    }
  } else {
    const patternRuleCount = load<u32>(ruleset + HEADER_PATTERN_RULE_COUNT);
    const patternList = ruleset + load<u32>(ruleset + HEADER_PATTERN_LIST);
    for (let i: u32 = 0; i < patternRuleCount; i++) {
      const index = load<u32>(patternList + <usize>i * PATTERN_LIST_ENTRY_SIZE);
      if (index >= limit) break;
      if (matchesPatternRule(ruleset, index, path, pathLength)) return <i32>index;
    }
  }
  if (load<u32>(ruleset + HEADER_AUTOMATON) == 0) return decided;
  // The automaton's rules, all at once; one by one when the work area is too small for its automaton.
  const automaton = automatonOf(ruleset);
  const earlier = automaton != 0
    ? scanPieces(ruleset, automaton, path, pathLength, limit, ruleset + heads, headChain)
    : firstAutomatonRule(ruleset, path, pathLength, limit);
  return earlier >= 0 ? earlier : decided;
}

/**
 * The highest-priority pattern rule below `limit` that matches the path, or -1, trying only the rules whose
 * head (the text before their first `*`) starts the path: the last head that sorts at or before the path,
 * then parent links up to the first that is a prefix of it; that one and all its ancestors start the path.
 */
function bestByHead(ruleset: usize, heads: usize, path: usize, pathLength: usize, limit: u32): i32 {
  const count = load<u32>(heads, HEADS_COUNT);
  const listed = load<u32>(heads, HEADS_RULE_COUNT);
  const entries = heads + HEADS_HEADER_SIZE;
  const list = entries + <usize>count * HEAD_ENTRY_SIZE;
  let at = deepestEntry(ruleset, entries, count, HEAD_ENTRY_SIZE, HEAD_PARENT, list, path, pathLength);
  headChain = at;
  let found: i32 = -1;
  while (at >= 0) {
    const entry = entries + <usize>at * HEAD_ENTRY_SIZE;
    const end = <u32>at + 1 < count ? load<u32>(entry + HEAD_ENTRY_SIZE, HEAD_LIST_START) : listed;
    for (let k = load<u32>(entry, HEAD_LIST_START); k < end; k++) {
      const index = load<u32>(list + <usize>k * PATTERN_LIST_ENTRY_SIZE);
      // The automaton's rules are started by scanPieces, from the same chain.
      if ((index & HEAD_AUTOMATON_RULE) != 0) continue;
      if (index >= limit) break;
      if (matchesPatternRule(ruleset, index, path, pathLength)) {
        // The entry's later rules and every rule of the others from here on must beat this one.
        found = <i32>index;
        limit = index;
        break;
      }
    }
    at = load<i32>(entry, HEAD_PARENT);
  }
  return found;
}

// The entry of the longest head that starts the path, found by the last bestByHead (-1: none; a global:
// no allocation), where the automaton starts its rules.
let headChain: i32 = -1;

/** Where the head of an entry is: the start of its first rule's pattern. */
function headPattern(ruleset: usize, list: usize, entry: usize): usize {
  let rule = load<u32>(list + <usize>load<u32>(entry, HEAD_LIST_START) * PATTERN_LIST_ENTRY_SIZE);
  if ((rule & HEAD_AUTOMATON_RULE) != 0) rule = automatonRuleIndex(ruleset, rule & ~HEAD_AUTOMATON_RULE);
  return ruleset + load<u32>(ruleset + HEADER_SIZE + <usize>rule * RULE_ENTRY_SIZE, RULE_PATTERN_OFFSET);
}

/**
 * The first automaton rule below `limit` that matches, tried one by one: for a ruleset whose automaton does
 * not fit the work area the host handed over.
 */
function firstAutomatonRule(ruleset: usize, path: usize, pathLength: usize, limit: u32): i32 {
  const automaton = ruleset + load<u32>(ruleset + HEADER_AUTOMATON);
  const count = load<u32>(automaton + AUTOMATON_RULE_COUNT);
  const rules = ruleset + load<u32>(automaton + AUTOMATON_RULES);
  for (let i: u32 = 0; i < count; i++) {
    const index = load<u32>(rules + <usize>i * AUTOMATON_RULE_ENTRY_SIZE, AUTOMATON_RULE_INDEX);
    if (index >= limit) break;
    if (matchesPatternRule(ruleset, index, path, pathLength)) return <i32>index;
  }
  return -1;
}

/**
 * The best rule among the plain prefixes of the path, or NO_MATCH: binary search for the last pattern
 * that sorts before the path, then parent links up to the first that is a prefix of it.
 */
function longestPrefixRule(ruleset: usize, path: usize, pathLength: usize): i32 {
  const index = ruleset + load<u32>(ruleset + HEADER_PREFIX_INDEX);
  const entry = deepestEntry(ruleset, index, load<u32>(ruleset + HEADER_PREFIX_COUNT), PREFIX_ENTRY_SIZE, PREFIX_PARENT, 0, path, pathLength);
  return entry < 0 ? NO_MATCH : load<i32>(index + <usize>entry * PREFIX_ENTRY_SIZE, PREFIX_BEST_INDEX);
}

/**
 * The deepest entry of a sorted index whose span starts the path, or -1: the prefix index (`list` 0: an entry
 * names a rule, whose pattern is its span) or the head index (an entry's span is the head of the rules it lists
 * in `list`). Binary search for the last entry that sorts at or before the path, then parent links up to the
 * first that is a prefix of it. Every entry between the search's two bounds shares with the path the shorter of
 * the bounds' common prefixes with it, so comparisons start past that.
 */
// Inlined, so that each caller's `list` (0 or not) is a constant and spanOf() has no branch left.
// @ts-ignore: decorator
@inline
function deepestEntry(
  ruleset: usize, entries: usize, count: u32, entrySize: usize, parentAt: usize, list: usize, path: usize, pathLength: usize,
): i32 {
  let low: u32 = 0;
  let high = count;
  let commonLow: usize = 0;
  let commonHigh: usize = 0;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const skip = commonLow < commonHigh ? commonLow : commonHigh;
    const span = spanOf(ruleset, entries + <usize>middle * entrySize, list);
    const order = compareBytesToPath(span, spanLength, path, pathLength, skip);
    if (order <= 0) {
      low = middle + 1;
      commonLow = commonPrefix;
    } else {
      high = middle;
      commonHigh = commonPrefix;
    }
  }
  let at = <i32>low - 1;
  while (at >= 0) {
    const entry = entries + <usize>at * entrySize;
    const span = spanOf(ruleset, entry, list);
    if (spanLength <= pathLength && bytesEqual(path, span, spanLength)) return at;
    at = load<i32>(entry + parentAt);
  }
  return -1;
}

// The length of the span the last spanOf() found (a global: no allocation).
let spanLength: usize = 0;

/** Where an entry's span starts, as deepestEntry() reads it; sets spanLength. */
// @ts-ignore: decorator
@inline
function spanOf(ruleset: usize, entry: usize, list: usize): usize {
  if (list == 0) {
    const rule = ruleset + HEADER_SIZE + <usize>load<u32>(entry, PREFIX_RULE_INDEX) * RULE_ENTRY_SIZE;
    spanLength = <usize>load<u16>(rule, RULE_PATTERN_LENGTH);
    return ruleset + load<u32>(rule, RULE_PATTERN_OFFSET);
  }
  spanLength = <usize>load<u32>(entry, HEAD_LENGTH);
  return headPattern(ruleset, list, entry);
}

// The length of the common prefix found by the last compareBytesToPath (a global: no allocation).
let commonPrefix: usize = 0;

/**
 * Lexicographic order of pattern[0..patternLength) against the path (< 0, 0 or > 0), given that their first
 * `from` bytes are equal; sets commonPrefix. Compares 8 bytes at a time.
 */
function compareBytesToPath(pattern: usize, patternLength: usize, path: usize, pathLength: usize, from: usize): i32 {
  const length = patternLength < pathLength ? patternLength : pathLength;
  let i = from;
  while (i + 8 <= length) {
    const difference = load<u64>(pattern + i) ^ load<u64>(path + i);
    if (difference != 0) {
      // Little-endian: the lowest set bit is in the first differing byte.
      i += <usize>(ctz(difference) >> 3);
      commonPrefix = i;
      return <i32>load<u8>(pattern + i) - <i32>load<u8>(path + i);
    }
    i += 8;
  }
  while (i < length) {
    const difference = <i32>load<u8>(pattern + i) - <i32>load<u8>(path + i);
    if (difference != 0) {
      commonPrefix = i;
      return difference;
    }
    i++;
  }
  commonPrefix = length;
  return <i32>patternLength - <i32>pathLength;
}

function matchesPatternRule(ruleset: usize, index: u32, path: usize, pathLength: usize): bool {
  const rule = ruleset + HEADER_SIZE + <usize>index * RULE_ENTRY_SIZE;
  const pattern = ruleset + load<u32>(rule, RULE_PATTERN_OFFSET);
  const patternLength = <usize>load<u16>(rule, RULE_PATTERN_LENGTH);
  const ruleFlags = <u32>load<u16>(rule, RULE_FLAGS);
  const anchored = (ruleFlags & RULE_END_ANCHORED) != 0;
  if ((ruleFlags & RULE_HAS_WILDCARD) == 0) {
    // An end-anchored plain pattern is the whole path; an unanchored one (listed in a scan block, which
    // has no prefix index) a prefix of it.
    if (anchored ? pathLength != patternLength : pathLength < patternLength) return false;
    return bytesEqual(path, pattern, patternLength);
  }
  return matchesPattern(path, pathLength, pattern, patternLength, anchored);
}

/** decide(), reduced to the verdict: 1 allowed, 0 disallowed. */
export function isAllowed(ruleset: usize, input: usize, length: usize, scratch: usize): bool {
  return verdictOf(ruleset, decide(ruleset, input, length, scratch));
}

/** decidePath(), reduced to the verdict: 1 allowed, 0 disallowed. */
export function isAllowedPath(ruleset: usize, input: usize, length: usize, scratch: usize): bool {
  return verdictOf(ruleset, decidePath(ruleset, input, length, scratch));
}

/** The verdict for a result of decide(): allowed unless a disallow rule decided. */
export function verdictOf(ruleset: usize, index: i32): bool {
  if (index < 0) return true;
  const ruleFlags = <u32>load<u16>(ruleset + HEADER_SIZE + <usize>index * RULE_ENTRY_SIZE, RULE_FLAGS);
  return (ruleFlags & RULE_ALLOW) != 0;
}
