/**
 * The bytecode's prefix index (src/compile/bytecode.ts): one entry per distinct plain pattern, the first
 * rule with it winning, in byte order, each linked to the longest other entry that is a prefix of it and
 * carrying the best (lowest) rule index along that chain.
 */
import { prefixTree } from './prefix-tree.js';
import { Scratch } from './scratch.js';

/** Words per entry in PrefixIndex.entries: ruleIndex, parent, bestIndex. */
export const PREFIX_INDEX_WORDS = 3;

export interface PrefixIndex {
  readonly count: number;
  /** Entry i is entries[3i] (ruleIndex), entries[3i + 1] (parent, -1 for none), entries[3i + 2] (bestIndex). */
  readonly entries: Int32Array;
}

const entryScratch = new Scratch((length) => new Int32Array(length));

/**
 * The index over the first `count` rules of `plain` (indices of plain rules, whose patterns are
 * bytes[starts[rule], starts[rule] + lengths[rule])); `plain` is sorted in place. The entries are a scratch
 * array (src/compile/scratch.ts): write them out before the next compile.
 */
export function prefixIndex(bytes: Uint8Array, starts: Uint32Array, lengths: Uint32Array, plain: Uint32Array, count: number): PrefixIndex {
  const tree = prefixTree(bytes, starts, lengths, plain, count);
  const entries = entryScratch.take(PREFIX_INDEX_WORDS * tree.count);
  for (let node = 0; node < tree.count; node++) {
    // Equal patterns sort in ascending rule index: the first rule is the entry's.
    const ruleIndex = plain[tree.first[node] as number] as number;
    const parent = tree.parent[node] as number;
    const inherited = parent >= 0 ? (entries[PREFIX_INDEX_WORDS * parent + 2] as number) : ruleIndex;
    const entry = PREFIX_INDEX_WORDS * node;
    entries[entry] = ruleIndex;
    entries[entry + 1] = parent;
    entries[entry + 2] = Math.min(ruleIndex, inherited);
  }
  return { count: tree.count, entries };
}
