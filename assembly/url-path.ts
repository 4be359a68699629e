// Where the path, params and query are in a URL (the way Google's GetPathParamsQuery finds them), and the
// percent-normalization a path gets before it is matched. 16 bytes at a time where it pays.

import { COLON, HASH, PERCENT, QUESTION, SEMICOLON, SLASH } from './bytes';

// What the scans below found; globals, since returning two values would allocate.
export let firstHash: usize = 0;
// A '%', a byte ≥ 0x80 or a NUL: what makes a path need normalizing, or cutting (the NUL).
export let specialBytes = false;

/**
 * Where the path starts in `input[0..length)`, a URL or a path: the first '/', '?' or ';' after any scheme
 * and authority, or `length`. Notes in firstHash the first '#' before it. Inlined into decide().
 */
// @ts-ignore: decorator
@inline
export function pathStartOf(input: usize, length: usize): usize {
  const searchStart: usize = length >= 2 && load<u16>(input) == 0x2f2f ? 2 : 0;
  firstHash = length;
  let pathStart = scanToPathStart(input, searchStart, length);
  // A scheme counts only when its "://" is where the first '/' is; any later one is inside the path.
  if (pathStart >= 1 && pathStart + 1 < length && load<u8>(input + pathStart - 1) == COLON &&
      load<u8>(input + pathStart + 1) == SLASH && load<u8>(input + pathStart) == SLASH) {
    pathStart = scanToPathStart(input, pathStart + 2, length);
  }
  return pathStart;
}

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
export function scanPath(base: usize, from: usize, end: usize): void {
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

export function isRobotsTxtPath(path: usize, length: usize): bool {
  // "/robots.txt" optionally followed by a query.
  if (length < 11) return false;
  if (length > 11 && load<u8>(path + 11) != QUESTION) return false;
  return load<u64>(path) == 0x2e73746f626f722f && // "/robots."
    load<u16>(path + 8) == 0x7874 && // "tx"
    load<u8>(path + 10) == 0x74; // "t"
}

// Percent-normalization (RFC 3986 §6.2.2 as RFC 9309 §2.2.2 asks): octets ≥ 0x80 become %XX, the hex of
// an escape is upper-cased, and an escaped unreserved character is decoded. A path that needs it is mostly
// ASCII with a few escapes or a few non-ASCII characters, so the bytes that stay as they are move 16 at a
// time: each step copies 16 bytes, then keeps as many as come before the first '%' or byte ≥ 0x80. Reads up
// to 15 bytes past `length` and writes up to 15 past the end of the output, which the host's buffers keep
// room for (VECTOR_SLACK).
export function normalizeInto(source: usize, length: usize, out: usize): usize {
  const percents = i8x16.splat(<i8>PERCENT);
  let i: usize = 0;
  while (i < length) {
    const block = v128.load(source + i);
    v128.store(out, block);
    // The sign bits are the bytes ≥ 0x80.
    let mask = i8x16.bitmask(i8x16.eq(block, percents)) | i8x16.bitmask(block);
    const remaining = length - i;
    if (remaining < 16) mask &= (1 << <i32>remaining) - 1;
    if (mask == 0) {
      const step = remaining < 16 ? remaining : 16;
      i += step;
      out += step;
      continue;
    }
    const at = <usize>ctz(mask);
    i += at;
    out += at;
    let c = load<u8>(source + i);
    if (c == PERCENT) {
      if (i + 2 < length && isHex(load<u8>(source + i + 1)) && isHex(load<u8>(source + i + 2))) {
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
      } else {
        store<u8>(out++, c);
        i++;
      }
      continue;
    }
    // A non-ASCII character is a run of bytes ≥ 0x80: escaped one after the other without a step between.
    do {
      store<u8>(out++, PERCENT);
      store<u8>(out++, upperHexDigit(c >> 4));
      store<u8>(out++, upperHexDigit(c & 15));
      i++;
      if (i >= length) break;
      c = load<u8>(source + i);
    } while (c >= 0x80);
  }
  return out;
}

export function copyInto(source: usize, length: usize, out: usize): usize {
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
