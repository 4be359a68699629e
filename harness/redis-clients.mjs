/**
 * The Redis clients robotstxt-wasm/redis serves, each major as the package's devDependencies install it
 * (`redis-4` is `npm:redis@4`, and so on), connected the same way for the tests and bench/fleet/run.mjs: errors
 * of a lost server handled (the fault tests stop it; RobotsCache counts what that does), reconnecting every
 * 50 ms. Plain JavaScript typed in JSDoc, so that the benchmark's child processes run on plain Node.
 *
 * @example
 * const connection = await connectRedis('ioredis@6', 'redis://127.0.0.1:6379');
 * await connection.command(['PING']); // 'PONG'
 * await connection.close();
 */

/**
 * @typedef {object} RedisConnection
 * @property {import('../src/store/redis.js').RedisClient} client what redisStore() is given
 * @property {(args: string[]) => Promise<unknown>} command a raw command, for the tests' own looks at Redis
 * @property {() => Promise<void>} close disconnects at once (no QUIT: the server may be gone)
 */

/** @typedef {'redis@6' | 'redis@5' | 'redis@4' | 'ioredis@6' | 'ioredis@5'} RedisClientName */

/** @type {readonly RedisClientName[]} */
export const REDIS_CLIENTS = ['redis@6', 'redis@5', 'redis@4', 'ioredis@6', 'ioredis@5'];

const RECONNECT_MS = 50;

/**
 * What these tests use of a node-redis client, every major alike (each one's createClient is checked against it).
 * @typedef {{ on(event: 'error', listener: () => void): unknown, connect(): Promise<unknown>, sendCommand(args: string[]): Promise<unknown>, disconnect(): Promise<void> }} NodeRedis
 * @typedef {(options: { url: string, socket: { reconnectStrategy: () => number, connectTimeout: number } }) => NodeRedis} CreateNodeRedis
 */

/** @param {CreateNodeRedis} createClient @param {string} url @returns {Promise<RedisConnection>} */
async function nodeRedis(createClient, url) {
  const client = createClient({ url, socket: { reconnectStrategy: () => RECONNECT_MS, connectTimeout: 1000 } });
  client.on('error', () => undefined);
  await client.connect();
  return {
    client,
    command: (args) => client.sendCommand(args),
    close: () => client.disconnect(),
  };
}

/**
 * What these tests use of an ioredis client, both majors alike.
 * @typedef {{ on(event: 'error', listener: () => void): unknown, connect(): Promise<void>, call(command: string, ...args: string[]): Promise<unknown>, disconnect(): void }} Ioredis
 * @typedef {new (url: string, options: { lazyConnect: boolean, retryStrategy: () => number }) => Ioredis} IoredisClass
 */

/** @param {IoredisClass} Redis @param {string} url @returns {Promise<RedisConnection>} */
async function ioredis(Redis, url) {
  const client = new Redis(url, { lazyConnect: true, retryStrategy: () => RECONNECT_MS });
  client.on('error', () => undefined);
  await client.connect();
  return {
    client,
    command: ([command = 'PING', ...args]) => client.call(command, ...args),
    close: async () => client.disconnect(),
  };
}

/** Connects `name`'s client to `url`. @param {RedisClientName} name @param {string} url @returns {Promise<RedisConnection>} */
export async function connectRedis(name, url) {
  switch (name) {
    case 'redis@6':
      return nodeRedis((await import('redis')).createClient, url);
    case 'redis@5':
      return nodeRedis((await import('redis-5')).createClient, url);
    case 'redis@4':
      return nodeRedis((await import('redis-4')).createClient, url);
    case 'ioredis@6':
      return ioredis((await import('ioredis')).Redis, url);
    case 'ioredis@5':
      return ioredis((await import('ioredis-5')).Redis, url);
  }
}

/**
 * `store` with its calls counted: each is one round trip to Redis (a lease's release is one EVAL).
 * @param {import('../src/index.js').RobotsStore} store
 * @returns {{ store: import('../src/index.js').RobotsStore, roundTrips: () => number }}
 */
export function countRoundTrips(store) {
  let calls = 0;
  const { acquire, release } = store;
  return {
    store: {
      get: (key) => (calls++, store.get(key)),
      set: (key, value, ttlMs) => (calls++, store.set(key, value, ttlMs)),
      ...(acquire === undefined || release === undefined
        ? {}
        : {
            acquire: (key, token, ttlMs) => (calls++, acquire.call(store, key, token, ttlMs)),
            release: (key, token) => (calls++, release.call(store, key, token)),
          }),
    },
    roundTrips: () => calls,
  };
}
