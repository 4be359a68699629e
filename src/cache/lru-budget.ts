/**
 * A map kept in least-recently-used order under two budgets, a number of entries and a number of bytes:
 * storing past either drops the least recently used entries until both hold again. RobotsCache keeps its
 * origins in one; what an entry holds is the owner's to free, so evicted values are handed back.
 */
export class LruBudget<Key, Value> {
  /** In least-recently-used order: Map keeps insertion order, and an entry is deleted and set again on each use. */
  private readonly entries = new Map<Key, Value>();
  private held = 0;

  /** How many stored values hold each share: a share's bytes are counted while this is above 0. */
  private readonly shareUsers = new Map<object, number>();

  /**
   * `sizeOf` is the bytes a value holds of its own, and `sharesOf` what it holds that other values may hold
   * too (rules compiled to the same bytes share them: src/engine/residency.ts), each counted once however
   * many values hold it. Both must give the same answer for a value as long as it is stored.
   */
  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
    private readonly sizeOf: (value: Value) => number,
    private readonly sharesOf: (value: Value) => readonly Share[] = () => [],
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
    this.charge(value, 1);
    if (previous !== undefined) this.charge(previous, -1);
    this.entries.delete(key);
    this.entries.set(key, value);
    const evicted: Value[] = [];
    for (const [oldest, dropped] of this.entries) {
      const full = this.entries.size > this.maxEntries || this.held > this.maxBytes;
      if (!full || oldest === key) break;
      this.entries.delete(oldest);
      this.charge(dropped, -1);
      evicted.push(dropped);
    }
    return evicted;
  }

  /** Empties the map; returns what it held, for the caller to free. */
  clear(): Value[] {
    const values = [...this.entries.values()];
    this.entries.clear();
    this.shareUsers.clear();
    this.held = 0;
    return values;
  }

  /** Counts `value` in (`sign` 1) or out (-1): its own bytes, and each share it is the first (or last) to hold. */
  private charge(value: Value, sign: 1 | -1): void {
    this.held += sign * this.sizeOf(value);
    for (const share of this.sharesOf(value)) {
      const users = (this.shareUsers.get(share.key) ?? 0) + sign;
      if (users === 0) this.shareUsers.delete(share.key);
      else this.shareUsers.set(share.key, users);
      if (users === (sign === 1 ? 1 : 0)) this.held += sign * share.bytes;
    }
  }
}

/** Bytes that several stored values may hold: `key` is the same object for all of them. */
export interface Share {
  readonly key: object;
  readonly bytes: number;
}

/** The shares of compiled rulesets (LoadedRuleset: `storage` is the same object for all that share their bytes). */
export function sharesOf(rulesets: readonly { readonly storage: object; readonly byteLength: number }[]): readonly Share[] {
  return rulesets.map((ruleset) => ({ key: ruleset.storage, bytes: ruleset.byteLength }));
}

/** What `shares` hold, added up. */
export function bytesOf(shares: readonly Share[]): number {
  return shares.reduce((sum, share) => sum + share.bytes, 0);
}
