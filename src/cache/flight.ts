/**
 * One origin's robots.txt fetch in flight, shared by every caller that asks for that origin meanwhile, and
 * how those callers wait for it.
 *
 * Where one event loop serves every caller (Node, browsers, Deno), the flight settles each caller's
 * promise when it lands. Cloudflare Workers run each request in an I/O context of its own, and there that
 * fails twice over: a request whose promise is settled from another request's context has nothing of its
 * own pending meanwhile, so workerd cancels it as hung ("…your Worker's code had hung and would never
 * generate a response"); and when the request that started a fetch ends first, workerd cancels that fetch,
 * which then never lands. So in Workers, a caller that joins a flight another request started waits on
 * timers of its own, looking for the flight's result (plain data, which any context may read), and fetches
 * itself once the flight is overdue.
 */

/** How a flight ended: the value every caller is answered from, or the error they all get. */
export type Landing<T> = { readonly value: T } | { readonly error: unknown };

/** A caller waiting for a flight. */
export interface Waiter<T> {
  /** Set once the caller has its answer, or gave up (its signal aborted): nothing more is delivered. */
  done: boolean;
  land(landing: Landing<T>): void;
}

/** Looks from 1 ms after joining, then twice as long each time, up to this. */
const LONGEST_LOOK_INTERVAL_MS = 32;
/** How long past its fetch's own deadlines a flight may take (parsing, compiling) before it is overdue. */
const OVERDUE_GRACE_MS = 1_000;

/**
 * Whether requests run in I/O contexts of their own, whose promises another request must not settle:
 * Cloudflare Workers, which name themselves in navigator.userAgent.
 */
export function requestsHaveOwnContexts(): boolean {
  const navigator = (globalThis as { navigator?: { userAgent?: unknown } }).navigator;
  return navigator?.userAgent === 'Cloudflare-Workers';
}

export class Flight<T> {
  private readonly waiters = new Set<Waiter<T>>();
  readonly cancel = new AbortController();
  private landing: Landing<T> | undefined;
  /** When it is overdue (Date.now()): its fetches' deadlines (`deadlineMs` in all), and a grace. */
  private readonly overdueAt: number;

  constructor(deadlineMs: number) {
    this.overdueAt = Date.now() + deadlineMs + OVERDUE_GRACE_MS;
  }

  /** Settles `waiter`'s promise when the flight lands: for callers in the context that started it. */
  notify(waiter: Waiter<T>): void {
    if (this.landing !== undefined) waiter.land(this.landing);
    else this.waiters.add(waiter);
  }

  /**
   * Lets `waiter` find the landing on timers of its own: for callers in other requests' contexts (above).
   * Calls `overdue` instead, in the caller's own context, if the flight has not landed in time.
   */
  watch(waiter: Waiter<T>, overdue: () => void): void {
    let interval = 1;
    const look = (): void => {
      if (waiter.done) return;
      if (this.landing !== undefined) return waiter.land(this.landing);
      if (Date.now() > this.overdueAt) return overdue();
      setTimeout(look, interval);
      interval = Math.min(interval * 2, LONGEST_LOOK_INTERVAL_MS);
    };
    look();
  }

  /** Ends the flight: every waiter notified, every watcher finds it on its next look. Idempotent. */
  land(landing: Landing<T>): void {
    if (this.landing !== undefined) return;
    this.landing = landing;
    for (const waiter of this.waiters) if (!waiter.done) waiter.land(landing);
    this.waiters.clear();
  }
}
