/**
 * URL lines as bytes, for the suites of the bytes entries (AgentRules.isAllowedBytes and isAllowedUtf8),
 * which hold them to the string API: random robots files of rules that tell the readings apart, URL text,
 * and raw lines that are not UTF-8.
 */
import fc from 'fast-check';
import { concat } from '../../harness/bytes.mjs';

const encoder = new TextEncoder();
/** The WebAssembly matcher's standing input region (src/engine/wasm-backend.ts, INPUT_BYTES). */
export const INPUT_BYTES = 64 * 1024;

/** Lines joined by "\n" into one buffer, and each line's [start, end) in it. */
export function pack(lines: readonly Uint8Array[]): { bytes: Uint8Array; ranges: Uint32Array } {
  const bytes = new Uint8Array(lines.reduce((sum, line) => sum + line.length + 1, 0));
  const ranges = new Uint32Array(lines.length * 2);
  let at = 0;
  lines.forEach((line, i) => {
    bytes.set(line, at);
    ranges[2 * i] = at;
    ranges[2 * i + 1] = at + line.length;
    bytes[at + line.length] = 0x0a;
    at += line.length + 1;
  });
  return { bytes, ranges };
}

// ---------------------------------------------------------------------------------------------------------
// Generators: robots files of random rules, and URL lines biased toward what changes a verdict.

const PATTERN_TOKENS = [
  '/',
  '/',
  'a',
  'b',
  '.',
  '?',
  '=',
  '%',
  '%41',
  '%2F',
  '%e9',
  '%C3%A9',
  '%EF%BF%BD',
  '%FF',
  '*',
  '$',
  'é',
  'ツ',
  '\uFFFD',
  ';',
  'ab',
];
const pattern = fc
  .tuple(fc.constantFrom('/', '/', '/', '*', ''), fc.array(fc.constantFrom(...PATTERN_TOKENS), { maxLength: 6 }))
  .map(([head, body]) => head + body.join(''));
/** Rules that tell a U+FFFD from the bytes it replaced, and a dropped byte order mark from a kept one. */
const TELLING_RULES = [
  'Disallow: /*%EF%BF%BD',
  'Allow: /*%FF',
  'Disallow: /*%ED%A0%80',
  'Disallow: //',
  'Disallow: /*%EF%BB%BF',
  'Allow: /*%C3',
];
export const robotsFile = fc
  .tuple(fc.array(fc.tuple(fc.constantFrom('Allow', 'Disallow', 'Disallow'), pattern), { maxLength: 10 }), fc.subarray(TELLING_RULES))
  .map(([rules, telling]) => `User-agent: *\n${[...rules.map(([kind, p]) => `${kind}: ${p}`), ...telling].join('\n')}\n`);
export const profile = fc.constantFrom('rfc9309', 'google') as fc.Arbitrary<'rfc9309' | 'google'>;

const URL_TOKENS = [
  '/',
  '/',
  '/',
  'a',
  'b',
  'ab',
  '.',
  '?',
  '=',
  '&',
  '%',
  '%41',
  '%2F',
  '%e9',
  '%C3%A9',
  '%FF',
  '*',
  '$',
  '#',
  '#/a',
  ';',
  'é',
  'ツ',
  '😀',
  '\uFFFD',
  '\uFEFF',
  '\u0000',
  'robots.txt',
  ' ',
];
const urlPrefix = fc.constantFrom(
  '',
  '',
  '',
  'https://h.com',
  'http://h.com:8080',
  '//h.com',
  'h.com',
  '\uFEFF',
  '\uFEFF/x',
  '\uFEFF//h.com',
  '\uFEFF\uFEFF//h',
  'http://',
);
export const urlText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.tuple(urlPrefix, fc.array(fc.constantFrom(...URL_TOKENS), { maxLength: 12 })).map(([a, b]) => a + b.join('')),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom('', '/', '#', '?', '/robots.txt', 'https://h.com/private') },
);

/**
 * Byte runs that are not UTF-8, and some that are but are easy to get wrong: lone continuation bytes,
 * overlong forms, encoded surrogates, code points past U+10FFFF, sequences cut short, bytes never used.
 */
export const ODD_BYTES: readonly (readonly number[])[] = [
  [0x80],
  [0xbf],
  [0x80, 0x80], // lone continuation bytes
  [0xc0, 0xaf],
  [0xc1, 0xbf],
  [0xe0, 0x80, 0xaf],
  [0xe0, 0x9f, 0xbf],
  [0xf0, 0x80, 0x80, 0xaf],
  [0xf0, 0x8f, 0xbf, 0xbf], // overlong
  [0xed, 0xa0, 0x80],
  [0xed, 0xbf, 0xbf],
  [0xed, 0xa0, 0x80, 0xed, 0xb0, 0x80], // surrogates
  [0xf4, 0x90, 0x80, 0x80],
  [0xf5, 0x80, 0x80, 0x80],
  [0xf7, 0xbf, 0xbf, 0xbf], // past U+10FFFF
  [0xc3],
  [0xe2, 0x82],
  [0xf0, 0x9f, 0x98],
  [0xe2],
  [0xf0], // cut short
  [0xfe],
  [0xff],
  [0xc3, 0x2f],
  [0xe2, 0x82, 0x2f], // bytes never used; a lead followed by ASCII
  [0xc3, 0xa9],
  [0xed, 0x9f, 0xbf],
  [0xee, 0x80, 0x80],
  [0xf4, 0x8f, 0xbf, 0xbf],
  [0xef, 0xbf, 0xbd],
  [0xef, 0xbb, 0xbf], // valid
  [0x2f],
  [0x25],
  [0x23],
  [0x3f],
  [0x25, 0x46, 0x46],
];
const rawLine: fc.Arbitrary<Uint8Array> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(urlText, fc.array(fc.constantFrom(...ODD_BYTES), { maxLength: 6 }), urlText)
      .map(([a, odd, b]) => concat([encoder.encode(a), Uint8Array.from(odd.flat()), encoder.encode(b)])),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 24 }) },
  {
    weight: 1,
    arbitrary: fc.array(fc.constantFrom(...ODD_BYTES), { minLength: 1, maxLength: 8 }).map((runs) => Uint8Array.from(runs.flat())),
  },
);
export const line: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 2, arbitrary: urlText.map((text) => encoder.encode(text)) },
  { weight: 2, arbitrary: rawLine },
);

/** Lines about as long as the WebAssembly input region or longer, valid UTF-8 or not. */
export const longLine: fc.Arbitrary<Uint8Array> = fc
  .tuple(
    urlText,
    fc.constantFrom('a', 'é', '%41', '*', '/', 'ab?'),
    fc.integer({ min: INPUT_BYTES - 8, max: INPUT_BYTES * 2 }),
    fc.constantFrom([], [0xff], [0xed, 0xa0, 0x80], [0xc3]),
    urlText,
  )
  .map(([head, unit, bytes, odd, tail]) => {
    const body = encoder.encode(head + unit.repeat(Math.ceil(bytes / encoder.encode(unit).length)));
    return concat([body.subarray(0, bytes), Uint8Array.from(odd), encoder.encode(tail)]);
  });
