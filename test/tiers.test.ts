/**
 * The tiers of a compiled ruleset (src/api/agent-rules.ts; src/compile/bytecode.ts, "The scan tier"): small
 * rulesets answer their first SCAN_CHECKS checks by a scan of their rules, then switch to the indexed tier
 * inside the same AgentRules. Every tier gives the same verdict and the same deciding line, before, across
 * and after the switch, and memory is accounted exactly on both sides of it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { SCAN_CHECKS, SCAN_MAX_RULES } from '../src/api/agent-rules.js';
import { matcherInfo, parseRobotsTxt, setMatcher, type AgentRules } from '../src/platform/inline.js';
import { describeCorpus, loadCorpus } from './support/corpus.js';

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

describe('the scan tier and the switch to the indexed tier', () => {
  it(`starts rulesets of up to SCAN_MAX_RULES (${SCAN_MAX_RULES}) rules in the scan tier, larger ones indexed`, () => {
    expect(parseRobotsTxt(fileOf(SCAN_MAX_RULES)).forAgent('ExampleBot').tier).toBe('scan');
    expect(parseRobotsTxt(fileOf(SCAN_MAX_RULES + 1)).forAgent('ExampleBot').tier).toBe('indexed');
  });

  it(`answers SCAN_CHECKS (${SCAN_CHECKS}) checks by the scan, and indexes the same object on the next`, () => {
    const rules = parseRobotsTxt(fileOf(10)).forAgent('ExampleBot');
    for (let i = 0; i < SCAN_CHECKS; i++) expect(rules.isAllowed(`/d${i % 10}/x`)).toBe((i % 10) % 3 === 0);
    expect(rules.tier).toBe('scan');
    expect(rules.isAllowed('/d1/x')).toBe(false);
    expect(rules.tier).toBe('indexed');
    // A batch counts each of its URLs.
    const batched = parseRobotsTxt(fileOf(10)).forAgent('ExampleBot');
    batched.isAllowedMany(Array.from({ length: SCAN_CHECKS }, () => '/d0/'));
    expect(batched.tier).toBe('scan');
    batched.isAllowedMany(['/d0/']);
    expect(batched.tier).toBe('indexed');
  });

  it('is indexed up front with { indexed: true }, also when the agent was compiled before (the same object)', () => {
    const robots = parseRobotsTxt(fileOf(3));
    expect(robots.forAgent('ExampleBot', { indexed: true }).tier).toBe('indexed');
    const other = parseRobotsTxt(fileOf(3));
    const scanned = other.forAgent('ExampleBot');
    expect(scanned.tier).toBe('scan');
    expect(other.forAgent('AnotherBot', { indexed: true })).toBe(scanned);
    expect(scanned.tier).toBe('indexed');
  });

  it('gives the same verdicts and deciding lines in both tiers and across the switch, with both matchers', () => {
    const body = `User-agent: *\nDisallow: /a\nAllow: /a/b$\nDisallow: /*.pdf$\nAllow: /a/index.html\nDisallow: /%7Ex/\n`;
    const urls = ['/a', '/a/b', '/a/b/c', '/x.pdf', '/a/x.pdf', '/a/', '/~x/y', '/%7ex/y', '/b', 'https://e.com/a/b?q'];
    try {
      for (const matcher of ['wasm', 'typescript'] as const) {
        setMatcher(matcher);
        const indexed = answers(parseRobotsTxt(body).forAgent('ExampleBot', { indexed: true }), urls);
        const rules = parseRobotsTxt(body).forAgent('ExampleBot');
        const asked = [...urls, ...urls, ...urls];
        expect(asked.length).toBeGreaterThan(SCAN_CHECKS);
        expect(answers(rules, asked)).toEqual([...indexed, ...indexed, ...indexed]);
        expect(rules.tier).toBe('indexed');
      }
    } finally {
      setMatcher('wasm');
    }
  });

  it('accounts memory exactly across the switch, and gives it all back on dispose()', () => {
    const before = matcherInfo().wasmBytesInUse;
    const rules = parseRobotsTxt(fileOf(SCAN_MAX_RULES)).forAgent('ExampleBot');
    const scanBytes = rules.byteLength;
    const heldBeside = rules.bytesHeld - scanBytes;
    expect(heldBeside).toBeGreaterThan(0);
    const scanInUse = matcherInfo().wasmBytesInUse - before;
    for (let i = 0; i <= SCAN_CHECKS; i++) rules.isAllowed('/d1/');
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

  // spec: 003_14cd348ff9b99c23.txt, "URL matching based on path values"
  it('gives the same verdict and deciding line scanned, across the switch, indexed, and in the TypeScript executor', () => {
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
      setMatcher('typescript');
      const reference = answers(parseRobotsTxt(body).forAgent('Googlebot'), urls);
      if (asked.join() !== [...expected, ...expected].join() || reference.join() !== expected.join()) {
        problems.push(`${name}: indexed ${expected.join()}, tiered ${asked.join()}, typescript ${reference.join()}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
