/** A robots.txt body as given (string or bytes) → the UTF-8 bytes to parse, at most `maxBytes` of them. */
import { utf8Length } from './utf8.js';

export interface LimitedBody {
  readonly bytes: Uint8Array;
  /** The body's whole size in UTF-8 bytes, `bytes` included. */
  readonly totalBytes: number;
  /** The limit cut the last line of `bytes` short. */
  readonly endsMidLine: boolean;
  /** `bytes` is a buffer of its own, exactly its size, that no caller holds (encoded here from a string). */
  readonly owned: boolean;
}

function isLineEnd(byte: number | undefined): boolean {
  return byte === 0x0a || byte === 0x0d;
}

function limited(bytes: Uint8Array, totalBytes: number, nextByte: number | undefined, owned: boolean): LimitedBody {
  const endsMidLine = totalBytes > bytes.length && !isLineEnd(bytes[bytes.length - 1]) && !isLineEnd(nextByte);
  return { bytes, totalBytes, endsMidLine, owned };
}

const encoder = new TextEncoder();

export function limitBody(body: string | Uint8Array | ArrayBuffer, maxBytes: number): LimitedBody {
  if (body instanceof Uint8Array) return limited(body.subarray(0, maxBytes), body.length, body[maxBytes], false);
  if (body instanceof ArrayBuffer) return limitBody(new Uint8Array(body), maxBytes);
  if (typeof body !== 'string') {
    throw new TypeError(`Expected the robots.txt body as a string or a Uint8Array, got ${body === null ? 'null' : typeof body}`);
  }
  if (body.length * 3 <= maxBytes) {
    const bytes = encoder.encode(body);
    return limited(bytes, bytes.length, undefined, true);
  }
  // Encode only what can be parsed (a character may straddle the limit: it is cut like raw bytes are).
  const buffer = new Uint8Array(maxBytes + 4);
  const { read, written } = encoder.encodeInto(body, buffer);
  // When the next character did not fit, it was not ASCII, so not a line end.
  const next = written > maxBytes ? buffer[maxBytes] : undefined;
  return limited(buffer.subarray(0, Math.min(written, maxBytes)), written + utf8Length(body, read), next, false);
}

/** Position of the last CR or LF in `body`, or -1. */
function lastLineEnd(body: Uint8Array): number {
  return Math.max(body.lastIndexOf(0x0a), body.lastIndexOf(0x0d));
}

/**
 * The part of a limited body that is read: all of it, or (when the limit cut its last line short) up to
 * that line, which is dropped rather than read as a shorter rule. A plain Uint8Array either way: a Node
 * Buffer's subarray() is several times slower than a plain Uint8Array's.
 */
export function completeLines(body: Uint8Array, endsMidLine: boolean): Uint8Array {
  const bytes = Object.getPrototypeOf(body) === Uint8Array.prototype ? body : new Uint8Array(body.buffer, body.byteOffset, body.length);
  return endsMidLine ? bytes.subarray(0, lastLineEnd(bytes) + 1) : bytes;
}
