/**
 * Why a line got its verdict, as the outputs and the summary name it: a file's rules decided (`rule`, whether a
 * rule matched or none did), the same rules from a file cut at --max-bytes (`cut`), the host's outcome when it
 * has no rules to apply (a HostReason; `missing` also when no robots.txt is known and --missing decides), or no
 * URL to decide (`malformed`).
 */
import { isCut, isRules, type HostReason, type HostRules } from './robots-source.js';

export type Reason = 'rule' | 'cut' | HostReason | 'malformed';

/** Every reason, in the order the summary lists them. */
export const REASONS = [
  'rule',
  'cut',
  'missing',
  'server-error',
  'unreachable',
  'refused',
  'redirect-refused',
  'malformed',
] as const satisfies readonly Reason[];

/** Lines counted by reason. */
export type ReasonCounts = Record<Reason, number>;

/** A count of zero for every reason. */
export function noReasons(): ReasonCounts {
  return Object.fromEntries(REASONS.map((reason) => [reason, 0])) as ReasonCounts;
}

/** The reason of a line decided by what its host's lookup found. */
export function reasonOf(rules: HostRules): Exclude<Reason, 'malformed'> {
  if (rules === null) return 'missing';
  if (!isRules(rules)) return rules.reason;
  return isCut(rules) ? 'cut' : 'rule';
}
