/**
 * Why a line got its verdict, as the outputs and the summary name it: a file's rules decided (`rule`, whether a
 * rule matched or none did), the same rules from a file cut at --max-bytes (`cut`), the host's outcome when it
 * has no rules to apply (a HostReason; `missing` also when no robots.txt is known and --missing decides), a
 * URL that may be crawled but whose site refuses --purpose's use of it, or states nothing of it with --unknown
 * drop (a UsageReason), or no URL to decide (`malformed`).
 */
import type { UsageReason } from './usage-filter.js';
import { isCut, isRules, type HostReason, type HostRules } from './robots-source.js';

export type Reason = 'rule' | 'cut' | HostReason | UsageReason | 'malformed';

/** Every reason, in the order the summary lists them. */
export const REASONS = [
  'rule',
  'cut',
  'missing',
  'server-error',
  'unreachable',
  'refused',
  'redirect-refused',
  'usage-disallow',
  'usage-unknown',
  'malformed',
] as const satisfies readonly Reason[];

/** The reasons only --purpose gives: a run without it counts and shows none of them, as before it existed. */
export const USAGE_REASONS: readonly UsageReason[] = ['usage-disallow', 'usage-unknown'];

/** Lines counted by reason. */
export type ReasonCounts = Record<Reason, number>;

/** A count of zero for every reason. */
export function noReasons(): ReasonCounts {
  return Object.fromEntries(REASONS.map((reason) => [reason, 0])) as ReasonCounts;
}

/** The counts a run reports: without --purpose, none of USAGE_REASONS (a monitor sees the keys it always saw). */
export function reportedReasons(counts: ReasonCounts, withUsage: boolean): Partial<ReasonCounts> {
  if (withUsage) return counts;
  const reported: Partial<ReasonCounts> = { ...counts };
  for (const reason of USAGE_REASONS) delete reported[reason];
  return reported;
}

/** The reason of a line decided by what its host's lookup found. */
export function reasonOf(rules: HostRules): Exclude<Reason, 'malformed'> {
  if (rules === null) return 'missing';
  if (!isRules(rules)) return rules.reason;
  return isCut(rules) ? 'cut' : 'rule';
}
