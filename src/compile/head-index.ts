/**
 * The bytecode's head index (src/compile/bytecode.ts): the pattern rules (a `*` or a final `$`) grouped by
 * their head, the literal text before their first `*` (the whole pattern for an end-anchored one without a
 * `*`). A pattern can match a path only when its head starts the path, so the WebAssembly matcher tries only
 * the rules whose head does: one binary search finds the longest head that starts the path, and the parent
 * links give every shorter one. One entry per distinct head, in byte order, each with its rules in ascending
 * rule index and the entry of its longest other head that is a prefix of it.
 */
import { prefixTree } from './prefix-tree.js';
import { Scratch } from './scratch.js';
import { STAR } from '../bytes.js';

/** Words per entry in HeadIndex.entries: list start, parent, head length. */
export const HEAD_INDEX_WORDS = 3;

export interface HeadIndex {
  /** Distinct heads. */
  readonly count: number;
  /** Entry i is entries[3i] (where its rules start in `rules`), entries[3i + 1] (parent, -1 for none), entries[3i + 2] (head length). */
  readonly entries: Int32Array;
  /** The rules, entry by entry (each entry's up to the next entry's start, the last one's up to `ruleCount`). */
  readonly rules: Uint32Array;
  readonly ruleCount: number;
  /** The highest rule index listed. */
  readonly highestRule: number;
}

const newWords = (length: number): Uint32Array => new Uint32Array(length);
const headLengthScratch = new Scratch(newWords);
const entryScratch = new Scratch((length) => new Int32Array(length));

/**
 * The index over the first `count` rules of `rules` (indices of pattern rules, whose stored patterns are
 * bytes[starts[rule], starts[rule] + lengths[rule]), with `*` where they have wildcards); `rules` is sorted
 * in place and becomes the index's rule list. The entries are a scratch array (src/compile/scratch.ts):
 * write them out before the next compile.
 */
export function headIndex(bytes: Uint8Array, starts: Uint32Array, lengths: Uint32Array, rules: Uint32Array, count: number): HeadIndex {
  let highest = 0;
  for (let k = 0; k < count; k++) highest = Math.max(highest, (rules[k] as number) + 1);
  const heads = headLengthScratch.take(highest);
  for (let k = 0; k < count; k++) {
    const rule = rules[k] as number;
    const start = starts[rule] as number;
    const end = start + (lengths[rule] as number);
    let at = start;
    while (at < end && bytes[at] !== STAR) at++;
    heads[rule] = at - start;
  }
  // Equal heads sort together in ascending rule index: each run, from its node's first position, is one entry's list.
  const tree = prefixTree(bytes, starts, heads, rules, count);
  const entries = entryScratch.take(HEAD_INDEX_WORDS * tree.count);
  for (let node = 0; node < tree.count; node++) {
    const first = tree.first[node] as number;
    const entry = HEAD_INDEX_WORDS * node;
    entries[entry] = first;
    entries[entry + 1] = tree.parent[node] as number;
    entries[entry + 2] = heads[rules[first] as number] as number;
  }
  return { count: tree.count, entries, rules, ruleCount: count, highestRule: highest - 1 };
}
