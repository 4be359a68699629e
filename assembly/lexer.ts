// The lexer: robots.txt bytes → one record per meaningful line, the hot part of parsing.
//
// It does what src/parse/lines.ts and src/parse/records.ts do (they are the reference, and the fallback
// where WebAssembly cannot run; test/conformance/lexer.test.ts holds the two together), but 16 bytes at a time:
// most of a real corpus is long lines that hold no record (HTML served as robots.txt, comments), and
// scanning them byte by byte in JavaScript is what made parsing slow.
//
// Its records (RECORD_*, KIND_*, CUT_FLAG) are laid out in ./layout.ts and read by src/engine/wasm-lexer.ts.

import {
  CUT_FLAG, KIND_ALLOW, KIND_BLANK_CUT, KIND_DISALLOW, KIND_MALFORMED, KIND_OTHER, KIND_SITEMAP, KIND_USER_AGENT,
  MAX_LINE_BYTES, RECORD_INFO, RECORD_KEY_END, RECORD_KEY_START, RECORD_LINE, RECORD_SIZE, RECORD_VALUE_END,
  RECORD_VALUE_START,
} from './layout';
import { COLON, CR, HASH, LF, SPACE, TAB } from './bytes';

// Where the last lex() call stopped: the next line's start and the last line number used.
let resumeAt: usize = 0;
let resumeLine: u32 = 0;
let finished = false;

export function lexResumeAt(): usize {
  return resumeAt;
}

export function lexLineNumber(): u32 {
  return resumeLine;
}

export function lexFinished(): bool {
  return finished;
}

/**
 * Lexes lines from `start` (after any byte order mark), numbering them from `lineNumber` + 1, and writes
 * at most `maxRecords` records to `out`. Returns how many it wrote; lexResumeAt(), lexLineNumber() and
 * lexFinished() say where to go on. Reads up to 15 bytes past `length`.
 */
export function lex(body: usize, length: usize, start: usize, lineNumber: u32, out: usize, maxRecords: u32): u32 {
  let count: u32 = 0;
  let lineStart = start;
  finished = false;
  while (count < maxRecords) {
    // One pass finds where the content ends (CR, LF, NUL or `#`) and the first colon before it.
    let contentEnd = length;
    let colon = length;
    for (let p = lineStart; p < length; p += 16) {
      const block = v128.load(body + p);
      const colons = i8x16.bitmask(i8x16.eq(block, i8x16.splat(<i8>COLON)));
      if (colons != 0 && colon == length) colon = p + <usize>ctz(colons);
      const ends = i8x16.bitmask(contentEnds(block));
      if (ends != 0) {
        contentEnd = p + <usize>ctz(ends);
        break;
      }
    }
    // The bytes past `length` were read too: what was found there is the end of the body.
    if (contentEnd > length) contentEnd = length;
    // A `#` or NUL ends the content only: the line goes on to CR or LF.
    let lineEnd = contentEnd;
    if (contentEnd < length) {
      const c = load<u8>(body + contentEnd);
      if (c != LF && c != CR) lineEnd = findLineEnd(body, contentEnd, length);
    }
    lineNumber++;
    const cut = lineEnd - lineStart > MAX_LINE_BYTES;
    if (contentEnd - lineStart > MAX_LINE_BYTES) contentEnd = lineStart + MAX_LINE_BYTES;
    if (lexLine(body, lineStart, contentEnd, colon, out + <usize>count * RECORD_SIZE, lineNumber, cut)) count++;
    if (lineEnd >= length) {
      finished = true;
      break;
    }
    let next = lineEnd + 1;
    if (load<u8>(body + lineEnd) == CR && next < length && load<u8>(body + next) == LF) next++;
    lineStart = next;
  }
  resumeAt = lineStart;
  resumeLine = lineNumber;
  return count;
}

/** The lanes of `block` that end a line's content: CR, LF, NUL and `#`. */
// @ts-ignore: decorator
@inline
function contentEnds(block: v128): v128 {
  return v128.or(
    v128.or(i8x16.eq(block, i8x16.splat(<i8>LF)), i8x16.eq(block, i8x16.splat(<i8>CR))),
    v128.or(i8x16.eq(block, i8x16.splat(0)), i8x16.eq(block, i8x16.splat(<i8>HASH))),
  );
}

/**
 * Makes the record of the line whose content is body[start, end) (comment and NUL already cut off), `colon`
 * being its first colon if that is before `end`. Returns whether it wrote one.
 */
// @ts-ignore: decorator
@inline
function lexLine(body: usize, start: usize, end: usize, colon: usize, record: usize, lineNumber: u32, cut: bool): bool {
  while (start < end && isAsciiWhitespace(load<u8>(body + start))) start++;
  while (end > start && isAsciiWhitespace(load<u8>(body + end - 1))) end--;
  const cutFlag = cut ? CUT_FLAG : 0;
  if (start == end) {
    if (cut) writeRecord(record, lineNumber, start, end, end, end, KIND_BLANK_CUT | cutFlag);
    return cut;
  }
  // Trimming removed whitespace only, so a colon before the content's end is still inside [start, end).
  let separator = colon < end ? colon : end;
  if (separator == end) {
    // Some files forget the colon: whitespace instead, but only between exactly two tokens.
    // These are mostly HTML and prose lines, many of them long: the tokens are found 16 bytes at a time.
    separator = findSpaceOrTab(body, start, end);
    let valueStart = separator;
    while (valueStart < end && isSpaceOrTab(load<u8>(body + valueStart))) valueStart++;
    if (separator == end || findSpaceOrTab(body, valueStart, end) != end) {
      writeRecord(record, lineNumber, start, end, end, end, KIND_MALFORMED | cutFlag);
      return true;
    }
  }
  let keyEnd = separator;
  while (keyEnd > start && isAsciiWhitespace(load<u8>(body + keyEnd - 1))) keyEnd--;
  if (keyEnd == start) {
    writeRecord(record, lineNumber, start, end, end, end, KIND_MALFORMED | cutFlag);
    return true;
  }
  let valueStart = separator + 1;
  while (valueStart < end && isAsciiWhitespace(load<u8>(body + valueStart))) valueStart++;
  writeRecord(record, lineNumber, start, keyEnd, valueStart, end, classifyKey(body + start, keyEnd - start) | cutFlag);
  return true;
}

// @ts-ignore: decorator
@inline
function writeRecord(record: usize, line: u32, keyStart: usize, keyEnd: usize, valueStart: usize, valueEnd: usize, info: u32): void {
  store<u32>(record, line, RECORD_LINE);
  store<u32>(record, <u32>keyStart, RECORD_KEY_START);
  store<u32>(record, <u32>keyEnd, RECORD_KEY_END);
  store<u32>(record, <u32>valueStart, RECORD_VALUE_START);
  store<u32>(record, <u32>valueEnd, RECORD_VALUE_END);
  store<u32>(record, info, RECORD_INFO);
}

// Google's accepted spellings, each a case-insensitive prefix of the key (no key starts with spellings of
// two kinds, so the order in which kinds are tried does not matter): the first 8 bytes of each as a little-endian u64, the rest as a u16.
// Setting bit 5 of a key byte folds A-Z to a-z and maps no other byte a key can hold to a letter, `-` or a
// space (only CR and NUL would, and neither is ever in a key), so keys compare 8 bytes at a time.
const FOLD: u64 = 0x2020202020202020;
const ALLOW: u64 = 0x776f6c6c61; // allow
const DISALOW: u64 = 0x776f6c61736964; // disalow
const SITEMAP: u64 = 0x70616d65746973; // sitemap
const DISALLOW: u64 = 0x776f6c6c61736964; // disallow
const DISSALOW: u64 = 0x776f6c6173736964; // dissalow
const DIASLLOW: u64 = 0x776f6c6c73616964; // diasllow
const DISALLAW: u64 = 0x77616c6c61736964; // disallaw
const SITE_MAP: u64 = 0x70616d2d65746973; // site-map
const USERAGEN: u64 = 0x6e65676172657375; // useragen|t
const DISSALLO: u64 = 0x6f6c6c6173736964; // dissallo|w
const USER_AGE: u64 = 0x6567612d72657375; // user-age|nt
const USER_SPACE_AGE: u64 = 0x6567612072657375; // user age|nt
const T: u16 = 0x74; // t
const W: u16 = 0x77; // w
const NT: u16 = 0x746e; // nt

/** The kind of the key of `length` bytes at `key`. Reads up to 10 bytes from `key`, past a shorter key's end. */
// @ts-ignore: decorator
@inline
function classifyKey(key: usize, length: usize): u32 {
  if (length < 5) return KIND_OTHER;
  const head = load<u64>(key) | FOLD;
  if ((head & 0xffffffffff) == ALLOW) return KIND_ALLOW;
  if (length < 7) return KIND_OTHER;
  const seven = head & 0xffffffffffffff;
  if (seven == DISALOW) return KIND_DISALLOW;
  if (seven == SITEMAP) return KIND_SITEMAP;
  if (length < 8) return KIND_OTHER;
  if (head == DISALLOW || head == DISSALOW || head == DIASLLOW || head == DISALLAW) return KIND_DISALLOW;
  if (head == SITE_MAP) return KIND_SITEMAP;
  if (length < 9) return KIND_OTHER;
  const tail = load<u16>(key + 8) | 0x2020;
  if (head == USERAGEN && (tail & 0xff) == T) return KIND_USER_AGENT;
  if (head == DISSALLO && (tail & 0xff) == W) return KIND_DISALLOW;
  if (length < 10) return KIND_OTHER;
  if ((head == USER_AGE || head == USER_SPACE_AGE) && tail == NT) return KIND_USER_AGENT;
  return KIND_OTHER;
}

// @ts-ignore: decorator
@inline
function isAsciiWhitespace(c: u8): bool {
  return c == SPACE || (c >= TAB && c <= CR);
}

// @ts-ignore: decorator
@inline
function isSpaceOrTab(c: u8): bool {
  return c == SPACE || c == TAB;
}

/** The first CR or LF from `from` on, or `end`. */
function findLineEnd(base: usize, from: usize, end: usize): usize {
  const lfs = i8x16.splat(<i8>LF);
  const crs = i8x16.splat(<i8>CR);
  for (let i = from; i < end; i += 16) {
    const block = v128.load(base + i);
    const mask = i8x16.bitmask(v128.or(i8x16.eq(block, lfs), i8x16.eq(block, crs)));
    if (mask != 0) return min(i + <usize>ctz(mask), end);
  }
  return end;
}

/** The first space or tab in base[from..end), or `end`. */
function findSpaceOrTab(base: usize, from: usize, end: usize): usize {
  for (let i = from; i < end; i += 16) {
    const block = v128.load(base + i);
    const mask = i8x16.bitmask(v128.or(i8x16.eq(block, i8x16.splat(<i8>SPACE)), i8x16.eq(block, i8x16.splat(<i8>TAB))));
    if (mask != 0) return min(i + <usize>ctz(mask), end);
  }
  return end;
}
