/**
 * fetchRobotsTxt in a real browser, whose fetch hides where a redirect goes: asked for `redirect: 'manual'`,
 * Chromium answers with an opaque redirect (https://fetch.spec.whatwg.org/#concept-filtered-response-opaque-redirect),
 * and only a request made with `redirect: 'follow'` goes on. With a host policy set, the library must not let the
 * browser follow: the target would be requested before the policy could be asked about it.
 *
 * The package's dist/ runs in headless Chromium, loaded from a server on 127.0.0.1. The host the crawler must not
 * reach is a second loopback server that the policy refuses: it records every request, a CORS preflight included,
 * so a request that reached it shows. Chromium resolves no other host name (test/support/chromium.ts).
 */
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumTool, launchChromium } from '../../support/chromium.js';
import { closeServers, redirect, startServer, text, type TestServer } from '../../support/http-server.js';
import { filesUnder, serveFiles } from '../../support/static-files.js';

const chromium = chromiumTool();
const DIST = fileURLToPath(new URL('../../../dist/', import.meta.url));
/**
 * The page's script: fetchRobotsTxt for the page's own origin, with, when `refusePort` is given, an allowHost
 * that refuses every host on that port (the internal one) and logs what it is asked.
 */
const CHECK_JS = `import { fetchRobotsTxt, init } from 'robotstxt-wasm';
window.fetchOwnRobots = async (refusePort) => {
  await init();
  const asked = [];
  const allowHost = (url) => (asked.push(url.href), url.port !== String(refusePort));
  const options = { userAgent: 'ExampleBot/1.2', ...(refusePort === undefined ? {} : { allowHost }) };
  const { outcome, reason, status, finalUrl, redirects } = await fetchRobotsTxt(location.origin, options);
  return { result: { outcome, reason, status, finalUrl, redirects }, asked };
};
`;

/** A page that maps the package's name to dist/ and runs CHECK_JS. */
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>redirects</title>
<script type="importmap">${JSON.stringify({ imports: { 'robotstxt-wasm': '/dist/index.js' } })}</script>
<script type="module" src="/check.js"></script>
</head><body></body></html>
`;

/** What the page found: the fetch's result, and each URL its policy was asked about. */
interface Found {
  readonly result: { outcome: string; reason: string; status: number; finalUrl: string; redirects: number };
  readonly asked: string[];
}

/** A server that serves the package and a page that loads it, plus `routes`. */
async function siteServing(routes: Parameters<typeof startServer>[0]): Promise<TestServer> {
  const server = await startServer(routes);
  serveFiles(server, filesUnder('/dist/', DIST));
  server.route('/index.html', text(PAGE, 200, { 'content-type': 'text/html; charset=utf-8' }));
  server.route('/check.js', text(CHECK_JS, 200, { 'content-type': 'text/javascript; charset=utf-8' }));
  return server;
}

/** What CHECK_JS found in `page`. */
async function fetchInPage(page: Page, refusePort: number | undefined): Promise<Found> {
  await page.waitForFunction(() => 'fetchOwnRobots' in window);
  return page.evaluate((port) => (window as unknown as { fetchOwnRobots(port?: number): Promise<Found> }).fetchOwnRobots(port), refusePort);
}

describe.skipIf(!chromium.found)("fetchRobotsTxt in Chromium, whose fetch hides a redirect's target", () => {
  let browser: Browser;

  beforeAll(async () => {
    if (chromium.found) browser = await launchChromium(chromium.path);
  });

  afterAll(async () => {
    await browser?.close();
    await closeServers();
  });

  async function withPage<T>(origin: string, run: (page: Page) => Promise<T>): Promise<T> {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${origin}/index.html`);
      return await run(page);
    } finally {
      await context.close();
    }
  }

  it('with allowHost, a redirect to a refused host is not followed: redirect-refused, and that host gets no request', async () => {
    const internal = await startServer({ '/robots.txt': text('User-agent: *\nDisallow: /\n') });
    const site = await siteServing({ '/robots.txt': redirect(`${internal.origin}/robots.txt`) });
    const found = await withPage(site.origin, (page) => fetchInPage(page, internal.port));
    expect(internal.requests.map(({ method, path }) => `${method} ${path}`)).toEqual([]);
    expect(found.result).toEqual({
      outcome: 'allow-all',
      reason: 'redirect-refused',
      status: 0,
      finalUrl: `${site.origin}/robots.txt`,
      redirects: 0,
    });
    expect(found.asked).toEqual([`${site.origin}/robots.txt`]);
    expect(site.count('/robots.txt')).toBe(1);
  });

  it('without a policy, the browser follows the redirect, as before', async () => {
    const site = await siteServing({ '/robots.txt': redirect('/moved.txt'), '/moved.txt': text('User-agent: *\nDisallow: /private/\n') });
    const found = await withPage(site.origin, (page) => fetchInPage(page, undefined));
    expect(found.result).toEqual({ outcome: 'rules', reason: 'ok', status: 200, finalUrl: `${site.origin}/moved.txt`, redirects: 0 });
    expect(found.asked).toEqual([]);
    expect(site.count('/moved.txt')).toBe(1);
  });
});
