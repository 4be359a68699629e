/**
 * Every request a robots.txt fetch sends is one its host policy (allowHost, allowRedirect) was asked about
 * first, redirect hops included, also where the runtime follows redirects itself:
 * - a browser, whose fetch hides a redirect's target from scripts (an opaque-redirect filtered response,
 *   https://fetch.spec.whatwg.org/#concept-filtered-response-opaque-redirect) and follows only when told to;
 * - a fetch that ignores `redirect: 'manual'` and answers with the last response, `redirected: true`.
 * The sites are real HTTP servers on 127.0.0.1. The fetches below do what those runtimes do, one real request
 * per hop, each through a recorder that logs its URL and refuses every host but 127.0.0.1, so a request to an
 * internal host shows in the log and never leaves the machine.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fetchRobotsTxt, publicHostsOnly, RobotsCache, type FetchLike, type ResponseShape } from '../../../src/platform/inline.js';
import { closeServers, redirect, startServer, text, type TestServer } from '../../support/http-server.js';
import { loopbackOnlyFetch } from '../../support/loopback-fetch.js';

const UA = 'ExampleBot/1.2 (+https://example.com/bot)';
const DISALLOW_ALL = 'User-agent: *\nDisallow: /\n';

afterEach(closeServers);

/** What happened, in order: `ask URL` when a policy is asked, `request URL` when a request is sent. */
interface Trail {
  readonly events: string[];
  /** The requests the recorder refused: any host but 127.0.0.1. */
  readonly refused: string[];
  /** One request, sent only to 127.0.0.1, logged. */
  readonly send: FetchLike;
  /** A policy that logs what it is asked and answers with `allows`. */
  policy(allows: (url: URL) => boolean): (url: URL) => boolean;
}

function trail(): Trail {
  const events: string[] = [];
  const { fetch, refused } = loopbackOnlyFetch();
  return {
    events,
    refused,
    send: (url, init) => (events.push(`request ${url}`), fetch(url, init)),
    policy: (allows) => (url) => (events.push(`ask ${url.href}`), allows(url)),
  };
}

/** A policy for the tests: the site's own server (on loopback, as every test server is), and public hosts. */
function siteOrPublic(site: TestServer): (url: URL) => boolean {
  return (url) => url.host === new URL(site.origin).host || publicHostsOnly(url);
}

/**
 * A fetch that follows redirects itself, one `send` per hop (at most 20, a browser's limit). `'browser'`:
 * told `'manual'`, it answers a redirect with an opaque redirect (status 0, no headers, the target hidden),
 * and follows only when told `'follow'`. `'ignores-manual'`: it always follows. What it followed to is
 * answered with `redirected: true` and the URL reached.
 */
function followingFetch(send: FetchLike, kind: 'browser' | 'ignores-manual'): FetchLike {
  return async (url, init) => {
    let current = url;
    for (let hop = 0; hop <= 20; hop++) {
      const response = await send(current, { ...init, redirect: 'manual' });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status > 399 || location === null) {
        const { status, headers, body } = response;
        return { status, headers, body, type: 'basic', url: current, redirected: hop > 0 };
      }
      await response.body?.cancel();
      if (kind === 'browser' && init.redirect === 'manual') {
        return { type: 'opaqueredirect', status: 0, headers: new Headers(), body: null, url: current, redirected: false };
      }
      current = new URL(location, current).href;
    }
    throw new TypeError('too many redirects');
  };
}

describe("a browser's fetch, which hides where a redirect goes", () => {
  it.each(['allowHost', 'allowRedirect'] as const)(
    'with %s set, the redirect is not followed: redirect-refused, and the metadata endpoint is never requested',
    async (option) => {
      const site = await startServer({ '/robots.txt': redirect('http://169.254.169.254/latest/meta-data/') });
      const { events, refused, send, policy } = trail();
      const result = await fetchRobotsTxt(site.origin, {
        userAgent: UA,
        fetch: followingFetch(send, 'browser'),
        [option]: policy(siteOrPublic(site)),
      });
      expect(result).toMatchObject({
        outcome: 'allow-all',
        reason: 'redirect-refused',
        status: 0,
        redirects: 0,
        finalUrl: `${site.origin}/robots.txt`,
      });
      const asked = option === 'allowHost' ? [`ask ${site.origin}/robots.txt`] : [];
      expect(events).toEqual([...asked, `request ${site.origin}/robots.txt`]);
      expect(refused).toEqual([]);
      expect(site.count()).toBe(1);
    },
  );

  it('RobotsCache with allowHost does the same: allow-all (redirect-refused), the endpoint never requested', async () => {
    const site = await startServer({ '/robots.txt': redirect('http://169.254.169.254/latest/meta-data/') });
    const { events, refused, send, policy } = trail();
    const robots = new RobotsCache({ userAgent: UA, fetch: followingFetch(send, 'browser'), allowHost: policy(siteOrPublic(site)) });
    try {
      expect(await robots.get(`${site.origin}/page`)).toMatchObject({ outcome: 'allow-all', reason: 'redirect-refused', from: 'network' });
      expect(events).toEqual([`ask ${site.origin}/robots.txt`, `request ${site.origin}/robots.txt`]);
      expect(refused).toEqual([]);
    } finally {
      robots.dispose();
    }
  });

  it('without a policy, the browser follows as before, and the URL it reached is the final one', async () => {
    const elsewhere = await startServer({ '/robots.txt': text(DISALLOW_ALL) });
    const site = await startServer({ '/robots.txt': redirect(`${elsewhere.origin}/robots.txt`) });
    const { events, send } = trail();
    const result = await fetchRobotsTxt(site.origin, { userAgent: UA, fetch: followingFetch(send, 'browser') });
    expect(result).toMatchObject({ outcome: 'rules', status: 200, finalUrl: `${elsewhere.origin}/robots.txt` });
    expect(events).toEqual([
      `request ${site.origin}/robots.txt`,
      `request ${site.origin}/robots.txt`,
      `request ${elsewhere.origin}/robots.txt`,
    ]);
  });

  it('a fetch told to follow that answers with an opaque redirect again is not asked forever: invalid-response', async () => {
    const site = await startServer({ '/robots.txt': redirect('/next') });
    const { send } = trail();
    const opaque: ResponseShape = { type: 'opaqueredirect', status: 0, headers: new Headers(), body: null };
    const stuck: FetchLike = (url, init) => send(url, init).then(async (response) => (await response.body?.cancel(), opaque));
    const result = await fetchRobotsTxt(site.origin, { userAgent: UA, fetch: stuck, timeoutMs: 2_000 });
    expect(result).toMatchObject({ outcome: 'disallow-all', reason: 'invalid-response' });
    expect(site.count()).toBe(2);
  });
});

describe("a fetch that follows redirects itself, whatever 'redirect' says", () => {
  it('the URL it reached is asked about before its response is read: refused, it counts as redirect-refused', async () => {
    // `internal` stands for a host the crawler must not reach: the policy allows the site's server alone.
    const internal = await startServer({ '/robots.txt': text(DISALLOW_ALL) });
    const site = await startServer({ '/robots.txt': redirect(`${internal.origin}/robots.txt`) });
    const { events, send, policy } = trail();
    const onlySite = policy((url) => url.host === new URL(site.origin).host);
    const result = await fetchRobotsTxt(site.origin, { userAgent: UA, fetch: followingFetch(send, 'ignores-manual'), allowHost: onlySite });
    expect(result).toMatchObject({ outcome: 'allow-all', reason: 'redirect-refused', status: 0, finalUrl: `${site.origin}/robots.txt` });
    expect(result.robots).toBeUndefined();
    // The fetch sent the hop before anyone could ask (nothing can stop that); its answer was not read.
    expect(events).toEqual([
      `ask ${site.origin}/robots.txt`,
      `request ${site.origin}/robots.txt`,
      `request ${internal.origin}/robots.txt`,
      `ask ${internal.origin}/robots.txt`,
    ]);
  });

  it('RobotsCache does the same: the refused host’s Disallow: / is not applied', async () => {
    const internal = await startServer({ '/robots.txt': text(DISALLOW_ALL, 200, { 'cache-control': 'max-age=86400' }) });
    const site = await startServer({ '/robots.txt': redirect(`${internal.origin}/robots.txt`) });
    const { send } = trail();
    const robots = new RobotsCache({
      userAgent: UA,
      fetch: followingFetch(send, 'ignores-manual'),
      allowRedirect: (url) => url.host !== new URL(internal.origin).host,
    });
    try {
      expect(await robots.isAllowed(`${site.origin}/page`)).toBe(true);
      expect(await robots.get(site.origin)).toMatchObject({ outcome: 'allow-all', reason: 'redirect-refused' });
    } finally {
      robots.dispose();
    }
  });

  it('a URL the policy allows is read, and reported as the final URL', async () => {
    const elsewhere = await startServer({ '/robots.txt': text(DISALLOW_ALL) });
    const site = await startServer({ '/robots.txt': redirect(`${elsewhere.origin}/robots.txt`) });
    const { events, send, policy } = trail();
    const result = await fetchRobotsTxt(site.origin, {
      userAgent: UA,
      fetch: followingFetch(send, 'ignores-manual'),
      allowHost: policy(() => true),
    });
    expect(result).toMatchObject({ outcome: 'rules', finalUrl: `${elsewhere.origin}/robots.txt` });
    expect(events.filter((event) => event.startsWith('ask'))).toEqual([
      `ask ${site.origin}/robots.txt`,
      `ask ${elsewhere.origin}/robots.txt`,
    ]);
  });

  it('with a policy, a redirected response whose URL cannot be read is refused: no check can pass what it cannot read', async () => {
    const site = await startServer({ '/robots.txt': text(DISALLOW_ALL) });
    const { send } = trail();
    const hidden: FetchLike = (url, init) => send(url, init).then((response) => ({ ...pick(response), redirected: true, url: '' }));
    const withPolicy = await fetchRobotsTxt(site.origin, { userAgent: UA, fetch: hidden, allowHost: () => true });
    expect(withPolicy).toMatchObject({ outcome: 'allow-all', reason: 'redirect-refused' });
    const without = await fetchRobotsTxt(site.origin, { userAgent: UA, fetch: hidden });
    expect(without).toMatchObject({ outcome: 'rules', finalUrl: `${site.origin}/robots.txt` });
  });
});

/** The members of a response the library reads, in an object whose `url` and `redirected` can be set. */
function pick(response: ResponseShape): ResponseShape {
  const { status, headers, body, type } = response;
  return { status, headers, body, type };
}

describe('manual redirects: every hop asks the policy before its request', () => {
  // Each Location names an internal host; the percent-encoded ones are what a header can carry of `．` and `。`.
  it.each([
    'http://localhost.localdomain/robots.txt',
    'http://localhost4.localdomain4:8080/robots.txt',
    'http://localhost6.localdomain6./robots.txt',
    'http://localhost../robots.txt',
    'http://metadata.google.internal../computeMetadata/v1/',
    'http://kubernetes.default.svc/api',
    'http://LOCALHOST%2Elocaldomain/robots.txt',
    'http://localhost%EF%BC%8Elocaldomain%E3%80%82/robots.txt',
  ])('a redirect to %s is refused before it is requested', async (location) => {
    const site = await startServer({ '/robots.txt': redirect('/moved'), '/moved': redirect(location, 302) });
    const { events, refused, send, policy } = trail();
    const result = await fetchRobotsTxt(site.origin, { userAgent: UA, fetch: send, allowHost: policy(siteOrPublic(site)) });
    expect(result).toMatchObject({
      outcome: 'allow-all',
      reason: 'redirect-refused',
      status: 302,
      redirects: 1,
      finalUrl: `${site.origin}/moved`,
    });
    expect(events).toEqual([
      `ask ${site.origin}/robots.txt`,
      `request ${site.origin}/robots.txt`,
      `ask ${site.origin}/moved`,
      `request ${site.origin}/moved`,
      `ask ${new URL(location).href}`,
    ]);
    expect(refused).toEqual([]);
  });

  it('RobotsCache asks the same way: a redirect to localhost.localdomain is never requested', async () => {
    const site = await startServer({ '/robots.txt': redirect('http://localhost.localdomain/robots.txt') });
    const { events, refused, send, policy } = trail();
    const robots = new RobotsCache({ userAgent: UA, fetch: send, allowHost: policy(siteOrPublic(site)) });
    try {
      expect(await robots.get(site.origin)).toMatchObject({ outcome: 'allow-all', reason: 'redirect-refused', status: 301 });
      expect(events).toEqual([
        `ask ${site.origin}/robots.txt`,
        `request ${site.origin}/robots.txt`,
        'ask http://localhost.localdomain/robots.txt',
      ]);
      expect(refused).toEqual([]);
    } finally {
      robots.dispose();
    }
  });
});
