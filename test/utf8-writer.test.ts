/**
 * The writers that put a URL string into WebAssembly memory (src/engine/utf8-writer.ts): the hand-written
 * loop (browsers, workerd) and Node's Buffer (the inline entry in Node) must write exactly what a
 * TextEncoder writes, lone surrogates as U+FFFD included, at any offset and with nothing past the bytes they
 * report. The matcher's verdict tests run through whichever writer the entry chose; this holds the two
 * writers to one reference.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { handWrittenUtf8, nodeBufferUtf8, type Utf8WriterFactory } from '../src/engine/utf8-writer.js';

const encoder = new TextEncoder();
const nodeWriter = nodeBufferUtf8();

/** Strings of any UTF-16 units: ASCII, two- and three-byte characters, pairs, and surrogates alone. */
const textArbitrary = fc
  .array(
    fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.constantFrom('é', '中', '😀', '\ud800', '\udc00', '\udbff\udfff', '\ud83d', '%', '\u0000', '\u07ff', '\u0800', '\uffff'),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

function written(factory: Utf8WriterFactory, text: string, at: number): Uint8Array {
  const buffer = new ArrayBuffer(at + text.length * 3 + 16);
  const bytes = new Uint8Array(buffer).fill(0xaa);
  const length = factory(buffer)(text, at, text.length * 3);
  // Nothing written past what was reported.
  expect([...bytes.subarray(at + length)].every((byte) => byte === 0xaa)).toBe(true);
  return bytes.slice(at, at + length);
}

describe('URL writers', () => {
  it('Node has a Buffer writer (the inline entry chooses it there)', () => {
    expect(nodeWriter).toBeDefined();
  });

  it.each([
    ['by hand', handWrittenUtf8],
    ["with Node's Buffer", nodeWriter as Utf8WriterFactory],
  ])('write what TextEncoder writes, %s', (_, factory) => {
    fc.assert(
      fc.property(textArbitrary, fc.nat(40), (text, at) => {
        expect(written(factory, text, at)).toEqual(encoder.encode(text));
      }),
      { numRuns: 2000 },
    );
  });
});
