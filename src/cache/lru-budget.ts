/**
 * A map kept in least-recently-used order under two budgets, a number of entries and a number of bytes:
 * storing past either drops the least recently used entries until both hold again. RobotsCache keeps its
 * origins in one; what an entry holds is the owner's to free, so evicted values are handed back.
 */
export class LruBudget<Key, Value> {
  /** In least-recently-used order: Map keeps insertion order, and an entry is deleted and set again on each use. */
  private readonly entries = new Map<Key, Value>();
  private held = 0;

  /** `sizeOf` is the bytes a value holds; it must give the same answer for a value as long as it is stored. */
  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
    private readonly sizeOf: (value: Value) => number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** What the values stored hold, by `sizeOf`. */
  get bytesHeld(): number {
    return this.held;
  }

  /** The value of `key`, leaving the order as it is. */
  peek(key: Key): Value | undefined {
    return this.entries.get(key);
  }

  /** Makes `key` the most recently used, when it is stored. */
  touch(key: Key): void {
    const value = this.entries.get(key);
    if (value === undefined) return;
    this.entries.delete(key);
    this.entries.set(key, value);
  }

  /**
   * Stores `value` as the most recently used, replacing `key`'s previous value (which the caller frees if
   * it must), then evicts the least recently used others while either budget is exceeded. `key` itself is
   * never evicted, even alone over the byte budget. Returns the values evicted, least recently used first.
   */
  set(key: Key, value: Value): Value[] {
    const previous = this.entries.get(key);
    this.held += this.sizeOf(value) - (previous === undefined ? 0 : this.sizeOf(previous));
    this.entries.delete(key);
    this.entries.set(key, value);
    const evicted: Value[] = [];
    for (const [oldest, dropped] of this.entries) {
      const full = this.entries.size > this.maxEntries || this.held > this.maxBytes;
      if (!full || oldest === key) break;
      this.entries.delete(oldest);
      this.held -= this.sizeOf(dropped);
      evicted.push(dropped);
    }
    return evicted;
  }

  /** Empties the map; returns what it held, for the caller to free. */
  clear(): Value[] {
    const values = [...this.entries.values()];
    this.entries.clear();
    this.held = 0;
    return values;
  }
}
