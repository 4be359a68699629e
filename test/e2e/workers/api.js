/**
 * A Worker that uses the library through its Workers entry (dist/worker.js, as the `workerd` export condition
 * picks it) and answers test/e2e/workers/workers.test.ts with what it saw, as JSON.
 */
import { matcherInfo, parseRobotsTxt, RobotsCache } from '../../../dist/worker.js';

const SITE = 'User-agent: *\nDisallow: /private/\nAllow: /private/open\n\nUser-agent: ExampleBot\nDisallow: /search\n';

/** Module scope: shared by every request this isolate serves, as a crawler's or a gate's cache would be. */
let cache;

function matcher() {
  const { kind, reason } = matcherInfo();
  return { kind, reason };
}

async function cached(params) {
  cache ??= new RobotsCache({ userAgent: 'ExampleBot/1.0', timeoutMs: Number(params.get('timeout') ?? 5_000) });
  const target = params.get('target');
  if (params.has('detach')) {
    // Starts the fetch and answers at once: the runtime cancels what this request left running.
    void cache.isAllowed(target).catch(() => undefined);
    return Response.json({ started: true });
  }
  const explanation = await cache.explain(target);
  const { allowed, line } = explanation;
  return Response.json({ allowed, line, from: explanation.source.from, matcher: matcher(), stats: cache.stats() });
}

export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === '/cache') return cached(url.searchParams);
    const robots = parseRobotsTxt(SITE);
    const other = robots.forAgent('OtherBot');
    const own = robots.forAgent('ExampleBot');
    const answer = {
      matcher: matcher(),
      finalizationRegistry: typeof FinalizationRegistry,
      allowed: [other.isAllowed('https://example.com/private/x'), other.isAllowed('/private/open/x'), own.isAllowed('/private/x')],
      explain: own.explain('/search?q=1'),
      batch: other.isAllowedMany(['/a', '/private/b', '/private/open', `/${'x'.repeat(100_000)}`]),
      urlObject: other.isAllowed(new URL('https://example.com/private/x?y=1')),
      bytesInUse: matcherInfo().wasmBytesInUse,
    };
    robots.dispose();
    return Response.json({ ...answer, bytesAfterDispose: matcherInfo().wasmBytesInUse });
  },
};
