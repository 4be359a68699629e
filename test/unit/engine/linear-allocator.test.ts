/**
 * The host's allocator for WebAssembly linear memory (src/engine/linear-allocator.ts), checked against a
 * simple model: the list of blocks handed out and not yet given back. Hostile files must not
 * break it (docs/design.md#hostile-input: "a failed allocation leaves the engine as it was"; docs/design.md#memory:
 * "memory does not grow without bound").
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AddressMap, LinearAllocator } from '../../../src/engine/linear-allocator.js';

const PAGE = 65_536;
const BASE = 1_000; // not aligned on purpose: the heap starts at the next multiple of 16

interface Block {
  readonly start: number;
  readonly size: number;
}

interface Heap {
  readonly allocator: LinearAllocator;
  readonly memory: WebAssembly.Memory;
  /** How many times the allocator said memory grew. */
  readonly grown: number;
}

function heap(maximumPages?: number): Heap {
  const memory = new WebAssembly.Memory(maximumPages === undefined ? { initial: 1 } : { initial: 1, maximum: maximumPages });
  let grown = 0;
  const allocator = new LinearAllocator(memory, BASE, () => grown++);
  return {
    allocator,
    memory,
    get grown() {
      return grown;
    },
  };
}

const rounded = (size: number): number => Math.ceil(Math.max(size, 1) / 16) * 16;

/** Everything the allocator exposes about its state, to compare before and after a failed allocation. */
function snapshot(allocator: LinearAllocator): unknown {
  return { inUse: allocator.bytesInUse, free: allocator.bytesFree, top: allocator.heapTop, blocks: allocator.freeBlocks() };
}

/**
 * The invariants, against the model `live` (start → requested size): blocks aligned, inside the heap and
 * apart; free blocks apart from them and from each other, never touching (they would have merged) nor
 * touching the top (it would have come down); and every byte between the base and the top is either in
 * a live block or in a free one.
 */
function expectConsistent({ allocator, memory }: Heap, live: ReadonlyMap<number, number>): void {
  const problems: string[] = [];
  const base = allocator.heapBase;
  const top = allocator.heapTop;
  if (base % 16 !== 0 || base < BASE) problems.push(`heap base ${base}`);
  if (memory.buffer.byteLength < top) problems.push(`top ${top} past the end of memory`);
  const used = [...live].map(([start, size]) => ({ start, size: rounded(size), free: false }));
  const free = allocator.freeBlocks().map((block) => ({ ...block, free: true }));
  for (const block of used) if (block.start % 16 !== 0) problems.push(`block at ${block.start} not aligned`);
  const all = [...used, ...free].sort((a, b) => a.start - b.start);
  let previous: (typeof all)[number] | undefined;
  for (const block of all) {
    if (block.start < base || block.size <= 0) problems.push(`block ${block.start}+${block.size} outside the heap`);
    if (previous !== undefined) {
      const end = previous.start + previous.size;
      if (block.start < end) problems.push(`blocks at ${previous.start} and ${block.start} overlap`);
      if (block.free && previous.free && block.start === end) problems.push(`free neighbours at ${previous.start} not merged`);
    }
    previous = block;
  }
  if (previous !== undefined && previous.start + previous.size > top) problems.push('a block ends past the top');
  const lastFree = free.at(-1);
  if (lastFree !== undefined && lastFree.start + lastFree.size >= top) problems.push('a free block touches the top');
  const usedBytes = used.reduce((sum, block) => sum + block.size, 0);
  const freeBytes = free.reduce((sum, block) => sum + block.size, 0);
  if (allocator.bytesInUse !== usedBytes) problems.push(`bytesInUse ${allocator.bytesInUse}, model ${usedBytes}`);
  if (allocator.bytesFree !== freeBytes) problems.push(`bytesFree ${allocator.bytesFree}, free blocks ${freeBytes}`);
  if (base + usedBytes + freeBytes !== top) problems.push(`base + used + free = ${base + usedBytes + freeBytes}, top ${top}`);
  expect(problems).toEqual([]);
}

type Step = { readonly kind: 'allocate'; readonly size: number } | { readonly kind: 'release'; readonly pick: number };

const SIZES = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 300 }) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 5_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 150_000 }) },
);
const stepOf = (sizes: fc.Arbitrary<number>): fc.Arbitrary<Step> =>
  fc.oneof(
    fc.record({ kind: fc.constant('allocate' as const), size: sizes }),
    fc.record({ kind: fc.constant('release' as const), pick: fc.nat() }),
  );
const STEP = stepOf(SIZES);
/** For a heap of 4 pages: big enough that many allocations fail, small enough that many do not. */
const STEP_CAPPED = stepOf(fc.oneof(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 20_000, max: 200_000 })));

/** Runs `steps` on the allocator and the model; returns the model. Failed allocations must change nothing. */
function run(subject: Heap, steps: readonly Step[]): { live: Map<number, number>; failures: number } {
  const live = new Map<number, number>();
  let failures = 0;
  for (const step of steps) {
    if (step.kind === 'allocate') {
      const before = snapshot(subject.allocator);
      const grown = subject.grown;
      let start: number;
      try {
        start = subject.allocator.allocate(step.size, 'a test block');
      } catch (error) {
        failures++;
        expect(error).toBeInstanceOf(RangeError);
        expect(snapshot(subject.allocator)).toEqual(before);
        expect(subject.grown).toBe(grown);
        continue;
      }
      expect(live.has(start)).toBe(false);
      live.set(start, step.size);
    } else if (live.size > 0) {
      const start = [...live.keys()][step.pick % live.size] as number;
      live.delete(start);
      subject.allocator.release(start);
    }
    expectConsistent(subject, live);
  }
  return { live, failures };
}

describe('the linear allocator against a model', () => {
  it('hands out aligned blocks that never overlap, and accounts for every byte, over random allocate/release sequences', () => {
    fc.assert(
      fc.property(fc.array(STEP, { maxLength: 120, size: 'max' }), (steps) => {
        const subject = heap();
        run(subject, steps);
      }),
      { numRuns: 200 },
    );
  });

  it('is back at its base with no free block once everything is released, in any order', () => {
    fc.assert(
      fc.property(fc.array(STEP, { maxLength: 120, size: 'max' }), fc.infiniteStream(fc.nat()), (steps, picks) => {
        const subject = heap();
        const { live } = run(subject, steps);
        const order = [...live.keys()];
        // Release in a random order, checking the invariants on the way down.
        for (const pick of picks) {
          if (order.length === 0) break;
          const [start] = order.splice(pick % order.length, 1) as [number];
          live.delete(start);
          subject.allocator.release(start);
          expectConsistent(subject, live);
        }
        expect(subject.allocator.heapTop).toBe(subject.allocator.heapBase);
        expect(subject.allocator.freeBlocks()).toEqual([]);
        expect([subject.allocator.bytesInUse, subject.allocator.bytesFree]).toEqual([0, 0]);
      }),
      { numRuns: 200 },
    );
  });

  it('changes nothing when memory cannot grow, and keeps working afterwards', () => {
    fc.assert(
      fc.property(fc.array(STEP_CAPPED, { maxLength: 150, size: 'max' }), (steps) => {
        const subject = heap(4);
        const { live } = run(subject, steps);
        // Whatever failed, what is live can still be released, down to an empty heap.
        for (const start of [...live.keys()]) {
          live.delete(start);
          subject.allocator.release(start);
        }
        expectConsistent(subject, live);
        expect(subject.allocator.heapTop).toBe(subject.allocator.heapBase);
      }),
      { numRuns: 200 },
    );
  });
});

describe('the linear allocator', () => {
  it('throws a RangeError that says what could not be allocated, how many bytes, and that nothing changed', () => {
    const subject = heap(2);
    const kept = subject.allocator.allocate(1_000, 'a compiled ruleset');
    const before = snapshot(subject.allocator);
    const attempt = (): number => subject.allocator.allocate(3 * PAGE, 'a compiled ruleset');
    expect(attempt).toThrow(RangeError);
    expect(attempt).toThrow(/could not allocate a compiled ruleset \(196,608 bytes of WebAssembly memory\)/);
    expect(attempt).toThrow(/Nothing was changed: rules compiled before keep answering, and later calls work/);
    expect(snapshot(subject.allocator)).toEqual(before);
    expect(subject.grown).toBe(0);
    // Within the limit it still allocates, growing memory once.
    const next = subject.allocator.allocate(PAGE, 'a compiled ruleset');
    expect(next).toBeGreaterThan(kept);
    expect(subject.grown).toBe(1);
    expect(subject.memory.buffer.byteLength).toBe(2 * PAGE);
  });

  it('refuses a block past the 4 GiB a WebAssembly memory can address, and sizes that are not sizes', () => {
    const subject = heap();
    expect(() => subject.allocator.allocate(2 ** 32, 'a URL')).toThrow(/could not allocate a URL .* 4 GiB/);
    for (const size of [Number.NaN, -1, Infinity]) expect(() => subject.allocator.allocate(size)).toThrow(RangeError);
    expect(snapshot(subject.allocator)).toEqual({ inUse: 0, free: 0, top: subject.allocator.heapBase, blocks: [] });
  });

  it('never hands out address 0, even when the heap would start there', () => {
    const allocator = new LinearAllocator(new WebAssembly.Memory({ initial: 1 }), 0, () => undefined);
    expect(allocator.allocate(1)).toBeGreaterThan(0);
  });

  it('ignores a second release of a block, and an address it never handed out', () => {
    const subject = heap();
    const a = subject.allocator.allocate(100);
    const b = subject.allocator.allocate(100);
    subject.allocator.release(a);
    subject.allocator.release(a);
    subject.allocator.release(a + 16);
    subject.allocator.release(123_456);
    expectConsistent(subject, new Map([[b, 100]]));
  });

  it('reuses holes of the size asked for instead of growing, among 50,000 of them', () => {
    const subject = heap();
    const blocks = Array.from({ length: 100_000 }, () => subject.allocator.allocate(96));
    for (let i = 0; i < blocks.length; i += 2) subject.allocator.release(blocks[i] as number);
    expect(subject.allocator.freeBlocks()).toHaveLength(50_000);
    const top = subject.allocator.heapTop;
    const again = Array.from({ length: 50_000 }, () => subject.allocator.allocate(96));
    expect(subject.allocator.heapTop).toBe(top);
    expect(subject.allocator.freeBlocks()).toHaveLength(0);
    expect(new Set(again).size).toBe(50_000);
  });

  it('serves a small block from a bigger hole and keeps the rest of the hole free', () => {
    const subject = heap();
    const [a, b, c] = [subject.allocator.allocate(4_096), subject.allocator.allocate(16), subject.allocator.allocate(16)] as const;
    subject.allocator.release(a);
    const top = subject.allocator.heapTop;
    const small = subject.allocator.allocate(100);
    expect(small).toBe(a);
    expect(subject.allocator.freeBlocks()).toEqual([{ start: a + 112, size: 4_096 - 112 }]);
    expect(subject.allocator.heapTop).toBe(top);
    expectConsistent(
      subject,
      new Map([
        [small, 100],
        [b, 16],
        [c, 16],
      ]),
    );
  });

  it('merges a released block with free neighbours on both sides, and gives a free block at the top back', () => {
    const subject = heap();
    const [a, b, c, d] = [1, 2, 3, 4].map(() => subject.allocator.allocate(64)) as [number, number, number, number];
    subject.allocator.release(a);
    subject.allocator.release(c);
    expect(subject.allocator.freeBlocks()).toEqual([
      { start: a, size: 64 },
      { start: c, size: 64 },
    ]);
    subject.allocator.release(b);
    expect(subject.allocator.freeBlocks()).toEqual([{ start: a, size: 192 }]);
    subject.allocator.release(d);
    expect(subject.allocator.freeBlocks()).toEqual([]);
    expect(subject.allocator.heapTop).toBe(subject.allocator.heapBase);
  });
});

describe('the allocator’s address map', () => {
  type MapStep = readonly ['set', number, number] | readonly ['delete', number];
  // Few distinct keys, so that the same ones are set and deleted again and again, as block addresses are.
  const key = fc.oneof(
    fc.integer({ min: 1, max: 400 }).map((k) => k * 16),
    fc.integer({ min: 1, max: 2 ** 32 - 1 }),
  );
  const step: fc.Arbitrary<MapStep> = fc.oneof(
    fc.tuple(fc.constant('set' as const), key, fc.nat()),
    fc.tuple(fc.constant('delete' as const), key),
  );

  it('answers like a Map over random set/delete sequences, through growing and shrinking', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 600 }), (steps) => {
        const subject = new AddressMap<number>();
        const model = new Map<number, number>();
        for (const [kind, k, value] of steps) {
          if (kind === 'set') {
            subject.set(k, value as number);
            model.set(k, value as number);
          } else expect(subject.delete(k)).toBe(model.delete(k));
        }
        expect(subject.size).toBe(model.size);
        for (const [k, value] of model) expect(subject.get(k)).toBe(value);
        for (const [, k] of steps) if (!model.has(k)) expect(subject.get(k)).toBeUndefined();
        expect(subject.valueList().sort((a, b) => a - b)).toEqual([...model.values()].sort((a, b) => a - b));
      }),
      { numRuns: 300 },
    );
  });

  it('finds every key after the same key was set and deleted 100,000 times among 50,000 others', () => {
    const subject = new AddressMap<number>();
    for (let i = 1; i <= 50_000; i++) subject.set(i * 32, i);
    for (let i = 0; i < 100_000; i++) {
      subject.set(16, i);
      subject.delete(16);
    }
    expect(subject.size).toBe(50_000);
    for (let i = 1; i <= 50_000; i++) expect(subject.get(i * 32)).toBe(i);
    expect(subject.get(16)).toBeUndefined();
  });

  it('refuses keys that are not addresses', () => {
    const subject = new AddressMap<number>();
    for (const k of [0, -16, 2 ** 32, 1.5, Number.NaN]) expect(() => subject.set(k, 1), String(k)).toThrow(RangeError);
  });
});
