/**
 * The public surface: file-wide directives, compiled rules, batches and
 * disposal.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  defaultMatcher,
  init,
  matcherInfo,
  parseRobotsTxt,
  RobotsCache,
  RobotsCacheDisposedError,
  RulesDisposedError,
  setMatcher,
  type AgentRules,
  type RobotsTxt,
} from '../support/library.js';

const SITE = [
  'User-agent: *',
  'Disallow: /private/',
  'Allow: /private/open',
  'Crawl-delay: 1.5',
  '',
  'User-agent: ExampleBot',
  'Disallow: /search',
  '',
  'Sitemap: https://example.com/sitemap.xml',
  'Sitemap: https://example.com/sitemap.xml',
  'Sitemap: /relative.xml',
  'Host: https://Example.com',
  'Host: mirror.example.com',
  'Clean-param: ref&utm_source /books/',
].join('\n');

// A test that chooses a matcher leaves the next one the suites' default.
afterEach(() => {
  setMatcher(defaultMatcher);
});

describe('file-wide directives', () => {
  // spec: Google's robots.txt spec (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt), "sitemap"; Yandex's robots.txt docs (https://yandex.com/support/webmaster/controlling-robot/robots-txt.html), "Host", "Clean-param"
  const robots = parseRobotsTxt(SITE);

  it('lists every absolute sitemap URL once, wherever it stands', () => {
    expect(robots.sitemaps).toEqual(['https://example.com/sitemap.xml']);
    expect(robots.diagnostics).toContainEqual(expect.objectContaining({ line: 11, code: 'invalid-value' }));
  });

  it('keeps the first valid host', () => {
    expect(robots.host).toBe('https://example.com');
    expect(robots.diagnostics).toContainEqual(expect.objectContaining({ line: 13, code: 'duplicate-host' }));
  });

  it('cleans URLs with Clean-param where the prefix matches', () => {
    expect(robots.cleanParams).toEqual([{ params: ['ref', 'utm_source'], pathPrefix: '/books/', line: 14 }]);
    expect(robots.cleanUrl('https://example.com/books/1?ref=home&page=2&utm_source=x')).toBe('https://example.com/books/1?page=2');
    expect(robots.cleanUrl('https://example.com/music/1?ref=home')).toBe('https://example.com/music/1?ref=home');
  });

  it('exposes the parsed groups', () => {
    expect(robots.groups.map((group) => group.agents.map((agent) => agent.value))).toEqual([['*'], ['ExampleBot']]);
    expect(robots.groups[0]?.rules.map((rule) => rule.line)).toEqual([2, 3]);
  });
});

describe('compiled rules', () => {
  const robots = parseRobotsTxt(SITE);

  it('compiles once per agent and returns the same rules again', () => {
    expect(robots.forAgent('OtherBot')).toBe(robots.forAgent('otherbot/2.0'));
    expect(robots.forAgent('ExampleBot')).not.toBe(robots.forAgent('OtherBot'));
  });

  it('compiles once for every agent no group names: a server asked for any name compiles at most once per name in the file, plus once', () => {
    // WebAssembly memory counts the compilations: only the WebAssembly matcher's rulesets live there.
    setMatcher('wasm');
    const fresh = parseRobotsTxt(SITE);
    const before = matcherInfo().wasmBytesInUse;
    // Compiled into WebAssembly memory at once (by default the first verdict is read with nothing compiled).
    const shared = fresh.forAgent('OtherBot', { indexed: true });
    const grown = matcherInfo().wasmBytesInUse;
    for (let i = 0; i < 2_000; i++)
      expect(fresh.forAgent(`Random${String.fromCharCode(97 + (i % 26))}${'x'.repeat(i % 50)}Bot`)).toBe(shared);
    expect(matcherInfo().wasmBytesInUse).toBe(grown);
    expect(grown).toBeGreaterThan(before);
    expect(fresh.forAgent('examplebot')).not.toBe(shared);
    expect(fresh.forAgent('examplebot').matched).toBe('agent');
    fresh.dispose();
    expect(matcherInfo().wasmBytesInUse).toBe(before);
  });

  it('lists its rules in the order they are tried', () => {
    expect(robots.forAgent('OtherBot').rules).toEqual([
      { kind: 'allow', pattern: '/private/open', line: 3 },
      { kind: 'disallow', pattern: '/private/', line: 2 },
    ]);
  });

  it('answers isAllowed, explain and crawlDelay for the applicable group', () => {
    const other = robots.forAgent('OtherBot');
    expect(other.matched).toBe('global');
    expect(other.isAllowed('https://example.com/private/x')).toBe(false);
    expect(other.isAllowed('https://example.com/private/open/x')).toBe(true);
    expect(other.crawlDelay).toBe(1.5);
    const own = robots.forAgent('ExampleBot');
    expect(own.matched).toBe('agent');
    expect(own.isAllowed('https://example.com/private/x')).toBe(true);
    expect(own.explain('/search?q=1')).toEqual({ allowed: false, line: 7, rule: { kind: 'disallow', pattern: '/search' } });
    expect(own.crawlDelay).toBeUndefined();
  });

  it('answers a batch like single calls, through the wasm and the TypeScript matcher alike', () => {
    const urls = ['/private/a', '/private/open', '/', 'https://example.com/private/é', '/search', 'x'];
    for (const matcher of ['wasm', 'typescript'] as const) {
      expect(setMatcher(matcher)).toBe(matcher);
      const rules = parseRobotsTxt(SITE).forAgent('OtherBot');
      expect(rules.isAllowedMany(urls)).toEqual(urls.map((url) => rules.isAllowed(url)));
      const out = rules.isAllowedManyInto(urls, new Uint8Array(10).fill(7));
      expect(Array.from(out)).toEqual([0, 1, 1, 0, 1, 1, 7, 7, 7, 7]);
    }
    setMatcher(defaultMatcher);
  });

  it('rejects an output array that is too short', () => {
    expect(() => parseRobotsTxt(SITE).forAgent('OtherBot').isAllowedManyInto(['/a', '/b'], new Uint8Array(1))).toThrow(RangeError);
  });
});

describe('disposal', () => {
  it('throws a RulesDisposedError after dispose, and compiles anew on the next forAgent', () => {
    const robots = parseRobotsTxt(SITE);
    const rules = robots.forAgent('OtherBot');
    rules.dispose();
    rules.dispose();
    expect(rules.disposed).toBe(true);
    expect(() => rules.isAllowed('/')).toThrow(RulesDisposedError);
    const again = robots.forAgent('OtherBot');
    expect(again).not.toBe(rules);
    expect(again.isAllowed('/private/x')).toBe(false);
  });

  it('disposes every compiled agent with the file', () => {
    const robots = parseRobotsTxt(SITE);
    const a = robots.forAgent('OtherBot');
    const b = robots.forAgent('ExampleBot');
    robots.dispose();
    expect(a.disposed && b.disposed).toBe(true);
  });
});

describe('the body given', () => {
  // Parts of the file are read when first needed: what is read must be what was given, not what the
  // caller's buffer holds by then. A Node Buffer's slice() is a view, not a copy.
  it.each([
    ['a Uint8Array', (text: string): Uint8Array => new TextEncoder().encode(text)],
    ['a Node Buffer', (text: string): Uint8Array => Buffer.from(text)],
    ['a view into a larger buffer', (text: string): Uint8Array => Buffer.from(`#${text}#`).subarray(1, text.length + 1)],
  ])('is copied when it is %s: changing it afterwards changes nothing', (_kind, bytesOf) => {
    const given = bytesOf('User-agent: *\nDisallow: /private/\nSitemap: https://example.com/s.xml\n');
    const robots = parseRobotsTxt(given);
    given.fill(0x23);
    expect(robots.forAgent('ExampleBot').isAllowed('/private/x')).toBe(false);
    expect(robots.sitemaps).toEqual(['https://example.com/s.xml']);
  });
});

describe('memory', () => {
  // docs/design.md#memory: a ruleset that is dropped gives its memory back.
  it('gives WebAssembly memory back when rules are disposed', () => {
    setMatcher('wasm');
    const robots = parseRobotsTxt(SITE);
    robots.forAgent('WarmUp').dispose();
    const before = matcherInfo().wasmBytesInUse;
    // Each with a rule of its own: rules compiled to the same bytes share one block.
    const compiled = Array.from({ length: 500 }, (_, i) =>
      parseRobotsTxt(`User-agent: *\nDisallow: /private/\nDisallow: /${i}\n`).forAgent('OtherBot', { indexed: true }),
    );
    expect(matcherInfo().wasmBytesInUse).toBeGreaterThan(before);
    for (const rules of compiled) rules.dispose();
    expect(matcherInfo().wasmBytesInUse).toBe(before);
  });
});

describe('init', () => {
  // The default matcher: WebAssembly, unless this run of the suites makes it the TypeScript one.
  it('resolves to the WebAssembly matcher, and compiling afterwards uses it', async () => {
    expect(await init()).toBe(defaultMatcher);
    expect(matcherInfo().kind).toBe(defaultMatcher);
    expect(parseRobotsTxt(SITE).isAllowed('/private/x', 'OtherBot')).toBe(false);
  });
});

describe('using', () => {
  it('frees compiled rules, parsed files and caches at the end of the block (Symbol.dispose)', () => {
    // WebAssembly memory shows the rules freed: only the WebAssembly matcher's rulesets live there.
    setMatcher('wasm');
    const before = matcherInfo().wasmBytesInUse;
    let kept: { rules: AgentRules; robots: RobotsTxt; cache: RobotsCache } | undefined;
    {
      using robots = parseRobotsTxt('User-agent: *\nDisallow: /private/\n');
      using rules = robots.forAgent('ExampleBot');
      using cache = new RobotsCache({ userAgent: 'ExampleBot/1.2' });
      expect(rules.explain('/private/x').allowed).toBe(false);
      expect(matcherInfo().wasmBytesInUse).toBeGreaterThan(before);
      kept = { rules, robots, cache };
    }
    expect(kept.rules.disposed).toBe(true);
    expect(matcherInfo().wasmBytesInUse).toBe(before);
    return expect(kept.cache.isAllowed('https://example.com/')).rejects.toBeInstanceOf(RobotsCacheDisposedError);
  });
});
