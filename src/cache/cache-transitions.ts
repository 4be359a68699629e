/**
 * What RobotsCache keeps for one origin, and how each fetch turns the entry held into the next one: how
 * long an answer is used, what a 304 renews, how an outage is served from the last good copy, and when an
 * unreachable site is asked again. Pure: no clock, no network, no memory of its own; the cache passes the
 * time and does the storing. RFC 9309 §2.3.1 (what each outcome means), §2.4 (caching); RFC 9111 §4.3.4
 * (a 304 updates the stored headers).
 */
import { backoffAfter, CACHE_LIMITS, lifetimeOf, type LifetimeBounds } from './cache-policy.js';
import type { NotModified, Validators } from '../fetch/fetch-robots.js';
import type { RobotsFetchResult, RobotsFetchVerdict, RobotsOutcome } from '../fetch/outcome.js';
import type { RefreshFailure } from './robots-cache-types.js';

/** A fetch result without its parse tree: what the cache reports of it. */
export type FetchFacts = Omit<RobotsFetchVerdict, 'outcome' | 'robots'> & { readonly outcome: RobotsOutcome };

/**
 * One fetched answer as the cache keeps it. `Kept` is what the cache keeps of a 2xx body (a CachedFile;
 * the transitions only carry it, so their tests need no compiled rules).
 */
export interface Copy<Kept> {
  readonly facts: FetchFacts;
  /** The file and its rules compiled for the cache's agent, when the outcome is 'rules'. */
  readonly file: Kept | undefined;
  /** When it was fetched or last confirmed by a 304. */
  readonly fetchedAt: number;
  /** Cache-Control max-age (seconds) and validators, updated by a 304 (RFC 9111 §4.3.4). */
  readonly maxAge: number | undefined;
  readonly etag: string | undefined;
  readonly lastModified: string | undefined;
}

export interface Entry<Kept> {
  readonly copy: Copy<Kept>;
  /** The copy is older than its lifetime, served because the site became unreachable. */
  readonly stale: boolean;
  /** When the next caller triggers a fetch. */
  readonly expiresAt: number;
  /** Unreachable answers in a row, for the back-off. */
  readonly failures: number;
  readonly refreshFailure: RefreshFailure | undefined;
}

/** A fetch that brought an answer: its facts, and the file kept of its body when the outcome is 'rules'. */
export interface Fetched<Kept> {
  readonly facts: FetchFacts;
  readonly file: Kept | undefined;
}

/** The cache's options the transitions follow. */
export interface TransitionPolicy {
  readonly lifetimes: LifetimeBounds;
  /** Wait as long as a 429's or 503's Retry-After asks (within the back-off ceiling). */
  readonly honorRetryAfter: boolean;
}

/** The result without its parse tree, which the cache does not keep. */
export function withoutParse(result: RobotsFetchResult): FetchFacts {
  if (result.outcome !== 'rules') return result;
  const { robots: _parsed, ...facts } = result;
  return facts;
}

/** What a request to renew `copy` sends, or undefined when it cannot be conditional (no file, no validators). */
export function validatorsOf<Kept>(copy: Copy<Kept>): Validators | undefined {
  if (copy.file === undefined || (copy.etag === undefined && copy.lastModified === undefined)) return undefined;
  return { url: copy.facts.finalUrl, etag: copy.etag, lastModified: copy.lastModified };
}

/** A definitive answer (2xx, 4xx, redirects that lead nowhere): a new copy, used for its lifetime. */
function definitive<Kept>(fetched: Fetched<Kept>, now: number, policy: TransitionPolicy): Entry<Kept> {
  const { facts, file } = fetched;
  const copy: Copy<Kept> = { facts, file, fetchedAt: now, maxAge: facts.maxAge, etag: facts.etag, lastModified: facts.lastModified };
  return { copy, stale: false, expiresAt: now + lifetimeOf(facts.maxAge, policy.lifetimes), failures: 0, refreshFailure: undefined };
}

/**
 * The site is unreachable: the last good copy stands in (stale) for up to CACHE_LIMITS.staleLimit after it
 * was fetched; without one, everything is disallowed. Either way the site is asked again after the
 * back-off, which grows with each failure in a row.
 */
function unreachable<Kept>(previous: Entry<Kept> | undefined, facts: FetchFacts, now: number, policy: TransitionPolicy): Entry<Kept> {
  const failures = (previous?.failures ?? 0) + 1;
  const retryAt = now + backoffAfter(failures, policy.honorRetryAfter ? facts.retryAfter : undefined);
  const kept = previous?.copy;
  const staleUntil = kept === undefined ? 0 : kept.fetchedAt + CACHE_LIMITS.staleLimit;
  if (kept !== undefined && kept.facts.outcome !== 'disallow-all' && now < staleUntil) {
    const refreshFailure = { reason: facts.reason, status: facts.status, at: now };
    return { copy: kept, stale: true, expiresAt: Math.min(retryAt, staleUntil), failures, refreshFailure };
  }
  const copy: Copy<Kept> = { facts, file: undefined, fetchedAt: now, maxAge: undefined, etag: undefined, lastModified: undefined };
  return { copy, stale: false, expiresAt: retryAt, failures, refreshFailure: undefined };
}

/**
 * The crawler's own allowHost refused the host: nothing was fetched, so no copy stands in and there is no
 * back-off; the policy, which may change, is asked again after the shortest lifetime.
 */
function refused<Kept>(facts: FetchFacts, now: number, policy: TransitionPolicy): Entry<Kept> {
  const copy: Copy<Kept> = { facts, file: undefined, fetchedAt: now, maxAge: undefined, etag: undefined, lastModified: undefined };
  return { copy, stale: false, expiresAt: now + policy.lifetimes.min, failures: 0, refreshFailure: undefined };
}

/** A 304: the copy held is good for another lifetime, with the headers the 304 updated. */
function renewed<Kept>(held: Copy<Kept>, confirmation: NotModified, now: number, policy: TransitionPolicy): Entry<Kept> {
  const maxAge = confirmation.maxAge ?? held.maxAge;
  const copy: Copy<Kept> = {
    ...held,
    fetchedAt: now,
    maxAge,
    etag: confirmation.etag ?? held.etag,
    lastModified: confirmation.lastModified ?? held.lastModified,
  };
  return { copy, stale: false, expiresAt: now + lifetimeOf(maxAge, policy.lifetimes), failures: 0, refreshFailure: undefined };
}

/**
 * The origin's next entry, from the one it had (if any), what the fetch brought, and the time it landed.
 * A 304 renews the entry held, so it needs one: the cache sends validators only for a copy it holds, and
 * fetches the file itself when that copy is gone by the time the 304 lands.
 */
export function nextEntry<Kept>(
  previous: Entry<Kept>,
  fetched: Fetched<Kept> | NotModified,
  now: number,
  policy: TransitionPolicy,
): Entry<Kept>;
export function nextEntry<Kept>(
  previous: Entry<Kept> | undefined,
  fetched: Fetched<Kept>,
  now: number,
  policy: TransitionPolicy,
): Entry<Kept>;
export function nextEntry<Kept>(
  previous: Entry<Kept> | undefined,
  fetched: Fetched<Kept> | NotModified,
  now: number,
  policy: TransitionPolicy,
): Entry<Kept> {
  // The overloads let a 304 in only with an entry to renew.
  if (!('facts' in fetched)) return renewed((previous as Entry<Kept>).copy, fetched, now, policy);
  if (fetched.facts.reason === 'host-refused') return refused(fetched.facts, now, policy);
  if (fetched.facts.outcome === 'disallow-all') return unreachable(previous, fetched.facts, now, policy);
  return definitive(fetched, now, policy);
}
