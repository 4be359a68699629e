/**
 * What fetching a robots.txt can come to, and how each HTTP status maps to it: RFC 9309 §2.3.1, and
 * Google's reading of it (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt,
 * "Handling HTTP status codes").
 */
import type { RobotsTxt } from '../api/robots-txt.js';
import type { Profile } from '../profile.js';

/**
 * - `'rules'`: the file was fetched (2xx); its rules decide ("conditional allow").
 * - `'allow-all'`: there is no usable file (4xx, or redirects that lead nowhere or were refused; with the
 *   yandex profile, any final status but 200); anything may be crawled.
 * - `'disallow-all'`: the site is unreachable (5xx, 429, timeout, network failure, a body that broke
 *   off, a response that is not one), or the crawler's `allowHost` refused its host; nothing may be crawled.
 */
export type RobotsOutcome = 'rules' | 'allow-all' | 'disallow-all';

/**
 * Why the outcome is what it is.
 *
 * | reason | outcome |
 * | --- | --- |
 * | `'ok'` | 2xx: `'rules'` |
 * | `'client-error'` | 4xx other than 429, 401 and 403 included: `'allow-all'` |
 * | `'too-many-redirects'` | a sixth redirect: `'allow-all'` |
 * | `'redirect-loop'` | a redirect back to a URL already visited: `'allow-all'` |
 * | `'bad-redirect'` | a 3xx without a usable `Location` (missing, unparsable, not http(s)): `'allow-all'` |
 * | `'redirect-refused'` | the `allowRedirect` or `allowHost` option refused the next hop, or the final URL of a `fetch` that followed redirects itself, or was set while the runtime hid a redirect's target (or the `fetch` of that hop threw a `HostRefusedError`): `'allow-all'` |
 * | `'not-200'` | the yandex profile: a final status other than 200 (2xx, 4xx, 429, 5xx alike), which Yandex reads as unrestricted access: `'allow-all'` |
 * | `'server-error'` | 5xx, or a status outside 200–599: `'disallow-all'` |
 * | `'rate-limited'` | 429: `'disallow-all'` |
 * | `'timeout'` | no complete answer within `timeoutMs`: `'disallow-all'` |
 * | `'network-error'` | DNS, connection refused or reset, TLS, an invalid response: `'disallow-all'` |
 * | `'body-interrupted'` | the body broke off before its end: `'disallow-all'` |
 * | `'invalid-response'` | the `fetch` option returned something other than a Response: `'disallow-all'` |
 * | `'host-refused'` | the `allowHost` option refused the host (nothing was sent), or the `fetch` option threw a `HostRefusedError` for it (its DNS lookup found an internal address): `'disallow-all'` |
 */
export type RobotsFetchReason =
  | 'ok'
  | 'client-error'
  | 'too-many-redirects'
  | 'redirect-loop'
  | 'bad-redirect'
  | 'redirect-refused'
  | 'not-200'
  | 'server-error'
  | 'rate-limited'
  | 'timeout'
  | 'network-error'
  | 'body-interrupted'
  | 'invalid-response'
  | 'host-refused';

const OUTCOME_OF: Readonly<Record<RobotsFetchReason, RobotsOutcome>> = {
  ok: 'rules',
  'client-error': 'allow-all',
  'too-many-redirects': 'allow-all',
  'redirect-loop': 'allow-all',
  'bad-redirect': 'allow-all',
  'redirect-refused': 'allow-all',
  'not-200': 'allow-all',
  'server-error': 'disallow-all',
  'rate-limited': 'disallow-all',
  timeout: 'disallow-all',
  'network-error': 'disallow-all',
  'body-interrupted': 'disallow-all',
  'invalid-response': 'disallow-all',
  'host-refused': 'disallow-all',
};

/** The outcome a reason leads to. */
export function outcomeOf(reason: RobotsFetchReason): RobotsOutcome {
  return OUTCOME_OF[reason];
}

/**
 * How a final (non-redirect) status is read. 429 counts as unreachable: servers use it to shed load.
 * A profile may read every status but 200 as unrestricted access (Profile.rulesFrom200Only).
 */
export function reasonForStatus(status: number, profile: Profile): RobotsFetchReason {
  if (profile.rulesFrom200Only) return status === 200 ? 'ok' : 'not-200';
  if (status >= 200 && status < 300) return 'ok';
  if (status === 429) return 'rate-limited';
  if (status >= 400 && status < 500) return 'client-error';
  return 'server-error';
}

/**
 * The result of one robots.txt fetch (fetchRobotsTxt), before any caching.
 *
 * @example
 * import { createServer } from 'node:http';
 * import { fetchRobotsTxt } from 'robotstxt-wasm';
 * // A site on 127.0.0.1 to ask; a crawler asks real sites by their URLs.
 * const site = createServer((request, response) => response.end('User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n\nSitemap: https://example.com/sitemap.xml\n'));
 * await new Promise<void>((listening) => site.listen(0, '127.0.0.1', listening));
 * const origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
 * const result = await fetchRobotsTxt(`${origin}/`, { userAgent: 'ExampleBot/1.2' });
 * result;
 * // { outcome: 'rules', reason: 'ok', status: 200, redirects: 0, truncated: false, … }
 * if (result.outcome === 'rules') result.robots.isAllowed(`${origin}/private/x`, 'ExampleBot'); // false
 * site.close();
 */
export type RobotsFetchResult = RobotsFetchRules | RobotsFetchVerdict;

interface RobotsFetchCommon {
  /** What the crawler may do: follow the file's rules, or crawl everything, or nothing (see RobotsOutcome). */
  readonly outcome: RobotsOutcome;
  /** Why: see RobotsFetchReason. */
  readonly reason: RobotsFetchReason;
  /** The last HTTP status received; 0 when no response arrived (timeout, network error, host refused). */
  readonly status: number;
  /** The origin the result applies to (that of the URL asked, whatever the redirects). */
  readonly origin: string;
  /** `<origin>/robots.txt`, the URL first requested. */
  readonly robotsUrl: string;
  /** The URL of the last request made (differs from robotsUrl after redirects); never holds credentials. */
  readonly finalUrl: string;
  /** Redirects followed. */
  readonly redirects: number;
  /** Body bytes kept and parsed (at most maxBytes); 0 when there was no 2xx body. */
  readonly bytes: number;
  /** The body was longer than maxBytes: reading stopped there and the connection was released. */
  readonly truncated: boolean;
  /**
   * Body bytes past maxBytes that were not read, when known: only an uncompressed body's
   * `Content-Length` tells it (the download stops at the limit). 0 when nothing was cut; undefined when
   * the body was cut and its size is unknown.
   */
  readonly bytesIgnored: number | undefined;
  /** The final response's Content-Type header, if any. */
  readonly contentType: string | undefined;
  /** The body looked like an HTML page (by Content-Type or by its first tag); it is parsed anyway. */
  readonly looksLikeHtml: boolean;
  /**
   * Seconds the final response may be reused according to `Cache-Control` (max-age minus Age; 0 for
   * no-store or no-cache), undefined when it says nothing. RobotsCache clamps it (60 s to 24 h).
   */
  readonly maxAge: number | undefined;
  /**
   * Seconds the site asked to wait before the next request (`Retry-After` on a 429 or 503), undefined
   * otherwise. RobotsCache waits at least this long, within its back-off ceiling.
   */
  readonly retryAfter: number | undefined;
  /** The final response's `ETag`, which RobotsCache revalidates with. */
  readonly etag: string | undefined;
  /** The final response's `Last-Modified`, which RobotsCache revalidates with. */
  readonly lastModified: string | undefined;
}

/** A 2xx: the parsed file. */
export interface RobotsFetchRules extends RobotsFetchCommon {
  readonly outcome: 'rules';
  readonly reason: 'ok';
  /** The parsed file; yours to dispose() when done. */
  readonly robots: RobotsTxt;
}

/** No file to parse: everything allowed or everything disallowed. */
export interface RobotsFetchVerdict extends RobotsFetchCommon {
  readonly outcome: 'allow-all' | 'disallow-all';
  /** No file: always undefined. */
  readonly robots?: undefined;
}
