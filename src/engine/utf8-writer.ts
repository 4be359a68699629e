/**
 * How a URL string gets into WebAssembly memory as UTF-8: the per-call floor of a single check. The fastest
 * allocation-free way differs by runtime, so the platform entry chooses (src/platform/): where Buffer's
 * UTF-8 write is native code (Node, Bun), it encodes into a given offset and returns a number; elsewhere
 * (Deno, whose Buffer is written in JavaScript and costs several times the loop; browsers; workerd, where
 * TextEncoder.encodeInto returns an object and is slow) the loop below writes by hand.
 * Every writer writes what TextEncoder writes: a lone surrogate as U+FFFD (test/unit/engine/utf8-writer.test.ts).
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

/** Buffer's UTF-8 write at an offset, as Node and Bun give it (not in @types/node: Node leaves it undocumented). */
interface NativeUtf8Write {
  utf8Write(text: string, at: number, capacity: number): number;
}

function isNativeFunction(value: unknown): boolean {
  return typeof value === 'function' && /\{\s*\[native code\]\s*\}$/.test(Function.prototype.toString.call(value));
}

/**
 * The writer of a runtime whose Buffer writes UTF-8 in native code (Node, Bun), or undefined. Feature-tested,
 * not guessed from the runtime's name: Buffer.prototype.utf8Write, the native write under Buffer.write(), is
 * taken only where it is native code; called directly, it skips write()'s argument handling, two thirds of
 * what Bun's write() costs. Deno's Buffer has one written in JavaScript, slower than the loop by hand, and is
 * passed over (bench/RESULTS.md, "Bun and Deno"). TextEncoder.encodeInto is not used: it allocates a result
 * object per call, and a single check allocates nothing.
 */
export function nativeBufferUtf8(): Utf8WriterFactory | undefined {
  if (typeof Buffer !== 'function' || typeof Buffer.from !== 'function') return undefined;
  if (!isNativeFunction((Buffer.prototype as Partial<NativeUtf8Write>).utf8Write)) return undefined;
  return (buffer) => {
    const view = Buffer.from(buffer) as Buffer & NativeUtf8Write;
    return (text, at, capacity) => view.utf8Write(text, at, capacity);
  };
}
