/**
 * Which compiled rulesets live in the WebAssembly matcher's linear memory (src/engine/wasm-backend.ts), and
 * how rulesets with the same bytes share one copy.
 *
 * Sharing: rules compiled to byte-identical bytecode (two hosts with the same robots.txt, a site's two
 * agents that read the same groups, the many files that allow everything) get one block. A block is found
 * by a hash of its bytes and the bytes compared; it counts the rulesets that use it and is freed with the
 * last of them. Linear memory holds each block once, so `bytesInUse` stays exact without anyone counting.
 *
 * Residency: linear memory holds at most RESIDENT_BUDGET bytes of blocks; beyond, the least recently used is
 * evicted (a clock): its bytes are copied out into a JS buffer the block owns, and copied in again on its
 * next check. So rules nobody disposed cannot fill linear memory, even in a synchronous loop where no
 * FinalizationRegistry callback can run (garbage collection reclaims the evicted ones' buffers), and
 * dispose() just gives a ruleset's share back sooner. Use is marked by the matcher itself, in a word in
 * front of the block (USE_MARK), which the clock reads and clears: a check touches no object for it.
 */
/** Bytes of compiled rulesets kept resident in linear memory; beyond, the least recently used go. */
export const RESIDENT_BUDGET = 64 * 1024 * 1024;

/** Where residents' bytes are placed: the backend's linear memory. */
export interface ResidentMemory {
  /**
   * Copies `bytecode` into a place of its own, its use mark set, and returns its address; throws, leaving
   * memory as it was, when there is no room.
   */
  place(bytecode: Uint8Array): number;
  /** A copy of `bytes` bytes at `pointer`, outside linear memory. */
  copyOut(pointer: number, bytes: number): Uint8Array;
  /** Whether the `bytecode.byteLength` bytes at `pointer` are `bytecode`. */
  holds(pointer: number, bytecode: Uint8Array): boolean;
  /** Whether the block at `pointer` was checked since the last call (its use mark), clearing the mark. */
  takeUseMark(pointer: number): boolean;
  /** Gives the place at `pointer` back. */
  release(pointer: number): void;
  /** A block that rulesets still use moved out of linear memory: addresses kept of it are stale. */
  moved(): void;
}

/** A block's place in linear memory, where its bytes live while it is resident. */
interface Residency {
  readonly pointer: number;
  /** The block, emptied of this residency when it is evicted (its bytes then copied into it). */
  readonly block: Block;
  /** Whether this address was handed out (the line scanner keeps it): only then does moving it count as an eviction. */
  handedOut: boolean;
}

/**
 * One compiled ruleset's bytes, shared by every ruleset loaded with the same bytes, in one place at a time:
 * resident (`residency`) or copied out (`swapped`). The rulesets' FinalizationRegistry holds only this, so a
 * ruleset nobody references can be collected and give its share back.
 */
export interface Block {
  readonly hash: number;
  readonly byteLength: number;
  residency: Residency | undefined;
  /** The bytes outside linear memory: before the first load, and after an eviction. */
  swapped: Uint8Array | undefined;
  /** Rulesets loaded with these bytes and not yet freed; the block is freed when it falls to 0. */
  users: number;
}

/** The blocks in one linear memory, each held once, the resident ones within RESIDENT_BUDGET. */
export class Residents {
  /** Residents in the order they came in (or last survived the clock hand). */
  private readonly clock = new Set<Residency>();
  private residentBytes = 0;
  /** Every live block by the hash of its bytes; blocks whose hashes collide share a list. */
  private readonly byHash = new Map<number, Block | Block[]>();

  /**
   * Blocks whose address was handed out (handOut()) that moved out of linear memory or were freed so far: an
   * address handed out may be stale once it changes. A block no one kept the address of (a scan tier
   * replaced by its indexed tier, a ruleset checked only through its object) leaves the count alone, so that
   * such churn does not make the line scanner forget the addresses it holds.
   */
  evictions = 0;

  constructor(private readonly memory: ResidentMemory) {}

  /** The block holding `bytecode`: one already loaded with the same bytes, or a new one, resident at once. */
  share(bytecode: Uint8Array): Block {
    const hash = hashOf(bytecode);
    const found = this.byHash.get(hash);
    if (found !== undefined) {
      for (const block of Array.isArray(found) ? found : [found]) {
        if (this.holds(block, bytecode)) {
          block.users++;
          return block;
        }
      }
    }
    const block: Block = { hash, byteLength: bytecode.byteLength, residency: undefined, swapped: bytecode, users: 1 };
    // Resident at once, so that a failed allocation shows at compile time and memory in use is counted.
    this.pointer(block);
    if (found === undefined) this.byHash.set(hash, block);
    else if (Array.isArray(found)) found.push(block);
    else this.byHash.set(hash, [found, block]);
    return block;
  }

  /** One user of `block` is done with it: the last frees it. */
  unshare(block: Block): void {
    if (--block.users > 0) return;
    this.evict(block, false);
    block.swapped = undefined;
    const found = this.byHash.get(block.hash);
    if (found === block) {
      this.byHash.delete(block.hash);
    } else if (Array.isArray(found)) {
      const rest = found.filter((other) => other !== block);
      this.byHash.set(block.hash, rest.length === 1 ? (rest[0] as Block) : rest);
    }
  }

  /** The block's resident address (copied in again when evicted), or 0 once freed. */
  pointer(block: Block): number {
    const residency = block.residency;
    if (residency !== undefined) return residency.pointer;
    const bytecode = block.swapped;
    if (bytecode === undefined) return 0;
    this.evictFor(bytecode.byteLength);
    const pointer = this.memory.place(bytecode);
    const admitted: Residency = { pointer, block, handedOut: false };
    block.residency = admitted;
    block.swapped = undefined;
    this.clock.add(admitted);
    this.residentBytes += bytecode.byteLength;
    return pointer;
  }

  /** pointer(), for a caller that keeps the address: it stays good until `evictions` changes. */
  handOut(block: Block): number {
    const pointer = this.pointer(block);
    if (block.residency !== undefined) block.residency.handedOut = true;
    return pointer;
  }

  /** A copy of the block's bytes, wherever they are now (a tier switch reads them to write the next tier). */
  bytecode(block: Block): Uint8Array {
    const residency = block.residency;
    if (residency !== undefined) return this.memory.copyOut(residency.pointer, block.byteLength);
    return (block.swapped as Uint8Array).slice();
  }

  /**
   * Gives a block's place in linear memory back: when its last user frees it, or (with `keepBytes`) to make
   * room, when its bytes are first copied out into it.
   */
  private evict(block: Block, keepBytes: boolean): void {
    const residency = block.residency;
    if (residency === undefined) return;
    block.residency = undefined;
    if (residency.handedOut) this.evictions++;
    if (keepBytes) {
      block.swapped = this.memory.copyOut(residency.pointer, block.byteLength);
      this.memory.moved();
    }
    this.clock.delete(residency);
    this.residentBytes -= block.byteLength;
    this.memory.release(residency.pointer);
  }

  /** Makes room for `bytes` within the budget: a clock over the residents, a used one gets another round. */
  private evictFor(bytes: number): void {
    while (this.residentBytes + bytes > RESIDENT_BUDGET && this.clock.size > 0) {
      for (const residency of this.clock) {
        if (this.memory.takeUseMark(residency.pointer)) {
          this.clock.delete(residency);
          this.clock.add(residency);
        } else {
          this.evict(residency.block, true);
        }
        break;
      }
    }
  }

  private holds(block: Block, bytecode: Uint8Array): boolean {
    if (block.byteLength !== bytecode.byteLength) return false;
    const residency = block.residency;
    if (residency !== undefined) return this.memory.holds(residency.pointer, bytecode);
    const swapped = block.swapped as Uint8Array;
    for (let i = 0; i < swapped.length; i++) if (swapped[i] !== bytecode[i]) return false;
    return true;
  }
}

/**
 * FNV-1a over the block's 32-bit words, then its tail bytes one by one: the hash that finds a block with the
 * same bytes. A collision only costs a comparison, never a wrong share.
 */
function hashOf(bytecode: Uint8Array): number {
  const length = bytecode.byteLength;
  const words = length >>> 2;
  const view = new DataView(bytecode.buffer, bytecode.byteOffset, length);
  let hash = 0x811c9dc5;
  for (let i = 0; i < words; i++) hash = Math.imul(hash ^ view.getUint32(i * 4, true), 0x01000193);
  for (let i = words * 4; i < length; i++) hash = Math.imul(hash ^ (bytecode[i] as number), 0x01000193);
  return hash >>> 0;
}

/**
 * One loaded ruleset: a user of a block. The matcher's ruleset extends it with its queries
 * (src/engine/wasm-backend.ts): a small object, no closures.
 */
export class ResidentRuleset {
  /** The block this ruleset uses, until it is freed. */
  private block: Block | undefined;
  readonly byteLength: number;

  constructor(
    private readonly residents: Residents,
    bytecode: Uint8Array,
  ) {
    const block = residents.share(bytecode);
    this.block = block;
    this.byteLength = block.byteLength;
    unreferenced?.register(this, { residents, block }, this);
  }

  /** The bytes this ruleset's share is counted as: the same object for every ruleset sharing its block. */
  get storage(): object {
    return this.block ?? this;
  }

  /** The block's resident address (copied in again when evicted), or 0 once freed. */
  pointer(): number {
    const block = this.block;
    return block === undefined ? 0 : this.residents.pointer(block);
  }

  /** pointer(), for a caller that keeps the address: it stays good until `Residents.evictions` changes. */
  handOut(): number {
    const block = this.block;
    return block === undefined ? 0 : this.residents.handOut(block);
  }

  /** A copy of the ruleset's bytes, wherever they are now (a tier switch reads them to write the next tier). */
  bytecode(): Uint8Array {
    return this.residents.bytecode(this.block as Block);
  }

  /** Gives this ruleset's share back (the block is freed with its last user); it must not be used afterwards. Idempotent. */
  free(): void {
    const block = this.block;
    if (block === undefined) return;
    this.block = undefined;
    unreferenced?.unregister(this);
    this.residents.unshare(block);
  }
}

/**
 * Gives back the share of rulesets that were dropped without free(), once they are collected. Where the
 * runtime has no FinalizationRegistry, the budget alone bounds what they hold.
 */
const unreferenced =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<{ readonly residents: Residents; readonly block: Block }>(({ residents, block }) => residents.unshare(block))
    : undefined;
