/**
 * Which compiled rulesets live in the WebAssembly matcher's linear memory (src/engine/wasm-backend.ts).
 *
 * Linear memory holds at most RESIDENT_BUDGET bytes of compiled rulesets; beyond, the least recently used
 * is evicted (a clock): its bytes are copied out into a JS buffer its object owns, and copied in again on
 * its next check. So rules nobody disposed cannot fill linear memory, even in a synchronous loop where no
 * FinalizationRegistry callback can run (garbage collection reclaims the evicted ones' buffers), and
 * dispose() just gives a ruleset's place back sooner.
 */
import { weakRef, type WeakHold } from './weak-ref.js';

/** Bytes of compiled rulesets kept resident in linear memory; beyond, the least recently used go. */
export const RESIDENT_BUDGET = 64 * 1024 * 1024;

/** Where residents' bytes are placed: the backend's linear memory. */
export interface ResidentMemory {
  /**
   * Copies `bytecode` into a place of its own and returns its address; throws, leaving memory as it was,
   * when there is no room.
   */
  place(bytecode: Uint8Array): number;
  /** A copy of `bytes` bytes at `pointer`, outside linear memory. */
  copyOut(pointer: number, bytes: number): Uint8Array;
  /** Gives the place at `pointer` back. */
  release(pointer: number): void;
}

/** A ruleset's place in linear memory, where its bytes live while it is resident. */
interface Residency {
  readonly pointer: number;
  readonly bytes: number;
  /** The ruleset's cell, emptied when the copy is evicted. */
  readonly cell: RulesetCell;
  /**
   * The ruleset, to hand its bytes back to when it is evicted: held weakly where the runtime can, so that a
   * ruleset nobody references is collected (and the FinalizationRegistry below frees its place) without
   * waiting for the budget to evict it.
   */
  readonly owner: WeakHold<ResidentRuleset>;
  /** Set by every check, cleared by the clock hand: a used ruleset gets another round before eviction. */
  used: boolean;
}

/**
 * What a ruleset and its residents share: its resident copy, if any. The FinalizationRegistry holds only
 * this, so a ruleset nobody references can be collected with its bytes.
 */
export interface RulesetCell {
  residency: Residency | undefined;
}

const holdWeakly = (ruleset: ResidentRuleset): WeakHold<ResidentRuleset> => weakRef?.(ruleset) ?? { deref: () => ruleset };

/** The rulesets resident in one linear memory, within RESIDENT_BUDGET. */
export class Residents {
  /** Residents in the order they came in (or last survived the clock hand). */
  private readonly clock = new Set<Residency>();
  private residentBytes = 0;
  /** Rulesets moved out of linear memory so far: an address handed out may be stale once it changes. */
  evictions = 0;

  constructor(private readonly memory: ResidentMemory) {}

  /** Makes `ruleset` resident with `bytecode`, its bytes (evicting others beyond the budget); its address. */
  admit(ruleset: ResidentRuleset, bytecode: Uint8Array): number {
    this.evictFor(bytecode.byteLength);
    const pointer = this.memory.place(bytecode);
    const cell = ruleset.cell;
    const residency: Residency = { pointer, bytes: bytecode.byteLength, cell, owner: holdWeakly(ruleset), used: true };
    cell.residency = residency;
    this.clock.add(residency);
    this.residentBytes += residency.bytes;
    return pointer;
  }

  /**
   * Gives a ruleset's place in linear memory back: on disposal and garbage collection, or (with
   * `keepBytes`) to make room, when its bytes are first copied back to the ruleset, if it is still alive.
   */
  evict(cell: RulesetCell, keepBytes = false): void {
    const residency = cell.residency;
    if (residency === undefined) return;
    cell.residency = undefined;
    this.evictions++;
    if (keepBytes) residency.owner.deref()?.swapOut(this.memory.copyOut(residency.pointer, residency.bytes));
    this.clock.delete(residency);
    this.residentBytes -= residency.bytes;
    this.memory.release(residency.pointer);
  }

  /** Makes room for `bytes` within the budget: a clock over the residents, a used one gets another round. */
  private evictFor(bytes: number): void {
    while (this.residentBytes + bytes > RESIDENT_BUDGET && this.clock.size > 0) {
      for (const residency of this.clock) {
        if (residency.used) {
          residency.used = false;
          this.clock.delete(residency);
          this.clock.add(residency);
        } else {
          this.evict(residency.cell, true);
        }
        break;
      }
    }
  }
}

/**
 * A compiled ruleset's bytes, in one place at a time: in linear memory while it is resident, in a JS buffer
 * of its own (`swapped`) after an eviction, copied in again on its next check. So garbage collection alone
 * reclaims a ruleset nobody disposed, whichever place its bytes are in. The matcher's ruleset extends it
 * with its queries (src/engine/wasm-backend.ts): a small object, no closures.
 */
export class ResidentRuleset {
  readonly cell: RulesetCell = { residency: undefined };
  private swapped: Uint8Array | undefined;
  private freed = false;
  readonly byteLength: number;

  constructor(
    private readonly residents: Residents,
    bytecode: Uint8Array,
  ) {
    this.swapped = bytecode;
    this.byteLength = bytecode.byteLength;
    // Resident at once, so that a failed allocation shows at compile time and memory in use is counted.
    this.pointer();
    unreferenced?.register(this, { residents, cell: this.cell });
  }

  /** The resident copy's address (copied in again when evicted), or 0 once freed. */
  pointer(): number {
    const residency = this.cell.residency;
    if (residency !== undefined) {
      residency.used = true;
      return residency.pointer;
    }
    const bytecode = this.swapped;
    if (bytecode === undefined) return 0;
    const pointer = this.residents.admit(this, bytecode);
    this.swapped = undefined;
    return pointer;
  }

  /** The residents evicted this ruleset: its bytes, copied out of linear memory. */
  swapOut(bytes: Uint8Array): void {
    if (!this.freed) this.swapped = bytes;
  }

  /** Gives the memory back; the ruleset must not be used afterwards. Idempotent. */
  free(): void {
    this.freed = true;
    this.residents.evict(this.cell);
    this.swapped = undefined;
  }
}

/**
 * Gives back the place of rulesets that were dropped without dispose(), once they are collected. Where the
 * runtime has no FinalizationRegistry, the budget alone bounds what they hold.
 */
const unreferenced =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<{ readonly residents: Residents; readonly cell: RulesetCell }>(({ residents, cell }) =>
        residents.evict(cell),
      )
    : undefined;
