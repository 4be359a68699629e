/**
 * fetchRobotsTxt(): one robots.txt fetch by the standard (RFC 9309 §2.3), against real HTTP servers on
 * 127.0.0.1. No fetch mocks: Node's own fetch talks to node:http servers. Redirects a runtime follows itself,
 * and hops a host policy refuses, are in redirect-hops.test.ts.
 */
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import {
  fetchRobotsTxt,
  HostRefusedError,
  publicHostsOnly,
  type FetchLike,
  type FetchRobotsOptions,
  type RobotsFetchResult,
} from '../../../src/platform/inline.js';
import { MAX_REDIRECTS } from '../../../src/fetch/fetch-robots.js';
import { closedPort, closeServers, hang, redirect, startServer, status, text, type TestServer } from '../../support/http-server.js';
import { loopbackOnlyFetch } from '../../support/loopback-fetch.js';

const UA = 'ExampleBot/1.2 (+https://example.com/bot)';

const RULES = 'User-agent: *\nDisallow: /private/\n';

afterEach(closeServers);

async function fetchFrom(server: TestServer, options: Partial<FetchRobotsOptions> = {}): Promise<RobotsFetchResult> {
  return fetchRobotsTxt(`${server.origin}/some/page`, { userAgent: UA, ...options });
}

function allows(result: RobotsFetchResult, path: string): boolean {
  if (result.outcome !== 'rules') return result.outcome === 'allow-all';
  return result.robots.isAllowed(path, 'ExampleBot');
}

describe('status codes', () => {
  // spec: Google's robots.txt spec (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt), "Handling HTTP result codes", 2xx; RFC 9309 §2.3.1.1
  it('a 200 is parsed: its rules decide', async () => {
    const server = await startServer({ '/robots.txt': text(RULES) });
    const result = await fetchFrom(server);
    expect(result).toMatchObject({ outcome: 'rules', reason: 'ok', status: 200, redirects: 0, truncated: false, bytes: RULES.length });
    expect(result.origin).toBe(server.origin);
    expect(result.robotsUrl).toBe(`${server.origin}/robots.txt`);
    expect(allows(result, '/private/x')).toBe(false);
    expect(allows(result, '/public')).toBe(true);
    expect(server.requests.map((request) => request.path)).toEqual(['/robots.txt']);
  });

  it('a 204 is an empty file: everything allowed', async () => {
    const server = await startServer({ '/robots.txt': status(204) });
    const result = await fetchFrom(server);
    expect(result).toMatchObject({ outcome: 'rules', status: 204, bytes: 0 });
    expect(allows(result, '/anything')).toBe(true);
  });

  // spec: Google's robots.txt spec, "4xx (client errors)": "this includes 401 ... and 403"; RFC 9309 §2.3.1.3
  it.each([404, 401, 403, 410])('a %i means no robots.txt: allow all', async (code) => {
    const server = await startServer({ '/robots.txt': text('User-agent: *\nDisallow: /\n', code) });
    const result = await fetchFrom(server);
    expect(result).toMatchObject({ outcome: 'allow-all', reason: 'client-error', status: code });
    expect(result.robots).toBeUndefined();
  });

  // spec: Google's robots.txt spec, "5xx (server error)"; RFC 9309 §2.3.1.4
  it.each([500, 503])('a %i means unreachable: disallow all', async (code) => {
    const server = await startServer({ '/robots.txt': text('User-agent: *\nAllow: /\n', code) });
    expect(await fetchFrom(server)).toMatchObject({ outcome: 'disallow-all', reason: 'server-error', status: code });
  });

  // RFC 9309 §2.3.1.4 lets servers rate-limit with 429; Google treats it like a 5xx.
  it('a 429 counts as unreachable, not as a 4xx: disallow all', async () => {
    const server = await startServer({ '/robots.txt': status(429, { 'retry-after': '120' }) });
    expect(await fetchFrom(server)).toMatchObject({ outcome: 'disallow-all', reason: 'rate-limited', status: 429 });
  });
});

describe('redirects', () => {
  /** /robots.txt → /hop1 → … → /final: `count` redirects in all. */
  function chain(server: TestServer, count: number): void {
    const hops = ['/robots.txt', ...Array.from({ length: count - 1 }, (_, i) => `/hop${i + 1}`), '/final'];
    for (let i = 0; i < count; i++) server.route(hops[i] as string, redirect(hops[i + 1] as string, 301 + (i % 2)));
    server.route('/final', text(RULES));
  }

  // spec: Google's robots.txt spec, "3xx (redirection)"; RFC 9309 §2.3.1.2: "at least five consecutive redirects"
  it.each([1, 2, 3, 4, 5])('a chain of %i redirects is followed and the final rules apply', async (count) => {
    const server = await startServer();
    chain(server, count);
    const result = await fetchFrom(server);
    expect(result).toMatchObject({ outcome: 'rules', status: 200, redirects: count, finalUrl: `${server.origin}/final` });
    expect(result.origin).toBe(server.origin);
    expect(allows(result, '/private/x')).toBe(false);
    expect(server.requests).toHaveLength(count + 1);
  });

  // spec: Google's robots.txt spec, "3xx": "then stop and treat it as a 404"
  it('a sixth redirect is not followed: it counts as a 4xx, allow all', async () => {
    const server = await startServer();
    chain(server, MAX_REDIRECTS + 1);
    const result = await fetchFrom(server);
    expect(result).toMatchObject({ outcome: 'allow-all', reason: 'too-many-redirects', redirects: 5, status: 302 });
    expect(server.count('/final')).toBe(0);
    expect(server.requests).toHaveLength(6);
  });

  it.each([301, 302, 303, 307, 308])('a %i is followed', async (code) => {
    const server = await startServer({ '/robots.txt': redirect('/real-robots.txt', code), '/real-robots.txt': text(RULES) });
    expect(await fetchFrom(server)).toMatchObject({ outcome: 'rules', redirects: 1 });
  });

  it('a relative Location is resolved against the URL that redirected', async () => {
    const server = await startServer({
      '/robots.txt': redirect('/files/a/'),
      '/files/a/': redirect('../b/robots.txt'),
      '/files/b/robots.txt': text(RULES),
    });
    const result = await fetchFrom(server);
    expect(result).toMatchObject({ outcome: 'rules', redirects: 2, finalUrl: `${server.origin}/files/b/robots.txt` });
  });

  // RFC 9309 §2.3.1.2: "even across authorities", the result applies to the original host
  it('a redirect to another host is followed and applies to the original origin', async () => {
    const target = await startServer({ '/robots.txt': text(RULES) });
    const source = await startServer({ '/robots.txt': redirect(`${target.origin}/robots.txt`) });
    const result = await fetchFrom(source);
    expect(result).toMatchObject({ outcome: 'rules', origin: source.origin, finalUrl: `${target.origin}/robots.txt`, redirects: 1 });
    expect(allows(result, '/private/x')).toBe(false);
    expect(target.requests[0]?.headers['user-agent']).toBe(UA);
  });

  // spec: Google's robots.txt spec, "3xx": "until a valid result can be found (or a loop is recognized)"
  it('a redirect loop is recognised and counts like too many redirects: allow all', async () => {
    const server = await startServer({ '/robots.txt': redirect('/a'), '/a': redirect('/b'), '/b': redirect('/robots.txt') });
    const result = await fetchFrom(server);
    expect(result).toMatchObject({ outcome: 'allow-all', reason: 'redirect-loop', redirects: 2 });
    expect(server.requests).toHaveLength(3);
  });

  it('a redirect to itself is a loop', async () => {
    const server = await startServer({ '/robots.txt': redirect('/robots.txt#again') });
    expect(await fetchFrom(server)).toMatchObject({ outcome: 'allow-all', reason: 'redirect-loop', redirects: 0 });
    expect(server.requests).toHaveLength(1);
  });

  it('a 3xx without a Location cannot be followed: treated as a 4xx, allow all', async () => {
    const server = await startServer({ '/robots.txt': status(302) });
    expect(await fetchFrom(server)).toMatchObject({ outcome: 'allow-all', reason: 'bad-redirect', status: 302 });
  });

  it('a redirect to a scheme other than http(s) cannot be followed: allow all', async () => {
    const server = await startServer({ '/robots.txt': redirect('ftp://127.0.0.1/robots.txt') });
    expect(await fetchFrom(server)).toMatchObject({ outcome: 'allow-all', reason: 'bad-redirect' });
  });

  it('a redirect that ends in a 503 is unreachable: disallow all', async () => {
    const server = await startServer({ '/robots.txt': redirect('/down'), '/down': status(503) });
    expect(await fetchFrom(server)).toMatchObject({ outcome: 'disallow-all', reason: 'server-error', status: 503, redirects: 1 });
  });
});

describe('the User-Agent header', () => {
  it('is sent with the robots.txt request and with every redirect', async () => {
    const server = await startServer({ '/robots.txt': redirect('/next'), '/next': text(RULES) });
    await fetchFrom(server);
    expect(server.requests.map((request) => [request.path, request.headers['user-agent']])).toEqual([
      ['/robots.txt', UA],
      ['/next', UA],
    ]);
    expect(server.requests.every((request) => request.method === 'GET')).toBe(true);
  });
});

describe('network failures', () => {
  // spec: Google's robots.txt spec, "Unsuccessful requests or incomplete data"; RFC 9309 §2.3.1.4
  it('a server that never answers times out: disallow all', async () => {
    const server = await startServer({ '/robots.txt': hang });
    const started = performance.now();
    const result = await fetchFrom(server, { timeoutMs: 300 });
    expect(result).toMatchObject({ outcome: 'disallow-all', reason: 'timeout', status: 0 });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('the deadline covers the body: a body that stalls times out', async () => {
    const server = await startServer({
      '/robots.txt': (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('User-agent: *\n');
      },
    });
    expect(await fetchFrom(server, { timeoutMs: 300 })).toMatchObject({ outcome: 'disallow-all', reason: 'timeout', status: 200 });
  });

  it('the deadline holds even for a fetch that ignores its abort signal', async () => {
    const server = await startServer({ '/robots.txt': hang });
    const deaf = (url: string, init: RequestInit): Promise<Response> => fetch(url, { ...init, signal: null });
    const result = await fetchRobotsTxt(server.origin, { userAgent: UA, fetch: deaf, timeoutMs: 300 });
    expect(result).toMatchObject({ outcome: 'disallow-all', reason: 'timeout' });
  });

  it('a refused connection is unreachable: disallow all', async () => {
    const port = await closedPort();
    const result = await fetchRobotsTxt(`http://127.0.0.1:${port}/`, { userAgent: UA });
    expect(result).toMatchObject({ outcome: 'disallow-all', reason: 'network-error', status: 0 });
  });

  it('a body that breaks off mid-stream is incomplete: disallow all', async () => {
    const server = await startServer({
      '/robots.txt': (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' }); // chunked: no Content-Length
        response.write('User-agent: *\nDisallow: /private/\nDisallow: /se', () => response.socket?.destroy());
      },
    });
    expect(await fetchFrom(server)).toMatchObject({ outcome: 'disallow-all', reason: 'body-interrupted', status: 200 });
  });
});

describe('the body', () => {
  // RFC 9309 §2.5: parse at least 500 KiB; stop reading there.
  it('a 50 MB body is read up to maxBytes only: cut, reported, the download stopped, memory flat', async () => {
    const total = 50 * 1024 * 1024;
    const line = Buffer.from('# filler line of a very long robots.txt file ...........................\n');
    const chunk = Buffer.concat(Array.from({ length: Math.ceil(65_536 / line.length) }, () => line));
    let sent = 0;
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const server = await startServer({
      '/robots.txt': (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.on('close', closed);
        response.write('User-agent: *\nDisallow: /private/\n');
        const pump = (): void => {
          while (sent < total && !response.destroyed) {
            sent += chunk.length;
            if (!response.write(chunk)) return void response.once('drain', pump);
          }
          response.end();
        };
        pump();
      },
    });
    globalThis.gc?.();
    const before = process.memoryUsage();
    const result = await fetchFrom(server);
    const after = process.memoryUsage();
    await connectionClosed;

    expect(result).toMatchObject({ outcome: 'rules', bytes: 512_000, truncated: true });
    expect(result.robots?.truncated).toBe(true);
    expect(result.robots?.diagnostics).toContainEqual(expect.objectContaining({ code: 'body-truncated' }));
    expect(allows(result, '/private/x')).toBe(false);
    expect(sent).toBeLessThan(total / 2); // the server saw the connection close long before the end
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(16 * 1024 * 1024);
    expect(after.rss - before.rss).toBeLessThan(40 * 1024 * 1024);
  });

  it('maxBytes cuts the body; a line cut in two is not read as a shorter rule', async () => {
    const body = 'User-agent: *\nDisallow: /a\nDisallow: /bcdef\n';
    const server = await startServer({ '/robots.txt': text(body) });
    const result = await fetchFrom(server, { maxBytes: body.indexOf('cdef') });
    expect(result).toMatchObject({ outcome: 'rules', truncated: true, bytes: body.indexOf('cdef') });
    expect(allows(result, '/a')).toBe(false);
    expect(allows(result, '/bxyz')).toBe(true);
  });

  it('a gzip-encoded body is decoded by fetch and parsed', async () => {
    const server = await startServer({ '/robots.txt': text(gzipSync(RULES), 200, { 'content-encoding': 'gzip' }) });
    const result = await fetchFrom(server);
    expect(result).toMatchObject({ outcome: 'rules', bytes: RULES.length });
    expect(allows(result, '/private/x')).toBe(false);
  });

  // spec: Google's robots.txt spec, "File format": "if the resulting document is a HTML page, only valid text lines will be taken into account"
  it('an HTML page served with 200 is parsed like any file: only its valid lines count, and it is flagged', async () => {
    const page =
      '<!DOCTYPE html>\n<html><head><title>Oops</title></head><body>\n<p>Page not found</p>\nUser-agent: *\nDisallow: /secret\n</body></html>\n';
    const server = await startServer({ '/robots.txt': text(page, 200, { 'content-type': 'text/html; charset=utf-8' }) });
    const result = await fetchFrom(server);
    expect(result).toMatchObject({ outcome: 'rules', contentType: 'text/html; charset=utf-8', looksLikeHtml: true });
    expect(allows(result, '/secret')).toBe(false);
    expect(allows(result, '/page')).toBe(true);
  });

  it('HTML is recognised by its first tag even when served as text/plain', async () => {
    const server = await startServer({ '/robots.txt': text('\n  <html><body>Sorry</body></html>') });
    expect(await fetchFrom(server)).toMatchObject({ outcome: 'rules', contentType: 'text/plain; charset=utf-8', looksLikeHtml: true });
  });

  it('a plain robots.txt is not flagged as HTML', async () => {
    const server = await startServer({ '/robots.txt': text(RULES) });
    expect(await fetchFrom(server)).toMatchObject({ looksLikeHtml: false });
  });
});

describe('Cache-Control is reported for the cache', () => {
  // RFC 9309 §2.4: "standard HTTP cache-control ... MAY be used"
  it.each([
    ['max-age=3600', {}, 3600],
    ['public, max-age="120"', {}, 120],
    ['max-age=600', { age: '500' }, 100],
    ['no-store', {}, 0],
    ['no-cache, max-age=600', {}, 0],
  ] as const)('Cache-Control: %s (other headers %j) → maxAge %i', async (header, extra, expected) => {
    const server = await startServer({ '/robots.txt': text(RULES, 200, { 'cache-control': header, ...extra }) });
    expect((await fetchFrom(server)).maxAge).toBe(expected);
  });

  it('no Cache-Control: no maxAge', async () => {
    const server = await startServer({ '/robots.txt': text(RULES) });
    expect((await fetchFrom(server)).maxAge).toBeUndefined();
  });
});

describe('bad input throws; the network never does', () => {
  it.each(['not a url', '/robots.txt', 'example.com/page', '', 'ftp://example.com/', 'mailto:bot@example.com', 'file:///etc/hosts'])(
    'rejects %j with a TypeError that says what to pass',
    async (input) => {
      await expect(fetchRobotsTxt(input, { userAgent: UA })).rejects.toThrow(/http\(s\)|http: and https:/);
      await expect(fetchRobotsTxt(input, { userAgent: UA })).rejects.toBeInstanceOf(TypeError);
    },
  );

  it.each([
    [{ userAgent: UA, timeoutMs: -1 }, RangeError],
    [{ userAgent: UA, timeoutMs: 0 }, RangeError],
    [{ userAgent: UA, timeoutMs: Number.NaN }, RangeError],
    [{ userAgent: UA, maxBytes: -1 }, RangeError],
    [{ userAgent: UA, maxBytes: 1.5 }, RangeError],
    [{ userAgent: UA, profile: 'bing' }, RangeError],
    [{ userAgent: '' }, TypeError],
    [{ userAgent: 'Bot\r\nX-Evil: 1' }, TypeError],
    [{ userAgent: UA, fetch: 'fetch' }, TypeError],
  ])('rejects bad options: %j', async (options, type) => {
    const { fetch, refused } = loopbackOnlyFetch();
    // @ts-expect-error: deliberately wrong options
    await expect(fetchRobotsTxt('https://example.com/', { fetch, ...options })).rejects.toBeInstanceOf(type);
    expect(refused).toEqual([]);
  });
});

describe('redirects with credentials in their Location', () => {
  it('are followed without the credentials, which appear in no result', async () => {
    const server = await startServer({ '/real-robots.txt': text(RULES) });
    server.route('/robots.txt', redirect(`http://crawler:secret@127.0.0.1:${server.port}/real-robots.txt`));
    const result = await fetchFrom(server);
    expect(result).toMatchObject({ outcome: 'rules', redirects: 1, finalUrl: `${server.origin}/real-robots.txt` });
    expect(JSON.stringify(result)).not.toMatch(/secret|crawler:/);
    expect(server.requests[1]?.headers.authorization).toBeUndefined();
  });
});

describe('allowRedirect decides where redirects may go', () => {
  it('is asked before every redirect hop, with the URL, but not before the first request', async () => {
    const server = await startServer({ '/robots.txt': redirect('/a'), '/a': redirect('/b?x=1'), '/b?x=1': text(RULES) });
    const asked: string[] = [];
    const result = await fetchFrom(server, { allowRedirect: (url) => (asked.push(url.href), true) });
    expect(result).toMatchObject({ outcome: 'rules', redirects: 2 });
    expect(asked).toEqual([`${server.origin}/a`, `${server.origin}/b?x=1`]);
  });

  it('a refused hop ends as allow-all with reason redirect-refused, and is never requested', async () => {
    const server = await startServer({ '/robots.txt': redirect('http://169.254.169.254/latest/meta-data/') });
    const { fetch, refused } = loopbackOnlyFetch();
    const noLinkLocal = (url: URL): boolean => !url.hostname.startsWith('169.254.');
    const result = await fetchRobotsTxt(server.origin, { userAgent: UA, fetch, allowRedirect: noLinkLocal });
    expect(result).toMatchObject({
      outcome: 'allow-all',
      reason: 'redirect-refused',
      status: 301,
      redirects: 0,
      finalUrl: `${server.origin}/robots.txt`,
    });
    expect(refused).toEqual([]);
  });

  it('without it, every http(s) hop is tried (here the test fetch refuses it: unreachable)', async () => {
    const server = await startServer({ '/robots.txt': redirect('http://localhost.internal/robots.txt') });
    const { fetch, refused } = loopbackOnlyFetch();
    const result = await fetchRobotsTxt(server.origin, { userAgent: UA, fetch });
    expect(result).toMatchObject({ outcome: 'disallow-all', reason: 'network-error', redirects: 1 });
    expect(refused).toEqual(['http://localhost.internal/robots.txt']);
  });

  it('one that throws refuses the hop', async () => {
    const server = await startServer({ '/robots.txt': redirect('/elsewhere'), '/elsewhere': text(RULES) });
    const result = await fetchFrom(server, {
      allowRedirect: () => {
        throw new Error('policy failed');
      },
    });
    expect(result).toMatchObject({ outcome: 'allow-all', reason: 'redirect-refused' });
    expect(server.count('/elsewhere')).toBe(0);
  });
});

describe('allowHost refuses hosts before any request', () => {
  it('a refused first host is not fetched: disallow-all, reason host-refused, status 0', async () => {
    const { fetch, refused } = loopbackOnlyFetch();
    const asked: string[] = [];
    const policy = (url: URL): boolean => (asked.push(url.href), publicHostsOnly(url));
    const result = await fetchRobotsTxt('http://169.254.169.254/latest/meta-data/', { userAgent: UA, fetch, allowHost: policy });
    expect(result).toMatchObject({
      outcome: 'disallow-all',
      reason: 'host-refused',
      status: 0,
      redirects: 0,
      origin: 'http://169.254.169.254',
      finalUrl: 'http://169.254.169.254/robots.txt',
    });
    expect(asked).toEqual(['http://169.254.169.254/robots.txt']);
    expect(refused).toEqual([]);
  });

  it('is asked before every hop too, after allowRedirect: a hop it refuses ends as redirect-refused, never requested', async () => {
    const server = await startServer({ '/robots.txt': redirect('/a'), '/a': redirect('http://10.0.0.1/robots.txt') });
    const { fetch, refused } = loopbackOnlyFetch();
    const asked: string[] = [];
    const onlyThisServer = (url: URL): boolean => (asked.push(url.href), url.host === `127.0.0.1:${server.port}`);
    const result = await fetchRobotsTxt(server.origin, { userAgent: UA, fetch, allowHost: onlyThisServer });
    expect(result).toMatchObject({
      outcome: 'allow-all',
      reason: 'redirect-refused',
      status: 301,
      redirects: 1,
      finalUrl: `${server.origin}/a`,
    });
    expect(asked).toEqual([`${server.origin}/robots.txt`, `${server.origin}/a`, 'http://10.0.0.1/robots.txt']);
    expect(refused).toEqual([]);
  });

  it('allows what it returns true for, and only that: a throw or a truthy non-boolean refuses', async () => {
    const server = await startServer({ '/robots.txt': text(RULES) });
    expect(await fetchFrom(server, { allowHost: () => true })).toMatchObject({ outcome: 'rules' });
    const throwing = (): boolean => {
      throw new Error('policy failed');
    };
    expect(await fetchFrom(server, { allowHost: throwing })).toMatchObject({ reason: 'host-refused' });
    expect(await fetchFrom(server, { allowHost: (() => 'yes') as unknown as () => boolean })).toMatchObject({ reason: 'host-refused' });
    expect(server.count()).toBe(1);
  });

  it('publicHostsOnly as allowHost refuses the loopback test server itself', async () => {
    const server = await startServer({ '/robots.txt': text(RULES) });
    expect(await fetchFrom(server, { allowHost: publicHostsOnly })).toMatchObject({ outcome: 'disallow-all', reason: 'host-refused' });
    expect(server.count()).toBe(0);
  });

  it('a bad allowHost is a TypeError before any request', async () => {
    const { fetch, refused } = loopbackOnlyFetch();
    // @ts-expect-error: deliberately wrong
    await expect(fetchRobotsTxt('https://example.com/', { userAgent: UA, fetch, allowHost: true })).rejects.toThrow(
      /allowHost must be a function/,
    );
    expect(refused).toEqual([]);
  });
});

describe("a fetch that throws HostRefusedError (its own DNS lookup's refusal)", () => {
  it('for the first request: host-refused, also when the error is the cause of the one fetch throws', async () => {
    for (const error of [
      new HostRefusedError('intranet.example.com', '10.0.0.7'),
      new TypeError('fetch failed', { cause: new HostRefusedError('x') }),
    ]) {
      const fetch: FetchLike = () => Promise.reject(error);
      const result = await fetchRobotsTxt('https://intranet.example.com/', { userAgent: UA, fetch });
      expect(result).toMatchObject({ outcome: 'disallow-all', reason: 'host-refused', status: 0 });
    }
  });

  it('for a redirect hop: redirect-refused, like allowHost refusing it', async () => {
    const server = await startServer({ '/robots.txt': redirect('http://rebound.example.com/robots.txt') });
    const fetch: FetchLike = (url, init) =>
      new URL(url).hostname === '127.0.0.1'
        ? globalThis.fetch(url, init)
        : Promise.reject(new HostRefusedError('rebound.example.com', '127.0.0.1'));
    const result = await fetchRobotsTxt(server.origin, { userAgent: UA, fetch });
    expect(result).toMatchObject({ outcome: 'allow-all', reason: 'redirect-refused', status: 301 });
  });

  it('any other error stays a network error', async () => {
    const fetch: FetchLike = () => Promise.reject(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }));
    expect(await fetchRobotsTxt('https://example.com/', { userAgent: UA, fetch })).toMatchObject({ reason: 'network-error' });
  });
});

describe('inputs a network fetch must bound', () => {
  it('maxBytes must be finite: a RangeError that says the body must be bounded', async () => {
    const { fetch, refused } = loopbackOnlyFetch();
    await expect(fetchRobotsTxt('https://example.com/', { userAgent: UA, maxBytes: Infinity, fetch })).rejects.toThrow(
      /finite.*must be bounded/,
    );
    expect(refused).toEqual([]);
  });

  it('a custom fetch that returns something other than a Response is an outcome, not a rejection', async () => {
    for (const answer of [undefined, null, 'ok', { status: 200 }, { status: 200, headers: {}, body: null }]) {
      // The custom fetch answers itself: nothing is sent, and the URL is loopback all the same.
      const fetch = (() => Promise.resolve(answer)) as unknown as FetchLike;
      const result = await fetchRobotsTxt('http://127.0.0.1/', { userAgent: UA, fetch });
      expect(result).toMatchObject({ outcome: 'disallow-all', reason: 'invalid-response', status: 0 });
    }
  });

  it('a body of something other than bytes breaks off: unreachable', async () => {
    const body = new ReadableStream({ start: (controller) => (controller.enqueue('text, not bytes'), controller.close()) });
    const fetch = (() => Promise.resolve(new Response(body as unknown as ReadableStream<Uint8Array>))) as FetchLike;
    const result = await fetchRobotsTxt('http://127.0.0.1/', { userAgent: UA, fetch });
    expect(result).toMatchObject({ outcome: 'disallow-all', reason: 'body-interrupted' });
  });
});

describe('reading past the limit', () => {
  const big = `User-agent: *\nDisallow: /private/\n${'# filler\n'.repeat(200_000)}`;

  it('reads one byte past maxBytes: the ignored size comes from an uncompressed Content-Length', async () => {
    const server = await startServer({ '/robots.txt': text(big, 200, { 'content-length': String(big.length) }) });
    const result = await fetchFrom(server, { maxBytes: 1000 });
    expect(result).toMatchObject({ outcome: 'rules', truncated: true, bytes: 1000, bytesIgnored: big.length - 1000 });
    expect(result.robots).toMatchObject({ truncated: true, bytesParsed: 1000, bytesIgnored: big.length - 1000 });
  });

  it('a compressed or chunked body cut at the limit has an unknown ignored size: undefined, not a guess', async () => {
    const gzipped = await startServer({ '/robots.txt': text(gzipSync(big), 200, { 'content-encoding': 'gzip' }) });
    const chunked = await startServer({
      '/robots.txt': (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write(big.slice(0, 5000));
        response.end(big.slice(5000));
      },
    });
    for (const server of [gzipped, chunked]) {
      const result = await fetchFrom(server, { maxBytes: 1000 });
      expect(result).toMatchObject({ outcome: 'rules', truncated: true, bytes: 1000, bytesIgnored: undefined });
      expect(result.robots).toMatchObject({ truncated: true, bytesIgnored: undefined });
      expect(result.robots?.diagnostics[0]).toMatchObject({ code: 'body-truncated', message: expect.stringMatching(/not read/) });
    }
  });

  it('a body that fits ignores nothing', async () => {
    const server = await startServer({ '/robots.txt': text(RULES) });
    expect(await fetchFrom(server)).toMatchObject({ truncated: false, bytesIgnored: 0 });
  });
});

describe('what the cache needs from a response', () => {
  it('reports ETag and Last-Modified', async () => {
    const lastModified = 'Wed, 21 Oct 2026 07:28:00 GMT';
    const server = await startServer({ '/robots.txt': text(RULES, 200, { etag: '"v1"', 'last-modified': lastModified }) });
    expect(await fetchFrom(server)).toMatchObject({ etag: '"v1"', lastModified });
  });

  it.each([
    [429, '120', 120],
    [503, '3600', 3600],
    [503, 'soon', undefined],
    [500, '120', undefined],
  ] as const)('a %i with Retry-After %j reports retryAfter %j', async (code, header, expected) => {
    const server = await startServer({ '/robots.txt': status(code, { 'retry-after': header }) });
    expect((await fetchFrom(server)).retryAfter).toBe(expected);
  });

  it('a Retry-After date is read as the seconds until then', async () => {
    const inTenMinutes = new Date(Date.now() + 600_000).toUTCString();
    const server = await startServer({ '/robots.txt': status(503, { 'retry-after': inTenMinutes }) });
    const retryAfter = (await fetchFrom(server)).retryAfter ?? 0;
    expect(retryAfter).toBeGreaterThan(590);
    expect(retryAfter).toBeLessThanOrEqual(601);
  });

  // RFC 9111 §4.2.1: a response with invalid freshness information is best considered stale.
  it.each(['max-age=-1', 'max-age=soon', 'max-age=', 'max-age'])('Cache-Control: %s is no usable max-age: stale, 0', async (header) => {
    const server = await startServer({ '/robots.txt': text(RULES, 200, { 'cache-control': header }) });
    expect((await fetchFrom(server)).maxAge).toBe(0);
  });
});
