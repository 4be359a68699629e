/**
 * Records → the rules of one agent, without building every group: what forAgent() needs of a file nobody
 * asked anything else of. It groups exactly as the parser does (GroupBoundary, the same agent lines) and
 * selects exactly as select.ts does (the groups naming the agent, merged; else its family's; else the `*`
 * groups; else none), but keeps only the rule spans and the group extensions of the groups that can be
 * selected, and decodes nothing else. The rules of every candidate (the agent's groups, its family's and
 * the `*` groups) are kept while reading, since which one applies is known only at the end.
 */
import { isGlobalAgent, productTokenLength } from './agent-lines.js';
import { GroupBoundary } from './group-boundary.js';
import { applyGroupDirective, extensionNamed, type GroupDirective, type UsageKey } from './group-extensions.js';
import { readUsageRecord } from '../usage/usage-record.js';
import type { RecordHandler, RecordReader } from './records.js';
import { RuleRecords } from './rule-records.js';
import type { SelectedGroup, Selection } from './select.js';

/** A group being read: whether it can be selected, its rules, and its extension lines (read once it is). */
interface OpenGroup {
  named: boolean;
  family: boolean;
  global: boolean;
  readonly firstRule: number;
  endRule: number;
  /** The group's extension and usage lines, in order, as [key, line, start, end]: read only if it is selected. */
  directives: (GroupDirective | UsageKey | number)[] | undefined;
}

class AgentSelector implements RecordHandler {
  readonly rules: RuleRecords;
  readonly named: OpenGroup[] = [];
  readonly family: OpenGroup[] = [];
  readonly global: OpenGroup[] = [];
  private current: OpenGroup | undefined;
  private readonly boundary = new GroupBoundary();

  /**
   * `key`: the agent's key (lower case), or undefined when it can name no group; `familyKey`: its
   * family's, if any. `rules` is where the candidates' rules are gathered (reused: what is kept is copied
   * out of it).
   */
  constructor(
    private readonly body: Uint8Array,
    private readonly key: string | undefined,
    private readonly familyKey: string | undefined,
    rules: RuleRecords,
  ) {
    rules.reset(body);
    this.rules = rules;
  }

  userAgent(_line: number, start: number, end: number): void {
    if (this.boundary.userAgent() || this.current === undefined) {
      this.close();
      const next = this.rules.count;
      this.current = { named: false, family: false, global: false, firstRule: next, endRule: next, directives: undefined };
    }
    if (isGlobalAgent(this.body, start, end)) this.current.global = true;
    else if (!this.current.named && this.hasToken(this.key, start, end)) this.current.named = true;
    else if (!this.current.family && this.hasToken(this.familyKey, start, end)) this.current.family = true;
  }

  /** Whether the agent line body[start, end) has the product token `key`, in any ASCII case. */
  private hasToken(key: string | undefined, start: number, end: number): boolean {
    if (key === undefined || productTokenLength(this.body, start, end) !== key.length) return false;
    for (let i = 0; i < key.length; i++) {
      // Token bytes are letters, `_` and `-`: folding a letter's case is setting 0x20, which leaves the others.
      if (((this.body[start + i] as number) | 0x20) !== (key.charCodeAt(i) | 0x20)) return false;
    }
    return true;
  }

  rule(line: number, allow: boolean, start: number, end: number): void {
    // A rule closes the group's agent lines: whether it can be selected is known now.
    const group = this.current;
    if (!this.boundary.rule() || group === undefined || !(group.named || group.family || group.global)) return;
    this.rules.add(line, allow, start, end);
    group.endRule = this.rules.count;
  }

  other(line: number, keyStart: number, keyEnd: number, start: number, end: number): void {
    const key = extensionNamed(this.body, keyStart, keyEnd);
    if (key === undefined || key === 'host' || key === 'clean-param' || key === 'license') return;
    // A usage line is a rule of its group (./groups.ts): it ends the group's User-agent lines.
    const isRule = key === 'content-usage' || key === 'content-signal';
    if ((isRule && !this.boundary.rule()) || this.current === undefined) return;
    (this.current.directives ??= []).push(key, line, start, end);
  }

  sitemap(): void {}
  malformed(): void {}
  lineCut(): void {}

  /** Files the group read last under the candidates it belongs to. */
  close(): void {
    const group = this.current;
    if (group === undefined) return;
    if (group.named) this.named.push(group);
    if (group.family) this.family.push(group);
    if (group.global) this.global.push(group);
    this.current = undefined;
  }
}

/** A selected group's extensions and usage lines, read from its lines as the parser reads them. */
function extensionsOf(body: Uint8Array, group: OpenGroup): SelectedGroup {
  const selected: SelectedGroup = { firstRule: group.firstRule, endRule: group.endRule };
  const directives = group.directives ?? [];
  for (let i = 0; i < directives.length; i += 4) {
    const key = directives[i] as GroupDirective | UsageKey;
    const start = directives[i + 2] as number;
    const end = directives[i + 3] as number;
    if (key === 'content-usage' || key === 'content-signal') {
      (selected.usage ??= []).push(readUsageRecord(key, directives[i + 1] as number, body, start, end));
    } else {
      applyGroupDirective(selected, key, body.subarray(start, end), false);
    }
  }
  return selected;
}

/** What selectAgent() found: the selection, and its groups' rules alone, in order (RuleRecords.select()). */
export interface AgentSelection extends Selection {
  readonly rules: RuleRecords;
}

const NO_BODY = new Uint8Array(0);
/** The candidates' rules of every selection are read into the same records, and what applies copied out. */
const gathered = new RuleRecords(NO_BODY);

/** The first kind of candidate that any group is, in select.ts's order. */
function chosenCandidates(selector: AgentSelector): { readonly matched: Selection['matched']; readonly chosen: OpenGroup[] } {
  if (selector.named.length > 0) return { matched: 'agent', chosen: selector.named };
  if (selector.family.length > 0) return { matched: 'family', chosen: selector.family };
  return { matched: selector.global.length > 0 ? 'global' : 'none', chosen: selector.global };
}

/**
 * The groups of `body` that apply to the agent of `key` (select.ts's rules), read by `read` without
 * building the groups. `matched` is 'agent' exactly when a group names the agent, 'family' when none does
 * and a group names `familyKey`.
 */
export function selectAgent(body: Uint8Array, key: string | undefined, familyKey: string | undefined, read: RecordReader): AgentSelection {
  const selector = new AgentSelector(body, key, familyKey, gathered);
  read(body, selector);
  selector.close();
  const { matched, chosen } = chosenCandidates(selector);
  const rules = gathered.select(chosen);
  // The records read spans of the body: let it go.
  gathered.reset(NO_BODY);
  return { matched, groups: chosen.map((group) => extensionsOf(body, group)), rules };
}
