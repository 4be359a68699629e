/**
 * The guide's fleet example (docs/fleet.md) needs a Redis server, which the documentation's runner
 * (test/docs/doc-examples.test.ts) does not start, so it is marked `<!-- run by redis-readme.test.ts -->` there; this suite
 * runs it, with its result comments asserted, against a real redis-server on 127.0.0.1 (REDIS_URL), its fetches of
 * https://example.com answered from 127.0.0.1 as every documentation example's are
 * (test/support/docs/example-fetch-preload.mjs).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksRunBy, describeFailure, DOCS_DIR, ExampleRunner } from '../support/docs/doc-examples.js';
import { closeServers, startServer, text } from '../support/http-server.js';
import { redisServerTool, startRedisServer, type RedisServer } from '../support/redis-server.js';

const FLEET = join(DOCS_DIR, 'fleet.md');
const TIMEOUT_MS = 20_000;

const redis = redisServerTool();

describe.skipIf(!redis.found)('docs/fleet.md: the Redis example', () => {
  let server: RedisServer;
  let runner: ExampleRunner;

  beforeAll(async () => {
    server = await startRedisServer();
    const site = await startServer({ '/example.com/robots.txt': text('User-agent: *\nDisallow: /private/\n') });
    runner = new ExampleRunner({ origin: site.origin, hosts: ['example.com'], timeoutMs: TIMEOUT_MS });
  });

  afterAll(async () => {
    runner?.dispose();
    await closeServers();
    await server?.close();
  });

  it('runs against redis-server, its results as the comments say', async () => {
    const blocks = blocksRunBy(readFileSync(FLEET, 'utf8'), FLEET, 'redis-readme.test.ts');
    expect(blocks.length, 'docs/fleet.md has one block run by redis-readme.test.ts').toBe(1);
    const example = blocks[0]!.example;
    expect(example, 'the block is TypeScript').toBeDefined();
    process.env.REDIS_URL = server.url;
    try {
      const result = await runner.runExample(example!, []);
      if (result.code !== 0 || result.timedOut) throw new Error(describeFailure(example!.name, result, TIMEOUT_MS));
      expect(result.assertions.length).toBeGreaterThanOrEqual(3);
    } finally {
      delete process.env.REDIS_URL;
    }
  });
});
