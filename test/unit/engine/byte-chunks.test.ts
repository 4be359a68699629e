/**
 * The bytes entry's chunk planner (src/engine/byte-chunks.ts): which ranges go into one crossing into the
 * matcher, and whether their bytes are copied in as one span or gathered range by range. The verdicts are the
 * bytes entry's behaviour suite's to check; this pins the plan: every range once, in order, never more bytes
 * than the region holds, and lines of a buffer copied as one span per chunk, the region filled.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHUNK_COPY, CHUNK_GATHER, CHUNK_LONG, planChunk, type ChunkPlan } from '../../../src/engine/byte-chunks.js';

interface Chunk extends ChunkPlan {
  first: number;
}

/** Every chunk of `ranges`, planned from the first range on as the backend plans them. */
function plan(ranges: Uint32Array, capacity: number, maxRanges: number): Chunk[] {
  const count = ranges.length >> 1;
  const chunks: Chunk[] = [];
  const reused: ChunkPlan = { count: 0, how: CHUNK_COPY, low: 0, high: 0 };
  for (let first = 0; first < count; first += reused.count) {
    planChunk(ranges, first, count, capacity, maxRanges, reused);
    chunks.push({ first, ...reused });
  }
  return chunks;
}

/** Lines of the given lengths one after another, each followed by a newline: their [start, end) ranges. */
function linesOf(lengths: readonly number[]): Uint32Array {
  const ranges = new Uint32Array(lengths.length * 2);
  let at = 0;
  lengths.forEach((length, i) => {
    ranges[2 * i] = at;
    ranges[2 * i + 1] = at + length;
    at += length + 1;
  });
  return ranges;
}

const start = (ranges: Uint32Array, i: number): number => ranges[2 * i] as number;
const end = (ranges: Uint32Array, i: number): number => ranges[2 * i + 1] as number;

/** The plan's promises, whatever the ranges. */
function checkPlan(ranges: Uint32Array, chunks: readonly Chunk[], capacity: number, maxRanges: number): void {
  let next = 0;
  for (const chunk of chunks) {
    expect(chunk.first).toBe(next);
    expect(chunk.count).toBeGreaterThanOrEqual(1);
    expect(chunk.count).toBeLessThanOrEqual(maxRanges);
    next += chunk.count;
    const indices = Array.from({ length: chunk.count }, (_, k) => chunk.first + k);
    if (chunk.how === CHUNK_LONG) {
      expect(chunk.count).toBe(1);
      expect([chunk.low, chunk.high]).toEqual([start(ranges, chunk.first), end(ranges, chunk.first)]);
      expect(chunk.high - chunk.low).toBeGreaterThan(capacity);
      continue;
    }
    // No range that fits the region alone is ever sent to a region of its own.
    for (const i of indices) expect(end(ranges, i) - start(ranges, i)).toBeLessThanOrEqual(capacity);
    if (chunk.how === CHUNK_COPY) {
      expect(chunk.high - chunk.low).toBeLessThanOrEqual(capacity);
      expect(chunk.low).toBe(Math.min(...indices.map((i) => start(ranges, i))));
      expect(chunk.high).toBe(Math.max(...indices.map((i) => end(ranges, i))));
    } else {
      expect(chunk.how).toBe(CHUNK_GATHER);
      expect(indices.reduce((sum, i) => sum + end(ranges, i) - start(ranges, i), 0)).toBeLessThanOrEqual(capacity);
    }
  }
  expect(next).toBe(ranges.length >> 1);
}

describe('the bytes entry plans its chunks', () => {
  it('copies lines of a buffer as one span per chunk, newlines counted, each chunk filling the region', () => {
    const capacity = 64 * 1024;
    // URL-sized lines, as a log holds: the sum of the ranges of a full chunk is under the region, their span
    // with the newlines is not. Every chunk must still be one copy.
    const lengths = Array.from({ length: 9_000 }, (_, i) => 20 + ((i * 37) % 80));
    const ranges = linesOf(lengths);
    const chunks = plan(ranges, capacity, 2048);
    checkPlan(ranges, chunks, capacity, 2048);
    expect(chunks.every((chunk) => chunk.how === CHUNK_COPY)).toBe(true);
    for (const chunk of chunks.slice(0, -1)) {
      // Full: the next line would not have fitted the span.
      const next = chunk.first + chunk.count;
      expect(end(ranges, next) - chunk.low).toBeGreaterThan(capacity);
    }
  });

  it('ends a chunk at the most ranges a crossing takes', () => {
    const ranges = linesOf(Array.from({ length: 5_000 }, () => 3));
    const chunks = plan(ranges, 64 * 1024, 2048);
    checkPlan(ranges, chunks, 64 * 1024, 2048);
    expect(chunks.map((chunk) => [chunk.count, chunk.how])).toEqual([
      [2048, CHUNK_COPY],
      [2048, CHUNK_COPY],
      [904, CHUNK_COPY],
    ]);
  });

  it('gathers ranges scattered over a buffer wider than the region, as many as their bytes allow', () => {
    const capacity = 1000;
    // 100-byte ranges 10,000 bytes apart, in random order: no two fit one span.
    const order = Array.from({ length: 40 }, (_, i) => (i * 17) % 40);
    const ranges = Uint32Array.from(order.flatMap((k) => [k * 10_000, k * 10_000 + 100]));
    const chunks = plan(ranges, capacity, 2048);
    checkPlan(ranges, chunks, capacity, 2048);
    expect(chunks.map((chunk) => [chunk.count, chunk.how])).toEqual(Array.from({ length: 4 }, () => [10, CHUNK_GATHER]));
  });

  it('copies ranges that overlap once, however many times they repeat', () => {
    const ranges = Uint32Array.from(Array.from({ length: 500 }, (_, i) => [i % 7, 900 + (i % 11)]).flat());
    const chunks = plan(ranges, 1000, 2048);
    checkPlan(ranges, chunks, 1000, 2048);
    expect(chunks.map((chunk) => [chunk.count, chunk.how])).toEqual([[500, CHUNK_COPY]]);
  });

  it('sends a range longer than the region to a region of its own, and copies the lines around it', () => {
    const ranges = linesOf([10, 10, 1001, 10, 1000, 10]);
    const chunks = plan(ranges, 1000, 2048);
    checkPlan(ranges, chunks, 1000, 2048);
    expect(chunks.map((chunk) => [chunk.first, chunk.count, chunk.how])).toEqual([
      [0, 2, CHUNK_COPY],
      [2, 1, CHUNK_LONG],
      [3, 1, CHUNK_COPY],
      [4, 1, CHUNK_COPY],
      [5, 1, CHUNK_COPY],
    ]);
  });

  it('keeps its promises on any ranges: overlapping, empty, in any order, near and far', () => {
    const offset = fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 100_000 }));
    const range = fc.tuple(offset, fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 400 })));
    fc.assert(
      fc.property(
        fc.array(range, { minLength: 1, maxLength: 200 }),
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 1, max: 64 }),
        (pairs, capacity, maxRanges) => {
          const ranges = Uint32Array.from(pairs.flatMap(([at, length]) => [at, at + length]));
          checkPlan(ranges, plan(ranges, capacity, maxRanges), capacity, maxRanges);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('plans only the first count ranges', () => {
    const ranges = linesOf([5, 5, 5, 5]);
    const reused: ChunkPlan = { count: 0, how: CHUNK_COPY, low: 0, high: 0 };
    expect(planChunk(ranges, 0, 2, 1000, 2048, reused)).toBe(reused);
    expect(reused).toEqual({ count: 2, how: CHUNK_COPY, low: 0, high: 11 });
    expect(planChunk(ranges, 2, 3, 1000, 2048, reused)).toEqual({ count: 1, how: CHUNK_COPY, low: 12, high: 17 });
  });
});
