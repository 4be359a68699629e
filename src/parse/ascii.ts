/**
 * ASCII byte tests for reading robots.txt keys and user-agent values in place, without decoding them: keys
 * and product tokens compare in any ASCII case, and no other byte folds to ASCII.
 */

/** A byte of a product token, `[A-Za-z_-]` (RFC 9309 §2.2.1). */
export function isTokenByte(byte: number): boolean {
  const folded = byte | 0x20;
  return (folded >= 0x61 && folded <= 0x7a) || byte === 0x5f || byte === 0x2d;
}

/** Whether bytes[start, end) starts with `lowerPrefix` (lower-case ASCII), in any ASCII case. */
export function startsWithIgnoringAsciiCase(bytes: Uint8Array, start: number, end: number, lowerPrefix: string): boolean {
  if (end - start < lowerPrefix.length) return false;
  for (let i = 0; i < lowerPrefix.length; i++) {
    const byte = bytes[start + i] as number;
    if ((byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte) !== lowerPrefix.charCodeAt(i)) return false;
  }
  return true;
}
