/**
 * How long RobotsCache keeps what it fetched, and how soon it asks again after a failure.
 * spec: RFC 9309 §2.4; 003_14cd348ff9b99c23.txt, "Handling HTTP result codes" (caching paragraph).
 */
import type { RobotsFetchResult } from './outcome.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Cache lifetimes, in milliseconds. */
export const CACHE_LIMITS = {
  /** The longest a fetched copy is used before it is asked again (RFC 9309 §2.4: 24 hours). */
  maxLifetime: DAY,
  /** The shortest: `no-store`, `no-cache` and `max-age=0` still keep a copy this long, sparing the site. */
  minLifetime: MINUTE,
  /** How long the last good copy may stand in for a site that has become unreachable. */
  staleLimit: 30 * DAY,
  /** The first wait before asking an unreachable site again; it doubles with each failure… */
  firstBackoff: MINUTE,
  /** …up to this. */
  maxBackoff: HOUR,
} as const;

/** How long a definitive answer (2xx, 4xx, redirects that lead nowhere) is used: its max-age, clamped. */
export function lifetimeOf(result: RobotsFetchResult): number {
  if (result.maxAge === undefined) return CACHE_LIMITS.maxLifetime;
  return Math.min(CACHE_LIMITS.maxLifetime, Math.max(CACHE_LIMITS.minLifetime, result.maxAge * SECOND));
}

/** The wait after the `failures`-th unreachable answer in a row (1, 2, …): 1 min, 2 min, 4 min, … 1 h. */
export function backoffAfter(failures: number): number {
  const doublings = Math.min(Math.max(failures - 1, 0), 16);
  return Math.min(CACHE_LIMITS.maxBackoff, CACHE_LIMITS.firstBackoff * 2 ** doublings);
}
