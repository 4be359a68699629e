/**
 * A consumer that uses the platform's own URL, fetch and AbortSignal with the published declarations: it
 * must compile with DOM libs, with @types/node, and with esnext libs, without clashes.
 * Compiled by test/package/package.test.ts against dist/; not run.
 */
import { fetchRobotsTxt, parseRobotsTxt, RobotsCache } from 'robotstxt-wasm';

const robots = parseRobotsTxt('User-agent: *\nDisallow: /private/\n');
const fromUrl: boolean = robots.isAllowed(new URL('https://example.com/private/x'), 'ExampleBot');
const explained = robots.forAgent('ExampleBot').explain(new URL('https://example.com/private/x'));

const cache = new RobotsCache({
  userAgent: 'ExampleBot/1.2',
  fetch: globalThis.fetch,
  allowRedirect: (url) => url.hostname !== 'localhost',
});
const wrapped = new RobotsCache({ userAgent: 'ExampleBot/1.2', fetch: (url, init) => fetch(url, init) });

async function use(): Promise<void> {
  const ok: boolean = await cache.isAllowed(new URL('https://example.com/'), { signal: AbortSignal.timeout(1_000) });
  const result = await fetchRobotsTxt(new URL('https://example.com/'), { userAgent: 'ExampleBot/1.2', fetch });
  void [ok, result.outcome];
}

void [fromUrl, explained, wrapped, use];
