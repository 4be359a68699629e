/**
 * The bytecode: one agent's rules, compiled into one position-independent block of bytes that both
 * matchers read (assembly/matcher.ts in WebAssembly, src/engine/matcher.ts in TypeScript). The offsets,
 * sizes and flags below are named in src/layout.ts, which the WebAssembly module's own (assembly/layout.ts)
 * is checked against.
 *
 * Layout (little-endian; offsets are bytes from the start of the block; tables are 4-byte aligned):
 *
 * ```text
 *  0  u32  magic        0x34425452 ("RTB4"), the format version; loading checks it (checkBytecode)
 *  4  u32  flags        bit 0 NORMALIZE_URL: percent-normalize the URL's path before matching (rfc9309)
 *                       bit 1 ROBOTS_TXT_ALLOWED: "/robots.txt" is always allowed (rfc9309)
 *                       bit 2 PATH_ENDS_AT_NUL: the URL's path ends at its first NUL byte, once located
 *                             (google: its reference reads the path as a C string)
 *                       bit 3 SCAN: the scan tier (below): no prefix index, no automaton, every rule in
 *                             the pattern list; the matchers read it like every other block, only hosts look at the bit
 *  8  u32  ruleCount
 * 12  u32  byteLength   of the whole block
 * 16  u32  prefixCount          entries in the prefix index
 * 20  u32  prefixIndexOffset
 * 24  u32  patternRuleCount     entries in the pattern list
 * 28  u32  patternListOffset
 * 32  u32  automatonOffset      the piece automaton (below), or 0 when the block has none
 * 36  u32  headIndexOffset      the head index (below), or 0 when the block has none (a scan block)
 * 40  rule table, ruleCount entries of 8 bytes, in priority order (the first match decides):
 *       +0 u32 patternOffset   where the pattern's bytes start
 *       +4 u16 patternLength   without the trailing `$` of an end-anchored pattern (a line holds at most
 *                              16,663 bytes, 49,989 once percent-encoded)
 *       +6 u16 ruleFlags       bit 0 ALLOW (else disallow), bit 1 END_ANCHORED, bit 2 HAS_WILDCARD,
 *                              bit 3 IN_AUTOMATON (the automaton decides this rule; set only with one)
 *  …  prefix index, prefixCount entries of 12 bytes: the plain prefixes (no `*`, no final `$`), one per
 *     distinct pattern, sorted by their bytes:
 *       +0 u32 ruleIndex   the highest-priority rule with this pattern
 *       +4 i32 parent      the entry of the longest other pattern that is a prefix of this one, or -1
 *       +8 u32 bestIndex   the highest-priority rule of this entry and all its ancestors (a path that
 *                          starts with this pattern starts with theirs too; `/a*` is stored as the
 *                          plain `/a` yet outranks a plain `/ab`, so the longest is not always the best)
 *  …  pattern list, patternRuleCount u32 rule indices, ascending: in a scan block every rule; an indexed
 *     block lists none (patternRuleCount 0), its head index lists the pattern rules instead
 *  …  head index, in an indexed block: the pattern rules (a `*` or a final `$`), grouped by their head,
 *     the literal text before their first `*` (src/compile/head-index.ts):
 *       +0 u32 headCount, +4 u32 listed (rules in the list), then headCount entries of 12 bytes, one per
 *       distinct head, sorted by its bytes:
 *         +0 u32 listStart  where its rules start in the list (they run to the next entry's, the last
 *                           entry's to `listed`); its first rule's pattern starts with the head
 *         +4 i32 parent     the entry of the longest other head that is a prefix of this one, or -1
 *         +8 u32 headLength
 *       then the list: `listed` u32, entry by entry, in ascending rule index within an entry: a rule
 *       index, or for a rule the automaton decides HEAD_AUTOMATON_RULE | its position among the
 *       automaton's rules (whose p0 is its head: the automaton starts only the rules whose head starts
 *       the path)
 *  …  the piece automaton, when there is one (below)
 *  …  pattern bytes, 1-byte aligned
 * ```
 *
 * Patterns are stored already normalized, with runs of `*` folded into one; a `*` in a stored pattern is
 * always a wildcard (a literal star cannot be written in robots.txt), and `$` is literal except at the
 * end, where it is recorded as END_ANCHORED instead. Trailing wildcards are dropped, since every pattern
 * is a prefix match anyway. The order of the table is the priority: longer original pattern first, allow
 * before disallow on equal length, earlier line first.
 *
 * The table alone decides (decideRuleByRule in src/engine/matcher.ts reads only it). The prefix
 * index and the head index let the WebAssembly matcher skip most rules: the longest plain prefix of a path
 * is found by binary search plus parent links (every pattern between a prefix of the path and the path
 * itself in sorted order starts with that prefix), and only the pattern rules of higher priority whose head
 * starts the path are tried after it, found the same way in the head index (a pattern whose head does not
 * start the path cannot match it).
 *
 * ## The piece automaton
 *
 * A pattern `p0*p1*…*pk` matches when p0 starts the path and each later piece is found leftmost after the
 * end of the one before (with a final `$`, pk must end the path, after p(k-1)). Tried rule by rule, that costs
 * O(|path| × |pattern|) per rule, and a 500 KiB file holds tens of thousands of rules: seconds per URL. The
 * automaton finds the pieces of every rule in one pass over the path instead. The "searched" pieces of a
 * rule are p1…pk, or p1…p(k-1) with a final `$` (then pk is a suffix test, as p0 is a prefix test). An
 * Aho–Corasick automaton over the distinct searched pieces gives, at each path position i, the deepest piece
 * that ends there; a rule waiting for piece q since position P (the end of its previous piece) moves on at
 * the first end i ≥ P + |q| - 1, the leftmost occurrence starting at or after P. So that every piece the scan
 * stops at moves some rule on, a rule joins its piece's waiting list only from that position on (a timing
 * wheel holds it until then); the pieces that end at i are the deepest one and its ancestors in the piece
 * tree, and of those only the ones someone waits for are visited (below). Each searched piece moves its rule
 * on at most once per check, so a check costs O(|path| × (DEEP_PIECE_DEPTH + log pieces) + the rules'
 * patterns × log(deep pieces)) whatever the file: linear in the path, plus at most a term of the file's size.
 *
 * ## The scan tier
 *
 * Indexes pay back over many checks; a ruleset asked once or a few times (a broad crawl meets most hosts
 * once) is answered sooner without them. A scan block (flag SCAN) has no prefix index (prefixCount 0) and
 * no automaton, and lists every rule in the pattern list, plain prefixes too: the matcher then tries the
 * rules in priority order and the first match decides, as the rule table alone says. It is written only for
 * rules the rule-by-rule matcher decides in bounded time (no automaton wanted, see wantsAutomaton in
 * src/compile/piece-automaton.ts); otherwise the indexed block is written. indexBytecode() writes the
 * indexed block of a scan block's rules: the same rule table, so the same deciding rule index.
 *
 * Only blocks whose searched pieces would cost the rule-by-rule matcher much get an automaton
 * (AUTOMATON_MIN_COST in src/compile/piece-automaton.ts): most files keep the layout above without it. The
 * rules it decides keep their rule table entries, so that a matcher can always decide rule by rule instead.
 *
 * ```text
 * +0  u32 nodeCount N         trie nodes, the root (node 0) included; N < 2^23
 * +4  u32 pieceCount D        distinct searched pieces
 * +8  u32 edgeCount E         trie edges into the first node of a piece's tail (below), the root's excepted
 * +12 u32 ruleCount A         rules the automaton decides (IN_AUTOMATON)
 * +16 u32 wheelSize W         a power of two larger than any distance a waiting rule is scheduled ahead
 * +20 u32 workBytes           bytes of the work area one check needs, the memo excepted (below)
 * +24 u32 deepCount Q         deep pieces (DEEP_PIECE_DEPTH ancestors or more in the piece tree), < 0xffff
 * +28 u32 nodesOffset         N u32 node words: bits 0–7 the byte on the edge into the node, bit 8 TAIL_END
 *                             (the last node of a piece's tail, where that piece ends; set on the root too),
 *                             bits 9–31 the failure link (the node of the longest proper suffix in the trie)
 * +32 u32 rootOffset          256 u32: the root's child for each byte, 0 for none
 * +36 u32 edgesOffset         E u32 keys (parent node << 8 | byte), ascending, then E u32 child nodes, then
 *                             (N >> edgeBucketShift) + 2 u32 buckets: bucket b is the first edge whose parent
 *                             node is b << edgeBucketShift or more, so that a lookup searches a few keys
 * +40 u32 terminalsOffset     D u32: the node each piece ends at, ascending (pieces are numbered in sorted
 *                             order, which is the order of their tails), then (N >> terminalBucketShift) + 2
 *                             u32 buckets: bucket b is the first piece ending at node b << terminalBucketShift
 *                             or later
 * +44 u32 piecesOffset        D entries of 8 bytes: +0 u32 the piece's parent in the piece tree + 1 (0 for
 *                             none), +4 u16 the piece's length, +6 u16 its deep index (0xffff when not deep)
 * +48 u32 deepOffset          Q entries of 12 bytes, in preorder of the forest of deep pieces: +0 u32 the
 *                             piece, +4 u32 the end of its subtree there (a deep index), +8 u32 its nearest
 *                             ancestor that is not deep (at depth DEEP_PIECE_DEPTH - 1) + 1, 0 for none
 * +52 u32 rulesOffset         A + 1 entries of 8 bytes, ascending rule index (the last one only closes the
 *                             lists): +0 u32 rule index, +4 u32 start of its list of pieces (p0, and the
 *                             suffix piece of an END_ANCHORED rule, are read from its pattern: up to its first
 *                             `*`, after its last)
 * +56 u32 listOffset          u32 pieces: each automaton rule's searched pieces in order
 * +60 u32 edgeBucketShift     the smallest shift that makes no more buckets than half the edges
 * +64 u32 terminalBucketShift the smallest shift that makes no more buckets than half the pieces
 * ```
 *
 * The trie is laid out by piece: the distinct pieces are sorted, and each adds its "tail" (the nodes past
 * its longest common prefix with the piece before it) as consecutive nodes, so that the child of a node
 * inside a tail is the next node and only the first node of each tail needs an edge entry. A piece ends
 * exactly where a tail ends (a piece that is a prefix of another sorts before it). The piece tree links each
 * piece to the longest other piece that is a suffix of it (the nearest tail end on the failure chain of the
 * piece's end node).
 *
 * ## Work area
 *
 * A check's mutable state lives outside the block, in a zeroed work area the host sizes at load time
 * (WebAssembly: WasmBackend, handed over with setWorkArea; TypeScript: one per block) and that every check
 * leaves zeroed. In order, from its start:
 *
 * ```text
 * memo       room for at least N u32 (WebAssembly: the host's memo capacity, the largest N loaded): for a
 *            node, the deepest piece ending there (the nearest tail end on its failure chain) + 1, 0 for
 *            none, tagged in bits 22–31 with the check that found it; kept between checks, cleared when the
 *            tag wraps around
 * (then workBytes bytes:)
 * ruleNext   A u32: the next rule (+1) in the same wheel slot or waiting list, 0 at the end
 * rulePos    A u32: where in its list the piece the rule waits for is (+1), 0 while it waits for nothing
 * pieceHead  D u32: the first rule (+1) waiting for the piece, 0 for none
 * wheel      W u32: the first rule (+1) to start waiting at that position (modulo W), 0 for none
 * tree       2M i32 sums, then 2M i32 largest suffix sums (M the power of two above 2Q): a segment tree over
 *            the deep forest's parentheses (+1 at 2q+1 and -1 at 2·end(q) for each deep piece q someone
 *            waits for), in which the nearest ancestor of a deep piece that someone waits for is one search
 *            away (the sum from there to the piece's opening parenthesis is positive)
 * ```
 */
import { buildPieceAutomaton, wantsAutomaton, type AutomatonMode, type PieceAutomaton, type StoredRules } from './piece-automaton.js';
import { prefixIndex, PREFIX_INDEX_WORDS } from './prefix-index.js';
import { headIndex, HEAD_INDEX_WORDS, type HeadIndex } from './head-index.js';
import { Scratch } from './scratch.js';
import {
  AUTOMATON_NODE_COUNT,
  AUTOMATON_WORK_BYTES,
  BYTECODE_MAGIC,
  HEADER_AUTOMATON,
  HEADER_BYTE_LENGTH,
  HEADER_FLAGS,
  HEADER_HEAD_INDEX,
  HEADER_MAGIC,
  HEADER_PATTERN_LIST,
  HEADER_PATTERN_RULE_COUNT,
  HEADER_PREFIX_COUNT,
  HEADER_PREFIX_INDEX,
  HEADER_RULE_COUNT,
  HEADER_SIZE,
  HEAD_AUTOMATON_RULE,
  HEAD_ENTRY_SIZE,
  HEAD_LENGTH,
  HEAD_LIST_START,
  HEAD_PARENT,
  HEADS_COUNT,
  HEADS_HEADER_SIZE,
  HEADS_RULE_COUNT,
  PATTERN_LIST_ENTRY_SIZE,
  PREFIX_BEST_INDEX,
  PREFIX_ENTRY_SIZE,
  PREFIX_PARENT,
  PREFIX_RULE_INDEX,
  RULE_ALLOW,
  RULE_END_ANCHORED,
  RULE_ENTRY_SIZE,
  RULE_FLAGS,
  RULE_HAS_WILDCARD,
  RULE_IN_AUTOMATON,
  RULE_PATTERN_LENGTH,
  RULE_PATTERN_OFFSET,
  RULESET_NORMALIZE_URL,
  RULESET_PATH_ENDS_AT_NUL,
  RULESET_ROBOTS_TXT_ALLOWED,
  RULESET_SCAN,
} from '../layout.js';
import { DOLLAR, STAR } from '../bytes.js';
import { automatonByteLength, writeAutomaton } from './automaton-section.js';

/** Rules as the bytecode writer takes them: normalized, in priority order, packed in one buffer. */
export interface PatternList {
  /** Rules in the list (its arrays may be longer). */
  readonly count: number;
  /** Rule i's pattern, normalized, `*` and a trailing `$` included, is bytes[starts[i], starts[i] + lengths[i]). */
  readonly bytes: Uint8Array;
  readonly starts: Uint32Array;
  readonly lengths: Uint32Array;
  /** Per rule: 1 for an allow, 0 for a disallow. */
  readonly allows: Uint8Array;
}

/** Patterns (normalized, in the order they are tried) packed into the list writeBytecode() takes. */
export function packPatterns(rules: readonly { readonly allow: boolean; readonly pattern: Uint8Array }[]): PatternList {
  const bytes = new Uint8Array(rules.reduce((total, rule) => total + rule.pattern.length, 0));
  const starts = new Uint32Array(rules.length);
  const lengths = new Uint32Array(rules.length);
  let at = 0;
  rules.forEach((rule, index) => {
    bytes.set(rule.pattern, at);
    starts[index] = at;
    lengths[index] = rule.pattern.length;
    at += rule.pattern.length;
  });
  return { count: rules.length, bytes, starts, lengths, allows: Uint8Array.from(rules, (rule) => (rule.allow ? 1 : 0)) };
}

export interface BytecodeOptions {
  readonly normalizeUrl: boolean;
  readonly robotsTxtAllowed: boolean;
  readonly pathEndsAtNul: boolean;
  /**
   * Whether to add the piece automaton: 'auto' (the default) when the wildcard rules would cost the
   * rule-by-rule matcher much (AUTOMATON_MIN_COST in src/compile/piece-automaton.ts); 'always' and 'never'
   * are for tests that hold the two ways of deciding to each other.
   */
  readonly automaton?: AutomatonMode;
  /** How deep in the piece tree a piece is deep (DEEP_PIECE_DEPTH); tests lower it to reach the tree. */
  readonly deepPieceDepth?: number;
  /**
   * 'indexed' (the default) or 'scan': a block without indexes ("The scan tier" above), written only where
   * the rules need no automaton (else the indexed block is).
   */
  readonly tier?: BytecodeTier;
}

/** How a block finds the deciding rule: by its indexes, or by trying every rule in priority order. */
export type BytecodeTier = 'scan' | 'indexed';

/** Thrown when a block is not bytecode of this version (src/compile/bytecode.ts). */
export class BytecodeVersionError extends Error {
  constructor(magic: number) {
    super(
      `not robotstxt-wasm bytecode of this version (magic 0x${magic.toString(16)}, expected 0x${BYTECODE_MAGIC.toString(16)}): compile the rules again with this library`,
    );
    this.name = 'BytecodeVersionError';
  }
}

/** Checks the magic and length of a block before a matcher loads it. */
export function checkBytecode(block: Uint8Array): void {
  const magic = block.byteLength >= HEADER_SIZE ? headerWord(block, HEADER_MAGIC) : 0;
  if (magic !== BYTECODE_MAGIC || headerWord(block, HEADER_BYTE_LENGTH) !== block.byteLength) throw new BytecodeVersionError(magic);
}

/**
 * The little-endian u32 at `at`: read byte by byte, because a matcher loads every block through these
 * checks and a DataView per block costs more than the read.
 */
function headerWord(block: Uint8Array, at: number): number {
  return (
    ((block[at] as number) | ((block[at + 1] as number) << 8) | ((block[at + 2] as number) << 16) | ((block[at + 3] as number) << 24)) >>> 0
  );
}

/** What a block's automaton needs of a work area (nodes of memo, then bytes), or undefined without one. */
export function automatonWorkNeeds(block: Uint8Array): { readonly memoNodes: number; readonly bytes: number } | undefined {
  const automaton = headerWord(block, HEADER_AUTOMATON);
  if (automaton === 0) return undefined;
  return { memoNodes: headerWord(block, automaton + AUTOMATON_NODE_COUNT), bytes: headerWord(block, automaton + AUTOMATON_WORK_BYTES) };
}

/** Rule flags that make a rule a pattern rule rather than a plain prefix. */
const PATTERN_FLAGS = RULE_END_ANCHORED | RULE_HAS_WILDCARD;

function rulesetFlags(options: BytecodeOptions): number {
  return (
    (options.normalizeUrl ? RULESET_NORMALIZE_URL : 0) |
    (options.robotsTxtAllowed ? RULESET_ROBOTS_TXT_ALLOWED : 0) |
    (options.pathEndsAtNul ? RULESET_PATH_ENDS_AT_NUL : 0)
  );
}

/** The tier a block was written in. */
export function tierOf(block: Uint8Array): BytecodeTier {
  return headerWord(block, HEADER_FLAGS) & RULESET_SCAN ? 'scan' : 'indexed';
}

/** Writes rules (in priority order) into a bytecode block. */
export function writeBytecode(rules: PatternList, options: BytecodeOptions): Uint8Array {
  return writeStored(StoredPatterns.of(rules), options);
}

/** The indexed block of a scan block's rules: the same rule table, indexed (see "The scan tier" above). */
export function indexBytecode(scan: Uint8Array): Uint8Array {
  const flags = headerWord(scan, HEADER_FLAGS);
  return writeStored(StoredPatterns.ofScanBlock(scan), {
    normalizeUrl: (flags & RULESET_NORMALIZE_URL) !== 0,
    robotsTxtAllowed: (flags & RULESET_ROBOTS_TXT_ALLOWED) !== 0,
    pathEndsAtNul: (flags & RULESET_PATH_ENDS_AT_NUL) !== 0,
  });
}

/** No index in a scan block: no plain rule is looked up by prefix, so every rule is in the pattern list. */
const NO_PREFIXES = { count: 0, entries: new Int32Array(0) };

function writeStored(stored: StoredPatterns, options: BytecodeOptions): Uint8Array {
  const { count: ruleCount, flags } = stored;
  const scan = options.tier === 'scan' && !(stored.hasWildcard && wantsAutomaton(stored));
  const automaton =
    stored.hasWildcard && !scan ? buildPieceAutomaton(stored, options.automaton ?? 'auto', options.deepPieceDepth) : undefined;
  for (const rule of automaton?.rules ?? []) flags[rule.ruleIndex] = (flags[rule.ruleIndex] as number) | RULE_IN_AUTOMATON;
  const plain = plainScratch.take(ruleCount);
  const searched = searchedScratch.take(ruleCount);
  let plainCount = 0;
  let searchedCount = 0;
  if (!scan)
    for (let index = 0; index < ruleCount; index++) {
      const ruleFlags = flags[index] as number;
      if ((ruleFlags & PATTERN_FLAGS) === 0) plain[plainCount++] = index;
      else searched[searchedCount++] = index;
    }
  // A scan block lists every rule; an indexed one none, its head index lists them by head.
  const patternRuleCount = scan ? ruleCount : 0;
  const prefixes = scan ? NO_PREFIXES : prefixIndex(stored.bytes, stored.starts, stored.lengths, plain, plainCount);
  const heads = searchedCount === 0 ? undefined : headIndex(stored.bytes, stored.starts, stored.lengths, searched, searchedCount);
  const prefixIndexOffset = HEADER_SIZE + ruleCount * RULE_ENTRY_SIZE;
  const patternListOffset = prefixIndexOffset + prefixes.count * PREFIX_ENTRY_SIZE;
  const headIndexOffset = patternListOffset + patternRuleCount * PATTERN_LIST_ENTRY_SIZE;
  const automatonOffset = headIndexOffset + (heads === undefined ? 0 : headIndexByteLength(heads));
  const patternsOffset = automatonOffset + (automaton === undefined ? 0 : automatonByteLength(automaton));
  const byteLength = patternsOffset + stored.byteLength;
  const block = new Uint8Array(byteLength);
  const view = new DataView(block.buffer);
  view.setUint32(HEADER_MAGIC, BYTECODE_MAGIC, true);
  view.setUint32(HEADER_FLAGS, rulesetFlags(options) | (scan ? RULESET_SCAN : 0), true);
  view.setUint32(HEADER_RULE_COUNT, ruleCount, true);
  view.setUint32(HEADER_BYTE_LENGTH, byteLength, true);
  view.setUint32(HEADER_PREFIX_COUNT, prefixes.count, true);
  view.setUint32(HEADER_PREFIX_INDEX, prefixIndexOffset, true);
  view.setUint32(HEADER_PATTERN_RULE_COUNT, patternRuleCount, true);
  view.setUint32(HEADER_PATTERN_LIST, patternListOffset, true);
  view.setUint32(HEADER_AUTOMATON, automaton === undefined ? 0 : automatonOffset, true);
  view.setUint32(HEADER_HEAD_INDEX, heads === undefined ? 0 : headIndexOffset, true);
  for (let index = 0; index < ruleCount; index++) {
    const entry = HEADER_SIZE + index * RULE_ENTRY_SIZE;
    view.setUint32(entry + RULE_PATTERN_OFFSET, patternsOffset + (stored.starts[index] as number), true);
    view.setUint16(entry + RULE_PATTERN_LENGTH, stored.lengths[index] as number, true);
    view.setUint16(entry + RULE_FLAGS, flags[index] as number, true);
    if (scan) view.setUint32(patternListOffset + index * PATTERN_LIST_ENTRY_SIZE, index, true);
  }
  if (heads !== undefined) writeHeadIndex(view, headIndexOffset, heads, automaton);
  const { entries } = prefixes;
  for (let i = 0; i < prefixes.count; i++) {
    const entry = prefixIndexOffset + i * PREFIX_ENTRY_SIZE;
    view.setUint32(entry + PREFIX_RULE_INDEX, entries[PREFIX_INDEX_WORDS * i] as number, true);
    view.setInt32(entry + PREFIX_PARENT, entries[PREFIX_INDEX_WORDS * i + 1] as number, true);
    view.setUint32(entry + PREFIX_BEST_INDEX, entries[PREFIX_INDEX_WORDS * i + 2] as number, true);
  }
  if (automaton !== undefined) writeAutomaton(view, automatonOffset, automaton);
  block.set(stored.bytes.subarray(0, stored.byteLength), patternsOffset);
  return block;
}

function headIndexByteLength(heads: HeadIndex): number {
  return HEADS_HEADER_SIZE + heads.count * HEAD_ENTRY_SIZE + heads.ruleCount * PATTERN_LIST_ENTRY_SIZE;
}

function writeHeadIndex(view: DataView, base: number, heads: HeadIndex, automaton: PieceAutomaton | undefined): void {
  view.setUint32(base + HEADS_COUNT, heads.count, true);
  view.setUint32(base + HEADS_RULE_COUNT, heads.ruleCount, true);
  const { entries, rules } = heads;
  for (let i = 0; i < heads.count; i++) {
    const entry = base + HEADS_HEADER_SIZE + i * HEAD_ENTRY_SIZE;
    view.setUint32(entry + HEAD_LIST_START, entries[HEAD_INDEX_WORDS * i] as number, true);
    view.setInt32(entry + HEAD_PARENT, entries[HEAD_INDEX_WORDS * i + 1] as number, true);
    view.setUint32(entry + HEAD_LENGTH, entries[HEAD_INDEX_WORDS * i + 2] as number, true);
  }
  const list = base + HEADS_HEADER_SIZE + heads.count * HEAD_ENTRY_SIZE;
  // The automaton's rules are listed by their position among its rules (ascending rule index), tagged.
  const positions = automatonPositions.take(automaton === undefined ? 0 : heads.highestRule + 1);
  positions.fill(-1);
  automaton?.rules.forEach((rule, position) => {
    if (rule.ruleIndex < positions.length) positions[rule.ruleIndex] = position;
  });
  for (let k = 0; k < heads.ruleCount; k++) {
    const rule = rules[k] as number;
    const position = rule < positions.length ? (positions[rule] as number) : -1;
    view.setUint32(list + k * PATTERN_LIST_ENTRY_SIZE, position < 0 ? rule : (HEAD_AUTOMATON_RULE | position) >>> 0, true);
  }
}

const automatonPositions = new Scratch((length) => new Int32Array(length));

const newWords = (length: number): Uint32Array => new Uint32Array(length);
const storedByteScratch = new Scratch((length) => new Uint8Array(length));
const storedStartScratch = new Scratch(newWords);
const storedLengthScratch = new Scratch(newWords);
const flagScratch = new Scratch((length) => new Uint16Array(length));
const plainScratch = new Scratch(newWords);
const searchedScratch = new Scratch(newWords);

/**
 * The rules' patterns as stored, one after the other in rule order, with their rule flags: `*` runs
 * folded, a final `$` turned into a flag, and wildcards that can only match "the rest" dropped (`/a*` and
 * `/a*$` both mean "starts with /a"). Its arrays are scratch arrays (src/compile/scratch.ts).
 */
class StoredPatterns implements StoredRules {
  readonly count: number;
  readonly bytes: Uint8Array;
  /** Bytes of `bytes` in use. */
  readonly byteLength: number;
  readonly starts: Uint32Array;
  readonly lengths: Uint32Array;
  readonly flags: Uint16Array;
  /** Whether some rule has a wildcard (only then can there be an automaton). */
  readonly hasWildcard: boolean;

  private constructor(count: number, bytes: Uint8Array, byteLength: number, starts: Uint32Array, lengths: Uint32Array, flags: Uint16Array) {
    this.count = count;
    this.bytes = bytes;
    this.byteLength = byteLength;
    this.starts = starts;
    this.lengths = lengths;
    this.flags = flags;
    let hasWildcard = false;
    for (let index = 0; index < count && !hasWildcard; index++) hasWildcard = ((flags[index] as number) & RULE_HAS_WILDCARD) !== 0;
    this.hasWildcard = hasWildcard;
  }

  /** The rules as a scan block stores them: its patterns, as they lie in it, and its rule flags. */
  static ofScanBlock(block: Uint8Array): StoredPatterns {
    const count = headerWord(block, HEADER_RULE_COUNT);
    // A scan block lists every rule, then its patterns follow, in rule order.
    const patternsOffset = headerWord(block, HEADER_PATTERN_LIST) + count * PATTERN_LIST_ENTRY_SIZE;
    const starts = storedStartScratch.take(count);
    const lengths = storedLengthScratch.take(count);
    const flags = flagScratch.take(count);
    const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
    for (let index = 0; index < count; index++) {
      const entry = HEADER_SIZE + index * RULE_ENTRY_SIZE;
      starts[index] = view.getUint32(entry + RULE_PATTERN_OFFSET, true) - patternsOffset;
      lengths[index] = view.getUint16(entry + RULE_PATTERN_LENGTH, true);
      flags[index] = view.getUint16(entry + RULE_FLAGS, true);
    }
    const bytes = block.subarray(patternsOffset);
    return new StoredPatterns(count, bytes, bytes.length, starts, lengths, flags);
  }

  static of(rules: PatternList): StoredPatterns {
    const { count, bytes: source } = rules;
    let total = 0;
    for (let index = 0; index < count; index++) total += rules.lengths[index] as number;
    // Storing never lengthens a pattern.
    const bytes = storedByteScratch.take(total);
    const starts = storedStartScratch.take(count);
    const lengths = storedLengthScratch.take(count);
    const flags = flagScratch.take(count);
    let at = 0;
    for (let index = 0; index < count; index++) {
      const start = rules.starts[index] as number;
      let end = start + (rules.lengths[index] as number);
      let anchored = end > start && source[end - 1] === DOLLAR;
      if (anchored) end--;
      const patternStart = at;
      let stars = 0;
      for (let i = start; i < end; i++) {
        const byte = source[i] as number;
        if (byte === STAR) {
          if (at > patternStart && bytes[at - 1] === STAR) continue;
          stars++;
        }
        bytes[at++] = byte;
      }
      if (at > patternStart && bytes[at - 1] === STAR) {
        at--;
        stars--;
        anchored = false;
      }
      starts[index] = patternStart;
      lengths[index] = at - patternStart;
      flags[index] =
        ((rules.allows[index] as number) === 1 ? RULE_ALLOW : 0) | (anchored ? RULE_END_ANCHORED : 0) | (stars > 0 ? RULE_HAS_WILDCARD : 0);
    }
    return new StoredPatterns(count, bytes, at, starts, lengths, flags);
  }

  start(rule: number): number {
    return this.starts[rule] as number;
  }

  end(rule: number): number {
    return (this.starts[rule] as number) + (this.lengths[rule] as number);
  }

  wildcard(rule: number): boolean {
    return ((this.flags[rule] as number) & RULE_HAS_WILDCARD) !== 0;
  }

  anchored(rule: number): boolean {
    return ((this.flags[rule] as number) & RULE_END_ANCHORED) !== 0;
  }
}
