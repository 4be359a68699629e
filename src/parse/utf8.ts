/**
 * UTF-8 as the library reads and measures it.
 *
 * decodeUtf8: bytes → text, for every value read from a robots.txt file and every pattern shown back to the
 * caller.
 * A TextDecoder drops a U+FEFF that starts its input unless told not to, and here that input is a single
 * value, not the file: `User-agent: \uFEFFFooBot` would read as naming FooBot, and `\uFEFF*` as the `*`
 * group. Google's reference keeps those bytes (only a byte order mark at the very start of the file is
 * skipped, by the line reader), so the name is cut before them and is empty. Every decoding goes
 * through here so that none can forget it.
 */

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** Values up to this long that are plain ASCII are decoded by hand: a decoder call costs more. */
const SHORT_VALUE = 64;

/** `bytes` as UTF-8 text, a leading U+FEFF kept; invalid sequences become U+FFFD. */
export function decodeUtf8(bytes: Uint8Array): string {
  if (bytes.length <= SHORT_VALUE) {
    let i = 0;
    while (i < bytes.length && (bytes[i] as number) < 0x80) i++;
    // ASCII decodes to itself: the same string, byte for byte, as the decoder would give.
    if (i === bytes.length) return String.fromCharCode.apply(null, bytes as unknown as number[]);
  }
  return utf8.decode(bytes);
}

/**
 * The UTF-8 length of `text` from `from` on, as TextEncoder writes it (a lone surrogate as the 3 bytes of
 * U+FFFD). A body is cut and a long URL's region in WebAssembly memory is sized on it exactly, so it must
 * never count short.
 */
export function utf8Length(text: string, from = 0): number {
  let bytes = text.length - from;
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // 4 bytes for 2 units
      i++;
    } else bytes += 2;
  }
  return bytes;
}
