/**
 * Preloaded (`node --import`) into every documentation example the tests run (test/docs/doc-examples.test.ts),
 * so that examples written against `https://example.com/…` run for real without leaving 127.0.0.1.
 *
 * The server and the HTTP are real: the test starts a node:http server on 127.0.0.1 and every request
 * goes to it over a real socket. Only the host is rewritten: `globalThis.fetch` is replaced by a fetch
 * that sends `http(s)://<host>[:port]/<path>` to `http://127.0.0.1:<server port>/<host>[:port]/<path>`,
 * so the server answers per host from its table of sites. The scheme is not passed on: `http://example.com`
 * and `https://example.com` get the same answers.
 *
 * - A URL of 127.0.0.1 (an example's own server, as the API reference's examples start) goes to that
 *   address as it is, through the platform's fetch.
 * - A URL it cannot map (not http/https, or a host the server does not serve) is refused the way fetch
 *   refuses: the promise rejects with a TypeError (for an unknown host, `fetch failed` with an ENOTFOUND
 *   cause, as a DNS failure looks).
 * - `redirect: 'manual'` returns the 3xx as it is; `redirect: 'follow'` (fetch's default) is followed
 *   here, hop by hop through the same mapping (never by undici towards the real host), up to 20 hops;
 *   `redirect: 'error'` rejects on a 3xx.
 * - The Response reports the URL the caller asked for (`url`, and `redirected` after hops), not the
 *   127.0.0.1 one.
 * - Backstop (loopback-sockets.mjs): a socket to anything but the loopback interface (node:http, node:net,
 *   a fetch that bypassed this one) fails with an error before any DNS lookup or packet.
 *
 * Environment: DOC_EXAMPLES_ORIGIN (`http://127.0.0.1:<port>`) and DOC_EXAMPLES_HOSTS (the hosts the
 * server knows, comma-separated). Without DOC_EXAMPLES_ORIGIN every fetch is refused.
 */
import { keepSocketsOnLoopback } from '../loopback-sockets.mjs';

const serverOrigin = process.env.DOC_EXAMPLES_ORIGIN;
const knownHosts = new Set((process.env.DOC_EXAMPLES_HOSTS ?? '').split(',').filter((host) => host !== ''));
const realFetch = globalThis.fetch;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_FOLLOWED_REDIRECTS = 20;

/** The server URL for `url` (a URL object), or a TypeError saying why it cannot be mapped. */
function mapUrl(url) {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return new TypeError(`fetch refused by the doc-example preload: ${url.href} is not http(s)`);
  }
  if (serverOrigin === undefined) return new TypeError('fetch refused by the doc-example preload: DOC_EXAMPLES_ORIGIN is not set');
  if (!knownHosts.has(url.host)) {
    const cause = Object.assign(new Error(`getaddrinfo ENOTFOUND ${url.hostname} (not a host of the doc-example server)`), {
      code: 'ENOTFOUND',
      hostname: url.hostname,
    });
    return new TypeError('fetch failed', { cause });
  }
  return `${serverOrigin}/${url.host}${url.pathname}${url.search}`;
}

/** One request to the server, redirects not followed; the response shows `url` as the caller's URL. */
async function hop(request, url, redirected) {
  const mapped = mapUrl(url);
  if (typeof mapped !== 'string') throw mapped;
  const response = await realFetch(mapped, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    duplex: 'half',
    signal: request.signal,
    redirect: 'manual',
  });
  Object.defineProperties(response, {
    url: { value: url.href, configurable: true },
    redirected: { value: redirected, configurable: true },
  });
  return response;
}

async function exampleFetch(input, init) {
  // Request normalizes the arguments exactly as fetch does (and throws fetch's TypeErrors for bad ones).
  const request = new Request(input, init);
  let url = new URL(request.url);
  if (url.hostname === '127.0.0.1') return realFetch(request);
  let current = request;
  for (let hops = 0; ; hops++) {
    const response = await hop(current, url, hops > 0);
    if (request.redirect === 'manual' || !REDIRECT_STATUSES.has(response.status)) return response;
    const location = response.headers.get('location');
    if (location === null) return response;
    if (request.redirect === 'error')
      throw new TypeError('fetch failed', { cause: new Error(`redirect to ${location} with redirect: 'error'`) });
    if (hops === MAX_FOLLOWED_REDIRECTS) throw new TypeError('fetch failed', { cause: new Error('redirect count exceeded') });
    await response.body?.cancel();
    url = new URL(location, url);
    const toGet = response.status === 303 || ((response.status === 301 || response.status === 302) && request.method === 'POST');
    current = new Request(url, {
      method: toGet ? 'GET' : current.method,
      headers: current.headers,
      body: toGet ? null : current.body,
      duplex: 'half',
      signal: request.signal,
    });
  }
}

globalThis.fetch = exampleFetch;

// The backstop: no socket to anything but the loopback server.
keepSocketsOnLoopback();
