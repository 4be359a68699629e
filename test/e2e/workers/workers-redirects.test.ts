/**
 * Redirects inside the real Cloudflare Workers runtime (workerd, through miniflare, offline): a Worker's fetch
 * answers `redirect: 'manual'` with the redirect itself and its Location, so fetchRobotsTxt asks its host policy
 * about every hop before requesting it, as under Node. Every request the Worker sends goes through a recorder
 * that passes those for the site on 127.0.0.1 and refuses (and logs) any other: nothing leaves the loopback.
 */
import { fileURLToPath } from 'node:url';
import { Miniflare, fetch as miniflareFetch, Response as MiniflareResponse, type Request as MiniflareRequest } from 'miniflare';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closeServers, redirect, startServer } from '../../support/http-server.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const running: Miniflare[] = [];

afterEach(closeServers);
afterAll(async () => {
  await Promise.all(running.map((miniflare) => miniflare.dispose()));
});

/** test/e2e/workers/redirects.js in workerd; each request it sends is logged in `sent`, and only `origin`'s are sent. */
async function redirectsWorker(origin: string, sent: string[]): Promise<Miniflare> {
  const miniflare = new Miniflare({
    modules: true,
    scriptPath: 'test/e2e/workers/redirects.js',
    modulesRoot: ROOT,
    modulesRules: [
      { type: 'CompiledWasm', include: ['**/*.wasm'] },
      { type: 'ESModule', include: ['**/*.js'] },
    ],
    compatibilityDate: '2025-06-01',
    outboundService: async (request: MiniflareRequest) => {
      sent.push(request.url);
      if (new URL(request.url).origin !== origin) return new MiniflareResponse('refused by the test: not the site', { status: 599 });
      return miniflareFetch(request.url, { method: request.method, headers: request.headers, redirect: 'manual' });
    },
  });
  running.push(miniflare);
  await miniflare.ready;
  return miniflare;
}

describe('fetchRobotsTxt inside workerd', () => {
  it.each(['http://kubernetes.default.svc/robots.txt', 'http://localhost.localdomain/robots.txt', 'http://metadata.google.internal../'])(
    'a redirect to %s is asked about before it is requested, and refused: it is never sent',
    async (location) => {
      const site = await startServer({ '/robots.txt': redirect(location) });
      const sent: string[] = [];
      const worker = await redirectsWorker(site.origin, sent);
      const response = await worker.dispatchFetch(`http://worker.test/?site=${encodeURIComponent(site.origin)}`);
      expect(await response.json()).toEqual({
        result: { outcome: 'allow-all', reason: 'redirect-refused', status: 301, finalUrl: `${site.origin}/robots.txt`, redirects: 0 },
        asked: [`${site.origin}/robots.txt`, new URL(location).href],
      });
      expect(sent).toEqual([`${site.origin}/robots.txt`]);
    },
  );
});
