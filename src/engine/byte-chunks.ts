/**
 * How the bytes entry (AgentRules.isAllowedBytes, decided by src/engine/wasm-backend.ts) cuts a caller's byte
 * ranges into chunks, each decided in one crossing into the matcher with its bytes in the fixed input region.
 *
 * A chunk's bytes get there one of two ways. The span of the caller's buffer its ranges cover, from the lowest
 * start to the highest end, copied with one set(): the cheap way, and the common case, since the ranges are
 * the lines of a buffer, next to each other. Or each range gathered in after the one before, for ranges
 * scattered over a buffer (one host's lines of a big batch), whose span would not fit. What decides how many
 * ranges a chunk takes is what it copies: the span for a copy (newlines between lines included), the sum of
 * the ranges' lengths for a gather. Sizing a copy by the sum would let the span outgrow the region on every
 * full chunk of lines, and send them all the slow way.
 */

/** The span [low, high) of the caller's bytes, copied in with one set(). */
export const CHUNK_COPY = 0;
/** Each range copied in after the one before. */
export const CHUNK_GATHER = 1;
/** One range longer than the region: a region of its own, for the call. */
export const CHUNK_LONG = 2;
export type ChunkHow = typeof CHUNK_COPY | typeof CHUNK_GATHER | typeof CHUNK_LONG;

/** One chunk: ranges [first, first + count) of the caller's, brought in as `how` says. */
export interface ChunkPlan {
  count: number;
  how: ChunkHow;
  /** The span of the caller's bytes a copy brings in; for a long range, the range. */
  low: number;
  high: number;
}

/**
 * Where a span that outgrows the region ends a copy rather than turning it into a gather: once the ranges
 * already in the chunk hold at least this share of the region. Lines of a buffer end there with the region
 * nearly full; ranges that jump about reach a span too wide with little in it, and a gather fits more of them.
 */
const COPY_FILL = 1 / 4;

/**
 * Plans the chunk that starts at range `first` of the `count` pairs [start, end) in `ranges`: at most
 * `maxRanges` ranges, whose bytes fit `capacity`, the input region's size. Writes it into `plan` (the caller's,
 * reused, so that planning allocates nothing) and returns it. The chunks from first = 0, each starting where
 * the one before ended, cover every range once, in order.
 */
export function planChunk(
  ranges: Uint32Array,
  first: number,
  count: number,
  capacity: number,
  maxRanges: number,
  plan: ChunkPlan,
): ChunkPlan {
  let low = ranges[first * 2] as number;
  let high = ranges[first * 2 + 1] as number;
  let total = high - low;
  let how: ChunkHow = total > capacity ? CHUNK_LONG : CHUNK_COPY;
  let n = 1;
  if (how === CHUNK_COPY) {
    while (first + n < count && n < maxRanges) {
      const start = ranges[(first + n) * 2] as number;
      const end = ranges[(first + n) * 2 + 1] as number;
      const length = end - start;
      if (how === CHUNK_COPY) {
        // Only the span counts: ranges that overlap are copied once.
        const spanLow = start < low ? start : low;
        const spanHigh = end > high ? end : high;
        if (spanHigh - spanLow <= capacity) {
          low = spanLow;
          high = spanHigh;
          total += length;
          n++;
          continue;
        }
        if (total >= capacity * COPY_FILL || total + length > capacity) break;
        how = CHUNK_GATHER;
      } else if (total + length > capacity) {
        break;
      }
      total += length;
      n++;
    }
  }
  plan.count = n;
  plan.how = how;
  plan.low = low;
  plan.high = high;
  return plan;
}
