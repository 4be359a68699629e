/**
 * Byte strings told apart without making a string of them: a 500 KiB file of short pieces would otherwise
 * make hundreds of thousands. Compiling looks up repeated patterns (src/compile/rules.ts) and the pieces of
 * every wildcard rule (src/compile/piece-automaton.ts) by a hash of their bytes.
 */

/** FNV-1a (32 bits) of bytes[start, end). */
export function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ (bytes[i] as number), 0x01000193);
  return hash >>> 0;
}

/** Numbers distinct byte strings in the order they are first seen. */
export class ByteStringNumbers {
  /** The first string seen with each hash; the others with the same hash (rare) in `collisions`. */
  private readonly byHash = new Map<number, number>();
  private readonly collisions = new Map<number, number[]>();
  private readonly texts: Uint8Array[] = [];

  /** How many distinct strings were seen. */
  get count(): number {
    return this.texts.length;
  }

  /** The string numbered `number` (a view of the bytes it was first seen in). */
  text(number: number): Uint8Array {
    return this.texts[number] as Uint8Array;
  }

  /** The number of bytes[start, end): the one it got when first seen, or the next one. */
  numberOf(bytes: Uint8Array, start = 0, end = bytes.length): number {
    const hash = hashBytes(bytes, start, end);
    const first = this.byHash.get(hash);
    if (first !== undefined) {
      if (sameBytes(this.texts[first] as Uint8Array, bytes, start, end)) return first;
      for (const number of this.collisions.get(hash) ?? []) {
        if (sameBytes(this.texts[number] as Uint8Array, bytes, start, end)) return number;
      }
    }
    const number = this.texts.length;
    this.texts.push(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end));
    if (first === undefined) this.byHash.set(hash, number);
    else this.collisions.set(hash, [...(this.collisions.get(hash) ?? []), number]);
    return number;
  }
}

function sameBytes(text: Uint8Array, bytes: Uint8Array, start: number, end: number): boolean {
  if (text.length !== end - start) return false;
  for (let i = 0; i < text.length; i++) if (text[i] !== bytes[start + i]) return false;
  return true;
}
