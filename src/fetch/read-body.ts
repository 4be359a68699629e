/**
 * Reads a response body up to a byte limit, as a stream: a 50 MB robots.txt costs maxBytes of memory
 * (plus one chunk), and the download stops there.
 */
import type { BodyStreamShape } from '../api/web-types.js';

export interface LimitedRead {
  /**
   * The first `maxBytes` bytes, followed by the one byte after them when the body was longer: the parser
   * needs it to tell whether the limit cut the last line in two.
   */
  readonly bytes: Uint8Array;
  /** How many of `bytes` are within the limit. */
  readonly kept: number;
  /** The body was longer than `maxBytes`. */
  readonly truncated: boolean;
}

function concat(chunks: readonly Uint8Array[], length: number): Uint8Array {
  const first = chunks[0];
  if (chunks.length === 1 && first !== undefined && first.length === length) return first;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, length - offset);
    out.set(part, offset);
    offset += part.length;
    if (offset === length) break;
  }
  return out;
}

/**
 * Reads `body` until its end or until more than `maxBytes` arrived, then cancels it (which closes the
 * connection of an unfinished download). Rejects when the stream errors (a connection that broke off,
 * an abort), or when a chunk is not bytes.
 */
export async function readLimited(body: BodyStreamShape | null, maxBytes: number): Promise<LimitedRead> {
  if (body === null) return { bytes: new Uint8Array(0), kept: 0, truncated: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes: concat(chunks, received), kept: received, truncated: false };
      if (!(value instanceof Uint8Array)) throw new TypeError('the response body is not a stream of bytes');
      if (value.length === 0) continue;
      chunks.push(value);
      received += value.length;
      if (received > maxBytes) {
        void reader.cancel().catch(() => undefined);
        return { bytes: concat(chunks, maxBytes + 1), kept: maxBytes, truncated: true };
      }
    }
  } finally {
    reader.releaseLock();
  }
}
