/**
 * How a URL string gets into WebAssembly memory as UTF-8: the per-call floor of a single check. The fastest
 * allocation-free way differs by runtime, so the platform entry chooses (src/platform/): Node's Buffer
 * encodes natively into a given offset and returns a number; elsewhere (browsers, workerd, where
 * TextEncoder.encodeInto returns an object and is slow in workerd) the loop below writes by hand.
 * Every writer writes what TextEncoder writes: a lone surrogate as U+FFFD (test/utf8-writer.test.ts).
 */

/** Writes `text` as UTF-8 at `at`, within `capacity` bytes (the caller reserves 3 per UTF-16 unit); returns the bytes written. */
export type Utf8Writer = (text: string, at: number, capacity: number) => number;

/** A writer over one buffer of WebAssembly memory, made again whenever the memory grows. */
export type Utf8WriterFactory = (buffer: ArrayBuffer) => Utf8Writer;

/** UTF-8 by hand: charCodeAt and byte stores, nothing allocated. */
export const handWrittenUtf8: Utf8WriterFactory = (buffer) => {
  const bytes = new Uint8Array(buffer);
  return (text, at) => {
    const length = text.length;
    let out = at;
    for (let i = 0; i < length; i++) {
      let code = text.charCodeAt(i);
      if (code < 0x80) {
        bytes[out++] = code;
      } else if (code < 0x800) {
        bytes[out++] = 0xc0 | (code >> 6);
        bytes[out++] = 0x80 | (code & 0x3f);
      } else {
        if (code >= 0xd800 && code <= 0xdfff) {
          const low = text.charCodeAt(i + 1);
          if (code <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
            code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
            bytes[out++] = 0xf0 | (code >> 18);
            bytes[out++] = 0x80 | ((code >> 12) & 0x3f);
            bytes[out++] = 0x80 | ((code >> 6) & 0x3f);
            bytes[out++] = 0x80 | (code & 0x3f);
            i++;
            continue;
          }
          code = 0xfffd;
        }
        bytes[out++] = 0xe0 | (code >> 12);
        bytes[out++] = 0x80 | ((code >> 6) & 0x3f);
        bytes[out++] = 0x80 | (code & 0x3f);
      }
    }
    return out - at;
  };
};

/** The writer of a runtime with Node's Buffer, or undefined without one. */
export function nodeBufferUtf8(): Utf8WriterFactory | undefined {
  if (typeof Buffer !== 'function' || typeof Buffer.from !== 'function') return undefined;
  return (buffer) => {
    const view = Buffer.from(buffer);
    return (text, at, capacity) => view.write(text, at, capacity, 'utf8');
  };
}
