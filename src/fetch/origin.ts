/**
 * Which robots.txt governs a URL: the one at the root of its origin (scheme, host, port).
 * RFC 9309 §2.3; https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt
 * ("File location and range of validity").
 */
import { describeValue } from '../api/describe-value.js';
import { isUrlObject, type URLInput } from '../api/web-types.js';

/** A URL's origin and the robots.txt that governs it. */
export interface RobotsLocation {
  /** `scheme://host[:port]`: lower-case host, IDN as punycode, default port left out. */
  readonly origin: string;
  /** `<origin>/robots.txt`. */
  readonly robotsUrl: string;
}

/** A URL parsed once: the robots.txt that governs it, and the URL itself, as fetch() would request it. */
export interface LocatedUrl {
  readonly location: RobotsLocation;
  readonly url: URL;
}

/**
 * Parses `input` (an absolute http(s) URL as a string, or a URL object) with the WHATWG URL parser, the
 * one fetch() uses, and finds its robots.txt. Throws a TypeError that says what to pass otherwise.
 */
export function locateUrl(input: string | URLInput): LocatedUrl {
  let url: URL;
  if (typeof input === 'string' || isUrlObject(input)) {
    const text = typeof input === 'string' ? input : input.href;
    try {
      url = new URL(text);
    } catch {
      throw new TypeError(`Invalid URL ${describeValue(text)}: pass an absolute http(s) URL or origin, such as "https://example.com/page"`);
    }
  } else {
    throw new TypeError(`Expected a URL as a string or URL object, got ${describeValue(input)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(
      `Unsupported URL scheme "${url.protocol}" in ${describeValue(url.href)}: robots.txt is fetched over http: and https: only; ` +
        `pass a URL such as "https://example.com/page"`,
    );
  }
  if (url.hostname === '') {
    throw new TypeError(`URL ${describeValue(url.href)} has no host: pass a URL such as "https://example.com/page"`);
  }
  const origin = url.origin;
  return { location: { origin, robotsUrl: `${origin}/robots.txt` }, url };
}

/**
 * The origin of `input` (an absolute http(s) URL, or a `URL`) and its robots.txt URL. The WHATWG URL
 * parser does the folding: `HTTP://Example.COM:80/a` and `http://example.com/b` share the origin
 * `http://example.com`; `http://mü.example` becomes `http://xn--m-eha.example`.
 *
 * @example
 * import { robotsLocation } from 'robotstxt-wasm';
 * robotsLocation('HTTPS://Example.com:443/shop?page=2');
 * // { origin: 'https://example.com', robotsUrl: 'https://example.com/robots.txt' }
 */
export function robotsLocation(input: string | URLInput): RobotsLocation {
  return locateUrl(input).location;
}
