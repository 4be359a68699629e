/**
 * Bytes → text, for every value read from a robots.txt file and every pattern shown back to the caller.
 *
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
