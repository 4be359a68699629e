/**
 * Groups → the groups that apply to one agent (RFC 9309 §2.2.1):
 * all groups naming the agent, merged; if none names it, all `*` groups, merged; else none.
 * A group that lists both `*` and the agent counts as the agent's. Once any group names the agent,
 * the `*` rules are ignored entirely, even when the agent's groups have no rules.
 * (./agent-selector.ts selects the same way while reading the records, for a file not parsed in full.)
 */
import type { GroupExtensions, GroupRecord } from './model.js';
import type { RuleRange } from './rule-records.js';

/** What compiling needs of an applicable group: its rules and its extensions. */
export interface SelectedGroup extends RuleRange, GroupExtensions {}

export interface Selection {
  /** Which kind of group applied. */
  readonly matched: 'agent' | 'global' | 'none';
  /** The applicable groups, in file order. */
  readonly groups: readonly SelectedGroup[];
}

/** `agentKey`: the caller's lower-cased product token, or undefined when it can name no group. */
export function selectGroups(groups: readonly GroupRecord[], agentKey: string | undefined): Selection {
  if (agentKey !== undefined) {
    const named = groups.filter((group) => group.agents.some((agent) => !agent.global && agent.token === agentKey));
    if (named.length > 0) return { matched: 'agent', groups: named };
  }
  const global = groups.filter((group) => group.agents.some((agent) => agent.global));
  return global.length > 0 ? { matched: 'global', groups: global } : { matched: 'none', groups: [] };
}
