// Well-formed UTF-8, as TextDecoder reads it: shared by the range batch (./batch.ts) and the CLI's line
// scanner (./filter/line-scanner.ts).

/**
 * Whether `base[0..length)` is well-formed UTF-8 (RFC 3629, as TextDecoder decodes without a replacement:
 * no overlong forms, no surrogates, nothing past U+10FFFF, no sequence cut short). ASCII is skipped 16
 * bytes at a time; reads up to 15 bytes past `length`, which the host keeps in its buffers.
 */
export function isUtf8(base: usize, length: usize): bool {
  let i: usize = 0;
  while (i < length) {
    let high = i8x16.bitmask(v128.load(base + i));
    const remaining = length - i;
    if (remaining < 16) high &= (1 << <i32>remaining) - 1;
    if (high == 0) {
      i += 16;
      continue;
    }
    i += <usize>ctz(high);
    const lead = <u32>load<u8>(base + i);
    const left = length - i;
    if (lead < 0xc2) return false; // a continuation byte, or an overlong C0/C1 lead
    if (lead < 0xe0) {
      if (left < 2 || !isContinuation(load<u8>(base + i + 1))) return false;
      i += 2;
    } else if (lead < 0xf0) {
      if (left < 3) return false;
      const second = <u32>load<u8>(base + i + 1);
      // E0 needs A0–BF (shorter forms are overlong); ED needs 80–9F (A0–BF would encode a surrogate).
      const low: u32 = lead == 0xe0 ? 0xa0 : 0x80;
      const top: u32 = lead == 0xed ? 0x9f : 0xbf;
      if (second < low || second > top || !isContinuation(load<u8>(base + i + 2))) return false;
      i += 3;
    } else if (lead < 0xf5) {
      if (left < 4) return false;
      const second = <u32>load<u8>(base + i + 1);
      // F0 needs 90–BF (overlong below); F4 needs 80–8F (above is past U+10FFFF).
      const low: u32 = lead == 0xf0 ? 0x90 : 0x80;
      const top: u32 = lead == 0xf4 ? 0x8f : 0xbf;
      if (second < low || second > top || !isContinuation(load<u8>(base + i + 2)) || !isContinuation(load<u8>(base + i + 3))) {
        return false;
      }
      i += 4;
    } else {
      return false;
    }
  }
  return true;
}

// @ts-ignore: decorator
@inline
function isContinuation(byte: u8): bool {
  return (byte & 0xc0) == 0x80;
}
