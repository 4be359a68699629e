// The CLI's line scanner: a batch of log lines → the lines `robotstxt filter` writes, in one crossing.
//
// It reads each line's URL (the whole line, or one field of it), finds its authority, looks that up in a
// table of authorities the host has resolved, decides the URL with the matcher straight out of the batch,
// counts the verdict, and copies the wanted lines to the output. Anything it does not know, it leaves to
// the host (src/cli/filter/line-scanner.ts; the state block and the stops are laid out in ../layout.ts;
// src/cli/filter/decide.ts is the reference for what a line means): it stops at that line and says why,
// and the host decides the line, hands its verdict back (STATE_FORCED) and may remember its authority
// (rememberHost) before scanning on. So the scanner holds no reading of a URL of its own beyond finding the
// authority; unusual lines (not http(s), a space in the authority, not UTF-8, too long, no such field) are
// read by the host, once each.
//
// Nothing here allocates: the host allocates the state block, the batch, the output, the scratch and the
// authority table, and writes their addresses into the state block.

import {
  DELIMITER_SPACES, HOST_ENTRY_HASH, HOST_ENTRY_KEY, HOST_ENTRY_KEY_LENGTH, HOST_ENTRY_KEY_OFFSET, HOST_ENTRY_SIZE,
  HOST_ENTRY_VALUE, HTTPS_KEY, NO_LINE, NO_VERDICT, SCAN_ASK_HOST, SCAN_ASK_LINE, SCAN_DONE, STATE_ALLOWED,
  STATE_DELIMITER, STATE_DISALLOWED, STATE_EMIT, STATE_FIELD, STATE_FIRST_MALFORMED, STATE_FORCED, STATE_HOST_COUNT,
  STATE_HOST_SLOTS, STATE_HOSTS, STATE_INPUT, STATE_KEYS, STATE_KEYS_CAPACITY, STATE_KEYS_USED, STATE_LENGTH,
  STATE_LINE, STATE_MALFORMED, STATE_MAX_LINE, STATE_OUTPUT, STATE_OUTPUT_LENGTH, STATE_PATH_VALUE,
  STATE_PENDING_END, STATE_PENDING_HASH, STATE_PENDING_HTTPS, STATE_PENDING_START, STATE_POSITION, STATE_SCRATCH,
  STATE_STOP_END, STATE_VALUE_COUNTS, VALUE_LIMIT, VALUE_MALFORMED, VERDICT_ALLOWED, VERDICT_DISALLOWED,
  VERDICT_MALFORMED,
} from '../layout';
import { isAllowed } from '../matcher';
import { findByte } from '../scan';
import { isUtf8 } from '../utf8';
import { AT, BACKSLASH, COLON, CR, DELETE, HASH, LF, QUESTION, SLASH, SPACE } from '../bytes';

// decideLine's mark on a stop, to tell it from a verdict.
const ASKS: u32 = 0x100;
const INLINE_KEY_BYTES: usize = HOST_ENTRY_SIZE - HOST_ENTRY_KEY;

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
  if (value < VALUE_LIMIT) {
    // A constant: counted by value, so that the host can tell why its lines got their verdict.
    const count = state + STATE_VALUE_COUNTS + (<usize>value << 2);
    store<u32>(count, load<u32>(count) + 1);
    if (value == VALUE_MALFORMED) return VERDICT_MALFORMED;
    return (value & 1) != 0 ? VERDICT_ALLOWED : VERDICT_DISALLOWED;
  }
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
    const entryHash = load<u32>(entry, HOST_ENTRY_HASH);
    if (entryHash == 0) break;
    const key = length <= INLINE_KEY_BYTES ? entry + HOST_ENTRY_KEY : keys + <usize>load<u32>(entry, HOST_ENTRY_KEY_OFFSET);
    if (entryHash == hash && load<u32>(entry, HOST_ENTRY_KEY_LENGTH) == keyLength && sameKey(key, input + hostStart, length)) {
      return load<u32>(entry, HOST_ENTRY_VALUE);
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
 * Remembers `value` for the authority of the last SCAN_ASK_HOST stop. False (nothing remembered) when the
 * table or its key bytes are full: the host then gives the scanner a larger table (moveHosts) or an empty one.
 */
export function rememberHost(state: usize, value: u32): bool {
  const start = <usize>load<u32>(state + STATE_PENDING_START);
  const length = <usize>load<u32>(state + STATE_PENDING_END) - start;
  const https = load<u32>(state + STATE_PENDING_HTTPS) != 0;
  const key = insertHost(state, load<u32>(state + STATE_PENDING_HASH), <u32>length | (https ? HTTPS_KEY : 0), value);
  if (key == 0) return false;
  const input = <usize>load<u32>(state + STATE_INPUT) + start;
  for (let i: usize = 0; i < length; i += 16) v128.store(key + i, keyBlock(input + i, length - i));
  return true;
}

/**
 * Adds an entry (its hash, key length with HTTPS_KEY, value) to the table and returns where its key's
 * bytes go (in the entry, or in the key bytes when longer than an entry holds), for the caller to write;
 * 0 when the table is half full or the key bytes cannot hold the key.
 */
function insertHost(state: usize, hash: u32, keyLength: u32, value: u32): usize {
  const count = load<u32>(state + STATE_HOST_COUNT);
  const slots = load<u32>(state + STATE_HOST_SLOTS);
  const length = <usize>(keyLength & ~HTTPS_KEY);
  const used = <usize>load<u32>(state + STATE_KEYS_USED);
  const stored: usize = length <= INLINE_KEY_BYTES ? 0 : (length + 15) & ~(<usize>15);
  if (count >= slots >> 1 || used + stored > <usize>load<u32>(state + STATE_KEYS_CAPACITY)) return 0;
  const hosts = <usize>load<u32>(state + STATE_HOSTS);
  const mask = <usize>slots - 1;
  let slot = <usize>hash & mask;
  while (load<u32>(hosts + slot * HOST_ENTRY_SIZE, HOST_ENTRY_HASH) != 0) slot = (slot + 1) & mask;
  const entry = hosts + slot * HOST_ENTRY_SIZE;
  store<u32>(entry, hash, HOST_ENTRY_HASH);
  store<u32>(entry, <u32>used, HOST_ENTRY_KEY_OFFSET);
  store<u32>(entry, keyLength, HOST_ENTRY_KEY_LENGTH);
  store<u32>(entry, value, HOST_ENTRY_VALUE);
  store<u32>(state + STATE_HOST_COUNT, count + 1);
  store<u32>(state + STATE_KEYS_USED, <u32>(used + stored));
  return stored == 0 ? entry + HOST_ENTRY_KEY : <usize>load<u32>(state + STATE_KEYS) + used;
}

/**
 * Moves every entry of the table at `from` (`slots` entries, long keys at `keys`) into the table the state
 * names now, which must be empty and large enough: so a table grows without its hosts learned again.
 */
export function moveHosts(state: usize, from: usize, slots: u32, keys: usize): void {
  for (let slot: usize = 0; slot < <usize>slots; slot++) {
    const entry = from + slot * HOST_ENTRY_SIZE;
    const hash = load<u32>(entry, HOST_ENTRY_HASH);
    if (hash == 0) continue;
    const keyLength = load<u32>(entry, HOST_ENTRY_KEY_LENGTH);
    const length = <usize>(keyLength & ~HTTPS_KEY);
    const key = insertHost(state, hash, keyLength, load<u32>(entry, HOST_ENTRY_VALUE));
    const old = length <= INLINE_KEY_BYTES ? entry + HOST_ENTRY_KEY : keys + <usize>load<u32>(entry, HOST_ENTRY_KEY_OFFSET);
    memory.copy(key, old, (length + 15) & ~(<usize>15));
  }
}

/** Empties the authority table (a remembered ruleset moved, the rules come from elsewhere, or it is full). */
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

