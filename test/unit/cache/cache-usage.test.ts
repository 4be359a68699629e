/**
 * RobotsCache.usage(): usage preferences from the cached robots.txt, against real HTTP servers on 127.0.0.1 —
 * the same answer AgentRules.usage() gives for the file, the fetch outcomes read as RFC 9309 §2.3.1 reads them
 * (4xx: everything allowed, nothing stated; 5xx: nothing allowed), and a fleet's shared record read by a process
 * that never fetched it (test/support/memory-store.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseRobotsTxt, RobotsCache, type RobotsCacheOptions } from '../../../src/platform/inline.js';
import { closeServers, startServer, status, text } from '../../support/http-server.js';
import { MemoryStore } from '../../support/memory-store.js';

const UA = 'ExampleBot/1.2 (+https://example.com/bot)';
const BODY = [
  'User-agent: *',
  'Disallow: /private/',
  'Content-Usage: train-ai=n',
  'Content-Usage: /open/ train-ai=y',
  'Content-Signal: search=yes, ai-input=no',
  '',
  'User-agent: ExampleBot',
  'Allow: /',
  'Content-Usage: search=n',
  '',
  'License: https://example.com/license.xml',
].join('\n');

const caches: RobotsCache[] = [];

function cacheWith(options: Partial<RobotsCacheOptions> = {}): RobotsCache {
  const cache = new RobotsCache({ userAgent: UA, ...options });
  caches.push(cache);
  return cache;
}

afterEach(async () => {
  for (const cache of caches.splice(0)) cache.dispose();
  await closeServers();
});

describe('RobotsCache.usage()', () => {
  it('answers from the cached file what the file’s rules answer, for the cache’s agent', async () => {
    const site = await startServer({ '/robots.txt': text(BODY) });
    const cache = cacheWith({ agent: 'OtherBot' });
    const rules = parseRobotsTxt(BODY).forAgent('OtherBot');
    for (const path of ['/', '/open/a', '/private/x', '/open/private/y']) {
      expect(await cache.usage(`${site.origin}${path}`)).toEqual(rules.usage(path));
    }
    expect(await cache.usage(`${site.origin}/page`)).toMatchObject({ 'train-ai': 'disallow', search: 'allow', 'ai-input': 'disallow' });
    expect(await cache.usage(new URL(`${site.origin}/private/x`))).toBeNull();
    expect(site.count('/robots.txt')).toBe(1);
  });

  it('reads the agent from the User-Agent’s product token, as isAllowed() does', async () => {
    const site = await startServer({ '/robots.txt': text(BODY) });
    const cache = cacheWith();
    expect(await cache.usage(`${site.origin}/private/x`)).toMatchObject({
      'train-ai': 'unknown',
      search: 'disallow',
      'ai-input': 'unknown',
    });
  });

  it('charges its budget for the compiled usage lines from the first fetch, before any usage()', async () => {
    const site = await startServer({ '/robots.txt': text(BODY) });
    const withUsage = cacheWith({ agent: 'OtherBot' });
    await withUsage.isAllowed(`${site.origin}/`);
    const held = withUsage.stats().bytesHeld;
    await withUsage.usage(`${site.origin}/open/a`);
    expect(withUsage.stats().bytesHeld).toBe(held);
    // A body of the same length whose usage keys nobody reads: the usage rulesets are the difference.
    const plainBody = BODY.replace(/^Content-Usage/gm, 'Content-Usagx').replace(/^Content-Signal/gm, 'Content-Signax');
    expect(plainBody.length).toBe(BODY.length);
    const plainSite = await startServer({ '/robots.txt': text(plainBody) });
    const plain = cacheWith({ agent: 'OtherBot' });
    await plain.isAllowed(`${plainSite.origin}/`);
    expect(held).toBeGreaterThan(plain.stats().bytesHeld);
  });

  it('answers the same object for URLs the same lines decide', async () => {
    const site = await startServer({ '/robots.txt': text(BODY) });
    const cache = cacheWith({ agent: 'OtherBot' });
    expect(await cache.usage(`${site.origin}/a`)).toBe(await cache.usage(`${site.origin}/b?c`));
  });

  it('a 4xx allows everything and states nothing: every purpose unknown', async () => {
    const site = await startServer({ '/robots.txt': status(404) });
    expect(await cacheWith().usage(`${site.origin}/any`)).toEqual({
      'train-ai': 'unknown',
      search: 'unknown',
      'ai-input': 'unknown',
      statements: [],
    });
  });

  it('a 5xx allows nothing: null', async () => {
    const site = await startServer({ '/robots.txt': status(503) });
    expect(await cacheWith().usage(`${site.origin}/any`)).toBeNull();
  });

  it('a process of a fleet answers from the record another stored, without fetching', async () => {
    const site = await startServer({ '/robots.txt': text(BODY) });
    const store = new MemoryStore();
    const first = cacheWith({ agent: 'OtherBot', store });
    await first.isAllowed(`${site.origin}/`);
    const second = cacheWith({ agent: 'OtherBot', store });
    expect(await second.usage(`${site.origin}/open/a`)).toMatchObject({ 'train-ai': 'allow', search: 'allow' });
    expect(site.count('/robots.txt')).toBe(1);
  });
});
