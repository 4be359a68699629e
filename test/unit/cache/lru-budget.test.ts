/**
 * LruBudget (src/cache/lru-budget.ts), alone: least-recently-used order, the entry budget, the byte
 * budget accounted exactly, and what is handed back to be freed. RobotsCache keeps its origins in one
 * (test/unit/cache/robots-cache.test.ts "memory" and "maxMemoryBytes" hold the same end to end).
 */
import { describe, expect, it } from 'vitest';
import { LruBudget } from '../../../src/cache/lru-budget.js';

/** A value that holds `bytes`. */
interface Held {
  readonly name: string;
  readonly bytes: number;
}

function held(name: string, bytes = 0): Held {
  return { name, bytes };
}

function budget(maxEntries: number, maxBytes: number): LruBudget<string, Held> {
  return new LruBudget<string, Held>(maxEntries, maxBytes, (value) => value.bytes);
}

function names(values: readonly Held[]): string[] {
  return values.map((value) => value.name);
}

describe('the entry budget', () => {
  it('beyond maxEntries the least recently stored value is evicted and handed back', () => {
    const lru = budget(2, Infinity);
    expect(lru.set('a', held('a'))).toEqual([]);
    expect(lru.set('b', held('b'))).toEqual([]);
    expect(names(lru.set('c', held('c')))).toEqual(['a']);
    expect(lru.size).toBe(2);
    expect(lru.peek('a')).toBeUndefined();
    expect(lru.peek('b')?.name).toBe('b');
  });

  it('touch() makes a value the most recently used: the one evicted is the least recently used', () => {
    const lru = budget(2, Infinity);
    lru.set('a', held('a'));
    lru.set('b', held('b'));
    lru.touch('a');
    expect(names(lru.set('c', held('c')))).toEqual(['b']);
    expect(lru.peek('a')?.name).toBe('a');
  });

  it('peek() leaves the order as it is', () => {
    const lru = budget(2, Infinity);
    lru.set('a', held('a'));
    lru.set('b', held('b'));
    lru.peek('a');
    expect(names(lru.set('c', held('c')))).toEqual(['a']);
  });

  it('touch() of a key not stored changes nothing', () => {
    const lru = budget(2, Infinity);
    lru.set('a', held('a'));
    lru.touch('missing');
    expect(lru.size).toBe(1);
    expect(lru.peek('missing')).toBeUndefined();
  });

  it('storing a key again replaces its value, makes it the most recent, and evicts nothing', () => {
    const lru = budget(2, Infinity);
    lru.set('a', held('a1'));
    lru.set('b', held('b'));
    expect(lru.set('a', held('a2'))).toEqual([]);
    expect(lru.size).toBe(2);
    expect(lru.peek('a')?.name).toBe('a2');
    expect(names(lru.set('c', held('c')))).toEqual(['b']);
  });
});

describe('the byte budget', () => {
  it('counts exactly what the values stored hold, through stores, replacements and evictions', () => {
    const lru = budget(10, 1000);
    lru.set('a', held('a', 100));
    lru.set('b', held('b', 250));
    expect(lru.bytesHeld).toBe(350);
    lru.set('a', held('a', 40));
    expect(lru.bytesHeld).toBe(290);
    lru.set('b', held('b', 900));
    expect(lru.bytesHeld).toBe(940);
    lru.set('c', held('c', 0));
    expect(lru.bytesHeld).toBe(940);
  });

  it('beyond maxBytes the least recently used values are evicted, as many as it takes, whatever their number', () => {
    const lru = budget(100, 1000);
    lru.set('a', held('a', 300));
    lru.set('b', held('b', 300));
    lru.set('c', held('c', 300));
    expect(names(lru.set('d', held('d', 500)))).toEqual(['a', 'b']);
    expect(lru.bytesHeld).toBe(800);
    expect(lru.size).toBe(2);
  });

  it('a value may fill the budget exactly: only more than maxBytes is over', () => {
    const lru = budget(100, 1000);
    lru.set('a', held('a', 400));
    expect(lru.set('b', held('b', 600))).toEqual([]);
    expect(lru.bytesHeld).toBe(1000);
  });

  it('a value larger than the whole budget is kept, alone: everything else is evicted, never it', () => {
    const lru = budget(100, 1000);
    lru.set('a', held('a', 10));
    lru.set('b', held('b', 10));
    expect(names(lru.set('huge', held('huge', 5000)))).toEqual(['a', 'b']);
    expect(lru.size).toBe(1);
    expect(lru.bytesHeld).toBe(5000);
    expect(names(lru.set('next', held('next', 1)))).toEqual(['huge']);
    expect(lru.bytesHeld).toBe(1);
  });

  it('a value that grows past the budget evicts the others, least recently used first', () => {
    const lru = budget(100, 1000);
    lru.set('a', held('a', 300));
    lru.set('b', held('b', 300));
    lru.set('c', held('c', 300));
    expect(names(lru.set('b', held('b', 600)))).toEqual(['a']);
    expect(lru.bytesHeld).toBe(900);
    expect(names(lru.set('c', held('c', 1000)))).toEqual(['b']);
    expect(lru.bytesHeld).toBe(1000);
  });

  it('a value that shrinks evicts nothing', () => {
    const lru = budget(100, 1000);
    lru.set('a', held('a', 500));
    lru.set('b', held('b', 500));
    expect(lru.set('a', held('a', 1))).toEqual([]);
    expect(lru.bytesHeld).toBe(501);
  });

  it('a budget of 0 bytes keeps any number of values that hold nothing, and a value that holds bytes only alone', () => {
    const lru = budget(100, 0);
    lru.set('a', held('a', 0));
    lru.set('b', held('b', 0));
    expect(lru.size).toBe(2);
    expect(names(lru.set('c', held('c', 1)))).toEqual(['a', 'b']);
    expect(names(lru.set('d', held('d', 1)))).toEqual(['c']);
    expect(lru.size).toBe(1);
    expect(lru.bytesHeld).toBe(1);
  });
});

describe('clear()', () => {
  it('hands back every value, least recently used first, and holds 0 bytes after', () => {
    const lru = budget(10, 1000);
    lru.set('a', held('a', 10));
    lru.set('b', held('b', 20));
    lru.touch('a');
    expect(names(lru.clear())).toEqual(['b', 'a']);
    expect(lru.size).toBe(0);
    expect(lru.bytesHeld).toBe(0);
    expect(lru.set('c', held('c', 5))).toEqual([]);
    expect(lru.bytesHeld).toBe(5);
  });
});

describe('shares: bytes several values hold, counted once', () => {
  /** A value that holds `bytes` of its own and some shares. */
  interface Sharing extends Held {
    readonly shares: readonly { readonly key: object; readonly bytes: number }[];
  }
  const sharing = (name: string, bytes: number, ...shares: { key: object; bytes: number }[]): Sharing => ({ name, bytes, shares });
  const lruOf = (maxEntries: number, maxBytes: number): LruBudget<string, Sharing> =>
    new LruBudget<string, Sharing>(
      maxEntries,
      maxBytes,
      (value) => value.bytes,
      (value) => value.shares,
    );

  it('counts a share while any stored value holds it, through stores, replacements, evictions and clear()', () => {
    const block = { key: {}, bytes: 500 };
    const other = { key: {}, bytes: 70 };
    const lru = lruOf(2, Infinity);
    lru.set('a', sharing('a', 10, block));
    lru.set('b', sharing('b', 20, block, other));
    expect(lru.bytesHeld).toBe(10 + 20 + 500 + 70);
    // Replaced by a value without the share: the other still holds it.
    lru.set('a', sharing('a', 5));
    expect(lru.bytesHeld).toBe(5 + 20 + 500 + 70);
    // b evicted: its shares go with it, no one else holds them.
    expect(names(lru.set('c', sharing('c', 1)))).toEqual(['b']);
    expect(lru.bytesHeld).toBe(5 + 1);
    lru.set('d', sharing('d', 2, block));
    expect(lru.bytesHeld).toBe(1 + 2 + 500);
    lru.clear();
    expect(lru.bytesHeld).toBe(0);
    lru.set('e', sharing('e', 3, block));
    expect(lru.bytesHeld).toBe(503);
  });

  it('evicts for the byte budget counting each share once', () => {
    const block = { key: {}, bytes: 600 };
    const lru = lruOf(100, 1000);
    for (const name of ['a', 'b', 'c', 'd']) expect(lru.set(name, sharing(name, 100, block))).toEqual([]);
    expect(lru.bytesHeld).toBe(1000);
    expect(names(lru.set('e', sharing('e', 100, block)))).toEqual(['a']);
    expect(lru.bytesHeld).toBe(1000);
  });
});
