/**
 * The piece automaton: what lets a check find the pieces of every wildcard rule in one pass over the path
 * (the format, the reasons and the way the matchers run it are in src/compile/bytecode.ts, "The piece
 * automaton"). This module builds its content, an Aho–Corasick automaton over the distinct searched pieces
 * and the tree of pieces that are suffixes of one another; the bytecode writer lays it out.
 */
import { MEMO_PIECE_BITS, NODE_FAIL_SHIFT, NODE_TAIL_END, NOT_DEEP } from '../layout.js';
import { ByteStringNumbers } from './byte-strings.js';
import { STAR } from '../bytes.js';

/** The rules' stored patterns (`*` runs folded, a final `$` taken off), in priority order, as the automaton reads them. */
export interface StoredRules {
  readonly count: number;
  /** The buffer the patterns are spans of. */
  readonly bytes: Uint8Array;
  /** Where rule `rule`'s pattern starts in `bytes`. */
  start(rule: number): number;
  /** Where it ends. */
  end(rule: number): number;
  /** Whether it has a `*`. */
  wildcard(rule: number): boolean;
  /** Whether it ended in `$` (now taken off). */
  anchored(rule: number): boolean;
}

/** Whether to build the automaton: when it pays (the default), always, or never. */
export type AutomatonMode = 'auto' | 'always' | 'never';

/** One rule the automaton decides. */
export interface AutomatonRule {
  readonly ruleIndex: number;
  /** Length of p0, which must start the path. */
  readonly firstLength: number;
  /** Length of the last piece, which must end the path, for a pattern that ended in `$`; 0 otherwise. */
  readonly suffixLength: number;
  /** The pieces searched for, in order, as piece numbers. */
  readonly pieces: readonly number[];
}

export interface PieceAutomaton {
  /** Node words: the byte into the node, the TAIL_END bit and the failure link (bytecode.ts). */
  readonly nodes: Uint32Array;
  /** The root's child for each byte, 0 for none. */
  readonly rootChildren: Uint32Array;
  /** (parent << 8 | byte) keys, ascending, and the child each leads to. */
  readonly edgeKeys: Uint32Array;
  readonly edgeChildren: Uint32Array;
  /** Pieces are numbered in sorted order, which is the order of the nodes they end at: those nodes. */
  readonly terminalNodes: Uint32Array;
  /** Per piece: its parent in the piece tree (the longest other piece that is a suffix of it), or -1. */
  readonly pieceParents: Int32Array;
  readonly pieceLengths: Uint32Array;
  /** Per piece: its number among the deep pieces, or NOT_DEEP. */
  readonly pieceDeepIndices: Uint32Array;
  /** Per deep piece, in preorder of the deep pieces' forest: the piece, the end of its subtree there, and
   * its nearest ancestor that is not deep (at depth deepPieceDepth - 1), or -1 when there is none. */
  readonly deepPieces: Uint32Array;
  readonly deepEnds: Uint32Array;
  readonly deepTops: Int32Array;
  readonly rules: readonly AutomatonRule[];
  /** A power of two larger than any distance ahead of the scan a rule can be scheduled at. */
  readonly wheelSize: number;
}

/** Failure links have the bits of a node word above NODE_FAIL_SHIFT: a larger automaton is not built (its rules are tried one by one). */
export const MAX_AUTOMATON_NODES = 2 ** (32 - NODE_FAIL_SHIFT);
/** The memo keeps a piece + 1 in MEMO_PIECE_BITS bits (bytecode.ts, "Work area"). */
const MAX_AUTOMATON_PIECES = 2 ** MEMO_PIECE_BITS - 2;
/**
 * A piece with this many pieces among its proper suffixes is "deep". Pieces that end at a path position
 * are one piece and its ancestors in the piece tree; the ancestors nobody waits for are walked past one
 * by one while they are shallow (at most DEEP_PIECE_DEPTH - 1 of them), and skipped by a segment tree
 * while they are deep. Deep pieces are long (a deep piece is longer than DEEP_PIECE_DEPTH bytes), so few,
 * and few rules can wait for them: keeping the tree for them alone keeps its updates rare.
 */
export const DEEP_PIECE_DEPTH = 32;

/**
 * What trying the searched pieces rule by rule may cost per path byte before the automaton is built: a
 * piece costs about one step per path byte plus one per 8 of its bytes (the rule-by-rule matcher compares 8
 * bytes at a time), counted here in bytes as 8 + its length. Below 1,024, a 16 KiB URL costs the rule-by-rule
 * matcher at most some 2 million steps, 2 ms in WebAssembly (one piece of 1,000 bytes; the TypeScript
 * executor, comparing byte by byte, takes some 80 ms there). Ordinary files stay below: of the bench
 * corpus's 4,231 files, 49 reach it for Googlebot (sites with hundreds of wildcard rules).
 */
export const AUTOMATON_MIN_COST = 1024;

/** The position of the first `*` of rule `rule`'s pattern (a wildcard one has one). */
function firstStar(rules: StoredRules, rule: number): number {
  let at = rules.start(rule);
  while (rules.bytes[at] !== STAR) at++;
  return at;
}

/** The position of the last `*` of rule `rule`'s pattern (a wildcard one has one). */
function lastStar(rules: StoredRules, rule: number): number {
  let at = rules.end(rule) - 1;
  while (rules.bytes[at] !== STAR) at--;
  return at;
}

/**
 * Where a wildcard pattern's searched pieces lie in `rules.bytes`: from after its first `*` to its end, or
 * to its last `*` when its last piece is a suffix test. Stars are folded and never end a pattern, so no
 * piece is empty; the end is at or before the start when there is none to search (`/a*b$`).
 */
function searchedStart(rules: StoredRules, rule: number): number {
  return firstStar(rules, rule) + 1;
}

function searchedEnd(rules: StoredRules, rule: number): number {
  return rules.anchored(rule) ? lastStar(rules, rule) : rules.end(rule);
}

/** Byte order, as the trie's layout wants it. */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return a.length - b.length;
}

function commonPrefixLength(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  let i = 0;
  while (i < length && a[i] === b[i]) i++;
  return i;
}

function nextPowerOfTwo(value: number): number {
  let power = 1;
  while (power < value) power *= 2;
  return power;
}

/** What trying the rules' searched pieces one by one costs per path byte (see AUTOMATON_MIN_COST). */
function searchedPieceCost(patterns: StoredRules): number {
  const bytes = patterns.bytes;
  let cost = 0;
  for (let rule = 0; rule < patterns.count; rule++) {
    if (!patterns.wildcard(rule)) continue;
    const start = searchedStart(patterns, rule);
    const end = searchedEnd(patterns, rule);
    for (let i = start; i < end; i++) cost += bytes[i] === STAR ? 8 : 1;
    if (end > start) cost += 8;
  }
  return cost;
}

/**
 * Whether 'auto' builds an automaton for these rules: trying them one by one would cost too much. A block
 * without an index (the scan tier, src/compile/bytecode.ts) is written only for rules where it would not.
 */
export function wantsAutomaton(patterns: StoredRules): boolean {
  return searchedPieceCost(patterns) >= AUTOMATON_MIN_COST;
}

/**
 * The automaton for these rules (in priority order), or undefined when no rule has a searched piece, when
 * `mode` is 'auto' and trying them one by one is cheap enough, or when it would exceed MAX_AUTOMATON_NODES.
 */
export function buildPieceAutomaton(
  patterns: StoredRules,
  mode: AutomatonMode,
  deepPieceDepth = DEEP_PIECE_DEPTH,
): PieceAutomaton | undefined {
  if (mode === 'never') return undefined;
  const bytes = patterns.bytes;
  // What trying the searched pieces one by one would cost, before any work goes into the automaton: most
  // files stop here.
  const cost = searchedPieceCost(patterns);
  if (cost === 0 || (mode === 'auto' && cost < AUTOMATON_MIN_COST)) return undefined;
  // The rules with searched pieces, and the distinct pieces, numbered in order of appearance for now.
  const pieceNumbers = new ByteStringNumbers();
  const rules: { ruleIndex: number; firstLength: number; suffixLength: number; pieces: number[] }[] = [];
  for (let ruleIndex = 0; ruleIndex < patterns.count; ruleIndex++) {
    if (!patterns.wildcard(ruleIndex)) continue;
    const searchFrom = searchedStart(patterns, ruleIndex);
    const searchTo = searchedEnd(patterns, ruleIndex);
    if (searchTo <= searchFrom) continue;
    const numbers: number[] = [];
    let start = searchFrom;
    for (let i = start; i <= searchTo; i++) {
      if (i < searchTo && bytes[i] !== STAR) continue;
      numbers.push(pieceNumbers.numberOf(bytes, start, i));
      start = i + 1;
    }
    const patternEnd = patterns.end(ruleIndex);
    const suffixLength = patterns.anchored(ruleIndex) ? patternEnd - lastStar(patterns, ruleIndex) - 1 : 0;
    rules.push({ ruleIndex, firstLength: searchFrom - 1 - patterns.start(ruleIndex), suffixLength, pieces: numbers });
  }

  // The trie, laid out by piece in sorted order: each piece adds its tail, the nodes past its common prefix
  // with the piece before it. A prefix sorts before its extensions, so every tail has at least one node.
  const pieceTexts = Array.from({ length: pieceNumbers.count }, (_, number) => pieceNumbers.text(number));
  const sorted = pieceTexts
    .map((_, number) => number)
    .sort((a, b) => compareBytes(pieceTexts[a] as Uint8Array, pieceTexts[b] as Uint8Array));
  let nodeCount = 1;
  for (const number of sorted) nodeCount += (pieceTexts[number] as Uint8Array).length;
  // An upper bound so far (tails share prefixes); the arrays are cut to size below.
  const labels = new Uint8Array(nodeCount);
  const tailEnds = new Uint8Array(nodeCount);
  tailEnds[0] = 1;
  const rootChildren = new Uint32Array(256);
  const edges: [key: number, child: number][] = [];
  const terminalOfNumber = new Uint32Array(pieceTexts.length);
  let maxLength = 0;
  for (const text of pieceTexts) maxLength = Math.max(maxLength, text.length);
  // The nodes along the previous piece, by depth.
  const path = new Uint32Array(maxLength + 1);
  let previous: Uint8Array = new Uint8Array(0);
  let next = 1;
  for (const number of sorted) {
    const text = pieceTexts[number] as Uint8Array;
    const shared = commonPrefixLength(previous, text);
    const parent = path[shared] as number;
    const byte = text[shared] as number;
    if (parent === 0) rootChildren[byte] = next;
    else edges.push([parent * 256 + byte, next]);
    for (let depth = shared; depth < text.length; depth++) {
      labels[next] = text[depth] as number;
      path[depth + 1] = next;
      next++;
    }
    tailEnds[next - 1] = 1;
    terminalOfNumber[number] = next - 1;
    previous = text;
  }
  nodeCount = next;
  if (nodeCount > MAX_AUTOMATON_NODES || pieceTexts.length > MAX_AUTOMATON_PIECES) return undefined;
  edges.sort((a, b) => a[0] - b[0]);
  const edgeChild = new Map<number, number>(edges);

  /** The child of `node` along `byte`, or -1. */
  const childOf = (node: number, byte: number): number => {
    if (node === 0) return rootChildren[byte] || -1;
    if (tailEnds[node] === 0 && labels[node + 1] === byte) return node + 1;
    return edgeChild.get(node * 256 + byte) ?? -1;
  };
  // Children lists for the breadth-first walk: the next node inside a tail, and the edges.
  const extraChildren = new Map<number, number[]>([[0, Array.from(rootChildren).filter((child) => child !== 0)]]);
  for (const [key, child] of edges) {
    const parent = Math.floor(key / 256);
    const list = extraChildren.get(parent);
    if (list === undefined) extraChildren.set(parent, [child]);
    else list.push(child);
  }

  // Failure links, breadth first (a node's link is shallower than the node), and for each node the deepest
  // piece end on its proper failure chain: its parent in the piece tree when the node ends a piece.
  const fail = new Uint32Array(nodeCount);
  const suffixPiece = new Uint32Array(nodeCount);
  const queue = new Uint32Array(nodeCount);
  let queueEnd = 0;
  for (const child of extraChildren.get(0) ?? []) queue[queueEnd++] = child;
  const visit = (node: number, child: number): void => {
    const byte = labels[child] as number;
    let link = fail[node] as number;
    let target = -1;
    // Children of the root keep link 0; deeper nodes follow the parent's failure chain.
    while (node !== 0) {
      target = childOf(link, byte);
      if (target >= 0 || link === 0) break;
      link = fail[link] as number;
    }
    const childFail = target >= 0 ? target : 0;
    fail[child] = childFail;
    suffixPiece[child] = childFail !== 0 && tailEnds[childFail] === 1 ? childFail : (suffixPiece[childFail] as number);
    queue[queueEnd++] = child;
  };
  for (let head = 0; head < queueEnd; head++) {
    const node = queue[head] as number;
    if (tailEnds[node] === 0) visit(node, node + 1);
    for (const child of extraChildren.get(node) ?? []) visit(node, child);
  }

  // The piece tree: each piece's parent is the longest other piece that is a suffix of it. Pieces are
  // numbered in sorted order, so that the piece ending at a node is a binary search over terminalNodes.
  const pieceCount = pieceTexts.length;
  const terminalNodes = Uint32Array.from(sorted, (number) => terminalOfNumber[number] as number);
  const pieceOfTerminal = new Int32Array(nodeCount);
  terminalNodes.forEach((terminal, piece) => {
    pieceOfTerminal[terminal] = piece;
  });
  const pieceParents = new Int32Array(pieceCount);
  const pieceLengths = new Uint32Array(pieceCount);
  for (let piece = 0; piece < pieceCount; piece++) {
    const parentNode = suffixPiece[terminalNodes[piece] as number] as number;
    pieceParents[piece] = parentNode === 0 ? -1 : (pieceOfTerminal[parentNode] as number);
    pieceLengths[piece] = (pieceTexts[sorted[piece] as number] as Uint8Array).length;
  }
  // Depths, shortest pieces first: a parent is shorter than its child.
  const byLength = Array.from(pieceLengths.keys()).sort((a, b) => (pieceLengths[a] as number) - (pieceLengths[b] as number));
  const depths = new Uint32Array(pieceCount);
  for (const piece of byLength) {
    const parent = pieceParents[piece] as number;
    depths[piece] = parent < 0 ? 0 : (depths[parent] as number) + 1;
  }
  // The deep pieces' forest (a deep piece's parent, when deep too, is its parent there), in preorder.
  const deepChildren = new Map<number, number[]>();
  for (let piece = 0; piece < pieceCount; piece++) {
    if ((depths[piece] as number) < deepPieceDepth) continue;
    const parent = pieceParents[piece] as number;
    const key = parent >= 0 && (depths[parent] as number) >= deepPieceDepth ? parent : -1;
    const list = deepChildren.get(key);
    if (list === undefined) deepChildren.set(key, [piece]);
    else list.push(piece);
  }
  const deepList: number[] = [];
  const deepEndList: number[] = [];
  const deepTopList: number[] = [];
  const pieceDeepIndices = new Uint32Array(pieceCount).fill(NOT_DEEP);
  const walk: [piece: number, childIndex: number, top: number][] = [[-1, 0, -1]];
  while (walk.length > 0) {
    const frame = walk[walk.length - 1] as [number, number, number];
    const children = deepChildren.get(frame[0]) ?? [];
    if (frame[1] < children.length) {
      const child = children[frame[1]++] as number;
      const index = deepList.length;
      pieceDeepIndices[child] = index;
      // A root of the deep forest has depth deepPieceDepth: its parent (if any) is the top of every piece below.
      const top = frame[0] < 0 ? (pieceParents[child] as number) : frame[2];
      deepList.push(child);
      deepEndList.push(0);
      deepTopList.push(top);
      walk.push([child, 0, top]);
    } else {
      walk.pop();
      if (frame[0] >= 0) deepEndList[pieceDeepIndices[frame[0]] as number] = deepList.length;
    }
  }
  if (deepList.length >= NOT_DEEP) return undefined;

  const nodes = new Uint32Array(nodeCount);
  for (let node = 0; node < nodeCount; node++) {
    nodes[node] = (labels[node] as number) | (tailEnds[node] === 1 ? NODE_TAIL_END : 0) | ((fail[node] as number) << NODE_FAIL_SHIFT);
  }
  const rankOf = new Uint32Array(pieceCount);
  sorted.forEach((number, rank) => {
    rankOf[number] = rank;
  });
  const automatonRules = rules.map((rule) => ({ ...rule, pieces: rule.pieces.map((number) => rankOf[number] as number) }));
  // The farthest ahead a rule is scheduled: p0 then its first piece, or any one piece.
  let farthest = 0;
  for (const rule of automatonRules) {
    farthest = Math.max(farthest, rule.firstLength + (pieceLengths[rule.pieces[0] as number] as number));
    for (const piece of rule.pieces) farthest = Math.max(farthest, pieceLengths[piece] as number);
  }
  return {
    nodes,
    rootChildren,
    edgeKeys: Uint32Array.from(edges, ([key]) => key),
    edgeChildren: Uint32Array.from(edges, ([, child]) => child),
    terminalNodes,
    pieceParents,
    pieceLengths,
    pieceDeepIndices,
    deepPieces: Uint32Array.from(deepList),
    deepEnds: Uint32Array.from(deepEndList),
    deepTops: Int32Array.from(deepTopList),
    rules: automatonRules,
    wheelSize: nextPowerOfTwo(farthest + 1),
  };
}
