/**
 * The tiers of an agent's rules (src/api/agent-rules.ts): the first verdict is read from the rules as written,
 * with nothing compiled (src/engine/record-matcher.ts); the next checks of a small ruleset are answered by a
 * scan of its compiled rules (src/compile/bytecode.ts, "The scan tier"); after SCAN_TIER_CHECKS of them, or at once
 * for a larger ruleset, it is indexed, inside the same AgentRules. Every tier gives the same verdict (and the
 * compiled ones the same deciding line), before, across and after each switch, and memory is accounted
 * exactly on both sides of them.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { RECORD_CHECKS, SCAN_TIER_CHECKS, SCAN_MAX_RULES } from '../../src/api/agent-rules.js';
import { SCAN_WORK_LIMIT } from '../../src/parse/rule-records.js';
import { matcherInfo, parseRobotsTxt, setMatcher, type AgentRules } from '../../src/platform/inline.js';
import { describeCorpus, loadCorpus } from '../support/corpus.js';

function fileOf(rules: number): string {
  return `User-agent: *\n${Array.from({ length: rules }, (_, i) => `${i % 3 === 0 ? 'Allow' : 'Disallow'}: /d${i}/`).join('\n')}\n`;
}

/** The answers a caller can see for `urls`: verdict and deciding line. */
function answers(rules: AgentRules, urls: readonly string[]): string[] {
  return urls.map((url) => {
    const { allowed, line } = rules.explain(url);
    return `${String(allowed)}@${line}`;
  });
}

/** Rules asked their RECORD_CHECKS uncompiled verdicts, so that the next check compiles them. */
function pastRecords(rules: AgentRules): AgentRules {
  for (let i = 0; i < RECORD_CHECKS; i++) rules.isAllowed('/d0/');
  return rules;
}

describe('the uncompiled tier', () => {
  it(`answers the first ${RECORD_CHECKS} isAllowed() verdict(s) with nothing compiled, and compiles on the next check`, () => {
    const before = matcherInfo().wasmBytesInUse;
    const rules = parseRobotsTxt(fileOf(10)).forAgent('ExampleBot');
    expect(rules.tier).toBe('uncompiled');
    expect(rules.byteLength).toBe(0);
    for (let i = 0; i < RECORD_CHECKS; i++) expect(rules.isAllowed(`/d${i % 10}/x`)).toBe((i % 10) % 3 === 0);
    expect(rules.tier).toBe('uncompiled');
    expect(matcherInfo().wasmBytesInUse).toBe(before);
    expect(rules.isAllowed(new URL('https://example.com/d1/x'))).toBe(false);
    expect(rules.tier).toBe('scan');
    expect(rules.byteLength).toBeGreaterThan(0);
    rules.dispose();
    expect(matcherInfo().wasmBytesInUse).toBe(before);
    expect(() => rules.isAllowed('/d0/')).toThrow('disposed');
  });

  it('compiles for anything but isAllowed(): explain(), batches, rules, byte entries', () => {
    const asks: ((rules: AgentRules) => unknown)[] = [
      (rules) => rules.explain('/d1/'),
      (rules) => rules.isAllowedMany(['/d1/']),
      (rules) => rules.isAllowedBytes(new TextEncoder().encode('/d1/'), Uint32Array.of(0, 4)),
    ];
    for (const ask of asks) {
      const rules = parseRobotsTxt(fileOf(3)).forAgent('ExampleBot');
      ask(rules);
      expect(rules.tier).toBe('scan');
    }
    // The table of `rules` is built from the records, which the compile still needs afterwards.
    const listed = parseRobotsTxt(fileOf(3)).forAgent('ExampleBot');
    expect(listed.rules).toHaveLength(3);
    expect(listed.tier).toBe('uncompiled');
    expect(listed.explain('/d1/x')).toEqual({ allowed: false, line: 3, rule: { kind: 'disallow', pattern: '/d1/' } });
  });

  it(`compiles for a verdict that could cost more than SCAN_WORK_LIMIT (${SCAN_WORK_LIMIT}) byte comparisons: pattern bytes, plus the URL's length times the wildcard patterns' bytes`, () => {
    const body = `User-agent: *\nDisallow: /a*b*c*d\nAllow: /a*b*c*x\nDisallow: /plain/\n`;
    const patternBytes = '/a*b*c*d'.length + '/a*b*c*x'.length + '/plain/'.length;
    const wildcardBytes = '/a*b*c*d'.length + '/a*b*c*x'.length;
    const longest = Math.floor((SCAN_WORK_LIMIT - patternBytes) / wildcardBytes);
    const url = (length: number): string => `/${'a'.repeat(length - 2)}d`;
    const within = parseRobotsTxt(body).forAgent('ExampleBot');
    expect(within.isAllowed(url(longest))).toBe(true);
    expect(within.tier).toBe('uncompiled');
    const beyond = parseRobotsTxt(body).forAgent('ExampleBot');
    expect(beyond.isAllowed(url(longest + 1))).toBe(true);
    expect(beyond.tier).toBe('scan');
    expect(
      parseRobotsTxt(body)
        .forAgent('ExampleBot')
        .isAllowed(`/a${'b'.repeat(longest)}cd`),
    ).toBe(false);
    // Plain patterns cost at most their own length, whatever the URL's.
    const plain = parseRobotsTxt('User-agent: *\nDisallow: /plain/\nAllow: /plain/open$\n').forAgent('ExampleBot');
    expect(plain.isAllowed(`/plain/${'x'.repeat(4 * SCAN_WORK_LIMIT)}`)).toBe(false);
    expect(plain.tier).toBe('uncompiled');
  });
});

describe('the scan tier and the switch to the indexed tier', () => {
  it(`compiles rulesets of up to SCAN_MAX_RULES (${SCAN_MAX_RULES}) rules to the scan tier, larger ones indexed`, () => {
    const small = parseRobotsTxt(fileOf(SCAN_MAX_RULES)).forAgent('ExampleBot');
    small.explain('/');
    expect(small.tier).toBe('scan');
    const large = parseRobotsTxt(fileOf(SCAN_MAX_RULES + 1)).forAgent('ExampleBot');
    large.explain('/');
    expect(large.tier).toBe('indexed');
  });

  it(`answers SCAN_TIER_CHECKS (${SCAN_TIER_CHECKS}) checks by the scan, and indexes the same object on the next`, () => {
    const rules = pastRecords(parseRobotsTxt(fileOf(10)).forAgent('ExampleBot'));
    for (let i = 0; i < SCAN_TIER_CHECKS; i++) expect(rules.isAllowed(`/d${i % 10}/x`)).toBe((i % 10) % 3 === 0);
    expect(rules.tier).toBe('scan');
    expect(rules.isAllowed('/d1/x')).toBe(false);
    expect(rules.tier).toBe('indexed');
    // A batch counts each of its URLs.
    const batched = parseRobotsTxt(fileOf(10)).forAgent('ExampleBot');
    batched.isAllowedMany(Array.from({ length: SCAN_TIER_CHECKS }, () => '/d0/'));
    expect(batched.tier).toBe('scan');
    batched.isAllowedMany(['/d0/']);
    expect(batched.tier).toBe('indexed');
  });

  it('is indexed up front with { indexed: true }, also when the agent was compiled before (the same object)', () => {
    const robots = parseRobotsTxt(fileOf(3));
    expect(robots.forAgent('ExampleBot', { indexed: true }).tier).toBe('indexed');
    const other = parseRobotsTxt(fileOf(3));
    const first = other.forAgent('ExampleBot');
    expect(first.tier).toBe('uncompiled');
    expect(other.forAgent('AnotherBot', { indexed: true })).toBe(first);
    expect(first.tier).toBe('indexed');
    const scanned = parseRobotsTxt(fileOf(3));
    scanned.forAgent('ExampleBot').explain('/');
    expect(scanned.forAgent('ExampleBot').tier).toBe('scan');
    expect(scanned.forAgent('ExampleBot', { indexed: true }).tier).toBe('indexed');
  });

  it('gives the same verdicts and deciding lines in every tier and across the switches, with both matchers', () => {
    const body = `User-agent: *\nDisallow: /a\nAllow: /a/b$\nDisallow: /*.pdf$\nAllow: /a/index.html\nDisallow: /%7Ex/\n`;
    const urls = ['/a', '/a/b', '/a/b/c', '/x.pdf', '/a/x.pdf', '/a/', '/~x/y', '/%7ex/y', '/b', 'https://e.com/a/b?q'];
    try {
      for (const matcher of ['wasm', 'typescript'] as const) {
        setMatcher(matcher);
        const indexed = parseRobotsTxt(body).forAgent('ExampleBot', { indexed: true });
        const expected = answers(indexed, urls);
        expect(urls.map((url) => parseRobotsTxt(body).forAgent('ExampleBot').isAllowed(url))).toEqual(
          expected.map((answer) => answer.startsWith('true')),
        );
        const rules = parseRobotsTxt(body).forAgent('ExampleBot');
        const asked = [...urls, ...urls, ...urls];
        expect(asked.length).toBeGreaterThan(SCAN_TIER_CHECKS);
        expect(answers(rules, asked)).toEqual([...expected, ...expected, ...expected]);
        expect(rules.tier).toBe('indexed');
      }
    } finally {
      setMatcher('wasm');
    }
  });

  it('accounts memory exactly across the switches, and gives it all back on dispose()', () => {
    const before = matcherInfo().wasmBytesInUse;
    // A file of its own: rules compiled to the same bytes as another test's would share their blocks.
    const rules = parseRobotsTxt(`${fileOf(SCAN_MAX_RULES - 1)}Disallow: /accounted/\n`).forAgent('ExampleBot');
    const recordBytes = rules.bytesHeld;
    expect(recordBytes).toBeGreaterThan(0);
    expect(matcherInfo().wasmBytesInUse).toBe(before);
    rules.explain('/d1/');
    expect(rules.tier).toBe('scan');
    const scanBytes = rules.byteLength;
    const heldBeside = rules.bytesHeld - scanBytes;
    expect(heldBeside).toBeGreaterThan(0);
    const scanInUse = matcherInfo().wasmBytesInUse - before;
    expect(scanInUse).toBeGreaterThanOrEqual(scanBytes);
    for (let i = 0; i < SCAN_TIER_CHECKS; i++) rules.isAllowed('/d1/');
    expect(rules.tier).toBe('indexed');
    // The index adds entries: the block grows, and so does what linear memory holds, by as much.
    expect(rules.byteLength).toBeGreaterThan(scanBytes);
    expect(matcherInfo().wasmBytesInUse - before - scanInUse).toBe(rules.byteLength - scanBytes);
    expect(rules.bytesHeld).toBe(rules.byteLength + heldBeside);
    rules.dispose();
    expect(matcherInfo().wasmBytesInUse).toBe(before);
  });
});

describeCorpus('the tiers over the corpus', () => {
  afterAll(() => setMatcher('wasm'));

  // spec: Google's robots.txt spec (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt), "URL matching based on path values"
  it('gives the same verdict uncompiled, and the same verdict and deciding line scanned, across the switch, indexed, and in the TypeScript executor', () => {
    const problems: string[] = [];
    for (const { name, body } of loadCorpus()) {
      setMatcher('wasm');
      const indexedRules = parseRobotsTxt(body).forAgent('Googlebot', { indexed: true });
      // Paths from the file's own rules, a wildcard read as a letter, each with something after it.
      const urls = ['/', '/index.html', '/search?q=1'];
      for (const rule of indexedRules.rules.slice(0, 12)) {
        const path = rule.pattern.replace(/\*/g, 'x').replace(/\$$/, '');
        urls.push(path, `${path}z/1`);
      }
      const expected = answers(indexedRules, urls);
      const tiered = parseRobotsTxt(body).forAgent('Googlebot');
      const asked = answers(tiered, [...urls, ...urls]);
      const uncompiled = urls.map((url) => `${String(parseRobotsTxt(body).forAgent('Googlebot').isAllowed(url))}`);
      // One ruleset asked in turn: its uncompiled verdicts after the first read the rules as prepared once.
      const inTurn = parseRobotsTxt(body).forAgent('Googlebot');
      const firstVerdicts = urls.slice(0, RECORD_CHECKS).map((url) => String(inTurn.isAllowed(url)));
      setMatcher('typescript');
      const reference = answers(parseRobotsTxt(body).forAgent('Googlebot'), urls);
      const verdicts = expected.map((answer) => answer.split('@')[0]);
      if (
        asked.join() !== [...expected, ...expected].join() ||
        reference.join() !== expected.join() ||
        uncompiled.join() !== verdicts.join() ||
        firstVerdicts.join() !== verdicts.slice(0, RECORD_CHECKS).join()
      ) {
        problems.push(
          `${name}: indexed ${expected.join()}, tiered ${asked.join()}, typescript ${reference.join()}, uncompiled ${uncompiled.join()}, in turn ${firstVerdicts.join()}`,
        );
      }
    }
    expect(problems).toEqual([]);
  });
});
