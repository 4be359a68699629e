/**
 * Which robots.txt governs a URL: the one at the root of its origin (scheme, host, port).
 * spec: 003_14cd348ff9b99c23.txt, "File location & range of validity"; RFC 9309 §2.3.
 */

/** A URL's origin and the robots.txt that governs it. */
export interface RobotsLocation {
  /** `scheme://host[:port]`: lower-case host, IDN as punycode, default port left out. */
  readonly origin: string;
  /** `<origin>/robots.txt`. */
  readonly robotsUrl: string;
}

function describe(input: unknown): string {
  if (typeof input === 'string') return JSON.stringify(input.length > 200 ? `${input.slice(0, 200)}…` : input);
  return input === null ? 'null' : typeof input;
}

/**
 * The origin of `input` (an absolute http(s) URL, or a `URL`) and its robots.txt URL. The WHATWG URL
 * parser does the folding: `HTTP://Example.COM:80/a` and `http://example.com/b` share the origin
 * `http://example.com`; `http://mü.example` becomes `http://xn--m-eha.example`.
 *
 * @example
 * robotsLocation('HTTPS://Example.com:443/shop?page=2');
 * // { origin: 'https://example.com', robotsUrl: 'https://example.com/robots.txt' }
 */
export function robotsLocation(input: string | URL): RobotsLocation {
  let url: URL;
  if (input instanceof URL) url = input;
  else if (typeof input === 'string') {
    try {
      url = new URL(input);
    } catch {
      throw new TypeError(
        `Invalid URL ${describe(input)}: pass an absolute http(s) URL or origin, such as "https://example.com/page"`,
      );
    }
  } else {
    throw new TypeError(`Expected a URL as a string or URL object, got ${describe(input)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(
      `Unsupported URL scheme "${url.protocol}" in ${describe(url.href)}: robots.txt is fetched over http: and https: only; ` +
        `pass a URL such as "https://example.com/page"`,
    );
  }
  if (url.hostname === '') {
    throw new TypeError(`URL ${describe(url.href)} has no host: pass a URL such as "https://example.com/page"`);
  }
  const origin = url.origin;
  return { origin, robotsUrl: `${origin}/robots.txt` };
}
