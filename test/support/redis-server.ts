/**
 * The Redis suites' server (bench/redis-server.mjs: a real redis-server on a free loopback port) and their rule
 * for a machine without one: the suites skip with a note saying how to install it, except under CI=true
 * (where .ci/run installs it), where a missing redis-server fails them.
 */
import { REDIS_INSTALL, redisServerInstalled, startRedisServer, type RedisServer } from '../../bench/redis-server.mjs';

export { startRedisServer, type RedisServer };

export type RedisServerTool = { readonly found: true } | { readonly found: false; readonly note: string };

/** Whether the Redis suites run here; a skip's note goes to the console, where the run shows it. */
export function redisServerTool(env: NodeJS.ProcessEnv = process.env): RedisServerTool {
  if (redisServerInstalled()) return { found: true };
  if (env.CI === 'true') throw new Error(`redis-server is not installed, and CI=true needs it: ${REDIS_INSTALL} (.ci/run does)`);
  const note = `skipped: redis-server is not installed; to run the Redis suites: ${REDIS_INSTALL}`;
  console.warn(note);
  return { found: false, note };
}
