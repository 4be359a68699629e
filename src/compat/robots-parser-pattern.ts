/**
 * robots-parser's pattern normalisation (`encodeURI`, then `%25` back to `%`, then `%xx` upper-cased), done
 * on a pattern's UTF-8 bytes: the same result, without a string per rule. Why it is the same:
 * - encodeURI writes each byte of a character it encodes as `%XX` (upper-case hex) and leaves the ASCII
 *   characters below (URI_KEEPS) as they are;
 * - in its output, `%25` can only be an encoded `%` (no other character encodes to a byte 0x25), so putting
 *   `%25` back to `%` amounts to leaving `%` as written;
 * - `%` followed by two hex digits in the output is `%` followed by the same two ASCII characters in the
 *   input (hex digits are never encoded, and an encoded character starts with `%`, not a hex digit).
 * The input must be well-formed UTF-8 (encodeURI throws on a lone surrogate; the caller never gets here then).
 */
import { PERCENT } from '../bytes.js';

const HEX_DIGITS = '0123456789ABCDEF';

/** ASCII characters encodeURI leaves as they are (its unreserved and reserved sets, and `#`); `%` is handled apart. */
const URI_KEEPS = new Uint8Array(128);
for (const char of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.!~*'();/?:@&=+$,#") URI_KEEPS[char.charCodeAt(0)] = 1;

/** Hex digit value + 1 by character code (0: not a hex digit). */
const HEX_VALUE = new Uint8Array(128);
for (let i = 0; i < 16; i++) {
  HEX_VALUE[HEX_DIGITS.charCodeAt(i)] = i + 1;
  HEX_VALUE[HEX_DIGITS.toLowerCase().charCodeAt(i)] = i + 1;
}

function isHex(byte: number | undefined): boolean {
  return byte !== undefined && byte < 128 && HEX_VALUE[byte] !== 0;
}

/** The most bytes normalising `length` bytes can write: every byte encoded as `%XX`. */
export function normalizedBound(length: number): number {
  return length * 3;
}

/**
 * Writes the normalised form of source[start, end) to out at `at` (out must hold normalizedBound(end - start)
 * more bytes); returns where it stopped.
 */
export function writeNormalized(source: Uint8Array, start: number, end: number, out: Uint8Array, at: number): number {
  for (let i = start; i < end; i++) {
    const byte = source[i] as number;
    if (byte < 128 && URI_KEEPS[byte] === 1) {
      out[at++] = byte;
    } else if (byte === PERCENT) {
      out[at++] = PERCENT;
      const high = source[i + 1];
      const low = source[i + 2];
      if (i + 2 < end && isHex(high) && isHex(low)) {
        out[at++] = HEX_DIGITS.charCodeAt((HEX_VALUE[high as number] as number) - 1);
        out[at++] = HEX_DIGITS.charCodeAt((HEX_VALUE[low as number] as number) - 1);
        i += 2;
      }
    } else {
      out[at++] = PERCENT;
      out[at++] = HEX_DIGITS.charCodeAt(byte >>> 4);
      out[at++] = HEX_DIGITS.charCodeAt(byte & 15);
    }
  }
  return at;
}
