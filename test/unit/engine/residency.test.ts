/**
 * Residency's bookkeeping on a memory of plain arrays (the backend's linear memory is the real one in
 * test/behaviour/shared-rulesets.test.ts and wasm-memory.test.ts): sharing by content, counting users,
 * evicting by the use marks the matcher sets, and what it tells the holders of addresses.
 */
import { describe, expect, it } from 'vitest';
import { RESIDENT_BUDGET, ResidentRuleset, Residents, type ResidentMemory } from '../../../src/engine/residency.js';

/** A memory of separate arrays, one per place, with the use marks the matcher would set. */
class PlainMemory implements ResidentMemory {
  readonly places = new Map<number, { bytes: Uint8Array; mark: boolean }>();
  moves = 0;
  private next = 16;

  place(bytecode: Uint8Array): number {
    const pointer = this.next;
    this.next += bytecode.byteLength + 16;
    this.places.set(pointer, { bytes: bytecode.slice(), mark: true });
    return pointer;
  }
  copyOut(pointer: number, bytes: number): Uint8Array {
    return this.at(pointer).bytes.slice(0, bytes);
  }
  holds(pointer: number, bytecode: Uint8Array): boolean {
    const held = this.at(pointer).bytes;
    return held.length === bytecode.length && held.every((byte, i) => byte === bytecode[i]);
  }
  takeUseMark(pointer: number): boolean {
    const place = this.at(pointer);
    const used = place.mark;
    place.mark = false;
    return used;
  }
  release(pointer: number): void {
    this.places.delete(pointer);
  }
  moved(): void {
    this.moves++;
  }
  /** What the matcher does on a check. */
  check(pointer: number): void {
    this.at(pointer).mark = true;
  }
  private at(pointer: number): { bytes: Uint8Array; mark: boolean } {
    const place = this.places.get(pointer);
    if (place === undefined) throw new Error(`nothing placed at ${pointer}`);
    return place;
  }
}

const block = (size: number, fill: number): Uint8Array => new Uint8Array(size).fill(fill);

/** Whether `bytes` are `size` bytes, each `fill`. */
function filledWith(bytes: Uint8Array, size: number, fill: number): boolean {
  if (bytes.length !== size) return false;
  for (const byte of bytes) if (byte !== fill) return false;
  return true;
}

describe('Residents', () => {
  it('places bytes once for every ruleset loaded with them, and frees them with the last user', () => {
    const memory = new PlainMemory();
    const residents = new Residents(memory);
    const a = new ResidentRuleset(residents, block(40, 1));
    const b = new ResidentRuleset(residents, block(40, 1));
    const c = new ResidentRuleset(residents, block(40, 2));
    expect(memory.places.size).toBe(2);
    expect(a.pointer()).toBe(b.pointer());
    expect(a.storage).toBe(b.storage);
    expect(c.storage).not.toBe(a.storage);
    a.free();
    a.free();
    expect(memory.places.size).toBe(2);
    expect(a.pointer()).toBe(0);
    expect(b.bytecode()).toEqual(block(40, 1));
    b.free();
    expect(memory.places.size).toBe(1);
    // Freed bytes are not found again: the next load with them places them anew.
    const d = new ResidentRuleset(residents, block(40, 1));
    expect(memory.places.size).toBe(2);
    expect(d.pointer()).not.toBe(0);
  });

  it('tells blocks of one length apart byte by byte, not by their hash alone', () => {
    const memory = new PlainMemory();
    const residents = new Residents(memory);
    // Every block of one length and one byte value but a single byte: many distinct blocks, each its own.
    const loaded = Array.from({ length: 300 }, (_, i) => {
      const bytes = block(64, 7);
      bytes[i % 64] = 8 + Math.floor(i / 64);
      return new ResidentRuleset(residents, bytes);
    });
    expect(memory.places.size).toBe(300);
    loaded.forEach((ruleset, i) => {
      const expected = block(64, 7);
      expected[i % 64] = 8 + Math.floor(i / 64);
      expect(ruleset.bytecode()).toEqual(expected);
    });
  });

  it('evicts the least recently checked beyond the budget, moves it back on its next use, and says so', () => {
    const memory = new PlainMemory();
    const residents = new Residents(memory);
    const size = RESIDENT_BUDGET / 4;
    const others = [2, 3, 4].map((fill) => new ResidentRuleset(residents, block(size, fill)));
    const kept = new ResidentRuleset(residents, block(size, 1));
    const address = kept.handOut();
    // Full: the next one evicts. Every block was placed marked, so the clock's first round takes the marks
    // and the oldest goes.
    const later = [new ResidentRuleset(residents, block(size, 5))];
    expect(memory.places.size).toBe(4);
    expect(memory.moves).toBe(1);
    // The matcher checks `kept` (its mark set again); the others are not checked, and go first.
    memory.check(address);
    later.push(new ResidentRuleset(residents, block(size, 6)), new ResidentRuleset(residents, block(size, 7)));
    expect(memory.moves).toBe(3);
    expect(kept.pointer()).toBe(address);
    expect(residents.evictions).toBe(0); // none of those moved out was handed out
    // Back in on its next use, with its bytes (checked byte by byte: a deep equality of 16 MB costs gigabytes).
    expect(filledWith(others[0]!.bytecode(), size, 2)).toBe(true);
    expect(others[0]!.pointer()).not.toBe(0);
    expect(filledWith(others[0]!.bytecode(), size, 2)).toBe(true);
    for (const ruleset of [kept, ...others, ...later]) ruleset.free();
    expect(memory.places.size).toBe(0);
  });

  it('counts the moves and frees of handed-out addresses, for the holders of addresses', () => {
    const memory = new PlainMemory();
    const residents = new Residents(memory);
    const shared = [new ResidentRuleset(residents, block(16, 9)), new ResidentRuleset(residents, block(16, 9))];
    shared[0]!.handOut();
    shared[0]!.free();
    expect(residents.evictions).toBe(0); // the other user keeps the block where it is
    shared[1]!.free();
    expect(residents.evictions).toBe(1);
    expect(memory.moves).toBe(0); // freed, not moved: no user is left to hold a stale address
  });
});
