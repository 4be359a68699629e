/**
 * What the root entry exported in 0.1 and no longer offers as API: bounds internal to the cache, the fetch and
 * the parser, which no option changes. src/index.ts re-exports them for one release, so that an import of them
 * still works, each marked deprecated; 0.3 removes this module.
 */
import { CACHE_LIMITS as cacheLimits } from './cache/cache-policy.js';
import { MAX_REDIRECTS as maxRedirects } from './fetch/fetch-robots.js';
import { MAX_LINE_BYTES as maxLineBytes } from './parse/lines.js';

/**
 * The cache's lifetime bounds, in milliseconds: the defaults of `RobotsCacheOptions.minLifetimeMs` (1 minute)
 * and `maxLifetimeMs` (24 hours, also their ceiling), the 30-day stale limit and the 1-minute to 1-hour back-off.
 *
 * @deprecated since 0.2: internal, will be removed in 0.3. `RobotsCacheOptions` documents each bound.
 */
export const CACHE_LIMITS = cacheLimits;

/**
 * Redirects fetchRobotsTxt() and RobotsCache follow (5); the next one counts as a 4xx.
 *
 * @deprecated since 0.2: internal, will be removed in 0.3.
 */
export const MAX_REDIRECTS = maxRedirects;

/**
 * The bytes of a line the parser keeps (16,663, Google's limit); the rest of a longer line is dropped.
 *
 * @deprecated since 0.2: internal, will be removed in 0.3.
 */
export const MAX_LINE_BYTES = maxLineBytes;
