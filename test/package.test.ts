/**
 * The built package as users load it (issue #2, "The package"): ESM and CommonJS from dist/, with the
 * WebAssembly matcher inlined. `npm test` builds dist/ first.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

/** The part of the entry these tests use, stated here so that type-checking needs no build. */
interface Entry {
  parseRobotsTxt(body: string): { isAllowed(url: string, agent: string): boolean };
  matcherInfo(): { kind: string };
}

const ROBOTS = 'User-agent: *\nDisallow: /private/\nAllow: /private/open\n';

function checkEntry(entry: Entry): void {
  const robots = entry.parseRobotsTxt(ROBOTS);
  expect(robots.isAllowed('https://example.com/private/x', 'ExampleBot')).toBe(false);
  expect(robots.isAllowed('https://example.com/private/open', 'ExampleBot')).toBe(true);
  expect(entry.matcherInfo().kind).toBe('wasm');
}

describe('the built package', () => {
  it('loads as an ES module with the wasm matcher', async () => {
    const entry = (await import(new URL('../dist/index.js', import.meta.url).href)) as Entry;
    checkEntry(entry);
  });

  it('loads as CommonJS with the wasm matcher', () => {
    const require = createRequire(import.meta.url);
    checkEntry(require('../dist/index.cjs') as Entry);
  });

  it('resolves through the exports map', async () => {
    const entry = (await import('robotstxt-wasm')) as Entry;
    checkEntry(entry);
  });
});
