/**
 * Records → groups, by the parser's rule (src/parse/group-boundary.ts). Rules, group extensions and usage
 * lines before any user-agent line belong to no group.
 */
import { GroupBoundary } from '../parse/group-boundary.js';
import { keyName, type LintRecord } from './records.js';
import type { LintSource } from './source.js';

/** The extensions that belong to a group rather than to the file. */
export const GROUP_EXTENSIONS: ReadonlySet<string> = new Set(['crawl-delay', 'request-rate', 'visit-time']);

/**
 * The lines that state usage preferences for a group's paths (draft-ietf-aipref-attach-05 §3, and Content-Signal
 * read the same way): rules of the group they stand in, which, like Allow and Disallow, end a run of
 * User-agent lines, as the parser reads them (src/parse/groups.ts).
 */
export const USAGE_KEYS: ReadonlySet<string> = new Set(['content-usage', 'content-signal']);

export interface LintGroup {
  readonly agents: LintRecord[];
  /** Allow and disallow lines, in file order. */
  readonly rules: LintRecord[];
  /** Crawl-delay, request-rate and visit-time lines. */
  readonly extensions: LintRecord[];
  /** Content-Usage and Content-Signal lines, in file order. */
  readonly usage: LintRecord[];
}

export interface Grouping {
  readonly groups: LintGroup[];
  /** Rules, group extensions and usage lines that came before any user-agent line. */
  readonly orphans: LintRecord[];
}

export function isRule(record: LintRecord): boolean {
  return record.kind === 'allow' || record.kind === 'disallow';
}

/** A line that belongs to the group it stands in without being a rule: an extension, or a usage line. */
export function isGroupExtension(source: LintSource, record: LintRecord): boolean {
  if (record.kind !== 'other') return false;
  const name = keyName(source, record);
  return GROUP_EXTENSIONS.has(name) || USAGE_KEYS.has(name);
}

export function groupRecords(source: LintSource, records: readonly LintRecord[]): Grouping {
  const groups: LintGroup[] = [];
  const orphans: LintRecord[] = [];
  const boundary = new GroupBoundary();
  let current: LintGroup | undefined;
  for (const record of records) {
    if (record.kind === 'user-agent') {
      if (boundary.userAgent() || current === undefined) {
        current = { agents: [], rules: [], extensions: [], usage: [] };
        groups.push(current);
      }
      current.agents.push(record);
    } else if (isRule(record)) {
      if (boundary.rule() && current !== undefined) current.rules.push(record);
      else orphans.push(record);
    } else if (record.kind === 'other') {
      const name = keyName(source, record);
      const usage = USAGE_KEYS.has(name);
      if (!usage && !GROUP_EXTENSIONS.has(name)) continue;
      if (!(usage ? boundary.rule() : boundary.inGroup) || current === undefined) orphans.push(record);
      else (usage ? current.usage : current.extensions).push(record);
    }
  }
  return { groups, orphans };
}
