/**
 * A small allocator for WebAssembly linear memory, owned by the host.
 *
 * The matcher runs with AssemblyScript's stub runtime, which cannot free, so the host keeps the heap:
 * compiled rulesets are allocated here and given back when they are disposed, and the freed space is
 * reused. Linear memory itself never shrinks (WebAssembly has no way to give pages back), but it stops
 * growing once a crawler's working set is reached.
 *
 * A crawler that keeps many rulesets and drops some leaves tens of thousands of holes between live ones,
 * so no operation here may look at the holes one by one:
 * - fit: free blocks sit in segregated bins by size (one bin per size below 256 bytes, then 8 per power
 *   of two), with a bitmap of the bins that hold any; a request takes a block from the first non-empty
 *   bin whose blocks are all big enough, so finding one costs a few bit operations whatever the number
 *   of holes;
 * - coalescing: free blocks are indexed by their start and by their end, so a released block finds and
 *   merges its free neighbours in O(1), and a free block that reaches the top of the heap goes back to
 *   the bump region (so a heap whose blocks are all freed is back at its base, with no free blocks);
 * - the indexes are AddressMaps, not Maps: see there why.
 *
 * An allocation that cannot be satisfied changes nothing: memory is grown before any structure is
 * touched, and a refused growth is reported as a RangeError that says what could not be allocated.
 */

const ALIGNMENT = 16;
const PAGE_SIZE = 65_536;
/** wasm32 addresses are 32 bits: linear memory never exceeds 65,536 pages. */
const MAX_MEMORY_BYTES = 65_536 * PAGE_SIZE;

/** Bin layout, on sizes counted in 16-byte units: below 16 units a bin per size, then 8 bins per power of two. */
const SUB_BIN_BITS = 3;
const SUB_BINS = 1 << SUB_BIN_BITS;
const EXACT_UNITS = 2 * SUB_BINS;
const BIN_COUNT = binOf(MAX_MEMORY_BYTES / ALIGNMENT) + 1;
/**
 * How many blocks of a request's own bin are tried when no bigger bin holds a block (its blocks may be smaller
 * than the request). Bounded so that a bin full of slightly-too-small holes costs a fixed amount of work;
 * past it the request is served from the top of the heap.
 */
const OWN_BIN_TRIES = 32;
/** The smallest table of an AddressMap (a power of two). */
const MIN_SLOTS = 64;

interface FreeBlock {
  readonly start: number;
  readonly size: number;
  readonly bin: number;
  previous: FreeBlock | undefined;
  next: FreeBlock | undefined;
}

/** One block of a heap listing (LinearAllocator.freeBlocks), for tests and diagnostics. */
export interface HeapBlock {
  readonly start: number;
  readonly size: number;
}

function alignUp(value: number): number {
  return Math.ceil(value / ALIGNMENT) * ALIGNMENT;
}

/** The bin of a block of `units` 16-byte units. */
function binOf(units: number): number {
  if (units < EXACT_UNITS) return units;
  const log = 31 - Math.clz32(units);
  return ((log - SUB_BIN_BITS + 1) << SUB_BIN_BITS) + ((units >>> (log - SUB_BIN_BITS)) & (SUB_BINS - 1));
}

/** The smallest size, in units, that falls in `bin`. */
function binFloor(bin: number): number {
  if (bin < EXACT_UNITS) return bin;
  const log = (bin >>> SUB_BIN_BITS) + SUB_BIN_BITS - 1;
  return (SUB_BINS + (bin & (SUB_BINS - 1))) << (log - SUB_BIN_BITS);
}

/**
 * A hash map keyed by addresses (whole numbers from 1 to 2³² − 1). Not a Map: V8's Map leaves a deleted
 * entry in its bucket's chain until the table is next rebuilt, so an address set and deleted over and
 * over (the body copy of every parse, allocated and freed at the same place) makes each lookup of it walk
 * the thousands of dead entries left since; with 50,000 live blocks, parse + compile became 13× slower.
 * Linear probing with backward-shift deletion leaves no dead entries behind, so every operation stays O(1).
 *
 * @internal Exported for its tests.
 */
export class AddressMap<V> {
  /** 0 marks an empty slot: no block starts or ends at address 0. */
  private keys: Uint32Array;
  private values: (V | undefined)[];
  private shift: number;
  private count = 0;

  constructor() {
    this.keys = new Uint32Array(MIN_SLOTS);
    this.values = new Array<V | undefined>(MIN_SLOTS).fill(undefined);
    this.shift = 32 - Math.log2(MIN_SLOTS);
  }

  get size(): number {
    return this.count;
  }

  get(key: number): V | undefined {
    const slot = this.find(key);
    return slot < 0 ? undefined : this.values[slot];
  }

  set(key: number, value: V): void {
    if (!(key > 0 && key < 2 ** 32 && Number.isInteger(key))) throw new RangeError(`not an address: ${key}`);
    const mask = this.keys.length - 1;
    let slot = this.home(key);
    for (;;) {
      const held = this.keys[slot] as number;
      if (held === key) {
        this.values[slot] = value;
        return;
      }
      if (held === 0) break;
      slot = (slot + 1) & mask;
    }
    this.keys[slot] = key;
    this.values[slot] = value;
    this.count++;
    if (this.count * 2 > this.keys.length) this.resize(this.keys.length * 2);
  }

  delete(key: number): boolean {
    let hole = this.find(key);
    if (hole < 0) return false;
    // Backward shift: each entry after the hole, up to the next empty slot, moves into the hole when the
    // hole lies on its probe path (from its home slot to where it is), so that no lookup ever stops early.
    const mask = this.keys.length - 1;
    for (let slot = (hole + 1) & mask; ; slot = (slot + 1) & mask) {
      const key = this.keys[slot] as number;
      if (key === 0) break;
      const home = this.home(key);
      if (((hole - home) & mask) < ((slot - home) & mask)) {
        this.keys[hole] = key;
        this.values[hole] = this.values[slot];
        hole = slot;
      }
    }
    this.keys[hole] = 0;
    this.values[hole] = undefined;
    this.count--;
    if (this.count * 8 < this.keys.length && this.keys.length > MIN_SLOTS) this.resize(this.keys.length / 2);
    return true;
  }

  /** The values, in no particular order. */
  valueList(): V[] {
    const list: V[] = [];
    for (let slot = 0; slot < this.keys.length; slot++) if (this.keys[slot] !== 0) list.push(this.values[slot] as V);
    return list;
  }

  private find(key: number): number {
    const mask = this.keys.length - 1;
    for (let slot = this.home(key); ; slot = (slot + 1) & mask) {
      const held = this.keys[slot] as number;
      if (held === key && key !== 0) return slot;
      if (held === 0) return -1;
    }
  }

  /** Fibonacci hashing: the top bits of key × 2³²/φ, which spread addresses 16 bytes apart evenly. */
  private home(key: number): number {
    return Math.imul(key, 0x9e3779b1) >>> this.shift;
  }

  private resize(slots: number): void {
    const keys = this.keys;
    const values = this.values;
    this.keys = new Uint32Array(slots);
    this.values = new Array<V | undefined>(slots).fill(undefined);
    this.shift = 32 - Math.log2(slots);
    this.count = 0;
    for (let slot = 0; slot < keys.length; slot++) {
      const key = keys[slot] as number;
      if (key !== 0) this.set(key, values[slot] as V);
    }
  }
}

function formatBytes(bytes: number): string {
  return `${bytes.toLocaleString('en-US')} bytes`;
}

export class LinearAllocator {
  private readonly base: number;
  private top: number;
  private inUse = 0;
  private freeTotal = 0;
  /** Allocated blocks: start → rounded size. */
  private readonly sizes = new AddressMap<number>();
  /** Free blocks by their first byte and by the byte just past them: what coalescing looks up. */
  private readonly freeByStart = new AddressMap<FreeBlock>();
  private readonly freeByEnd = new AddressMap<FreeBlock>();
  /** Per bin, a doubly linked list of its free blocks; a bit per bin says whether it holds any. */
  private readonly bins: (FreeBlock | undefined)[] = new Array<FreeBlock | undefined>(BIN_COUNT).fill(undefined);
  private readonly occupied = new Uint32Array(Math.ceil(BIN_COUNT / 32));

  /** `onGrow` runs after linear memory grew (views over the old buffer are then detached). */
  constructor(
    private readonly memory: WebAssembly.Memory,
    base: number,
    private readonly onGrow: () => void,
  ) {
    // Never address 0: a ruleset at 0 would read as disposed, and AddressMap keeps 0 for its empty slots.
    this.base = Math.max(alignUp(base), ALIGNMENT);
    this.top = this.base;
  }

  /** Bytes currently allocated (each block counted at its rounded size). */
  get bytesInUse(): number {
    return this.inUse;
  }

  /** Bytes in free blocks below the top of the heap. */
  get bytesFree(): number {
    return this.freeTotal;
  }

  /** Where the heap starts, and where its bump region starts: base + bytesInUse + bytesFree = heapTop. */
  get heapBase(): number {
    return this.base;
  }

  get heapTop(): number {
    return this.top;
  }

  /** @internal The free blocks in address order: O(n log n), for tests. */
  freeBlocks(): HeapBlock[] {
    return this.freeByStart
      .valueList()
      .map(({ start, size }) => ({ start, size }))
      .sort((a, b) => a.start - b.start);
  }

  /**
   * Returns the address of `size` bytes, 16-byte aligned. `what` names the allocation in the error thrown
   * when memory cannot grow enough ("a compiled ruleset of 1,234 bytes"); nothing changes then.
   */
  allocate(size: number, what = 'a block'): number {
    if (!(size >= 0) || !Number.isFinite(size)) throw new RangeError(`cannot allocate ${String(size)} bytes for ${what}`);
    const rounded = alignUp(Math.max(size, 1));
    let start: number;
    const block = rounded <= MAX_MEMORY_BYTES ? this.takeFit(rounded / ALIGNMENT) : undefined;
    if (block !== undefined) {
      start = block.start;
      if (block.size > rounded) this.insertFree(start + rounded, block.size - rounded);
    } else {
      const end = this.top + rounded;
      this.ensureMemory(end, rounded, what);
      start = this.top;
      this.top = end;
    }
    this.sizes.set(start, rounded);
    this.inUse += rounded;
    return start;
  }

  /** Gives back a block from allocate(); freeing twice, or an address never returned, is a no-op. */
  release(start: number): void {
    const size = this.sizes.get(start);
    if (size === undefined) return;
    this.sizes.delete(start);
    this.inUse -= size;
    let blockStart = start;
    let blockEnd = start + size;
    const previous = this.freeByEnd.get(blockStart);
    if (previous !== undefined) {
      this.removeFree(previous);
      blockStart = previous.start;
    }
    const next = this.freeByStart.get(blockEnd);
    if (next !== undefined) {
      this.removeFree(next);
      blockEnd = next.start + next.size;
    }
    // A free block that reaches the top goes back to the bump region: an emptied heap is back at its base.
    if (blockEnd === this.top) this.top = blockStart;
    else this.insertFree(blockStart, blockEnd - blockStart);
  }

  /** Removes and returns a free block of at least `units` units, or undefined if there is none to hand. */
  private takeFit(units: number): FreeBlock | undefined {
    const own = binOf(units);
    const size = units * ALIGNMENT;
    // The request's own bin first when its first block fits: reusing a hole of the same size keeps the
    // bigger holes whole.
    const head = this.bins[own];
    if (head !== undefined && head.size >= size) return this.removeFree(head);
    // Every block of a bin above the request's holds it (its own bin does too when the request is the
    // bin's smallest size).
    const bin = this.firstOccupied(binFloor(own) === units ? own : own + 1);
    if (bin >= 0) return this.removeFree(this.bins[bin] as FreeBlock);
    let candidate = head?.next;
    for (let tries = 1; candidate !== undefined && tries < OWN_BIN_TRIES; tries++, candidate = candidate.next) {
      if (candidate.size >= size) return this.removeFree(candidate);
    }
    return undefined;
  }

  /** The first bin at or above `from` that holds a free block, or -1. */
  private firstOccupied(from: number): number {
    for (let word = from >>> 5; word < this.occupied.length; word++) {
      const bits = (this.occupied[word] as number) & (word === from >>> 5 ? -1 << (from & 31) : -1);
      if (bits !== 0) return word * 32 + (31 - Math.clz32(bits & -bits));
    }
    return -1;
  }

  private insertFree(start: number, size: number): void {
    const bin = binOf(size / ALIGNMENT);
    const head = this.bins[bin];
    const block: FreeBlock = { start, size, bin, previous: undefined, next: head };
    if (head !== undefined) head.previous = block;
    this.bins[bin] = block;
    this.occupied[bin >>> 5] = (this.occupied[bin >>> 5] as number) | (1 << (bin & 31));
    this.freeByStart.set(start, block);
    this.freeByEnd.set(start + size, block);
    this.freeTotal += size;
  }

  private removeFree(block: FreeBlock): FreeBlock {
    const { previous, next, bin } = block;
    if (previous !== undefined) previous.next = next;
    else this.bins[bin] = next;
    if (next !== undefined) next.previous = previous;
    if (this.bins[bin] === undefined) this.occupied[bin >>> 5] = (this.occupied[bin >>> 5] as number) & ~(1 << (bin & 31));
    this.freeByStart.delete(block.start);
    this.freeByEnd.delete(block.start + block.size);
    this.freeTotal -= block.size;
    return block;
  }

  /** Grows linear memory to hold `end` bytes, or throws without having changed anything. */
  private ensureMemory(end: number, rounded: number, what: string): void {
    const current = this.memory.buffer.byteLength;
    if (end <= current) return;
    if (end > MAX_MEMORY_BYTES) {
      throw this.refused(rounded, what, `it would end past the 4 GiB a WebAssembly memory can address`);
    }
    try {
      this.memory.grow(Math.ceil((end - current) / PAGE_SIZE));
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw this.refused(rounded, what, `the runtime refused to grow WebAssembly memory past ${formatBytes(current)} (${reason})`, cause);
    }
    this.onGrow();
  }

  private refused(rounded: number, what: string, reason: string, cause?: unknown): RangeError {
    const message =
      `robotstxt-wasm could not allocate ${what} (${formatBytes(rounded)} of WebAssembly memory): ${reason}. ` +
      `Nothing was changed: rules compiled before keep answering, and later calls work; ` +
      `dispose() rules no longer needed to make room.`;
    return cause === undefined ? new RangeError(message) : new RangeError(message, { cause });
  }
}
