/** Where UTF-8 goes wrong: the offset of the first byte that does not start a valid sequence. */

const strict = new TextDecoder('utf-8', { fatal: true });

/** Whether all of `bytes` is valid UTF-8 (one native pass: the common case costs little). */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Length of the valid sequence starting at bytes[i] (within `end`), or 0 when it is not valid. */
function sequenceLength(bytes: Uint8Array, i: number, end: number): number {
  const lead = bytes[i] as number;
  if (lead < 0x80) return 1;
  let length: number;
  let min: number;
  let max = 0xbf;
  // The second byte's range excludes overlong forms and surrogates (RFC 3629 §4).
  if (lead >= 0xc2 && lead <= 0xdf) [length, min] = [2, 0x80];
  else if (lead === 0xe0) [length, min] = [3, 0xa0];
  else if (lead === 0xed) [length, min, max] = [3, 0x80, 0x9f];
  else if (lead >= 0xe1 && lead <= 0xef) [length, min] = [3, 0x80];
  else if (lead === 0xf0) [length, min] = [4, 0x90];
  else if (lead === 0xf4) [length, min, max] = [4, 0x80, 0x8f];
  else if (lead >= 0xf1 && lead <= 0xf3) [length, min] = [4, 0x80];
  else return 0;
  if (i + length > end) return 0;
  const second = bytes[i + 1] as number;
  if (second < min || second > max) return 0;
  for (let k = 2; k < length; k++) {
    const next = bytes[i + k] as number;
    if (next < 0x80 || next > 0xbf) return 0;
  }
  return length;
}

/** Offset of the first invalid byte in bytes[start, end), or -1. */
export function firstInvalidUtf8(bytes: Uint8Array, start: number, end: number): number {
  for (let i = start; i < end;) {
    const length = sequenceLength(bytes, i, end);
    if (length === 0) return i;
    i += length;
  }
  return -1;
}
