/**
 * The piece automaton (src/compile/bytecode.ts, "The piece automaton" and "Work area") in TypeScript: a
 * line-for-line port of its WebAssembly twin (assembly/automaton.ts, scanPieces and what it calls), so that a
 * hostile file costs the TypeScript matcher (src/engine/matcher.ts) no more than linear time either. Being a
 * port, it shares its algorithm with the WebAssembly matcher: the differential tests hold both to the rule
 * table read rule by rule (decideRuleByRule) and to a regular-expression oracle, which share nothing with it.
 */
import { workAreaLayout } from '../compile/automaton-section.js';
import {
  AUTOMATON_DEEP,
  AUTOMATON_DEEP_COUNT,
  AUTOMATON_DEEP_ENTRY_SIZE,
  AUTOMATON_EDGES,
  AUTOMATON_EDGE_BUCKET_SHIFT,
  AUTOMATON_EDGE_COUNT,
  AUTOMATON_LIST,
  AUTOMATON_NODES,
  AUTOMATON_NODE_COUNT,
  AUTOMATON_PIECES,
  AUTOMATON_PIECE_COUNT,
  AUTOMATON_PIECE_ENTRY_SIZE,
  AUTOMATON_ROOT,
  AUTOMATON_RULES,
  AUTOMATON_RULE_COUNT,
  AUTOMATON_RULE_ENTRY_SIZE,
  AUTOMATON_RULE_INDEX,
  AUTOMATON_RULE_LIST,
  AUTOMATON_TERMINALS,
  AUTOMATON_TERMINAL_BUCKET_SHIFT,
  AUTOMATON_WHEEL_SIZE,
  DEEP_PIECE,
  DEEP_SHALLOW_ANCESTOR,
  DEEP_SUBTREE_END,
  HEADER_AUTOMATON,
  HEADER_FLAGS,
  HEADER_RULE_COUNT,
  HEADER_SIZE,
  MEMO_PIECE_BITS,
  MEMO_TAGS,
  NODE_FAIL_SHIFT,
  NODE_LABEL_MASK,
  NODE_TAIL_END,
  NOT_DEEP,
  NO_MATCH,
  PIECE_DEEP_INDEX,
  PIECE_LENGTH,
  PIECE_PARENT,
  RULE_END_ANCHORED,
  RULE_ENTRY_SIZE,
  RULE_FLAGS,
  RULE_PATTERN_LENGTH,
  RULE_PATTERN_OFFSET,
} from '../layout.js';
import { STAR } from '../bytes.js';

/** A block's automaton, read once into arrays, with the work area its checks use. */
const automata = new WeakMap<Uint8Array, PieceScan | null>();

export function automatonOf(block: Uint8Array, view: DataView): PieceScan | undefined {
  let scan = automata.get(block);
  if (scan === undefined) {
    const offset = view.getUint32(HEADER_AUTOMATON, true);
    scan = offset === 0 ? null : new PieceScan(block, view, offset);
    automata.set(block, scan);
  }
  return scan ?? undefined;
}

function words(view: DataView, at: number, count: number): Uint32Array {
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) out[i] = view.getUint32(at + 4 * i, true);
  return out;
}

/** The automaton's tables and the state of one check; a check leaves the state as it found it. */
export class PieceScan {
  private readonly block: Uint8Array;
  private readonly nodes: Uint32Array;
  private readonly root: Uint32Array;
  private readonly edgeKeys: Uint32Array;
  private readonly edgeChildren: Uint32Array;
  private readonly edgeBuckets: Uint32Array;
  private readonly edgeBucketShift: number;
  private readonly terminalNodes: Uint32Array;
  private readonly terminalBuckets: Uint32Array;
  private readonly terminalBucketShift: number;
  /** Per piece: its parent in the piece tree + 1 (0 for none), its length, its deep index or NOT_DEEP. */
  private readonly parents: Uint32Array;
  private readonly lengths: Uint32Array;
  private readonly deepIndices: Uint32Array;
  /** Per deep piece (deep index): the piece, the end of its subtree, its nearest ancestor not deep + 1. */
  private readonly deepPieces: Uint32Array;
  private readonly deepEnds: Uint32Array;
  private readonly deepTops: Uint32Array;
  /** Per automaton rule: its rule index, where its list starts (one more entry closes the last list), its
   * pattern's offset and length in the rule table, and whether it ends in `$` (its last piece a suffix). */
  private readonly ruleIndices: Uint32Array;
  private readonly listStarts: Uint32Array;
  private readonly anchored: Uint8Array;
  private readonly patternOffsets: Uint32Array;
  private readonly patternLengths: Uint32Array;
  private readonly list: Uint32Array;
  private readonly wheelMask: number;

  // The work area (bytecode.ts): zero between checks, except the tagged memo.
  private readonly memo: Uint32Array;
  private memoTag = 0;
  private readonly ruleNext: Uint32Array;
  private readonly rulePos: Uint32Array;
  private readonly pieceHead: Uint32Array;
  private readonly wheel: Uint32Array;
  private readonly treeLeaves: number;
  private readonly treeSums: Int32Array;
  private readonly treeSuffixes: Int32Array;
  /** Pieces someone waits for right now: deep ones, and the others. */
  private markedDeep = 0;
  private markedShallow = 0;

  constructor(block: Uint8Array, view: DataView, at: number) {
    this.block = block;
    const field = (offset: number): number => view.getUint32(at + offset, true);
    const nodeCount = field(AUTOMATON_NODE_COUNT);
    const pieceCount = field(AUTOMATON_PIECE_COUNT);
    const edgeCount = field(AUTOMATON_EDGE_COUNT);
    const ruleCount = field(AUTOMATON_RULE_COUNT);
    const wheelSize = field(AUTOMATON_WHEEL_SIZE);
    const deepCount = field(AUTOMATON_DEEP_COUNT);
    this.nodes = words(view, field(AUTOMATON_NODES), nodeCount);
    this.root = words(view, field(AUTOMATON_ROOT), 256);
    this.edgeKeys = words(view, field(AUTOMATON_EDGES), edgeCount);
    this.edgeChildren = words(view, field(AUTOMATON_EDGES) + 4 * edgeCount, edgeCount);
    this.edgeBucketShift = field(AUTOMATON_EDGE_BUCKET_SHIFT);
    this.edgeBuckets = words(view, field(AUTOMATON_EDGES) + 8 * edgeCount, (nodeCount >>> this.edgeBucketShift) + 2);
    this.terminalNodes = words(view, field(AUTOMATON_TERMINALS), pieceCount);
    this.terminalBucketShift = field(AUTOMATON_TERMINAL_BUCKET_SHIFT);
    this.terminalBuckets = words(view, field(AUTOMATON_TERMINALS) + 4 * pieceCount, (nodeCount >>> this.terminalBucketShift) + 2);
    this.parents = new Uint32Array(pieceCount);
    this.lengths = new Uint32Array(pieceCount);
    this.deepIndices = new Uint32Array(pieceCount);
    for (let piece = 0; piece < pieceCount; piece++) {
      const entry = field(AUTOMATON_PIECES) + piece * AUTOMATON_PIECE_ENTRY_SIZE;
      this.parents[piece] = view.getUint32(entry + PIECE_PARENT, true);
      this.lengths[piece] = view.getUint16(entry + PIECE_LENGTH, true);
      this.deepIndices[piece] = view.getUint16(entry + PIECE_DEEP_INDEX, true);
    }
    this.deepPieces = new Uint32Array(deepCount);
    this.deepEnds = new Uint32Array(deepCount);
    this.deepTops = new Uint32Array(deepCount);
    for (let index = 0; index < deepCount; index++) {
      const entry = field(AUTOMATON_DEEP) + index * AUTOMATON_DEEP_ENTRY_SIZE;
      this.deepPieces[index] = view.getUint32(entry + DEEP_PIECE, true);
      this.deepEnds[index] = view.getUint32(entry + DEEP_SUBTREE_END, true);
      this.deepTops[index] = view.getUint32(entry + DEEP_SHALLOW_ANCESTOR, true);
    }
    const rules = field(AUTOMATON_RULES);
    this.ruleIndices = new Uint32Array(ruleCount);
    this.listStarts = new Uint32Array(ruleCount + 1);
    this.anchored = new Uint8Array(ruleCount);
    this.patternOffsets = new Uint32Array(ruleCount);
    this.patternLengths = new Uint32Array(ruleCount);
    for (let rule = 0; rule <= ruleCount; rule++) {
      const entry = rules + rule * AUTOMATON_RULE_ENTRY_SIZE;
      this.listStarts[rule] = view.getUint32(entry + AUTOMATON_RULE_LIST, true);
      if (rule === ruleCount) break;
      const ruleIndex = view.getUint32(entry + AUTOMATON_RULE_INDEX, true);
      const tableEntry = HEADER_SIZE + ruleIndex * RULE_ENTRY_SIZE;
      this.ruleIndices[rule] = ruleIndex;
      this.patternOffsets[rule] = view.getUint32(tableEntry + RULE_PATTERN_OFFSET, true);
      this.patternLengths[rule] = view.getUint16(tableEntry + RULE_PATTERN_LENGTH, true);
      this.anchored[rule] = view.getUint16(tableEntry + RULE_FLAGS, true) & RULE_END_ANCHORED ? 1 : 0;
    }
    this.list = words(view, field(AUTOMATON_LIST), this.listStarts[ruleCount] as number);
    this.wheelMask = wheelSize - 1;
    const layout = workAreaLayout(ruleCount, pieceCount, wheelSize, deepCount);
    this.memo = new Uint32Array(nodeCount);
    this.ruleNext = new Uint32Array(ruleCount);
    this.rulePos = new Uint32Array(ruleCount);
    this.pieceHead = new Uint32Array(pieceCount);
    this.wheel = new Uint32Array(wheelSize);
    this.treeLeaves = layout.treeLeaves;
    this.treeSums = new Int32Array(2 * layout.treeLeaves);
    this.treeSuffixes = new Int32Array(2 * layout.treeLeaves);
  }

  // The check under way: rules still waiting (in the wheel or a waiting list), and the best rule matched
  // so far (an automaton rule number, -1 for none).
  private alive = 0;
  private found = -1;

  /**
   * The highest-priority automaton rule below `limit` (a rule index) that matches `path`, or NO_MATCH.
   * Every rule whose p0 starts the path waits for its first searched piece; one pass over the path moves
   * each rule on at the leftmost occurrence of the piece it waits for (see bytecode.ts).
   */
  scanPieces(path: Uint8Array, limit: number): number {
    this.memoTag++;
    if (this.memoTag === MEMO_TAGS) {
      this.memo.fill(0);
      this.memoTag = 1;
    }
    const length = path.length;
    this.alive = 0;
    this.found = -1;
    let considered = 0;
    for (; considered < this.ruleIndices.length; considered++) {
      if ((this.ruleIndices[considered] as number) >= limit) break;
      const first = this.firstPieceEnd(considered, path);
      if (first >= 0 && this.schedule(considered, this.listStarts[considered] as number, first, length)) this.alive++;
    }
    let state = 0;
    for (let i = 0; i < length && this.alive > 0; i++) {
      // Rules whose piece can end here, at the earliest, start waiting for it.
      const slot = i & this.wheelMask;
      let waiting = this.wheel[slot] as number;
      this.wheel[slot] = 0;
      while (waiting !== 0) {
        const rule = waiting - 1;
        waiting = this.ruleNext[rule] as number;
        if (this.found >= 0 && rule > this.found) {
          this.retire(rule);
          this.alive--;
          continue;
        }
        const piece = this.list[(this.rulePos[rule] as number) - 1] as number;
        const first = this.pieceHead[piece] as number;
        if (first === 0) this.markPiece(piece, 1);
        this.ruleNext[rule] = first;
        this.pieceHead[piece] = rule + 1;
      }
      state = this.step(state, path[i] as number);
      if (this.markedDeep + this.markedShallow === 0) continue;
      let piece = this.deepestPiece(state);
      if (piece < 0) continue;
      // The pieces ending here are this one and its ancestors in the piece tree: each that someone waits
      // for moves its rules on. Deep ones are found through the segment tree, the others one by one.
      const deep = this.deepIndices[piece] as number;
      if (deep !== NOT_DEEP) {
        if (this.markedDeep > 0) {
          for (let at = this.nearestMarkedDeep(deep); at >= 0; at = this.nearestMarkedDeep(deep)) {
            this.flush(this.deepPieces[at] as number, i, path);
          }
        }
        piece = (this.deepTops[deep] as number) - 1;
      }
      if (this.markedShallow === 0) continue;
      for (; piece >= 0; piece = (this.parents[piece] as number) - 1) {
        if (this.pieceHead[piece] !== 0) this.flush(piece, i, path);
      }
    }
    this.cleanUp(considered);
    return this.found < 0 ? NO_MATCH : (this.ruleIndices[this.found] as number);
  }

  /** `piece` ended at path position `end`: every rule waiting for it moves on (or is done). */
  private flush(piece: number, end: number, path: Uint8Array): void {
    let rules = this.pieceHead[piece] as number;
    this.pieceHead[piece] = 0;
    this.markPiece(piece, -1);
    while (rules !== 0) {
      const rule = rules - 1;
      rules = this.ruleNext[rule] as number;
      // The list position after the piece just found: the next piece to wait for, or the list's end.
      const position = this.rulePos[rule] as number;
      if (this.found >= 0 && rule > this.found) {
        this.retire(rule);
        this.alive--;
      } else if (!this.schedule(rule, position, end + 1, path.length)) {
        this.alive--;
        if (position === this.listStarts[rule + 1] && this.matchesSuffix(rule, path, end + 1)) this.found = rule;
      }
    }
  }

  /**
   * Makes `rule` wait for the piece at list position `position`, found at or after path position `start`;
   * false when its list is done or the piece can no longer fit in the path (the rule then waits for nothing).
   */
  private schedule(rule: number, position: number, start: number, length: number): boolean {
    if (position === this.listStarts[rule + 1]) {
      this.retire(rule);
      return false;
    }
    const earliest = start + (this.lengths[this.list[position] as number] as number) - 1;
    if (earliest >= length) {
      this.retire(rule);
      return false;
    }
    this.rulePos[rule] = position + 1;
    const slot = earliest & this.wheelMask;
    this.ruleNext[rule] = this.wheel[slot] as number;
    this.wheel[slot] = rule + 1;
    return true;
  }

  /** Where p0 of the rule ends if it starts the path (p0 runs up to the pattern's first `*`), or -1. */
  private firstPieceEnd(rule: number, path: Uint8Array): number {
    const pattern = this.patternOffsets[rule] as number;
    for (let i = 0; ; i++) {
      const byte = this.block[pattern + i] as number;
      if (byte === STAR) return i;
      if (i >= path.length || path[i] !== byte) return -1;
    }
  }

  /** After the last searched piece ended before `from`: the suffix piece (if any) ends the path after it. */
  private matchesSuffix(rule: number, path: Uint8Array, from: number): boolean {
    if (this.anchored[rule] === 0) return true;
    const end = (this.patternOffsets[rule] as number) + (this.patternLengths[rule] as number);
    const suffix = end - 1 - this.block.lastIndexOf(STAR, end - 1);
    const start = path.length - suffix;
    if (start < from) return false;
    for (let i = 0; i < suffix; i++) if (path[start + i] !== this.block[end - suffix + i]) return false;
    return true;
  }

  private retire(rule: number): void {
    this.rulePos[rule] = 0;
    this.ruleNext[rule] = 0;
  }

  /** Rules still waiting when the pass ended: their pieces unmarked, their state zeroed. */
  private cleanUp(considered: number): void {
    for (let rule = 0; rule < considered; rule++) {
      const position = this.rulePos[rule] as number;
      if (position === 0) continue;
      const piece = this.list[position - 1] as number;
      if (this.pieceHead[piece] !== 0) {
        this.pieceHead[piece] = 0;
        this.markPiece(piece, -1);
      }
      this.retire(rule);
    }
  }

  /** The Aho–Corasick transition: the deepest node whose text ends the path read so far. */
  private step(from: number, byte: number): number {
    let node = from;
    for (;;) {
      const word = this.nodes[node] as number;
      if ((word & NODE_TAIL_END) === 0 && ((this.nodes[node + 1] as number) & NODE_LABEL_MASK) === byte) return node + 1;
      if (node === 0) return this.root[byte] as number;
      const child = this.edge(node, byte);
      if (child !== 0) return child;
      node = word >>> NODE_FAIL_SHIFT;
    }
  }

  /** The child of `node` along `byte` that starts a tail, or 0: a binary search within the node's bucket. */
  private edge(node: number, byte: number): number {
    const key = node * 256 + byte;
    const bucket = node >>> this.edgeBucketShift;
    let low = this.edgeBuckets[bucket] as number;
    let high = this.edgeBuckets[bucket + 1] as number;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.edgeKeys[middle] as number) < key) low = middle + 1;
      else high = middle;
    }
    return this.edgeKeys[low] === key ? (this.edgeChildren[low] as number) : 0;
  }

  /** The deepest piece ending at `node` (the nearest tail end on its failure chain), or -1; memoized. */
  private deepestPiece(node: number): number {
    let at = node;
    let piece = -1;
    while (at !== 0) {
      const memo = this.memo[at] as number;
      if (memo >>> MEMO_PIECE_BITS === this.memoTag) {
        piece = (memo & ((1 << MEMO_PIECE_BITS) - 1)) - 1;
        break;
      }
      const word = this.nodes[at] as number;
      if ((word & NODE_TAIL_END) !== 0) {
        piece = this.pieceEndingAt(at);
        break;
      }
      at = word >>> NODE_FAIL_SHIFT;
    }
    // Every node passed on the way has the same answer.
    const value = ((this.memoTag << MEMO_PIECE_BITS) | (piece + 1)) >>> 0;
    for (let on = node; on !== at; on = (this.nodes[on] as number) >>> NODE_FAIL_SHIFT) this.memo[on] = value;
    if (at !== 0) this.memo[at] = value;
    return piece;
  }

  /** The piece that ends at a tail end: pieces are numbered in the order of their tails. */
  private pieceEndingAt(terminal: number): number {
    const bucket = terminal >>> this.terminalBucketShift;
    let low = this.terminalBuckets[bucket] as number;
    let high = this.terminalBuckets[bucket + 1] as number;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.terminalNodes[middle] as number) < terminal) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Counts a piece as waited for (+1) or no longer (-1); a deep one gets its parentheses in the tree. */
  private markPiece(piece: number, delta: 1 | -1): void {
    const deep = this.deepIndices[piece] as number;
    if (deep === NOT_DEEP) {
      this.markedShallow += delta;
      return;
    }
    this.markedDeep += delta;
    this.addToLeaf(2 * deep + 1, delta);
    this.addToLeaf(2 * (this.deepEnds[deep] as number), -delta);
  }

  private addToLeaf(leaf: number, delta: number): void {
    let node = this.treeLeaves + leaf;
    const sum = (this.treeSums[node] as number) + delta;
    this.treeSums[node] = sum;
    this.treeSuffixes[node] = Math.max(0, sum);
    for (node >>= 1; node >= 1; node >>= 1) {
      const left = 2 * node;
      const right = left + 1;
      this.treeSums[node] = (this.treeSums[left] as number) + (this.treeSums[right] as number);
      this.treeSuffixes[node] = Math.max(
        this.treeSuffixes[right] as number,
        (this.treeSums[right] as number) + (this.treeSuffixes[left] as number),
      );
    }
  }

  /**
   * The nearest ancestor of a deep piece (itself included) among the deep pieces someone waits for, as a
   * deep index, or -1: the last leaf at or before its opening parenthesis from which the sum up to it is
   * positive (subtrees that closed before it sum to zero; only enclosing ones count).
   */
  private nearestMarkedDeep(deep: number): number {
    let node = this.treeLeaves + 2 * deep + 1;
    let sum = this.treeSums[node] as number;
    if (sum >= 1) return deep;
    for (; node > 1; node >>= 1) {
      if ((node & 1) === 0) continue;
      const left = node - 1;
      if (sum + (this.treeSuffixes[left] as number) >= 1) {
        // The rightmost leaf of `left` from which the suffix sum reaches 1.
        let at = left;
        while (at < this.treeLeaves) {
          const right = 2 * at + 1;
          if (sum + (this.treeSuffixes[right] as number) >= 1) at = right;
          else {
            sum += this.treeSums[right] as number;
            at = 2 * at;
          }
        }
        return (at - this.treeLeaves - 1) >> 1;
      }
      sum += this.treeSums[left] as number;
    }
    return -1;
  }
}
