/**
 * Percent-encoding normalization, shared by patterns (at compile time) and URLs (in the TypeScript
 * executor; the WebAssembly matcher does the same in assembly/url-path.ts).
 *
 * Both profiles write octets ≥ 0x80 as `%XX` and upper-case the hex digits of existing escapes, as
 * Google's parser does for patterns. With `decodeUnreserved` (the rfc9309 profile), `%XX` of an
 * unreserved character (`A-Z a-z 0-9 - . _ ~`) is decoded, as RFC 9309 §2.2.2 asks.
 */
import { PERCENT } from '../bytes.js';

const UPPER_HEX = '0123456789ABCDEF';

function isHexDigit(byte: number | undefined): byte is number {
  if (byte === undefined) return false;
  const folded = byte | 0x20;
  return (byte >= 0x30 && byte <= 0x39) || (folded >= 0x61 && folded <= 0x66);
}

function hexValue(byte: number): number {
  return byte <= 0x39 ? byte - 0x30 : (byte | 0x20) - 0x61 + 10;
}

function isUnreservedByte(byte: number): boolean {
  return (
    (byte >= 0x41 && byte <= 0x5a) ||
    (byte >= 0x61 && byte <= 0x7a) ||
    (byte >= 0x30 && byte <= 0x39) ||
    byte === 0x2d ||
    byte === 0x2e ||
    byte === 0x5f ||
    byte === 0x7e
  );
}

function writeEscape(out: Uint8Array, at: number, value: number): void {
  out[at] = PERCENT;
  out[at + 1] = UPPER_HEX.charCodeAt(value >> 4);
  out[at + 2] = UPPER_HEX.charCodeAt(value & 15);
}

/** Whether normalizing bytes[start, end) would change it: it holds a `%` or an octet ≥ 0x80. */
export function needsNormalizing(bytes: Uint8Array, start = 0, end = bytes.length): boolean {
  for (let i = start; i < end; i++) {
    const byte = bytes[i] as number;
    if (byte === PERCENT || byte >= 0x80) return true;
  }
  return false;
}

/**
 * Writes source[start, end) normalized into `out` from `at` on, and returns where it ended. `out` must
 * have room for 3 × (end - start) bytes past `at` (every octet ≥ 0x80 takes three).
 */
export function percentNormalizeInto(
  source: Uint8Array,
  start: number,
  end: number,
  decodeUnreserved: boolean,
  out: Uint8Array,
  at: number,
): number {
  for (let i = start; i < end; i++) {
    const byte = source[i] as number;
    if (byte === PERCENT && i + 2 < end && isHexDigit(source[i + 1]) && isHexDigit(source[i + 2])) {
      const value = (hexValue(source[i + 1] as number) << 4) | hexValue(source[i + 2] as number);
      if (decodeUnreserved && isUnreservedByte(value)) out[at++] = value;
      else {
        writeEscape(out, at, value);
        at += 3;
      }
      i += 2;
    } else if (byte >= 0x80) {
      writeEscape(out, at, byte);
      at += 3;
    } else {
      out[at++] = byte;
    }
  }
  return at;
}

/** Normalizes `bytes`; returns the input itself when nothing changes (the common case). */
export function percentNormalize(bytes: Uint8Array, decodeUnreserved: boolean): Uint8Array {
  if (!needsNormalizing(bytes)) return bytes;
  const out = new Uint8Array(3 * bytes.length);
  return out.subarray(0, percentNormalizeInto(bytes, 0, bytes.length, decodeUnreserved, out, 0));
}
