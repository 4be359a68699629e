// The lexer: robots.txt bytes → one record per meaningful line, the hot part of parsing.
//
// It does what src/parse/lines.ts and src/parse/records.ts do (they are the reference, and the fallback
// where WebAssembly cannot run; test/lexer.test.ts holds the two together), but 16 bytes at a time:
// most of a real corpus is long lines that hold no record (HTML served as robots.txt, comments), and
// scanning them byte by byte in JavaScript is what made parsing slow.
//
// Its records (RECORD_*, KIND_*, CUT_FLAG) are laid out in ./layout.ts and read by src/engine/wasm-lexer.ts.

import {
  CUT_FLAG, KIND_ALLOW, KIND_BLANK_CUT, KIND_DISALLOW, KIND_MALFORMED, KIND_OTHER, KIND_SITEMAP, KIND_USER_AGENT,
  MAX_LINE_BYTES, RECORD_INFO, RECORD_KEY_END, RECORD_KEY_START, RECORD_LINE, RECORD_SIZE, RECORD_VALUE_END,
  RECORD_VALUE_START,
} from './layout';
import { findByte } from './scan';

const LF: u8 = 0x0a;
const CR: u8 = 0x0d;
const HASH: u8 = 0x23;
const COLON: u8 = 0x3a;
const SPACE: u8 = 0x20;
const TAB: u8 = 0x09;

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
    let lineEnd = findLineEndOrNul(body, lineStart, length);
    let contentEnd = lineEnd;
    if (lineEnd < length && load<u8>(body + lineEnd) == 0) {
      // A NUL ends the content (the reference reads lines as C strings); the line goes on to CR or LF.
      lineEnd = findLineEnd(body, lineEnd, length);
    }
    lineNumber++;
    const cut = lineEnd - lineStart > MAX_LINE_BYTES;
    if (contentEnd - lineStart > MAX_LINE_BYTES) contentEnd = lineStart + MAX_LINE_BYTES;
    if (lexLine(body, lineStart, contentEnd, out + <usize>count * RECORD_SIZE, lineNumber, cut)) count++;
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

function lexLine(body: usize, start: usize, end: usize, record: usize, lineNumber: u32, cut: bool): bool {
  end = findByte(body, start, end, HASH);
  while (start < end && isAsciiWhitespace(load<u8>(body + start))) start++;
  while (end > start && isAsciiWhitespace(load<u8>(body + end - 1))) end--;
  const cutFlag = cut ? CUT_FLAG : 0;
  if (start == end) {
    if (cut) writeRecord(record, lineNumber, start, end, end, end, KIND_BLANK_CUT | cutFlag);
    return cut;
  }
  let separator = findByte(body, start, end, COLON);
  if (separator == end) {
    // Some files forget the colon: whitespace instead, but only between exactly two tokens.
    separator = start;
    while (separator < end && !isSpaceOrTab(load<u8>(body + separator))) separator++;
    let valueStart = separator;
    while (valueStart < end && isSpaceOrTab(load<u8>(body + valueStart))) valueStart++;
    let extraToken = separator == end;
    for (let i = valueStart; i < end && !extraToken; i++) extraToken = isSpaceOrTab(load<u8>(body + i));
    if (extraToken) {
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

function writeRecord(record: usize, line: u32, keyStart: usize, keyEnd: usize, valueStart: usize, valueEnd: usize, info: u32): void {
  store<u32>(record, line, RECORD_LINE);
  store<u32>(record, <u32>keyStart, RECORD_KEY_START);
  store<u32>(record, <u32>keyEnd, RECORD_KEY_END);
  store<u32>(record, <u32>valueStart, RECORD_VALUE_START);
  store<u32>(record, <u32>valueEnd, RECORD_VALUE_END);
  store<u32>(record, info, RECORD_INFO);
}

// Google's accepted spellings, checked in this order, each as a case-insensitive prefix of the key.
const USER_AGENT = memory.data<u8>([0x75, 0x73, 0x65, 0x72, 0x2d, 0x61, 0x67, 0x65, 0x6e, 0x74]); // user-agent
const USERAGENT = memory.data<u8>([0x75, 0x73, 0x65, 0x72, 0x61, 0x67, 0x65, 0x6e, 0x74]); // useragent
const USER_SPACE_AGENT = memory.data<u8>([0x75, 0x73, 0x65, 0x72, 0x20, 0x61, 0x67, 0x65, 0x6e, 0x74]); // user agent
const ALLOW = memory.data<u8>([0x61, 0x6c, 0x6c, 0x6f, 0x77]); // allow
const DISALLOW = memory.data<u8>([0x64, 0x69, 0x73, 0x61, 0x6c, 0x6c, 0x6f, 0x77]); // disallow
const DISSALLOW = memory.data<u8>([0x64, 0x69, 0x73, 0x73, 0x61, 0x6c, 0x6c, 0x6f, 0x77]); // dissallow
const DISSALOW = memory.data<u8>([0x64, 0x69, 0x73, 0x73, 0x61, 0x6c, 0x6f, 0x77]); // dissalow
const DISALOW = memory.data<u8>([0x64, 0x69, 0x73, 0x61, 0x6c, 0x6f, 0x77]); // disalow
const DIASLLOW = memory.data<u8>([0x64, 0x69, 0x61, 0x73, 0x6c, 0x6c, 0x6f, 0x77]); // diasllow
const DISALLAW = memory.data<u8>([0x64, 0x69, 0x73, 0x61, 0x6c, 0x6c, 0x61, 0x77]); // disallaw
const SITEMAP = memory.data<u8>([0x73, 0x69, 0x74, 0x65, 0x6d, 0x61, 0x70]); // sitemap
const SITE_MAP = memory.data<u8>([0x73, 0x69, 0x74, 0x65, 0x2d, 0x6d, 0x61, 0x70]); // site-map

function classifyKey(key: usize, length: usize): u32 {
  if (startsWithFolded(key, length, USER_AGENT, 10) || startsWithFolded(key, length, USERAGENT, 9) ||
      startsWithFolded(key, length, USER_SPACE_AGENT, 10)) return KIND_USER_AGENT;
  if (startsWithFolded(key, length, ALLOW, 5)) return KIND_ALLOW;
  if (startsWithFolded(key, length, DISALLOW, 8) || startsWithFolded(key, length, DISSALLOW, 9) ||
      startsWithFolded(key, length, DISSALOW, 8) || startsWithFolded(key, length, DISALOW, 7) ||
      startsWithFolded(key, length, DIASLLOW, 8) || startsWithFolded(key, length, DISALLAW, 8)) return KIND_DISALLOW;
  if (startsWithFolded(key, length, SITEMAP, 7) || startsWithFolded(key, length, SITE_MAP, 8)) return KIND_SITEMAP;
  return KIND_OTHER;
}

/** Whether `key` starts with the lower-case `prefix`, ASCII letters compared case-insensitively. */
function startsWithFolded(key: usize, length: usize, prefix: usize, prefixLength: usize): bool {
  if (length < prefixLength) return false;
  for (let i: usize = 0; i < prefixLength; i++) {
    let c = load<u8>(key + i);
    if (c >= 0x41 && c <= 0x5a) c |= 0x20;
    if (c != load<u8>(prefix + i)) return false;
  }
  return true;
}

function isAsciiWhitespace(c: u8): bool {
  return c == SPACE || (c >= TAB && c <= CR);
}

function isSpaceOrTab(c: u8): bool {
  return c == SPACE || c == TAB;
}

/** The first CR, LF or NUL from `from` on, or `end`. */
function findLineEndOrNul(base: usize, from: usize, end: usize): usize {
  const lfs = i8x16.splat(<i8>LF);
  const crs = i8x16.splat(<i8>CR);
  const zero = i8x16.splat(0);
  for (let i = from; i < end; i += 16) {
    const block = v128.load(base + i);
    let mask = i8x16.bitmask(v128.or(v128.or(i8x16.eq(block, lfs), i8x16.eq(block, crs)), i8x16.eq(block, zero)));
    const remaining = end - i;
    if (remaining < 16) mask &= (1 << <i32>remaining) - 1;
    if (mask != 0) return i + <usize>ctz(mask);
  }
  return end;
}

/** The first CR or LF from `from` on, or `end`. */
function findLineEnd(base: usize, from: usize, end: usize): usize {
  const lfs = i8x16.splat(<i8>LF);
  const crs = i8x16.splat(<i8>CR);
  for (let i = from; i < end; i += 16) {
    const block = v128.load(base + i);
    let mask = i8x16.bitmask(v128.or(i8x16.eq(block, lfs), i8x16.eq(block, crs)));
    const remaining = end - i;
    if (remaining < 16) mask &= (1 << <i32>remaining) - 1;
    if (mask != 0) return i + <usize>ctz(mask);
  }
  return end;
}

