/**
 * The WebAssembly lexer (assembly/lexer.ts) against the TypeScript reader (src/parse/records.ts), which is
 * the reference: the same records, in the same order, for real files and for random bytes built to hit
 * every rule of DESIGN §2 "Reading the file" (BOM, CR/LF/CRLF, NUL, comments, whitespace, the colon-less
 * form, the 16,663-byte line cap).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createWasmBackend } from '../src/engine/wasm-backend.js';
import { readRecords, type RecordHandler } from '../src/parse/records.js';
import { describeCorpus, loadCorpus } from './support/corpus.js';

const backend = createWasmBackend(new WebAssembly.Module(readFileSync(new URL('../build/matcher.wasm', import.meta.url))));
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
