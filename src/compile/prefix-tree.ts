/**
 * What the bytecode's two sorted indexes share (src/compile/prefix-index.ts, src/compile/head-index.ts): spans of
 * bytes sorted in byte order, one node per distinct span, each linked to the node of the longest other span that is
 * a prefix of it. A path that starts with a node's span starts with every span up its chain, which is how the
 * matcher finds all of them from the longest.
 */
import { sortSpans } from './byte-order.js';
import { Scratch } from './scratch.js';

export interface PrefixTree {
  /** Distinct spans. */
  readonly count: number;
  /** Node i's first position in the sorted ids (its span's, and the first id with it). */
  readonly first: Int32Array;
  /** Node i's parent node, -1 for none. */
  readonly parent: Int32Array;
}

const newInts = (length: number): Int32Array => new Int32Array(length);
const firstScratch = new Scratch(newInts);
const parentScratch = new Scratch(newInts);
const ancestorScratch = new Scratch(newInts);

/** Whether bytes[at, at + length) equals bytes[other, other + length). */
function sameBytes(bytes: Uint8Array, at: number, other: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (bytes[at + i] !== bytes[other + i]) return false;
  return true;
}

/**
 * Sorts the first `count` of `ids` (sortSpans: by the bytes of bytes[starts[id], starts[id] + lengths[id]), equal
 * spans in ascending id) and builds their tree. The arrays are scratch (src/compile/scratch.ts): read them before
 * the next compile.
 */
export function prefixTree(bytes: Uint8Array, starts: Uint32Array, lengths: Uint32Array, ids: Uint32Array, count: number): PrefixTree {
  sortSpans(bytes, starts, lengths, ids, count);
  const first = firstScratch.take(count);
  const parent = parentScratch.take(count);
  // The chain of nodes whose spans are prefixes of the one being added, longest last.
  const ancestors = ancestorScratch.take(count);
  let depth = 0;
  let nodes = 0;
  let previous = -1;
  for (let k = 0; k < count; k++) {
    const id = ids[k] as number;
    const start = starts[id] as number;
    const length = lengths[id] as number;
    // Equal spans sort together: the first of them makes the node.
    if (previous >= 0 && (lengths[previous] as number) === length && sameBytes(bytes, start, starts[previous] as number, length)) continue;
    previous = id;
    while (depth > 0) {
      const ancestor = ids[first[ancestors[depth - 1] as number] as number] as number;
      const ancestorLength = lengths[ancestor] as number;
      if (ancestorLength <= length && sameBytes(bytes, start, starts[ancestor] as number, ancestorLength)) break;
      depth--;
    }
    first[nodes] = k;
    parent[nodes] = depth > 0 ? (ancestors[depth - 1] as number) : -1;
    ancestors[depth++] = nodes++;
  }
  return { count: nodes, first, parent };
}
