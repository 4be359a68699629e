/**
 * `robotstxt-wasm/redis`: a RobotsStore on Redis, through the client a crawler already has: `redis`
 * (node-redis 4 to 6) or `ioredis` (5 and 6). The package imports neither: the client is passed in and
 * reached through its generic command entry (ioredis `call`, node-redis `sendCommand`), so one code path
 * serves every major. Deadlines are not kept here: RobotsCache gives each store call its own
 * (`storeTimeoutMs`), which matters since both clients queue commands while disconnected.
 * https://redis.io/docs/latest/commands/set/, https://redis.io/docs/latest/develop/use/patterns/distributed-locks/
 *
 * @module robotstxt-wasm/redis
 */
import type { RobotsStore } from '../cache/robots-store.js';

/** An ioredis client (`new Redis()`): what this adapter uses of it. */
export interface IoredisClient {
  /** Sends one command (`'SET'`, `'EVAL'` …) with its arguments; resolves to Redis's reply. */
  call(command: string, ...args: string[]): Promise<unknown>;
}

/**
 * A node-redis client (`createClient()` of `redis` 4 to 6, connected): what this adapter uses of it. A cluster
 * client (`createCluster()`) has a sendCommand of another shape and is not one.
 */
export interface NodeRedisClient {
  /** Sends one command, its name first (`['SET', key, value]`); resolves to Redis's reply. */
  sendCommand(args: string[]): Promise<unknown>;
}

/** The clients redisStore() takes: ioredis's (`call`) or node-redis's (`sendCommand`), found at run time. */
export type RedisClient = IoredisClient | NodeRedisClient;

/** Options of redisStore(): the key prefix and the bound on values. */
export interface RedisStoreOptions {
  /**
   * Put before each of the cache's keys (`robotstxt:v1/record/https://example.com`), so that the records
   * keep to a namespace of their own. Printable ASCII without spaces, at most 256 characters. Default
   * `'robotstxt:'`.
   */
  readonly prefix?: string;
  /**
   * The longest value set() writes, in characters (String.length): a longer one rejects with a RangeError
   * and nothing is written. Default 1,048,576, above the longest record of a cache with the default
   * `maxBytes` (500 KiB: about 750,000 characters); a cache with a larger `maxBytes` needs about 4/3 of it
   * plus 64 KiB. It bounds get() too, before anything is transferred: a value over 3 × maxValueLength bytes
   * (what that many characters take in UTF-8 at most) reads as absent, and the next write replaces it.
   */
  readonly maxValueLength?: number;
}

const DEFAULT_PREFIX = 'robotstxt:';
const MAX_PREFIX_LENGTH = 256;
const DEFAULT_MAX_VALUE_LENGTH = 1024 * 1024;
/** The cache's keys are its format's version and an origin; an origin this long is no site's. */
const MAX_KEY_LENGTH = 4096;

/**
 * GET within a bound, in the one round trip a GET takes: the value when it is at most ARGV[1] bytes, else
 * its length (STRLEN reads no value), so that a damaged value of any size never crosses the network.
 */
const BOUNDED_GET_SCRIPT =
  "local length = redis.call('STRLEN', KEYS[1]) if length > tonumber(ARGV[1]) then return length end return redis.call('GET', KEYS[1])";

/** Deletes the lease only while the token that took it still holds it: a lease that expired may be another's. */
const RELEASE_SCRIPT = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

type Send = (args: string[]) => Promise<unknown>;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value instanceof Uint8Array) return 'bytes';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value;
}

function commandEntry(client: unknown): Send {
  const methods =
    (typeof client === 'object' || typeof client === 'function') && client !== null ? (client as Record<string, unknown>) : {};
  // ioredis first: it has a sendCommand too, which takes one of its Command objects.
  const { call, sendCommand } = methods;
  if (typeof call === 'function') return (args) => (call as IoredisClient['call']).apply(client, args as [string, ...string[]]);
  if (typeof sendCommand === 'function') return (args) => (sendCommand as NodeRedisClient['sendCommand']).call(client, args);
  throw new TypeError(
    `redisStore(client) takes a Redis client: from \`redis\` (node-redis 4 to 6: createClient(), connected) ` +
      `or \`ioredis\` (new Redis()); got ${client === null ? 'null' : typeof client} with neither call() nor sendCommand()`,
  );
}

function checkPrefix(prefix: unknown): string {
  if (prefix === undefined) return DEFAULT_PREFIX;
  if (typeof prefix !== 'string' || prefix.length > MAX_PREFIX_LENGTH || !/^[\x21-\x7e]*$/.test(prefix)) {
    throw new TypeError(
      `prefix must be printable ASCII without spaces, at most ${MAX_PREFIX_LENGTH} characters (such as 'crawler:robots:'), ` +
        `got ${describe(prefix)}`,
    );
  }
  return prefix;
}

function checkMaxValueLength(value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_VALUE_LENGTH;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`maxValueLength must be a whole number of characters ≥ 1, got ${describe(value)}`);
  }
  return value;
}

function checkKey(key: unknown): string {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new RangeError(`a key must be a string of 1 to ${MAX_KEY_LENGTH} characters, got ${describe(key)}`);
  }
  return key;
}

function checkTtl(ttlMs: unknown): string {
  if (typeof ttlMs !== 'number' || !Number.isSafeInteger(ttlMs) || ttlMs < 1) {
    throw new RangeError(`ttlMs must be a whole number of milliseconds ≥ 1, got ${describe(ttlMs)}`);
  }
  return String(ttlMs);
}

/** A reply of a string command: a string or null (none). Anything else (bytes from a type mapping, say) is an error. */
function textReply(reply: unknown, command: string): string | null {
  if (reply === null || typeof reply === 'string') return reply;
  throw new TypeError(`Redis answered ${command} with ${describe(reply)}, not a string or null: pass a client that answers strings`);
}

/**
 * A RobotsStore on Redis for RobotsCache's `store` option: a GET bounded by a script, `SET key value PX ttl`,
 * and leases by `SET key token NX PX ttl`, given back by a compare-and-delete script. Keys are `prefix` and
 * the cache's key; values written and read are bounded by `maxValueLength`.
 *
 * @example
 * import { createClient } from 'redis';
 * import { RobotsCache } from 'robotstxt-wasm';
 * import { redisStore } from 'robotstxt-wasm/redis';
 * const client = await createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }).on('error', () => {}).connect();
 * const store = redisStore(client, { prefix: 'crawler:' });
 * const robots = new RobotsCache({ userAgent: 'ExampleBot/1.2', store });
 * // What the cache does with it, shown by hand: a value under `crawler:<key>`, for ttlMs.
 * await store.set('example', 'a record', 60_000);
 * await store.get('example'); // 'a record'
 * await client.get('crawler:example'); // 'a record'
 * robots.dispose();
 * await client.quit();
 */
export function redisStore(client: RedisClient, options: RedisStoreOptions = {}): RobotsStore {
  const send = commandEntry(client);
  const prefix = checkPrefix(options.prefix);
  const maxValueLength = checkMaxValueLength(options.maxValueLength);
  // STRLEN counts UTF-8 bytes, maxValueLength UTF-16 units: one unit takes at most 3 bytes.
  const maxReadBytes = String(3 * maxValueLength);
  const keyOf = (key: string): string => prefix + checkKey(key);

  return {
    async get(key) {
      const reply = await send(['EVAL', BOUNDED_GET_SCRIPT, '1', keyOf(key), maxReadBytes]);
      // The length of a value over the bound, which was not transferred.
      if (typeof reply === 'number') return undefined;
      return textReply(reply, 'GET') ?? undefined;
    },

    async set(key, value, ttlMs) {
      if (typeof value !== 'string') throw new TypeError(`a value must be a string, got ${describe(value)}`);
      if (value.length > maxValueLength) {
        throw new RangeError(`a value of ${value.length} characters is over maxValueLength (${maxValueLength}): not written`);
      }
      const reply = textReply(await send(['SET', keyOf(key), value, 'PX', checkTtl(ttlMs)]), 'SET');
      if (reply !== 'OK') throw new TypeError(`Redis answered SET with ${describe(reply)}, not OK`);
    },

    async acquire(key, token, ttlMs) {
      const reply = textReply(await send(['SET', keyOf(key), token, 'NX', 'PX', checkTtl(ttlMs)]), 'SET NX');
      if (reply !== null && reply !== 'OK') throw new TypeError(`Redis answered SET NX with ${describe(reply)}, not OK or null`);
      return reply === 'OK';
    },

    async release(key, token) {
      const reply = await send(['EVAL', RELEASE_SCRIPT, '1', keyOf(key), token]);
      if (typeof reply !== 'number') throw new TypeError(`Redis answered the release script with ${describe(reply)}, not a number`);
    },
  };
}
