/**
 * An origin's entry as a fleet of RobotsCaches shares it through a store: one string holding the fetch facts,
 * the cache's state for the origin (lifetime, validators, the stale copy and back-off of an outage) and the
 * body as fetched. Each process parses and compiles the body itself.
 *
 * Format 1: a JSON header, a line feed, then the body: its text when it is valid UTF-8 (almost every
 * robots.txt), else base64. The format's version is part of the key too, so that two versions of a crawler
 * in a rolling deploy each keep their own records. Decoding checks every field: a record that does not decode
 * is reported as invalid and never used. A record that decodes is still another process's word, trusted no
 * further than the reader's own fetch (trustedEntry).
 */
import { CACHE_LIMITS, type LifetimeBounds } from './cache-policy.js';
import type { Copy, Entry, FetchFacts } from './cache-transitions.js';
import { outcomeOf, type RobotsFetchReason } from '../fetch/outcome.js';
import type { RefreshFailure } from './robots-cache-types.js';
import type { ProfileName } from '../profile.js';

export const RECORD_FORMAT = 1;

/** A record's key: the format, then the origin (`scheme://host[:port]`, ASCII). */
export function recordKey(origin: string): string {
  return `v${RECORD_FORMAT}/record/${origin}`;
}

/** The key of the lease one process of the fleet holds while it fetches the origin's robots.txt. */
export function leaseKey(origin: string): string {
  return `v${RECORD_FORMAT}/lease/${origin}`;
}

/** An entry as shared: what the cache keeps of a 2xx is its body, from which each process compiles. */
export type SharedEntry = Entry<Uint8Array>;

/**
 * Outcomes of the writer's own policy (its allowHost or allowRedirect, or its fetch refusing an address), not
 * of the site: a process with another policy would have fetched. Never written, and a record of one is invalid.
 */
const OWN_POLICY_REASONS: ReadonlySet<RobotsFetchReason> = new Set(['host-refused', 'redirect-refused']);

/** The record's longest text beside the body: URLs, validators, Content-Type. */
const MAX_HEADER_CHARS = 64 * 1024;

/** The longest record a cache with this `maxBytes` writes or reads (base64 of a body of maxBytes + 1 bytes, and the header). */
export function maxRecordChars(maxBytes: number): number {
  return Math.ceil((maxBytes + 1) / 3) * 4 + MAX_HEADER_CHARS;
}

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function bodyText(body: Uint8Array): { readonly encoding: 'utf8' | 'base64'; readonly text: string } {
  try {
    return { encoding: 'utf8', text: strictUtf8.decode(body) };
  } catch {
    let binary = '';
    // In slices: String.fromCharCode takes its arguments on the stack.
    for (let at = 0; at < body.length; at += 0x8000) binary += String.fromCharCode(...body.subarray(at, at + 0x8000));
    return { encoding: 'base64', text: btoa(binary) };
  }
}

function bodyBytes(encoding: unknown, text: string): Uint8Array | undefined {
  if (encoding === 'utf8') return utf8.encode(text);
  if (encoding !== 'base64') return undefined;
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * The record of `entry` for `origin`, as a cache reading `profile` keeps it (a profile decides what a fetch's
 * status means: Yandex's reads a 5xx as allowing everything): undefined when it would exceed maxRecordChars
 * (a header too large), or when the entry is an outcome of the cache's own policy.
 */
export function encodeRecord(origin: string, entry: SharedEntry, maxBytes: number, profile: ProfileName = 'rfc9309'): string | undefined {
  const { copy } = entry;
  if (OWN_POLICY_REASONS.has(copy.facts.reason)) return undefined;
  const body = copy.file === undefined ? undefined : bodyText(copy.file);
  const header = {
    format: RECORD_FORMAT,
    origin,
    maxBytes,
    profile,
    facts: copy.facts,
    fetchedAt: copy.fetchedAt,
    maxAge: copy.maxAge,
    etag: copy.etag,
    lastModified: copy.lastModified,
    stale: entry.stale,
    expiresAt: entry.expiresAt,
    failures: entry.failures,
    refreshFailure: entry.refreshFailure,
    body: body?.encoding ?? 'none',
  };
  const json = JSON.stringify(header);
  if (json.length > MAX_HEADER_CHARS) return undefined;
  return `${json}\n${body?.text ?? ''}`;
}

/** Reads fields of untrusted JSON: each getter answers undefined for a value of another type. */
class Fields {
  constructor(private readonly object: Record<string, unknown>) {}

  static of(value: unknown): Fields | undefined {
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? new Fields(value as Record<string, unknown>) : undefined;
  }

  string(name: string): string | undefined {
    const value = this.object[name];
    return typeof value === 'string' ? value : undefined;
  }

  /** A finite number ≥ 0 (a time, a count, a size). */
  number(name: string): number | undefined {
    const value = this.object[name];
    return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
  }

  boolean(name: string): boolean | undefined {
    const value = this.object[name];
    return typeof value === 'boolean' ? value : undefined;
  }

  has(name: string): boolean {
    return this.object[name] !== undefined;
  }

  child(name: string): Fields | undefined {
    return Fields.of(this.object[name]);
  }
}

/** An optional field: absent is fine (undefined), present must have the type. */
function optional<T>(fields: Fields, name: string, read: (name: string) => T | undefined): { value: T | undefined } | undefined {
  if (!fields.has(name)) return { value: undefined };
  const value = read.call(fields, name);
  return value === undefined ? undefined : { value };
}

/** A reason a record may hold: one of the site's, not of the writer's own policy. */
function isSharedReason(value: string | undefined): value is RobotsFetchReason {
  if (value === undefined || OWN_POLICY_REASONS.has(value as RobotsFetchReason)) return false;
  try {
    return outcomeOf(value as RobotsFetchReason) !== undefined;
  } catch {
    return false;
  }
}

/**
 * A validator as a request may send it back (If-None-Match, If-Modified-Since): a field value of RFC 9110
 * §5.5 (visible ASCII and obs-text, spaces and tabs only inside), else undefined. fetch() throws on a line
 * break, a NUL or a character over U+00FF (node:http on any control character) before sending anything: the
 * revalidation would read as the site being unreachable, and its stale copy be served and shared.
 */
function validator(value: string | undefined): string | undefined {
  if (value === undefined || !/^[\t\x20-\x7e\x80-\xff]*$/.test(value) || /^[\t ]|[\t ]$/.test(value)) return undefined;
  return value;
}

function decodeFacts(fields: Fields | undefined, origin: string): FetchFacts | undefined {
  if (fields === undefined) return undefined;
  const reason = fields.string('reason');
  if (!isSharedReason(reason)) return undefined;
  const outcome = outcomeOf(reason);
  if (fields.string('outcome') !== outcome) return undefined;
  const status = fields.number('status');
  const robotsUrl = fields.string('robotsUrl');
  const finalUrl = fields.string('finalUrl');
  const redirects = fields.number('redirects');
  const bytes = fields.number('bytes');
  const truncated = fields.boolean('truncated');
  const looksLikeHtml = fields.boolean('looksLikeHtml');
  const bytesIgnored = optional(fields, 'bytesIgnored', fields.number);
  const contentType = optional(fields, 'contentType', fields.string);
  const maxAge = optional(fields, 'maxAge', fields.number);
  const retryAfter = optional(fields, 'retryAfter', fields.number);
  const etag = optional(fields, 'etag', fields.string);
  const lastModified = optional(fields, 'lastModified', fields.string);
  if (
    fields.string('origin') !== origin ||
    robotsUrl !== `${origin}/robots.txt` ||
    status === undefined ||
    finalUrl === undefined ||
    redirects === undefined ||
    bytes === undefined ||
    truncated === undefined ||
    looksLikeHtml === undefined ||
    bytesIgnored === undefined ||
    contentType === undefined ||
    maxAge === undefined ||
    retryAfter === undefined ||
    etag === undefined ||
    lastModified === undefined
  )
    return undefined;
  return {
    outcome,
    reason,
    status,
    origin,
    robotsUrl,
    finalUrl,
    redirects,
    bytes,
    truncated,
    bytesIgnored: bytesIgnored.value,
    contentType: contentType.value,
    looksLikeHtml,
    maxAge: maxAge.value,
    retryAfter: retryAfter.value,
    etag: validator(etag.value),
    lastModified: validator(lastModified.value),
  };
}

function decodeRefreshFailure(fields: Fields): { value: RefreshFailure | undefined } | undefined {
  if (!fields.has('refreshFailure')) return { value: undefined };
  const failure = fields.child('refreshFailure');
  const reason = failure?.string('reason');
  const status = failure?.number('status');
  const at = failure?.number('at');
  // What unreachable() records: a failure that disallows everything.
  if (!isSharedReason(reason) || outcomeOf(reason) !== 'disallow-all' || status === undefined || at === undefined) return undefined;
  return { value: { reason, status, at } };
}

/**
 * The entry a record holds, when it is one of this format for `origin`, written by a cache of the same
 * profile whose `maxBytes` gives the same body (the same limit, or a body that was not cut); undefined for
 * anything else.
 */
export function decodeRecord(record: string, origin: string, maxBytes: number, profile: ProfileName = 'rfc9309'): SharedEntry | undefined {
  if (record.length > maxRecordChars(maxBytes)) return undefined;
  const newline = record.indexOf('\n');
  if (newline < 0) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(record.slice(0, newline));
  } catch {
    return undefined;
  }
  const fields = Fields.of(parsed);
  if (fields === undefined || fields.number('format') !== RECORD_FORMAT || fields.string('origin') !== origin) return undefined;
  if (fields.string('profile') !== profile) return undefined;
  const facts = decodeFacts(fields.child('facts'), origin);
  const fetchedAt = fields.number('fetchedAt');
  const expiresAt = fields.number('expiresAt');
  const failures = fields.number('failures');
  const stale = fields.boolean('stale');
  const writerMaxBytes = fields.number('maxBytes');
  const maxAge = optional(fields, 'maxAge', fields.number);
  const etag = optional(fields, 'etag', fields.string);
  const lastModified = optional(fields, 'lastModified', fields.string);
  const refreshFailure = decodeRefreshFailure(fields);
  if (
    facts === undefined ||
    fetchedAt === undefined ||
    expiresAt === undefined ||
    failures === undefined ||
    stale === undefined ||
    writerMaxBytes === undefined ||
    maxAge === undefined ||
    etag === undefined ||
    lastModified === undefined ||
    refreshFailure === undefined
  )
    return undefined;
  // A body cut at another limit is not the body this cache would have read.
  if (facts.truncated && writerMaxBytes !== maxBytes) return undefined;
  const encoding = fields.string('body');
  let file: Uint8Array | undefined;
  if (facts.outcome === 'rules') {
    file = bodyBytes(encoding, record.slice(newline + 1));
    // The body as fetched: its kept bytes, and one more when it was cut.
    if (file === undefined || file.length !== facts.bytes + (facts.truncated ? 1 : 0) || facts.bytes > maxBytes) return undefined;
  } else if (encoding !== 'none' || newline + 1 !== record.length) return undefined;
  // A stale entry serves a good copy (a file, or a 4xx's allow-all); any other entry's copy is what it says.
  if (stale !== (refreshFailure.value !== undefined) || (stale && facts.outcome === 'disallow-all')) return undefined;
  const copy: Copy<Uint8Array> = {
    facts,
    file,
    fetchedAt,
    maxAge: maxAge.value,
    etag: validator(etag.value),
    lastModified: validator(lastModified.value),
  };
  return { copy, stale, expiresAt, failures, refreshFailure: refreshFailure.value };
}

/**
 * `entry` as far as a reader whose clock says `now` and whose lifetimes are `lifetimes` trusts it: no further
 * than its own fetch would have given (RFC 9309 §2.4). A writer's clock may run ahead, or a record be damaged
 * into a time that still decodes; such times are clamped, not refused. Nothing was fetched after `now`; a
 * definitive answer lasts at most `lifetimes.max` from its fetch, a back-off at most the longest back-off,
 * and a stale copy at most the longest back-off from its failed refresh and the stale limit from its fetch.
 */
export function trustedEntry(entry: SharedEntry, now: number, lifetimes: LifetimeBounds): SharedEntry {
  const { copy } = entry;
  const fetchedAt = Math.min(copy.fetchedAt, now);
  // A stale entry, and only one, has the refresh that failed (decodeRecord checks it).
  const failure = entry.refreshFailure === undefined ? undefined : { ...entry.refreshFailure, at: Math.min(entry.refreshFailure.at, now) };
  const until =
    failure !== undefined
      ? Math.min(failure.at + CACHE_LIMITS.maxBackoff, fetchedAt + CACHE_LIMITS.staleLimit)
      : fetchedAt + (copy.facts.outcome === 'disallow-all' ? CACHE_LIMITS.maxBackoff : lifetimes.max);
  return {
    ...entry,
    copy: { ...copy, fetchedAt },
    expiresAt: Math.min(entry.expiresAt, until),
    refreshFailure: failure,
  };
}
