/**
 * The piece automaton's section of a bytecode block and the work area a check of it uses: their layouts
 * are documented in src/compile/bytecode.ts ("The piece automaton", "Work area"); this writes the section
 * from a built automaton (src/compile/piece-automaton.ts) and sizes the work area as the matchers lay it out
 * (scanPieces in assembly/automaton.ts, and src/engine/automaton.ts).
 */
import {
  AUTOMATON_DEEP,
  AUTOMATON_DEEP_COUNT,
  AUTOMATON_DEEP_ENTRY_SIZE,
  AUTOMATON_EDGES,
  AUTOMATON_EDGE_BUCKET_SHIFT,
  AUTOMATON_EDGE_COUNT,
  AUTOMATON_HEADER_SIZE,
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
  AUTOMATON_WORK_BYTES,
  DEEP_PIECE,
  DEEP_SHALLOW_ANCESTOR,
  DEEP_SUBTREE_END,
  PIECE_DEEP_INDEX,
  PIECE_LENGTH,
  PIECE_PARENT,
} from '../layout.js';
import type { PieceAutomaton } from './piece-automaton.js';

/** Where each part of the work area (src/compile/bytecode.ts, "Work area") starts, after the memo, and its size. */
export interface WorkAreaLayout {
  readonly ruleNext: number;
  readonly rulePos: number;
  readonly pieceHead: number;
  readonly wheel: number;
  /** Leaves of the segment tree (a power of two, at least 2 × deep pieces + 1). */
  readonly treeLeaves: number;
  readonly treeSums: number;
  readonly treeSuffixes: number;
  readonly bytes: number;
}

/** The work area's layout for an automaton of these counts (scanPieces in assembly/automaton.ts computes the same). */
export function workAreaLayout(ruleCount: number, pieceCount: number, wheelSize: number, deepCount: number): WorkAreaLayout {
  let treeLeaves = 1;
  while (treeLeaves < 2 * deepCount + 1) treeLeaves *= 2;
  const ruleNext = 0;
  const rulePos = ruleNext + 4 * ruleCount;
  const pieceHead = rulePos + 4 * ruleCount;
  const wheel = pieceHead + 4 * pieceCount;
  const treeSums = wheel + 4 * wheelSize;
  const treeSuffixes = treeSums + 8 * treeLeaves;
  return { ruleNext, rulePos, pieceHead, wheel, treeLeaves, treeSums, treeSuffixes, bytes: treeSuffixes + 8 * treeLeaves };
}

/**
 * The shift of node numbers that makes at most half as many buckets as `entries` (at least one): a
 * bucket then holds two entries on average, and a lookup is a few steps of binary search.
 */
function bucketShift(nodeCount: number, entries: number): number {
  let shift = 0;
  while (nodeCount >>> shift > Math.max(1, entries >>> 1)) shift++;
  return shift;
}

/** Writes the buckets over `keys` (ascending; a key's node is key >>> keyShift) at `at`. */
function writeBuckets(view: DataView, at: number, keys: Uint32Array, keyShift: number, nodeCount: number, shift: number): void {
  let entry = 0;
  for (let bucket = 0; bucket < (nodeCount >>> shift) + 2; bucket++) {
    while (entry < keys.length && ((keys[entry] as number) >>> keyShift) >>> shift < bucket) entry++;
    view.setUint32(at + 4 * bucket, entry, true);
  }
}

/** Bytes the automaton section takes. */
export function automatonByteLength(automaton: PieceAutomaton): number {
  const listLength = automaton.rules.reduce((total, rule) => total + rule.pieces.length, 0);
  return (
    AUTOMATON_HEADER_SIZE +
    4 * automaton.nodes.length +
    4 * 256 +
    8 * automaton.edgeKeys.length +
    4 * ((automaton.nodes.length >>> bucketShift(automaton.nodes.length, automaton.edgeKeys.length)) + 2) +
    (4 + AUTOMATON_PIECE_ENTRY_SIZE) * automaton.pieceLengths.length +
    4 * ((automaton.nodes.length >>> bucketShift(automaton.nodes.length, automaton.pieceLengths.length)) + 2) +
    AUTOMATON_DEEP_ENTRY_SIZE * automaton.deepPieces.length +
    AUTOMATON_RULE_ENTRY_SIZE * (automaton.rules.length + 1) +
    4 * listLength
  );
}

/** Lays the automaton out at `base` (src/compile/bytecode.ts, "The piece automaton"). */
export function writeAutomaton(view: DataView, base: number, automaton: PieceAutomaton): void {
  const pieceCount = automaton.pieceLengths.length;
  const deepCount = automaton.deepPieces.length;
  const layout = workAreaLayout(automaton.rules.length, pieceCount, automaton.wheelSize, deepCount);
  const nodes = base + AUTOMATON_HEADER_SIZE;
  const root = nodes + 4 * automaton.nodes.length;
  const edges = root + 4 * 256;
  const nodeCount = automaton.nodes.length;
  const edgeShift = bucketShift(nodeCount, automaton.edgeKeys.length);
  const edgeBuckets = edges + 8 * automaton.edgeKeys.length;
  const terminals = edgeBuckets + 4 * ((nodeCount >>> edgeShift) + 2);
  const terminalShift = bucketShift(nodeCount, pieceCount);
  const terminalBuckets = terminals + 4 * pieceCount;
  const pieces = terminalBuckets + 4 * ((nodeCount >>> terminalShift) + 2);
  const deep = pieces + AUTOMATON_PIECE_ENTRY_SIZE * pieceCount;
  const rules = deep + AUTOMATON_DEEP_ENTRY_SIZE * deepCount;
  const list = rules + AUTOMATON_RULE_ENTRY_SIZE * (automaton.rules.length + 1);
  const header: [number, number][] = [
    [AUTOMATON_NODE_COUNT, automaton.nodes.length],
    [AUTOMATON_PIECE_COUNT, pieceCount],
    [AUTOMATON_EDGE_COUNT, automaton.edgeKeys.length],
    [AUTOMATON_RULE_COUNT, automaton.rules.length],
    [AUTOMATON_WHEEL_SIZE, automaton.wheelSize],
    [AUTOMATON_WORK_BYTES, layout.bytes],
    [AUTOMATON_DEEP_COUNT, deepCount],
    [AUTOMATON_NODES, nodes],
    [AUTOMATON_ROOT, root],
    [AUTOMATON_EDGES, edges],
    [AUTOMATON_TERMINALS, terminals],
    [AUTOMATON_PIECES, pieces],
    [AUTOMATON_DEEP, deep],
    [AUTOMATON_RULES, rules],
    [AUTOMATON_LIST, list],
    [AUTOMATON_EDGE_BUCKET_SHIFT, edgeShift],
    [AUTOMATON_TERMINAL_BUCKET_SHIFT, terminalShift],
  ];
  for (const [field, value] of header) view.setUint32(base + field, value, true);
  const words = (at: number, values: Uint32Array): void => {
    for (let i = 0; i < values.length; i++) view.setUint32(at + 4 * i, values[i] as number, true);
  };
  words(nodes, automaton.nodes);
  words(root, automaton.rootChildren);
  words(edges, automaton.edgeKeys);
  words(edges + 4 * automaton.edgeKeys.length, automaton.edgeChildren);
  writeBuckets(view, edgeBuckets, automaton.edgeKeys, 8, nodeCount, edgeShift);
  words(terminals, automaton.terminalNodes);
  writeBuckets(view, terminalBuckets, automaton.terminalNodes, 0, nodeCount, terminalShift);
  for (let piece = 0; piece < pieceCount; piece++) {
    const entry = pieces + piece * AUTOMATON_PIECE_ENTRY_SIZE;
    view.setUint32(entry + PIECE_PARENT, (automaton.pieceParents[piece] as number) + 1, true);
    view.setUint16(entry + PIECE_LENGTH, automaton.pieceLengths[piece] as number, true);
    view.setUint16(entry + PIECE_DEEP_INDEX, automaton.pieceDeepIndices[piece] as number, true);
  }
  for (let index = 0; index < deepCount; index++) {
    const entry = deep + index * AUTOMATON_DEEP_ENTRY_SIZE;
    view.setUint32(entry + DEEP_PIECE, automaton.deepPieces[index] as number, true);
    view.setUint32(entry + DEEP_SUBTREE_END, automaton.deepEnds[index] as number, true);
    view.setUint32(entry + DEEP_SHALLOW_ANCESTOR, (automaton.deepTops[index] as number) + 1, true);
  }
  let listAt = 0;
  automaton.rules.forEach((rule, i) => {
    const entry = rules + i * AUTOMATON_RULE_ENTRY_SIZE;
    view.setUint32(entry + AUTOMATON_RULE_INDEX, rule.ruleIndex, true);
    view.setUint32(entry + AUTOMATON_RULE_LIST, listAt, true);
    for (const piece of rule.pieces) view.setUint32(list + 4 * listAt++, piece, true);
  });
  // The closing entry: no rule, only where the last rule's list ends.
  const closing = rules + automaton.rules.length * AUTOMATON_RULE_ENTRY_SIZE;
  view.setUint32(closing + AUTOMATON_RULE_INDEX, 0xffffffff, true);
  view.setUint32(closing + AUTOMATON_RULE_LIST, listAt, true);
}
