/**
 * Every crawler name a User-Agent header holds, read under random headers (fast-check, seeded, bounded):
 * productTokens() (src/cache/product-token.ts) against an independent plain reading
 * (test/support/user-agent-oracle.ts), its work counted rather than timed (bench/gate-names/run.mjs times it), its
 * bounds; and the example gate's decision (examples/worker/src/crawlers.js, which test/e2e/workers/workers.test.ts runs in
 * workerd) against the strictest verdict over those names. The gate imports the package by its name, so
 * that part reads the built dist/ (`npm test` builds first). Repeated header lines are joined by `, `
 * (RFC 9110 §5.3), as `Headers.get()` joins them; the header's grammar is RFC 9110 §10.1.5.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crawlersAtTheDoor, firstRefusal } from '../../examples/worker/src/crawlers.js';
import { DEFAULT_READINGS, pathReadings } from '../../examples/worker/src/readings.js';
import { MAX_PRODUCT_TOKENS, MAX_USER_AGENT_LENGTH, productToken, productTokens } from '../../src/cache/product-token.js';
import { parseRobotsTxt } from '../../src/platform/inline.js';
import { distinct, freshName, GATE_PATHS, GATE_ROBOTS, gateVerdict, oracleNames, vocabularyHeader } from '../support/user-agent-oracle.js';

const SEED = 0x9a7e;

/** What a call gave, and the characters it touched through the String methods the reading uses. */
interface Metered<T> {
  readonly value?: T;
  readonly error?: unknown;
  readonly work: number;
}

/**
 * Runs `read` with String.prototype's charCodeAt, slice, includes, startsWith, indexOf and toLowerCase
 * counting what each touches (one per charCodeAt, the result's length for slice, the string's length for the
 * others), restored afterwards: a count of the reading's work that no machine's speed changes.
 */
function metered<T>(read: () => T): Metered<T> {
  const proto = String.prototype;
  const { charCodeAt, slice, includes, startsWith, indexOf, toLowerCase } = proto;
  let work = 0;
  proto.charCodeAt = function (this: string, index: number): number {
    work++;
    return charCodeAt.call(this, index);
  };
  proto.slice = function (this: string, start?: number, end?: number): string {
    const part = slice.call(this, start, end);
    work += part.length + 1;
    return part;
  };
  proto.includes = function (this: string, search: string, position?: number): boolean {
    work += this.length + 1;
    return includes.call(this, search, position);
  };
  proto.startsWith = function (this: string, search: string, position?: number): boolean {
    work += this.length + 1;
    return startsWith.call(this, search, position);
  };
  proto.indexOf = function (this: string, search: string, position?: number): number {
    work += this.length + 1;
    return indexOf.call(this, search, position);
  };
  proto.toLowerCase = function (this: string): string {
    work += this.length + 1;
    return toLowerCase.call(this);
  };
  try {
    const value = read();
    return { value, work };
  } catch (error) {
    return { error, work };
  } finally {
    Object.assign(proto, { charCodeAt, slice, includes, startsWith, indexOf, toLowerCase });
  }
}

/** Work per character allowed: each is read in two passes, each word or entry a bounded number of times more. */
const WORK_PER_CHARACTER = 16;
const WORK_CONSTANT = 64;

/** Headers of every length up to 128 KB: a random piece (names and delimiters, or any characters) repeated. */
const longHeader = fc
  .tuple(
    fc.oneof(
      vocabularyHeader(40),
      fc.string({ unit: fc.constantFrom(...'()\\,; \t/+:@.AbZ_-'), maxLength: 40 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
    ),
    fc.integer({ min: 0, max: 128 * 1024 }),
  )
  .map(([piece, length]) => (piece === '' ? '' : piece.repeat(Math.ceil(length / piece.length)).slice(0, length)));

function expectWellFormed(names: readonly string[]): void {
  expect(names.length).toBeLessThanOrEqual(MAX_PRODUCT_TOKENS);
  for (const name of names) expect(name).toMatch(/^[A-Za-z_-]{2,}$/);
  expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(names.length);
}

describe('productTokens: the documented reading, whatever the header holds', () => {
  it('finds exactly the names the plain reading finds, in order, each once; productToken() the first (differential)', () => {
    fc.assert(
      fc.property(vocabularyHeader(200), (header) => {
        const found = oracleNames(header);
        const expected = distinct(found);
        if (expected.length > MAX_PRODUCT_TOKENS) {
          expect(() => productTokens(header)).toThrow(RangeError);
        } else {
          expect(productTokens(header)).toEqual(expected);
        }
        expect(productToken(header)).toBe(found[0]);
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });

  it('joined or repeated header lines hide no name that either line holds (property)', () => {
    const line = fc.oneof(vocabularyHeader(40), fc.string({ unit: fc.constantFrom(...'()\\,; AbZ/+:'), maxLength: 30 }));
    const lower = (names: readonly string[]): Set<string> => new Set(names.map((name) => name.toLowerCase()));
    fc.assert(
      fc.property(fc.array(line, { minLength: 2, maxLength: 4 }), (lines) => {
        const joined = lower(productTokens(lines.join(', ')));
        for (const one of lines)
          for (const name of lower(productTokens(one))) expect(joined, `${name} in ${JSON.stringify(lines)}`).toContain(name);
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });

  it('reads headers up to 128 KB in work linear in their length, within its bounds, with typed outcomes (property)', () => {
    fc.assert(
      fc.property(longHeader, (header) => {
        const all = metered(() => productTokens(header));
        if (header.length > MAX_USER_AGENT_LENGTH) {
          // Refused before a character is read.
          expect(all.error).toBeInstanceOf(RangeError);
          expect(all.work).toBe(0);
        } else if (all.error !== undefined) {
          expect(all.error).toBeInstanceOf(RangeError);
          expect((all.error as Error).message).toMatch(/names more than 32 crawlers/);
        } else {
          expectWellFormed(all.value ?? []);
        }
        expect(all.work).toBeLessThanOrEqual(WORK_PER_CHARACTER * header.length + WORK_CONSTANT);
        // productToken() reads any length with the same reading, and stops at the first name.
        const first = metered(() => productToken(header));
        expect(first.error).toBeUndefined();
        expect(first.work).toBeLessThanOrEqual(WORK_PER_CHARACTER * header.length + WORK_CONSTANT);
        if (all.value !== undefined) expect(first.value).toBe(all.value[0]);
      }),
      { seed: SEED, numRuns: 150 },
    );
  });

  it('stops at the name after the 32nd distinct one: what follows costs one pass over its characters', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(freshName, {
          minLength: MAX_PRODUCT_TOKENS + 1,
          maxLength: MAX_PRODUCT_TOKENS + 1,
          selector: (name) => name.toLowerCase(),
        }),
        fc.uniqueArray(freshName, { minLength: 1, maxLength: 900 }),
        (names, more) => {
          const head = names.join(' ');
          const tail = ` ${more.join(' ')}`;
          const alone = metered(() => productTokens(head));
          const followed = metered(() => productTokens(head + tail));
          for (const outcome of [alone, followed])
            expect(outcome.error).toEqual(new RangeError('This User-Agent header names more than 32 crawlers; at most 32 are read.'));
          // The rest is read once, by the pass that pairs parentheses; the reading itself looks at one more character.
          expect(followed.work).toBeLessThanOrEqual(alone.work + tail.length + 1);
        },
      ),
      { seed: SEED, numRuns: 50 },
    );
  });
});

describe("the example gate's decision: the strictest verdict over every name (property)", () => {
  it('refuses exactly when some name the header holds is refused on some reading of the path', () => {
    const exempt: ReadonlySet<string> = new Set(['otherbot']);
    const robots = parseRobotsTxt(GATE_ROBOTS);
    // Now and then a line of many names, so that some headers are past the bound.
    const line = fc.oneof(
      { weight: 9, arbitrary: vocabularyHeader(30) },
      { weight: 1, arbitrary: fc.array(freshName, { minLength: 16, maxLength: 40 }).map((names) => names.join(' ')) },
    );
    const lines = fc.array(line, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(', '));
    const target = (pathname: string): URL => {
      const url = new URL('https://www.example.com/');
      url.pathname = pathname;
      return url;
    };
    fc.assert(
      fc.property(lines, fc.constantFrom(...GATE_PATHS), (header, path) => {
        let decided: string | undefined;
        try {
          const names = crawlersAtTheDoor(header, exempt);
          decided = firstRefusal(robots, names, [path, ...pathReadings(path, DEFAULT_READINGS)].map(target))?.name;
        } catch (error) {
          expect(error).toBeInstanceOf(RangeError);
          decided = 'refused';
        }
        expect(decided, `${JSON.stringify(header)} ${path}`).toBe(gateVerdict(header, path, exempt));
      }),
      { seed: SEED, numRuns: 3000 },
    );
    robots.dispose();
  });
});
