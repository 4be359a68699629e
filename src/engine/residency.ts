/**
 * Which compiled rulesets live in the WebAssembly matcher's linear memory (src/engine/wasm-backend.ts).
 *
 * Linear memory holds at most RESIDENT_BUDGET bytes of compiled rulesets; beyond, the least recently used
 * is evicted (a clock): its bytes are copied out into a JS buffer its object owns, and copied in again on
 * its next check. So rules nobody disposed cannot fill linear memory, even in a synchronous loop where no
 * FinalizationRegistry callback can run (garbage collection reclaims the evicted ones' buffers), and
 * dispose() just gives a ruleset's place back sooner.
 */
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
  /**
   * The ruleset's cell, emptied when the copy is evicted (its bytes then copied into it). Residents hold
   * the cell, never the ruleset: a ruleset nobody references is collected (and the FinalizationRegistry
   * below frees its place) without waiting for the budget to evict it, and with no WeakRef per load.
   */
  readonly cell: RulesetCell;
  /** Set by every check, cleared by the clock hand: a used ruleset gets another round before eviction. */
  used: boolean;
  /** Whether this address was handed out (the line scanner keeps it): only then does moving it count as an eviction. */
  handedOut: boolean;
}

/**
 * What a ruleset and its residents share: its bytes, in one place at a time: resident (`residency`) or
 * copied out (`swapped`). The FinalizationRegistry holds only this, so a ruleset nobody references can be
 * collected, and its bytes with the cell once the registry has freed its place.
 */
export interface RulesetCell {
  residency: Residency | undefined;
  /** The ruleset's bytes outside linear memory: before its first load, and after an eviction. */
  swapped: Uint8Array | undefined;
}

/** The rulesets resident in one linear memory, within RESIDENT_BUDGET. */
export class Residents {
  /** Residents in the order they came in (or last survived the clock hand). */
  private readonly clock = new Set<Residency>();
  private residentBytes = 0;
  /** A copy of the `bytes` bytes at `pointer`, outside linear memory. */
  copyOut(pointer: number, bytes: number): Uint8Array {
    return this.memory.copyOut(pointer, bytes);
  }

  /**
   * Rulesets whose address was handed out (handOut()) that moved out of linear memory so far: an address
   * handed out may be stale once it changes. A ruleset no one kept the address of (a scan tier replaced by
   * its indexed tier, a ruleset checked only through its object) leaves the count alone, so that such
   * churn does not make the line scanner forget the addresses it holds.
   */
  evictions = 0;

  constructor(private readonly memory: ResidentMemory) {}

  /** Makes the ruleset of `cell` resident with `bytecode`, its bytes (evicting others beyond the budget); its address. */
  admit(cell: RulesetCell, bytecode: Uint8Array): number {
    this.evictFor(bytecode.byteLength);
    const pointer = this.memory.place(bytecode);
    const residency: Residency = { pointer, bytes: bytecode.byteLength, cell, used: true, handedOut: false };
    cell.residency = residency;
    this.clock.add(residency);
    this.residentBytes += residency.bytes;
    return pointer;
  }

  /**
   * Gives a ruleset's place in linear memory back: on disposal and garbage collection, or (with
   * `keepBytes`) to make room, when its bytes are first copied out into its cell.
   */
  evict(cell: RulesetCell, keepBytes = false): void {
    const residency = cell.residency;
    if (residency === undefined) return;
    cell.residency = undefined;
    if (residency.handedOut) this.evictions++;
    if (keepBytes) cell.swapped = this.memory.copyOut(residency.pointer, residency.bytes);
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
  readonly cell: RulesetCell;
  readonly byteLength: number;

  constructor(
    private readonly residents: Residents,
    bytecode: Uint8Array,
  ) {
    this.cell = { residency: undefined, swapped: bytecode };
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
    const bytecode = this.cell.swapped;
    if (bytecode === undefined) return 0;
    const pointer = this.residents.admit(this.cell, bytecode);
    this.cell.swapped = undefined;
    return pointer;
  }

  /** pointer(), for a caller that keeps the address: it stays good until `Residents.evictions` changes. */
  handOut(): number {
    const pointer = this.pointer();
    const residency = this.cell.residency;
    if (residency !== undefined) residency.handedOut = true;
    return pointer;
  }

  /** A copy of the ruleset's bytes, wherever they are now (a tier switch reads them to write the next tier). */
  bytecode(): Uint8Array {
    const residency = this.cell.residency;
    if (residency !== undefined) return this.residents.copyOut(residency.pointer, residency.bytes);
    return (this.cell.swapped as Uint8Array).slice();
  }

  /** Gives the memory back; the ruleset must not be used afterwards. Idempotent. */
  free(): void {
    this.residents.evict(this.cell);
    this.cell.swapped = undefined;
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
