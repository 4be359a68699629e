/**
 * The drop-in's tiers (src/compat/robots-parser-tiers.ts; docs/design.md#tiers): an agent's first checks are answered
 * by a scan of its normalised patterns, later ones by the compiled WebAssembly matcher, and both must give
 * the same verdict and the same deciding line, robots-parser's (longest pattern, allow on a tie, else the
 * first). Held here scan ⇄ compiled ⇄ a regular-expression oracle built from robots-parser's definition of
 * a pattern; test/behaviour/default-matcher/compat-robots-parser.test.ts holds the whole drop-in to the real package, the switch
 * between tiers included. And the byte-level normalisation is held to robots-parser's own string one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../../src/platform/robots-parser.js';
import { QUERY_PATH } from '../../src/engine/backend.js';
import { compileCompatRules } from '../../src/compat/robots-parser-compile.js';
import { writeNormalized, normalizedBound } from '../../src/compat/robots-parser-pattern.js';
import { NormalizedRules } from '../../src/compat/robots-parser-reading.js';
import { UNCOMPILED_CHECKS, scanSignedLine } from '../../src/compat/robots-parser-scan.js';
import { SCAN_WORK_LIMIT } from '../../src/parse/rule-records.js';
import { TieredRules } from '../../src/compat/robots-parser-tiers.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** robots-parser's normaliseEncoding (Robots.js), as written there: the oracle for the byte-level one. */
function normaliseEncoding(pattern: string): string {
  return encodeURI(pattern)
    .replace(/%25/g, '%')
    .replace(/%[0-9a-fA-F]{2}/g, (escape) => escape.toUpperCase());
}

function normalized(pattern: string): string {
  const bytes = encoder.encode(pattern);
  const out = new Uint8Array(normalizedBound(bytes.length));
  return decoder.decode(out.subarray(0, writeNormalized(bytes, 0, bytes.length, out, 0)));
}

/** Whether `pattern` matches `path` by robots-parser's definition: `*` any run, a final `$` the end, a prefix otherwise. */
function oracleMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const source = body
    .split('*')
    .map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\S]*');
  return new RegExp(`^${source}${anchored ? '$' : ''}`).test(path);
}

interface Rule {
  readonly allow: boolean;
  readonly pattern: string;
}

/**
 * The deciding rule by robots-parser's findRule() over its normalised patterns, as a signed 1-based line
 * (rule i is on line i + 1).
 */
function oracleSignedLine(rawRules: readonly Rule[], path: string): number {
  const rules = rawRules.map((rule) => ({ allow: rule.allow, pattern: normaliseEncoding(rule.pattern) }));
  let best = -1;
  rules.forEach((rule, index) => {
    if (!oracleMatches(rule.pattern, path)) return;
    const chosen = rules[best];
    if (
      chosen === undefined ||
      rule.pattern.length > chosen.pattern.length ||
      (rule.pattern.length === chosen.pattern.length && rule.allow && !chosen.allow)
    ) {
      best = index;
    }
  });
  const chosen = rules[best];
  return chosen === undefined ? 0 : chosen.allow ? best + 1 : -(best + 1);
}

function recordsOf(rules: readonly Rule[]) {
  const bytes = rules.map((rule) => encoder.encode(rule.pattern));
  const normalizedRules = new NormalizedRules(bytes.reduce((total, pattern) => total + pattern.length, 0));
  bytes.forEach((pattern, index) => normalizedRules.add(index + 1, (rules[index] as Rule).allow, pattern, 0, pattern.length));
  return normalizedRules.records();
}

// Patterns and paths over a small alphabet, so that they often match, tie and overlap.
const piece = fc.constantFrom('/', 'a', 'b', 'ab', '*', '$', '.', '%2f', '%2F', '?', '=');
const patternArbitrary = fc.array(piece, { minLength: 1, maxLength: 6 }).map((pieces) => pieces.join(''));
const pathArbitrary = fc
  .array(fc.constantFrom('/', 'a', 'b', '$', '*', '.', '%2F', '?', '='), { maxLength: 10 })
  .map((pieces) => `/${pieces.join('')}`);
const rulesArbitrary = fc.array(fc.record({ allow: fc.boolean(), pattern: patternArbitrary }), { minLength: 1, maxLength: 8 });

describe("the byte-level pattern normalisation (robots-parser's normaliseEncoding: encodeURI, `%25` back to `%`, `%xx` upper-cased)", () => {
  it('gives what robots-parser gives, for any well-formed pattern', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (pattern) => {
        expect(normalized(pattern)).toBe(normaliseEncoding(pattern));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives what robots-parser gives on escapes, reserved characters and non-ASCII', () => {
    for (const pattern of [
      '/%7e%2f%25%zz%',
      '/%%7e',
      '/%a',
      '/%',
      '/a b"c<d>[e]^`{|}\\',
      "/;,/?:@&=+$-_.!~*'()#",
      '/café',
      '/日本',
      '/\u{1f600}',
      '/%c3%a9',
    ]) {
      expect(normalized(pattern), pattern).toBe(normaliseEncoding(pattern));
    }
  });
});

describe('the scan tier and the compiled tier decide alike, as robots-parser does', () => {
  it('agree with each other and with the oracle on random rules and paths (verdict and deciding line)', () => {
    fc.assert(
      fc.property(rulesArbitrary, fc.array(pathArbitrary, { minLength: 1, maxLength: 6 }), (rules, paths) => {
        const records = recordsOf(rules);
        const compiled = compileCompatRules(records);
        for (const path of paths) {
          const expected = oracleSignedLine(rules, path);
          expect(scanSignedLine(records, path), `scan ${path}`).toBe(expected);
          expect(compiled.signedLineOf(path, QUERY_PATH), `compiled ${path}`).toBe(expected);
        }
      }),
      { numRuns: 1500 },
    );
  });

  it(`answers the same across the switch: ${UNCOMPILED_CHECKS} checks scanned, then compiled`, () => {
    const rules: Rule[] = [
      { allow: false, pattern: '/a' },
      { allow: true, pattern: '/a*b$' },
      { allow: false, pattern: '/*.b' },
    ];
    const tiered = new TieredRules(recordsOf(rules));
    const paths = ['/a', '/ab', '/a.b', '/x.b', '/', '/axb'];
    for (let check = 0; check < UNCOMPILED_CHECKS * 2; check++) {
      const path = paths[check % paths.length] as string;
      expect(tiered.signedLine(path, 0, path)).toBe(oracleSignedLine(rules, path));
      // Checks 1 to UNCOMPILED_CHECKS are scanned; the next one compiles.
      expect(tiered.isCompiled).toBe(check + 1 > UNCOMPILED_CHECKS);
    }
    expect(tiered.isCompiled).toBe(true);
  });

  it('compiles at once when a scan could cost more than its budget (a hostile pattern or URL), and still agrees', () => {
    const rules: Rule[] = [{ allow: false, pattern: `/${'a*'.repeat(500)}b` }];
    const records = recordsOf(rules);
    const path = `/${'a'.repeat(4000)}`;
    expect(records.scanWork(path.length)).toBeGreaterThan(SCAN_WORK_LIMIT);
    const tiered = new TieredRules(records);
    expect(tiered.signedLine(path, 0, path)).toBe(0);
    expect(tiered.isCompiled).toBe(true);
    // At the edge: a path whose bound is within the budget is scanned.
    const short = '/ab';
    const scanned = new TieredRules(records);
    expect(records.scanWork(short.length)).toBeLessThanOrEqual(SCAN_WORK_LIMIT);
    expect(scanned.signedLine(short, 0, short)).toBe(oracleSignedLine(rules, short));
    expect(scanned.isCompiled).toBe(false);
  });

  it('counts only patterns with a `*` as searched', () => {
    const records = recordsOf([
      { allow: false, pattern: '/plain' },
      { allow: false, pattern: '/st*r' },
    ]);
    expect(records.wildcardBytes).toBe('/st*r'.length);
    expect(records.scanWork(100)).toBe('/plain/st*r'.length + '/st*r'.length * 100);
  });
});
