/** A robots.txt body as given (string or bytes) → the UTF-8 bytes to parse, at most `maxBytes` of them. */
import { utf8Length } from './utf8.js';

export interface LimitedBody {
  readonly bytes: Uint8Array;
  /** The body's whole size in UTF-8 bytes, `bytes` included. */
  readonly totalBytes: number;
  /** The limit cut the last line of `bytes` short. */
  readonly endsMidLine: boolean;
}

function isLineEnd(byte: number | undefined): boolean {
  return byte === 0x0a || byte === 0x0d;
}

function limited(bytes: Uint8Array, totalBytes: number, nextByte: number | undefined): LimitedBody {
  const endsMidLine = totalBytes > bytes.length && !isLineEnd(bytes[bytes.length - 1]) && !isLineEnd(nextByte);
  return { bytes, totalBytes, endsMidLine };
}

const encoder = new TextEncoder();

export function limitBody(body: string | Uint8Array | ArrayBuffer, maxBytes: number): LimitedBody {
  if (body instanceof Uint8Array) return limited(body.subarray(0, maxBytes), body.length, body[maxBytes]);
  if (body instanceof ArrayBuffer) return limitBody(new Uint8Array(body), maxBytes);
  if (typeof body !== 'string') {
    throw new TypeError(`Expected the robots.txt body as a string or a Uint8Array, got ${body === null ? 'null' : typeof body}`);
  }
  if (body.length * 3 <= maxBytes) {
    const bytes = encoder.encode(body);
    return limited(bytes, bytes.length, undefined);
  }
  // Encode only what can be parsed (a character may straddle the limit: it is cut like raw bytes are).
  const buffer = new Uint8Array(maxBytes + 4);
  const { read, written } = encoder.encodeInto(body, buffer);
  // When the next character did not fit, it was not ASCII, so not a line end.
  const next = written > maxBytes ? buffer[maxBytes] : undefined;
  return limited(buffer.subarray(0, Math.min(written, maxBytes)), written + utf8Length(body, read), next);
}
