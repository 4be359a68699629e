// Where the host's part of linear memory starts: above the module's own static data, 16-byte aligned.

/** First byte of linear memory that the host may manage. */
export function heapBase(): usize {
  return (__heap_base + 15) & ~15;
}
