/**
 * Records → groups, by Google's rule (the parser's, src/parse/groups.ts): consecutive user-agent lines open
 * a group, which ends at a user-agent line that follows a rule. Rules and group extensions before any
 * user-agent line belong to no group.
 */
import { keyName, type LintRecord } from './records.js';
import type { LintSource } from './source.js';

/** The extensions that belong to a group rather than to the file. */
export const GROUP_EXTENSIONS: ReadonlySet<string> = new Set(['crawl-delay', 'request-rate', 'visit-time']);

export interface LintGroup {
  readonly agents: LintRecord[];
  /** Allow and disallow lines, in file order. */
  readonly rules: LintRecord[];
  /** Crawl-delay, request-rate and visit-time lines. */
  readonly extensions: LintRecord[];
}

export interface Grouping {
  readonly groups: LintGroup[];
  /** Rules and group extensions that came before any user-agent line. */
  readonly orphans: LintRecord[];
}

export function isRule(record: LintRecord): boolean {
  return record.kind === 'allow' || record.kind === 'disallow';
}

export function isGroupExtension(source: LintSource, record: LintRecord): boolean {
  return record.kind === 'other' && GROUP_EXTENSIONS.has(keyName(source, record));
}

export function groupRecords(source: LintSource, records: readonly LintRecord[]): Grouping {
  const groups: LintGroup[] = [];
  const orphans: LintRecord[] = [];
  let current: LintGroup | undefined;
  let lastWasRule = false;
  for (const record of records) {
    if (record.kind === 'user-agent') {
      if (current === undefined || lastWasRule) {
        current = { agents: [], rules: [], extensions: [] };
        groups.push(current);
        lastWasRule = false;
      }
      current.agents.push(record);
    } else if (isRule(record)) {
      if (current === undefined) orphans.push(record);
      else {
        current.rules.push(record);
        lastWasRule = true;
      }
    } else if (isGroupExtension(source, record)) {
      if (current === undefined) orphans.push(record);
      else current.extensions.push(record);
    }
  }
  return { groups, orphans };
}
