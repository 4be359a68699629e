// The piece automaton (src/compile/bytecode.ts, "The piece automaton" and "Work area"): decides, in one pass
// over the path, the wildcard rules of a ruleset whose patterns would cost the rule-by-rule matcher much.
// Its per-check state lives in the work area the host hands over once (setWorkArea).

import {
  AUTOMATON_DEEP, AUTOMATON_DEEP_COUNT, AUTOMATON_DEEP_ENTRY_SIZE, AUTOMATON_EDGE_BUCKET_SHIFT, AUTOMATON_EDGE_COUNT,
  AUTOMATON_EDGES, AUTOMATON_LIST, AUTOMATON_NODE_COUNT, AUTOMATON_NODES, AUTOMATON_PIECE_COUNT,
  AUTOMATON_PIECE_ENTRY_SIZE, AUTOMATON_PIECES, AUTOMATON_ROOT, AUTOMATON_RULE_COUNT, AUTOMATON_RULE_ENTRY_SIZE,
  AUTOMATON_RULE_INDEX, AUTOMATON_RULE_LIST, AUTOMATON_RULES, AUTOMATON_TERMINAL_BUCKET_SHIFT, AUTOMATON_TERMINALS,
  AUTOMATON_WHEEL_SIZE, AUTOMATON_WORK_BYTES, DEEP_PIECE, DEEP_SHALLOW_ANCESTOR, DEEP_SUBTREE_END, HEADER_AUTOMATON,
  HEAD_AUTOMATON_RULE, HEAD_ENTRY_SIZE, HEAD_LENGTH, HEAD_LIST_START, HEAD_PARENT, HEADS_COUNT, HEADS_HEADER_SIZE,
  HEADS_RULE_COUNT, HEADER_SIZE, MEMO_PIECE_BITS, PATTERN_LIST_ENTRY_SIZE, MEMO_TAGS, NODE_FAIL_SHIFT, NODE_LABEL_MASK, NODE_TAIL_END, NOT_DEEP,
  PIECE_DEEP_INDEX, PIECE_LENGTH, PIECE_PARENT, RULE_END_ANCHORED, RULE_ENTRY_SIZE, RULE_FLAGS,
  RULE_PATTERN_LENGTH, RULE_PATTERN_OFFSET,
} from './layout';
import { bytesEqual } from './scan';
import { STAR } from './bytes';

// The work area the host handed in with setWorkArea: the memo (memoCapacity u32), then workCapacity bytes.
let workArea: usize = 0;
let memoCapacity: u32 = 0;
let workCapacity: u32 = 0;
// The tag of the current check's memo words, 1 … MEMO_TAGS - 1.
let memoTag: u32 = 0;

/**
 * Hands the matcher its work area: `pointer` to memoNodes × 4 + bytes zeroed bytes that stay the matcher's
 * (every check leaves them as it found them, bar the tagged memo). A ruleset whose automaton needs more is
 * decided rule by rule instead.
 */
export function setWorkArea(pointer: usize, memoNodes: u32, bytes: u32): void {
  workArea = pointer;
  memoCapacity = memoNodes;
  workCapacity = bytes;
  memoTag = 0;
}

/** The ruleset's automaton, or 0 when it has none or the work area is too small for it. */
export function automatonOf(ruleset: usize): usize {
  const offset = load<u32>(ruleset + HEADER_AUTOMATON);
  if (offset == 0) return 0;
  const automaton = ruleset + offset;
  if (load<u32>(automaton + AUTOMATON_NODE_COUNT) > memoCapacity) return 0;
  if (load<u32>(automaton + AUTOMATON_WORK_BYTES) > workCapacity) return 0;
  return automaton;
}

// Where the current check's tables and state are (globals, set by scanPieces: arguments would be many).
let nodes: usize = 0;
let rootChildren: usize = 0;
let edgeKeys: usize = 0;
let edgeCount: u32 = 0;
let edgeBuckets: usize = 0;
let edgeBucketShift: u32 = 0;
let terminals: usize = 0;
let terminalBuckets: usize = 0;
let terminalBucketShift: u32 = 0;
let pieceCount: u32 = 0;
let pieces: usize = 0;
let deepPieces: usize = 0;
let automatonRules: usize = 0;
let pieceList: usize = 0;
let wheelMask: u32 = 0;
let ruleNext: usize = 0;
let rulePos: usize = 0;
let pieceHead: usize = 0;
let wheel: usize = 0;
let treeLeaves: u32 = 0;
let treeSums: usize = 0;
let treeSuffixes: usize = 0;
// Pieces someone waits for right now, deep ones and the others; rules still waiting (in the wheel or a
// list); the best automaton rule matched so far (-1: none).
let markedDeep: u32 = 0;
let markedShallow: u32 = 0;
let alive: u32 = 0;
let found: i32 = -1;
// The check under way: its ruleset and path.
let checkRuleset: usize = 0;
let checkPath: usize = 0;
let checkLength: usize = 0;

/**
 * Places the parts of the work area for an automaton of these counts (pieceCount set), after the memo: the
 * layout that workAreaLayout() in src/compile/automaton-section.ts computes and sizes AUTOMATON_WORK_BYTES by.
 * Inlined into scanPieces, which runs it per check.
 */
// @ts-ignore: decorator
@inline
function layOutWorkArea(ruleCount: u32, wheelSize: u32, deepCount: u32): void {
  ruleNext = workArea + (<usize>memoCapacity << 2);
  rulePos = ruleNext + (<usize>ruleCount << 2);
  pieceHead = rulePos + (<usize>ruleCount << 2);
  wheel = pieceHead + (<usize>pieceCount << 2);
  treeLeaves = 1;
  while (treeLeaves < 2 * deepCount + 1) treeLeaves <<= 1;
  treeSums = wheel + (<usize>wheelSize << 2);
  treeSuffixes = treeSums + (<usize>treeLeaves << 3);
}

/**
 * The bytes of the work area, past the memo, that scanPieces uses for an automaton of these counts: what
 * test/package/layout.test.ts holds workAreaLayout() in src/compile/automaton-section.ts to. No check is
 * under way when the host asks, and the next one lays the area out again.
 */
export function workAreaBytes(ruleCount: u32, searchedPieces: u32, wheelSize: u32, deepCount: u32): u32 {
  pieceCount = searchedPieces;
  layOutWorkArea(ruleCount, wheelSize, deepCount);
  return <u32>(treeSuffixes + (<usize>treeLeaves << 3) - ruleNext);
}

/** The rule index of the automaton's rule at `position` (its rules are in ascending rule index). */
export function automatonRuleIndex(ruleset: usize, position: u32): u32 {
  const automaton = ruleset + load<u32>(ruleset + HEADER_AUTOMATON);
  const rules = ruleset + load<u32>(automaton + AUTOMATON_RULES);
  return load<u32>(rules + <usize>position * AUTOMATON_RULE_ENTRY_SIZE, AUTOMATON_RULE_INDEX);
}

/**
 * The highest-priority automaton rule with a rule index below `limit` that matches the path, or -1. Every
 * rule whose p0 starts the path waits for its first searched piece; one pass over the path moves each rule
 * on at the leftmost occurrence of the piece it waits for. The rules whose p0 starts the path are the
 * automaton's rules in the head index's lists along `chain`, the entry of the longest head that starts the
 * path (src/compile/bytecode.ts): a rule's p0 is its head.
 */
export function scanPieces(ruleset: usize, automaton: usize, path: usize, length: usize, limit: u32, heads: usize, chain: i32): i32 {
  const ruleCount = load<u32>(automaton + AUTOMATON_RULE_COUNT);
  pieceCount = load<u32>(automaton + AUTOMATON_PIECE_COUNT);
  const wheelSize = load<u32>(automaton + AUTOMATON_WHEEL_SIZE);
  const deepCount = load<u32>(automaton + AUTOMATON_DEEP_COUNT);
  nodes = ruleset + load<u32>(automaton + AUTOMATON_NODES);
  rootChildren = ruleset + load<u32>(automaton + AUTOMATON_ROOT);
  edgeKeys = ruleset + load<u32>(automaton + AUTOMATON_EDGES);
  edgeCount = load<u32>(automaton + AUTOMATON_EDGE_COUNT);
  edgeBuckets = edgeKeys + (<usize>edgeCount << 3);
  edgeBucketShift = load<u32>(automaton + AUTOMATON_EDGE_BUCKET_SHIFT);
  terminals = ruleset + load<u32>(automaton + AUTOMATON_TERMINALS);
  terminalBuckets = terminals + (<usize>pieceCount << 2);
  terminalBucketShift = load<u32>(automaton + AUTOMATON_TERMINAL_BUCKET_SHIFT);
  pieces = ruleset + load<u32>(automaton + AUTOMATON_PIECES);
  deepPieces = ruleset + load<u32>(automaton + AUTOMATON_DEEP);
  automatonRules = ruleset + load<u32>(automaton + AUTOMATON_RULES);
  pieceList = ruleset + load<u32>(automaton + AUTOMATON_LIST);
  wheelMask = wheelSize - 1;
  layOutWorkArea(ruleCount, wheelSize, deepCount);
  checkRuleset = ruleset;
  checkPath = path;
  checkLength = length;
  memoTag++;
  if (memoTag == MEMO_TAGS) {
    memory.fill(workArea, 0, <usize>memoCapacity << 2);
    memoTag = 1;
  }

  alive = 0;
  found = -1;
  const headCount = load<u32>(heads, HEADS_COUNT);
  const listed = load<u32>(heads, HEADS_RULE_COUNT);
  const entries = heads + HEADS_HEADER_SIZE;
  const list = entries + <usize>headCount * HEAD_ENTRY_SIZE;
  for (let at = chain; at >= 0; ) {
    const entry = entries + <usize>at * HEAD_ENTRY_SIZE;
    const end = <u32>at + 1 < headCount ? load<u32>(entry + HEAD_ENTRY_SIZE, HEAD_LIST_START) : listed;
    const first = <usize>load<u32>(entry, HEAD_LENGTH);
    for (let k = load<u32>(entry, HEAD_LIST_START); k < end; k++) {
      const listedRule = load<u32>(list + <usize>k * PATTERN_LIST_ENTRY_SIZE);
      if ((listedRule & HEAD_AUTOMATON_RULE) == 0) continue;
      const rule = listedRule & ~HEAD_AUTOMATON_RULE;
      const entryOfRule = automatonRules + <usize>rule * AUTOMATON_RULE_ENTRY_SIZE;
      if (load<u32>(entryOfRule, AUTOMATON_RULE_INDEX) >= limit) break;
      if (schedule(rule, load<u32>(entryOfRule, AUTOMATON_RULE_LIST), first)) alive++;
    }
    at = load<i32>(entry, HEAD_PARENT);
  }
  let state: u32 = 0;
  for (let i: usize = 0; i < length && alive > 0; i++) {
    // Rules whose piece can end here, at the earliest, start waiting for it.
    const slot = wheel + (<usize>(<u32>i & wheelMask) << 2);
    let waiting = load<u32>(slot);
    store<u32>(slot, 0);
    while (waiting != 0) {
      const rule = waiting - 1;
      waiting = load<u32>(ruleNext + (<usize>rule << 2));
      if (found >= 0 && rule > <u32>found) {
        retire(rule);
        alive--;
        continue;
      }
      const piece = load<u32>(pieceList + (<usize>(load<u32>(rulePos + (<usize>rule << 2)) - 1) << 2));
      const head = pieceHead + (<usize>piece << 2);
      const first = load<u32>(head);
      if (first == 0) markPiece(piece, 1);
      store<u32>(ruleNext + (<usize>rule << 2), first);
      store<u32>(head, rule + 1);
    }
    state = step(state, load<u8>(path + i));
    if (markedDeep + markedShallow == 0) continue;
    let piece = deepestPiece(state);
    if (piece < 0) continue;
    // The pieces ending here are this one and its ancestors in the piece tree: each that someone waits
    // for moves its rules on. Deep ones are found through the segment tree, the others one by one.
    const deep = <u32>load<u16>(pieces + <usize>piece * AUTOMATON_PIECE_ENTRY_SIZE, PIECE_DEEP_INDEX);
    if (deep != NOT_DEEP) {
      if (markedDeep > 0) {
        while (true) {
          const at = nearestMarkedDeep(deep);
          if (at < 0) break;
          flush(load<u32>(deepPieces + <usize>at * AUTOMATON_DEEP_ENTRY_SIZE, DEEP_PIECE), i);
        }
      }
      piece = <i32>load<u32>(deepPieces + <usize>deep * AUTOMATON_DEEP_ENTRY_SIZE, DEEP_SHALLOW_ANCESTOR) - 1;
    }
    if (markedShallow == 0) continue;
    while (piece >= 0) {
      if (load<u32>(pieceHead + (<usize>piece << 2)) != 0) flush(<u32>piece, i);
      piece = <i32>load<u32>(pieces + <usize>piece * AUTOMATON_PIECE_ENTRY_SIZE, PIECE_PARENT) - 1;
    }
  }
  // Rules still waiting when the pass ended (only rules started above can be): their pieces unmarked, their
  // state zeroed.
  for (let at = chain; at >= 0; ) {
    const entry = entries + <usize>at * HEAD_ENTRY_SIZE;
    const end = <u32>at + 1 < headCount ? load<u32>(entry + HEAD_ENTRY_SIZE, HEAD_LIST_START) : listed;
    for (let k = load<u32>(entry, HEAD_LIST_START); k < end; k++) {
      const listedRule = load<u32>(list + <usize>k * PATTERN_LIST_ENTRY_SIZE);
      if ((listedRule & HEAD_AUTOMATON_RULE) == 0) continue;
      const rule = listedRule & ~HEAD_AUTOMATON_RULE;
      const position = load<u32>(rulePos + (<usize>rule << 2));
      if (position == 0) continue;
      const piece = load<u32>(pieceList + (<usize>(position - 1) << 2));
      const head = pieceHead + (<usize>piece << 2);
      if (load<u32>(head) != 0) {
        store<u32>(head, 0);
        markPiece(piece, -1);
      }
      retire(rule);
    }
    at = load<i32>(entry, HEAD_PARENT);
  }
  return found < 0 ? -1 : <i32>load<u32>(automatonRules + <usize>found * AUTOMATON_RULE_ENTRY_SIZE, AUTOMATON_RULE_INDEX);
}

/** `piece` ended at path position `end`: every rule waiting for it moves on (or is done). */
function flush(piece: u32, end: usize): void {
  const head = pieceHead + (<usize>piece << 2);
  let rules = load<u32>(head);
  store<u32>(head, 0);
  markPiece(piece, -1);
  while (rules != 0) {
    const rule = rules - 1;
    rules = load<u32>(ruleNext + (<usize>rule << 2));
    // The list position after the piece just found: the next piece to wait for, or the list's end.
    const position = load<u32>(rulePos + (<usize>rule << 2));
    if (found >= 0 && rule > <u32>found) {
      retire(rule);
      alive--;
    } else if (!schedule(rule, position, end + 1)) {
      alive--;
      const entry = automatonRules + <usize>rule * AUTOMATON_RULE_ENTRY_SIZE;
      if (position == load<u32>(entry, AUTOMATON_RULE_ENTRY_SIZE + AUTOMATON_RULE_LIST) && matchesSuffix(entry, end + 1)) found = <i32>rule;
    }
  }
}

/**
 * Makes `rule` wait for the piece at list position `position`, found at or after path position `start`;
 * false when its list is done or the piece can no longer fit in the path (the rule then waits for nothing).
 */
function schedule(rule: u32, position: u32, start: usize): bool {
  const end = load<u32>(automatonRules + <usize>(rule + 1) * AUTOMATON_RULE_ENTRY_SIZE, AUTOMATON_RULE_LIST);
  if (position == end) {
    retire(rule);
    return false;
  }
  const piece = load<u32>(pieceList + (<usize>position << 2));
  const earliest = start + <usize>load<u16>(pieces + <usize>piece * AUTOMATON_PIECE_ENTRY_SIZE, PIECE_LENGTH) - 1;
  if (earliest >= checkLength) {
    retire(rule);
    return false;
  }
  store<u32>(rulePos + (<usize>rule << 2), position + 1);
  const slot = wheel + (<usize>(<u32>earliest & wheelMask) << 2);
  store<u32>(ruleNext + (<usize>rule << 2), load<u32>(slot));
  store<u32>(slot, rule + 1);
  return true;
}

function retire(rule: u32): void {
  store<u32>(rulePos + (<usize>rule << 2), 0);
  store<u32>(ruleNext + (<usize>rule << 2), 0);
}

/**
 * After the last searched piece ended before `from`: for a pattern that ended in `$`, its last piece (after
 * its last `*`) ends the path after that.
 */
function matchesSuffix(entry: usize, from: usize): bool {
  const rule = checkRuleset + HEADER_SIZE + <usize>load<u32>(entry, AUTOMATON_RULE_INDEX) * RULE_ENTRY_SIZE;
  if ((<u32>load<u16>(rule, RULE_FLAGS) & RULE_END_ANCHORED) == 0) return true;
  const patternEnd = checkRuleset + load<u32>(rule, RULE_PATTERN_OFFSET) + <usize>load<u16>(rule, RULE_PATTERN_LENGTH);
  let suffix: usize = 0;
  while (load<u8>(patternEnd - suffix - 1) != STAR) suffix++;
  if (checkLength < from || checkLength - from < suffix) return false;
  return bytesEqual(checkPath + checkLength - suffix, patternEnd - suffix, suffix);
}

/** The Aho–Corasick transition: the deepest node whose text ends the path read so far. */
function step(from: u32, byte: u32): u32 {
  let node = from;
  while (true) {
    const word = load<u32>(nodes + (<usize>node << 2));
    if ((word & NODE_TAIL_END) == 0 && (load<u32>(nodes + (<usize>node << 2), 4) & NODE_LABEL_MASK) == byte) return node + 1;
    if (node == 0) return load<u32>(rootChildren + (<usize>byte << 2));
    // The first node of a tail: a binary search over the edge keys of the node's bucket.
    const key = (node << 8) | byte;
    const bucket = edgeBuckets + (<usize>(node >>> edgeBucketShift) << 2);
    let low = load<u32>(bucket);
    let high = load<u32>(bucket, 4);
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (load<u32>(edgeKeys + (<usize>middle << 2)) < key) low = middle + 1;
      else high = middle;
    }
    if (low < edgeCount && load<u32>(edgeKeys + (<usize>low << 2)) == key) {
      return load<u32>(edgeKeys + (<usize>(edgeCount + low) << 2));
    }
    node = word >>> NODE_FAIL_SHIFT;
  }
}

/** The deepest piece ending at `node` (the nearest tail end on its failure chain), or -1; memoized. */
function deepestPiece(node: u32): i32 {
  const memo = workArea;
  let at = node;
  let piece: i32 = -1;
  while (at != 0) {
    const word = load<u32>(memo + (<usize>at << 2));
    if (word >>> MEMO_PIECE_BITS == memoTag) {
      piece = <i32>(word & ((1 << MEMO_PIECE_BITS) - 1)) - 1;
      break;
    }
    const nodeWord = load<u32>(nodes + (<usize>at << 2));
    if ((nodeWord & NODE_TAIL_END) != 0) {
      piece = <i32>pieceEndingAt(at);
      break;
    }
    at = nodeWord >>> NODE_FAIL_SHIFT;
  }
  // Every node passed on the way has the same answer.
  const value = (memoTag << MEMO_PIECE_BITS) | <u32>(piece + 1);
  for (let on = node; on != at; on = load<u32>(nodes + (<usize>on << 2)) >>> NODE_FAIL_SHIFT) {
    store<u32>(memo + (<usize>on << 2), value);
  }
  if (at != 0) store<u32>(memo + (<usize>at << 2), value);
  return piece;
}

/** The piece that ends at a tail end: pieces are numbered in the order of their tails. */
function pieceEndingAt(terminal: u32): u32 {
  const bucket = terminalBuckets + (<usize>(terminal >>> terminalBucketShift) << 2);
  let low = load<u32>(bucket);
  let high = load<u32>(bucket, 4);
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (load<u32>(terminals + (<usize>middle << 2)) < terminal) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Counts a piece as waited for (+1) or no longer (-1); a deep one gets its parentheses in the tree. */
function markPiece(piece: u32, delta: i32): void {
  const deep = <u32>load<u16>(pieces + <usize>piece * AUTOMATON_PIECE_ENTRY_SIZE, PIECE_DEEP_INDEX);
  if (deep == NOT_DEEP) {
    markedShallow += delta;
    return;
  }
  markedDeep += delta;
  addToLeaf(2 * deep + 1, delta);
  addToLeaf(2 * load<u32>(deepPieces + <usize>deep * AUTOMATON_DEEP_ENTRY_SIZE, DEEP_SUBTREE_END), -delta);
}

function addToLeaf(leaf: u32, delta: i32): void {
  let node = treeLeaves + leaf;
  const sum = load<i32>(treeSums + (<usize>node << 2)) + delta;
  store<i32>(treeSums + (<usize>node << 2), sum);
  store<i32>(treeSuffixes + (<usize>node << 2), sum > 0 ? sum : 0);
  for (node >>= 1; node >= 1; node >>= 1) {
    const left = <usize>node << 3;
    const rightSum = load<i32>(treeSums + left, 4);
    store<i32>(treeSums + (<usize>node << 2), load<i32>(treeSums + left) + rightSum);
    const viaLeft = rightSum + load<i32>(treeSuffixes + left);
    const rightSuffix = load<i32>(treeSuffixes + left, 4);
    store<i32>(treeSuffixes + (<usize>node << 2), viaLeft > rightSuffix ? viaLeft : rightSuffix);
  }
}

/**
 * The nearest ancestor of a deep piece (itself included) among the deep pieces someone waits for, as a
 * deep index, or -1: the last leaf at or before its opening parenthesis from which the sum up to it is
 * positive (subtrees that closed before it sum to zero; only enclosing ones count).
 */
function nearestMarkedDeep(deep: u32): i32 {
  let node = treeLeaves + 2 * deep + 1;
  let sum = load<i32>(treeSums + (<usize>node << 2));
  if (sum >= 1) return <i32>deep;
  for (; node > 1; node >>= 1) {
    if ((node & 1) == 0) continue;
    const left = node - 1;
    if (sum + load<i32>(treeSuffixes + (<usize>left << 2)) >= 1) {
      // The rightmost leaf of `left` from which the suffix sum reaches 1.
      let at = left;
      while (at < treeLeaves) {
        const right = 2 * at + 1;
        if (sum + load<i32>(treeSuffixes + (<usize>right << 2)) >= 1) at = right;
        else {
          sum += load<i32>(treeSums + (<usize>right << 2));
          at = 2 * at;
        }
      }
      return <i32>((at - treeLeaves - 1) >> 1);
    }
    sum += load<i32>(treeSums + (<usize>left << 2));
  }
  return -1;
}
