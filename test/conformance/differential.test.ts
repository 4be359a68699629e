/**
 * Differential tests: the WebAssembly matcher (assembly/matcher.ts and assembly/automaton.ts behind src/engine/wasm-backend.ts) against
 * the TypeScript matcher (src/engine/matcher.ts), which share the bytecode (src/compile/bytecode.ts).
 * docs/design.md#tiers (the hot path) asks the wasm side to be fast (prefix dispatch, a batch entry, a preallocated input
 * region, freed rulesets giving their memory back); these tests pin that being fast never changes a verdict,
 * and that the batch and memory machinery of docs/design.md#memory hold under load.
 *
 * What is independent and what is shared: read rule by rule (decideRuleByRule), the TypeScript matcher is code
 * of its own, written to be obviously right: the rule table only, tried in order, no prefix index. Its piece
 * automaton (src/engine/automaton.ts), though, is a line-for-line port of the WebAssembly one: where a block
 * has an automaton the two matchers run the same algorithm, and their agreeing proves less, so both are held
 * to the rule-by-rule answer too. Only the oracle below shares nothing with either, not even the bytecode.
 *
 * Both entries are held together: the URL query (a URL string, read the way Google's reference reads it) and
 * the path query (QUERY_PATH: a path taken as it stands, what a URL object's pathname + search needs).
 *
 * On top, an oracle written straight from the definition (a regular expression per pattern), independent of
 * both matchers, checks them on plain paths and on the path entry, so that they cannot agree on a shared
 * mistake unseen. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { indexBytecode, tierOf, writeBytecode, type BytecodeTier } from '../../src/compile/bytecode.js';
import type { AutomatonMode } from '../../src/compile/piece-automaton.js';
import { percentNormalize } from '../../src/compile/normalize.js';
import { decide, decidePath, decideRuleByRule, verdictOf } from '../../src/engine/matcher.js';
import { pathParamsQuery } from '../../src/engine/url-path.js';
import { WasmBackend, createWasmBackend } from '../../src/engine/wasm-backend.js';
import { QUERY_PATH, QUERY_URL, QUERY_VERDICT_ONLY, type LoadedRuleset } from '../../src/engine/backend.js';
import { patternList } from '../support/pattern-list.js';
import { parseRobotsTxt } from '../../src/platform/inline.js';
import { RECORD_CHECKS } from '../../src/api/agent-rules.js';

const wasmModule = new WebAssembly.Module(readFileSync(new URL('../../build/matcher.wasm', import.meta.url)));
const encoder = new TextEncoder();

// ---------------------------------------------------------------------------------------------------------
// Generators, biased toward the cases where a fast matcher goes wrong: star runs, `$` inside and at the
// end, escapes that normalize to something else, multi-byte characters, URLs whose path is hard to find.

/** Pieces patterns and paths are made of; multi-character entries are escapes and wildcard runs. */
const PATTERN_TOKENS = [
  '/',
  '/',
  '/',
  'a',
  'a',
  'b',
  '.',
  '?',
  '=',
  '&',
  '%',
  '2',
  'F',
  'f',
  '*',
  '*',
  '**',
  '***',
  '$',
  '$$',
  'é',
  'ツ',
  '%41',
  '%2f',
  '%2F',
  '%e9',
  '%C3%A9',
  '%7e',
  '%25',
  'ab',
  '/a',
  '',
] as const;

const PATH_TOKENS = [
  '/',
  '/',
  '/',
  'a',
  'a',
  'b',
  '.',
  '?',
  '=',
  '&',
  '%',
  '2',
  'F',
  'f',
  '*',
  '$',
  'é',
  'ツ',
  '😀',
  '%41',
  '%2f',
  '%2F',
  '%e9',
  '%C3%A9',
  '%7e',
  '%25',
  ';',
  ';p=1',
  '#',
  '#frag',
  'ab',
  '/a',
  'A',
  '',
  '\uD800',
  '\uDC00', // lone surrogates: both sides must see U+FFFD
  '\u0000',
  'a\u0000b',
  '\u0000/a', // NUL: where the google profile's path ends
] as const;

const patternBody = fc.array(fc.constantFrom(...PATTERN_TOKENS), { maxLength: 10 }).map((parts) => parts.join(''));

const patternText: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: patternBody.map((body) => `/${body}`) },
  { weight: 2, arbitrary: patternBody.map((body) => `/${body}$`) },
  { weight: 1, arbitrary: patternBody.map((body) => `*${body}`) },
  { weight: 1, arbitrary: patternBody }, // anything, even empty or not starting with `/`
  { weight: 1, arbitrary: fc.constantFrom('/', '*', '$', '*$', '/$', '/*$', '/robots.txt', '/robots.txt$', '/a$b$', '/**a**$') },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('a', 'ab', 'aab', '/a'), fc.integer({ min: 1, max: 40 }), fc.constantFrom('', '$', '*', '*b$'))
      .map(([unit, times, end]) => `/${`${unit}*`.repeat(times)}${end}`),
  },
);

/** How a pattern's bytes reach the bytecode: normalized as the compiler does (either profile), or raw. */
type PatternForm = 'raw' | 'rfc9309' | 'google';

const patternForm: fc.Arbitrary<PatternForm> = fc.constantFrom('rfc9309', 'rfc9309', 'google', 'raw');

function patternBytes(text: string, form: PatternForm): Uint8Array {
  const bytes = encoder.encode(text);
  if (form === 'raw') return bytes;
  return percentNormalize(bytes, form === 'rfc9309');
}

interface RuleText {
  readonly allow: boolean;
  readonly pattern: string;
}

const ruleText: fc.Arbitrary<RuleText> = fc.record({ allow: fc.boolean(), pattern: patternText });

const pathBody = fc.array(fc.constantFrom(...PATH_TOKENS), { maxLength: 14 }).map((parts) => parts.join(''));

const urlPrefix = fc.constantFrom(
  '',
  '',
  '',
  'http://h.com',
  'https://h.com',
  'http://h.com:8080',
  '//h.com',
  '//',
  'h.com',
  'HTTP://H.COM',
  'http://',
  'a://b',
  'http://h.com?',
  'ftp://h.com/x',
  'http://h\u0000.com',
);

const urlText: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(urlPrefix, fc.constantFrom('/', '/', '', '?', ';', '#'), pathBody).map(([a, b, c]) => a + b + c) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        urlPrefix,
        fc.constantFrom(
          '/robots.txt',
          '/robots.txt?x=1',
          '/robots.txtx',
          '/robots%2Etxt',
          '/robots.txt#f',
          '/Robots.txt',
          '/robots.tx',
          '/robots.txt/',
          '/robots.txt;p',
        ),
      )
      .map(([a, b]) => a + b),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      '/',
      '//',
      '///',
      '#',
      '?',
      ';',
      'http://h.com',
      'http://h.com#/a',
      '/#',
      '//h.com#a/b',
      ':/',
      '://',
      '/a://b/c',
    ),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        urlPrefix,
        fc.constantFrom('a', 'ab', 'aab', 'é', '%41', '/a', 'ba', '\uD800'),
        fc.integer({ min: 1, max: 600 }),
        fc.constantFrom('', 'b', '$', '/', '?x'),
      )
      .map(([prefix, unit, times, end]) => `${prefix}/${unit.repeat(times)}${end}`),
  },
);

/**
 * A pattern cut from a URL's own path, so that wildcard and `$` rules actually match often: a prefix of
 * the path with some stretches replaced by `*`, anchored with `$` when the whole path was kept, and
 * sometimes one character changed to make a near miss.
 */
function derivedRule(urls: readonly string[]): fc.Arbitrary<RuleText> {
  return fc
    .record({
      allow: fc.boolean(),
      url: fc.constantFrom(...urls),
      keep: fc.integer({ min: 0, max: 100 }),
      holes: fc.array(fc.tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 4 })), { maxLength: 3 }),
      anchor: fc.boolean(),
      nearMiss: fc.option(fc.tuple(fc.integer({ min: 0, max: 100 }), fc.constantFrom('a', 'b', '/', '%', 'é')), { freq: 4 }),
    })
    .map(({ allow, url, keep, holes, anchor, nearMiss }) => {
      const chars = Array.from(new TextDecoder().decode(pathParamsQuery(encoder.encode(url))));
      const whole = keep >= 50;
      const kept = whole ? chars : chars.slice(0, Math.floor((keep / 50) * chars.length));
      for (const [at, length] of holes) {
        const start = Math.floor((at / 100) * kept.length);
        kept.splice(start, length, '*');
      }
      if (nearMiss !== null) kept[Math.floor((nearMiss[0] / 101) * kept.length)] = nearMiss[1];
      return { allow, pattern: kept.join('') + (whole && anchor ? '$' : '') };
    });
}

/**
 * The ruleset flags of the bytecode header (src/compile/bytecode.ts), each profile's and every mix, and
 * whether the wildcard rules go to the piece automaton: always, never, or as the writer decides (which for
 * a few short rules is never).
 */
interface Flags {
  readonly normalizeUrl: boolean;
  readonly robotsTxtAllowed: boolean;
  readonly pathEndsAtNul: boolean;
  readonly automaton?: AutomatonMode;
  readonly deepPieceDepth?: number;
  readonly tier?: BytecodeTier;
}

const automatonMode: fc.Arbitrary<AutomatonMode> = fc.constantFrom('always', 'always', 'never', 'auto');
/** Where pieces count as deep: lowered from the default (32) so that short pieces reach the segment tree. */
const deepPieceDepth: fc.Arbitrary<number> = fc.constantFrom(0, 1, 2, 32);

const flags: fc.Arbitrary<Flags> = fc.record({
  normalizeUrl: fc.boolean(),
  robotsTxtAllowed: fc.boolean(),
  pathEndsAtNul: fc.boolean(),
  automaton: automatonMode,
  deepPieceDepth,
});

interface Scenario {
  readonly rules: readonly RuleText[];
  readonly form: PatternForm;
  readonly flags: Flags;
  readonly urls: readonly string[];
}

const scenario: fc.Arbitrary<Scenario> = fc.array(urlText, { minLength: 1, maxLength: 8 }).chain((urls) =>
  fc.record({
    rules: fc.array(fc.oneof({ weight: 1, arbitrary: ruleText }, { weight: 2, arbitrary: derivedRule(urls) }), { maxLength: 8 }),
    form: patternForm,
    flags,
    urls: fc.constant(urls),
  }),
);

const RFC9309_FLAGS: Flags = { normalizeUrl: true, robotsTxtAllowed: true, pathEndsAtNul: false };

function compile(rules: readonly RuleText[], form: PatternForm, options: Flags): Uint8Array {
  return writeBytecode(patternList(rules.map((rule) => ({ allow: rule.allow, pattern: patternBytes(rule.pattern, form) }))), options);
}

function referenceVerdict(bytecode: Uint8Array, url: string): 0 | 1 {
  return verdictOf(bytecode, decide(bytecode, encoder.encode(url))) ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------------------

describe('the WebAssembly matcher agrees with the reference executor', () => {
  const backend = createWasmBackend(wasmModule);

  it('picks the same deciding rule, one URL at a time and in a batch, on random rules and URLs', () => {
    fc.assert(
      fc.property(scenario, ({ rules, form, flags, urls }) => {
        const bytecode = compile(rules, form, flags);
        const loaded = backend.load(bytecode);
        try {
          for (const url of urls) {
            expect(loaded.query(url, QUERY_URL), JSON.stringify(url)).toBe(decide(bytecode, encoder.encode(url)));
            // With or without an automaton in the block, the rule table alone gives the same answer.
            expect(decide(bytecode, encoder.encode(url)), `rule by rule ${JSON.stringify(url)}`).toBe(
              decideRuleByRule(bytecode, encoder.encode(url)),
            );
            // The same text through the path entry: no URL located, so "//", "#" and the rest are path bytes.
            expect(loaded.query(url, QUERY_PATH), `path ${JSON.stringify(url)}`).toBe(decidePath(bytecode, encoder.encode(url)));
            expect(loaded.query(url, QUERY_PATH | QUERY_VERDICT_ONLY) === 1).toBe(verdictOf(bytecode, loaded.query(url, QUERY_PATH)));
          }
          const out = new Uint8Array(urls.length);
          loaded.decideMany(urls, out);
          expect(Array.from(out)).toEqual(urls.map((url) => referenceVerdict(bytecode, url)));
        } finally {
          loaded.free();
        }
      }),
      { numRuns: 4000 },
    );
  });

  it('decides a batch of more than 4,096 URLs, some longer than 70,000 characters, like one URL at a time', () => {
    // A fresh backend starts with a 64 KiB input region: the long URLs make it grow mid-batch, and the
    // count makes the host cut the batch into several crossings (docs/design.md#tiers, the batch entry).
    const fresh = createWasmBackend(wasmModule);
    const rules: RuleText[] = [
      { allow: true, pattern: '/a*b$' },
      { allow: false, pattern: '/a*%C3%A9*b' },
      { allow: true, pattern: '/aaaa' },
      { allow: false, pattern: '/a' },
      { allow: true, pattern: '/*é$' },
      { allow: false, pattern: '/*?q=' },
      { allow: true, pattern: '/b' },
      { allow: false, pattern: '/' },
    ];
    const longUrls = [
      `/${'a'.repeat(75_000)}b`,
      `http://h.com/${'a'.repeat(70_001)}`,
      `/${'é'.repeat(71_000)}`,
      `/a${'ツ'.repeat(36_000)}é${'a'.repeat(36_000)}b`,
      `/b${'ab'.repeat(40_000)}?q=1`,
      `/${'a'.repeat(80_000)}#${'b'.repeat(10)}`,
    ];
    const shortUrls = ['/a', '/aaaa', '/b', '/ab', '/aéb', '/é', '/x?q=', 'http://h.com/b', '/robots.txt', '/', '/a%C3%A9b', '/zz'];
    const urls: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      urls.push(
        i % 1_700 === 5 || i === 4_095 || i === 4_096
          ? (longUrls[i % longUrls.length] as string)
          : `${shortUrls[i % shortUrls.length] as string}${i % 7 === 0 ? '' : String(i)}`,
      );
    }
    expect(urls.filter((url) => url.length > 70_000).length).toBeGreaterThanOrEqual(6);

    for (const normalizeUrl of [true, false]) {
      for (const robotsTxtAllowed of [true, false]) {
        const bytecode = compile(rules, 'rfc9309', { normalizeUrl, robotsTxtAllowed, pathEndsAtNul: !normalizeUrl });
        const loaded = fresh.load(bytecode);
        const out = new Uint8Array(urls.length).fill(7);
        loaded.decideMany(urls, out);
        const expected = urls.map((url) => referenceVerdict(bytecode, url));
        const mismatches = urls.flatMap((url, i) => (out[i] === expected[i] ? [] : [`${i}: ${url.slice(0, 40)}… got ${String(out[i])}`]));
        expect(mismatches).toEqual([]);
        for (const url of longUrls) expect(loaded.query(url, QUERY_URL)).toBe(decide(bytecode, encoder.encode(url)));
        loaded.free();
      }
    }
  });

  it('decides single URLs whose UTF-8 outgrows the input region, each longer than the last', () => {
    // Three-byte characters: a URL of n UTF-16 units can take 3n bytes, and percent-normalizing them
    // triples that again in the scratch region (docs/design.md#memory, the preallocated input region).
    const fresh = createWasmBackend(wasmModule);
    const bytecode = compile(
      [
        { allow: true, pattern: '/ツ*ツa$' },
        { allow: false, pattern: '/ツ*%E3%83%84*é' },
        { allow: true, pattern: '/*b$' },
        { allow: false, pattern: '/ツ' },
      ],
      'rfc9309',
      RFC9309_FLAGS,
    );
    const loaded = fresh.load(bytecode);
    const urls = [22_000, 40_000, 90_000].flatMap((length) => [
      `/${'ツ'.repeat(length)}a`,
      `http://h.com/${'ツ'.repeat(length)}é`,
      `/${'ツ'.repeat(length)}`,
      `/${'\uD800'.repeat(length)}b`,
      `/${'%e3%83%84'.repeat(length / 10)}ツa`,
    ]);
    for (const url of urls) expect(loaded.query(url, QUERY_URL)).toBe(decide(bytecode, encoder.encode(url)));
    loaded.free();
  });
});

describe('freeing a ruleset gives its memory back', () => {
  it('reuses the memory of freed rulesets across 1,000 load/free cycles', () => {
    // Built by hand rather than with createWasmBackend so that the test can watch linear memory itself.
    const instance = new WebAssembly.Instance(wasmModule, {});
    const memory = instance.exports.memory;
    if (!(memory instanceof WebAssembly.Memory)) throw new TypeError('the matcher exports no memory');
    const backend = new WasmBackend(instance);

    const small = compile([{ allow: false, pattern: '/a*b$' }], 'rfc9309', RFC9309_FLAGS);
    const large = compile(
      Array.from({ length: 300 }, (_, i) => ({ allow: i % 2 === 0, pattern: `/${'ab'.repeat(i % 40)}*${String(i)}$` })),
      'rfc9309',
      RFC9309_FLAGS,
    );
    // One warm-up round settles the working set (two large and one small ruleset at a time); a ruleset
    // loaded after it and kept stays above the freed space, so the cycles must reuse freed blocks rather
    // than the untouched memory at the top.
    const warm = [backend.load(large), backend.load(small), backend.load(large)];
    const kept = backend.load(small);
    for (const ruleset of warm) ruleset.free();
    const baselineInUse = backend.bytesInUse;
    const baselineMemory = memory.buffer.byteLength;

    let peakInUse = 0;
    for (let cycle = 0; cycle < 1_000; cycle++) {
      const first = backend.load(cycle % 3 === 0 ? large : small);
      const second = backend.load(large);
      const third = backend.load(small);
      expect(second.query('/abab*7', QUERY_URL)).toBe(decide(large, encoder.encode('/abab*7')));
      expect(kept.query('/a/b', QUERY_URL)).toBe(0);
      peakInUse = Math.max(peakInUse, backend.bytesInUse);
      // Free in an order that varies, so that coalescing of neighbours is exercised both ways.
      const order = cycle % 2 === 0 ? [first, second, third] : [third, first, second];
      for (const ruleset of order) ruleset.free();
      expect(backend.bytesInUse).toBe(baselineInUse);
    }
    // Each block: the bytecode, the 16 bytes past it that the matcher's vector reads may touch, rounded up to 16.
    expect(peakInUse).toBeLessThanOrEqual(baselineInUse + 2 * large.byteLength + small.byteLength + 3 * (16 + 16));
    expect(memory.buffer.byteLength).toBe(baselineMemory);
    kept.free();
  });
});

// ---------------------------------------------------------------------------------------------------------
// The oracle: the matching rule read straight from the definition (RFC 9309 §2.2.2, Google's matcher):
// anchored at the start, `*` any run of characters, a final `$` anchors at the end, everything else literal.

function oracleRegExp(pattern: string): RegExp {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const source = Array.from(body, (char) => (char === '*' ? '[\\s\\S]*' : char.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&'))).join('');
  return new RegExp(`^${source}${anchored ? '$' : ''}`);
}

/** The bytes as a string of code units 0–255, so that a regular expression compares bytes. */
function latin1(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => String.fromCharCode(byte)).join('');
}

/** The index of the first rule (in table order) whose pattern matches `path`, or -1. */
function oracleFirstMatch(patterns: readonly string[], path: string): number {
  return patterns.findIndex((pattern) => oracleRegExp(pattern).test(path));
}

// Plain paths: one leading `/`, then none of what makes path extraction or normalization kick in, but
// NUL, which the google profile's path ends at.
const PLAIN_TOKENS = ['/', 'a', 'a', 'b', '.', '=', '&', '2', 'F', '*', '$', 'ab', 'aab', 'ba', '\u0000'] as const;
const plainPath = fc
  .array(fc.constantFrom(...PLAIN_TOKENS), { maxLength: 12 })
  .map((parts) => `/${parts.join('')}`)
  .filter((path) => !path.startsWith('//'));
const plainPattern = fc
  .array(fc.constantFrom(...PLAIN_TOKENS, '*', '**', '$', '$'), { maxLength: 10 })
  .map((parts) => `/${parts.join('')}`);

// What the path entry takes as it stands and the string entry would read as a URL: leading "//", "#",
// "?", ";", "://", no leading slash at all.
const PATH_ENTRY_TOKENS = [...PLAIN_TOKENS, '//', '#', '#a', '?', '?a=b', ';', '://', 'h.com/'] as const;
const pathEntryPath = fc.array(fc.constantFrom(...PATH_ENTRY_TOKENS), { maxLength: 12 }).map((parts) => parts.join(''));

/** What a matcher must match for the path entry: the text as it stands, `/` in front when missing. */
function oraclePathEntry(path: string, pathEndsAtNul: boolean): string {
  const withSlash = path.startsWith('/') ? path : `/${path}`;
  const nul = withSlash.indexOf('\u0000');
  return pathEndsAtNul && nul >= 0 ? withSlash.slice(0, nul) : withSlash;
}

describe('both matchers agree with a regular-expression oracle', () => {
  const backend = createWasmBackend(wasmModule);

  // spec: Google's robots.txt spec (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt), "URL matching based on path values". A plain path is its own path
  // through the URL entry; through the path entry (a URL object's pathname + search) any text is matched as
  // it stands, so nothing in it may be read as a host or a fragment. Either way, up to a NUL where the flag
  // says the path ends there.
  it.each([
    {
      entry: 'the URL entry, on plain paths',
      paths: plainPath,
      executor: decide,
      wasm: (loaded: LoadedRuleset, path: string) => loaded.query(path, QUERY_URL),
    },
    {
      entry: 'the path entry, on any text',
      paths: pathEntryPath,
      executor: decidePath,
      wasm: (loaded: LoadedRuleset, path: string) => loaded.query(path, QUERY_PATH),
    },
  ])('decides by the first rule in table order whose pattern matches the path: $entry', ({ paths: pathArbitrary, executor, wasm }) => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ allow: fc.boolean(), pattern: plainPattern }), { maxLength: 8 }),
        fc.array(pathArbitrary, { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        fc.boolean(),
        automatonMode,
        deepPieceDepth,
        (rules, paths, normalizeUrl, pathEndsAtNul, automaton, depth) => {
          const bytecode = compile(rules, 'rfc9309', {
            normalizeUrl,
            robotsTxtAllowed: false,
            pathEndsAtNul,
            automaton,
            deepPieceDepth: depth,
          });
          const loaded = backend.load(bytecode);
          const patterns = rules.map((rule) => latin1(encoder.encode(rule.pattern)));
          for (const path of paths) {
            const expected = oracleFirstMatch(patterns, latin1(encoder.encode(oraclePathEntry(path, pathEndsAtNul))));
            const what = `${JSON.stringify(patterns)} on ${JSON.stringify(path)}`;
            expect(executor(bytecode, encoder.encode(path)), what).toBe(expected);
            expect(wasm(loaded, path), `wasm: ${what}`).toBe(expected);
          }
          loaded.free();
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('pins the oracle itself on hand-checked cases', () => {
    expect(oracleFirstMatch(['/a*b$'], '/a/x/b')).toBe(0);
    expect(oracleFirstMatch(['/a*b$'], '/a/x/bc')).toBe(-1);
    expect(oracleFirstMatch(['/a$b'], '/a$bc')).toBe(0);
    expect(oracleFirstMatch(['/a.b'], '/axb')).toBe(-1);
    expect(oracleFirstMatch(['/x', '/a', '/'], '/ab')).toBe(1);
    expect(oracleFirstMatch(['/a*$'], '/abc')).toBe(0);
    expect(oraclePathEntry('//h.com/x#y', false)).toBe('//h.com/x#y');
    expect(oraclePathEntry('?a', false)).toBe('/?a');
    expect(oraclePathEntry('', false)).toBe('/');
    expect(oraclePathEntry('/a\u0000b', true)).toBe('/a');
    expect(oraclePathEntry('\u0000a', true)).toBe('/');
    expect(oraclePathEntry('/a\u0000b', false)).toBe('/a\u0000b');
  });
});

describe('the scan tier decides as the indexed tier, both matchers and the oracle', () => {
  const backend = createWasmBackend(wasmModule);

  // src/compile/bytecode.ts, "The scan tier": no index, every rule in the pattern list, plain prefixes too.
  it('picks the same deciding rule from a scan block as from the indexed block, and indexes it into that very block', () => {
    fc.assert(
      fc.property(scenario, ({ rules, form, flags, urls }) => {
        const indexed = compile(rules, form, flags);
        const { normalizeUrl, robotsTxtAllowed, pathEndsAtNul } = flags;
        const scan = compile(rules, form, { normalizeUrl, robotsTxtAllowed, pathEndsAtNul, tier: 'scan' });
        // Indexing a scan block writes what compiling the rules indexed writes (the automaton when 'auto'
        // wants it); rules the rule-by-rule matcher would not decide in bounded time get no scan block.
        const auto = compile(rules, form, { normalizeUrl, robotsTxtAllowed, pathEndsAtNul });
        expect(tierOf(scan) === 'scan' ? indexBytecode(scan) : scan).toEqual(auto);
        const loadedScan = backend.load(scan);
        const loadedIndexed = backend.load(indexed);
        try {
          for (const url of urls) {
            const what = JSON.stringify(url);
            const expected = decide(indexed, encoder.encode(url));
            expect(loadedScan.query(url, QUERY_URL), `scan ${what}`).toBe(expected);
            expect(loadedIndexed.query(url, QUERY_URL), `indexed ${what}`).toBe(expected);
            expect(decideRuleByRule(scan, encoder.encode(url)), `rule by rule ${what}`).toBe(expected);
            expect(loadedScan.query(url, QUERY_PATH), `scan path ${what}`).toBe(decidePath(indexed, encoder.encode(url)));
          }
          const out = new Uint8Array(urls.length);
          loadedScan.decideMany(urls, out);
          expect(Array.from(out)).toEqual(urls.map((url) => referenceVerdict(indexed, url)));
        } finally {
          loadedScan.free();
          loadedIndexed.free();
        }
      }),
      { numRuns: 3000 },
    );
  });

  // spec: Google's robots.txt spec, "URL matching based on path values": the first rule in table order
  // whose pattern matches decides, which is all a scan block says.
  it('decides a scan block by the first rule in table order whose pattern matches the path (the oracle)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ allow: fc.boolean(), pattern: plainPattern }), { maxLength: 8 }),
        fc.array(plainPath, { minLength: 1, maxLength: 8 }),
        (rules, paths) => {
          const scan = compile(rules, 'rfc9309', { normalizeUrl: true, robotsTxtAllowed: false, pathEndsAtNul: false, tier: 'scan' });
          const loaded = backend.load(scan);
          const patterns = rules.map((rule) => latin1(encoder.encode(rule.pattern)));
          for (const path of paths) {
            const expected = oracleFirstMatch(patterns, latin1(encoder.encode(oraclePathEntry(path, false))));
            expect(loaded.query(path, QUERY_URL), `${JSON.stringify(patterns)} on ${JSON.stringify(path)}`).toBe(expected);
          }
          loaded.free();
        },
      ),
      { numRuns: 2000 },
    );
  });
});

// ---------------------------------------------------------------------------------------------------------
// Wildcard-heavy rulesets (docs/design.md#hostile-input): many rules built from a few shared pieces,
// in every order, some ending in `$`, against long URLs made of the same pieces. The piece automaton
// (src/compile/bytecode.ts) decides them all in one pass over the path; rule by rule, the table decides them
// one at a time, searching each piece leftmost: both must pick the same rule, and on short paths the oracle's.

/** Pieces that overlap, repeat and are suffixes of one another ("a", "aa", "baa"…), and `$` inside a pattern. */
const SHARED_PIECES = ['a', 'a', 'b', 'ab', 'ba', 'aa', 'aab', 'baa', 'aaaa', 'abab', 'b/', '/a', 'aaaaaaab', '?x=', 'a$', '.'] as const;

const sharedPiecePattern: fc.Arbitrary<string> = fc
  .record({
    first: fc.constantFrom('/', '/', '/', '/a', '', '/b', '/ab'),
    pieces: fc.array(fc.constantFrom(...SHARED_PIECES), { minLength: 1, maxLength: 6 }),
    anchored: fc.boolean(),
  })
  .map(({ first, pieces, anchored }) => `${first}*${pieces.join('*')}${anchored ? '$' : ''}`);

const sharedPieceRules: fc.Arbitrary<RuleText[]> = fc.array(
  fc.record({
    allow: fc.boolean(),
    pattern: fc.oneof(
      { weight: 8, arbitrary: sharedPiecePattern },
      { weight: 1, arbitrary: fc.constantFrom('/', '/a', '/ab', '/b$', '/aaa') },
    ),
  }),
  { minLength: 1, maxLength: 80 },
);

/** `/` and then `rest`, never starting with `//` (which the URL entry would read as a host). */
function asPath(rest: string): string {
  return rest.startsWith('/') ? `/x${rest}` : `/${rest}`;
}

/** Paths of the same pieces: short ones (the oracle checks those too) and long repetitions. */
const sharedPiecePath: fc.Arbitrary<string> = fc.oneof(
  fc.array(fc.constantFrom(...SHARED_PIECES, 'x', '/'), { maxLength: 25 }).map((parts) => asPath(parts.join(''))),
  fc
    .tuple(
      fc.array(fc.constantFrom(...SHARED_PIECES, 'x', '/'), { minLength: 1, maxLength: 10 }),
      fc.integer({ min: 20, max: 800 }),
      fc.constantFrom('', 'b', 'ab', 'a$', '?x=1', 'aaaaaaab'),
    )
    .map(([parts, times, end]) => asPath(`${parts.join('').repeat(times).slice(0, 4000)}${end}`)),
);

describe('wildcard-heavy rulesets: the piece automaton decides as rule-by-rule matching does', () => {
  const backend = createWasmBackend(wasmModule);

  // spec: Google's robots.txt spec, "URL matching based on path values" (`*` any run, `$` the end);
  // docs/design.md#matching: the most specific rule wins, whatever the cost of finding it.
  it('picks the same rule with many rules of shared pieces, out of order, some ending in `$`, on long paths', () => {
    fc.assert(
      fc.property(
        sharedPieceRules,
        fc.array(sharedPiecePath, { minLength: 1, maxLength: 5 }),
        fc.constantFrom<AutomatonMode>('always', 'auto'),
        deepPieceDepth,
        (rules, paths, automaton, depth) => {
          const options = { normalizeUrl: false, robotsTxtAllowed: false, pathEndsAtNul: false, automaton, deepPieceDepth: depth };
          const bytecode = compile(rules, 'raw', options);
          const loaded = backend.load(bytecode);
          const patterns = rules.map((rule) => latin1(encoder.encode(rule.pattern)));
          try {
            for (const path of paths) {
              const bytes = encoder.encode(path);
              const expected = decideRuleByRule(bytecode, bytes);
              const what = `${String(rules.length)} rules on ${JSON.stringify(path.slice(0, 60))}… (${String(path.length)})`;
              expect(loaded.query(path, QUERY_URL), `wasm: ${what}`).toBe(expected);
              expect(decide(bytecode, bytes), `TypeScript: ${what}`).toBe(expected);
              // Regular expressions backtrack through every `*`: only short paths go to the oracle.
              if (path.length <= 120) expect(expected, `oracle: ${what}`).toBe(oracleFirstMatch(patterns, latin1(bytes)));
            }
          } finally {
            loaded.free();
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  // A module given no work area (or one too small for a ruleset's automaton) decides that ruleset's
  // automaton rules one by one instead: the same rule, only slower.
  it('picks the same rule without a work area, trying the automaton rules one by one', () => {
    const exports = new WebAssembly.Instance(wasmModule, {}).exports as unknown as {
      memory: WebAssembly.Memory;
      heapBase: () => number;
      decide: (ruleset: number, input: number, length: number, scratch: number) => number;
    };
    fc.assert(
      fc.property(sharedPieceRules, fc.array(sharedPiecePath, { minLength: 1, maxLength: 5 }), (rules, paths) => {
        const options = { normalizeUrl: false, robotsTxtAllowed: false, pathEndsAtNul: false, automaton: 'always' as const };
        const bytecode = compile(rules, 'raw', options);
        const inputs = paths.map((path) => encoder.encode(path));
        const longest = Math.max(...inputs.map((input) => input.length));
        const ruleset = Math.ceil(exports.heapBase() / 16) * 16;
        const input = ruleset + Math.ceil((bytecode.length + 16) / 16) * 16;
        const scratch = input + Math.ceil((longest + 16) / 16) * 16;
        const needed = scratch + 3 * longest + 1 + 16;
        const { memory } = exports;
        if (needed > memory.buffer.byteLength) memory.grow(Math.ceil((needed - memory.buffer.byteLength) / 65536));
        new Uint8Array(memory.buffer).set(bytecode, ruleset);
        for (const bytes of inputs) {
          new Uint8Array(memory.buffer).set(bytes, input);
          expect(exports.decide(ruleset, input, bytes.length, scratch)).toBe(decideRuleByRule(bytecode, bytes));
        }
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('the uncompiled tier decides as the compiled tiers', () => {
  /** Patterns of Google's index.html rule (an allow of `…/index.htm…` also allows `…/$`), escaped and not. */
  const indexPagePattern = fc.constantFrom(
    '/index.html',
    '/a/index.htm',
    '/*/index.html$',
    '/a/index.htm%41',
    '/é/index.html',
    '/a%2f/index.html',
  );
  const rules = (urls: readonly string[], minLength = 0, maxLength = 10): fc.Arbitrary<RuleText[]> =>
    fc.array(
      fc.oneof(
        { weight: 2, arbitrary: ruleText },
        { weight: 2, arbitrary: derivedRule(urls) },
        { weight: 1, arbitrary: fc.record({ allow: fc.constant(true), pattern: indexPagePattern }) },
      ),
      { minLength, maxLength },
    );

  // src/engine/record-matcher.ts prepares a ruleset's rules on its second verdict: held here on rulesets of
  // more rules than the property above makes, the index.html rule's derived patterns among them.
  it("gives the indexed tier's verdict on random files of many rules, asked several URLs in turn", () => {
    fc.assert(
      fc.property(
        fc.array(urlText, { minLength: 2, maxLength: RECORD_CHECKS }).chain((urls) => fc.tuple(rules(urls, 16, 40), fc.constant(urls))),
        fc.constantFrom('rfc9309', 'google', 'yandex'),
        ([ruleTexts, urls], profile) => {
          const body = `User-agent: *\n${ruleTexts.map((rule) => `${rule.allow ? 'Allow' : 'Disallow'}: ${rule.pattern}`).join('\n')}\n`;
          const indexed = parseRobotsTxt(body, { profile }).forAgent('ExampleBot', { indexed: true });
          const asked = parseRobotsTxt(body, { profile }).forAgent('ExampleBot');
          for (const url of urls) {
            expect(asked.isAllowed(url), `${JSON.stringify(url)} asked in turn in ${JSON.stringify(body)}`).toBe(indexed.isAllowed(url));
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  // src/engine/record-matcher.ts: the first verdicts of a ruleset, from its rules as written, with nothing
  // compiled. Each URL is asked of rules fresh from the file, so that each is a first verdict; the answer
  // must be the indexed tier's, which the tests above hold to the reference executor and the oracle.
  it("gives the indexed tier's verdict on random files and URLs, through the URL string and the URL object entries", () => {
    let uncompiled = 0;
    fc.assert(
      fc.property(
        fc.array(urlText, { minLength: 1, maxLength: 6 }).chain((urls) => fc.tuple(rules(urls), fc.constant(urls))),
        fc.constantFrom('rfc9309', 'google', 'yandex'),
        ([ruleTexts, urls], profile) => {
          const body = `User-agent: *\n${ruleTexts.map((rule) => `${rule.allow ? 'Allow' : 'Disallow'}: ${rule.pattern}`).join('\n')}\n`;
          const indexed = parseRobotsTxt(body, { profile }).forAgent('ExampleBot', { indexed: true });
          // One ruleset asked every URL in turn: its verdicts after the first read the rules as prepared once
          // (VerdictRules), up to RECORD_CHECKS of them, before it compiles.
          const asked = parseRobotsTxt(body, { profile }).forAgent('ExampleBot');
          for (const url of [...urls, ...urls].slice(0, RECORD_CHECKS)) {
            expect(asked.isAllowed(url), `${JSON.stringify(url)} asked in turn in ${JSON.stringify(body)}`).toBe(indexed.isAllowed(url));
          }
          for (const url of urls) {
            const fresh = parseRobotsTxt(body, { profile }).forAgent('ExampleBot');
            // Rules of more pattern bytes than RECORD_MAX_PATTERN_BYTES are compiled at once.
            if (fresh.tier === 'uncompiled') uncompiled++;
            expect(fresh.isAllowed(url), `${JSON.stringify(url)} in ${JSON.stringify(body)}`).toBe(indexed.isAllowed(url));
            if (!URL.canParse(url, 'http://h.com')) continue;
            const object = new URL(url, 'http://h.com');
            const freshObject = parseRobotsTxt(body, { profile }).forAgent('ExampleBot');
            expect(freshObject.isAllowed(object), `${object.href} in ${JSON.stringify(body)}`).toBe(indexed.isAllowed(object));
          }
        },
      ),
      { numRuns: 3000 },
    );
    expect(uncompiled).toBeGreaterThan(3000);
  });
});

// Percent-normalization moves the bytes that stay as they are 16 at a time (assembly/url-path.ts): escapes and
// non-ASCII characters before, across and after a 16-byte boundary, alone and in runs, must come out as the
// reference executor's normalization makes them.
const NORMALIZE_TOKENS = [
  'a',
  'B',
  '/',
  '-',
  'xyzxyzxyzxyzxyz/',
  '%',
  '%4',
  '%41',
  '%2f',
  '%2F',
  '%e9',
  '%C3%A9',
  '%7e',
  'é',
  '中',
  '😀',
  '%%',
  '?',
  '=',
];

describe('percent-normalization, 16 bytes at a time', () => {
  const backend = createWasmBackend(wasmModule);

  it('decides paths with escapes and non-ASCII bytes at every offset as the reference executor does', () => {
    const tokens = fc.array(fc.constantFrom(...NORMALIZE_TOKENS), { maxLength: 24 });
    fc.assert(
      fc.property(tokens, fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), fc.boolean(), (parts, cuts, google) => {
        const path = `/${parts.join('')}`;
        // Rules cut from the path itself, at token boundaries, so that some match only once normalized.
        const rules = cuts.flatMap((cut, i) => {
          const prefix = `/${parts.slice(0, cut % (parts.length + 1)).join('')}`;
          return [
            { allow: i % 2 === 0, pattern: prefix },
            { allow: i % 2 === 1, pattern: `${prefix}$` },
            { allow: true, pattern: `/*${prefix.slice(Math.min(prefix.length, 3))}` },
          ];
        });
        const flags = google ? { normalizeUrl: false, robotsTxtAllowed: false, pathEndsAtNul: true } : RFC9309_FLAGS;
        const bytecode = compile(rules, google ? 'google' : 'rfc9309', flags);
        const loaded = backend.load(bytecode);
        try {
          for (const url of [path, `https://example.com${path}`, path.slice(1)]) {
            expect(loaded.query(url, QUERY_URL), JSON.stringify(url)).toBe(decide(bytecode, encoder.encode(url)));
            expect(loaded.query(url, QUERY_PATH), `path ${JSON.stringify(url)}`).toBe(decidePath(bytecode, encoder.encode(url)));
          }
        } finally {
          loaded.free();
        }
      }),
      { numRuns: 3000 },
    );
  });
});
