/**
 * One agent's rules → normalized patterns in priority order, so that the first match is the answer.
 *
 * - Patterns are percent-normalized (src/compile/normalize.ts) for the profile.
 * - Priority is the normalized pattern's length in octets, `*` and `$` counted (RFC 9309 §2.2.2: the most
 *   specific match wins); on equal length, allow before disallow; then the earlier line.
 * - Empty patterns have no effect, and a pattern starting with neither `/` nor `*` can never match a path:
 *   both are left out.
 * - Google's index.html rule: `Allow: /dir/index.htm…` also allows `/dir/$`, as a rule of its own.
 * - A rule that repeats another (the same normalized pattern, the same kind) is kept once: the first in
 *   priority order, the earliest line, which is the one that decided (and that explain() reported) before.
 *   A file of thousands of copies of one wildcard line then costs one rule per check.
 */
import type { Profile } from '../profile.js';
import type { RuleLine } from '../parse/model.js';
import { ByteStringNumbers } from './byte-strings.js';
import { percentNormalize } from './normalize.js';

export interface CompiledRule {
  readonly allow: boolean;
  /** Derived by the index.html rule from the allow on the same line (`/dir/index.html` → `/dir/$`). */
  readonly derived: boolean;
  /** The pattern as the file wrote it (for a derived rule: that of its allow); a view, not a copy. */
  readonly written: Uint8Array;
  /** What is matched: the normalized pattern. */
  readonly pattern: Uint8Array;
  readonly line: number;
}

const SLASH = 0x2f;
const STAR = 0x2a;
const DOLLAR = 0x24;
const INDEX_HTM = new TextEncoder().encode('/index.htm');

function canMatchAPath(pattern: Uint8Array): boolean {
  return pattern[0] === SLASH || pattern[0] === STAR;
}

function startsWithAt(bytes: Uint8Array, at: number, prefix: Uint8Array): boolean {
  return at + prefix.length <= bytes.length && prefix.every((byte, i) => bytes[at + i] === byte);
}

/** For `…/index.htm…`, the pattern `…/$` that Google also allows. */
function directoryOfIndexPage(pattern: Uint8Array): Uint8Array | undefined {
  const slash = pattern.lastIndexOf(SLASH);
  if (slash < 0 || !startsWithAt(pattern, slash, INDEX_HTM)) return undefined;
  const directory = new Uint8Array(slash + 2);
  directory.set(pattern.subarray(0, slash + 1));
  directory[slash + 1] = DOLLAR;
  return directory;
}

function byPriority(a: CompiledRule, b: CompiledRule): number {
  return b.pattern.length - a.pattern.length || Number(b.allow) - Number(a.allow) || a.line - b.line;
}

/** Whether two patterns of the same length are equal; compared from the end, where siblings differ. */
function samePattern(a: CompiledRule, b: CompiledRule): boolean {
  for (let i = a.pattern.length - 1; i >= 0; i--) if (a.pattern[i] !== b.pattern[i]) return false;
  return true;
}

/**
 * The rules in priority order, each repeated rule (the same kind, the same normalized pattern) after its
 * first left out. Repeats share a length and a kind, so they fall in the same run of the sorted rules: a
 * short run is compared pair by pair, a long one (thousands of copies of a line) through a hash.
 */
function withoutRepeats(sorted: CompiledRule[]): CompiledRule[] {
  const kept: CompiledRule[] = [];
  for (let start = 0; start < sorted.length; ) {
    const head = sorted[start] as CompiledRule;
    let end = start + 1;
    while (end < sorted.length && (sorted[end] as CompiledRule).pattern.length === head.pattern.length && (sorted[end] as CompiledRule).allow === head.allow) end++;
    if (end - start > 16) {
      const seen = new ByteStringNumbers();
      for (let i = start; i < end; i++) {
        const rule = sorted[i] as CompiledRule;
        const before = seen.count;
        if (seen.numberOf(rule.pattern) === before) kept.push(rule);
      }
    } else {
      const runStart = kept.length;
      for (let i = start; i < end; i++) {
        const rule = sorted[i] as CompiledRule;
        let repeat = false;
        for (let k = runStart; k < kept.length && !repeat; k++) repeat = samePattern(kept[k] as CompiledRule, rule);
        if (!repeat) kept.push(rule);
      }
    }
    start = end;
  }
  return kept;
}

/** Compiles the rules of the groups that apply to one agent. */
export function compileRules(rules: readonly RuleLine[], profile: Profile): CompiledRule[] {
  const compiled: CompiledRule[] = [];
  for (const rule of rules) {
    const pattern = percentNormalize(rule.pattern, profile.normalizeUrls);
    if (!canMatchAPath(pattern)) continue;
    compiled.push({ allow: rule.allow, derived: false, written: rule.pattern, pattern, line: rule.line });
    const directory = rule.allow ? directoryOfIndexPage(pattern) : undefined;
    if (directory !== undefined) {
      compiled.push({ allow: true, derived: true, written: rule.pattern, pattern: directory, line: rule.line });
    }
  }
  // Sorted first, so that of identical rules the one kept is the one that comes first in priority order.
  return withoutRepeats(compiled.sort(byPriority));
}
