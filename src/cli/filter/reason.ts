/**
 * Why a line got its verdict, as the tsv, jsonl and csv outputs and the summary say it: `rule`, the host's
 * rules decided (a rule matched, or none did and the URL is allowed); `cut`, the same, from a file cut at
 * --max-bytes; a HostReason, the host had no rules to apply (./robots-source.ts); `malformed`, the line holds
 * no URL to decide.
 */
import type { HostReason } from './robots-source.js';

export const REASONS = [
  'rule',
  'cut',
  'missing',
  'server-error',
  'unreachable',
  'refused',
  'redirect-refused',
  'malformed',
] as const satisfies readonly ('rule' | 'cut' | HostReason | 'malformed')[];
export type Reason = (typeof REASONS)[number];

/** Lines counted by reason. */
export type ReasonCounts = Record<Reason, number>;

export function noReasons(): ReasonCounts {
  return { rule: 0, cut: 0, missing: 0, 'server-error': 0, unreachable: 0, refused: 0, 'redirect-refused': 0, malformed: 0 };
}
