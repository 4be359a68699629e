/**
 * The WebAssembly lexer (assembly/lexer.ts) against the TypeScript reader (src/parse/records.ts), which is
 * the reference: the same records, in the same order, for real files and for random bytes built to hit
 * every rule of docs/design.md#reading-a-file (BOM, CR/LF/CRLF, NUL, comments, whitespace, the colon-less
 * form, the 16,663-byte line cap).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createWasmBackend } from '../../src/engine/wasm-backend.js';
import { MAX_LINE_BYTES } from '../../src/layout.js';
import { readRecords, type RecordHandler } from '../../src/parse/records.js';
import { describeCorpus, loadCorpus } from '../support/corpus.js';

const backend = createWasmBackend(new WebAssembly.Module(readFileSync(new URL('../../build/matcher.wasm', import.meta.url))));
const latin1 = new TextDecoder('latin1');

/** Every call a reader makes, as text, so that two readers can be compared with one toEqual. */
function recordsOf(read: (body: Uint8Array, handler: RecordHandler) => void, body: Uint8Array): string[] {
  const calls: string[] = [];
  const text = (start: number, end: number): string => latin1.decode(body.subarray(start, end));
  read(body, {
    userAgent: (line, start, end) => void calls.push(`${line} user-agent ${text(start, end)}`),
    rule: (line, allow, start, end) => void calls.push(`${line} ${allow ? 'allow' : 'disallow'} ${text(start, end)}`),
    sitemap: (line, start, end) => void calls.push(`${line} sitemap ${text(start, end)}`),
    other: (line, keyStart, keyEnd, start, end) => void calls.push(`${line} other ${text(keyStart, keyEnd)}=${text(start, end)}`),
    malformed: (line) => void calls.push(`${line} malformed`),
    lineCut: (line) => void calls.push(`${line} cut`),
  });
  return calls;
}

function expectSameRecords(body: Uint8Array): void {
  expect(recordsOf(backend.readRecords, body)).toEqual(recordsOf(readRecords, body));
}

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('the WebAssembly lexer agrees with the TypeScript reader', () => {
  it('on hand-picked lines', () => {
    for (const text of [
      '',
      '\uFEFFUser-agent: a\nDisallow: /x',
      'User-agent: a\r\nAllow: /y\r\rDisallow\t/z\n\r',
      'user agent: b # comment\n  # only a comment\nnot a record\nkey value extra\n: empty key\n',
      'Disallow: /a\u0000b\nSitemap: https://e.com/s.xml\nCrawl-delay: 1\nDISALLOWED:/q',
      `Disallow: /${'a'.repeat(20_000)}\n${' '.repeat(17_000)}\nAllow: /`,
    ]) {
      expectSameRecords(encode(text));
    }
    expectSameRecords(Uint8Array.of(0xef, 0xbb, 0x55, 0x3a, 0x20, 0x78));
  });

  it('on random bytes made of the characters that matter', () => {
    const piece = fc.constantFrom(
      'User-agent',
      'useragent',
      'user agent',
      'Allow',
      'disallow',
      'Dissalow',
      'Sitemap',
      'site-map',
      'Host',
      'x',
      ':',
      ' ',
      '\t',
      '\v',
      '\f',
      '\r',
      '\n',
      '\r\n',
      '\u0000',
      '#',
      '/',
      '*',
      '$',
      'é',
      '\uFEFF',
      'a'.repeat(40),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), fc.boolean(), (pieces, longLine) => {
        const text = pieces.join('') + (longLine ? `\nDisallow: /${'b'.repeat(16_700)}` : '');
        expectSameRecords(encode(text));
      }),
      { numRuns: 1_500 },
    );
  });

  // assembly/lexer.ts reads a line 16 bytes at a time from its start, finding the content's end (CR, LF, NUL,
  // `#`) and the first colon in one pass: every position of those bytes within and across a block.
  it('wherever a line end, `#`, NUL or colon falls in or across a 16-byte block', () => {
    for (let key = 0; key <= 34; key++) {
      for (const lead of ['', ' ', '\t'.repeat(15), ' '.repeat(16)]) {
        const name = 'Disallow'.padEnd(key, 'x').slice(0, Math.max(key, 1));
        for (const tail of ['', ': /a', ':/' + 'v'.repeat(key), ' # c:d', '#', '\u0000: /z', ' /p', ' /p q']) {
          for (const end of ['\n', '\r', '\r\n', '\n\r', '']) {
            const line = lead + name + tail;
            expectSameRecords(encode(`${line}${end}${line}${end}x${'#'.repeat(key)}:y${end}`));
          }
        }
      }
    }
  });

  it('on lines of exactly the line limit and one byte past it, whatever ends them and wherever the limit cuts', () => {
    const limit = MAX_LINE_BYTES;
    const run = (char: string, count: number): string => char.repeat(Math.max(0, count));
    for (const length of [limit - 1, limit, limit + 1, limit + 15, limit + 16, limit + 17]) {
      for (const end of ['\n', '\r\n', '\r', '']) {
        for (const line of [
          `Disallow: /${run('a', length - 11)}`,
          `Allow:${run(' ', length - 6)}`, // whitespace-only after the key, cut
          run(' ', length), // a blank line that is cut: reported
          `${run('k', limit)}:${run('v', length - limit - 1)}`, // the colon just past the limit
          `${run('k', limit - 1)}:${run('v', length - limit)}`, // the colon the limit's last byte
          `User-agent: ${run('b', limit - 12)}#${run('c', length - limit)}`, // `#` the limit's first excluded byte
          `Sitemap: ${run('s', limit - 9)}\u0000${run('n', length - limit)}`, // NUL past the limit
          `Disallow /${run('d', length - 10)}`, // the colon-less form, cut
        ]) {
          const body = line.slice(0, length);
          expectSameRecords(encode(`${body}${end}Allow: /after${end}${body}`));
        }
      }
    }
  });

  it('on CR, LF, CRLF, LF CR and NUL in every arrangement of short lines', () => {
    const ends = ['\n', '\r', '\r\n', '\n\r', '\u0000', '\u0000\n', '\r\u0000\n'];
    for (const a of ends)
      for (const b of ends) for (const c of ends) expectSameRecords(encode(`Allow: /a${a}${b}Disallow: /b${c}#${a}x:y`));
  });

  it('on `#` inside keys and values, and whitespace-only lines of every kind and length', () => {
    for (const text of [
      'Dis#allow: /x\nDisallow#: /x\nDisallow: /a#b\nDisallow: #/c\n#Disallow: /d\n  # Allow: /e',
      ' \t\v\f \n\t\nDisallow: /x \t\v\f\n\v\n\f\n',
      `${' \t'.repeat(8)}\n${' \t\v\f'.repeat(40)}\nAllow: /y\n${' '.repeat(15)}\n${' '.repeat(17)}`,
      'Allow:\nAllow: \nAllow:\t\nAllow : \n: /x\n :\n',
    ]) {
      expectSameRecords(encode(text));
    }
  });

  // Keys are classified 8 bytes at a time with bit 5 set (assembly/lexer.ts): every spelling in several cases,
  // one byte short (not a prefix), with more after it (still a prefix), and bytes that set bit 5 would
  // alias to a letter if the fold were applied to anything but a key's bytes.
  it('classifies every accepted spelling by prefix, in any ASCII case, and nothing else', () => {
    const spellings = [
      'user-agent',
      'useragent',
      'user agent',
      'allow',
      'disallow',
      'dissallow',
      'dissalow',
      'disalow',
      'diasllow',
      'disallaw',
      'sitemap',
      'site-map',
    ];
    const keys = spellings.flatMap((spelling) => [
      spelling,
      spelling.toUpperCase(),
      spelling.replace(/[aeiou]/g, (vowel) => vowel.toUpperCase()),
      spelling.slice(0, -1),
      `${spelling.slice(0, -1)}x`,
      `${spelling.slice(0, -2)}x${spelling.slice(-1)}`,
      `${spelling}s`,
      `${spelling}-extra long key`,
      ` ${spelling}`,
      spelling.replace('-', '\t'),
      spelling.replace(' ', '\t'),
      spelling.replace('-', '_'),
      spelling.replace('-', '\r'),
      spelling.replace(/a/, '\u00e1'),
      spelling.replace(/a/, '@'),
      spelling.replace(/s/, '\u00f3'),
    ]);
    for (const key of [...keys, 'a', 'al', 'all', 'allo', 'user', 'site', 'dis', 'Host', '\u00c1llow', '\u00c4isallow']) {
      expectSameRecords(encode(`${key}: /v\n${key} /w\n${key}:\n${key}\n`));
    }
    // Bytes that are not UTF-8 at all, in and around keys.
    expectSameRecords(Uint8Array.of(0xc1, 0x4c, 0x4c, 0x4f, 0x57, 0x3a, 0x2f, 0x0a, 0x41, 0x4c, 0x4c, 0x4f, 0x57, 0xff, 0x3a, 0x80));
  });

  it('skips a byte order mark, whole or partial, only at the start', () => {
    for (const mark of [[], [0xef], [0xef, 0xbb], [0xef, 0xbb, 0xbf], [0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], [0xbb, 0xbf]]) {
      for (const text of ['User-agent: *\nDisallow: /', ': x', '', '\n', '#c', 'Disallow /x']) {
        expectSameRecords(Uint8Array.of(...mark, ...encode(text)));
      }
    }
  });

  it('on random bytes drawn mostly from the bytes the lexer looks for, in lines around 16 bytes long', () => {
    const byte = fc.oneof(
      { arbitrary: fc.constantFrom(0x0a, 0x0d, 0x00, 0x23, 0x3a, 0x20, 0x09, 0x0b, 0x0c), weight: 3 },
      { arbitrary: fc.constantFrom(...encode('DisalowUSERAGNTitmp-')), weight: 4 },
      { arbitrary: fc.integer({ min: 0, max: 255 }), weight: 1 },
    );
    fc.assert(
      fc.property(fc.array(fc.array(byte, { maxLength: 40 }), { maxLength: 30 }), (lines) => {
        expectSameRecords(Uint8Array.from(lines.flatMap((line) => [...line, 0x0a])));
        expectSameRecords(Uint8Array.from(lines.flat()));
      }),
      { numRuns: 3_000 },
    );
  });

  it('on more records than one chunk holds', () => {
    expectSameRecords(encode('Disallow: /a\nnot a record\n'.repeat(5_000)));
  });
});

describeCorpus('the WebAssembly lexer on the real corpus', () => {
  it('gives the TypeScript reader’s records for every file', () => {
    for (const { name, body } of loadCorpus()) {
      const limited = body.subarray(0, 512_000);
      const wasm = recordsOf(backend.readRecords, limited);
      const reference = recordsOf(readRecords, limited);
      if (wasm.length !== reference.length || wasm.some((call, i) => call !== reference[i])) {
        expect(wasm, name).toEqual(reference);
      }
    }
  });
});
