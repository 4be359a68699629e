/**
 * A RobotsStore within one process, for the shared tier's tests: what a Redis does (values with lifetimes,
 * leases taken only when free and given back only by their holder), with every call recorded and faults on
 * demand (each call rejects, or never settles). test/e2e/redis/redis-store.test.ts holds the same behaviour against a
 * real server. Lifetimes run on real time plus `skew`, which a test moves to end them at once.
 */
import type { RobotsStore } from '../../src/cache/robots-store.js';

export type StoreFault = 'none' | 'reject' | 'hang';

export interface StoreCall {
  readonly method: 'get' | 'set' | 'acquire' | 'release';
  readonly key: string;
  readonly ttlMs?: number;
}

interface Held {
  readonly value: string;
  readonly until: number;
}

export class MemoryStore implements RobotsStore {
  readonly values = new Map<string, Held>();
  readonly calls: StoreCall[] = [];
  fault: StoreFault = 'none';
  /** Added to the real time the store's lifetimes run on: a test moves it to end them at once. */
  skew = 0;

  private get time(): number {
    return Date.now() + this.skew;
  }

  /** The value under `key`, if it lives. */
  peek(key: string): string | undefined {
    const held = this.values.get(key);
    return held !== undefined && this.time < held.until ? held.value : undefined;
  }

  /** Puts a value directly, as another writer (or a damaged one) would. */
  put(key: string, value: string, ttlMs = 60_000): void {
    this.values.set(key, { value, until: this.time + ttlMs });
  }

  count(method: StoreCall['method']): number {
    return this.calls.filter((call) => call.method === method).length;
  }

  private answer<T>(call: StoreCall, value: () => T): Promise<T> {
    this.calls.push(call);
    if (this.fault === 'reject') return Promise.reject(new Error('store down'));
    if (this.fault === 'hang') return new Promise<T>(() => undefined);
    return Promise.resolve().then(value);
  }

  get(key: string): Promise<string | undefined> {
    return this.answer({ method: 'get', key }, () => this.peek(key));
  }

  set(key: string, value: string, ttlMs: number): Promise<void> {
    return this.answer({ method: 'set', key, ttlMs }, () => this.put(key, value, ttlMs));
  }

  acquire(key: string, token: string, ttlMs: number): Promise<boolean> {
    return this.answer({ method: 'acquire', key, ttlMs }, () => {
      if (this.peek(key) !== undefined) return false;
      this.put(key, token, ttlMs);
      return true;
    });
  }

  release(key: string, token: string): Promise<void> {
    return this.answer({ method: 'release', key }, () => {
      if (this.peek(key) === token) this.values.delete(key);
    });
  }
}

/** The same store without leases, as the Workers Cache API is: best-effort sharing. */
export function withoutLeases(store: MemoryStore): Pick<MemoryStore, 'get' | 'set'> {
  return { get: (key) => store.get(key), set: (key, value, ttlMs) => store.set(key, value, ttlMs) };
}
