/**
 * One robots-parser agent's rules (already in file order, patterns normalized its way) compiled by this
 * library's compiler for the WebAssembly matcher, read with the robots-parser profile (src/profile.ts):
 * patterns and paths matched as given, no implicit rule, the longest pattern first and allow before
 * disallow on a tie, which is robots-parser's precedence.
 */
import { AgentRules } from '../api/agent-rules.js';
import { currentBackend } from '../engine/active-backend.js';
import type { RuleRecords } from '../parse/rule-records.js';
import { robotsParserProfile } from '../profile.js';

export function compileCompatRules(records: RuleRecords): AgentRules {
  const group = { agents: [], firstRule: 0, endRule: records.count };
  return new AgentRules({ matched: 'agent', groups: [group] }, records, robotsParserProfile, currentBackend());
}
