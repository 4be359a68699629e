/**
 * The single check on bytes, AgentRules.isAllowedUtf8(bytes, start, end): a URL the caller holds as UTF-8
 * (a log line, a buffer of URLs). Its contract (README "API"; src/api/agent-rules.ts): bytes[start, end)
 * decides exactly as isAllowed() decides `new TextDecoder().decode(bytes.subarray(start, end))`. So these tests
 * are differential against the string API, and against the batch on bytes (isAllowedBytes), on both matchers
 * and in every tier: random robots files, URL lines, raw bytes that are not UTF-8 (lone continuation bytes,
 * overlong forms, surrogates, cut sequences), byte order marks, empty ranges, and ranges longer than the
 * WebAssembly input region. Bad arguments are typed errors, and a huge range borrows memory only for the call.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  defaultMatcher,
  matcherInfo,
  parseRobotsTxt,
  RulesDisposedError,
  setMatcher,
  type AgentRules,
  type RobotsTxt,
} from '../../support/library.js';
import { concat } from '../../../harness/bytes.mjs';
import { INPUT_BYTES, line, longLine, ODD_BYTES, pack, profile, robotsFile } from '../../support/utf8-lines.js';

const MATCHERS = ['wasm', 'typescript'] as const;
const TIERS = ['uncompiled', 'scan', 'indexed'] as const;
type Tier = (typeof TIERS)[number];
const encoder = new TextEncoder();
const decoder = new TextDecoder();

afterAll(() => {
  setMatcher(defaultMatcher);
});

/**
 * Rules for `file` in `tier` whenever asked: the same object while it stays in that tier (the uncompiled tier
 * answers a few checks, the scan tier a few more), fresh ones once it has moved on.
 */
function rulesIn(file: string, options: { profile: 'rfc9309' | 'google' }, tier: Tier): { rules: () => AgentRules; dispose: () => void } {
  let robots: RobotsTxt | undefined;
  let current: AgentRules | undefined;
  const rules = (): AgentRules => {
    if (current !== undefined && current.tier === tier) return current;
    robots?.dispose();
    robots = parseRobotsTxt(file, options);
    current = robots.forAgent('ExampleBot', { indexed: tier === 'indexed' });
    // An empty batch compiles and checks nothing: the scan tier for a small ruleset.
    if (tier === 'scan') current.isAllowedMany([]);
    expect(current.tier).toBe(tier);
    return current;
  };
  return { rules, dispose: () => robots?.dispose() };
}

/** The string API's verdict for bytes[start, end): the contract, written out. */
function expected(rules: AgentRules, bytes: Uint8Array, start: number, end: number): boolean {
  return rules.isAllowed(decoder.decode(bytes.subarray(start, end)));
}

describe('isAllowedUtf8 decides as isAllowed decides the TextDecoder string of the bytes, in every tier', () => {
  for (const matcher of MATCHERS) {
    it(`on random robots files and lines, valid UTF-8 or not, with byte order marks and empty ranges (${matcher})`, () => {
      setMatcher(matcher);
      fc.assert(
        fc.property(robotsFile, profile, fc.array(line, { minLength: 1, maxLength: 20 }), (file, profile, lines) => {
          const reference = parseRobotsTxt(file, { profile }).forAgent('ExampleBot', { indexed: true });
          const { bytes, ranges } = pack(lines);
          const count = lines.length;
          const want = Array.from({ length: count }, (_, i) =>
            expected(reference, bytes, ranges[2 * i] as number, ranges[2 * i + 1] as number),
          );
          for (const tier of TIERS) {
            const { rules, dispose } = rulesIn(file, { profile }, tier);
            for (let i = 0; i < count; i++) {
              const [start, end] = [ranges[2 * i] as number, ranges[2 * i + 1] as number];
              expect(rules().isAllowedUtf8(bytes, start, end), `${tier}, line ${i}`).toBe(want[i]);
              // The line alone, whole: the defaults of start and end.
              expect(rules().isAllowedUtf8(bytes.slice(start, end)), `${tier}, line ${i} alone`).toBe(want[i]);
            }
            // The batch on bytes agrees, range by range.
            expect(Array.from(rules().isAllowedBytes(bytes, ranges), (verdict) => verdict === 1)).toEqual(want);
            dispose();
          }
          reference.dispose();
        }),
        { numRuns: 150 },
      );
    });

    it(`on ranges longer than the 64 KiB input region, valid or not, and the bytes around them (${matcher})`, () => {
      setMatcher(matcher);
      fc.assert(
        fc.property(robotsFile, profile, fc.array(fc.oneof(longLine, line), { minLength: 1, maxLength: 3 }), (file, profile, lines) => {
          const reference = parseRobotsTxt(file, { profile }).forAgent('ExampleBot', { indexed: true });
          const { bytes, ranges } = pack(lines);
          for (const tier of TIERS) {
            const { rules, dispose } = rulesIn(file, { profile }, tier);
            for (let i = 0; i < lines.length; i++) {
              const [start, end] = [ranges[2 * i] as number, ranges[2 * i + 1] as number];
              expect(rules().isAllowedUtf8(bytes, start, end), `${tier}, line ${i}`).toBe(expected(reference, bytes, start, end));
            }
            // Everything at once, newlines and all.
            expect(rules().isAllowedUtf8(bytes), tier).toBe(expected(reference, bytes, 0, bytes.length));
            dispose();
          }
          reference.dispose();
        }),
        { numRuns: 8 },
      );
    });
  }
});

describe('isAllowedUtf8 reads the bytes as a TextDecoder does', () => {
  for (const matcher of MATCHERS) {
    it(`drops one leading byte order mark, and decides a bad byte as U+FFFD, not as itself (${matcher})`, () => {
      setMatcher(matcher);
      const rules = parseRobotsTxt('User-agent: *\nDisallow: /x\nDisallow: /*%EF%BF%BD\nAllow: /*%FF\n').forAgent('ExampleBot', {
        indexed: true,
      });
      const bom = [0xef, 0xbb, 0xbf];
      const text = (value: string): number[] => Array.from(encoder.encode(value));
      // [BOM //h/x] reads "//h/x", host h, path /x; [BOM BOM //h/x] reads "\uFEFF//h/x": host "\uFEFF", path //h/x.
      expect(rules.isAllowedUtf8(Uint8Array.from([...bom, ...text('//h/x')]))).toBe(false);
      expect(rules.isAllowedUtf8(Uint8Array.from([...bom, ...bom, ...text('//h/x')]))).toBe(true);
      // "/a\xff" reads "/a\uFFFD", /a%EF%BF%BD, disallowed; as raw bytes it would be /a%FF, allowed.
      expect(rules.isAllowedUtf8(Uint8Array.from([...text('/a'), 0xff]))).toBe(false);
      expect(rules.isAllowedUtf8(Uint8Array.from([...text('/a'), 0xc3, 0xa9]))).toBe(true);
      // Every odd run of bytes, in the middle of a range of a bigger buffer.
      for (const odd of ODD_BYTES) {
        const bytes = concat([encoder.encode('/x\n/a'), Uint8Array.from(odd), encoder.encode('/b\n/x')]);
        expect(rules.isAllowedUtf8(bytes, 3, bytes.length - 3), String(odd)).toBe(expected(rules, bytes, 3, bytes.length - 3));
      }
      // An empty range is the empty string: "/", allowed.
      expect(rules.isAllowedUtf8(encoder.encode('/x'), 1, 1)).toBe(true);
      expect(rules.isAllowedUtf8(new Uint8Array(0))).toBe(true);
      rules.dispose();
    });

    it(`takes any Uint8Array: a Node Buffer, a view at an offset (${matcher})`, () => {
      setMatcher(matcher);
      const rules = parseRobotsTxt('User-agent: *\nDisallow: /private\n').forAgent('ExampleBot');
      const bytes = encoder.encode('/private/a\n/b\n/private/c');
      expect(rules.isAllowedUtf8(Buffer.from(bytes), 11, 13)).toBe(true);
      expect(rules.isAllowedUtf8(Buffer.from(bytes), 14)).toBe(false);
      expect(rules.isAllowedUtf8(bytes.subarray(11), 0, 2)).toBe(true);
      expect(rules.isAllowedUtf8(bytes.subarray(11), 3)).toBe(false);
      expect(rules.isAllowedUtf8(bytes, undefined, 10)).toBe(false);
      rules.dispose();
    });
  }
});

describe('isAllowedUtf8 refuses bad arguments with typed errors', () => {
  for (const matcher of MATCHERS) {
    it(`says what is wrong with bytes, start and end (${matcher})`, () => {
      setMatcher(matcher);
      const rules = parseRobotsTxt('User-agent: *\nDisallow: /private\n').forAgent('ExampleBot');
      const bytes = encoder.encode('/a\n/private');
      const ask =
        (...args: unknown[]) =>
        () =>
          (rules.isAllowedUtf8 as (...a: unknown[]) => boolean)(...args);
      for (const notBytes of ['/a', [0x2f], new Uint16Array(11), new Uint8ClampedArray(11), new ArrayBuffer(11), null, undefined]) {
        expect(ask(notBytes), String(notBytes)).toThrow(/bytes must be a Uint8Array/);
        expect(ask(notBytes, 0, 2)).toThrow(TypeError);
      }
      for (const notNumber of ['0', null, 0n, {}]) {
        expect(ask(bytes, notNumber, 2), String(notNumber)).toThrow(/start must be a number/);
        expect(ask(bytes, 0, notNumber), String(notNumber)).toThrow(/end must be a number/);
        expect(ask(bytes, 0, notNumber)).toThrow(TypeError);
      }
      for (const badStart of [-1, 12, 1.5, NaN, Infinity]) {
        expect(ask(bytes, badStart, 11), String(badStart)).toThrow(RangeError);
        expect(ask(bytes, badStart, 11)).toThrow(/start must be a whole number from 0 to 11/);
      }
      for (const badEnd of [12, 2.5, NaN, Infinity]) {
        expect(ask(bytes, 1, badEnd), String(badEnd)).toThrow(RangeError);
        expect(ask(bytes, 1, badEnd)).toThrow(/end must be a whole number from 1 to 11/);
      }
      expect(ask(bytes, 5, 4)).toThrow(RangeError);
      expect(ask(bytes, 5, 4)).toThrow(/the range starts after it ends: \[5, 4\)/);
      expect(ask(bytes, 3, -1)).toThrow(/the range starts after it ends: \[3, -1\)/);
      // A refused call compiled nothing.
      expect(rules.tier).toBe('uncompiled');
      expect(rules.isAllowedUtf8(bytes, 3, 11)).toBe(false);
      rules.dispose();
      expect(ask(bytes)).toThrow(RulesDisposedError);
    });
  }
});

describe('isAllowedUtf8 in its tiers', () => {
  for (const matcher of MATCHERS) {
    it(`answers its first checks uncompiled, sharing their count with isAllowed, then compiles (${matcher})`, () => {
      setMatcher(matcher);
      const rules = parseRobotsTxt('User-agent: *\nDisallow: /private\n').forAgent('ExampleBot');
      const line = encoder.encode('https://example.com/private/x');
      let checks = 0;
      while (rules.tier === 'uncompiled') {
        expect(checks % 2 === 0 ? rules.isAllowedUtf8(line) : rules.isAllowed('/private/x')).toBe(false);
        checks++;
      }
      expect(checks).toBeGreaterThan(1);
      expect(rules.byteLength).toBeGreaterThan(0);
      const fresh = parseRobotsTxt('User-agent: *\nDisallow: /private\n').forAgent('ExampleBot');
      for (let i = 0; i < checks; i++) fresh.isAllowed('/a');
      // The same count: isAllowed() alone compiles at the same check.
      expect(fresh.tier).not.toBe('uncompiled');
      fresh.dispose();
      rules.dispose();
    });
  }
});

describe('isAllowedUtf8 and WebAssembly memory', () => {
  it('gives back the memory a huge range borrowed, valid UTF-8 or not', () => {
    setMatcher('wasm');
    const rules = parseRobotsTxt('User-agent: *\nDisallow: /private\nAllow: /private/open\n').forAgent('ExampleBot', { indexed: true });
    rules.isAllowedUtf8(encoder.encode('/warm'));
    const before = matcherInfo().wasmBytesInUse;
    const huge = encoder.encode(`/private/${'a'.repeat(10 << 20)}\n/private/open/${'é'.repeat(1 << 20)}`);
    const second = huge.indexOf(0x0a) + 1;
    expect(rules.isAllowedUtf8(huge, 0, second - 1)).toBe(false);
    expect(rules.isAllowedUtf8(huge, second)).toBe(true);
    expect(matcherInfo().wasmBytesInUse).toBe(before);
    huge[5] = 0xff; // "/priv\xffte/…": not UTF-8, decided through its string, in a region of its own too
    expect(rules.isAllowedUtf8(huge, 0, second - 1)).toBe(true);
    expect(matcherInfo().wasmBytesInUse).toBe(before);
    // The standing region still answers afterwards, at its exact size and one past it.
    for (const size of [INPUT_BYTES - 1, INPUT_BYTES, INPUT_BYTES + 1]) {
      expect(rules.isAllowedUtf8(encoder.encode(`/private/${'b'.repeat(size - 9)}`)), String(size)).toBe(false);
    }
    expect(rules.isAllowedUtf8(encoder.encode('/private/open/x'))).toBe(true);
    expect(matcherInfo().wasmBytesInUse).toBe(before);
    rules.dispose();
  });
});
