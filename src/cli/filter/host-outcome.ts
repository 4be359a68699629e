/**
 * What a host with no rules to apply reads as, and why: shared by the sources that decide lines
 * (./robots-source.ts) and the fetch records they read (./fetch-record.ts).
 */

/** Why a host has no rules to apply: the reason its lines carry in the output and the summary. */
export type HostReason = 'missing' | 'server-error' | 'unreachable' | 'refused' | 'redirect-refused';

/** A host's verdict for every URL, and why. */
export interface HostOutcome {
  readonly allowed: boolean;
  readonly reason: HostReason;
}
