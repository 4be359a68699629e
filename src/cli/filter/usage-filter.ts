/**
 * `filter --purpose` and `--unknown` as flags and plain data (src/cli/filter/options.ts reads them, every thread
 * gets them): the purposes, the policies for an unknown preference, and which reason a preference drops a
 * crawlable line for. What a host's rules answer is ./purpose.ts's.
 */
import { USAGE_PURPOSES, type UsagePreference, type UsagePurpose } from '../../usage/statement.js';

export { USAGE_PURPOSES };
export type { UsagePreference, UsagePurpose };

/** `--unknown`: what a line whose site states no preference for the purpose becomes. */
export const UNKNOWN_POLICIES = ['keep', 'drop'] as const;
export type UnknownPolicy = (typeof UNKNOWN_POLICIES)[number];

/** `--purpose` and `--unknown`, as every thread needs them (plain data, posted to workers). */
export interface UsageFilter {
  readonly purpose: UsagePurpose;
  readonly unknown: UnknownPolicy;
}

/**
 * Why a line that may be crawled is dropped by its preference: told apart from a robots.txt disallow (reason
 * `rule`), which the preference never turns into a keep.
 */
export type UsageReason = 'usage-disallow' | 'usage-unknown';

/** The reason `preference` drops a crawlable line for, or undefined when the line is kept. */
export function droppedBy(preference: UsagePreference, filter: UsageFilter): UsageReason | undefined {
  if (preference === 'disallow') return 'usage-disallow';
  return preference === 'unknown' && filter.unknown === 'drop' ? 'usage-unknown' : undefined;
}
