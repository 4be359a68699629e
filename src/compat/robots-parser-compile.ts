/**
 * One robots-parser agent's rules (already in file order, patterns normalized its way) compiled by this
 * library's compiler for the WebAssembly matcher, read with the robots-parser profile (src/profile.ts):
 * patterns and paths matched as given, no implicit rule, the longest pattern first and allow before
 * disallow on a tie, which is robots-parser's precedence.
 */
import { AgentRules } from '../api/agent-rules.js';
import { currentBackend } from '../engine/active-backend.js';
import { RuleRecords } from '../parse/rule-records.js';
import { robotsParserProfile } from '../profile.js';
import type { CompatRule } from './robots-parser-groups.js';

const encoder = new TextEncoder();

export function compileCompatRules(rules: readonly CompatRule[]): AgentRules {
  const patterns = rules.map((rule) => encoder.encode(rule.pattern));
  const body = new Uint8Array(patterns.reduce((total, pattern) => total + pattern.length, 0));
  const records = new RuleRecords(body);
  let at = 0;
  rules.forEach((rule, index) => {
    const pattern = patterns[index] as Uint8Array;
    body.set(pattern, at);
    records.add(rule.line, rule.allow, at, at + pattern.length);
    at += pattern.length;
  });
  const group = { agents: [], firstRule: 0, endRule: rules.length };
  return new AgentRules({ matched: 'agent', groups: [group] }, records, robotsParserProfile, currentBackend());
}
