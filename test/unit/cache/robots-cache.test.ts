/**
 * RobotsCache: robots.txt per origin for a crawler, against real HTTP servers on 127.0.0.1.
 * Time is an injected clock: the tests move it instead of sleeping.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CACHE_LIMITS } from '../../../src/cache/cache-policy.js';
import {
  matcherInfo,
  parseRobotsTxt,
  publicHostsOnly,
  RobotsCache,
  RobotsCacheDisposedError,
  robotsLocation,
  type RobotsCacheOptions,
} from '../../../src/platform/inline.js';
import { closedPort, closeServers, redirect, startServer, status, text, type Route } from '../../support/http-server.js';
import { loopbackOnlyFetch } from '../../support/loopback-fetch.js';

const UA = 'ExampleBot/1.2 (+https://example.com/bot)';
const RULES = 'User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n';
const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;

let clock: number;
const caches: RobotsCache[] = [];

beforeEach(() => {
  clock = Date.UTC(2026, 0, 1);
});

afterEach(async () => {
  for (const cache of caches.splice(0)) cache.dispose();
  await closeServers();
});

function cacheFor(options: Partial<RobotsCacheOptions> = {}): RobotsCache {
  const cache = new RobotsCache({ userAgent: UA, now: () => clock, ...options });
  caches.push(cache);
  return cache;
}

/** A route that answers with `route` after `ms`: callers arrive while the request is in flight. */
function slow(ms: number, route: Route): Route {
  return (request, response) => void setTimeout(() => route(request, response), ms);
}

describe('verdicts', () => {
  it('answers isAllowed, crawlDelay and explain from the origin robots.txt', async () => {
    const server = await startServer({ '/robots.txt': text(RULES) });
    const robots = cacheFor();
    expect(await robots.isAllowed(`${server.origin}/private/x`)).toBe(false);
    expect(await robots.isAllowed(`${server.origin}/public?x=1`)).toBe(true);
    expect(await robots.crawlDelay(`${server.origin}/`)).toBe(2);
    expect(await robots.explain(`${server.origin}/private/x`)).toEqual({
      allowed: false,
      line: 2,
      rule: { kind: 'disallow', pattern: '/private/' },
      source: {
        origin: server.origin,
        robotsUrl: `${server.origin}/robots.txt`,
        outcome: 'rules',
        reason: 'ok',
        status: 200,
        fetchedAt: clock,
        expiresAt: clock + DAY,
        from: 'cache',
        finalUrl: `${server.origin}/robots.txt`,
        redirects: 0,
        bytes: RULES.length,
        truncated: false,
        bytesIgnored: 0,
        contentType: 'text/plain; charset=utf-8',
        looksLikeHtml: false,
      },
    });
    expect(server.count()).toBe(1);
  });

  it('matches the agent derived from the User-Agent header: its leading product token', async () => {
    const server = await startServer({ '/robots.txt': text('User-agent: ExampleBot\nDisallow: /mine\n\nUser-agent: *\nDisallow: /\n') });
    const robots = cacheFor();
    expect(robots.agent).toBe('ExampleBot');
    expect(await robots.isAllowed(`${server.origin}/page`)).toBe(true);
    expect(await robots.isAllowed(`${server.origin}/mine`)).toBe(false);
    expect(await cacheFor({ agent: 'OtherBot' }).isAllowed(`${server.origin}/page`)).toBe(false);
  });

  it('a fresh fetch is reported as from network, later answers as from cache', async () => {
    const server = await startServer({ '/robots.txt': text(RULES) });
    const robots = cacheFor();
    expect((await robots.explain(`${server.origin}/a`)).source.from).toBe('network');
    expect((await robots.explain(`${server.origin}/b`)).source.from).toBe('cache');
  });

  it('get() gives the parsed file and the compiled rules of the origin', async () => {
    const server = await startServer({ '/robots.txt': text(`${RULES}Sitemap: https://example.com/sitemap.xml\n`) });
    const cached = await cacheFor().get(server.origin);
    expect(cached).toMatchObject({ outcome: 'rules', status: 200, origin: server.origin, from: 'network' });
    expect(cached.robots?.sitemaps).toEqual(['https://example.com/sitemap.xml']);
    expect(cached.rules?.isAllowed('/private/x')).toBe(false);
  });

  // spec: Google's robots.txt spec (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt), "Handling HTTP result codes"; RFC 9309 §2.3.1.3, §2.3.1.4
  it.each([
    [404, true],
    [401, true],
    [403, true],
    [410, true],
    [429, false],
    [500, false],
    [503, false],
  ])('a %i makes every URL of the origin allowed: %s', async (code, allowed) => {
    const server = await startServer({ '/robots.txt': status(code) });
    const robots = cacheFor();
    expect(await robots.isAllowed(`${server.origin}/any/page`)).toBe(allowed);
    const explained = await robots.explain(`${server.origin}/other`);
    expect(explained).toMatchObject({ allowed, line: 0, source: { outcome: allowed ? 'allow-all' : 'disallow-all', status: code } });
    expect(explained.rule).toBeUndefined();
    expect(await robots.crawlDelay(`${server.origin}/`)).toBeUndefined();
    expect((await robots.get(server.origin)).robots).toBeUndefined();
  });

  it('redirected rules apply to the original origin, and only it is cached', async () => {
    const target = await startServer({ '/robots.txt': text(RULES) });
    const source = await startServer({ '/robots.txt': redirect(`${target.origin}/robots.txt`) });
    const robots = cacheFor();
    expect(await robots.isAllowed(`${source.origin}/private/x`)).toBe(false);
    expect((await robots.get(source.origin)).finalUrl).toBe(`${target.origin}/robots.txt`);
    expect(robots.size).toBe(1);
  });

  it('an unreachable origin (connection refused) disallows everything', async () => {
    const port = await closedPort();
    expect(await cacheFor().explain(`http://127.0.0.1:${port}/x`)).toMatchObject({
      allowed: false,
      source: { outcome: 'disallow-all', reason: 'network-error', status: 0 },
    });
  });

  it('an HTML page reports its content type in explain', async () => {
    const server = await startServer({ '/robots.txt': text('<html><body>Hello</body></html>', 200, { 'content-type': 'text/html' }) });
    expect(await cacheFor().explain(`${server.origin}/x`)).toMatchObject({
      allowed: true,
      source: { outcome: 'rules', contentType: 'text/html', looksLikeHtml: true },
    });
  });
});

describe('origins', () => {
  // spec: Google's robots.txt spec, "File location & range of validity": scheme, host and port; default ports; IDN = punycode
  it.each([
    ['http://example.com:80/a', 'http://example.com'],
    ['https://example.com:443/a?b#c', 'https://example.com'],
    ['https://example.com:80/', 'https://example.com:80'],
    ['http://example.com:443/', 'http://example.com:443'],
    ['HTTP://WWW.Example.COM/Path', 'http://www.example.com'],
    ['http://www.müller.example/straße', 'http://www.xn--mller-kva.example'],
    ['http://user:secret@example.com/', 'http://example.com'],
    ['http://[::1]:8080/x', 'http://[::1]:8080'],
  ])('%s has the origin %s', (url, origin) => {
    expect(robotsLocation(url)).toEqual({ origin, robotsUrl: `${origin}/robots.txt` });
  });

  it('URLs that differ only in scheme case, path and query share one entry and one request', async () => {
    const server = await startServer({ '/robots.txt': text(RULES) });
    const robots = cacheFor();
    expect(await robots.isAllowed(`HTTP://127.0.0.1:${server.port}/x`)).toBe(true);
    expect(await robots.isAllowed(`http://127.0.0.1:${server.port}/private/y?z`)).toBe(false);
    expect(await robots.isAllowed(new URL(`http://127.0.0.1:${server.port}/w`))).toBe(true);
    expect(server.count()).toBe(1);
    expect(robots.size).toBe(1);
  });

  it('localhost and 127.0.0.1 are different hosts, each with its own robots.txt', async () => {
    const server = await startServer({ '/robots.txt': text(RULES) });
    const robots = cacheFor();
    await robots.isAllowed(`http://LOCALHOST:${server.port}/x`);
    await robots.isAllowed(`http://127.0.0.1:${server.port}/x`);
    expect(server.count()).toBe(2);
    expect(robots.size).toBe(2);
    expect(server.requests[0]?.headers.host).toBe(`localhost:${server.port}`);
  });
});

describe('one request per origin', () => {
  it('100 concurrent isAllowed calls for one origin share a single request', async () => {
    const server = await startServer({ '/robots.txt': slow(50, text(RULES)) });
    const robots = cacheFor();
    const verdicts = await Promise.all(
      Array.from({ length: 100 }, (_, i) => robots.isAllowed(`${server.origin}/${i % 2 === 0 ? 'private' : 'public'}/${i}`)),
    );
    expect(server.count()).toBe(1);
    expect(verdicts.filter(Boolean)).toHaveLength(50);
    expect(verdicts[0]).toBe(false);
  });

  it('concurrent get, explain and crawlDelay for one origin share a request too', async () => {
    const server = await startServer({ '/robots.txt': slow(20, text(RULES)) });
    const robots = cacheFor();
    const [cached, explained, delay] = await Promise.all([
      robots.get(server.origin),
      robots.explain(`${server.origin}/private/a`),
      robots.crawlDelay(`${server.origin}/b`),
    ]);
    expect(server.count()).toBe(1);
    expect(cached.from).toBe('network');
    expect(explained.allowed).toBe(false);
    expect(delay).toBe(2);
  });

  it('the User-Agent header reaches the server', async () => {
    const server = await startServer({ '/robots.txt': text(RULES) });
    await cacheFor().isAllowed(`${server.origin}/`);
    expect(server.requests[0]?.headers['user-agent']).toBe(UA);
  });
});

describe('caching', () => {
  // spec: Google's robots.txt spec, caching: "Google may increase or decrease the cache lifetime based on max-age"; RFC 9309 §2.4
  it('Cache-Control: max-age is honoured: the copy is used until then, fetched again after', async () => {
    const server = await startServer({ '/robots.txt': text(RULES, 200, { 'cache-control': 'max-age=120' }) });
    const robots = cacheFor();
    const first = await robots.get(server.origin);
    expect(first.expiresAt - first.fetchedAt).toBe(120 * SECOND);
    clock += 119 * SECOND;
    expect((await robots.get(server.origin)).from).toBe('cache');
    expect(server.count()).toBe(1);
    clock += 2 * SECOND;
    expect((await robots.get(server.origin)).from).toBe('network');
    expect(server.count()).toBe(2);
  });

  // RFC 9309 §2.4: "SHOULD NOT use the cached version for more than 24 hours"
  it('max-age is capped at 24 hours', async () => {
    const server = await startServer({ '/robots.txt': text(RULES, 200, { 'cache-control': 'max-age=31536000' }) });
    const robots = cacheFor();
    const first = await robots.get(server.origin);
    expect(first.expiresAt - first.fetchedAt).toBe(DAY);
    clock += DAY - 1;
    await robots.isAllowed(`${server.origin}/`);
    expect(server.count()).toBe(1);
    clock += 1;
    await robots.isAllowed(`${server.origin}/`);
    expect(server.count()).toBe(2);
  });

  it('without Cache-Control a copy lives 24 hours', async () => {
    const server = await startServer({ '/robots.txt': text(RULES) });
    const cached = await cacheFor().get(server.origin);
    expect(cached.expiresAt - cached.fetchedAt).toBe(DAY);
  });

  it.each(['no-store', 'no-cache', 'max-age=0', 'max-age=5'])(
    'Cache-Control: %s still keeps the copy for the 60 s minimum',
    async (header) => {
      const server = await startServer({ '/robots.txt': text(RULES, 200, { 'cache-control': header }) });
      const robots = cacheFor();
      const cached = await robots.get(server.origin);
      expect(cached.expiresAt - cached.fetchedAt).toBe(CACHE_LIMITS.minLifetime);
      clock += 59 * SECOND;
      await robots.isAllowed(`${server.origin}/`);
      expect(server.count()).toBe(1);
      clock += 2 * SECOND;
      await robots.isAllowed(`${server.origin}/`);
      expect(server.count()).toBe(2);
    },
  );

  it('a 4xx answer is cached like a file, with its own max-age', async () => {
    const server = await startServer({ '/robots.txt': text('gone', 404, { 'cache-control': 'max-age=600' }) });
    const cached = await cacheFor().get(server.origin);
    expect(cached).toMatchObject({ outcome: 'allow-all' });
    expect(cached.expiresAt - cached.fetchedAt).toBe(600 * SECOND);
  });

  it('a refreshed copy replaces the old one and frees its compiled rules', async () => {
    const server = await startServer({ '/robots.txt': text(RULES, 200, { 'cache-control': 'max-age=60' }) });
    const robots = cacheFor();
    const first = await robots.get(server.origin);
    server.route('/robots.txt', text('User-agent: *\nDisallow: /\n'));
    clock += 61 * SECOND;
    expect(await robots.isAllowed(`${server.origin}/public`)).toBe(false);
    expect(first.rules?.disposed).toBe(true);
  });
});

describe('allowHost: hosts the crawler refuses', () => {
  it('a refused host disallows everything without a request: reason host-refused, no fetch counted', async () => {
    const server = await startServer({ '/robots.txt': text(RULES) });
    const robots = cacheFor({ allowHost: publicHostsOnly });
    expect(await robots.isAllowed(`${server.origin}/public`)).toBe(false);
    expect(await robots.explain(`${server.origin}/public`)).toMatchObject({
      allowed: false,
      line: 0,
      source: { outcome: 'disallow-all', reason: 'host-refused', status: 0, from: 'cache', expiresAt: clock + CACHE_LIMITS.minLifetime },
    });
    expect(await robots.crawlDelay(`${server.origin}/`)).toBeUndefined();
    expect(robots.stats()).toMatchObject({ entries: 1, fetches: 0, hits: 2 });
    expect(server.count()).toBe(0);
  });

  it('asks the policy once per origin and lifetime, and again after minLifetimeMs, with no back-off', async () => {
    const server = await startServer({ '/robots.txt': text(RULES) });
    let allowed = false;
    const asked: string[] = [];
    const robots = cacheFor({ allowHost: (url) => (asked.push(url.href), allowed), minLifetimeMs: 5 * SECOND });
    for (let call = 0; call < 3; call++) expect(await robots.isAllowed(`${server.origin}/public`)).toBe(false);
    expect(asked).toEqual([`${server.origin}/robots.txt`]);
    // Refused again: the next lifetime is the floor again, not a doubled back-off.
    clock += 5 * SECOND;
    expect((await robots.get(server.origin)).expiresAt).toBe(clock + 5 * SECOND);
    allowed = true;
    clock += 5 * SECOND;
    expect(await robots.isAllowed(`${server.origin}/public`)).toBe(true);
    expect(server.count()).toBe(1);
    expect(asked).toHaveLength(3);
  });

  it('a good copy held stands in for no refused host: the refusal replaces it', async () => {
    const server = await startServer({ '/robots.txt': text(RULES, 200, { 'cache-control': 'max-age=60' }) });
    let allowed = true;
    const robots = cacheFor({ allowHost: () => allowed });
    expect(await robots.isAllowed(`${server.origin}/public`)).toBe(true);
    allowed = false;
    clock += 61 * SECOND;
    const cached = await robots.get(server.origin);
    expect(cached).toMatchObject({ outcome: 'disallow-all', reason: 'host-refused', from: 'network' });
    expect(cached.refreshFailure).toBeUndefined();
    expect(robots.stats().bytesHeld).toBe(0);
  });

  it('is asked before every redirect hop too', async () => {
    const server = await startServer({ '/robots.txt': redirect('http://10.0.0.1/robots.txt') });
    const allowHost = (url: URL): boolean => url.host === `127.0.0.1:${server.port}`;
    const { fetch, refused } = loopbackOnlyFetch();
    const robots = cacheFor({ allowHost, fetch });
    expect(await robots.get(server.origin)).toMatchObject({ outcome: 'allow-all', reason: 'redirect-refused', status: 301 });
    expect(robots.stats().fetches).toBe(1);
    expect(refused).toEqual([]);
  });
});

describe('an unreachable site', () => {
  // spec: Google's robots.txt spec, caching: "may be cached longer in situations where refreshing the cached version is not possible"; RFC 9309 §2.4
  it('a refresh that gets a 503 keeps serving the last good copy, marked stale', async () => {
    const server = await startServer({ '/robots.txt': text(RULES, 200, { 'cache-control': 'max-age=120' }) });
    const robots = cacheFor();
    const fetchedAt = clock;
    await robots.isAllowed(`${server.origin}/`);
    server.route('/robots.txt', status(503));
    clock += 121 * SECOND;
    const explained = await robots.explain(`${server.origin}/private/x`);
    expect(explained).toMatchObject({
      allowed: false,
      line: 2,
      source: {
        from: 'stale',
        outcome: 'rules',
        status: 200,
        fetchedAt,
        refreshFailure: { reason: 'server-error', status: 503, at: clock },
      },
    });
    expect(await robots.isAllowed(`${server.origin}/public`)).toBe(true);
    expect(await robots.crawlDelay(`${server.origin}/`)).toBe(2);
    expect(server.count()).toBe(2);
  });

  it('a refresh that cannot connect keeps serving the last good copy too', async () => {
    const server = await startServer({ '/robots.txt': text(RULES, 200, { 'cache-control': 'max-age=60' }) });
    const robots = cacheFor();
    await robots.isAllowed(`${server.origin}/`);
    await server.close();
    clock += 61 * SECOND;
    expect(await robots.explain(`${server.origin}/private/x`)).toMatchObject({
      allowed: false,
      source: { from: 'stale', refreshFailure: { reason: 'network-error', status: 0 } },
    });
  });

  it('while stale, the site is asked again only after the back-off', async () => {
    const server = await startServer({ '/robots.txt': text(RULES, 200, { 'cache-control': 'max-age=60' }) });
    const robots = cacheFor();
    await robots.isAllowed(`${server.origin}/`);
    server.route('/robots.txt', status(503));
    clock += 61 * SECOND;
    expect((await robots.get(server.origin)).from).toBe('stale');
    clock += 59 * SECOND;
    expect((await robots.get(server.origin)).from).toBe('stale');
    expect(server.count()).toBe(2);
    clock += 2 * SECOND;
    await robots.get(server.origin);
    expect(server.count()).toBe(3);
    server.route('/robots.txt', text('User-agent: *\nDisallow: /\n'));
    clock += 2 * 60 * SECOND + 1;
    const recovered = await robots.get(server.origin);
    expect(recovered).toMatchObject({ from: 'network', status: 200 });
    expect(recovered.refreshFailure).toBeUndefined();
    expect(await robots.isAllowed(`${server.origin}/public`)).toBe(false);
  });

  it('a stale copy is served for at most 30 days after it was fetched, then everything is disallowed', async () => {
    const server = await startServer({ '/robots.txt': text(RULES) });
    const robots = cacheFor();
    await robots.isAllowed(`${server.origin}/`);
    server.route('/robots.txt', status(503));
    clock += 30 * DAY - HOUR;
    expect((await robots.get(server.origin)).from).toBe('stale');
    clock += HOUR;
    expect(await robots.explain(`${server.origin}/public`)).toMatchObject({
      allowed: false,
      source: { from: 'network', outcome: 'disallow-all', status: 503 },
    });
    expect(server.count()).toBe(3);
  });

  it('with no good copy, a 503 disallows all and is not asked again before the back-off, which doubles', async () => {
    const server = await startServer({ '/robots.txt': status(503) });
    const robots = cacheFor();
    const url = `${server.origin}/page`;
    const first = await robots.get(url);
    expect(first).toMatchObject({ outcome: 'disallow-all', status: 503, from: 'network' });
    expect(first.expiresAt - first.fetchedAt).toBe(60 * SECOND);
    clock += 59 * SECOND;
    expect(await robots.isAllowed(url)).toBe(false);
    expect(server.count()).toBe(1);
    clock += 2 * SECOND;
    const second = await robots.get(url);
    expect(server.count()).toBe(2);
    expect(second.expiresAt - second.fetchedAt).toBe(120 * SECOND);
    clock += 119 * SECOND;
    await robots.isAllowed(url);
    expect(server.count()).toBe(2);
    clock += 2 * SECOND;
    server.route('/robots.txt', text(RULES));
    expect(await robots.isAllowed(url)).toBe(true);
    expect(server.count()).toBe(3);
  });

  it('the back-off stops doubling at one hour', async () => {
    const server = await startServer({ '/robots.txt': status(500) });
    const robots = cacheFor();
    let wait = 0;
    for (let attempt = 0; attempt < 10; attempt++) {
      clock += wait;
      const cached = await robots.get(server.origin);
      wait = cached.expiresAt - cached.fetchedAt;
    }
    expect(server.count()).toBe(10);
    expect(wait).toBe(HOUR);
  });
});

describe('memory', () => {
  const manyRules = `User-agent: *\n${Array.from({ length: 2000 }, (_, i) => `Disallow: /section-${i}/*/page$\n`).join('')}`;

  function warmUp(): void {
    // The matcher allocates its buffers on first use; do that before measuring.
    parseRobotsTxt(manyRules).forAgent('ExampleBot').dispose();
  }

  it('beyond maxEntries the least recently used origin is evicted and its WebAssembly memory freed', async () => {
    warmUp();
    const big = [await startServer({ '/robots.txt': text(manyRules) }), await startServer({ '/robots.txt': text(manyRules) })];
    const small = [await startServer(), await startServer()]; // 404: allow all, nothing compiled
    const robots = cacheFor({ maxEntries: 2 });
    const before = matcherInfo().wasmBytesInUse;
    const compiled = [await robots.get(big[0]!.origin), await robots.get(big[1]!.origin)];
    const loaded = matcherInfo().wasmBytesInUse;
    expect(loaded).toBeGreaterThan(before);
    await robots.isAllowed(`${small[0]!.origin}/`);
    expect(robots.size).toBe(2);
    expect(compiled[0]?.rules?.disposed).toBe(true);
    expect(compiled[1]?.rules?.disposed).toBe(false);
    await robots.isAllowed(`${small[1]!.origin}/`);
    expect(compiled[1]?.rules?.disposed).toBe(true);
    expect(matcherInfo().wasmBytesInUse).toBeLessThanOrEqual(before);
    await robots.isAllowed(`${big[0]!.origin}/section-1/x/page`);
    expect(big[0]!.count()).toBe(2); // evicted, so fetched again
  });

  it('using an origin keeps it: the one evicted is the least recently used', async () => {
    const servers = [await startServer(), await startServer(), await startServer()];
    const robots = cacheFor({ maxEntries: 2 });
    await robots.isAllowed(`${servers[0]!.origin}/`);
    await robots.isAllowed(`${servers[1]!.origin}/`);
    await robots.isAllowed(`${servers[0]!.origin}/again`);
    await robots.isAllowed(`${servers[2]!.origin}/`);
    await robots.isAllowed(`${servers[0]!.origin}/`);
    expect(servers.map((server) => server.count())).toEqual([1, 1, 1]);
    await robots.isAllowed(`${servers[1]!.origin}/`);
    expect(servers[1]!.count()).toBe(2);
  });

  it('dispose() empties the cache and frees every compiled ruleset', async () => {
    warmUp();
    const server = await startServer({ '/robots.txt': text(manyRules) });
    const robots = cacheFor();
    const before = matcherInfo().wasmBytesInUse;
    const cached = await robots.get(server.origin);
    expect(matcherInfo().wasmBytesInUse).toBeGreaterThan(before);
    robots.dispose();
    expect(robots.size).toBe(0);
    expect(cached.rules?.disposed).toBe(true);
    expect(matcherInfo().wasmBytesInUse).toBeLessThanOrEqual(before);
  });
});

describe('bad input', () => {
  it.each(['not a url', '/private/x', 'example.com/page', '', 'ftp://example.com/x', 'javascript:alert(1)'])(
    'isAllowed(%j) rejects with a TypeError that says what to pass',
    async (url) => {
      const robots = cacheFor();
      await expect(robots.isAllowed(url)).rejects.toThrow(TypeError);
      await expect(robots.explain(url)).rejects.toThrow(/http\(s\)|http: and https:/);
      await expect(robots.get(url)).rejects.toThrow(TypeError);
      await expect(robots.crawlDelay(url)).rejects.toThrow(TypeError);
    },
  );

  it('a URL that is not a string rejects with a TypeError', async () => {
    // @ts-expect-error: deliberately not a URL
    await expect(cacheFor().isAllowed(42)).rejects.toThrow(/string or URL object/);
  });

  it.each([
    [{ maxEntries: 0 }, RangeError],
    [{ maxEntries: 2.5 }, RangeError],
    [{ timeoutMs: -5 }, RangeError],
    [{ maxBytes: -1 }, RangeError],
    [{ profile: 'bing' }, RangeError],
    [{ agent: 'Example Bot' }, TypeError],
    [{ userAgent: '(compatible; no token)' }, TypeError],
    [{ userAgent: undefined }, TypeError],
    [{ now: 5 }, TypeError],
    [{ fetch: {} }, TypeError],
  ])('rejects bad options: %j', (options, type) => {
    // @ts-expect-error: deliberately wrong options
    expect(() => new RobotsCache({ userAgent: UA, ...options })).toThrow(type);
  });

  it('explains what to pass when no userAgent yields a product token', () => {
    expect(() => new RobotsCache({ userAgent: '(compatible)' })).toThrow(/pass \{ agent: 'ExampleBot' \}/);
  });

  it('says to pass fetch when the platform has none', () => {
    vi.stubGlobal('fetch', undefined);
    try {
      expect(() => new RobotsCache({ userAgent: UA })).toThrow(/pass \{ fetch \}/);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('the URL that is checked is the URL that is fetched', () => {
  // The WHATWG URL parser (fetch's) reads `\` as `/` in http(s) URLs, and resolves dot segments.
  it.each(['\\private', '/public/../private/', '/./private/x', '/%2E%2E/private/x'])(
    'the string %j and its URL object get the same verdict: the path fetch() would request',
    async (path) => {
      const server = await startServer({ '/robots.txt': text('User-agent: *\nDisallow: /private\n') });
      const robots = cacheFor();
      const url = `${server.origin}${path}`;
      const requested = new URL(url).pathname;
      expect(requested.startsWith('/private')).toBe(true);
      expect(await robots.isAllowed(url)).toBe(false);
      expect(await robots.isAllowed(new URL(url))).toBe(false);
      expect((await robots.explain(url)).line).toBe(2);
    },
  );

  it('a path that starts with // is matched as the path, not read as a host', async () => {
    const server = await startServer({ '/robots.txt': text('User-agent: *\nDisallow: //evil\n') });
    const robots = cacheFor();
    expect(await robots.isAllowed(`${server.origin}//evil.example/x`)).toBe(false);
    expect(await robots.isAllowed(`${server.origin}/x`)).toBe(true);
  });

  it('the query decides, the fragment does not', async () => {
    const server = await startServer({ '/robots.txt': text('User-agent: *\nDisallow: /*?print\nDisallow: /*top$\n') });
    const robots = cacheFor();
    expect(await robots.isAllowed(`${server.origin}/page?print=1#x`)).toBe(false);
    expect(await robots.isAllowed(`${server.origin}/pagetop`)).toBe(false);
    expect(await robots.isAllowed(`${server.origin}/page#top`)).toBe(true);
  });
});

describe('the agent of a full User-Agent header', () => {
  it("is the crawler token in its comment, so the site's group for the crawler applies", async () => {
    const server = await startServer({ '/robots.txt': text('User-agent: ExampleBot\nDisallow: /mine\n\nUser-agent: *\nDisallow: /\n') });
    const robots = cacheFor({ userAgent: 'Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)' });
    expect(robots.agent).toBe('ExampleBot');
    expect(await robots.isAllowed(`${server.origin}/page`)).toBe(true);
    expect(await robots.isAllowed(`${server.origin}/mine`)).toBe(false);
  });

  it("a browser's header names no crawler: a TypeError that says to pass agent", () => {
    const chrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    expect(() => new RobotsCache({ userAgent: chrome })).toThrow(TypeError);
    expect(() => new RobotsCache({ userAgent: chrome })).toThrow(/pass \{ agent: 'ExampleBot' \}/);
    expect(new RobotsCache({ userAgent: chrome, agent: 'ExampleBot' }).agent).toBe('ExampleBot');
  });
});

describe('dispose() ends the cache; clear() empties it', () => {
  it('dispose() cancels fetches in flight: their callers get RobotsCacheDisposedError at once, and nothing lands', async () => {
    let answer!: () => void;
    const server = await startServer({
      '/robots.txt': (_request, response) => {
        answer = () => response.writeHead(200, { 'content-type': 'text/plain' }).end(RULES);
      },
    });
    const robots = cacheFor();
    const pending = [robots.isAllowed(`${server.origin}/a`), robots.get(server.origin)];
    await vi.waitFor(() => expect(server.count()).toBe(1));
    robots.dispose();
    for (const call of pending) await expect(call).rejects.toBeInstanceOf(RobotsCacheDisposedError);
    answer();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(robots.size).toBe(0);
    expect(robots.stats().bytesHeld).toBe(0);
  });

  it('every call after dispose() rejects with RobotsCacheDisposedError, which says what to do', async () => {
    const { fetch, refused } = loopbackOnlyFetch();
    const robots = cacheFor({ fetch });
    robots.dispose();
    robots.dispose();
    await expect(robots.isAllowed('https://example.com/')).rejects.toThrow(/create a new RobotsCache.*clear\(\)/);
    await expect(robots.explain('https://example.com/')).rejects.toBeInstanceOf(RobotsCacheDisposedError);
    await expect(robots.get('https://example.com/')).rejects.toBeInstanceOf(RobotsCacheDisposedError);
    await expect(robots.crawlDelay('https://example.com/')).rejects.toBeInstanceOf(RobotsCacheDisposedError);
    expect(refused).toEqual([]);
  });

  it('clear() frees every origin and keeps the cache usable: the next call fetches again', async () => {
    const server = await startServer({ '/robots.txt': text(RULES) });
    const robots = cacheFor();
    const cached = await robots.get(server.origin);
    robots.clear();
    expect(robots.size).toBe(0);
    expect(cached.rules?.disposed).toBe(true);
    expect(await robots.isAllowed(`${server.origin}/private/x`)).toBe(false);
    expect(server.count()).toBe(2);
  });
});

describe('cache lifetimes as options', () => {
  it('minLifetimeMs and maxLifetimeMs move the floor and the ceiling', async () => {
    const short = await startServer({ '/robots.txt': text(RULES, 200, { 'cache-control': 'max-age=1' }) });
    const long = await startServer({ '/robots.txt': text(RULES, 200, { 'cache-control': 'max-age=86400' }) });
    const plain = await startServer({ '/robots.txt': text(RULES) });
    const robots = cacheFor({ minLifetimeMs: 10 * SECOND, maxLifetimeMs: HOUR });
    for (const [server, lifetime] of [
      [short, 10 * SECOND],
      [long, HOUR],
      [plain, HOUR],
    ] as const) {
      const cached = await robots.get(server.origin);
      expect(cached.expiresAt - cached.fetchedAt).toBe(lifetime);
    }
  });

  it('an invalid max-age is stale: the floor applies, not the 24-hour ceiling', async () => {
    const server = await startServer({ '/robots.txt': text(RULES, 200, { 'cache-control': 'max-age=-1' }) });
    const cached = await cacheFor().get(server.origin);
    expect(cached.expiresAt - cached.fetchedAt).toBe(CACHE_LIMITS.minLifetime);
  });

  it.each([
    [{ maxLifetimeMs: DAY + 1 }, /at most 86400000/],
    [{ minLifetimeMs: 2 * HOUR, maxLifetimeMs: HOUR }, /must not exceed/],
    [{ minLifetimeMs: 0 }, /minLifetimeMs/],
    [{ maxLifetimeMs: Number.NaN }, /maxLifetimeMs/],
  ])('rejects bad lifetimes: %j', (options, message) => {
    expect(() => new RobotsCache({ userAgent: UA, ...options })).toThrow(RangeError);
    expect(() => new RobotsCache({ userAgent: UA, ...options })).toThrow(message);
  });

  it('a clock that returns NaN is a TypeError when the cache is made', () => {
    expect(() => new RobotsCache({ userAgent: UA, now: () => Number.NaN })).toThrow(TypeError);
    expect(() => new RobotsCache({ userAgent: UA, now: () => Number.NaN })).toThrow(/finite number of milliseconds/);
  });

  it('maxBytes must be finite for a cache too', () => {
    expect(() => new RobotsCache({ userAgent: UA, maxBytes: Infinity })).toThrow(/must be bounded/);
  });
});

describe('revalidation with ETag and Last-Modified', () => {
  function conditional(validator: { etag?: string; lastModified?: string }, body = RULES): Route & { bodies: () => number } {
    let bodies = 0;
    const route = ((request, response) => {
      const matches =
        (validator.etag !== undefined && request.headers['if-none-match'] === validator.etag) ||
        (validator.lastModified !== undefined && request.headers['if-modified-since'] === validator.lastModified);
      const headers: Record<string, string> = { 'cache-control': 'max-age=60', 'content-type': 'text/plain' };
      if (validator.etag !== undefined) headers.etag = validator.etag;
      if (validator.lastModified !== undefined) headers['last-modified'] = validator.lastModified;
      if (matches) return void response.writeHead(304, headers).end();
      bodies++;
      response.writeHead(200, headers).end(body);
    }) as Route & { bodies: () => number };
    route.bodies = () => bodies;
    return route;
  }

  it.each([{ etag: '"v1"' }, { lastModified: 'Wed, 21 Oct 2026 07:28:00 GMT' }])(
    'an expired copy is asked for conditionally (%j); a 304 renews it without parsing again',
    async (validator) => {
      const route = conditional(validator);
      const server = await startServer({ '/robots.txt': route });
      const robots = cacheFor();
      const first = await robots.get(server.origin);
      clock += 61 * SECOND;
      const second = await robots.get(server.origin);
      expect(second).toMatchObject({
        from: 'revalidated',
        outcome: 'rules',
        status: 200,
        fetchedAt: clock,
        expiresAt: clock + 60 * SECOND,
      });
      expect(second.robots).toBe(first.robots);
      expect(second.rules).toBe(first.rules);
      expect(first.rules?.disposed).toBe(false);
      expect(route.bodies()).toBe(1);
      expect(server.count()).toBe(2);
      expect(await robots.isAllowed(`${server.origin}/private/x`)).toBe(false);
      expect(robots.stats()).toMatchObject({ fetches: 2, revalidations: 1 });
    },
  );

  it('a changed file is fetched whole and replaces the copy', async () => {
    const server = await startServer({ '/robots.txt': conditional({ etag: '"v1"' }) });
    const robots = cacheFor();
    const first = await robots.get(server.origin);
    server.route('/robots.txt', conditional({ etag: '"v2"' }, 'User-agent: *\nDisallow: /\n'));
    clock += 61 * SECOND;
    expect(await robots.isAllowed(`${server.origin}/public`)).toBe(false);
    expect(first.rules?.disposed).toBe(true);
    expect(server.requests[1]?.headers['if-none-match']).toBe('"v1"');
  });

  it('revalidate: false always fetches the whole file', async () => {
    const server = await startServer({ '/robots.txt': conditional({ etag: '"v1"' }) });
    const robots = cacheFor({ revalidate: false });
    await robots.get(server.origin);
    clock += 61 * SECOND;
    expect((await robots.get(server.origin)).from).toBe('network');
    expect(server.requests[1]?.headers['if-none-match']).toBeUndefined();
  });
});

describe('Retry-After', () => {
  it.each([
    [503, '600', 600 * SECOND],
    [429, '600', 600 * SECOND],
    [503, '7200', HOUR],
    [503, '5', CACHE_LIMITS.firstBackoff],
  ])(
    'a %i with Retry-After %s is asked again after %i ms (never sooner than the back-off, never later than its ceiling)',
    async (code, header, wait) => {
      const server = await startServer({ '/robots.txt': status(code, { 'retry-after': header }) });
      const cached = await cacheFor().get(server.origin);
      expect(cached).toMatchObject({ outcome: 'disallow-all' });
      expect(cached.expiresAt - clock).toBe(wait);
    },
  );

  it('honorRetryAfter: false keeps the plain back-off', async () => {
    const server = await startServer({ '/robots.txt': status(503, { 'retry-after': '600' }) });
    const cached = await cacheFor({ honorRetryAfter: false }).get(server.origin);
    expect(cached.expiresAt - clock).toBe(CACHE_LIMITS.firstBackoff);
  });
});

describe("a caller's own AbortSignal", () => {
  it("rejects that caller with the signal's reason; the shared fetch goes on and answers the others", async () => {
    let answer!: () => void;
    const server = await startServer({
      '/robots.txt': (_request, response) => {
        answer = () => response.writeHead(200, { 'content-type': 'text/plain' }).end(RULES);
      },
    });
    const robots = cacheFor();
    const controller = new AbortController();
    const impatient = robots.isAllowed(`${server.origin}/private/x`, { signal: controller.signal });
    const patient = robots.isAllowed(`${server.origin}/private/x`);
    await vi.waitFor(() => expect(server.count()).toBe(1));
    controller.abort(new Error('deadline of the caller'));
    await expect(impatient).rejects.toThrow('deadline of the caller');
    answer();
    expect(await patient).toBe(false);
    expect(server.count()).toBe(1);
  });

  it('an already aborted signal rejects at once, without a fetch', async () => {
    const server = await startServer({ '/robots.txt': text(RULES) });
    const robots = cacheFor();
    await expect(robots.isAllowed(`${server.origin}/`, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.count()).toBe(0);
  });
});

describe('stats()', () => {
  it('counts hits, fetches, stale answers and evictions, and the bytes held', async () => {
    const servers = [await startServer({ '/robots.txt': text(RULES, 200, { 'cache-control': 'max-age=60' }) }), await startServer()];
    const robots = cacheFor({ maxEntries: 1 });
    const noStore = { hits: 0, misses: 0, writes: 0, errors: 0, fallbacks: 0, waits: 0, takeovers: 0, invalid: 0 };
    expect(robots.stats()).toEqual({
      entries: 0,
      hits: 0,
      fetches: 0,
      revalidations: 0,
      staleAnswers: 0,
      evictions: 0,
      bytesHeld: 0,
      store: noStore,
    });
    await robots.isAllowed(`${servers[0]!.origin}/a`);
    await robots.isAllowed(`${servers[0]!.origin}/b`);
    const held = robots.stats().bytesHeld;
    expect(held).toBeGreaterThanOrEqual(RULES.length);
    servers[0]!.route('/robots.txt', status(503));
    clock += 61 * SECOND;
    await robots.isAllowed(`${servers[0]!.origin}/c`); // the refresh fails: stale
    await robots.isAllowed(`${servers[0]!.origin}/d`); // stale, from cache
    await robots.isAllowed(`${servers[1]!.origin}/`); // evicts the first
    expect(robots.stats()).toEqual({
      entries: 1,
      hits: 2,
      fetches: 3,
      revalidations: 0,
      staleAnswers: 2,
      evictions: 1,
      bytesHeld: 0,
      store: noStore,
    });
  });
});

describe('maxMemoryBytes', () => {
  const file = (name: string): string => `User-agent: *\n${Array.from({ length: 40 }, (_, i) => `Disallow: /${name}/${i}/\n`).join('')}`;

  it('evicts the least recently used origins once the files held pass the budget, whatever their number', async () => {
    const servers = [await startServer({ '/robots.txt': text(file('a')) }), await startServer({ '/robots.txt': text(file('b')) })];
    const third = await startServer({ '/robots.txt': text(file('c')) });
    const probe = cacheFor();
    await probe.isAllowed(`${servers[0]!.origin}/`);
    const one = probe.stats().bytesHeld;
    expect(one).toBeGreaterThan(file('a').length);

    const robots = cacheFor({ maxMemoryBytes: Math.floor(2.5 * one) });
    for (const server of [...servers, third]) await robots.isAllowed(`${server.origin}/`);
    expect(robots.stats()).toMatchObject({ entries: 2, evictions: 1 });
    expect(robots.stats().bytesHeld).toBeLessThanOrEqual(2.5 * one);
    await robots.isAllowed(`${servers[1]!.origin}/`);
    expect(servers[1]!.count()).toBe(1); // still cached
    await robots.isAllowed(`${servers[0]!.origin}/`);
    expect(servers[0]!.count()).toBe(3); // evicted, fetched again (once by the probe)
  });

  it('charges rules compiled to the same bytes once, however many origins hold them, and frees them with the last', async () => {
    const same = file('same');
    const servers = [];
    // Each body differs (a comment of its own), their rules do not: one compiled ruleset serves all three.
    for (const name of ['x', 'y', 'z']) servers.push(await startServer({ '/robots.txt': text(`# ${name}\n${same}`) }));
    const bodyBytes = same.length + 4;
    const probe = cacheFor();
    await probe.isAllowed(`${servers[0]!.origin}/`);
    const one = probe.stats().bytesHeld;
    const rulesetBytes = one - bodyBytes;
    expect(rulesetBytes).toBeGreaterThan(0);
    probe.dispose();

    const robots = cacheFor({ maxEntries: 2 });
    for (const server of servers.slice(0, 2)) await robots.isAllowed(`${server.origin}/`);
    expect(robots.stats().bytesHeld).toBe(2 * bodyBytes + rulesetBytes);
    // The third evicts the first: the ruleset stays charged, once, for the two that hold it.
    await robots.isAllowed(`${servers[2]!.origin}/`);
    expect(robots.stats()).toMatchObject({ entries: 2, evictions: 1, bytesHeld: 2 * bodyBytes + rulesetBytes });
    expect(await robots.isAllowed(`${servers[1]!.origin}/same/3/x`)).toBe(false);
    expect(await robots.isAllowed(`${servers[2]!.origin}/same/3/x`)).toBe(false);
    expect(await robots.isAllowed(`${servers[2]!.origin}/other`)).toBe(true);
    robots.clear();
    expect(robots.stats().bytesHeld).toBe(0);
  });

  it('keeps the origin just fetched even when it alone is over the budget', async () => {
    const server = await startServer({ '/robots.txt': text(file('big')) });
    const robots = cacheFor({ maxMemoryBytes: 10 });
    expect(await robots.isAllowed(`${server.origin}/big/1/x`)).toBe(false);
    expect(robots.stats()).toMatchObject({ entries: 1, evictions: 0 });
  });

  it('returns to 0 bytes held when cleared', async () => {
    const server = await startServer({ '/robots.txt': text(file('a')) });
    const robots = cacheFor();
    await robots.isAllowed(`${server.origin}/`);
    robots.clear();
    expect(robots.stats().bytesHeld).toBe(0);
  });
});
