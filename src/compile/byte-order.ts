/**
 * Sorts spans of one byte buffer in byte order, without making a string or a view per span: the bytecode's
 * prefix index is sorted this way for every compile, and strings cost more to make than to compare.
 *
 * Most significant digit first: past the bytes a run of spans shares, three bytes at a time are packed with
 * the span's id into one number, a Float64Array of those sorts natively, and each run of spans that share
 * the digits is sorted again from the next three bytes on. Short runs are sorted by insertion, comparing
 * bytes.
 */
import { Scratch } from './scratch.js';

/** A digit is three bytes, each 1 + its value (0 past the end of the span, so that a prefix sorts first). */
const DIGIT_BASE = 257;
/** Ids are packed below the digit: 257^3 × 2^28 stays below 2^53, where doubles are exact. */
const ID_LIMIT = 2 ** 28;
/** Runs this short are sorted by insertion. */
const INSERTION_RUN = 16;

const keyScratch = new Scratch((length) => new Float64Array(length));

/** Byte order of spans a and b, known to agree on their first `depth` bytes. */
function compareFrom(bytes: Uint8Array, starts: Uint32Array, lengths: Uint32Array, a: number, b: number, depth: number): number {
  const aStart = starts[a] as number;
  const bStart = starts[b] as number;
  const aLength = lengths[a] as number;
  const bLength = lengths[b] as number;
  const length = aLength < bLength ? aLength : bLength;
  for (let i = depth; i < length; i++) {
    const difference = (bytes[aStart + i] as number) - (bytes[bStart + i] as number);
    if (difference !== 0) return difference;
  }
  return aLength - bLength;
}

function insertionSort(
  bytes: Uint8Array,
  starts: Uint32Array,
  lengths: Uint32Array,
  ids: Uint32Array,
  from: number,
  to: number,
  depth: number,
): void {
  for (let i = from + 1; i < to; i++) {
    const id = ids[i] as number;
    let j = i - 1;
    for (; j >= from; j--) {
      const other = ids[j] as number;
      const order = compareFrom(bytes, starts, lengths, other, id, depth) || other - id;
      if (order <= 0) break;
      ids[j + 1] = other;
    }
    ids[j + 1] = id;
  }
}

/** The byte at `position` of span `id`, plus one; 0 past its end. */
function digitByte(bytes: Uint8Array, starts: Uint32Array, lengths: Uint32Array, id: number, position: number): number {
  return position < (lengths[id] as number) ? (bytes[(starts[id] as number) + position] as number) + 1 : 0;
}

/** How many bytes from `depth` on all spans of ids[from, to) share (paths often share long prefixes). */
function commonLength(
  bytes: Uint8Array,
  starts: Uint32Array,
  lengths: Uint32Array,
  ids: Uint32Array,
  from: number,
  to: number,
  depth: number,
): number {
  const first = ids[from] as number;
  const firstStart = (starts[first] as number) + depth;
  let common = (lengths[first] as number) - depth;
  for (let k = from + 1; k < to && common > 0; k++) {
    const id = ids[k] as number;
    const start = (starts[id] as number) + depth;
    const limit = Math.min(common, (lengths[id] as number) - depth);
    let shared = 0;
    while (shared < limit && bytes[start + shared] === bytes[firstStart + shared]) shared++;
    common = shared;
  }
  return common;
}

function sortRun(
  bytes: Uint8Array,
  starts: Uint32Array,
  lengths: Uint32Array,
  ids: Uint32Array,
  keys: Float64Array,
  from: number,
  to: number,
  depth: number,
): void {
  if (to - from <= INSERTION_RUN) return insertionSort(bytes, starts, lengths, ids, from, to, depth);
  depth += commonLength(bytes, starts, lengths, ids, from, to, depth);
  for (let k = from; k < to; k++) {
    const id = ids[k] as number;
    const digit =
      (digitByte(bytes, starts, lengths, id, depth) * DIGIT_BASE + digitByte(bytes, starts, lengths, id, depth + 1)) * DIGIT_BASE +
      digitByte(bytes, starts, lengths, id, depth + 2);
    keys[k] = digit * ID_LIMIT + id;
  }
  keys.subarray(from, to).sort();
  let runStart = from;
  let runDigit = -1;
  for (let k = from; k <= to; k++) {
    const digit = k < to ? Math.floor((keys[k] as number) / ID_LIMIT) : -1;
    if (k < to) ids[k] = (keys[k] as number) - digit * ID_LIMIT;
    if (digit === runDigit) continue;
    // A run whose digit ends in 0 holds spans that all ended: equal, already in id order.
    if (k - runStart > 1 && runDigit % DIGIT_BASE !== 0) sortRun(bytes, starts, lengths, ids, keys, runStart, k, depth + 3);
    runStart = k;
    runDigit = digit;
  }
}

/**
 * Sorts the first `count` ids (in place) by the spans they name, bytes[starts[id], starts[id] + lengths[id]),
 * in byte order, a span before those it is a prefix of, equal spans by id.
 *
 * @example
 * const bytes = new TextEncoder().encode('/b/a/ab');
 * const ids = Uint32Array.of(0, 1, 2);
 * sortSpans(bytes, Uint32Array.of(0, 2, 4), Uint32Array.of(2, 2, 3), ids, 3); // ids: 1, 2, 0 (/a, /ab, /b)
 */
export function sortSpans(bytes: Uint8Array, starts: Uint32Array, lengths: Uint32Array, ids: Uint32Array, count: number): void {
  // A rule table of more rules could not be loaded anyway (an entry is 8 bytes).
  for (let k = 0; k < count; k++) if ((ids[k] as number) >= ID_LIMIT) throw new RangeError(`span ids must be below 2^28, got ${ids[k]}`);
  sortRun(bytes, starts, lengths, ids, keyScratch.take(count), 0, count, 0);
}
