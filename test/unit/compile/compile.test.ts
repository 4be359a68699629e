/**
 * Compiling one agent's rules (src/compile/rules.ts, byte-order.ts, scratch.ts): the compiler reads the
 * parser's packed records into typed arrays that it reuses from one compile to the next. These tests hold
 * it to a reference written the plain way (an object per rule, Array.prototype.sort), on random files, and
 * pin that reusing the arrays never mixes one compile into the next.
 *
 * spec: Google's robots.txt spec (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt), "Order of precedence for rules" (the most specific match wins: the
 * longest pattern, an allow on a tie) and docs/design.md#matching (percent-encoding, Google's index.html rule).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortSpans } from '../../../src/compile/byte-order.js';
import { writeBytecode, type BytecodeOptions } from '../../../src/compile/bytecode.js';
import { percentNormalize } from '../../../src/compile/normalize.js';
import { compileRules } from '../../../src/compile/rules.js';
import { parseRobotsBody } from '../../../src/parse/groups.js';
import { selectGroups } from '../../../src/parse/select.js';
import { profileNamed, type ProfileName } from '../../../src/profile.js';
import { parseRobotsTxt } from '../../../src/platform/inline.js';
import { patternList, patternsOf } from '../../support/pattern-list.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

interface ReferenceRule {
  readonly allow: boolean;
  readonly pattern: Uint8Array;
  readonly line: number;
  /** What explain() shows: the pattern as written, or `…/$` for a rule derived by the index.html rule. */
  readonly shown: string;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** The rules of `lines` (in line order) in priority order, as the compiler was first written: one object per rule. */
function referenceCompile(lines: readonly { line: number; allow: boolean; pattern: Uint8Array }[], profile: ProfileName): ReferenceRule[] {
  const rules: ReferenceRule[] = [];
  for (const { line, allow, pattern: written } of lines) {
    const pattern = percentNormalize(written, profile === 'rfc9309');
    if (pattern[0] !== 0x2f && pattern[0] !== 0x2a) continue;
    const text = decoder.decode(written);
    rules.push({ allow, pattern, line, shown: text });
    const slash = pattern.lastIndexOf(0x2f);
    if (allow && slash >= 0 && decoder.decode(pattern.subarray(slash)).startsWith('/index.htm')) {
      const directory = Uint8Array.of(...pattern.subarray(0, slash + 1), 0x24);
      rules.push({ allow, pattern: directory, line, shown: `${text.slice(0, text.lastIndexOf('/') + 1)}$` });
    }
  }
  rules.sort((a, b) => b.pattern.length - a.pattern.length || Number(b.allow) - Number(a.allow) || a.line - b.line);
  return rules.filter(
    (rule, i) => !rules.slice(0, i).some((earlier) => earlier.allow === rule.allow && sameBytes(earlier.pattern, rule.pattern)),
  );
}

const OPTIONS: BytecodeOptions = { normalizeUrl: true, robotsTxtAllowed: true, pathEndsAtNul: false };

// Pieces of patterns, biased toward what the compiler treats apart: escapes, octets ≥ 0x80, stars and `$`,
// index pages, and a few patterns of one length, so that long runs of equal length and repeats occur.
const PIECES = ['/', '/', 'a', 'b', '*', '$', '%41', '%2f', '%e9', 'é', 'ツ', 'index.html', 'index.htm', '/index.php', '?q=1'];
const SAME_LENGTH = ['/aaaa', '/aaab', '/abab', '/b*ba', '/a%41', '/aa$', '/%2f'];

const pattern: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.array(fc.constantFrom(...PIECES), { maxLength: 6 }).map((parts) => parts.join('')) },
  { weight: 6, arbitrary: fc.constantFrom(...SAME_LENGTH) },
  { weight: 1, arbitrary: fc.constantFrom('', 'a', 'x/y', '%2Fa') },
);

const ruleLine = fc.record({ allow: fc.boolean(), pattern });

/** A file of several groups, some of them ExampleBot's, their rules interleaved with other lines. */
const file = fc.array(
  fc.record({ agent: fc.constantFrom('*', 'ExampleBot', 'OtherBot'), rules: fc.array(ruleLine, { maxLength: 80, size: 'max' }) }),
  { minLength: 1, maxLength: 4 },
);

function bodyOf(groups: readonly { agent: string; rules: readonly { allow: boolean; pattern: string }[] }[]): string {
  return groups
    .map(({ agent, rules }) =>
      [`User-agent: ${agent}`, ...rules.map((rule) => `${rule.allow ? 'Allow' : 'Disallow'}: ${rule.pattern}`), '# a comment'].join('\n'),
    )
    .join('\n');
}

describe('the compiler against a reference written with an object per rule', () => {
  it.each(['rfc9309', 'google'] as const)('lists the same rules, in the same order, and writes the same bytecode (%s)', (profileName) => {
    fc.assert(
      fc.property(file, (groups) => {
        const body = bodyOf(groups);
        const parsed = parseRobotsBody(encoder.encode(body), 0, Infinity, false);
        const selection = selectGroups(parsed.groups, 'examplebot');
        // The selected groups are in file order, so their rules are in line order.
        const lines = selection.groups.flatMap((group) => parsed.rules.ruleLines(group.firstRule, group.endRule));
        const expected = referenceCompile(lines, profileName);
        const shown = expected.map((rule) => ({ kind: rule.allow ? 'allow' : 'disallow', pattern: rule.shown, line: rule.line }));
        expect(parseRobotsTxt(body, { profile: profileName }).forAgent('ExampleBot').rules).toEqual(shown);

        const compiled = compileRules(parsed.rules, selection.groups, profileNamed(profileName));
        expect(patternsOf(compiled).map((bytes) => decoder.decode(bytes))).toEqual(expected.map((rule) => decoder.decode(rule.pattern)));
        expect(writeBytecode(compiled, OPTIONS)).toEqual(writeBytecode(patternList(expected), OPTIONS));
      }),
      { numRuns: 300 },
    );
  });
});

describe('repeated rules in long runs', () => {
  // More than 16 rules of one length and kind are searched for repeats through a hash table.
  it('keeps the first of each of 60 rules of one length, in line order, whatever repeats', () => {
    const patterns = Array.from({ length: 60 }, (_, i) => `/p${String(i % 23).padStart(2, '0')}`);
    const body = `User-agent: *\n${patterns.map((p) => `Disallow: ${p}`).join('\n')}\n`;
    const rules = parseRobotsTxt(body).forAgent('ExampleBot').rules;
    expect(rules).toEqual(patterns.slice(0, 23).map((p, i) => ({ kind: 'disallow', pattern: p, line: i + 2 })));
  });
});

describe('reusing the arrays from one compile to the next', () => {
  it('compiles a file alike before and after files far larger, and after one that lengthens every pattern threefold', () => {
    const small = 'User-agent: *\nDisallow: /a\nAllow: /a/index.html\nDisallow: /*.pdf$\n';
    const large = `User-agent: *\n${Array.from({ length: 20_000 }, (_, i) => `Disallow: /${i.toString(36)}/x*y`).join('\n')}\n`;
    const wide = `User-agent: *\n${Array.from({ length: 300 }, (_, i) => `Allow: /${'é'.repeat(1 + (i % 50))}`).join('\n')}\n`;
    const before = parseRobotsTxt(small).forAgent('ExampleBot');
    const expected = { rules: before.rules, verdicts: ['/a', '/a/', '/b.pdf', '/b.pdfx'].map((url) => before.isAllowed(url)) };
    const largeRules = parseRobotsTxt(large).forAgent('ExampleBot');
    expect(largeRules.rules).toHaveLength(20_000);
    expect(largeRules.isAllowed('/zz/x-y')).toBe(false);
    const wideRules = parseRobotsTxt(wide).forAgent('ExampleBot');
    expect(wideRules.rules[0]).toEqual({ kind: 'allow', pattern: `/${'é'.repeat(50)}`, line: 51 });
    const after = parseRobotsTxt(small).forAgent('ExampleBot');
    expect({ rules: after.rules, verdicts: ['/a', '/a/', '/b.pdf', '/b.pdfx'].map((url) => after.isAllowed(url)) }).toEqual(expected);
    // The rules compiled before stay as they were: nothing of theirs lives in the reused arrays.
    expect(largeRules.explain('/zz/x-y')).toEqual({ allowed: false, line: 1_297, rule: { kind: 'disallow', pattern: '/zz/x*y' } });
  });
});

describe('sorting spans of one buffer in byte order', () => {
  /** Byte order, a prefix first, equal spans by id. */
  function reference(bytes: Uint8Array, starts: Uint32Array, lengths: Uint32Array, ids: number[]): number[] {
    const span = (id: number): number[] => Array.from(bytes.subarray(starts[id], (starts[id] as number) + (lengths[id] as number)));
    return [...ids].sort((a, b) => {
      const x = span(a);
      const y = span(b);
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
      return x.length - y.length || a - b;
    });
  }

  // Few distinct bytes and a shared head make long common prefixes, equal spans, and runs past 16.
  const spans = fc.array(
    fc.tuple(fc.constantFrom('', '/shared/prefix/'), fc.array(fc.constantFrom(0x00, 0x2f, 0x61, 0x62, 0xff), { maxLength: 12 })),
    {
      maxLength: 200,
      size: 'max',
    },
  );

  it('orders spans as comparing their bytes does', () => {
    fc.assert(
      fc.property(spans, (list) => {
        const texts = list.map(([head, tail]) => Uint8Array.of(...encoder.encode(head), ...tail));
        const bytes = Uint8Array.of(...texts.flatMap((text) => [...text]));
        const starts = new Uint32Array(texts.length);
        const lengths = Uint32Array.from(texts, (text) => text.length);
        for (let i = 1; i < texts.length; i++) starts[i] = (starts[i - 1] as number) + (lengths[i - 1] as number);
        const ids = Uint32Array.from(texts.keys());
        sortSpans(bytes, starts, lengths, ids, ids.length);
        expect(Array.from(ids)).toEqual(reference(bytes, starts, lengths, Array.from(texts.keys())));
      }),
      { numRuns: 300 },
    );
  });
});
