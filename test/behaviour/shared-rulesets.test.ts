/**
 * Rules compiled to the same bytes share one block of WebAssembly memory (src/engine/residency.ts): held
 * once, counted once by matcherInfo(), freed with the last rules that use it, and each user answering as if
 * it were alone, through the single check's fast path and every other entry.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defaultMatcher, matcherInfo, parseRobotsTxt, setMatcher, type AgentRules } from '../support/library.js';

afterEach(() => {
  setMatcher(defaultMatcher);
});

/** Rules of their own for this file: other tests' live rules must not share these blocks. */
const RULES = ['Disallow: /shared-block/', 'Allow: /shared-block/open', 'Disallow: /*.pdf$', 'Disallow: /cart'].join('\n');

const URLS = ['/shared-block/x', '/shared-block/open', '/a.pdf', '/a.pdf?x', '/cart/1', '/'];

/** What every entry answers, and the deciding lines (in the file the rules come from). */
function answers(rules: AgentRules): unknown[] {
  return [
    ...URLS.map((url) => rules.isAllowed(url)),
    ...URLS.map((url) => rules.isAllowed(new URL(url, 'https://example.com'))),
    rules.isAllowedMany(URLS),
    ...URLS.map((url) => rules.explain(url).line),
  ];
}

describe('rules compiled to the same bytes', () => {
  it('share one block: memory grows once, and each answers as if alone', () => {
    setMatcher('wasm');
    const before = matcherInfo().wasmBytesInUse;
    const first = parseRobotsTxt(`User-agent: *\n${RULES}\n`).forAgent('ExampleBot', { indexed: true });
    const one = matcherInfo().wasmBytesInUse - before;
    expect(one).toBeGreaterThanOrEqual(first.byteLength);
    // Another host's file: another group for another agent, a sitemap, comments; the same rules for this agent.
    const second = parseRobotsTxt(
      `# another host\nUser-agent: OtherBot\nDisallow: /\n\nUser-agent: *\n${RULES}\nSitemap: https://b.example/s.xml\n`,
    ).forAgent('ExampleBot', { indexed: true });
    // Another agent of the same file, reading the same group.
    const third = parseRobotsTxt(`User-agent: *\n${RULES}\n`).forAgent('ThirdBot', { indexed: true });
    expect(matcherInfo().wasmBytesInUse - before).toBe(one);
    expect(second.byteLength).toBe(first.byteLength);
    const expected = answers(first);
    expect(expected.slice(-6)).toEqual([2, 3, 4, 0, 5, 0]);
    // The second file's rules stand 4 lines further down: each explains with its own file's lines.
    const expectedSecond = [...expected.slice(0, -6), 6, 7, 8, 0, 9, 0];
    expect(answers(second)).toEqual(expectedSecond);
    expect(answers(third)).toEqual(expected);

    // Freed with the last: until then, the others answer as before, on every entry.
    first.dispose();
    expect(matcherInfo().wasmBytesInUse - before).toBe(one);
    expect(answers(second)).toEqual(expectedSecond);
    second.dispose();
    expect(answers(third)).toEqual(expected);
    third.dispose();
    expect(matcherInfo().wasmBytesInUse).toBe(before);
  });

  it('do not share with rules that differ in a byte: another rule, another reading, another tier', () => {
    setMatcher('wasm');
    const before = matcherInfo().wasmBytesInUse;
    const base = parseRobotsTxt(`User-agent: *\n${RULES}\n`).forAgent('ExampleBot', { indexed: true });
    const one = matcherInfo().wasmBytesInUse - before;
    const others = [
      parseRobotsTxt(`User-agent: *\n${RULES}\nDisallow: /carts\n`).forAgent('ExampleBot', { indexed: true }),
      parseRobotsTxt(`User-agent: *\n${RULES}\n`, { profile: 'google' }).forAgent('ExampleBot', { indexed: true }),
    ];
    expect(matcherInfo().wasmBytesInUse - before).toBeGreaterThan(2 * one);
    expect(others[0]!.isAllowed('/carts')).toBe(false);
    expect(base.isAllowed('/carts')).toBe(false);
    expect(base.explain('/carts').line).toBe(5);
    expect(others[0]!.explain('/carts').line).toBe(6);
    // A scan tier beside the indexed one: another block; its switch to the indexed tier then shares.
    const scan = parseRobotsTxt(`User-agent: *\n${RULES}\n`).forAgent('ExampleBot');
    scan.explain('/');
    expect(scan.tier).toBe('scan');
    const withScan = matcherInfo().wasmBytesInUse;
    for (let i = 0; scan.tier === 'scan'; i++) scan.isAllowed(`/page-${i}`);
    expect(matcherInfo().wasmBytesInUse).toBeLessThan(withScan);
    expect(answers(scan)).toEqual(answers(base));
    for (const rules of [base, ...others, scan]) rules.dispose();
    expect(matcherInfo().wasmBytesInUse).toBe(before);
  });

  it('answer alike on the TypeScript matcher, which holds each its own', () => {
    setMatcher('typescript');
    const first = parseRobotsTxt(`User-agent: *\n${RULES}\n`).forAgent('ExampleBot', { indexed: true });
    const second = parseRobotsTxt(`User-agent: *\n${RULES}\n`).forAgent('ExampleBot', { indexed: true });
    first.dispose();
    const verdicts = [false, true, false, true, false, true];
    expect(answers(second)).toEqual([...verdicts, ...verdicts, verdicts, 2, 3, 4, 0, 5, 0]);
  });
});
