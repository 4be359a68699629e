/**
 * The bytecode's prefix index (src/compile/bytecode.ts): one entry per distinct plain pattern, the first
 * rule with it winning, in byte order, each linked to the longest other entry that is a prefix of it and
 * carrying the best (lowest) rule index along that chain.
 */
import { sortSpans } from './byte-order.js';
import { Scratch } from './scratch.js';

/** Words per entry in PrefixIndex.entries: ruleIndex, parent, bestIndex. */
export const PREFIX_INDEX_WORDS = 3;

export interface PrefixIndex {
  readonly count: number;
  /** Entry i is entries[3i] (ruleIndex), entries[3i + 1] (parent, -1 for none), entries[3i + 2] (bestIndex). */
  readonly entries: Int32Array;
}

const newInts = (length: number): Int32Array => new Int32Array(length);
const entryScratch = new Scratch(newInts);
const ancestorScratch = new Scratch(newInts);

/** Whether bytes[at, at + length) equals bytes[prefix, prefix + length). */
function sameBytes(bytes: Uint8Array, at: number, prefix: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (bytes[at + i] !== bytes[prefix + i]) return false;
  return true;
}

/**
 * The index over the first `count` rules of `plain` (indices of plain rules, whose patterns are
 * bytes[starts[rule], starts[rule] + lengths[rule])); `plain` is sorted in place. The entries are a scratch
 * array (src/compile/scratch.ts): write them out before the next compile.
 */
export function prefixIndex(bytes: Uint8Array, starts: Uint32Array, lengths: Uint32Array, plain: Uint32Array, count: number): PrefixIndex {
  sortSpans(bytes, starts, lengths, plain, count);
  const entries = entryScratch.take(PREFIX_INDEX_WORDS * count);
  // The chain of entries whose patterns are prefixes of the one being added, longest last.
  const ancestors = ancestorScratch.take(count);
  let depth = 0;
  let entryCount = 0;
  let previous = -1;
  for (let k = 0; k < count; k++) {
    const ruleIndex = plain[k] as number;
    const start = starts[ruleIndex] as number;
    const length = lengths[ruleIndex] as number;
    // Equal patterns sort together, the first rule first: it is the entry.
    if (previous >= 0 && (lengths[previous] as number) === length && sameBytes(bytes, start, starts[previous] as number, length)) continue;
    previous = ruleIndex;
    while (depth > 0) {
      const ancestorRule = entries[PREFIX_INDEX_WORDS * (ancestors[depth - 1] as number)] as number;
      const ancestorLength = lengths[ancestorRule] as number;
      if (ancestorLength <= length && sameBytes(bytes, start, starts[ancestorRule] as number, ancestorLength)) break;
      depth--;
    }
    const parent = depth > 0 ? (ancestors[depth - 1] as number) : -1;
    const inherited = parent >= 0 ? (entries[PREFIX_INDEX_WORDS * parent + 2] as number) : ruleIndex;
    const entry = PREFIX_INDEX_WORDS * entryCount;
    entries[entry] = ruleIndex;
    entries[entry + 1] = parent;
    entries[entry + 2] = Math.min(ruleIndex, inherited);
    ancestors[depth++] = entryCount++;
  }
  return { count: entryCount, entries };
}
