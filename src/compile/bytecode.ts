/**
 * The bytecode: one agent's rules, compiled into one position-independent block of bytes that both
 * matchers read (assembly/index.ts in WebAssembly, src/engine/executor.ts in TypeScript).
 *
 * Layout (little-endian; offsets are bytes from the start of the block; tables are 4-byte aligned):
 *
 * ```text
 *  0  u32  magic        0x32425452 ("RTB2"), the format version
 *  4  u32  flags        bit 0 NORMALIZE_URL: percent-normalize the URL's path before matching (rfc9309)
 *                       bit 1 ROBOTS_TXT_ALLOWED: "/robots.txt" is always allowed (rfc9309)
 *                       bit 2 PATH_ENDS_AT_NUL: the URL's path ends at its first NUL byte, once located
 *                             (google: its reference reads the path as a C string)
 *  8  u32  ruleCount
 * 12  u32  byteLength   of the whole block
 * 16  u32  prefixCount          entries in the prefix index
 * 20  u32  prefixIndexOffset
 * 24  u32  patternRuleCount     entries in the pattern list
 * 28  u32  patternListOffset
 * 32  rule table, ruleCount entries of 8 bytes, in priority order (the first match decides):
 *       +0 u32 patternOffset   where the pattern's bytes start
 *       +4 u16 patternLength   without the trailing `$` of an end-anchored pattern (a line holds at most
 *                              16,663 bytes, 49,989 once percent-encoded)
 *       +6 u16 ruleFlags       bit 0 ALLOW (else disallow), bit 1 END_ANCHORED, bit 2 HAS_WILDCARD
 *  …  prefix index, prefixCount entries of 12 bytes: the plain prefixes (no `*`, no final `$`), one per
 *     distinct pattern, sorted by their bytes:
 *       +0 u32 ruleIndex   the highest-priority rule with this pattern
 *       +4 i32 parent      the entry of the longest other pattern that is a prefix of this one, or -1
 *       +8 u32 bestIndex   the highest-priority rule of this entry and all its ancestors (a path that
 *                          starts with this pattern starts with theirs too; `/a*` is stored as the
 *                          plain `/a` yet outranks a plain `/ab`, so the longest is not always the best)
 *  …  pattern list, patternRuleCount u32 rule indices, ascending: every rule with `*` or a final `$`
 *  …  pattern bytes, 1-byte aligned
 * ```
 *
 * Patterns are stored already normalized, with runs of `*` folded into one; a `*` in a stored pattern is
 * always a wildcard (a literal star cannot be written in robots.txt), and `$` is literal except at the
 * end, where it is recorded as END_ANCHORED instead. Trailing wildcards are dropped, since every pattern
 * is a prefix match anyway. The order of the table is the priority: longer original pattern first, allow
 * before disallow on equal length, earlier line first.
 *
 * The table alone decides (the TypeScript executor reads only it). The prefix index and the pattern list
 * let the WebAssembly matcher skip most rules: the longest plain prefix of a path is found by binary
 * search plus parent links (every pattern between a prefix of the path and the path itself in sorted
 * order starts with that prefix), and only the pattern rules of higher priority are tried after it.
 */
import { decodeUtf8 } from '../decode-utf8.js';

export const BYTECODE_MAGIC = 0x32425452;
export const HEADER_SIZE = 32;
export const RULE_ENTRY_SIZE = 8;
export const PREFIX_ENTRY_SIZE = 12;

export const RULESET_NORMALIZE_URL = 1;
export const RULESET_ROBOTS_TXT_ALLOWED = 2;
export const RULESET_PATH_ENDS_AT_NUL = 4;

export const RULE_ALLOW = 1;
export const RULE_END_ANCHORED = 2;
export const RULE_HAS_WILDCARD = 4;

/** What a matcher returns besides a rule index. */
export const NO_MATCH = -1;
export const ROBOTS_TXT_IMPLICIT_ALLOW = -2;

const STAR = 0x2a;

/** One rule as the bytecode writer takes it: already normalized and in priority order. */
export interface BytecodeRule {
  readonly allow: boolean;
  /** The normalized pattern, `*` and a trailing `$` included. */
  readonly pattern: Uint8Array;
}

export interface BytecodeOptions {
  readonly normalizeUrl: boolean;
  readonly robotsTxtAllowed: boolean;
  readonly pathEndsAtNul: boolean;
}

interface PrefixEntry {
  readonly ruleIndex: number;
  readonly parent: number;
  readonly bestIndex: number;
}

function isPlain(rule: StoredPattern): boolean {
  return (rule.flags & (RULE_END_ANCHORED | RULE_HAS_WILDCARD)) === 0;
}

/**
 * A string that sorts like `bytes` (one UTF-16 unit per byte), so that sorting and prefix tests run on
 * native string comparison. Normalized patterns are ASCII (octets ≥ 0x80 are percent-encoded), for which
 * a decoder is exact; any other byte takes the slow path.
 */
function sortKey(bytes: Uint8Array): string {
  for (let i = 0; i < bytes.length; i++) {
    if ((bytes[i] as number) >= 0x80) {
      let key = '';
      for (let j = 0; j < bytes.length; j++) key += String.fromCharCode(bytes[j] as number);
      return key;
    }
  }
  return decodeUtf8(bytes);
}

/** The plain prefixes, one per distinct pattern (its first rule wins), sorted, with parent links. */
function prefixIndex(stored: readonly StoredPattern[]): PrefixEntry[] {
  const plain: number[] = [];
  const keys: string[] = [];
  for (let index = 0; index < stored.length; index++) {
    const rule = stored[index] as StoredPattern;
    keys.push(isPlain(rule) ? sortKey(rule.bytes) : '');
    if (isPlain(rule)) plain.push(index);
  }
  const keyOf = (index: number): string => keys[index] as string;
  plain.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : a - b));
  const entries: PrefixEntry[] = [];
  const entryKeys: string[] = [];
  // The chain of entries that are prefixes of the one being added, longest last.
  const ancestors: number[] = [];
  for (const ruleIndex of plain) {
    const key = keyOf(ruleIndex);
    if (entryKeys[entryKeys.length - 1] === key) continue;
    while (ancestors.length > 0 && !key.startsWith(entryKeys[ancestors[ancestors.length - 1] as number] as string)) {
      ancestors.pop();
    }
    const parent = ancestors[ancestors.length - 1] ?? -1;
    const inherited = entries[parent]?.bestIndex ?? ruleIndex;
    entries.push({ ruleIndex, parent, bestIndex: Math.min(ruleIndex, inherited) });
    entryKeys.push(key);
    ancestors.push(entries.length - 1);
  }
  return entries;
}

function rulesetFlags(options: BytecodeOptions): number {
  return (
    (options.normalizeUrl ? RULESET_NORMALIZE_URL : 0) |
    (options.robotsTxtAllowed ? RULESET_ROBOTS_TXT_ALLOWED : 0) |
    (options.pathEndsAtNul ? RULESET_PATH_ENDS_AT_NUL : 0)
  );
}

/** Writes rules (in priority order) into a bytecode block. */
export function writeBytecode(rules: readonly BytecodeRule[], options: BytecodeOptions): Uint8Array {
  const stored = rules.map(storedForm);
  const prefixes = prefixIndex(stored);
  const patternRules: number[] = [];
  for (let index = 0; index < stored.length; index++) if (!isPlain(stored[index] as StoredPattern)) patternRules.push(index);
  const prefixIndexOffset = HEADER_SIZE + rules.length * RULE_ENTRY_SIZE;
  const patternListOffset = prefixIndexOffset + prefixes.length * PREFIX_ENTRY_SIZE;
  const patternsOffset = patternListOffset + patternRules.length * 4;
  const byteLength = stored.reduce((total, rule) => total + rule.bytes.length, patternsOffset);
  const block = new Uint8Array(byteLength);
  const view = new DataView(block.buffer);
  view.setUint32(0, BYTECODE_MAGIC, true);
  view.setUint32(4, rulesetFlags(options), true);
  view.setUint32(8, rules.length, true);
  view.setUint32(12, byteLength, true);
  view.setUint32(16, prefixes.length, true);
  view.setUint32(20, prefixIndexOffset, true);
  view.setUint32(24, patternRules.length, true);
  view.setUint32(28, patternListOffset, true);
  let patternOffset = patternsOffset;
  stored.forEach((rule, index) => {
    const entry = HEADER_SIZE + index * RULE_ENTRY_SIZE;
    view.setUint32(entry, patternOffset, true);
    view.setUint16(entry + 4, rule.bytes.length, true);
    view.setUint16(entry + 6, rule.flags, true);
    block.set(rule.bytes, patternOffset);
    patternOffset += rule.bytes.length;
  });
  prefixes.forEach((prefix, i) => {
    const entry = prefixIndexOffset + i * PREFIX_ENTRY_SIZE;
    view.setUint32(entry, prefix.ruleIndex, true);
    view.setInt32(entry + 4, prefix.parent, true);
    view.setUint32(entry + 8, prefix.bestIndex, true);
  });
  patternRules.forEach((ruleIndex, i) => view.setUint32(patternListOffset + i * 4, ruleIndex, true));
  return block;
}

interface StoredPattern {
  readonly bytes: Uint8Array;
  readonly flags: number;
}

/** Folds `*` runs, turns a final `$` into a flag and drops wildcards that can only match "the rest". */
function storedForm(rule: BytecodeRule): StoredPattern {
  const source = rule.pattern;
  // Most patterns are plain prefixes: nothing to rewrite.
  if (source.indexOf(STAR) < 0 && source[source.length - 1] !== 0x24) {
    return { bytes: source, flags: rule.allow ? RULE_ALLOW : 0 };
  }
  let end = source.length;
  let anchored = end > 0 && source[end - 1] === 0x24;
  if (anchored) end--;
  const folded: number[] = [];
  for (let i = 0; i < end; i++) {
    const byte = source[i] as number;
    if (byte === STAR && folded[folded.length - 1] === STAR) continue;
    folded.push(byte);
  }
  // "/a*" and "/a*$" both mean "starts with /a".
  if (folded[folded.length - 1] === STAR) {
    while (folded[folded.length - 1] === STAR) folded.pop();
    anchored = false;
  }
  const hasWildcard = folded.includes(STAR);
  const flags = (rule.allow ? RULE_ALLOW : 0) | (anchored ? RULE_END_ANCHORED : 0) | (hasWildcard ? RULE_HAS_WILDCARD : 0);
  return { bytes: Uint8Array.from(folded), flags };
}
