/**
 * Records → groups, by the parser's rule (src/parse/group-boundary.ts). Rules and group extensions before
 * any user-agent line belong to no group.
 */
import { GroupBoundary } from '../parse/group-boundary.js';
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
  const boundary = new GroupBoundary();
  let current: LintGroup | undefined;
  for (const record of records) {
    if (record.kind === 'user-agent') {
      if (boundary.userAgent() || current === undefined) {
        current = { agents: [], rules: [], extensions: [] };
        groups.push(current);
      }
      current.agents.push(record);
    } else if (isRule(record)) {
      if (boundary.rule() && current !== undefined) current.rules.push(record);
      else orphans.push(record);
    } else if (isGroupExtension(source, record)) {
      if (boundary.inGroup && current !== undefined) current.extensions.push(record);
      else orphans.push(record);
    }
  }
  return { groups, orphans };
}
