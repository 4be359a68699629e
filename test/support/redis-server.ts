/**
 * The Redis suites' server (harness/redis-server.mjs: a real redis-server on a free loopback port) and their rule
 * for a machine without one (system-tool.ts): the suites skip with a note saying how to install it, except
 * under CI=true (where .ci/run installs it), where a missing redis-server fails them.
 */
import { REDIS_INSTALL, startRedisServer, type RedisServer } from '../../harness/redis-server.mjs';
import { systemTool, type SystemTool } from './system-tool.js';

export { startRedisServer, type RedisServer };

/** Whether the Redis suites run here; see systemTool(). */
export function redisServerTool(): SystemTool {
  return systemTool({ name: 'redis-server', install: REDIS_INSTALL, version: /Redis server v=/ });
}
