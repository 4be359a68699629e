// The line scanner: a batch of log lines → the lines `robotstxt filter` writes, in one crossing.
//
// It reads each line's URL (the whole line, or one field of it), finds its authority, looks that up in a
// table of authorities the host has resolved, decides the URL with the matcher straight out of the batch,
// counts the verdict, and copies the wanted lines to the output. Anything it does not know, it leaves to
// the host (src/engine/line-scanner.ts, which names the same constants; src/cli/filter/decide.ts is the
// reference for what a line means): it stops at that line and says why, and the host decides the line, hands
// its verdict back (STATE_FORCED) and may remember its authority (rememberHost) before scanning on. So the
// scanner holds no reading of a URL of its own beyond finding the authority; unusual lines (not http(s), a
// space in the authority, not UTF-8, too long, no such field) are read by the host, once each.
//
// Nothing here allocates: the host allocates the state block, the batch, the output, the scratch and the
// authority table, and writes their addresses into the state block.

import { isAllowed } from './index';
import { findByte } from './scan';
import { isUtf8 } from './utf8';

// The state block: u32 words at the address given to scanLines. In: set by the host; in/out: carried from
// one call to the next within a batch; out: written by the scanner.
const STATE_INPUT: usize = 0; // in: the batch (read up to 15 bytes past its end)
const STATE_LENGTH: usize = 4; // in: its length
const STATE_POSITION: usize = 8; // in/out: where the next line starts
const STATE_LINE: usize = 12; // in/out: that line's index in the batch
const STATE_OUTPUT: usize = 16; // in: where the wanted lines go (length + 1 bytes)
const STATE_OUTPUT_LENGTH: usize = 20; // in/out: bytes written there
const STATE_EMIT: usize = 24; // in: which verdicts are written, 1 << verdict each
const STATE_FIELD: usize = 28; // in: 0 for the whole line, else the URL's field (1-based)
const STATE_DELIMITER: usize = 32; // in: the field separator byte, or DELIMITER_SPACES
const STATE_PATH_VALUE: usize = 36; // in: the value (below) that decides a line that is a path; 0 asks
const STATE_SCRATCH: usize = 40; // in: 3 × STATE_MAX_LINE + 1 bytes for the matcher to rewrite a path in
const STATE_MAX_LINE: usize = 44; // in: lines longer than this are the host's
const STATE_FORCED: usize = 48; // in: the verdict of the line at STATE_POSITION, or NO_VERDICT
const STATE_ALLOWED: usize = 52; // in/out: lines counted allowed
const STATE_DISALLOWED: usize = 56; // in/out: … disallowed
const STATE_MALFORMED: usize = 60; // in/out: … malformed
const STATE_FIRST_MALFORMED: usize = 64; // in/out: the first malformed line's index, or NO_LINE
const STATE_STOP_END: usize = 68; // out: where the line the scanner stopped at ends (before CR LF)
const STATE_HOSTS: usize = 72; // in: the authority table, HOST_SLOTS entries of HOST_ENTRY_SIZE bytes
const STATE_HOST_SLOTS: usize = 76; // in: its slots, a power of two
const STATE_HOST_COUNT: usize = 80; // in/out: authorities in it (at most half the slots)
const STATE_KEYS: usize = 84; // in: the authorities' bytes, lower-cased
const STATE_KEYS_CAPACITY: usize = 88; // in: bytes there
const STATE_KEYS_USED: usize = 92; // in/out: bytes used
const STATE_PENDING_HASH: usize = 96; // out: the unknown authority of a SCAN_ASK_HOST stop …
const STATE_PENDING_START: usize = 100; // out: … its start in the batch (after any userinfo) …
const STATE_PENDING_END: usize = 104; // out: … and end
const STATE_PENDING_HTTPS: usize = 108; // out: … and whether its URL is https

// What scanLines returns.
const SCAN_DONE: u32 = 0; // every line of the batch is counted and written
const SCAN_ASK_LINE: u32 = 1; // the host decides the line at STATE_POSITION
const SCAN_ASK_HOST: u32 = 2; // the same, and its authority (STATE_PENDING_*) may be remembered

// Verdicts (as src/cli/filter/decide.ts counts them).
const VERDICT_DISALLOWED: u32 = 0;
const VERDICT_ALLOWED: u32 = 1;
const VERDICT_MALFORMED: u32 = 2;
const NO_VERDICT: u32 = 0xffffffff;
// decideLine's mark on a stop, to tell it from a verdict.
const ASKS: u32 = 0x100;
const NO_LINE: u32 = 0xffffffff;
// What decides the URLs of an authority: one of these, or a compiled ruleset's address (never below 16).
const VALUE_ALLOWED: u32 = 1;
const VALUE_DISALLOWED: u32 = 2;
const VALUE_MALFORMED: u32 = 3;

const DELIMITER_SPACES: u32 = 0x100;
// One authority entry, a cache line: u32 hash (0: empty), u32 key offset in STATE_KEYS, u32 key length |
// HTTPS_KEY, u32 value, then the key itself when it has at most INLINE_KEY_BYTES (most do), so that a lookup
// touches one line of memory; a longer key is in STATE_KEYS.
const HOST_ENTRY_SIZE: usize = 64;
const ENTRY_KEY: usize = 16;
const INLINE_KEY_BYTES: usize = HOST_ENTRY_SIZE - ENTRY_KEY;
const HTTPS_KEY: u32 = 0x80000000;

const LF: u8 = 0x0a;
const CR: u8 = 0x0d;
const SPACE: u8 = 0x20;
const SLASH: u8 = 0x2f;
const COLON: u8 = 0x3a;
const QUESTION: u8 = 0x3f;
const HASH: u8 = 0x23;
const AT: u8 = 0x40;
const BACKSLASH: u8 = 0x5c;
const DELETE: u8 = 0x7f;

// Where a line's URL is, found by urlOf().
let urlStart: usize = 0;
let urlEnd: usize = 0;

/**
 * Scans lines from STATE_POSITION to the end of the batch, or to the first line the host must read (see
 * the stops above). The first line takes STATE_FORCED as its verdict when that is set.
 */
export function scanLines(state: usize): u32 {
  const input = <usize>load<u32>(state + STATE_INPUT);
  const length = <usize>load<u32>(state + STATE_LENGTH);
  const output = <usize>load<u32>(state + STATE_OUTPUT);
  const emit = load<u32>(state + STATE_EMIT);
  let position = <usize>load<u32>(state + STATE_POSITION);
  let line = load<u32>(state + STATE_LINE);
  let written = <usize>load<u32>(state + STATE_OUTPUT_LENGTH);
  let forced = load<u32>(state + STATE_FORCED);
  let allowed = load<u32>(state + STATE_ALLOWED);
  let disallowed = load<u32>(state + STATE_DISALLOWED);
  let malformed = load<u32>(state + STATE_MALFORMED);
  let firstMalformed = load<u32>(state + STATE_FIRST_MALFORMED);
  // Wanted lines next to each other are copied together: [runStart, runEnd) of the batch.
  let runStart = position;
  let runEnd = position;
  let stop = SCAN_DONE;
  while (position < length) {
    const newline = findByte(input, position, length, LF);
    const next = newline < length ? newline + 1 : length;
    let end = newline;
    if (end > position && load<u8>(input + end - 1) == CR) end--;
    let verdict = forced;
    forced = NO_VERDICT;
    if (verdict == NO_VERDICT) verdict = decideLine(state, input, position, end);
    if ((verdict & ASKS) != 0) {
      stop = verdict & ~ASKS;
      store<u32>(state + STATE_STOP_END, <u32>end);
      break;
    }
    if (verdict == VERDICT_ALLOWED) allowed++;
    else if (verdict == VERDICT_DISALLOWED) disallowed++;
    else {
      malformed++;
      if (firstMalformed == NO_LINE) firstMalformed = line;
    }
    if ((emit & (1 << verdict)) == 0) {
      written = flushRun(input, runStart, runEnd, output, written);
      runStart = next;
    } else if (newline == length) {
      // The last line, without its newline: written with one.
      written = flushRun(input, runStart, runEnd, output, written);
      memory.copy(output + written, input + position, end - position);
      written += end - position;
      store<u8>(output + written, LF);
      written++;
      runStart = next;
    }
    runEnd = next;
    position = next;
    line++;
  }
  written = flushRun(input, runStart, runEnd, output, written);
  store<u32>(state + STATE_POSITION, <u32>position);
  store<u32>(state + STATE_LINE, line);
  store<u32>(state + STATE_OUTPUT_LENGTH, <u32>written);
  store<u32>(state + STATE_FORCED, NO_VERDICT);
  store<u32>(state + STATE_ALLOWED, allowed);
  store<u32>(state + STATE_DISALLOWED, disallowed);
  store<u32>(state + STATE_MALFORMED, malformed);
  store<u32>(state + STATE_FIRST_MALFORMED, firstMalformed);
  return stop;
}

function flushRun(input: usize, start: usize, end: usize, output: usize, written: usize): usize {
  if (end <= start) return written;
  memory.copy(output + written, input + start, end - start);
  return written + end - start;
}

/** The line's verdict, or ASKS | the stop (SCAN_ASK_*) that leaves it to the host. */
function decideLine(state: usize, input: usize, start: usize, end: usize): u32 {
  if (end - start > <usize>load<u32>(state + STATE_MAX_LINE)) return ASKS | SCAN_ASK_LINE;
  if (!urlOf(state, input, start, end)) return ASKS | SCAN_ASK_LINE;
  const url = input + urlStart;
  const urlLength = urlEnd - urlStart;
  let value: u32;
  const authority = authorityStart(url, urlLength);
  if (authority == 0) {
    value = load<u8>(url) == SLASH ? load<u32>(state + STATE_PATH_VALUE) : 0;
    if (value == 0) return ASKS | SCAN_ASK_LINE;
  } else {
    value = authorityValue(state, input, urlStart + authority, urlEnd, authority == 8);
    if (value == 0) return ASKS | pendingStop;
  }
  if (value == VALUE_ALLOWED) return VERDICT_ALLOWED;
  if (value == VALUE_DISALLOWED) return VERDICT_DISALLOWED;
  if (value == VALUE_MALFORMED) return VERDICT_MALFORMED;
  if (!isUtf8(url, urlLength)) return ASKS | SCAN_ASK_LINE;
  const scratch = <usize>load<u32>(state + STATE_SCRATCH);
  return isAllowed(<usize>value, url, urlLength, scratch) ? VERDICT_ALLOWED : VERDICT_DISALLOWED;
}

/** Finds the line's URL (urlStart, urlEnd): the line, or its STATE_FIELD'th field. False when there is none. */
function urlOf(state: usize, input: usize, start: usize, end: usize): bool {
  const field = load<u32>(state + STATE_FIELD);
  if (field == 0) {
    urlStart = start;
    urlEnd = end;
    return end > start;
  }
  const delimiter = load<u32>(state + STATE_DELIMITER);
  const spaces = delimiter == DELIMITER_SPACES;
  const separator = spaces ? SPACE : <u8>delimiter;
  let at = start;
  if (spaces) while (at < end && load<u8>(input + at) == SPACE) at++;
  for (let index: u32 = 1; index < field; index++) {
    while (at < end && load<u8>(input + at) != separator) at++;
    if (at == end) return false;
    at++;
    if (spaces) while (at < end && load<u8>(input + at) == SPACE) at++;
  }
  let fieldEnd = at;
  while (fieldEnd < end && load<u8>(input + fieldEnd) != separator) fieldEnd++;
  urlStart = at;
  urlEnd = fieldEnd;
  return fieldEnd > at;
}

/** Where the authority starts after "http://" (7) or "https://" (8), any case; 0 when the URL has neither. */
function authorityStart(url: usize, length: usize): usize {
  if (length < 7 || (load<u32>(url) | 0x20202020) != 0x70747468) return 0; // "http"
  const secure = (load<u8>(url + 4) | 0x20) == 0x73;
  const colon: usize = secure ? 5 : 4;
  if (colon + 3 > length || load<u8>(url + colon) != COLON || load<u16>(url + colon + 1) != 0x2f2f) return 0;
  return colon + 3;
}

// Why authorityValue() found no value: the stop it leaves to decideLine.
let pendingStop: u32 = SCAN_ASK_LINE;

/**
 * The value remembered for the authority that starts at `from` (after the scheme), or 0 with pendingStop
 * set: SCAN_ASK_HOST (the authority noted in STATE_PENDING_*) when it is not known yet, SCAN_ASK_LINE when
 * it holds a byte no host has (a space, a control character), which the host reads. The authority is what
 * stands before the first '/', '?', '#' or '\'; its key, what follows its last '@', lower-cased.
 */
function authorityValue(state: usize, input: usize, from: usize, end: usize, https: bool): u32 {
  let hostStart = from;
  let at = from;
  while (at < end) {
    const block = v128.load(input + at);
    const ends = v128.or(
      v128.or(i8x16.eq(block, i8x16.splat(<i8>SLASH)), i8x16.eq(block, i8x16.splat(<i8>QUESTION))),
      v128.or(i8x16.eq(block, i8x16.splat(<i8>HASH)), i8x16.eq(block, i8x16.splat(<i8>BACKSLASH))),
    );
    const others = v128.or(
      v128.or(i8x16.eq(block, i8x16.splat(<i8>AT)), i8x16.eq(block, i8x16.splat(<i8>DELETE))),
      i8x16.le_u(block, i8x16.splat(<i8>SPACE)),
    );
    let mask = i8x16.bitmask(v128.or(ends, others));
    const remaining = end - at;
    if (remaining < 16) mask &= (1 << <i32>remaining) - 1;
    if (mask == 0) {
      at += 16;
      continue;
    }
    at += <usize>ctz(mask);
    const byte = load<u8>(input + at);
    if (byte == AT) {
      at++;
      hostStart = at;
      continue;
    }
    if (byte <= SPACE || byte == DELETE) {
      pendingStop = SCAN_ASK_LINE;
      return 0;
    }
    break;
  }
  if (at > end) at = end;
  const length = at - hostStart;
  const hash = keyHash(input + hostStart, length, https);
  const keyLength = <u32>length | (https ? HTTPS_KEY : 0);
  const hosts = <usize>load<u32>(state + STATE_HOSTS);
  const mask = <usize>load<u32>(state + STATE_HOST_SLOTS) - 1;
  const keys = <usize>load<u32>(state + STATE_KEYS);
  for (let slot = <usize>hash & mask; ; slot = (slot + 1) & mask) {
    const entry = hosts + slot * HOST_ENTRY_SIZE;
    const entryHash = load<u32>(entry);
    if (entryHash == 0) break;
    const key = length <= INLINE_KEY_BYTES ? entry + ENTRY_KEY : keys + <usize>load<u32>(entry, 4);
    if (entryHash == hash && load<u32>(entry, 8) == keyLength && sameKey(key, input + hostStart, length)) {
      return load<u32>(entry, 12);
    }
  }
  store<u32>(state + STATE_PENDING_HASH, hash);
  store<u32>(state + STATE_PENDING_START, <u32>hostStart);
  store<u32>(state + STATE_PENDING_END, <u32>at);
  store<u32>(state + STATE_PENDING_HTTPS, https ? 1 : 0);
  pendingStop = SCAN_ASK_HOST;
  return 0;
}

/**
 * Remembers `value` for the authority of the last SCAN_ASK_HOST stop. False (nothing remembered, the
 * authority's lines are then each asked of the host) when the table or its key bytes are full.
 */
export function rememberHost(state: usize, value: u32): bool {
  const count = load<u32>(state + STATE_HOST_COUNT);
  const slots = load<u32>(state + STATE_HOST_SLOTS);
  const start = <usize>load<u32>(state + STATE_PENDING_START);
  const length = <usize>load<u32>(state + STATE_PENDING_END) - start;
  const used = <usize>load<u32>(state + STATE_KEYS_USED);
  const stored: usize = length <= INLINE_KEY_BYTES ? 0 : (length + 15) & ~(<usize>15);
  if (count >= slots >> 1 || used + stored > <usize>load<u32>(state + STATE_KEYS_CAPACITY)) return false;
  const hash = load<u32>(state + STATE_PENDING_HASH);
  const https = load<u32>(state + STATE_PENDING_HTTPS) != 0;
  const hosts = <usize>load<u32>(state + STATE_HOSTS);
  const mask = <usize>slots - 1;
  let slot = <usize>hash & mask;
  while (load<u32>(hosts + slot * HOST_ENTRY_SIZE) != 0) slot = (slot + 1) & mask;
  const entry = hosts + slot * HOST_ENTRY_SIZE;
  const key = stored == 0 ? entry + ENTRY_KEY : <usize>load<u32>(state + STATE_KEYS) + used;
  const input = <usize>load<u32>(state + STATE_INPUT);
  for (let i: usize = 0; i < length; i += 16) v128.store(key + i, keyBlock(input + start + i, length - i));
  store<u32>(entry, hash);
  store<u32>(entry, <u32>used, 4);
  store<u32>(entry, <u32>length | (https ? HTTPS_KEY : 0), 8);
  store<u32>(entry, value, 12);
  store<u32>(state + STATE_HOST_COUNT, count + 1);
  store<u32>(state + STATE_KEYS_USED, <u32>(used + stored));
  return true;
}

/** Empties the authority table (a remembered ruleset moved, or the batch is new). */
export function forgetHosts(state: usize): void {
  memory.fill(<usize>load<u32>(state + STATE_HOSTS), 0, <usize>load<u32>(state + STATE_HOST_SLOTS) * HOST_ENTRY_SIZE);
  store<u32>(state + STATE_HOST_COUNT, 0);
  store<u32>(state + STATE_KEYS_USED, 0);
}

/**
 * 16 bytes of a key from `bytes`, `left` of which are the key's (the rest zeroed), ASCII letters
 * lower-cased: keys are stored so, in whole blocks, and compared block by block.
 */
function keyBlock(bytes: usize, left: usize): v128 {
  const block = v128.load(bytes);
  const upper = i8x16.lt_u(i8x16.sub(block, i8x16.splat(0x41)), i8x16.splat(26));
  const lowered = v128.or(block, v128.and(upper, i8x16.splat(0x20)));
  if (left >= 16) return lowered;
  return v128.and(lowered, i8x16.lt_u(i8x16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), i8x16.splat(<i8>left)));
}

/** A hash of a key (never 0, which marks an empty slot), told apart by scheme. */
function keyHash(bytes: usize, length: usize, https: bool): u32 {
  let hash: u64 = https ? 0x9e3779b97f4a7c15 : 0xc2b2ae3d27d4eb4f;
  for (let i: usize = 0; i < length; i += 16) {
    const block = keyBlock(bytes + i, length - i);
    hash = (hash ^ i64x2.extract_lane(block, 0)) * 0xff51afd7ed558ccd;
    hash = (hash ^ i64x2.extract_lane(block, 1)) * 0xc4ceb9fe1a85ec53;
    hash ^= hash >> 29;
  }
  return <u32>(hash ^ (hash >> 32)) | 1;
}

/** Whether the key stored at `stored` is bytes[0..length) as keyBlock() writes it. */
function sameKey(stored: usize, bytes: usize, length: usize): bool {
  for (let i: usize = 0; i < length; i += 16) {
    if (!i8x16.all_true(i8x16.eq(keyBlock(bytes + i, length - i), v128.load(stored + i)))) return false;
  }
  return true;
}

