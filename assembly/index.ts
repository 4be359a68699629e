// The WebAssembly module: the matcher (here), which decides one URL (or one path, given as a path)
// against one compiled ruleset, and the lexer (./lexer.ts), which turns robots.txt bytes into records.
//
// It knows bytes and the bytecode format, nothing else. The format is defined and documented in
// src/compile/bytecode.ts; the constants below mirror it. The TypeScript executor in
// src/engine/executor.ts is the reference this file must agree with, verdict for verdict.
//
// Nothing here allocates: the host owns linear memory above __heap_base, writes rulesets and URL bytes
// into it, and passes pointers in; the piece automaton's per-check state lives in a work area the host
// allocates once and hands over with setWorkArea.

export { lex, lexResumeAt, lexLineNumber, lexFinished } from './lexer';
export { scanLines, rememberHost, forgetHosts } from './lines';
import { isUtf8 } from './utf8';
import { findByte } from './scan';

// Header offsets (bytes from the start of a ruleset).
const HEADER_FLAGS: usize = 4;
const HEADER_RULE_COUNT: usize = 8;
const HEADER_PREFIX_COUNT: usize = 16;
const HEADER_PREFIX_INDEX: usize = 20;
const HEADER_PATTERN_RULE_COUNT: usize = 24;
const HEADER_PATTERN_LIST: usize = 28;
const HEADER_AUTOMATON: usize = 32;
const HEADER_SIZE: usize = 36;
// One rule table entry: u32 pattern offset, u16 pattern length, u16 rule flags.
const RULE_ENTRY_SIZE: usize = 8;
// One prefix index entry: u32 rule index, i32 parent entry, u32 best rule index along the chain.
const PREFIX_ENTRY_SIZE: usize = 12;

const RULESET_NORMALIZE_URL: u32 = 1;
const RULESET_ROBOTS_TXT_ALLOWED: u32 = 2;
const RULESET_PATH_ENDS_AT_NUL: u32 = 4;

const RULE_END_ANCHORED: u32 = 2;
const RULE_HAS_WILDCARD: u32 = 4;
const RULE_IN_AUTOMATON: u32 = 8;

// The piece automaton's header (offsets from its start) and entries.
const AUTOMATON_NODE_COUNT: usize = 0;
const AUTOMATON_PIECE_COUNT: usize = 4;
const AUTOMATON_EDGE_COUNT: usize = 8;
const AUTOMATON_RULE_COUNT: usize = 12;
const AUTOMATON_WHEEL_SIZE: usize = 16;
const AUTOMATON_WORK_BYTES: usize = 20;
const AUTOMATON_DEEP_COUNT: usize = 24;
const AUTOMATON_NODES: usize = 28;
const AUTOMATON_ROOT: usize = 32;
const AUTOMATON_EDGES: usize = 36;
const AUTOMATON_TERMINALS: usize = 40;
const AUTOMATON_PIECES: usize = 44;
const AUTOMATON_DEEP: usize = 48;
const AUTOMATON_RULES: usize = 52;
const AUTOMATON_LIST: usize = 56;
const AUTOMATON_EDGE_BUCKET_SHIFT: usize = 60;
const AUTOMATON_TERMINAL_BUCKET_SHIFT: usize = 64;
// One piece: u32 parent in the piece tree + 1, u16 length, u16 deep index (NOT_DEEP when not deep).
const AUTOMATON_PIECE_ENTRY_SIZE: usize = 8;
const NOT_DEEP: u32 = 0xffff;
// One deep piece: u32 piece, u32 end of its subtree among the deep pieces, u32 nearest ancestor not deep + 1.
const AUTOMATON_DEEP_ENTRY_SIZE: usize = 12;
// One automaton rule: u32 rule index, u32 where its list of pieces starts.
const AUTOMATON_RULE_ENTRY_SIZE: usize = 8;
// A node word: the byte into the node, TAIL_END, and the failure link above NODE_FAIL_SHIFT.
const NODE_LABEL_MASK: u32 = 0xff;
const NODE_TAIL_END: u32 = 0x100;
const NODE_FAIL_SHIFT: u32 = 9;
// A memo word: the piece + 1 in the low MEMO_PIECE_BITS bits, the check's tag above.
const MEMO_PIECE_BITS: u32 = 22;
const MEMO_TAGS: u32 = 1024;

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
  const automaton = automatonOf(ruleset);
  if (automaton != 0) return decideWithAutomaton(ruleset, automaton, path, pathLength, best, limit);
  for (let i: u32 = 0; i < patternRuleCount; i++) {
    const index = load<u32>(patternList + (<usize>i << 2));
    if (index >= limit) break;
    if (matchesPatternRule(ruleset, index, path, pathLength)) return <i32>index;
  }
  return best;
}

/**
 * decideLocated() for a ruleset with a piece automaton: the pattern rules outside it are tried first, one
 * by one (a match among them lowers the limit), then one pass over the path decides the automaton's rules.
 */
function decideWithAutomaton(ruleset: usize, automaton: usize, path: usize, pathLength: usize, best: i32, limit: u32): i32 {
  const patternRuleCount = load<u32>(ruleset + HEADER_PATTERN_RULE_COUNT);
  const patternList = ruleset + load<u32>(ruleset + HEADER_PATTERN_LIST);
  let decided = best;
  for (let i: u32 = 0; i < patternRuleCount; i++) {
    const index = load<u32>(patternList + (<usize>i << 2));
    if (index >= limit) break;
    const ruleFlags = <u32>load<u16>(ruleset + HEADER_SIZE + <usize>index * RULE_ENTRY_SIZE, 6);
    if ((ruleFlags & RULE_IN_AUTOMATON) != 0) continue;
    if (matchesPatternRule(ruleset, index, path, pathLength)) {
      limit = index;
      decided = <i32>index;
      break;
    }
  }
  const earlier = scanPieces(ruleset, automaton, path, pathLength, limit);
  return earlier >= 0 ? earlier : decided;
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

// The byte-range batch (decideRanges), shared with src/engine/wasm-backend.ts, which names the same
// constants: `table` holds `count` entries of RANGE_ENTRY_SIZE bytes, u32 start then u32 end, byte offsets
// into `input` (ranges may overlap, be empty, come in any order). A verdict byte is 1 allowed, 0 disallowed,
// or RANGE_NOT_UTF8 for a range that is not valid UTF-8, left for the host to decide as the text a
// TextDecoder makes of it (its U+FFFD replacements encode differently from the raw bytes).
const RANGE_ENTRY_SIZE: usize = 8;
const RANGE_NOT_UTF8: u8 = 2;

/**
 * Decides `count` byte ranges of `input`, each read as TextDecoder reads UTF-8: one leading byte order mark
 * (EF BB BF) is dropped, then the rest is decided as decide() decides a URL. Verdicts go to `out`, one byte
 * per range (above). Returns how many ranges were RANGE_NOT_UTF8, so that the host looks for none when none.
 */
export function decideRanges(ruleset: usize, input: usize, table: usize, count: usize, scratch: usize, out: usize): u32 {
  let invalid: u32 = 0;
  for (let i: usize = 0; i < count; i++) {
    let start = <usize>load<u32>(table + i * RANGE_ENTRY_SIZE);
    const end = <usize>load<u32>(table + i * RANGE_ENTRY_SIZE, 4);
    if (!isUtf8(input + start, end - start)) {
      store<u8>(out + i, RANGE_NOT_UTF8);
      invalid++;
      continue;
    }
    if (end - start >= 3 && load<u16>(input + start) == 0xbbef && load<u8>(input + start + 2) == 0xbf) start += 3;
    const index = decide(ruleset, input + start, end - start, scratch);
    store<u8>(out + i, verdictOf(ruleset, index) ? 1 : 0);
  }
  return invalid;
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
  // The first piece is anchored at the start of the path. Most rules are turned away here (a file's wildcard
  // rules mostly start with different directories), so when the first '*' is among the first 16 bytes the
  // piece is found and compared in one step, 16 bytes at a time (both buffers have room to read past).
  const head = v128.load(pattern);
  let stars = i8x16.bitmask(i8x16.eq(head, i8x16.splat(<i8>STAR)));
  if (patternLength < 16) stars &= (1 << <i32>patternLength) - 1;
  let pieceEnd: usize;
  if (stars != 0) {
    pieceEnd = <usize>ctz(stars);
    const piece = (1 << <i32>pieceEnd) - 1;
    if (pieceEnd > pathLength || (i8x16.bitmask(i8x16.eq(head, v128.load(path))) & piece) != piece) return false;
  } else {
    pieceEnd = findByte(pattern, 0, patternLength, STAR);
    if (pieceEnd > pathLength || !bytesEqual(path, pattern, pieceEnd)) return false;
  }
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

/**
 * Where `needle` first occurs in haystack[from..end), or -1. Candidates (the needle's first byte) are found
 * 16 bytes at a time; reads up to 15 bytes past `end`, which the host keeps in its buffers.
 */
function indexOf(haystack: usize, from: usize, end: usize, needle: usize, needleLength: usize): isize {
  if (needleLength == 0) return <isize>from;
  if (end < needleLength || from > end - needleLength) return -1;
  const candidates = end - needleLength + 1;
  const first = i8x16.splat(load<i8>(needle));
  for (let i = from; i < candidates; i += 16) {
    let mask = i8x16.bitmask(i8x16.eq(v128.load(haystack + i), first));
    const remaining = candidates - i;
    if (remaining < 16) mask &= (1 << <i32>remaining) - 1;
    while (mask != 0) {
      const at = i + <usize>ctz(mask);
      if (bytesEqual(haystack + at + 1, needle + 1, needleLength - 1)) return <isize>at;
      mask &= mask - 1;
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


// ---------------------------------------------------------------------------------------------------------
// The piece automaton (src/compile/bytecode.ts, "The piece automaton" and "Work area").

// The work area the host handed in with setWorkArea: the memo (memoCapacity u32), then workCapacity bytes.
let workArea: usize = 0;
let memoCapacity: u32 = 0;
let workCapacity: u32 = 0;
// The tag of the current check's memo words, 1 … MEMO_TAGS - 1.
let memoTag: u32 = 0;

/**
 * Hands the matcher its work area: `pointer` to memoNodes × 4 + bytes zeroed bytes that stay the matcher's
 * (every check leaves them as it found them, bar the tagged memo). A ruleset whose automaton needs more is
 * decided rule by rule instead.
 */
export function setWorkArea(pointer: usize, memoNodes: u32, bytes: u32): void {
  workArea = pointer;
  memoCapacity = memoNodes;
  workCapacity = bytes;
  memoTag = 0;
}

/** The ruleset's automaton, or 0 when it has none or the work area is too small for it. */
function automatonOf(ruleset: usize): usize {
  const offset = load<u32>(ruleset + HEADER_AUTOMATON);
  if (offset == 0) return 0;
  const automaton = ruleset + offset;
  if (load<u32>(automaton + AUTOMATON_NODE_COUNT) > memoCapacity) return 0;
  if (load<u32>(automaton + AUTOMATON_WORK_BYTES) > workCapacity) return 0;
  return automaton;
}

// Where the current check's tables and state are (globals, set by scanPieces: arguments would be many).
let nodes: usize = 0;
let rootChildren: usize = 0;
let edgeKeys: usize = 0;
let edgeCount: u32 = 0;
let edgeBuckets: usize = 0;
let edgeBucketShift: u32 = 0;
let terminals: usize = 0;
let terminalBuckets: usize = 0;
let terminalBucketShift: u32 = 0;
let pieceCount: u32 = 0;
let pieces: usize = 0;
let deepPieces: usize = 0;
let automatonRules: usize = 0;
let pieceList: usize = 0;
let wheelMask: u32 = 0;
let ruleNext: usize = 0;
let rulePos: usize = 0;
let pieceHead: usize = 0;
let wheel: usize = 0;
let treeLeaves: u32 = 0;
let treeSums: usize = 0;
let treeSuffixes: usize = 0;
// Pieces someone waits for right now, deep ones and the others; rules still waiting (in the wheel or a
// list); the best automaton rule matched so far (-1: none).
let markedDeep: u32 = 0;
let markedShallow: u32 = 0;
let alive: u32 = 0;
let found: i32 = -1;
// The check under way: its ruleset and path.
let checkRuleset: usize = 0;
let checkPath: usize = 0;
let checkLength: usize = 0;

/**
 * The highest-priority automaton rule with a rule index below `limit` that matches the path, or -1. Every
 * rule whose p0 starts the path waits for its first searched piece; one pass over the path moves each rule
 * on at the leftmost occurrence of the piece it waits for.
 */
function scanPieces(ruleset: usize, automaton: usize, path: usize, length: usize, limit: u32): i32 {
  const ruleCount = load<u32>(automaton + AUTOMATON_RULE_COUNT);
  pieceCount = load<u32>(automaton + AUTOMATON_PIECE_COUNT);
  const wheelSize = load<u32>(automaton + AUTOMATON_WHEEL_SIZE);
  const deepCount = load<u32>(automaton + AUTOMATON_DEEP_COUNT);
  nodes = ruleset + load<u32>(automaton + AUTOMATON_NODES);
  rootChildren = ruleset + load<u32>(automaton + AUTOMATON_ROOT);
  edgeKeys = ruleset + load<u32>(automaton + AUTOMATON_EDGES);
  edgeCount = load<u32>(automaton + AUTOMATON_EDGE_COUNT);
  edgeBuckets = edgeKeys + (<usize>edgeCount << 3);
  edgeBucketShift = load<u32>(automaton + AUTOMATON_EDGE_BUCKET_SHIFT);
  terminals = ruleset + load<u32>(automaton + AUTOMATON_TERMINALS);
  terminalBuckets = terminals + (<usize>pieceCount << 2);
  terminalBucketShift = load<u32>(automaton + AUTOMATON_TERMINAL_BUCKET_SHIFT);
  pieces = ruleset + load<u32>(automaton + AUTOMATON_PIECES);
  deepPieces = ruleset + load<u32>(automaton + AUTOMATON_DEEP);
  automatonRules = ruleset + load<u32>(automaton + AUTOMATON_RULES);
  pieceList = ruleset + load<u32>(automaton + AUTOMATON_LIST);
  wheelMask = wheelSize - 1;
  // The work area's layout, as workAreaLayout() in src/compile/bytecode.ts computes it.
  ruleNext = workArea + (<usize>memoCapacity << 2);
  rulePos = ruleNext + (<usize>ruleCount << 2);
  pieceHead = rulePos + (<usize>ruleCount << 2);
  wheel = pieceHead + (<usize>pieceCount << 2);
  treeLeaves = 1;
  while (treeLeaves < 2 * deepCount + 1) treeLeaves <<= 1;
  treeSums = wheel + (<usize>wheelSize << 2);
  treeSuffixes = treeSums + (<usize>treeLeaves << 3);
  checkRuleset = ruleset;
  checkPath = path;
  checkLength = length;
  memoTag++;
  if (memoTag == MEMO_TAGS) {
    memory.fill(workArea, 0, <usize>memoCapacity << 2);
    memoTag = 1;
  }

  alive = 0;
  found = -1;
  let considered: u32 = 0;
  for (; considered < ruleCount; considered++) {
    const entry = automatonRules + <usize>considered * AUTOMATON_RULE_ENTRY_SIZE;
    const ruleIndex = load<u32>(entry);
    if (ruleIndex >= limit) break;
    // p0 runs up to the pattern's first `*`, and must start the path.
    const pattern = ruleset + load<u32>(ruleset + HEADER_SIZE + <usize>ruleIndex * RULE_ENTRY_SIZE);
    let first: usize = 0;
    while (true) {
      const byte = load<u8>(pattern + first);
      if (byte == STAR || first >= length || load<u8>(path + first) != byte) break;
      first++;
    }
    if (load<u8>(pattern + first) != STAR) continue;
    if (schedule(considered, load<u32>(entry, 4), first)) alive++;
  }
  let state: u32 = 0;
  for (let i: usize = 0; i < length && alive > 0; i++) {
    // Rules whose piece can end here, at the earliest, start waiting for it.
    const slot = wheel + (<usize>(<u32>i & wheelMask) << 2);
    let waiting = load<u32>(slot);
    store<u32>(slot, 0);
    while (waiting != 0) {
      const rule = waiting - 1;
      waiting = load<u32>(ruleNext + (<usize>rule << 2));
      if (found >= 0 && rule > <u32>found) {
        retire(rule);
        alive--;
        continue;
      }
      const piece = load<u32>(pieceList + (<usize>(load<u32>(rulePos + (<usize>rule << 2)) - 1) << 2));
      const head = pieceHead + (<usize>piece << 2);
      const first = load<u32>(head);
      if (first == 0) markPiece(piece, 1);
      store<u32>(ruleNext + (<usize>rule << 2), first);
      store<u32>(head, rule + 1);
    }
    state = step(state, load<u8>(path + i));
    if (markedDeep + markedShallow == 0) continue;
    let piece = deepestPiece(state);
    if (piece < 0) continue;
    // The pieces ending here are this one and its ancestors in the piece tree: each that someone waits
    // for moves its rules on. Deep ones are found through the segment tree, the others one by one.
    const deep = <u32>load<u16>(pieces + <usize>piece * AUTOMATON_PIECE_ENTRY_SIZE, 6);
    if (deep != NOT_DEEP) {
      if (markedDeep > 0) {
        while (true) {
          const at = nearestMarkedDeep(deep);
          if (at < 0) break;
          flush(load<u32>(deepPieces + <usize>at * AUTOMATON_DEEP_ENTRY_SIZE), i);
        }
      }
      piece = <i32>load<u32>(deepPieces + <usize>deep * AUTOMATON_DEEP_ENTRY_SIZE, 8) - 1;
    }
    if (markedShallow == 0) continue;
    while (piece >= 0) {
      if (load<u32>(pieceHead + (<usize>piece << 2)) != 0) flush(<u32>piece, i);
      piece = <i32>load<u32>(pieces + <usize>piece * AUTOMATON_PIECE_ENTRY_SIZE) - 1;
    }
  }
  // Rules still waiting when the pass ended: their pieces unmarked, their state zeroed.
  for (let rule: u32 = 0; rule < considered; rule++) {
    const position = load<u32>(rulePos + (<usize>rule << 2));
    if (position == 0) continue;
    const piece = load<u32>(pieceList + (<usize>(position - 1) << 2));
    const head = pieceHead + (<usize>piece << 2);
    if (load<u32>(head) != 0) {
      store<u32>(head, 0);
      markPiece(piece, -1);
    }
    retire(rule);
  }
  return found < 0 ? -1 : <i32>load<u32>(automatonRules + <usize>found * AUTOMATON_RULE_ENTRY_SIZE);
}

/** `piece` ended at path position `end`: every rule waiting for it moves on (or is done). */
function flush(piece: u32, end: usize): void {
  const head = pieceHead + (<usize>piece << 2);
  let rules = load<u32>(head);
  store<u32>(head, 0);
  markPiece(piece, -1);
  while (rules != 0) {
    const rule = rules - 1;
    rules = load<u32>(ruleNext + (<usize>rule << 2));
    // The list position after the piece just found: the next piece to wait for, or the list's end.
    const position = load<u32>(rulePos + (<usize>rule << 2));
    if (found >= 0 && rule > <u32>found) {
      retire(rule);
      alive--;
    } else if (!schedule(rule, position, end + 1)) {
      alive--;
      const entry = automatonRules + <usize>rule * AUTOMATON_RULE_ENTRY_SIZE;
      if (position == load<u32>(entry, AUTOMATON_RULE_ENTRY_SIZE + 4) && matchesSuffix(entry, end + 1)) found = <i32>rule;
    }
  }
}

/**
 * Makes `rule` wait for the piece at list position `position`, found at or after path position `start`;
 * false when its list is done or the piece can no longer fit in the path (the rule then waits for nothing).
 */
function schedule(rule: u32, position: u32, start: usize): bool {
  const end = load<u32>(automatonRules + <usize>(rule + 1) * AUTOMATON_RULE_ENTRY_SIZE, 4);
  if (position == end) {
    retire(rule);
    return false;
  }
  const piece = load<u32>(pieceList + (<usize>position << 2));
  const earliest = start + <usize>load<u16>(pieces + <usize>piece * AUTOMATON_PIECE_ENTRY_SIZE, 4) - 1;
  if (earliest >= checkLength) {
    retire(rule);
    return false;
  }
  store<u32>(rulePos + (<usize>rule << 2), position + 1);
  const slot = wheel + (<usize>(<u32>earliest & wheelMask) << 2);
  store<u32>(ruleNext + (<usize>rule << 2), load<u32>(slot));
  store<u32>(slot, rule + 1);
  return true;
}

function retire(rule: u32): void {
  store<u32>(rulePos + (<usize>rule << 2), 0);
  store<u32>(ruleNext + (<usize>rule << 2), 0);
}

/**
 * After the last searched piece ended before `from`: for a pattern that ended in `$`, its last piece (after
 * its last `*`) ends the path after that.
 */
function matchesSuffix(entry: usize, from: usize): bool {
  const rule = checkRuleset + HEADER_SIZE + <usize>load<u32>(entry) * RULE_ENTRY_SIZE;
  if ((<u32>load<u16>(rule, 6) & RULE_END_ANCHORED) == 0) return true;
  const patternEnd = checkRuleset + load<u32>(rule) + <usize>load<u16>(rule, 4);
  let suffix: usize = 0;
  while (load<u8>(patternEnd - suffix - 1) != STAR) suffix++;
  if (checkLength < from || checkLength - from < suffix) return false;
  return bytesEqual(checkPath + checkLength - suffix, patternEnd - suffix, suffix);
}

/** The Aho–Corasick transition: the deepest node whose text ends the path read so far. */
function step(from: u32, byte: u32): u32 {
  let node = from;
  while (true) {
    const word = load<u32>(nodes + (<usize>node << 2));
    if ((word & NODE_TAIL_END) == 0 && (load<u32>(nodes + (<usize>node << 2), 4) & NODE_LABEL_MASK) == byte) return node + 1;
    if (node == 0) return load<u32>(rootChildren + (<usize>byte << 2));
    // The first node of a tail: a binary search over the edge keys of the node's bucket.
    const key = (node << 8) | byte;
    const bucket = edgeBuckets + (<usize>(node >>> edgeBucketShift) << 2);
    let low = load<u32>(bucket);
    let high = load<u32>(bucket, 4);
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (load<u32>(edgeKeys + (<usize>middle << 2)) < key) low = middle + 1;
      else high = middle;
    }
    if (low < edgeCount && load<u32>(edgeKeys + (<usize>low << 2)) == key) {
      return load<u32>(edgeKeys + (<usize>(edgeCount + low) << 2));
    }
    node = word >>> NODE_FAIL_SHIFT;
  }
}

/** The deepest piece ending at `node` (the nearest tail end on its failure chain), or -1; memoized. */
function deepestPiece(node: u32): i32 {
  const memo = workArea;
  let at = node;
  let piece: i32 = -1;
  while (at != 0) {
    const word = load<u32>(memo + (<usize>at << 2));
    if (word >>> MEMO_PIECE_BITS == memoTag) {
      piece = <i32>(word & ((1 << MEMO_PIECE_BITS) - 1)) - 1;
      break;
    }
    const nodeWord = load<u32>(nodes + (<usize>at << 2));
    if ((nodeWord & NODE_TAIL_END) != 0) {
      piece = <i32>pieceEndingAt(at);
      break;
    }
    at = nodeWord >>> NODE_FAIL_SHIFT;
  }
  // Every node passed on the way has the same answer.
  const value = (memoTag << MEMO_PIECE_BITS) | <u32>(piece + 1);
  for (let on = node; on != at; on = load<u32>(nodes + (<usize>on << 2)) >>> NODE_FAIL_SHIFT) {
    store<u32>(memo + (<usize>on << 2), value);
  }
  if (at != 0) store<u32>(memo + (<usize>at << 2), value);
  return piece;
}

/** The piece that ends at a tail end: pieces are numbered in the order of their tails. */
function pieceEndingAt(terminal: u32): u32 {
  const bucket = terminalBuckets + (<usize>(terminal >>> terminalBucketShift) << 2);
  let low = load<u32>(bucket);
  let high = load<u32>(bucket, 4);
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (load<u32>(terminals + (<usize>middle << 2)) < terminal) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Counts a piece as waited for (+1) or no longer (-1); a deep one gets its parentheses in the tree. */
function markPiece(piece: u32, delta: i32): void {
  const deep = <u32>load<u16>(pieces + <usize>piece * AUTOMATON_PIECE_ENTRY_SIZE, 6);
  if (deep == NOT_DEEP) {
    markedShallow += delta;
    return;
  }
  markedDeep += delta;
  addToLeaf(2 * deep + 1, delta);
  addToLeaf(2 * load<u32>(deepPieces + <usize>deep * AUTOMATON_DEEP_ENTRY_SIZE, 4), -delta);
}

function addToLeaf(leaf: u32, delta: i32): void {
  let node = treeLeaves + leaf;
  const sum = load<i32>(treeSums + (<usize>node << 2)) + delta;
  store<i32>(treeSums + (<usize>node << 2), sum);
  store<i32>(treeSuffixes + (<usize>node << 2), sum > 0 ? sum : 0);
  for (node >>= 1; node >= 1; node >>= 1) {
    const left = <usize>node << 3;
    const rightSum = load<i32>(treeSums + left, 4);
    store<i32>(treeSums + (<usize>node << 2), load<i32>(treeSums + left) + rightSum);
    const viaLeft = rightSum + load<i32>(treeSuffixes + left);
    const rightSuffix = load<i32>(treeSuffixes + left, 4);
    store<i32>(treeSuffixes + (<usize>node << 2), viaLeft > rightSuffix ? viaLeft : rightSuffix);
  }
}

/**
 * The nearest ancestor of a deep piece (itself included) among the deep pieces someone waits for, as a
 * deep index, or -1: the last leaf at or before its opening parenthesis from which the sum up to it is
 * positive (subtrees that closed before it sum to zero; only enclosing ones count).
 */
function nearestMarkedDeep(deep: u32): i32 {
  let node = treeLeaves + 2 * deep + 1;
  let sum = load<i32>(treeSums + (<usize>node << 2));
  if (sum >= 1) return <i32>deep;
  for (; node > 1; node >>= 1) {
    if ((node & 1) == 0) continue;
    const left = node - 1;
    if (sum + load<i32>(treeSuffixes + (<usize>left << 2)) >= 1) {
      // The rightmost leaf of `left` from which the suffix sum reaches 1.
      let at = left;
      while (at < treeLeaves) {
        const right = 2 * at + 1;
        if (sum + load<i32>(treeSuffixes + (<usize>right << 2)) >= 1) at = right;
        else {
          sum += load<i32>(treeSums + (<usize>right << 2));
          at = 2 * at;
        }
      }
      return <i32>((at - treeLeaves - 1) >> 1);
    }
    sum += load<i32>(treeSums + (<usize>left << 2));
  }
  return -1;
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
