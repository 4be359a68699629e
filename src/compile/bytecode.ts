/**
 * The bytecode: one agent's rules, compiled into one position-independent block of bytes that both
 * matchers read (assembly/index.ts in WebAssembly, src/engine/executor.ts in TypeScript).
 *
 * Layout (little-endian; offsets are bytes from the start of the block):
 *
 * ```text
 *  0  u32  magic        0x31425452 ("RTB1"), the format version
 *  4  u32  flags        bit 0 NORMALIZE_URL: percent-normalize the URL's path before matching (rfc9309)
 *                       bit 1 ROBOTS_TXT_ALLOWED: "/robots.txt" is always allowed (rfc9309)
 *  8  u32  ruleCount
 * 12  u32  byteLength   of the whole block
 * 16  rule table, ruleCount entries of 12 bytes, in priority order (the first match decides):
 *       +0 u32 patternOffset   where the pattern's bytes start
 *       +4 u32 patternLength   without the trailing `$` of an end-anchored pattern
 *       +8 u32 ruleFlags       bit 0 ALLOW (else disallow), bit 1 END_ANCHORED, bit 2 HAS_WILDCARD
 *  …  pattern bytes, each pattern stored once, 1-byte aligned
 * ```
 *
 * Patterns are stored already normalized, with runs of `*` folded into one; a `*` in a stored pattern is
 * always a wildcard (a literal star cannot be written in robots.txt), and `$` is literal except at the
 * end, where it is recorded as END_ANCHORED instead. Trailing wildcards are dropped, since every pattern
 * is a prefix match anyway. The order of the table is the priority: longer original pattern first, allow
 * before disallow on equal length, earlier line first.
 */

export const BYTECODE_MAGIC = 0x31425452;
export const HEADER_SIZE = 16;
export const RULE_ENTRY_SIZE = 12;

export const RULESET_NORMALIZE_URL = 1;
export const RULESET_ROBOTS_TXT_ALLOWED = 2;

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
}

/** Writes rules (in priority order) into a bytecode block. */
export function writeBytecode(rules: readonly BytecodeRule[], options: BytecodeOptions): Uint8Array {
  const stored = rules.map(storedForm);
  const tableEnd = HEADER_SIZE + rules.length * RULE_ENTRY_SIZE;
  const byteLength = stored.reduce((total, rule) => total + rule.bytes.length, tableEnd);
  const block = new Uint8Array(byteLength);
  const view = new DataView(block.buffer);
  view.setUint32(0, BYTECODE_MAGIC, true);
  view.setUint32(4, (options.normalizeUrl ? RULESET_NORMALIZE_URL : 0) | (options.robotsTxtAllowed ? RULESET_ROBOTS_TXT_ALLOWED : 0), true);
  view.setUint32(8, rules.length, true);
  view.setUint32(12, byteLength, true);
  let patternOffset = tableEnd;
  stored.forEach((rule, index) => {
    const entry = HEADER_SIZE + index * RULE_ENTRY_SIZE;
    view.setUint32(entry, patternOffset, true);
    view.setUint32(entry + 4, rule.bytes.length, true);
    view.setUint32(entry + 8, rule.flags, true);
    block.set(rule.bytes, patternOffset);
    patternOffset += rule.bytes.length;
  });
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
  if (!source.includes(STAR) && source[source.length - 1] !== 0x24) {
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
