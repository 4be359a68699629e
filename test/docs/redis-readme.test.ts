/**
 * README.md's fleet example needs a Redis server, which the documentation's runner (test/docs/doc-examples.test.ts)
 * does not start, so it is marked `// not run` there; this suite runs it, with its result comments asserted, against a
 * real redis-server on 127.0.0.1 (REDIS_URL), its fetches of https://example.com answered from 127.0.0.1 as every
 * documentation example's are (test/support/docs/example-fetch-preload.mjs).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFailure, ExampleRunner, extractMarkdownExamples, README } from '../support/docs/doc-examples.js';
import { closeServers, startServer, text } from '../support/http-server.js';
import { redisServerTool, startRedisServer, type RedisServer } from '../support/redis-server.js';

const HEADING = 'A fleet of crawlers';
const NOT_RUN = '// not run: needs a Redis server (test/docs/redis-readme.test.ts runs it against one)';
const TIMEOUT_MS = 20_000;

const redis = redisServerTool();

describe.skipIf(!redis.found)(`README.md: ${HEADING}`, () => {
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
    const markdown = readFileSync(README, 'utf8');
    expect(markdown).toContain(NOT_RUN);
    // The same lines, the marker blanked: line numbers stay those of README.md.
    const { examples } = extractMarkdownExamples(markdown.replace(NOT_RUN, ''), README);
    const example = examples.find((found) => found.name === `README.md: ${HEADING} #1`);
    expect(example, `README.md has no example under "${HEADING}"`).toBeDefined();
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
