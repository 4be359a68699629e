// Byte search shared by the matcher (./index.ts), the lexer (./lexer.ts) and the line scanner (./lines.ts).

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
