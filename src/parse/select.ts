/**
 * Groups → the groups that apply to one agent (RFC 9309 §2.2.1):
 * all groups naming the agent, merged; if none names it, all groups naming its family (a profile's
 * agentFamily(): Yandex's `User-agent: Yandex`), merged; if none, all `*` groups, merged; else none.
 * A group that lists both `*` and the agent counts as the agent's. Once any group names the agent,
 * the `*` rules are ignored entirely, even when the agent's groups have no rules.
 * (./agent-selector.ts selects the same way while reading the records, for a file not parsed in full.)
 */
import type { GroupExtensions, GroupRecord, GroupUsage } from './model.js';
import type { RuleRange } from './rule-records.js';

/** What compiling needs of an applicable group: its rules, its extensions and its usage lines. */
export interface SelectedGroup extends RuleRange, GroupExtensions, GroupUsage {}

export interface Selection {
  /** Which kind of group applied: the agent's own, its family's, the `*` groups, or none. */
  readonly matched: 'agent' | 'family' | 'global' | 'none';
  /** The applicable groups, in file order. */
  readonly groups: readonly SelectedGroup[];
}

function groupsNaming(groups: readonly GroupRecord[], key: string): GroupRecord[] {
  return groups.filter((group) => group.agents.some((agent) => !agent.global && agent.token === key));
}

/**
 * `agentKey`: the caller's lower-cased product token, or undefined when it can name no group;
 * `familyKey`: its family's (Profile.agentFamily()), if any.
 */
export function selectGroups(groups: readonly GroupRecord[], agentKey: string | undefined, familyKey?: string): Selection {
  if (agentKey !== undefined) {
    const named = groupsNaming(groups, agentKey);
    if (named.length > 0) return { matched: 'agent', groups: named };
  }
  if (familyKey !== undefined) {
    const family = groupsNaming(groups, familyKey);
    if (family.length > 0) return { matched: 'family', groups: family };
  }
  const global = groups.filter((group) => group.agents.some((agent) => agent.global));
  return global.length > 0 ? { matched: 'global', groups: global } : { matched: 'none', groups: [] };
}
