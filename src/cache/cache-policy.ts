/**
 * How long RobotsCache keeps what it fetched, and how soon it asks again after a failure.
 * RFC 9309 §2.4 (at most 24 hours, unless unreachable); RFC 9111 for Cache-Control.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Cache lifetimes, in milliseconds: the defaults, and the bounds the options may not cross. */
export const CACHE_LIMITS = {
  /** The longest a fetched copy is used before it is asked again (RFC 9309 §2.4: 24 hours). */
  maxLifetime: DAY,
  /** The shortest, by default: `no-store`, `no-cache` and `max-age=0` still keep a copy this long, sparing the site. */
  minLifetime: MINUTE,
  /** How long the last good copy may stand in for a site that has become unreachable. */
  staleLimit: 30 * DAY,
  /** The first wait before asking an unreachable site again; it doubles with each failure… */
  firstBackoff: MINUTE,
  /** …up to this, which also caps a `Retry-After`. */
  maxBackoff: HOUR,
} as const;

/** The lifetime bounds one cache applies (its `minLifetimeMs` and `maxLifetimeMs` options). */
export interface LifetimeBounds {
  readonly min: number;
  readonly max: number;
}

/**
 * How long a definitive answer (2xx, 4xx, redirects that lead nowhere, a 304) is used: its max-age
 * (seconds; undefined when the response gave none), clamped to the bounds; the ceiling without one.
 */
export function lifetimeOf(maxAge: number | undefined, bounds: LifetimeBounds): number {
  if (maxAge === undefined) return bounds.max;
  return Math.min(bounds.max, Math.max(bounds.min, maxAge * SECOND));
}

/**
 * The wait after the `failures`-th unreachable answer in a row (1, 2, …): 1 min, 2 min, 4 min, … 1 h,
 * or longer when the site's `Retry-After` (seconds) asks for it, up to the same 1 h ceiling.
 */
export function backoffAfter(failures: number, retryAfter: number | undefined = undefined): number {
  const doublings = Math.min(Math.max(failures - 1, 0), 16);
  const backoff = CACHE_LIMITS.firstBackoff * 2 ** doublings;
  return Math.min(CACHE_LIMITS.maxBackoff, Math.max(backoff, (retryAfter ?? 0) * SECOND));
}
