/** The options of fetchRobotsTxt(), checked once and filled with their defaults. */
import { DEFAULT_MAX_BYTES } from '../api/robots-txt.js';
import { profileNamed, type ProfileName } from '../profile.js';
import type { FetchInit, ResponseShape, URLInput } from '../api/web-types.js';

/**
 * The fetch to use: `globalThis.fetch` or anything with its shape (undici's, one with a DNS lookup that
 * refuses private addresses, one that adds a proxy). It is called with `redirect: 'manual'`: redirects are
 * followed here, one hop at a time. It may resolve to the platform's Response or to anything with the
 * few members this library reads ({@link ResponseShape}).
 */
export type FetchLike = (url: string, init: FetchInit) => Promise<ResponseShape>;

/**
 * How to fetch robots.txt.
 *
 * @example
 * const options: FetchRobotsOptions = { userAgent: 'ExampleBot/1.2 (+https://example.com/bot)', timeoutMs: 5_000 };
 */
export interface FetchRobotsOptions {
  /** The `User-Agent` header sent with every robots.txt request, redirects included. Required. */
  readonly userAgent: string;
  /** Default `globalThis.fetch` (Node 20+, browsers, Workers). */
  readonly fetch?: FetchLike;
  /** Deadline for the whole fetch, redirects and body included, in milliseconds. Default 10,000. */
  readonly timeoutMs?: number;
  /** Body bytes read and parsed; the download stops after them. Default 512,000 (500 KiB, RFC 9309 §2.5). */
  readonly maxBytes?: number;
  /** The parsing profile: `'rfc9309'` (default), `'google'` or `'yandex'` (which also reads the status its way: see RobotsFetchReason). */
  readonly profile?: ProfileName;
  /**
   * Asked before every redirect hop (not the first request, which the caller chose) with the URL the hop
   * would request, credentials removed; `false` (or a throw) refuses it, and the fetch ends as
   * `allow-all` with reason `'redirect-refused'`, like any redirect that leads nowhere. Default: every
   * http(s) hop is followed. A crawler inside a cloud network should refuse hosts it must never reach:
   * `localhost`, IP literals in private, loopback and link-local ranges, metadata endpoints: pass
   * `publicHostsOnly` (or set `allowHost`, which is asked before every hop too).
   */
  readonly allowRedirect?: (url: URLInput) => boolean;
  /**
   * Asked before every request, the first one and each redirect hop, with the URL it would request
   * (credentials removed); `false` (or a throw) refuses it and nothing is sent. A refused first request
   * ends as `disallow-all` with reason `'host-refused'`: a crawler does not crawl a host it refuses. A
   * refused hop ends as `allow-all` with `'redirect-refused'`, as allowRedirect's refusal does: the
   * site's robots.txt leads somewhere the crawler will not go. `publicHostsOnly` refuses the crawler's
   * own machine and network and the cloud's metadata endpoints. Default: every host is fetched.
   *
   * With either policy set, no request is sent that it was not asked about: a redirect the runtime hides
   * (a browser's opaque redirect) is not followed, and a response a `fetch` reached by following redirects
   * itself is read only when the policies allow its final URL; both end as `'redirect-refused'`.
   */
  readonly allowHost?: (url: URLInput) => boolean;
}

export interface ResolvedFetchOptions {
  readonly userAgent: string;
  readonly fetch: FetchLike;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly profile: ProfileName;
  readonly allowRedirect: ((url: URL) => boolean) | undefined;
  readonly allowHost: ((url: URL) => boolean) | undefined;
  /** The clock Retry-After dates are read against (RobotsCache's own). */
  readonly now: () => number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
/** setTimeout's largest delay. */
const MAX_TIMEOUT_MS = 2_147_483_647;
// A header value of visible ASCII, spaces and tabs: anything else fetch() would refuse at request time.
const HEADER_VALUE = /^[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?$/;

function describe(value: unknown): string {
  return typeof value === 'string'
    ? JSON.stringify(value)
    : value === null
      ? 'null'
      : typeof value === 'number'
        ? String(value)
        : typeof value;
}

export function checkUserAgent(userAgent: unknown): string {
  if (typeof userAgent !== 'string' || !HEADER_VALUE.test(userAgent)) {
    throw new TypeError(
      `Invalid userAgent ${describe(userAgent)}: pass the User-Agent header your crawler sends, printable ASCII, ` +
        `e.g. "ExampleBot/1.2 (+https://example.com/bot)"`,
    );
  }
  return userAgent;
}

export function checkWholeNumber(name: string, value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
    throw new RangeError(`${name} must be a whole number ${range}, got ${describe(value)}`);
  }
  return value;
}

/** A positive, finite number of milliseconds that setTimeout can wait. */
export function checkDuration(name: string, value: unknown): number {
  if (typeof value !== 'number' || !(value > 0) || value > MAX_TIMEOUT_MS) {
    throw new RangeError(`${name} must be a number of milliseconds > 0 and ≤ ${MAX_TIMEOUT_MS}, got ${describe(value)}`);
  }
  return value;
}

function resolveFetch(custom: unknown): FetchLike {
  if (custom !== undefined) {
    if (typeof custom !== 'function') throw new TypeError(`fetch must be a function like globalThis.fetch, got ${describe(custom)}`);
    const call = custom as FetchLike;
    return (url, init) => call(url, init);
  }
  const global: unknown = globalThis.fetch;
  if (typeof global !== 'function') {
    throw new TypeError("No fetch is available on this platform: pass { fetch } (e.g. undici's fetch) in the options");
  }
  // Called unbound: some platforms refuse a fetch called as a method of another object.
  const call = global as FetchLike;
  return (url, init) => call(url, init);
}

/** A body read from the network must be bounded: unlike parseRobotsTxt(), no Infinity. */
function checkNetworkMaxBytes(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw new RangeError(
    `maxBytes must be a finite whole number of bytes ≥ 0, got ${describe(value)}: a body read from the network ` +
      `must be bounded (only parseRobotsTxt() accepts Infinity). Default ${DEFAULT_MAX_BYTES} (500 KiB).`,
  );
}

function checkUrlPolicy(name: string, value: unknown): ((url: URL) => boolean) | undefined {
  if (value === undefined || typeof value === 'function') return value as ((url: URL) => boolean) | undefined;
  throw new TypeError(`${name} must be a function (url: URL) => boolean, got ${describe(value)}`);
}

/** Checks the options of fetchRobotsTxt() and fills in the defaults; throws TypeError or RangeError. */
export function resolveFetchOptions(options: FetchRobotsOptions, now: () => number = Date.now): ResolvedFetchOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`Expected an options object with at least { userAgent }, got ${describe(options)}`);
  }
  const profile = options.profile ?? 'rfc9309';
  profileNamed(profile);
  return {
    userAgent: checkUserAgent(options.userAgent),
    fetch: resolveFetch(options.fetch),
    timeoutMs: checkDuration('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    maxBytes: checkNetworkMaxBytes(options.maxBytes ?? DEFAULT_MAX_BYTES),
    profile,
    allowRedirect: checkUrlPolicy('allowRedirect', options.allowRedirect),
    allowHost: checkUrlPolicy('allowHost', options.allowHost),
    now,
  };
}
