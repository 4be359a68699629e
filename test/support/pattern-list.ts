/**
 * Rules as objects, for the tests that write bytecode or compile rules without a parse: packed the way the
 * compiler and the bytecode writer take them, and unpacked again to be looked at.
 */
import { packPatterns, type PatternList } from '../../src/compile/bytecode.js';
import { compileRules, type CompiledRules } from '../../src/compile/rules.js';
import type { RuleLine } from '../../src/parse/model.js';
import { RuleRecords } from '../../src/parse/rule-records.js';
import type { Profile } from '../../src/profile.js';

/** Rules in priority order, their patterns normalized: the list writeBytecode() takes. */
export const patternList = packPatterns;

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
