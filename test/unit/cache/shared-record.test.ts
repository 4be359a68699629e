/**
 * The record a fleet of RobotsCaches shares per origin: every entry the cache can hold comes back as it went
 * in, the format's version is in the key, a record that is anything else (damaged, another format, another
 * origin, another body limit, too large, an outcome of its writer's own policy) decodes to nothing, and one
 * that decodes is trusted no further than the reader's own fetch (RFC 9309 §2.4).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fetchFacts } from '../../support/fetch-facts.js';
import type { FetchFacts } from '../../../src/cache/cache-transitions.js';
import {
  decodeRecord,
  encodeRecord,
  leaseKey,
  maxRecordChars,
  RECORD_FORMAT,
  recordKey,
  trustedEntry,
  type SharedEntry,
} from '../../../src/cache/shared-record.js';
import { CACHE_LIMITS } from '../../../src/cache/cache-policy.js';

const ORIGIN = 'https://example.com';
const MAX_BYTES = 500_000;
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

function facts(overrides: Partial<FetchFacts> = {}): FetchFacts {
  return fetchFacts(ORIGIN, overrides);
}

function rulesEntry(body: Uint8Array, overrides: Partial<FetchFacts> = {}): SharedEntry {
  const copy = {
    facts: facts({ bytes: body.length, ...overrides }),
    file: body,
    fetchedAt: 1_000,
    maxAge: 60,
    etag: '"v1"',
    lastModified: undefined,
  };
  return { copy, stale: false, expiresAt: 61_000, failures: 0, refreshFailure: undefined };
}

function verdictEntry(reason: 'client-error' | 'server-error', status: number): SharedEntry {
  const outcome = reason === 'client-error' ? 'allow-all' : 'disallow-all';
  const copy = {
    facts: facts({ outcome, reason, status, etag: undefined, bytesIgnored: 0 }),
    file: undefined,
    fetchedAt: 5,
    maxAge: undefined,
    etag: undefined,
    lastModified: undefined,
  };
  return { copy, stale: false, expiresAt: 60_005, failures: reason === 'server-error' ? 1 : 0, refreshFailure: undefined };
}

function roundTrip(entry: SharedEntry, maxBytes = MAX_BYTES): SharedEntry | undefined {
  const record = encodeRecord(ORIGIN, entry, maxBytes);
  expect(record).toBeTypeOf('string');
  return decodeRecord(record as string, ORIGIN, maxBytes);
}

/** The header of an encoded record, changed by `change`, with the body after it as it was. */
function withHeader(entry: SharedEntry, change: (header: Record<string, unknown>) => void): string {
  const record = encodeRecord(ORIGIN, entry, MAX_BYTES) as string;
  const newline = record.indexOf('\n');
  const header = JSON.parse(record.slice(0, newline)) as Record<string, unknown>;
  change(header);
  return `${JSON.stringify(header)}\n${record.slice(newline + 1)}`;
}

describe('keys', () => {
  it('carry the format version and the origin, for the record and for the lease', () => {
    expect(RECORD_FORMAT).toBe(1);
    expect(recordKey(ORIGIN)).toBe('v1/record/https://example.com');
    expect(leaseKey(ORIGIN)).toBe('v1/lease/https://example.com');
  });
});

describe('every entry the cache can hold comes back as it went in', () => {
  it('a file as UTF-8 text, its BOM kept', () => {
    const entry = rulesEntry(bytes('\uFEFFUser-agent: *\nDisallow: /private/ # ünïcode\n'));
    const record = encodeRecord(ORIGIN, entry, MAX_BYTES) as string;
    expect(record.endsWith('Disallow: /private/ # ünïcode\n')).toBe(true);
    expect(roundTrip(entry)).toEqual(entry);
  });

  it('a file that is not UTF-8 (Latin-1), in base64', () => {
    const latin1 = Uint8Array.from([...'User-agent: *\nDisallow: /caf'].map((c) => c.charCodeAt(0)).concat([0xe9, 0x0a]));
    const entry = rulesEntry(latin1);
    expect(JSON.parse((encodeRecord(ORIGIN, entry, MAX_BYTES) as string).split('\n')[0] as string).body).toBe('base64');
    expect(roundTrip(entry)).toEqual(entry);
  });

  it('a body cut at maxBytes, with the byte after the limit, when the reader has the same limit', () => {
    const body = bytes('User-agent: *\nDisallow: /a\nDisallow: /b');
    const entry = rulesEntry(body, { bytes: body.length - 1, truncated: true, bytesIgnored: undefined });
    expect(roundTrip(entry, body.length - 1)).toEqual(entry);
    // Another limit would have read another file: not this record.
    expect(decodeRecord(encodeRecord(ORIGIN, entry, body.length - 1) as string, ORIGIN, body.length + 10)).toBeUndefined();
    // An uncut body serves any limit it fits in.
    const whole = rulesEntry(body);
    expect(decodeRecord(encodeRecord(ORIGIN, whole, 1000) as string, ORIGIN, 2000)).toEqual(whole);
    expect(decodeRecord(encodeRecord(ORIGIN, whole, 1000) as string, ORIGIN, 10)).toBeUndefined();
  });

  it('allow-all and disallow-all, with their back-off', () => {
    expect(roundTrip(verdictEntry('client-error', 404))).toEqual(verdictEntry('client-error', 404));
    expect(roundTrip(verdictEntry('server-error', 503))).toEqual(verdictEntry('server-error', 503));
  });

  it('a stale copy standing in for an unreachable site, with the refresh that failed', () => {
    const good = rulesEntry(bytes('User-agent: *\nDisallow: /x\n'));
    const stale: SharedEntry = {
      ...good,
      stale: true,
      failures: 2,
      expiresAt: 200_000,
      refreshFailure: { reason: 'timeout', status: 0, at: 100_000 },
    };
    expect(roundTrip(stale)).toEqual(stale);
  });

  it('a stale allow-all (a 4xx, then the site unreachable) with the refresh that failed', () => {
    const allowing = verdictEntry('client-error', 404);
    const stale: SharedEntry = {
      ...allowing,
      stale: true,
      failures: 1,
      refreshFailure: { reason: 'server-error', status: 503, at: 90_000 },
    };
    expect(roundTrip(stale)).toEqual(stale);
  });

  it('random files and states', () => {
    // ETags as a response's Headers give them: no whitespace at either end.
    const etag = fc.option(
      fc.string().map((text) => text.trim()),
      { nil: undefined },
    );
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.record({ fetchedAt: fc.nat(), lifetime: fc.nat(), failures: fc.nat(20), etag }),
        (body, { fetchedAt, lifetime, failures, etag }) => {
          const entry = rulesEntry(body, { etag });
          const changed: SharedEntry = { ...entry, copy: { ...entry.copy, fetchedAt, etag }, expiresAt: fetchedAt + lifetime, failures };
          expect(roundTrip(changed)).toEqual(changed);
        },
      ),
      { seed: 21, numRuns: 200 },
    );
  });
});

describe('a record that is anything else decodes to nothing', () => {
  const entry = rulesEntry(bytes('User-agent: *\nDisallow: /private/\n'));

  it('damaged: not a record, a cut header, a cut or lengthened body, an unknown body encoding', () => {
    const record = encodeRecord(ORIGIN, entry, MAX_BYTES) as string;
    for (const damaged of ['', 'garbage', 'null\n', '[]\n', record.slice(0, 40), record.slice(0, -3), `${record}x`])
      expect(decodeRecord(damaged, ORIGIN, MAX_BYTES), damaged).toBeUndefined();
    expect(
      decodeRecord(
        withHeader(entry, (header) => (header.body = 'gzip')),
        ORIGIN,
        MAX_BYTES,
      ),
    ).toBeUndefined();
    const binary = rulesEntry(Uint8Array.of(0xff, 0xfe, 0x00));
    expect(decodeRecord(withHeader(binary, () => undefined).replace(/\n.*$/s, '\n!!!'), ORIGIN, MAX_BYTES)).toBeUndefined();
  });

  it('another profile: one reads a fetch otherwise (Yandex: a 5xx allows everything), so its records are its own', () => {
    const record = encodeRecord(ORIGIN, verdictEntry('server-error', 503), MAX_BYTES, 'google') as string;
    expect(decodeRecord(record, ORIGIN, MAX_BYTES, 'google')).toEqual(verdictEntry('server-error', 503));
    expect(decodeRecord(record, ORIGIN, MAX_BYTES, 'yandex')).toBeUndefined();
    expect(decodeRecord(record, ORIGIN, MAX_BYTES)).toBeUndefined();
  });

  it('another format, or another origin (a record copied under another key)', () => {
    expect(
      decodeRecord(
        withHeader(entry, (header) => (header.format = 2)),
        ORIGIN,
        MAX_BYTES,
      ),
    ).toBeUndefined();
    expect(decodeRecord(encodeRecord(ORIGIN, entry, MAX_BYTES) as string, 'https://other.example', MAX_BYTES)).toBeUndefined();
    const moved = withHeader(entry, (header) => (header.origin = 'https://other.example'));
    expect(decodeRecord(moved, 'https://other.example', MAX_BYTES)).toBeUndefined();
  });

  it('fields missing, of another type, negative, or contradicting each other', () => {
    const changes: ((header: Record<string, unknown>) => void)[] = [
      (header) => delete header.expiresAt,
      (header) => (header.expiresAt = '61000'),
      (header) => (header.failures = -1),
      (header) => (header.stale = 'no'),
      (header) => (header.etag = 5),
      (header) => ((header.facts as Record<string, unknown>).status = Number.NaN),
      (header) => ((header.facts as Record<string, unknown>).reason = 'teapot'),
      (header) => ((header.facts as Record<string, unknown>).outcome = 'allow-all'),
      (header) => ((header.facts as Record<string, unknown>).robotsUrl = 'https://elsewhere.example/robots.txt'),
      (header) => ((header.facts as Record<string, unknown>).bytes = 3),
      (header) => delete (header.facts as Record<string, unknown>).truncated,
      (header) => (header.stale = true),
      (header) => (header.refreshFailure = { reason: 'timeout', status: 0, at: 1 }),
      (header) => (header.facts = null),
    ];
    for (const change of changes) expect(decodeRecord(withHeader(entry, change), ORIGIN, MAX_BYTES), String(change)).toBeUndefined();
  });

  it('a body beside an outcome that has none', () => {
    const record = encodeRecord(ORIGIN, verdictEntry('server-error', 500), MAX_BYTES) as string;
    expect(decodeRecord(`${record}User-agent: *\nDisallow: /\n`, ORIGIN, MAX_BYTES)).toBeUndefined();
  });
});

describe("an outcome of the writer's own policy is not shared", () => {
  it('host-refused and redirect-refused (its allowHost, allowRedirect, or its fetch refusing an address) are not written', () => {
    const refused = verdictEntry('server-error', 0);
    const hostRefused: SharedEntry = {
      ...refused,
      copy: { ...refused.copy, facts: facts({ ...refused.copy.facts, reason: 'host-refused' }) },
    };
    expect(encodeRecord(ORIGIN, hostRefused, MAX_BYTES)).toBeUndefined();
    const allowing = verdictEntry('client-error', 301);
    const redirectRefused: SharedEntry = {
      ...allowing,
      copy: { ...allowing.copy, facts: facts({ ...allowing.copy.facts, reason: 'redirect-refused' }) },
    };
    expect(encodeRecord(ORIGIN, redirectRefused, MAX_BYTES)).toBeUndefined();
    // Nor a stale entry standing in with such a copy.
    const stale: SharedEntry = { ...redirectRefused, stale: true, failures: 1, refreshFailure: { reason: 'timeout', status: 0, at: 9 } };
    expect(encodeRecord(ORIGIN, stale, MAX_BYTES)).toBeUndefined();
  });

  it('a record of one, or a refresh failure that unreachable() never records, decodes to nothing', () => {
    const down = verdictEntry('server-error', 503);
    const good = rulesEntry(bytes('User-agent: *\nDisallow: /x\n'));
    const stale: SharedEntry = { ...good, stale: true, failures: 1, refreshFailure: { reason: 'timeout', status: 0, at: 100_000 } };
    expect(decodeRecord(encodeRecord(ORIGIN, stale, MAX_BYTES) as string, ORIGIN, MAX_BYTES)).toEqual(stale);
    const records = [
      withHeader(down, (header) => ((header.facts as Record<string, unknown>).reason = 'host-refused')),
      withHeader(verdictEntry('client-error', 301), (header) => ((header.facts as Record<string, unknown>).reason = 'redirect-refused')),
      withHeader(stale, (header) => ((header.refreshFailure as Record<string, unknown>).reason = 'host-refused')),
      withHeader(stale, (header) => ((header.refreshFailure as Record<string, unknown>).reason = 'ok')),
      withHeader(stale, (header) => ((header.refreshFailure as Record<string, unknown>).reason = 'client-error')),
    ];
    for (const record of records) expect(decodeRecord(record, ORIGIN, MAX_BYTES), record).toBeUndefined();
  });
});

describe('validators a request could not send are dropped', () => {
  const entry = rulesEntry(bytes('User-agent: *\nDisallow: /private/\n'));
  const withValidators = (etag: string, lastModified: string): SharedEntry | undefined =>
    decodeRecord(
      withHeader(entry, (header) => {
        header.etag = etag;
        header.lastModified = lastModified;
        Object.assign(header.facts as Record<string, unknown>, { etag, lastModified });
      }),
      ORIGIN,
      MAX_BYTES,
    );

  it('drops a line break, a NUL or another control character, a character over U+00FF, whitespace at either end; keeps any field value (RFC 9110 §5.5)', () => {
    for (const bad of ['"x\ny"', '"x\r\nSet-Cookie: a=b"', '"\u0000"', '"\u007f"', '"€"', ' "v1"', '"v1"\t']) {
      const decoded = withValidators(bad, bad);
      expect(decoded, JSON.stringify(bad)).toBeDefined();
      expect(decoded?.copy).toMatchObject({ etag: undefined, lastModified: undefined });
      expect(decoded?.copy.facts).toMatchObject({ etag: undefined, lastModified: undefined });
      expect(decoded?.copy.file).toEqual(entry.copy.file);
    }
    // Weak, obs-text, spaces inside, empty.
    for (const good of ['W/"v1"', '"caf\u00e9"', 'Thu, 01 Jan 2026 00:00:00 GMT', '"a\tb"', '']) {
      expect(withValidators(good, good)?.copy, JSON.stringify(good)).toMatchObject({ etag: good, lastModified: good });
    }
  });
});

describe("a record is trusted no further than the reader's own fetch", () => {
  const NOW = 1_000_000_000_000;
  const lifetimes = { min: 60_000, max: CACHE_LIMITS.maxLifetime };
  const good = rulesEntry(bytes('User-agent: *\nDisallow: /x\n'));
  const at = (fetchedAt: number, expiresAt: number, entry: SharedEntry = good): SharedEntry => ({
    ...entry,
    copy: { ...entry.copy, fetchedAt },
    expiresAt,
  });

  it('a fetch in the future (a writer whose clock runs a year ahead) counts as made now, for at most maxLifetime', () => {
    // What the reader would have given itself stays as it is.
    const fresh = at(NOW - 1_000, NOW + 3_600_000);
    expect(trustedEntry(fresh, NOW, lifetimes)).toEqual(fresh);
    const ahead = at(NOW + 365 * 86_400_000, NOW + 366 * 86_400_000);
    expect(trustedEntry(ahead, NOW, lifetimes)).toMatchObject({ copy: { fetchedAt: NOW }, expiresAt: NOW + 86_400_000 });
    expect(trustedEntry(ahead, NOW, { min: 60_000, max: 600_000 }).expiresAt).toBe(NOW + 600_000);
  });

  it('an expiry past the lifetime counts from the fetch: 1e300, or long enough to expire already', () => {
    expect(trustedEntry(at(NOW, 1e300), NOW, lifetimes).expiresAt).toBe(NOW + 86_400_000);
    expect(trustedEntry(at(NOW - 2 * 86_400_000, NOW + 1_000), NOW, lifetimes).expiresAt).toBe(NOW - 86_400_000);
  });

  it('a back-off lasts at most the longest back-off, whatever maxLifetime', () => {
    const down = verdictEntry('server-error', 503);
    expect(trustedEntry(at(NOW, NOW + 86_400_000, down), NOW, lifetimes).expiresAt).toBe(NOW + CACHE_LIMITS.maxBackoff);
  });

  it('a stale copy: at most the longest back-off after its failure, and never past the stale limit from its fetch', () => {
    const stale = (fetchedAt: number, failedAt: number): SharedEntry => ({
      ...at(fetchedAt, 1e300),
      stale: true,
      failures: 3,
      refreshFailure: { reason: 'timeout', status: 0, at: failedAt },
    });
    expect(trustedEntry(stale(NOW - 86_400_000, NOW), NOW, lifetimes).expiresAt).toBe(NOW + CACHE_LIMITS.maxBackoff);
    expect(trustedEntry(stale(NOW - 86_400_000, NOW + 86_400_000), NOW, lifetimes)).toMatchObject({
      refreshFailure: { at: NOW },
      expiresAt: NOW + CACHE_LIMITS.maxBackoff,
    });
    const old = NOW - CACHE_LIMITS.staleLimit + 1_000;
    expect(trustedEntry(stale(old, NOW), NOW, lifetimes).expiresAt).toBe(NOW + 1_000);
  });
});

describe('records are bounded', () => {
  it('a header over 64 KiB (a site sending a huge ETag) is not written', () => {
    const huge = rulesEntry(bytes('User-agent: *\n'), { etag: 'x'.repeat(70_000) });
    expect(encodeRecord(ORIGIN, huge, MAX_BYTES)).toBeUndefined();
  });

  it('no record of a body within maxBytes is longer than maxRecordChars, and no longer one is read', () => {
    const maxBytes = 3_000;
    const worst = rulesEntry(
      Uint8Array.from({ length: maxBytes + 1 }, (_, i) => (i % 2 === 0 ? 0xff : 0x41)),
      {
        bytes: maxBytes,
        truncated: true,
        bytesIgnored: undefined,
        finalUrl: `${ORIGIN}/${'p'.repeat(8_000)}`,
      },
    );
    const record = encodeRecord(ORIGIN, worst, maxBytes) as string;
    expect(record.length).toBeLessThanOrEqual(maxRecordChars(maxBytes));
    expect(decodeRecord(record, ORIGIN, maxBytes)).toEqual(worst);
    expect(decodeRecord(record + ' '.repeat(maxRecordChars(maxBytes)), ORIGIN, maxBytes)).toBeUndefined();
  });
});
