/**
 * What `filter --fetch --save-dir` records of each host's fetch, beside its file, so that `filter --robots-dir`
 * on the saved folder reads every host as the fetching run did: a 5xx, a timeout, a refused host, a cut file
 * included. The record is `<file name>%outcome.json` (./robots-file-name.ts never writes `%` followed by a
 * letter that is not a hex digit, so no host's file takes that name), one JSON object:
 *
 *   {"robotstxtFetchRecord":1, "host", "url", "fetchedAt" (ISO time), "reason" (the library's
 *    RobotsFetchReason), "status", "cause" (a network failure's code, or null), "finalUrl", "redirects",
 *    "bytes" (body bytes kept), "size" (the body's real length when known, or null), "cut",
 *    "refused" ({"host","address"} for a refused host or redirect hop, else null)}
 *
 * A record is read as untrusted input: one that is too long, not JSON, of wrong types, or for another host
 * is ignored (and said), never believed in part.
 */
import type { RobotsFetchReason } from '../library.js';
import type { Refusal } from '../host-guard.js';
import { robotsFileName } from './robots-file-name.js';
import type { HostOutcome } from './host-outcome.js';

export interface FetchRecord {
  readonly host: string;
  readonly url: string;
  readonly fetchedAt: string;
  readonly reason: RobotsFetchReason;
  readonly status: number;
  readonly cause: string | null;
  readonly finalUrl: string;
  readonly redirects: number;
  readonly bytes: number;
  readonly size: number | null;
  readonly cut: boolean;
  readonly refused: Refusal | null;
}

/** How a fetch is counted in the summary: each host in one class. */
export const FETCH_CLASSES = [
  'ok',
  'redirected',
  'clientError',
  'serverError',
  'timeout',
  'networkError',
  'refused',
  'redirectRefused',
] as const;
export type FetchClass = (typeof FETCH_CLASSES)[number];

const REASONS: Readonly<Record<RobotsFetchReason, true>> = {
  ok: true,
  'client-error': true,
  'too-many-redirects': true,
  'redirect-loop': true,
  'bad-redirect': true,
  'redirect-refused': true,
  'not-200': true,
  'server-error': true,
  'rate-limited': true,
  timeout: true,
  'network-error': true,
  'body-interrupted': true,
  'invalid-response': true,
  'host-refused': true,
};

/** A record longer than this is no record this command wrote. */
export const MAX_RECORD_BYTES = 16 * 1024;
const MAX_TEXT = 4096;
const VERSION_KEY = 'robotstxtFetchRecord';

/** What ends a record's file name: `%` and a letter that is no hex digit, which no host's file name holds. */
export const RECORD_SUFFIX = '%outcome.json';

/** The record's file name, beside the host's file. */
export function recordFileName(host: string): string {
  return `${robotsFileName(host)}${RECORD_SUFFIX}`;
}

/** The record as written. */
export function recordText(record: FetchRecord): string {
  const refused = record.refused === null ? null : { host: record.refused.host, address: record.refused.address ?? null };
  return `${JSON.stringify({ [VERSION_KEY]: 1, ...record, refused })}\n`;
}

/** The summary's class of a fetch: 2xx reached directly or through redirects, 4xx, 5xx and 429, … */
export function fetchClassOf(record: Pick<FetchRecord, 'reason' | 'status' | 'redirects'>): FetchClass {
  switch (record.reason) {
    case 'ok':
      return record.redirects > 0 ? 'redirected' : 'ok';
    case 'client-error':
    case 'too-many-redirects':
    case 'redirect-loop':
    case 'bad-redirect':
      return 'clientError';
    case 'not-200':
      return record.status >= 500 || record.status === 429 ? 'serverError' : 'clientError';
    case 'server-error':
    case 'rate-limited':
      return 'serverError';
    case 'timeout':
      return 'timeout';
    case 'network-error':
    case 'body-interrupted':
    case 'invalid-response':
      return 'networkError';
    case 'host-refused':
      return 'refused';
    case 'redirect-refused':
      return 'redirectRefused';
  }
}

/** A network failure's cause as the summary counts it: its code, or the library's reason when none is known. */
export function causeOf(record: Pick<FetchRecord, 'reason' | 'cause'>): string {
  return record.cause ?? record.reason;
}

/**
 * What a host with no file to apply reads as, from its fetch's reason (RFC 9309 §2.3.1, the library's
 * outcome table): a 4xx or a redirect that leads nowhere allows all (`missing`); a refused redirect hop
 * allows all (`redirect-refused`); 5xx and 429 disallow all (`server-error`); a timeout or a network
 * failure disallows all (`unreachable`); a host refused at its first request disallows all (`refused`).
 * Undefined for `ok`: the file's rules decide.
 */
export function outcomeOfReason(reason: RobotsFetchReason): HostOutcome | undefined {
  switch (reason) {
    case 'ok':
      return undefined;
    case 'client-error':
    case 'too-many-redirects':
    case 'redirect-loop':
    case 'bad-redirect':
    case 'not-200':
      return { allowed: true, reason: 'missing' };
    case 'redirect-refused':
      return { allowed: true, reason: 'redirect-refused' };
    case 'server-error':
    case 'rate-limited':
      return { allowed: false, reason: 'server-error' };
    case 'timeout':
    case 'network-error':
    case 'body-interrupted':
    case 'invalid-response':
      return { allowed: false, reason: 'unreachable' };
    case 'host-refused':
      return { allowed: false, reason: 'refused' };
  }
}

function isCount(value: unknown, max = Number.MAX_SAFE_INTEGER): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= max;
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_TEXT;
}

function refusalOf(value: unknown): Refusal | null | undefined {
  if (value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { host, address } = value as Record<string, unknown>;
  if (!isText(host) || host === '' || !(address === null || isText(address))) return undefined;
  return { host, address: address ?? undefined };
}

/**
 * The record in `bytes` for `host`, or what is wrong with it (a few words, for the note that says it is
 * ignored). Every field is checked; a record for another host, or one that says the host was refused
 * without saying what was refused at its first request, is not this host's.
 */
export function parseRecord(bytes: Uint8Array, host: string): FetchRecord | string {
  if (bytes.length > MAX_RECORD_BYTES) return `longer than ${MAX_RECORD_BYTES} bytes`;
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return 'not JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const fields = value as Record<string, unknown>;
  if (fields[VERSION_KEY] !== 1) return `no "${VERSION_KEY}": 1`;
  if (fields.host !== host) return 'the record of another host';
  const { url, fetchedAt, reason, status, cause, finalUrl, redirects, bytes: kept, size, cut } = fields;
  if (!isText(url) || !isText(finalUrl)) return 'a URL that is not a string';
  if (!isText(fetchedAt) || Number.isNaN(Date.parse(fetchedAt))) return '"fetchedAt" is not a time';
  if (typeof reason !== 'string' || !Object.hasOwn(REASONS, reason)) return 'an unknown "reason"';
  if (!isCount(status, 999)) return '"status" is not an HTTP status';
  if (!(cause === null || (isText(cause) && cause.length <= 100))) return '"cause" is not a short string';
  if (!isCount(redirects, 100) || !isCount(kept) || !(size === null || isCount(size)) || typeof cut !== 'boolean')
    return 'a count that is not a whole number';
  const refused = refusalOf(fields.refused);
  if (refused === undefined) return '"refused" is not {"host","address"}';
  if (reason === 'host-refused' && refused === null) return 'a refused host without what was refused';
  return {
    host,
    url,
    fetchedAt,
    reason: reason as RobotsFetchReason,
    status,
    cause,
    finalUrl,
    redirects,
    bytes: kept,
    size,
    cut,
    refused,
  };
}
