/**
 * A real redis-server for the Redis tests and bench/fleet/run.mjs: on a free 127.0.0.1 port, in a temporary
 * directory of its own, persisting nothing; stopped and started again on the same port (the fault tests), and
 * always cleaned up (close(), and the process's exit). Plain JavaScript typed in JSDoc, so that the benchmark
 * runs on plain Node; test/support/redis-server.ts adds the tests' rule for a machine without redis-server.
 *
 * @example
 * if (redisServerInstalled()) { const redis = await startRedisServer(); … await redis.close(); }
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How to install it, for the notes of a run that skips. */
export const REDIS_INSTALL = 'apt-get install -y redis-server';

/**
 * @typedef {object} RedisServer
 * @property {number} port
 * @property {string} url `redis://127.0.0.1:<port>`
 * @property {() => Promise<void>} stop Kills the server (SIGKILL: a crash, nothing said to its clients) and waits until it has exited.
 * @property {() => Promise<void>} start Starts it again on the same port, empty, and waits until it answers.
 * @property {() => Promise<void>} close Stops it for good and removes its directory.
 */

/** Whether `redis-server` runs here. @returns {boolean} */
export function redisServerInstalled() {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return probe.status === 0 && /Redis server v=/.test(probe.stdout);
}

/** A loopback port nothing listens on: bound, then released. @returns {Promise<number>} */
async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  await new Promise((resolve) => server.close(() => resolve(undefined)));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Whether a PING to 127.0.0.1:port gets PONG. @param {number} port @returns {Promise<boolean>} */
function pong(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    socket.setTimeout(500, () => socket.destroy());
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
      if (reply.includes('\r\n')) socket.end();
    });
    socket.on('close', () => resolve(reply.startsWith('+PONG')));
    socket.on('error', () => undefined);
  });
}

/** @param {import('node:child_process').ChildProcess} child @returns {Promise<void>} */
function exited(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts a redis-server on a free loopback port, with its own temporary directory. @returns {Promise<RedisServer>} */
export async function startRedisServer() {
  const port = await freePort();
  const directory = mkdtempSync(join(tmpdir(), 'robotstxt-redis-'));
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let child;
  const kill = () => void child?.kill('SIGKILL');

  const start = async () => {
    let output = '';
    const started = spawn(
      'redis-server',
      ['--save', '', '--appendonly', 'no', '--bind', '127.0.0.1', '--port', String(port), '--dir', directory, '--daemonize', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = started;
    /** @param {Buffer} chunk */
    const collect = (chunk) => void (output = (output + chunk.toString()).slice(-2000));
    started.stdout.on('data', collect);
    started.stderr.on('data', collect);
    const until = Date.now() + 10_000;
    while (!(await pong(port))) {
      if (started.exitCode !== null || Date.now() > until) {
        kill();
        throw new Error(`redis-server on port ${port} did not answer PING; its output:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  const stop = async () => {
    const stopping = child;
    if (stopping === undefined) return;
    child = undefined;
    stopping.kill('SIGKILL');
    await exited(stopping);
  };

  await start();
  process.once('exit', kill);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    close: async () => {
      process.off('exit', kill);
      await stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
