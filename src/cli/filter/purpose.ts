/**
 * `filter --purpose train-ai|search|ai-input`: a line is kept when its URL may be crawled AND its site does not
 * refuse that use of what is fetched (AgentRules.usage(), draft-ietf-aipref-vocab-07 §4 for train-ai and
 * search, Cloudflare's Content Signals Policy https://contentsignals.org/ for ai-input); `--unknown drop` keeps
 * only the lines whose site allows it outright. A host with no file to apply reads as RobotsCache.usage() reads
 * it: allowed by its outcome (a 4xx, no file known with --missing allow, a refused redirect), no preference is
 * stated, so every purpose is unknown; disallowed by it (a 5xx, a timeout, a refused host), the URL may not be
 * fetched and has no preferences at all.
 */
import type { UsagePreference } from '../../usage/statement.js';
import { isRules, type HostRules } from './robots-source.js';
import type { UsageFilter } from './usage-filter.js';

/**
 * Whether the crawlable lines of a host need an answer each: only rules compiled from a file with usage lines
 * do. Every other crawlable line's preference is `unknown`, which `--unknown keep` keeps: those lines are
 * decided by their verdict alone, in a batch (isAllowedBytes) or by the line scanner.
 */
export function asksEachLine(rules: HostRules, filter: UsageFilter | undefined): boolean {
  return filter !== undefined && isRules(rules) && rules.hasUsageLines;
}

/**
 * The preference for `filter`'s purpose of `url`, which `rules` allow (a host outcome's allow-all, or a rules
 * verdict): `unknown` unless the file has usage lines. Null only if usage() finds the URL not crawlable, which
 * the verdict it follows said it was (both read the string the same way).
 */
export function preferenceOf(rules: HostRules, url: string, filter: UsageFilter): UsagePreference | null {
  if (!isRules(rules) || !rules.hasUsageLines) return 'unknown';
  const answer = rules.usage(url);
  return answer === null ? null : answer[filter.purpose];
}
