/**
 * Seeded, bounded fuzzing of what a process of a fleet reads from the shared store: valid records of every
 * kind an entry can be, mutated (fields of other types, times from years back to years ahead and 1e300,
 * long strings, validators no header can carry, other reasons and outcomes, `__proto__` and `constructor`
 * keys, cut or changed bodies). Whatever the record, a reader never throws, never answers past what its own
 * fetch would have given (RFC 9309 §2.4: its maxLifetimeMs from the fetch; the longest back-off; a stale copy
 * only within the stale limit from its fetch), counts a record it cannot decode as invalid, and writes back
 * only records of its own that decode and keep those limits. The site is a real HTTP server on 127.0.0.1.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fetchFacts } from '../../support/fetch-facts.js';
import { RobotsCache, type RobotsSource } from '../../../src/platform/inline.js';
import { CACHE_LIMITS } from '../../../src/cache/cache-policy.js';
import type { FetchFacts } from '../../../src/cache/cache-transitions.js';
import { outcomeOf, type RobotsFetchReason } from '../../../src/fetch/outcome.js';
import { decodeRecord, encodeRecord, recordKey, type SharedEntry } from '../../../src/cache/shared-record.js';
import { closeServers, startServer, type TestServer } from '../../support/http-server.js';
import { MemoryStore } from '../../support/memory-store.js';

const UA = 'ExampleBot/1.2 (+https://example.com/bot)';
const RULES = 'User-agent: *\nDisallow: /private/\n';
const MAX_BYTES = 500_000;
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 0, 1);
const { maxBackoff, staleLimit } = CACHE_LIMITS;

let server: TestServer;
/** What the site answers: its file (and a 304 to its ETag), or a 503. */
let siteUp = true;

beforeAll(async () => {
  server = await startServer({
    '/robots.txt': (request, response) => {
      if (!siteUp) return void response.writeHead(503).end();
      if (request.headers['if-none-match'] === '"v1"') return void response.writeHead(304, { etag: '"v1"' }).end();
      response.writeHead(200, { 'content-type': 'text/plain', etag: '"v1"' }).end(RULES);
    },
  });
});

afterAll(closeServers);

/** A store that notes the reader's clock at each write. */
class RecordingStore extends MemoryStore {
  readonly writes: { readonly value: string; readonly at: number }[] = [];

  constructor(private readonly clock: () => number) {
    super();
  }

  override set(key: string, value: string, ttlMs: number): Promise<void> {
    this.writes.push({ value, at: this.clock() });
    return super.set(key, value, ttlMs);
  }
}

function facts(origin: string, overrides: Partial<FetchFacts>): FetchFacts {
  return fetchFacts(origin, { bytes: RULES.length, ...overrides });
}

/** A valid entry of each kind the cache keeps, fetched `age` before NOW. */
function validEntry(kind: number, origin: string, age: number): SharedEntry {
  const fetchedAt = NOW - age;
  const file = new TextEncoder().encode(RULES);
  const rules = { facts: facts(origin, {}), file, fetchedAt, maxAge: undefined, etag: '"v1"', lastModified: undefined };
  const allowing = {
    facts: facts(origin, { outcome: 'allow-all', reason: 'client-error', status: 404, bytes: 0, etag: undefined }),
    file: undefined,
    fetchedAt,
    maxAge: undefined,
    etag: undefined,
    lastModified: undefined,
  };
  const failure = { reason: 'server-error', status: 503, at: NOW - MINUTE } as const;
  switch (kind) {
    case 0:
      return { copy: rules, stale: false, expiresAt: fetchedAt + DAY, failures: 0, refreshFailure: undefined };
    case 1:
      return { copy: rules, stale: true, expiresAt: NOW + MINUTE, failures: 2, refreshFailure: failure };
    case 2:
      return { copy: allowing, stale: false, expiresAt: fetchedAt + DAY, failures: 0, refreshFailure: undefined };
    case 3:
      return { copy: allowing, stale: true, expiresAt: NOW + MINUTE, failures: 1, refreshFailure: failure };
    default: {
      const down = facts(origin, { outcome: 'disallow-all', reason: 'server-error', status: 503, bytes: 0, etag: undefined });
      const copy = { facts: down, file: undefined, fetchedAt, maxAge: undefined, etag: undefined, lastModified: undefined };
      return { copy, stale: false, expiresAt: fetchedAt + 2 * MINUTE, failures: 2, refreshFailure: undefined };
    }
  }
}

type Place = 'top' | 'facts' | 'refreshFailure';
type Mutation =
  | { readonly kind: 'set'; readonly place: Place; readonly field: string; readonly value: unknown }
  | { readonly kind: 'delete'; readonly place: Place; readonly field: string }
  | { readonly kind: 'proto'; readonly place: 'top' | 'facts'; readonly value: unknown }
  | { readonly kind: 'body'; readonly cut: number; readonly append: string };

const FIELDS: Record<Place, readonly string[]> = {
  top: [
    'format',
    'origin',
    'maxBytes',
    'profile',
    'facts',
    'fetchedAt',
    'maxAge',
    'etag',
    'lastModified',
    'stale',
    'expiresAt',
    'failures',
    'refreshFailure',
    'body',
    'constructor',
    'toString',
  ],
  facts: [
    'outcome',
    'reason',
    'status',
    'origin',
    'robotsUrl',
    'finalUrl',
    'redirects',
    'bytes',
    'truncated',
    'bytesIgnored',
    'contentType',
    'looksLikeHtml',
    'maxAge',
    'retryAfter',
    'etag',
    'lastModified',
    'constructor',
  ],
  refreshFailure: ['reason', 'status', 'at', 'constructor'],
};

function mutations(origin: string): fc.Arbitrary<Mutation[]> {
  const time = fc.oneof(
    fc.integer({ min: -400, max: 400 }).map((days) => NOW + days * DAY),
    fc.integer({ min: -7200, max: 7200 }).map((seconds) => NOW + seconds * SECOND),
    fc.constantFrom(0, -1, 0.5, 1e300, Number.MAX_VALUE, Number.MAX_SAFE_INTEGER),
  );
  const validator = fc.constantFrom(
    ...['"x\ny"', '"€"', '"\u0000"', '"\u007f"', ' "v1"', '"v1"\t', 'Thu, 01 Jan 2026 00:00:00 GMT\r\nX-Injected: 1'],
    ...['"v1"', 'W/"v2"', '', 'Thu, 01 Jan 2026 00:00:00 GMT'],
  );
  const reason = fc.constantFrom('ok', 'client-error', 'server-error', 'timeout', 'not-200', 'host-refused', 'redirect-refused', 'teapot');
  const outcome = fc.constantFrom('rules', 'allow-all', 'disallow-all');
  const anything = fc.oneof(
    time,
    validator,
    reason,
    outcome,
    fc.constantFrom(origin, `${origin}/robots.txt`, 'https://other.example/robots.txt', 'x'.repeat(70_000), '__proto__', 'constructor'),
    fc.constantFrom('none', 'utf8', 'base64', 'rfc9309', 'google', 'yandex'),
    fc.string({ maxLength: 12 }),
    fc.integer({ min: -2, max: 600 }),
    fc.double({ noNaN: true }),
    fc.boolean(),
    fc.constantFrom(null, [], {}, { reason: 'timeout', status: 0, at: NOW }, { reason: 'host-refused', status: 0, at: NOW }),
  );
  const set = (place: Place, field: string, value: unknown): Mutation => ({ kind: 'set', place, field, value });
  const place = fc.constantFrom<Place>('top', 'facts', 'refreshFailure');
  const field = (where: Place): fc.Arbitrary<string> => fc.constantFrom(...FIELDS[where]);
  // Families that keep a record decoding while they push one value out of range, and plain damage.
  const families: fc.Arbitrary<Mutation[]> = fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .tuple(fc.constantFrom<[Place, string]>(['top', 'fetchedAt'], ['top', 'expiresAt'], ['refreshFailure', 'at']), time)
        .map(([[where, name], value]) => [set(where, name, value)]),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom('etag', 'lastModified'), validator, fc.boolean())
        .map(([name, value, inFacts]) => [set('top', name, value), ...(inFacts ? [set('facts', name, value)] : [])]),
    },
    {
      weight: 3,
      arbitrary: fc.tuple(reason, fc.option(outcome, { freq: 4 }), fc.boolean()).map(([why, what, failed]) => {
        if (failed) return [set('refreshFailure', 'reason', why)];
        // Mostly the outcome the reason leads to, so that the record still decodes.
        const led = why === 'teapot' ? 'rules' : outcomeOf(why as RobotsFetchReason);
        return [set('facts', 'reason', why), set('facts', 'outcome', what ?? led)];
      }),
    },
    { weight: 4, arbitrary: place.chain((where) => fc.tuple(field(where), anything).map(([name, value]) => [set(where, name, value)])) },
    {
      weight: 1,
      arbitrary: place.chain((where) => field(where).map((name): Mutation[] => [{ kind: 'delete', place: where, field: name }])),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom<'top' | 'facts'>('top', 'facts'), anything)
        .map(([where, value]): Mutation[] => [{ kind: 'proto', place: where, value }]),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.nat(8), fc.string({ maxLength: 8 })).map(([cut, append]): Mutation[] => [{ kind: 'body', cut, append }]),
    },
  );
  return fc.array(families, { maxLength: 3 }).map((changes) => changes.flat());
}

/** `record` with `changes` made: to its JSON header as an object, to its text (a literal `__proto__` key), to its body. */
function mutate(record: string, changes: readonly Mutation[]): string {
  const newline = record.indexOf('\n');
  const header = JSON.parse(record.slice(0, newline)) as Record<string, unknown>;
  let body = record.slice(newline + 1);
  const protoKeys: { place: 'top' | 'facts'; value: unknown }[] = [];
  for (const change of changes) {
    if (change.kind === 'body') body = body.slice(0, Math.max(0, body.length - change.cut)) + change.append;
    else if (change.kind === 'proto') protoKeys.push(change);
    else {
      const target = change.place === 'top' ? header : header[change.place];
      if (typeof target !== 'object' || target === null || Array.isArray(target)) continue;
      if (change.kind === 'set')
        Object.defineProperty(target, change.field, { value: change.value, enumerable: true, writable: true, configurable: true });
      else delete (target as Record<string, unknown>)[change.field];
    }
  }
  let json = JSON.stringify(header);
  // An object literal's `__proto__` sets the prototype; as JSON text it is a key like any other.
  for (const { place, value } of protoKeys) {
    const opening = place === 'top' ? '{' : '"facts":{';
    json = json.replace(opening, `${opening}"__proto__":${JSON.stringify(value)},`);
  }
  return `${json}\n${body}`;
}

/** The latest time `source` may answer until, by what the reader's own fetch would have given. */
function longestAnswer(source: RobotsSource, maxLifetimeMs: number): number {
  const { refreshFailure, fetchedAt } = source;
  if (refreshFailure !== undefined) return Math.min(refreshFailure.at + maxBackoff, fetchedAt + staleLimit);
  return fetchedAt + (source.outcome === 'disallow-all' ? maxBackoff : maxLifetimeMs);
}

/** What no answer of a reader whose clock says `now` may hold. */
function expectWithinLimits(source: RobotsSource, now: number, maxLifetimeMs: number): void {
  // The site is on loopback and always answers: a network error could only be a request the reader built wrong.
  expect(source.reason).not.toBe('network-error');
  // This reader has no host policy: a refusal could only be another process's.
  expect(source.reason).not.toMatch(/^(?:host|redirect)-refused$/);
  expect(source.refreshFailure?.reason ?? 'none').not.toMatch(/^(?:host|redirect)-refused$/);
  expect(source.refreshFailure?.reason).not.toBe('network-error');
  expect(source.fetchedAt).toBeLessThanOrEqual(now);
  expect(source.refreshFailure?.at ?? now).toBeLessThanOrEqual(now);
  expect(source.expiresAt).toBeLessThanOrEqual(longestAnswer(source, maxLifetimeMs));
  if (source.from === 'stale') expect(now).toBeLessThan(source.fetchedAt + staleLimit);
}

it('a reader never throws, never outlives its own limits, and never writes a damaged record back', async () => {
  const origin = server.origin;
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        kind: fc.integer({ min: 0, max: 4 }),
        // Half of them fresh for any reader.
        age: fc.oneof(fc.integer({ min: 0, max: 30 * SECOND }), fc.integer({ min: 0, max: 40 * DAY })),
        changes: mutations(origin),
        maxLifetimeMs: fc.constantFrom(MINUTE, HOUR, DAY),
        up: fc.boolean(),
      }),
      async ({ kind, age, changes, maxLifetimeMs, up }) => {
        const record = mutate(encodeRecord(origin, validEntry(kind, origin, age), MAX_BYTES) as string, changes);
        let clock = NOW;
        const store = new RecordingStore(() => clock);
        store.put(recordKey(origin), record);
        const reader = new RobotsCache({
          userAgent: UA,
          now: () => clock,
          store,
          storeTimeoutMs: 5_000,
          maxLifetimeMs,
          maxBytes: MAX_BYTES,
        });
        try {
          siteUp = up;
          const first = (await reader.explain(`${origin}/private/x`)).source;
          expectWithinLimits(first, clock, maxLifetimeMs);
          const damaged = decodeRecord(record, origin, MAX_BYTES) === undefined;
          expect(reader.stats().store.invalid).toBe(damaged ? 1 : 0);

          // Past the longest the reader gives anything, with the site down: its copy no longer answers as it was.
          siteUp = false;
          store.values.clear();
          clock += Math.max(maxLifetimeMs, maxBackoff);
          const later = (await reader.explain(`${origin}/private/x`)).source;
          expect(later.from).not.toMatch(/^(?:cache|store)$/);
          expectWithinLimits(later, clock, maxLifetimeMs);

          // Past the stale limit of any copy it held: no stale answer.
          store.values.clear();
          clock += staleLimit + maxBackoff;
          expect((await reader.explain(`${origin}/private/x`)).source).toMatchObject({ from: 'network', outcome: 'disallow-all' });

          for (const write of store.writes) {
            if (damaged) expect(write.value).not.toBe(record);
            const written = decodeRecord(write.value, origin, MAX_BYTES);
            expect(written).toBeDefined();
            const header = JSON.parse(write.value.slice(0, write.value.indexOf('\n'))) as Record<string, unknown>;
            // Nothing the decoder drops (validators no header can carry) was written.
            expect({ etag: header.etag, lastModified: header.lastModified }).toEqual({
              etag: written?.copy.etag,
              lastModified: written?.copy.lastModified,
            });
            const { copy, expiresAt, refreshFailure } = written as SharedEntry;
            expectWithinLimits(
              { ...copy.facts, fetchedAt: copy.fetchedAt, expiresAt, refreshFailure, from: 'network' },
              write.at,
              maxLifetimeMs,
            );
          }
        } finally {
          reader.dispose();
        }
      },
    ),
    { seed: 28, numRuns: 500 },
  );
});
