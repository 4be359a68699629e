/**
 * A Worker whose RobotsCache shares the files it fetches through the Cache API (cacheApiStore), run as several
 * isolates by test/e2e/workers/workers.test.ts, and which reaches the store itself for the store's own tests. The package's
 * entries are imported by their paths in dist/, as the `workerd` export condition picks them.
 */
import { cacheApiStore } from '../../../dist/cache-api.js';
import { RobotsCache } from '../../../dist/worker.js';

/** Module scope: this isolate's cache, made by its first /check. */
let robots;

/** caches.default, or the cache named by `cacheName`. */
function storeFor(params) {
  const cacheName = params.get('cacheName');
  return cacheApiStore(cacheName === null ? {} : { cacheName });
}

async function check(params) {
  // A deadline for the store calls that a loaded test machine keeps.
  robots ??= new RobotsCache({ userAgent: 'ExampleBot/1.0', store: storeFor(params), storeTimeoutMs: 5_000 });
  const { allowed, line, source } = await robots.explain(params.get('target'));
  return Response.json({ allowed, line, from: source.from, store: robots.stats().store });
}

export default {
  async fetch(request) {
    const url = new URL(request.url);
    const params = url.searchParams;
    if (url.pathname === '/check') return check(params);
    const store = storeFor(params);
    if (url.pathname === '/store/set') {
      await store.set(params.get('key'), params.get('value'), Number(params.get('ttl')));
      return Response.json({ stored: true });
    }
    if (url.pathname === '/store/get') return Response.json({ value: (await store.get(params.get('key'))) ?? null });
    return new Response('not found', { status: 404 });
  },
};
