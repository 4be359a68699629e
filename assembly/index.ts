// The WebAssembly module: the matcher (here), which decides one URL (or one path, given as a path)
// against one compiled ruleset, and the lexer (./lexer.ts), which turns robots.txt bytes into records.
//
// It knows bytes and the bytecode format, nothing else. The format is defined and documented in
// src/compile/bytecode.ts; the constants below mirror it. The TypeScript executor in
// src/engine/executor.ts is the reference this file must agree with, verdict for verdict.
//
// Nothing here allocates: the host owns linear memory above __heap_base, writes rulesets and URL bytes
// into it, and passes pointers in.

export { lex, lexResumeAt, lexLineNumber, lexFinished } from './lexer';

// Header offsets (bytes from the start of a ruleset).
const HEADER_FLAGS: usize = 4;
const HEADER_RULE_COUNT: usize = 8;
const HEADER_PREFIX_COUNT: usize = 16;
const HEADER_PREFIX_INDEX: usize = 20;
const HEADER_PATTERN_RULE_COUNT: usize = 24;
const HEADER_PATTERN_LIST: usize = 28;
const HEADER_SIZE: usize = 32;
// One rule table entry: u32 pattern offset, u16 pattern length, u16 rule flags.
const RULE_ENTRY_SIZE: usize = 8;
// One prefix index entry: u32 rule index, i32 parent entry, u32 best rule index along the chain.
const PREFIX_ENTRY_SIZE: usize = 12;

const RULESET_NORMALIZE_URL: u32 = 1;
const RULESET_ROBOTS_TXT_ALLOWED: u32 = 2;
const RULESET_PATH_ENDS_AT_NUL: u32 = 4;

const RULE_END_ANCHORED: u32 = 2;
const RULE_HAS_WILDCARD: u32 = 4;

const NO_MATCH: i32 = -1;
const ROBOTS_TXT_IMPLICIT_ALLOW: i32 = -2;

const SLASH: u8 = 0x2f;
const QUESTION: u8 = 0x3f;
const SEMICOLON: u8 = 0x3b;
const HASH: u8 = 0x23;
const COLON: u8 = 0x3a;
const PERCENT: u8 = 0x25;
const STAR: u8 = 0x2a;

/** First byte of linear memory that the host may manage. */
export function heapBase(): usize {
  return (__heap_base + 15) & ~15;
}

/**
 * Decides `input[0..length)` (a URL or a path, UTF-8) against the ruleset at `ruleset`.
 * `scratch` must hold at least 3 × length + 1 bytes; the path is rewritten there when it needs a leading
 * slash or percent-normalization.
 * Returns the index of the deciding rule, -1 when no rule matches, -2 for the implicitly allowed /robots.txt.
 */
export function decide(ruleset: usize, input: usize, length: usize, scratch: usize): i32 {
  // Locate path, params and query, the way Google's GetPathParamsQuery does.
  const searchStart: usize = length >= 2 && load<u16>(input) == 0x2f2f ? 2 : 0;
  firstHash = length;
  let pathStart = scanToPathStart(input, searchStart, length);
  // A scheme counts only when its "://" is where the first '/' is; any later one is inside the path.
  if (pathStart >= 1 && pathStart + 1 < length && load<u8>(input + pathStart - 1) == COLON &&
      load<u8>(input + pathStart + 1) == SLASH && load<u8>(input + pathStart) == SLASH) {
    pathStart = scanToPathStart(input, pathStart + 2, length);
  }
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

  // The longest plain prefix decides unless a pattern rule of higher priority (lower index) matches.
  const best = longestPrefixRule(ruleset, path, pathLength);
  const limit: u32 = best < 0 ? load<u32>(ruleset + HEADER_RULE_COUNT) : <u32>best;
  const patternRuleCount = load<u32>(ruleset + HEADER_PATTERN_RULE_COUNT);
  const patternList = ruleset + load<u32>(ruleset + HEADER_PATTERN_LIST);
  for (let i: u32 = 0; i < patternRuleCount; i++) {
    const index = load<u32>(patternList + (<usize>i << 2));
    if (index >= limit) break;
    if (matchesPatternRule(ruleset, index, path, pathLength)) return <i32>index;
  }
  return best;
}

/**
 * The best rule among the plain prefixes of the path, or NO_MATCH: binary search for the last pattern
 * that sorts before the path, then parent links up to the first that is a prefix of it.
 */
function longestPrefixRule(ruleset: usize, path: usize, pathLength: usize): i32 {
  const count = load<u32>(ruleset + HEADER_PREFIX_COUNT);
  const index = ruleset + load<u32>(ruleset + HEADER_PREFIX_INDEX);
  // Find how many entries sort at or before the path. Every entry between the two bounds shares with the
  // path the shorter of the bounds' common prefixes with it, so comparisons start past that.
  let low: u32 = 0;
  let high = count;
  let commonLow: usize = 0;
  let commonHigh: usize = 0;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const skip = commonLow < commonHigh ? commonLow : commonHigh;
    const order = comparePatternToPath(ruleset, load<u32>(index + <usize>middle * PREFIX_ENTRY_SIZE), path, pathLength, skip);
    if (order <= 0) {
      low = middle + 1;
      commonLow = commonPrefix;
    } else {
      high = middle;
      commonHigh = commonPrefix;
    }
  }
  let entry = <i32>low - 1;
  while (entry >= 0) {
    const ruleIndex = load<u32>(index + <usize>entry * PREFIX_ENTRY_SIZE);
    const rule = ruleset + HEADER_SIZE + <usize>ruleIndex * RULE_ENTRY_SIZE;
    const patternLength = <usize>load<u16>(rule, 4);
    if (patternLength <= pathLength && bytesEqual(path, ruleset + load<u32>(rule), patternLength)) {
      return <i32>load<u32>(index + <usize>entry * PREFIX_ENTRY_SIZE, 8);
    }
    entry = load<i32>(index + <usize>entry * PREFIX_ENTRY_SIZE, 4);
  }
  return NO_MATCH;
}

// The length of the common prefix found by the last comparePatternToPath (a global: no allocation).
let commonPrefix: usize = 0;

/**
 * Lexicographic order of the rule's pattern against the path (< 0, 0 or > 0), given that their first
 * `from` bytes are equal; sets commonPrefix. Compares 8 bytes at a time.
 */
function comparePatternToPath(ruleset: usize, ruleIndex: u32, path: usize, pathLength: usize, from: usize): i32 {
  const rule = ruleset + HEADER_SIZE + <usize>ruleIndex * RULE_ENTRY_SIZE;
  const pattern = ruleset + load<u32>(rule);
  const patternLength = <usize>load<u16>(rule, 4);
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
  const pattern = ruleset + load<u32>(rule);
  const patternLength = <usize>load<u16>(rule, 4);
  const ruleFlags = <u32>load<u16>(rule, 6);
  const anchored = (ruleFlags & RULE_END_ANCHORED) != 0;
  if ((ruleFlags & RULE_HAS_WILDCARD) == 0) {
    // An end-anchored plain pattern: the whole path.
    return pathLength == patternLength && bytesEqual(path, pattern, patternLength);
  }
  return matchWildcard(path, pathLength, pattern, patternLength, anchored);
}

/** decide(), reduced to the verdict: 1 allowed, 0 disallowed. */
export function isAllowed(ruleset: usize, input: usize, length: usize, scratch: usize): bool {
  return verdictOf(ruleset, decide(ruleset, input, length, scratch));
}

/** decidePath(), reduced to the verdict: 1 allowed, 0 disallowed. */
export function isAllowedPath(ruleset: usize, input: usize, length: usize, scratch: usize): bool {
  return verdictOf(ruleset, decidePath(ruleset, input, length, scratch));
}

/**
 * Decides `count` URLs in one call. `table` holds count + 1 u32 offsets into `input` (URL i spans
 * table[i]..table[i+1]); verdicts go to `out` as one byte each, 1 = allowed, 0 = disallowed.
 */
export function decideMany(ruleset: usize, input: usize, table: usize, count: usize, scratch: usize, out: usize): void {
  let start = load<u32>(table);
  for (let i: usize = 0; i < count; i++) {
    const end = load<u32>(table + ((i + 1) << 2));
    const index = decide(ruleset, input + start, end - start, scratch);
    store<u8>(out + i, verdictOf(ruleset, index) ? 1 : 0);
    start = end;
  }
}

/** The verdict for a result of decide(): allowed unless a disallow rule decided. */
function verdictOf(ruleset: usize, index: i32): bool {
  if (index < 0) return true;
  const ruleFlags = <u32>load<u16>(ruleset + HEADER_SIZE + <usize>index * RULE_ENTRY_SIZE, 6);
  return (ruleFlags & 1) != 0;
}

// `*` splits the pattern into literal pieces. Each piece is found leftmost after the previous one, which
// is exact for patterns whose only metacharacter is `*`, and costs O(|path| × |pattern|) at worst.
function matchWildcard(path: usize, pathLength: usize, pattern: usize, patternLength: usize, anchored: bool): bool {
  let pieceEnd = findByte(pattern, 0, patternLength, STAR);
  // The first piece is anchored at the start of the path.
  if (pieceEnd > pathLength || !bytesEqual(path, pattern, pieceEnd)) return false;
  let position = pieceEnd;
  let pieceStart = pieceEnd + 1;
  while (true) {
    pieceEnd = findByte(pattern, pieceStart, patternLength, STAR);
    const pieceLength = pieceEnd - pieceStart;
    if (pieceEnd >= patternLength) {
      // The last piece: pinned to the end when the pattern ended in `$`.
      if (anchored) {
        return pathLength - position >= pieceLength &&
          bytesEqual(path + pathLength - pieceLength, pattern + pieceStart, pieceLength);
      }
      return indexOf(path, position, pathLength, pattern + pieceStart, pieceLength) >= 0;
    }
    const found = indexOf(path, position, pathLength, pattern + pieceStart, pieceLength);
    if (found < 0) return false;
    position = <usize>found + pieceLength;
    pieceStart = pieceEnd + 1;
  }
}

function indexOf(haystack: usize, from: usize, end: usize, needle: usize, needleLength: usize): isize {
  if (needleLength == 0) return <isize>from;
  if (end < needleLength) return -1;
  const first = load<u8>(needle);
  const last = end - needleLength;
  for (let i = from; i <= last; i++) {
    if (load<u8>(haystack + i) == first && bytesEqual(haystack + i + 1, needle + 1, needleLength - 1)) {
      return <isize>i;
    }
  }
  return -1;
}

function bytesEqual(a: usize, b: usize, length: usize): bool {
  let i: usize = 0;
  while (i + 8 <= length) {
    if (load<u64>(a + i) != load<u64>(b + i)) return false;
    i += 8;
  }
  while (i < length) {
    if (load<u8>(a + i) != load<u8>(b + i)) return false;
    i++;
  }
  return true;
}

function findByte(base: usize, from: usize, end: usize, byte: u8): usize {
  for (let i = from; i < end; i++) {
    if (load<u8>(base + i) == byte) return i;
  }
  return end;
}

// What the scans below found; globals, since returning two values would allocate.
let firstHash: usize = 0;
// A '%', a byte ≥ 0x80 or a NUL: what makes a path need normalizing, or cutting (the NUL).
let specialBytes = false;

/**
 * The first '/', '?' or ';' from `from` on (or `end`), noting the first '#' before it in firstHash;
 * 16 bytes at a time, like scanPath.
 */
function scanToPathStart(base: usize, from: usize, end: usize): usize {
  const slashes = i8x16.splat(<i8>SLASH);
  const questions = i8x16.splat(<i8>QUESTION);
  const semicolons = i8x16.splat(<i8>SEMICOLON);
  const hashes = i8x16.splat(<i8>HASH);
  for (let i = from; i < end; i += 16) {
    const block = v128.load(base + i);
    let startMask = i8x16.bitmask(
      v128.or(v128.or(i8x16.eq(block, slashes), i8x16.eq(block, questions)), i8x16.eq(block, semicolons)),
    );
    let hashMask = i8x16.bitmask(i8x16.eq(block, hashes));
    const remaining = end - i;
    if (remaining < 16) {
      const valid = (1 << <i32>remaining) - 1;
      startMask &= valid;
      hashMask &= valid;
    }
    if (startMask != 0) {
      const at = ctz(startMask);
      hashMask &= (1 << at) - 1;
      if (hashMask != 0 && firstHash == end) firstHash = i + <usize>ctz(hashMask);
      return i + <usize>at;
    }
    if (hashMask != 0 && firstHash == end) firstHash = i + <usize>ctz(hashMask);
  }
  return end;
}

/**
 * Scans the path from `from`, 16 bytes at a time: firstHash becomes the fragment's '#' (or `end`), and
 * specialBytes whether a '%', a byte ≥ 0x80 or a NUL stands before it. Reads up to 15 bytes past `end`,
 * which the host keeps in its buffers.
 */
function scanPath(base: usize, from: usize, end: usize): void {
  const hashes = i8x16.splat(<i8>HASH);
  const percents = i8x16.splat(<i8>PERCENT);
  const ones = i8x16.splat(1);
  let special: i32 = 0;
  for (let i = from; i < end; i += 16) {
    const block = v128.load(base + i);
    let hashMask = i8x16.bitmask(i8x16.eq(block, hashes));
    // A '%', or a byte below 1 read as signed: a NUL or a byte ≥ 0x80 (one compare finds both).
    let specialMask = i8x16.bitmask(v128.or(i8x16.eq(block, percents), i8x16.lt_s(block, ones)));
    const remaining = end - i;
    if (remaining < 16) {
      const valid = (1 << <i32>remaining) - 1;
      hashMask &= valid;
      specialMask &= valid;
    }
    if (hashMask != 0) {
      const at = ctz(hashMask);
      firstHash = i + <usize>at;
      specialBytes = (special | (specialMask & ((1 << at) - 1))) != 0;
      return;
    }
    special |= specialMask;
  }
  firstHash = end;
  specialBytes = special != 0;
}

function isRobotsTxtPath(path: usize, length: usize): bool {
  // "/robots.txt" optionally followed by a query.
  if (length < 11) return false;
  if (length > 11 && load<u8>(path + 11) != QUESTION) return false;
  return load<u64>(path) == 0x2e73746f626f722f && // "/robots."
    load<u16>(path + 8) == 0x7874 && // "tx"
    load<u8>(path + 10) == 0x74; // "t"
}

// Percent-normalization (RFC 3986 §6.2.2 as RFC 9309 §2.2.2 asks): octets ≥ 0x80 become %XX, the hex of
// an escape is upper-cased, and an escaped unreserved character is decoded.
function normalizeInto(source: usize, length: usize, out: usize): usize {
  let i: usize = 0;
  while (i < length) {
    const c = load<u8>(source + i);
    if (c == PERCENT && i + 2 < length && isHex(load<u8>(source + i + 1)) && isHex(load<u8>(source + i + 2))) {
      const high = hexValue(load<u8>(source + i + 1));
      const low = hexValue(load<u8>(source + i + 2));
      const decoded = <u8>((high << 4) | low);
      if (isUnreserved(decoded)) {
        store<u8>(out++, decoded);
      } else {
        store<u8>(out++, PERCENT);
        store<u8>(out++, upperHexDigit(high));
        store<u8>(out++, upperHexDigit(low));
      }
      i += 3;
    } else if (c >= 0x80) {
      store<u8>(out++, PERCENT);
      store<u8>(out++, upperHexDigit(c >> 4));
      store<u8>(out++, upperHexDigit(c & 15));
      i++;
    } else {
      store<u8>(out++, c);
      i++;
    }
  }
  return out;
}

function copyInto(source: usize, length: usize, out: usize): usize {
  memory.copy(out, source, length);
  return out + length;
}

function isHex(c: u8): bool {
  return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
}

function hexValue(c: u8): u8 {
  return c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10;
}

function upperHexDigit(value: u8): u8 {
  return value < 10 ? 0x30 + value : 0x41 + value - 10;
}

function isUnreserved(c: u8): bool {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) ||
    c == 0x2d || c == 0x2e || c == 0x5f || c == 0x7e;
}
