/**
 * The cache entry's transitions (src/cache/cache-transitions.ts), alone: the entry held, what a fetch
 * brought, the time it landed → the next entry. No network and no compiled rules: a file is a plain
 * marker object, and the time is whatever the test says. test/unit/cache/robots-cache.test.ts holds the same rules
 * end to end, against real HTTP servers on 127.0.0.1.
 * spec: RFC 9309 §2.3.1 and §2.4; Google's robots.txt spec (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt), "Handling HTTP result codes" and "Caching".
 */
import { describe, expect, it } from 'vitest';
import { responseMaxAge } from '../../../src/fetch/cache-control.js';
import { CACHE_LIMITS } from '../../../src/cache/cache-policy.js';
import {
  nextEntry,
  validatorsOf,
  type Entry,
  type FetchFacts,
  type Fetched,
  type TransitionPolicy,
} from '../../../src/cache/cache-transitions.js';
import type { NotModified } from '../../../src/fetch/fetch-robots.js';
import { outcomeOf, reasonForStatus, type RobotsFetchReason } from '../../../src/fetch/outcome.js';
import { retryAfterSeconds } from '../../../src/fetch/retry-after.js';
import { profileNamed } from '../../../src/profile.js';

/** What the cache keeps of a 2xx body; the transitions only carry it. */
interface KeptFile {
  readonly name: string;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The time the first fetch lands; every other time is counted from it. */
const T = Date.UTC(2026, 0, 1);
const ORIGIN = 'https://example.com';

/** The defaults of RobotsCache: lifetimes from 1 min to 24 h, Retry-After honoured. */
const DEFAULTS: TransitionPolicy = {
  lifetimes: { min: CACHE_LIMITS.minLifetime, max: CACHE_LIMITS.maxLifetime },
  honorRetryAfter: true,
};

function factsOf(reason: RobotsFetchReason, status: number, more: Partial<FetchFacts> = {}): FetchFacts {
  return {
    outcome: outcomeOf(reason),
    reason,
    status,
    origin: ORIGIN,
    robotsUrl: `${ORIGIN}/robots.txt`,
    finalUrl: `${ORIGIN}/robots.txt`,
    redirects: 0,
    bytes: reason === 'ok' ? 42 : 0,
    truncated: false,
    bytesIgnored: 0,
    contentType: reason === 'ok' ? 'text/plain' : undefined,
    looksLikeHtml: false,
    maxAge: undefined,
    retryAfter: undefined,
    etag: undefined,
    lastModified: undefined,
    ...more,
  };
}

/** A 2xx: its facts and the file kept of it. */
function ok(file: KeptFile, more: Partial<FetchFacts> = {}): Fetched<KeptFile> {
  return { facts: factsOf('ok', 200, more), file };
}

/** A final status other than 2xx, read as fetchRobotsTxt() reads it. */
function answered(status: number, more: Partial<FetchFacts> = {}): Fetched<KeptFile> {
  return { facts: factsOf(reasonForStatus(status, profileNamed('rfc9309')), status, more), file: undefined };
}

/** A fetch that ended without a usable status (redirects that lead nowhere, timeouts, network errors). */
function ended(reason: Exclude<RobotsFetchReason, 'ok'>, more: Partial<FetchFacts> = {}): Fetched<KeptFile> {
  return { facts: factsOf(reason, 0, more), file: undefined };
}

function notModified(more: Partial<Omit<NotModified, 'outcome' | 'status'>> = {}): NotModified {
  return { outcome: 'not-modified', status: 304, maxAge: undefined, etag: undefined, lastModified: undefined, ...more };
}

/** The entries a series of fetches leaves, each landing at its own time. */
function run(steps: readonly (readonly [number, Fetched<KeptFile>])[], policy: TransitionPolicy = DEFAULTS): Entry<KeptFile>[] {
  const entries: Entry<KeptFile>[] = [];
  for (const [at, fetched] of steps) entries.push(nextEntry(entries.at(-1), fetched, at, policy));
  return entries;
}

function lastOf(steps: readonly (readonly [number, Fetched<KeptFile>])[], policy: TransitionPolicy = DEFAULTS): Entry<KeptFile> {
  return run(steps, policy).at(-1) as Entry<KeptFile>;
}

describe('a 2xx: a new copy, used for its lifetime', () => {
  it('without Cache-Control the file is used for 24 hours, then asked again (RFC 9309 §2.3.1.1, §2.4)', () => {
    const file = { name: 'robots.txt' };
    const fetched = ok(file, { etag: '"v1"', lastModified: 'Thu, 01 Jan 2026 00:00:00 GMT' });
    expect(nextEntry(undefined, fetched, T, DEFAULTS)).toEqual({
      copy: { facts: fetched.facts, file, fetchedAt: T, maxAge: undefined, etag: '"v1"', lastModified: 'Thu, 01 Jan 2026 00:00:00 GMT' },
      stale: false,
      expiresAt: T + DAY,
      failures: 0,
      refreshFailure: undefined,
    });
  });

  it('Cache-Control: max-age sets the lifetime (RFC 9309 §2.4: standard HTTP cache control may be used)', () => {
    const entry = nextEntry(undefined, ok({ name: 'a' }, { maxAge: 3600 }), T, DEFAULTS);
    expect(entry.expiresAt).toBe(T + HOUR);
    expect(entry.copy.maxAge).toBe(3600);
  });

  it('a max-age beyond 24 hours is cut to 24 hours (RFC 9309 §2.4: not used for more than 24 hours)', () => {
    expect(nextEntry(undefined, ok({ name: 'a' }, { maxAge: 7 * 24 * 3600 }), T, DEFAULTS).expiresAt).toBe(T + DAY);
  });

  it('no-store and a max-age under a minute keep the copy a minute: the site is never asked more often (RFC 9309 §2.4)', () => {
    const noStore = responseMaxAge(new Headers({ 'cache-control': 'no-store' }));
    expect(nextEntry(undefined, ok({ name: 'a' }, { maxAge: noStore }), T, DEFAULTS).expiresAt).toBe(T + MINUTE);
    expect(nextEntry(undefined, ok({ name: 'a' }, { maxAge: 5 }), T, DEFAULTS).expiresAt).toBe(T + MINUTE);
  });

  it('an invalid max-age makes the response stale: the floor applies, not the 24-hour ceiling (RFC 9309 §2.4, RFC 9111 §4.2.1)', () => {
    for (const header of ['max-age=soon', 'max-age=-1', 'max-age=']) {
      const maxAge = responseMaxAge(new Headers({ 'cache-control': header }));
      expect(nextEntry(undefined, ok({ name: 'a' }, { maxAge }), T, DEFAULTS).expiresAt, header).toBe(T + MINUTE);
    }
  });

  it('minLifetimeMs and maxLifetimeMs move the floor and the ceiling (RFC 9309 §2.4)', () => {
    const policy = { ...DEFAULTS, lifetimes: { min: 10 * MINUTE, max: 2 * HOUR } };
    expect(nextEntry(undefined, ok({ name: 'a' }), T, policy).expiresAt).toBe(T + 2 * HOUR);
    expect(nextEntry(undefined, ok({ name: 'a' }, { maxAge: 60 }), T, policy).expiresAt).toBe(T + 10 * MINUTE);
    expect(nextEntry(undefined, ok({ name: 'a' }, { maxAge: 5 * 3600 }), T, policy).expiresAt).toBe(T + 2 * HOUR);
  });

  it('a 2xx replaces whatever the origin had, stale copy and failures included (RFC 9309 §2.3.1.1)', () => {
    const fresh = { name: 'new' };
    const entry = lastOf([
      [T, ok({ name: 'old' })],
      [T + DAY, answered(503)],
      [T + DAY + 2 * MINUTE, answered(503)],
      [T + DAY + 10 * MINUTE, ok(fresh)],
    ]);
    expect(entry).toMatchObject({ stale: false, failures: 0, refreshFailure: undefined, expiresAt: T + DAY + 10 * MINUTE + DAY });
    expect(entry.copy.file).toBe(fresh);
    expect(entry.copy.fetchedAt).toBe(T + DAY + 10 * MINUTE);
  });
});

describe('a 4xx: allow all, cached like a file', () => {
  it("404, 401 and 403 alike: no file, everything allowed, for the answer's own lifetime (RFC 9309 §2.3.1.3)", () => {
    for (const status of [404, 401, 403, 410]) {
      const entry = nextEntry(undefined, answered(status, { maxAge: 600 }), T, DEFAULTS);
      expect(entry.copy.facts).toMatchObject({ outcome: 'allow-all', reason: 'client-error', status });
      expect(entry).toMatchObject({ stale: false, expiresAt: T + 10 * MINUTE, failures: 0 });
      expect(entry.copy.file).toBeUndefined();
    }
  });

  it('without Cache-Control a 4xx is kept 24 hours too (RFC 9309 §2.3.1.3, §2.4)', () => {
    expect(nextEntry(undefined, answered(404), T, DEFAULTS).expiresAt).toBe(T + DAY);
  });

  it('a 4xx after a file replaces the file: the site removed it (RFC 9309 §2.3.1.3)', () => {
    const entry = lastOf([
      [T, ok({ name: 'old' })],
      [T + DAY, answered(404)],
    ]);
    expect(entry.copy.facts.outcome).toBe('allow-all');
    expect(entry.copy.file).toBeUndefined();
    expect(entry.stale).toBe(false);
  });
});

describe('redirects', () => {
  it("redirects that lead nowhere (too many, a loop, no usable Location, refused) allow all, for the last response's lifetime (RFC 9309 §2.3.1.2)", () => {
    for (const reason of ['too-many-redirects', 'redirect-loop', 'bad-redirect', 'redirect-refused'] as const) {
      const entry = nextEntry(undefined, ended(reason, { status: 301, redirects: 5, maxAge: 300 }), T, DEFAULTS);
      expect(entry.copy.facts, reason).toMatchObject({ outcome: 'allow-all', reason, status: 301 });
      expect(entry, reason).toMatchObject({ stale: false, expiresAt: T + 5 * MINUTE, failures: 0 });
    }
  });

  it('a redirect to a page that is not a robots.txt is read as the file it served, and revalidated at that URL (RFC 9309 §2.3.1.2)', () => {
    const page = { name: 'index.html' };
    const fetched = ok(page, {
      finalUrl: `${ORIGIN}/index.html`,
      redirects: 1,
      looksLikeHtml: true,
      contentType: 'text/html',
      etag: '"p"',
    });
    const entry = nextEntry(undefined, fetched, T, DEFAULTS);
    expect(entry).toMatchObject({ stale: false, expiresAt: T + DAY });
    expect(entry.copy.file).toBe(page);
    expect(validatorsOf(entry.copy)).toEqual({ url: `${ORIGIN}/index.html`, etag: '"p"', lastModified: undefined });
  });
});

describe('304 Not Modified: the copy held, renewed', () => {
  const file = { name: 'robots.txt' };
  const held = (): Entry<KeptFile> =>
    nextEntry(undefined, ok(file, { maxAge: 3600, etag: '"v1"', lastModified: 'Thu, 01 Jan 2026 00:00:00 GMT' }), T, DEFAULTS);

  it('keeps the same file for another lifetime, with the validators and max-age the 304 sent (RFC 9309 §2.4; RFC 9111 §4.3.4)', () => {
    const previous = held();
    const entry = nextEntry(previous, notModified({ maxAge: 7200, etag: '"v2"' }), T + 2 * HOUR, DEFAULTS);
    expect(entry).toEqual({
      copy: { ...previous.copy, fetchedAt: T + 2 * HOUR, maxAge: 7200, etag: '"v2"' },
      stale: false,
      expiresAt: T + 4 * HOUR,
      failures: 0,
      refreshFailure: undefined,
    });
    expect(entry.copy.file).toBe(file);
    expect(entry.copy.facts).toBe(previous.copy.facts);
  });

  it("a 304 without those headers keeps the copy's max-age and validators (RFC 9111 §4.3.4)", () => {
    const previous = held();
    const entry = nextEntry(previous, notModified(), T + 2 * HOUR, DEFAULTS);
    expect(entry.copy).toMatchObject({ maxAge: 3600, etag: '"v1"', lastModified: 'Thu, 01 Jan 2026 00:00:00 GMT' });
    expect(entry.expiresAt).toBe(T + 3 * HOUR);
  });

  it('a 304 ends a stale spell: the site answers again (RFC 9309 §2.4)', () => {
    const stale = nextEntry(held(), answered(503), T + 2 * HOUR, DEFAULTS);
    expect(stale.stale).toBe(true);
    const entry = nextEntry(stale, notModified(), T + 2 * HOUR + MINUTE, DEFAULTS);
    expect(entry).toMatchObject({ stale: false, failures: 0, refreshFailure: undefined, expiresAt: T + 3 * HOUR + MINUTE });
    expect(entry.copy.file).toBe(file);
  });

  it('only a file with a validator is revalidated: a copy without ETag or Last-Modified, or without a file, is fetched whole (RFC 9309 §2.4)', () => {
    expect(validatorsOf(held().copy)).toEqual({ url: `${ORIGIN}/robots.txt`, etag: '"v1"', lastModified: 'Thu, 01 Jan 2026 00:00:00 GMT' });
    expect(validatorsOf(nextEntry(undefined, ok(file), T, DEFAULTS).copy)).toBeUndefined();
    expect(validatorsOf(nextEntry(undefined, answered(404, { etag: '"e"' }), T, DEFAULTS).copy)).toBeUndefined();
  });
});

describe('an unreachable site with no copy: disallow all, asked again after a back-off', () => {
  it('a 5xx disallows everything, and the site is asked again after 1 minute (RFC 9309 §2.3.1.4)', () => {
    for (const status of [500, 503, 599]) {
      const entry = nextEntry(undefined, answered(status), T, DEFAULTS);
      expect(entry.copy.facts).toMatchObject({ outcome: 'disallow-all', reason: 'server-error', status });
      expect(entry).toMatchObject({ stale: false, expiresAt: T + MINUTE, failures: 1, refreshFailure: undefined });
      expect(entry.copy.file).toBeUndefined();
    }
  });

  it('a timeout and a network error are unreachable too, with no status (RFC 9309 §2.3.1.4)', () => {
    for (const reason of ['timeout', 'network-error', 'body-interrupted', 'invalid-response'] as const) {
      const entry = nextEntry(undefined, ended(reason), T, DEFAULTS);
      expect(entry.copy.facts, reason).toMatchObject({ outcome: 'disallow-all', reason, status: 0 });
      expect(entry, reason).toMatchObject({ stale: false, expiresAt: T + MINUTE, failures: 1 });
    }
  });

  it('the back-off doubles with each failure in a row and stops at one hour (RFC 9309 §2.3.1.4)', () => {
    let at = T;
    const waits: number[] = [];
    let entry: Entry<KeptFile> | undefined;
    for (let failure = 0; failure < 9; failure++) {
      entry = nextEntry(entry, answered(503), at, DEFAULTS);
      waits.push((entry.expiresAt - at) / MINUTE);
      at = entry.expiresAt;
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60]);
    expect(entry?.failures).toBe(9);
  });

  it('an answer between failures ends the back-off: the next failure waits 1 minute again (RFC 9309 §2.3.1.4)', () => {
    const entry = lastOf([
      [T, answered(503)],
      [T + MINUTE, answered(503)],
      [T + 3 * MINUTE, answered(404, { maxAge: 0 })],
      [T + 4 * MINUTE, answered(503)],
    ]);
    // The 4xx answer is a copy, so it stands in (stale) for the failure that follows it.
    expect(entry).toMatchObject({ failures: 1, expiresAt: T + 5 * MINUTE, stale: true });
  });
});

describe('an unreachable site with a copy: the copy keeps answering, stale', () => {
  const file = { name: 'robots.txt' };

  it('a 5xx on refresh keeps the file, marked stale with the failure, until the back-off ends (RFC 9309 §2.4: unless unreachable)', () => {
    const [good, entry] = run([
      [T, ok(file)],
      [T + DAY, answered(503)],
    ]) as [Entry<KeptFile>, Entry<KeptFile>];
    expect(entry).toEqual({
      copy: good.copy,
      stale: true,
      expiresAt: T + DAY + MINUTE,
      failures: 1,
      refreshFailure: { reason: 'server-error', status: 503, at: T + DAY },
    });
    expect(entry.copy).toBe(good.copy);
  });

  it('a timeout or network error on refresh keeps it too, the failure with status 0 (RFC 9309 §2.3.1.4, §2.4)', () => {
    for (const reason of ['timeout', 'network-error'] as const) {
      const entry = lastOf([
        [T, ok(file)],
        [T + DAY, ended(reason)],
      ]);
      expect(entry, reason).toMatchObject({ stale: true, refreshFailure: { reason, status: 0, at: T + DAY } });
      expect(entry.copy.file).toBe(file);
    }
  });

  it('an allow-all answer (4xx) stands in the same way (RFC 9309 §2.3.1.3, §2.4)', () => {
    const entry = lastOf([
      [T, answered(404)],
      [T + DAY, answered(500)],
    ]);
    expect(entry.copy.facts.outcome).toBe('allow-all');
    expect(entry).toMatchObject({ stale: true, failures: 1 });
  });

  it('failures in a row keep the copy from its first fetch and grow the back-off (RFC 9309 §2.4)', () => {
    const entries = run([
      [T, ok(file)],
      [T + DAY, answered(503)],
      [T + DAY + MINUTE, answered(503)],
      [T + DAY + 3 * MINUTE, ended('timeout')],
    ]);
    const last = entries.at(-1) as Entry<KeptFile>;
    expect(last.copy).toBe(entries[0]?.copy);
    expect(last.copy.fetchedAt).toBe(T);
    expect(last).toMatchObject({ stale: true, failures: 3, expiresAt: T + DAY + 7 * MINUTE });
    expect(last.refreshFailure).toEqual({ reason: 'timeout', status: 0, at: T + DAY + 3 * MINUTE });
  });

  it('a stale copy answers at most 30 days after its fetch: the back-off is cut there, and past it everything is disallowed (RFC 9309 §2.4)', () => {
    const staleUntil = T + CACHE_LIMITS.staleLimit;
    const lastChance = lastOf([
      [T, ok(file)],
      [staleUntil - 10 * MINUTE, answered(503)],
      [staleUntil - 9 * MINUTE, answered(503)],
      [staleUntil - 7 * MINUTE, answered(503)],
      [staleUntil - 3 * MINUTE, answered(503)],
    ]);
    expect(lastChance).toMatchObject({ stale: true, failures: 4, expiresAt: staleUntil });
    const after = nextEntry(lastChance, answered(503), staleUntil, DEFAULTS);
    expect(after.copy.facts.outcome).toBe('disallow-all');
    expect(after.copy.file).toBeUndefined();
    expect(after).toMatchObject({ stale: false, failures: 5, expiresAt: staleUntil + 16 * MINUTE, refreshFailure: undefined });
  });

  it('a disallow-all answer never stands in for a later one: it is replaced (RFC 9309 §2.3.1.4)', () => {
    const [first, second] = run([
      [T, answered(503)],
      [T + MINUTE, answered(500)],
    ]) as [Entry<KeptFile>, Entry<KeptFile>];
    expect(second.copy).not.toBe(first.copy);
    expect(second).toMatchObject({ stale: false, failures: 2, copy: { fetchedAt: T + MINUTE, facts: { status: 500 } } });
  });
});

describe("a host the crawler's allowHost refused: its own decision, not the site's state", () => {
  it('disallows all for the shortest lifetime, then the policy is asked again: no back-off, however often', () => {
    const entries = run([
      [T, ended('host-refused')],
      [T + MINUTE, ended('host-refused')],
      [T + 2 * MINUTE, ended('host-refused')],
    ]);
    expect(entries.map((entry) => entry.expiresAt - entry.copy.fetchedAt)).toEqual([MINUTE, MINUTE, MINUTE]);
    expect(entries.map((entry) => entry.failures)).toEqual([0, 0, 0]);
    expect(entries.at(-1)?.copy.facts).toMatchObject({ outcome: 'disallow-all', reason: 'host-refused' });
  });

  it('no good copy stands in for it: the refusal replaces the file held', () => {
    const entry = lastOf([
      [T, ok({ name: 'file' })],
      [T + DAY, ended('host-refused')],
    ]);
    expect(entry).toMatchObject({ stale: false, refreshFailure: undefined, copy: { file: undefined } });
  });

  it('the floor follows minLifetimeMs', () => {
    const policy = { ...DEFAULTS, lifetimes: { min: 5 * SECOND, max: HOUR } };
    expect(lastOf([[T, ended('host-refused')]], policy).expiresAt).toBe(T + 5 * SECOND);
  });
});

describe('429 and Retry-After', () => {
  it('a 429 is unreachable, not a 4xx: it disallows all (RFC 9309 §2.3.1.4; Google reads it as a 5xx)', () => {
    const entry = nextEntry(undefined, answered(429), T, DEFAULTS);
    expect(entry.copy.facts).toMatchObject({ outcome: 'disallow-all', reason: 'rate-limited', status: 429 });
    expect(entry).toMatchObject({ expiresAt: T + MINUTE, failures: 1 });
  });

  it('Retry-After in seconds longer than the back-off is waited, at most one hour (RFC 9309 §2.3.1.4; RFC 9110 §10.2.3)', () => {
    const wait = (seconds: string): number => {
      const retryAfter = retryAfterSeconds(new Headers({ 'retry-after': seconds }), T);
      return nextEntry(undefined, answered(429, { retryAfter }), T, DEFAULTS).expiresAt - T;
    };
    expect(wait('1800')).toBe(30 * MINUTE);
    expect(wait('86400')).toBe(HOUR);
    expect(wait('5')).toBe(MINUTE);
  });

  it('Retry-After as an HTTP-date is waited until that date; a date past is the plain back-off (RFC 9309 §2.3.1.4; RFC 9110 §10.2.3)', () => {
    const wait = (date: number): number => {
      const retryAfter = retryAfterSeconds(new Headers({ 'retry-after': new Date(date).toUTCString() }), T);
      return nextEntry(undefined, answered(503, { retryAfter }), T, DEFAULTS).expiresAt - T;
    };
    expect(wait(T + 20 * MINUTE)).toBe(20 * MINUTE);
    expect(wait(T - HOUR)).toBe(MINUTE);
  });

  it('while a stale copy answers, Retry-After decides when the site is asked again (RFC 9309 §2.4)', () => {
    const entry = lastOf([
      [T, ok({ name: 'robots.txt' })],
      [T + DAY, answered(503, { retryAfter: 900 })],
    ]);
    expect(entry).toMatchObject({ stale: true, expiresAt: T + DAY + 15 * MINUTE, refreshFailure: { reason: 'server-error', status: 503 } });
  });

  it('honorRetryAfter: false keeps the plain back-off (RFC 9309 §2.3.1.4)', () => {
    const policy = { ...DEFAULTS, honorRetryAfter: false };
    expect(nextEntry(undefined, answered(429, { retryAfter: 1800 }), T, policy).expiresAt).toBe(T + MINUTE);
  });
});
