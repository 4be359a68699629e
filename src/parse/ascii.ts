/**
 * ASCII byte tests for reading robots.txt keys and user-agent values in place, without decoding them: keys
 * and product tokens compare in any ASCII case, and no other byte folds to ASCII.
 */

/** A byte of a product token, `[A-Za-z_-]` (RFC 9309 §2.2.1). */
export function isTokenByte(byte: number): boolean {
  const folded = byte | 0x20;
  return (folded >= 0x61 && folded <= 0x7a) || byte === 0x5f || byte === 0x2d;
}

/** An ASCII capital, `A`–`Z`. */
export function isAsciiUpper(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 0x41 && byte <= 0x5a;
}

/** A copy of bytes[start, end) with each ASCII capital lower-cased (the bytes given are left as they are). */
export function lowerCasedAscii(bytes: Uint8Array, start = 0, end = bytes.length): Uint8Array {
  const copy = bytes.slice(start, end);
  for (let at = 0; at < copy.length; at++) if (isAsciiUpper(copy[at])) copy[at] = (copy[at] as number) + 0x20;
  return copy;
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
