// Byte search and comparison shared by the matcher, the wildcard matcher, the automaton, the lexer and the
// line scanner.

/**
 * The first `byte` in base[from..end), or `end`; 16 bytes at a time. Reads up to 15 bytes past `end`: a
 * path's buffers and a ruleset's block (src/engine/wasm-backend.ts, VECTOR_SLACK) have room for it.
 */
export function findByte(base: usize, from: usize, end: usize, byte: u8): usize {
  const needle = i8x16.splat(<i8>byte);
  for (let i = from; i < end; i += 16) {
    let mask = i8x16.bitmask(i8x16.eq(v128.load(base + i), needle));
    const remaining = end - i;
    if (remaining < 16) mask &= (1 << <i32>remaining) - 1;
    if (mask != 0) return i + <usize>ctz(mask);
  }
  return end;
}

/** Whether a[0..length) and b[0..length) hold the same bytes; 8 at a time. */
export function bytesEqual(a: usize, b: usize, length: usize): bool {
  let i: usize = 0;
  while (i + 8 <= length) {
    if (load<u64>(a + i) != load<u64>(b + i)) return false;
    i += 8;
  }
  while (i < length) {
    if (load<u8>(a + i) != load<u8>(b + i)) return false;
    i++;
  }
  return true;
}
