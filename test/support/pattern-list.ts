/**
 * Rules as objects, for the tests that write bytecode or compile rules without a parse: packed the way the
 * compiler and the bytecode writer take them, and unpacked again to be looked at.
 */
import type { PatternList } from '../../src/compile/bytecode.js';
import { compileRules, type CompiledRules } from '../../src/compile/rules.js';
import type { RuleLine } from '../../src/parse/model.js';
import { RuleRecords } from '../../src/parse/rule-records.js';
import type { Profile } from '../../src/profile.js';

/** Rules in priority order, their patterns normalized: the list writeBytecode() takes. */
export function patternList(rules: readonly { readonly allow: boolean; readonly pattern: Uint8Array }[]): PatternList {
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

/** What AgentRules compiles from `rules` (in line order), as if they were one group's; valid until the next compile. */
export function compileRuleLines(rules: readonly RuleLine[], profile: Profile): CompiledRules {
  const { bytes, starts, lengths } = patternList(rules);
  const records = new RuleRecords(bytes);
  rules.forEach((rule, index) =>
    records.add(rule.line, rule.allow, starts[index] as number, (starts[index] as number) + (lengths[index] as number)),
  );
  return compileRules(records, [{ firstRule: 0, endRule: records.count }], profile);
}

/** Each rule's pattern in `list`, as a view. */
export function patternsOf(list: PatternList): Uint8Array[] {
  return Array.from({ length: list.count }, (_, index) => {
    const start = list.starts[index] as number;
    return list.bytes.subarray(start, start + (list.lengths[index] as number));
  });
}
