/**
 * The writers that put a URL string into WebAssembly memory (src/engine/utf8-writer.ts): the hand-written
 * loop (Deno, browsers, workerd) and Buffer's native write (the inline entry in Node and Bun) must write exactly what a
 * TextEncoder writes, lone surrogates as U+FFFD included, at any offset and with nothing past the bytes they
 * report. The matcher's verdict tests run through whichever writer the entry chose; this holds the two
 * writers to one reference.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { handWrittenUtf8, nativeBufferUtf8, type Utf8WriterFactory } from '../../../src/engine/utf8-writer.js';

const encoder = new TextEncoder();
const nativeWriter = nativeBufferUtf8();

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
  it("Node's Buffer writes natively (the inline entry chooses it there)", () => {
    expect(nativeWriter).toBeDefined();
  });

  it("passes over a Buffer whose UTF-8 write is JavaScript, as Deno's is", () => {
    // Buffer.prototype.utf8Write: undocumented in Node, so not in @types/node.
    const prototype: Buffer & { utf8Write: (text: string, at: number, capacity: number) => number } = Buffer.prototype;
    const native = prototype.utf8Write;
    try {
      prototype.utf8Write = function utf8Write(this: Buffer, text: string, at: number, capacity: number): number {
        return this.write(text, at, capacity, 'utf8');
      };
      expect(nativeBufferUtf8()).toBeUndefined();
    } finally {
      prototype.utf8Write = native;
    }
  });

  it.each([
    ['by hand', handWrittenUtf8],
    ["with Buffer's native write", nativeWriter as Utf8WriterFactory],
  ])('write what TextEncoder writes, %s', (_, factory) => {
    fc.assert(
      fc.property(textArbitrary, fc.nat(40), (text, at) => {
        expect(written(factory, text, at)).toEqual(encoder.encode(text));
      }),
      { numRuns: 2000 },
    );
  });
});
