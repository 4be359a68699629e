/**
 * A small allocator for WebAssembly linear memory, owned by the host.
 *
 * The matcher runs with AssemblyScript's stub runtime, which cannot free, so the host keeps the heap:
 * compiled rulesets are allocated here and given back when they are disposed, and the freed space is
 * reused (linear memory never shrinks, but it stops growing once a crawler's working set is reached).
 * First fit over an address-ordered free list, coalescing neighbours; allocations are rare (one per
 * compiled agent), so simplicity beats speed here.
 */

const ALIGNMENT = 16;
const PAGE_SIZE = 65_536;

interface FreeBlock {
  start: number;
  size: number;
}

function alignUp(value: number): number {
  return Math.ceil(value / ALIGNMENT) * ALIGNMENT;
}

export class LinearAllocator {
  private readonly free: FreeBlock[] = [];
  private readonly sizes = new Map<number, number>();
  private top: number;
  private inUse = 0;

  /** `onGrow` runs after linear memory grew (views over the old buffer are then detached). */
  constructor(
    private readonly memory: WebAssembly.Memory,
    base: number,
    private readonly onGrow: () => void,
  ) {
    this.top = alignUp(base);
  }

  /** Bytes currently allocated. */
  get bytesInUse(): number {
    return this.inUse;
  }

  /** Returns the address of `size` bytes, 16-byte aligned. */
  allocate(size: number): number {
    const rounded = alignUp(Math.max(size, 1));
    const index = this.free.findIndex((block) => block.size >= rounded);
    let start: number;
    if (index >= 0) {
      const block = this.free[index] as FreeBlock;
      start = block.start;
      if (block.size === rounded) this.free.splice(index, 1);
      else {
        block.start += rounded;
        block.size -= rounded;
      }
    } else {
      start = this.top;
      this.top += rounded;
      this.ensureMemory(this.top);
    }
    this.sizes.set(start, rounded);
    this.inUse += rounded;
    return start;
  }

  /** Gives back a block from allocate(); freeing twice is a no-op. */
  release(start: number): void {
    const size = this.sizes.get(start);
    if (size === undefined) return;
    this.sizes.delete(start);
    this.inUse -= size;
    const index = this.insertionIndex(start);
    const block: FreeBlock = { start, size };
    this.free.splice(index, 0, block);
    const next = this.free[index + 1];
    if (next !== undefined && block.start + block.size === next.start) {
      block.size += next.size;
      this.free.splice(index + 1, 1);
    }
    const previous = this.free[index - 1];
    if (previous !== undefined && previous.start + previous.size === block.start) {
      previous.size += block.size;
      this.free.splice(index, 1);
    }
    // A free block at the top goes back to the bump region.
    const last = this.free[this.free.length - 1];
    if (last !== undefined && last.start + last.size === this.top) {
      this.top = last.start;
      this.free.pop();
    }
  }

  private insertionIndex(start: number): number {
    let low = 0;
    let high = this.free.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.free[middle] as FreeBlock).start < start) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private ensureMemory(end: number): void {
    const needed = end - this.memory.buffer.byteLength;
    if (needed <= 0) return;
    this.memory.grow(Math.ceil(needed / PAGE_SIZE));
    this.onGrow();
  }
}
