/**
 * RobotsCache's second level: a store its fleet shares (src/cache/robots-store.ts). This module makes the
 * store safe to lean on: every call has its own deadline (a Redis client that lost its server queues
 * commands and answers nothing), a failed store is left alone for a while and then tried again, records are
 * checked before use (and their times trusted no further than this process's own fetch) and bounded before
 * writing, and nothing the store does reaches the cache's callers as
 * an error: a call that cannot use the store is answered `UNAVAILABLE`, and the cache fetches by itself.
 */
import type { LifetimeBounds } from './cache-policy.js';
import { decodeRecord, encodeRecord, leaseKey, recordKey, trustedEntry, type SharedEntry } from './shared-record.js';
import type { RobotsStore, RobotsStoreStats } from './robots-store.js';
import type { ProfileName } from '../profile.js';

/** What a store call comes to when the store cannot be used (down, slow, failing, or left alone for now). */
export const UNAVAILABLE = Symbol('store unavailable');
export type Unavailable = typeof UNAVAILABLE;

/** A lease this process holds on an origin's fetch. */
export interface Lease {
  readonly key: string;
  readonly token: string;
}

/** What claiming an origin's fetch comes to: see SharedTier.claim(). */
export type Claim = { readonly lease: Lease } | { readonly entry: SharedEntry } | 'held' | Unavailable;

/**
 * How long a record outlives its entry's expiry in the store: long enough for a process to revalidate an
 * expired copy with its validators, or to serve it stale when the site has become unreachable. A day keeps
 * the keyspace to the origins a fleet met within its lifetimes plus a day.
 */
export const RECORD_GRACE_MS = 24 * 60 * 60 * 1000;

/** Waiting for another process's fetch: looks after this long, then 1.5 times longer each time, up to the ceiling. */
const FIRST_LOOK_MS = 10;
const LONGEST_LOOK_MS = 250;

export interface SharedTierSettings {
  readonly store: RobotsStore;
  /** Each store call's deadline. */
  readonly timeoutMs: number;
  /** How long a store that failed is left alone before it is tried again. */
  readonly retryMs: number;
  /** A lease's lifetime: the fetch's deadlines and a margin. */
  readonly leaseMs: number;
  /** The cache's body limit: records carry bodies of at most this size (and one byte more when cut). */
  readonly maxBytes: number;
  /** The cache's clock, in which records' times are. */
  readonly now: () => number;
  /** The cache's lifetimes: a record answers no longer than this process's own fetch would. */
  readonly lifetimes: LifetimeBounds;
  /** The cache's profile: records are shared only between caches of one profile, which reads a fetch alike. */
  readonly profile: ProfileName;
}

type Counts = { -readonly [Key in keyof RobotsStoreStats]: RobotsStoreStats[Key] };

function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let token = '';
  for (const byte of bytes) token += byte.toString(16).padStart(2, '0');
  return token;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

export class SharedTier {
  readonly counts: Counts = { hits: 0, misses: 0, writes: 0, errors: 0, fallbacks: 0, waits: 0, takeovers: 0, invalid: 0 };
  /** Until when (Date.now()) the store is left alone after a failure. */
  private resting = 0;
  private readonly store: RobotsStore;

  constructor(private readonly settings: SharedTierSettings) {
    this.store = settings.store;
  }

  /**
   * The longest a local miss spends in the store beyond its fetch: a read, the wait for another process's
   * lease and its claims, the write.
   */
  get longestWaitMs(): number {
    return 4 * this.settings.timeoutMs + (this.leases ? this.settings.leaseMs : 0);
  }

  /** Whether the store can lease: only then does one process of the fleet fetch while the others wait. */
  get leases(): boolean {
    return typeof this.store.acquire === 'function';
  }

  /**
   * The origin's record: its entry as this process trusts it, undefined when there is none (or it is
   * invalid: counted, and replaced by the next write), or UNAVAILABLE.
   */
  async read(origin: string, countInvalid = true): Promise<SharedEntry | undefined | Unavailable> {
    const value = await this.call(() => this.store.get(recordKey(origin)));
    if (value === UNAVAILABLE || value === undefined) return value;
    if (typeof value !== 'string') return this.failed();
    const { maxBytes, profile, now, lifetimes } = this.settings;
    const entry = decodeRecord(value, origin, maxBytes, profile);
    if (entry !== undefined) return trustedEntry(entry, now(), lifetimes);
    if (countInvalid) this.counts.invalid++;
    return undefined;
  }

  /**
   * Stores the origin's entry for its lifetime and RECORD_GRACE_MS. An entry too large to share, or of this
   * process's own policy (a host or redirect it refused), is not written.
   */
  async write(origin: string, entry: SharedEntry): Promise<void> {
    const record = encodeRecord(origin, entry, this.settings.maxBytes, this.settings.profile);
    if (record === undefined) return;
    const ttlMs = Math.max(1, Math.ceil(entry.expiresAt - this.settings.now())) + RECORD_GRACE_MS;
    const written = await this.call(() => this.store.set(recordKey(origin), record, ttlMs));
    if (written !== UNAVAILABLE) this.counts.writes++;
  }

  /**
   * Claims the origin's fetch for this process: its lease when taken and the store still has no fresh record
   * (another process may have written one and let its lease go since this one looked), the fresh record
   * (the lease given back at once), `'held'` when another process holds the lease, or UNAVAILABLE. Only for
   * a store that `leases`.
   */
  async claim(origin: string): Promise<Claim> {
    const acquire = this.store.acquire;
    if (acquire === undefined) return UNAVAILABLE;
    const lease = { key: leaseKey(origin), token: randomToken() };
    const taken = await this.call(() => acquire.call(this.store, lease.key, lease.token, this.settings.leaseMs));
    if (taken === UNAVAILABLE) return taken;
    if (typeof taken !== 'boolean') return this.failed();
    if (!taken) return 'held';
    // Looked at again, not counted again: an invalid record was counted when this miss first read it.
    const entry = await this.read(origin, false);
    if (entry === UNAVAILABLE || entry === undefined || this.settings.now() >= entry.expiresAt) return { lease };
    void this.release(lease);
    return { entry };
  }

  /** Gives a lease back (a failure only leaves it to expire). */
  async release(lease: Lease): Promise<void> {
    const release = this.store.release;
    if (release !== undefined) await this.call(() => release.call(this.store, lease.key, lease.token));
  }

  /**
   * Waits, for at most a lease's lifetime, while another process fetches the origin: until its record
   * appears, fresh, or the lease is free again with no record (a takeover, counted: its holder died, or
   * could not write), or UNAVAILABLE (the store failed, the wait ran out, or `signal` aborted).
   */
  async waitFor(origin: string, signal: AbortSignal): Promise<{ readonly entry: SharedEntry } | { readonly lease: Lease } | Unavailable> {
    this.counts.waits++;
    const until = Date.now() + this.settings.leaseMs;
    let interval = FIRST_LOOK_MS;
    while (Date.now() < until && !signal.aborted) {
      await sleep(Math.min(interval, Math.max(0, until - Date.now())), signal);
      interval = Math.min(interval * 1.5, LONGEST_LOOK_MS);
      const entry = await this.read(origin, false);
      if (entry === UNAVAILABLE) return entry;
      if (entry !== undefined && this.settings.now() < entry.expiresAt) return { entry };
      const claim = await this.claim(origin);
      if (claim === 'held') continue;
      if (claim !== UNAVAILABLE && 'lease' in claim) this.counts.takeovers++;
      return claim;
    }
    return UNAVAILABLE;
  }

  /** Calls the store within its deadline; UNAVAILABLE (counted, and the store rests) when that fails. */
  private async call<T>(request: () => Promise<T>): Promise<T | Unavailable> {
    if (Date.now() < this.resting) return UNAVAILABLE;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<Unavailable>((resolve) => {
      timer = setTimeout(() => resolve(UNAVAILABLE), this.settings.timeoutMs);
    });
    try {
      // The race holds the deadline even for a client that never settles; a late answer is ignored.
      const pending = Promise.resolve().then(request);
      pending.catch(() => undefined);
      const answer = await Promise.race([pending, deadline]);
      return answer === UNAVAILABLE ? this.failed() : answer;
    } catch {
      return this.failed();
    } finally {
      clearTimeout(timer);
    }
  }

  private failed(): Unavailable {
    this.counts.errors++;
    this.resting = Date.now() + this.settings.retryMs;
    return UNAVAILABLE;
  }
}
