/**
 * Compiled rulesets shared by the threads of `filter --workers N`, so that a host's file is parsed and compiled
 * once per run rather than once per thread. A log in random order names nearly every host in every batch, and
 * each thread used to compile every host it met: on the many-host log (4,196 hosts) that compile work was as
 * large as deciding the lines, and a second thread doubled it instead of halving the run.
 *
 * The first thread to compile a host's rules publishes their bytecode here under the host's key; a thread that
 * meets the host later copies the bytecode into its own matcher (a copy of about a kilobyte, where the compile
 * took hundreds of microseconds). Two threads that meet a new host at the same moment may both compile it: the
 * first to publish wins, and the other's copy is simply not published. Only rules whose lines the line scanner
 * decides alone are published (./scanned.ts decides which): the rest are compiled by each thread, as before.
 *
 * The table lives in one SharedArrayBuffer: a header, an open-addressing index of entry offsets, and an arena
 * that entries are appended to and never moved or freed. An entry is written whole before its offset is stored
 * in the index (Atomics.compareExchange), so a reader that finds the offset (Atomics.load) sees the whole entry;
 * writers reserve their room by atomic adds, and take no lock. When the arena or the index is full, nothing more is
 * published: threads compile what is not there, and memory stays within the size chosen at the start.
 */
import { LruBudget } from '../../cache/lru-budget.js';
import type { LoadedRuleset, MatcherBackend } from '../../engine/backend.js';

/** Header words (Int32): the arena's bytes reserved, the entries published (or being published). */
const ARENA_USED = 0;
const ENTRIES = 1;
const HEADER_BYTES = 16;
/** Entry header: the key's UTF-8 length and the bytecode's length (u32 each), then the key, then the bytecode. */
const ENTRY_HEADER_BYTES = 8;
/** Index slots: a power of two, at most half full (a host per slot and as many empty, for short probes). */
const MIN_SLOTS = 1 << 12;
const MAX_SLOTS = 1 << 20;
/** Bytes per index slot counted against the arena's budget, and the arena's share per host assumed for sizing. */
const SLOT_BYTES = 4;
const TYPICAL_ENTRY_BYTES = 2048;
/** The largest table, whatever --cache-mb: 1 GiB. */
const MAX_BYTES = 1 << 30;

const encoder = new TextEncoder();

/** FNV-1a over `length` bytes of `bytes`: the index's hash of a key. */
function hashOf(bytes: Uint8Array, length: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < length; i++) hash = Math.imul(hash ^ (bytes[i] as number), 0x01000193);
  return hash >>> 0;
}

export class SharedRulesets {
  private readonly words: Int32Array;
  private readonly index: Int32Array;
  private readonly arena: Uint8Array;
  private readonly view: DataView;
  private readonly mask: number;
  /** The key being looked up, encoded: grown to the longest key. */
  private keyBytes = new Uint8Array(256);

  /** A table of at most `budget` bytes (and 1 GiB), shared with the threads it is posted to. */
  static create(budget: number): SharedRulesets {
    // Offsets are 32-bit words.
    const bytes = Math.min(budget, MAX_BYTES);
    let slots = MIN_SLOTS;
    while (slots < MAX_SLOTS && slots * (SLOT_BYTES + TYPICAL_ENTRY_BYTES / 2) < bytes) slots *= 2;
    const arenaBytes = Math.max(0, bytes - HEADER_BYTES - slots * SLOT_BYTES);
    return new SharedRulesets(new SharedArrayBuffer(HEADER_BYTES + slots * SLOT_BYTES + arenaBytes), slots);
  }

  /** The table another thread made (its `buffer` and `slots`). */
  constructor(
    readonly buffer: SharedArrayBuffer,
    readonly slots: number,
  ) {
    this.words = new Int32Array(buffer, 0, HEADER_BYTES / 4);
    this.index = new Int32Array(buffer, HEADER_BYTES, slots);
    this.arena = new Uint8Array(buffer, HEADER_BYTES + slots * SLOT_BYTES);
    this.view = new DataView(buffer, HEADER_BYTES + slots * SLOT_BYTES);
    this.mask = slots - 1;
  }

  /** Entries published so far. */
  get size(): number {
    return Atomics.load(this.words, ENTRIES);
  }

  /** The bytecode published for `key` (a view into the shared arena: copy it before keeping it), or undefined. */
  get(key: string): Uint8Array | undefined {
    const length = this.encode(key);
    const slot = this.find(length, hashOf(this.keyBytes, length));
    if (slot < 0) return undefined;
    const entry = (Atomics.load(this.index, slot) as number) - 1;
    const start = entry + ENTRY_HEADER_BYTES + length;
    return this.arena.subarray(start, start + this.view.getUint32(entry + 4, true));
  }

  /** Publishes `bytecode` for `key`, unless it is there already or the table is full. */
  publish(key: string, bytecode: Uint8Array): void {
    const length = this.encode(key);
    const hash = hashOf(this.keyBytes, length);
    const size = ENTRY_HEADER_BYTES + length + bytecode.length;
    if (this.find(length, hash) >= 0 || Atomics.load(this.words, ARENA_USED) + size > this.arena.length) return;
    // Room reserved first, each by one atomic add (no lock: a thread the machine suspends while holding one
    // would leave the others spinning); at most half the slots used, for short probes.
    if (2 * Atomics.add(this.words, ENTRIES, 1) + 2 > this.slots) {
      Atomics.sub(this.words, ENTRIES, 1);
      return;
    }
    const at = Atomics.add(this.words, ARENA_USED, size);
    if (at + size > this.arena.length) {
      // Left as reserved: nothing more fits, and nothing more is tried once the arena is past its end.
      Atomics.sub(this.words, ENTRIES, 1);
      return;
    }
    this.view.setUint32(at, length, true);
    this.view.setUint32(at + 4, bytecode.length, true);
    this.arena.set(this.keyBytes.subarray(0, length), at + ENTRY_HEADER_BYTES);
    this.arena.set(bytecode, at + ENTRY_HEADER_BYTES + length);
    // Written whole before its offset is stored: a reader that loads the offset sees the entry.
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const taken = Atomics.compareExchange(this.index, slot, 0, at + 1);
      if (taken === 0) return;
      // Another thread published the same key meanwhile: its entry stands, this one is left unused.
      if (this.view.getUint32(taken - 1, true) === length && this.keyEquals(taken - 1 + ENTRY_HEADER_BYTES, length)) return;
    }
  }

  /** The key's UTF-8 bytes into keyBytes; their length. */
  private encode(key: string): number {
    if (this.keyBytes.length < 3 * key.length) this.keyBytes = new Uint8Array(3 * key.length);
    return encoder.encodeInto(key, this.keyBytes).written;
  }

  /** The slot holding the encoded key (≥ 0), or -(the empty slot where it would go) - 1. */
  private find(length: number, hash: number): number {
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const entry = (Atomics.load(this.index, slot) as number) - 1;
      if (entry < 0) return -slot - 1;
      if (this.view.getUint32(entry, true) === length && this.keyEquals(entry + ENTRY_HEADER_BYTES, length)) return slot;
    }
  }

  private keyEquals(at: number, length: number): boolean {
    const { arena, keyBytes } = this;
    for (let i = 0; i < length; i++) if (arena[at + i] !== keyBytes[i]) return false;
    return true;
  }
}

/** Bytes counted for a loaded copy besides its bytecode: the objects around it and its block's overhead. */
const LOADED_ENTRY_BYTES = 512;

/**
 * One thread's view of the shared table: the copies it loaded from it, kept in an LRU of `budget` bytes (the
 * line scanner keeps their addresses; one evicted is not freed, since the scanner's table may still name it:
 * garbage collection frees it once nothing does, and the scanner is then told its table is stale).
 */
export class SharedRulesetCache {
  private readonly loaded: LruBudget<string, LoadedRuleset>;

  constructor(
    readonly table: SharedRulesets,
    budget: number,
  ) {
    this.loaded = new LruBudget(Number.POSITIVE_INFINITY, budget, (ruleset) => ruleset.byteLength + LOADED_ENTRY_BYTES);
  }

  /** This thread's copy of the ruleset another thread published for `key`, loaded into `backend` on first use. */
  rulesetFor(key: string, backend: MatcherBackend): LoadedRuleset | undefined {
    const known = this.loaded.peek(key);
    if (known !== undefined) {
      this.loaded.touch(key);
      return known;
    }
    const bytecode = this.table.get(key);
    if (bytecode === undefined) return undefined;
    // A copy in memory of this thread's own: the ruleset may keep the bytes it was given until it is placed.
    const ruleset = backend.load(bytecode.slice());
    this.loaded.set(key, ruleset);
    return ruleset;
  }

  /** Offers the ruleset this thread compiled for `key` to the other threads. */
  publish(key: string, ruleset: LoadedRuleset): void {
    this.table.publish(key, ruleset.bytecode());
  }
}
