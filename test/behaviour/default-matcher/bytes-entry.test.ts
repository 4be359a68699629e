/**
 * The bytes entry, AgentRules.isAllowedBytes: URLs held as UTF-8 bytes (the lines of a big chunk), decided
 * many at a time. Its contract (README "API"; src/api/agent-rules.ts): the range bytes[start, end) decides
 * exactly as isAllowed() decides `new TextDecoder().decode(bytes.subarray(start, end))`, the string API's
 * reading of a URL (docs/design.md#matching: absolute URL or path, the fragment dropped). So these tests are
 * differential against the string API, on both matchers, with random robots files and random lines: ASCII,
 * non-ASCII, escapes and metacharacters, lines longer than the WebAssembly input region (64 KiB), and raw
 * bytes that are not UTF-8, where the U+FFFD a TextDecoder reads must decide, not the bytes themselves.
 * Ranges overlap, are empty, come in any order; `count` may stop short of them; bad arguments are typed
 * errors; and a huge range borrows WebAssembly memory only for the call.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { describeCorpus, loadCorpus } from '../../support/corpus.js';
import { defaultMatcher, matcherInfo, parseRobotsTxt, RulesDisposedError, setMatcher, type AgentRules } from '../../support/library.js';
import { concat } from '../../../harness/bytes.mjs';
import { INPUT_BYTES, line, longLine, ODD_BYTES, pack, profile, robotsFile, urlText } from '../../support/utf8-lines.js';

const MATCHERS = ['wasm', 'typescript'] as const;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

afterAll(() => {
  setMatcher(defaultMatcher);
});

/** What the string API says for each range: the contract, written out. */
function expected(rules: AgentRules, bytes: Uint8Array, ranges: Uint32Array, count = ranges.length >> 1): number[] {
  return Array.from({ length: count }, (_, i) =>
    rules.isAllowed(decoder.decode(bytes.subarray(ranges[2 * i], ranges[2 * i + 1]))) ? 1 : 0,
  );
}

/** Extra ranges anywhere in a buffer: overlapping, empty, in any order (as fractions of its length). */
const extraRanges = fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })), {
  maxLength: 8,
});

function withExtras(bytes: Uint8Array, ranges: Uint32Array, extras: readonly (readonly [number, number])[]): Uint32Array {
  const all = new Uint32Array(ranges.length + extras.length * 2);
  all.set(ranges);
  extras.forEach(([a, b], i) => {
    const x = Math.floor(a * bytes.length);
    const y = Math.floor(b * bytes.length);
    all[ranges.length + 2 * i] = Math.min(x, y);
    all[ranges.length + 2 * i + 1] = Math.max(x, y);
  });
  return all;
}

describe('isAllowedBytes decides each range as isAllowed decides the TextDecoder string of its bytes', () => {
  for (const matcher of MATCHERS) {
    it(`on random robots files and UTF-8 URL lines (${matcher})`, () => {
      setMatcher(matcher);
      fc.assert(
        fc.property(robotsFile, profile, fc.array(urlText, { maxLength: 30 }), extraRanges, (file, profile, urls, extras) => {
          const rules = parseRobotsTxt(file, { profile }).forAgent('ExampleBot');
          const { bytes, ranges: lineRanges } = pack(urls.map((url) => encoder.encode(url)));
          const ranges = withExtras(bytes, lineRanges, extras);
          expect(Array.from(rules.isAllowedBytes(bytes, ranges))).toEqual(expected(rules, bytes, ranges));
          rules.dispose();
        }),
        { numRuns: 300 },
      );
    });

    it(`on raw lines that are not UTF-8: lone continuation bytes, overlong forms, surrogates, cut sequences (${matcher})`, () => {
      setMatcher(matcher);
      fc.assert(
        fc.property(robotsFile, profile, fc.array(line, { maxLength: 30 }), extraRanges, (file, profile, lines, extras) => {
          const rules = parseRobotsTxt(file, { profile }).forAgent('ExampleBot');
          const { bytes, ranges: lineRanges } = pack(lines);
          const ranges = withExtras(bytes, lineRanges, extras);
          expect(Array.from(rules.isAllowedBytes(bytes, ranges))).toEqual(expected(rules, bytes, ranges));
          rules.dispose();
        }),
        { numRuns: 300 },
      );
    });

    it(`on lines longer than the 64 KiB input region, valid or not (${matcher})`, () => {
      setMatcher(matcher);
      fc.assert(
        fc.property(
          robotsFile,
          profile,
          fc.array(fc.oneof(longLine, line), { minLength: 1, maxLength: 4 }),
          extraRanges,
          (file, profile, lines, extras) => {
            const rules = parseRobotsTxt(file, { profile }).forAgent('ExampleBot');
            const { bytes, ranges: lineRanges } = pack(lines);
            const ranges = withExtras(bytes, lineRanges, extras);
            expect(Array.from(rules.isAllowedBytes(bytes, ranges))).toEqual(expected(rules, bytes, ranges));
            rules.dispose();
          },
        ),
        { numRuns: 25 },
      );
    });
  }

  it('never decides a line that is not UTF-8 on its raw bytes (rfc9309: its U+FFFD is %EF%BF%BD)', () => {
    setMatcher('wasm');
    const rules = parseRobotsTxt('User-agent: *\nDisallow: /*%EF%BF%BD\n').forAgent('ExampleBot');
    const odd = ODD_BYTES.filter((run) => !run.includes(0x23)); // no '#': every byte is in the path
    const oddLine = fc
      .array(
        fc.oneof(
          fc.constantFrom(...odd),
          fc.uint8Array({ maxLength: 6 }).map((bytes) => Array.from(bytes).filter((byte) => byte !== 0x23)),
        ),
        { maxLength: 8 },
      )
      .map((runs) => Uint8Array.from([0x2f, 0x61, ...runs.flat()])); // "/a…": no "//" to read as a host
    fc.assert(
      fc.property(fc.array(oddLine, { minLength: 1, maxLength: 20 }), (lines) => {
        const { bytes, ranges } = pack(lines);
        const want = expected(rules, bytes, ranges);
        lines.forEach((line, i) => {
          // The contract, seen from here: disallowed exactly when the line is not UTF-8 or holds U+FFFD itself.
          const valid = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
          let isUtf8 = true;
          try {
            valid.decode(line);
          } catch {
            isUtf8 = false;
          }
          const holdsReplacement = decoder.decode(line).includes('\uFFFD');
          expect(want[i]).toBe(!isUtf8 || holdsReplacement ? 0 : 1);
        });
        expect(Array.from(rules.isAllowedBytes(bytes, ranges))).toEqual(want);
      }),
      { numRuns: 500 },
    );
    rules.dispose();
  });

  for (const matcher of MATCHERS) {
    it(`fills many chunks of the input region, at its exact size and one past it, in order and shuffled (${matcher})`, () => {
      setMatcher(matcher);
      const rules = parseRobotsTxt('User-agent: *\nDisallow: /p\nAllow: /p/ok\nDisallow: /*.pdf$\nDisallow: /caf%C3%A9\n').forAgent(
        'ExampleBot',
      );
      const kinds = ['/p/x', '/p/ok/y', '/a.pdf', '/a.pdf?x', 'https://h.com/café', '/caf\uFFFD', '/free', ''];
      const lines: Uint8Array[] = [];
      for (let i = 0; i < 9_000; i++) lines.push(encoder.encode(`${kinds[i % kinds.length]}${'x'.repeat(i % 50)}`));
      lines.push(Uint8Array.from([0x2f, 0x63, 0x61, 0x66, 0xff])); // "/caf" then a byte that is not UTF-8
      for (const size of [INPUT_BYTES - 1, INPUT_BYTES, INPUT_BYTES + 1]) {
        lines.push(encoder.encode(`/p/${'a'.repeat(size - 3)}`));
        lines.push(concat([encoder.encode(`/p/ok/${'a'.repeat(size - 7)}`), Uint8Array.of(0x80)]));
      }
      const { bytes, ranges } = pack(lines);
      const want = expected(rules, bytes, ranges);
      expect(want.filter((verdict) => verdict === 0).length).toBeGreaterThan(1_000);
      expect(Array.from(rules.isAllowedBytes(bytes, ranges))).toEqual(want);
      // The same ranges shuffled (deterministically): chunks of scattered ranges.
      const order = Array.from({ length: lines.length }, (_, i) => (i * 7_919) % lines.length);
      const shuffled = new Uint32Array(ranges.length);
      order.forEach((from, to) => {
        shuffled[2 * to] = ranges[2 * from] as number;
        shuffled[2 * to + 1] = ranges[2 * from + 1] as number;
      });
      expect(Array.from(rules.isAllowedBytes(bytes, shuffled))).toEqual(order.map((from) => want[from]));
      rules.dispose();
    });
  }
});

describe('isAllowedBytes reads the bytes as a TextDecoder does', () => {
  for (const matcher of MATCHERS) {
    it(`drops one leading byte order mark per range, and decides an invalid byte as U+FFFD (${matcher})`, () => {
      setMatcher(matcher);
      const rules = parseRobotsTxt('User-agent: *\nDisallow: /x\nDisallow: /*%EF%BF%BD\n').forAgent('ExampleBot');
      const bom = [0xef, 0xbb, 0xbf];
      const text = (value: string): number[] => Array.from(encoder.encode(value));
      const bytes = Uint8Array.from([
        ...bom,
        ...text('//h/x'),
        ...bom,
        ...bom,
        ...text('//h/x'),
        ...text('/a'),
        0xff,
        ...text('/a'),
        0xc3,
        0xa9,
      ]);
      // [BOM //h/x] reads "//h/x", host h, path /x; [BOM BOM //h/x] reads "\uFEFF//h/x", host "\uFEFF", path
      // //h/x; "/a\xff" reads "/a\uFFFD", which is /a%EF%BF%BD; "/aé" is valid, /a%C3%A9.
      const ranges = Uint32Array.of(0, 8, 8, 19, 19, 22, 22, 26);
      expect(Array.from(rules.isAllowedBytes(bytes, ranges))).toEqual([0, 1, 0, 1]);
      expect(Array.from(rules.isAllowedBytes(bytes, ranges))).toEqual(expected(rules, bytes, ranges));
    });
  }
});

describe('isAllowedBytes: the output and its count', () => {
  for (const matcher of MATCHERS) {
    it(`decides only the first count ranges, leaves the rest of out untouched, and returns out (${matcher})`, () => {
      setMatcher(matcher);
      const rules = parseRobotsTxt('User-agent: *\nDisallow: /private\n').forAgent('ExampleBot');
      const bytes = encoder.encode('/private/a\n/b\n/private/c');
      const ranges = Uint32Array.of(0, 10, 11, 13, 14, 24, 0, 0);
      const out = new Uint8Array(6).fill(7);
      expect(rules.isAllowedBytes(bytes, ranges, out, 2)).toBe(out);
      expect(Array.from(out)).toEqual([0, 1, 7, 7, 7, 7]);
      expect(Array.from(rules.isAllowedBytes(bytes, ranges))).toEqual([0, 1, 0, 1]);
      expect(Array.from(rules.isAllowedBytes(bytes, ranges, undefined, 0))).toEqual([]);
      // An odd trailing offset is no pair: ignored by the default count.
      expect(Array.from(rules.isAllowedBytes(bytes, Uint32Array.of(0, 10, 11)))).toEqual([0]);
      // A Node Buffer is a Uint8Array, and so are views at an offset.
      expect(Array.from(rules.isAllowedBytes(Buffer.from(bytes), ranges, Buffer.alloc(4)))).toEqual([0, 1, 0, 1]);
      expect(Array.from(rules.isAllowedBytes(bytes.subarray(11), Uint32Array.of(0, 2, 3, 13)))).toEqual([1, 0]);
    });
  }
});

describe('isAllowedBytes refuses bad arguments with typed errors, before deciding anything', () => {
  for (const matcher of MATCHERS) {
    it(`says what is wrong with bytes, ranges, out and count (${matcher})`, () => {
      setMatcher(matcher);
      const rules = parseRobotsTxt('User-agent: *\nDisallow: /private\n').forAgent('ExampleBot');
      const bytes = encoder.encode('/a\n/private');
      const ranges = Uint32Array.of(0, 2, 3, 11);
      const out = new Uint8Array(2).fill(7);
      const ask =
        (...args: unknown[]) =>
        () =>
          (rules.isAllowedBytes as (...a: unknown[]) => Uint8Array)(...args);
      for (const notBytes of ['/a', [0x2f], new Uint16Array(11), new Uint8ClampedArray(11), new ArrayBuffer(11), null, undefined]) {
        expect(ask(notBytes, ranges), String(notBytes)).toThrow(/bytes must be a Uint8Array/);
        expect(ask(notBytes, ranges)).toThrow(TypeError);
      }
      for (const notRanges of [[0, 2], new Int32Array([0, 2]), new Uint16Array([0, 2]), new Float64Array([0, 2]), null, undefined, '0,2']) {
        expect(ask(bytes, notRanges), String(notRanges)).toThrow(/ranges must be a Uint32Array/);
        expect(ask(bytes, notRanges)).toThrow(TypeError);
      }
      for (const notOut of [[0, 0], new Uint16Array(2), new Uint8ClampedArray(2), null, 2]) {
        expect(ask(bytes, ranges, notOut), String(notOut)).toThrow(/out must be a Uint8Array/);
        expect(ask(bytes, ranges, notOut)).toThrow(TypeError);
      }
      expect(ask(bytes, ranges, new Uint8Array(1))).toThrow(RangeError);
      expect(ask(bytes, ranges, new Uint8Array(1))).toThrow(/out holds 1 verdicts; 2 are needed/);
      expect(ask(bytes, ranges, undefined, '2')).toThrow(TypeError);
      for (const badCount of [-1, 3, 1.5, NaN, Infinity]) {
        expect(ask(bytes, ranges, undefined, badCount), String(badCount)).toThrow(RangeError);
        expect(ask(bytes, ranges, undefined, badCount)).toThrow(/count must be a whole number from 0 to 2/);
      }
      expect(ask(bytes, Uint32Array.of(0, 2, 5, 4), out)).toThrow(/range 1 starts after it ends: \[5, 4\)/);
      expect(ask(bytes, Uint32Array.of(0, 2, 3, 12), out)).toThrow(/range 1, \[3, 12\), ends past the 11 bytes given/);
      expect(ask(bytes, Uint32Array.of(12, 12), out)).toThrow(RangeError);
      expect(ask(bytes, Uint32Array.of(0xffffffff, 0xffffffff), out)).toThrow(RangeError);
      // Nothing was written by a refused call, and a range past a short count is not checked.
      expect(Array.from(out)).toEqual([7, 7]);
      expect(Array.from(rules.isAllowedBytes(bytes, Uint32Array.of(0, 2, 5, 4), out, 1))).toEqual([1, 7]);
      rules.dispose();
      expect(ask(bytes, ranges)).toThrow(RulesDisposedError);
    });
  }
});

describe('isAllowedBytes and WebAssembly memory', () => {
  it('gives back the memory a huge range borrowed, valid UTF-8 or not', () => {
    setMatcher('wasm');
    const rules = parseRobotsTxt('User-agent: *\nDisallow: /private\nAllow: /private/open\n').forAgent('ExampleBot');
    rules.isAllowedBytes(encoder.encode('/warm'), Uint32Array.of(0, 5));
    const before = matcherInfo().wasmBytesInUse;
    const huge = encoder.encode(`/private/${'a'.repeat(10 << 20)}\n/private/open/${'é'.repeat(1 << 20)}\n`);
    const second = huge.indexOf(0x0a) + 1;
    const ranges = Uint32Array.of(0, second - 1, second, huge.length - 1, 0, 20);
    expect(Array.from(rules.isAllowedBytes(huge, ranges))).toEqual([0, 1, 0]);
    expect(matcherInfo().wasmBytesInUse).toBe(before);
    huge[5] = 0xff; // "/priv\xffte/…": not UTF-8, decided through its string, in a region of its own too
    expect(Array.from(rules.isAllowedBytes(huge, ranges))).toEqual([1, 1, 1]);
    expect(matcherInfo().wasmBytesInUse).toBe(before);
    // The standing buffers still answer afterwards.
    expect(Array.from(rules.isAllowedBytes(encoder.encode('/private/x'), Uint32Array.of(0, 10)))).toEqual([0]);
    expect(matcherInfo().wasmBytesInUse).toBe(before);
    rules.dispose();
  });
});

describeCorpus('isAllowedBytes on the real-world corpus', () => {
  it("agrees with the string API on URLs made from every file's own patterns, with both matchers", () => {
    const files = loadCorpus().filter((_, i) => i % 8 === 0);
    for (const matcher of MATCHERS) {
      setMatcher(matcher);
      for (const { name, body } of files) {
        const rules = parseRobotsTxt(body).forAgent('Googlebot');
        const urls = rules.rules.slice(0, 200).flatMap(({ pattern }) => {
          const path = pattern.replaceAll('*', 'x').replace(/\$$/, '');
          return [path, `https://${name}${path}`, `${path}é?q=1#f`, `${path.slice(0, -1)}`];
        });
        const lines = urls.map((url) => encoder.encode(url));
        lines.push(Uint8Array.from([...encoder.encode(urls[0] ?? '/'), 0xff]));
        const { bytes, ranges } = pack(lines);
        expect(Array.from(rules.isAllowedBytes(bytes, ranges)), name).toEqual(expected(rules, bytes, ranges));
        rules.dispose();
      }
    }
  });
});
