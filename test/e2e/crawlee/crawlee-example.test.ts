/**
 * examples/crawlee/: a Crawlee crawler that gets RFC 9309's fetching from RobotsCache through
 * Crawlee's public hooks, run as users run it (`node examples/crawlee/crawl.mjs URL…`) against sites on 127.0.0.1.
 * One site's robots.txt answers 503 and one 429: nothing of either is crawled (RFC 9309 §2.3.1.3), where Crawlee's
 * `respectRobotsTxtFile` would crawl them; one has none (404): all of it is crawled. The example requests only the
 * hosts it is given: the child runs with test/support/cli-network-preload.mjs, which refuses and reports any other
 * connection and answers no DNS query, and the servers' logs say what was requested.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { closeServers, redirect, startServer, status, text, type Route } from '../../support/http-server.js';

const execFileAsync = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

afterEach(closeServers);

function page(...links: string[]): Route {
  const body = `<!doctype html>\n${links.map((link) => `<a href="${link}">${link}</a>`).join('\n')}\n`;
  return text(body, 200, { 'content-type': 'text/html; charset=utf-8' });
}

describe('examples/crawlee: RobotsCache in front of a CheerioCrawler', () => {
  it('crawls what robots.txt allows, nothing of a site whose robots.txt answers 503 or 429, all of one without', async () => {
    const [rules, unavailable, limited, none] = await Promise.all([startServer(), startServer(), startServer(), startServer()]);
    rules.route('/robots.txt', text('User-agent: ExampleBot\nDisallow: /private/\n\nUser-agent: *\nDisallow: /\n'));
    rules.route(
      '/',
      page('/about', '/private/plans', `${unavailable.origin}/`, `${none.origin}/`, 'https://www.example.com/elsewhere', '/moved'),
    );
    rules.route('/about', page('/', '/private/more', `${limited.origin}/from-link`));
    rules.route('/private/plans', page());
    rules.route('/private/more', page());
    // A redirect to a host that was not given: not followed.
    rules.route('/moved', redirect('http://www.example.org/'));
    unavailable.route('/robots.txt', status(503));
    unavailable.route('/', page('/a'));
    unavailable.route('/a', page());
    limited.route('/robots.txt', status(429));
    limited.route('/', page('/b'));
    limited.route('/from-link', page());
    none.route('/', page('/anything', '/private/plans'));
    none.route('/anything', page());
    none.route('/private/plans', page());

    const storage = await mkdtemp(join(tmpdir(), 'crawlee-example-'));
    try {
      const startUrls = [`${rules.origin}/`, `${unavailable.origin}/`, `${limited.origin}/`, `${none.origin}/`];
      const { stdout, stderr } = await execFileAsync(
        process.execPath,
        ['--import', join(ROOT, 'test/support/cli-network-preload.mjs'), join(ROOT, 'examples/crawlee/crawl.mjs'), ...startUrls],
        {
          cwd: ROOT,
          timeout: 120_000,
          env: {
            ...process.env,
            CRAWLEE_STORAGE_DIR: storage,
            CRAWLEE_PURGE_ON_START: 'true',
            CRAWLEE_PERSIST_STORAGE: 'false',
            // Crawlee's information lines go to stdout, where the example prints its JSON.
            CRAWLEE_LOG_LEVEL: 'WARNING',
            ROBOTSTXT_TEST_DNS: '',
          },
        },
      );
      const result = JSON.parse(stdout) as {
        crawled: string[];
        disallowed: Record<string, string>;
        notFollowed: Record<string, string>;
      };

      const pagesOf = (server: { requests: { path: string }[] }) =>
        server.requests.map((request) => request.path).filter((path) => path !== '/robots.txt');
      expect(pagesOf(rules).sort()).toEqual(['/', '/about', '/moved']);
      expect(pagesOf(unavailable)).toEqual([]);
      expect(pagesOf(limited)).toEqual([]);
      expect(pagesOf(none).sort()).toEqual(['/', '/anything', '/private/plans']);
      for (const server of [rules, unavailable, limited, none]) expect(server.count('/robots.txt'), server.origin).toBeGreaterThan(0);
      // Pages are requested as the crawler, whose token the robots.txt groups name.
      for (const request of [...rules.requests, ...none.requests]) expect(request.headers['user-agent']).toContain('ExampleBot/1.0');

      expect(result.crawled.sort()).toEqual(
        [`${rules.origin}/`, `${rules.origin}/about`, `${none.origin}/`, `${none.origin}/anything`, `${none.origin}/private/plans`].sort(),
      );
      expect(result.disallowed).toEqual({
        [`${rules.origin}/private/plans`]: 'ok',
        [`${rules.origin}/private/more`]: 'ok',
        [`${unavailable.origin}/`]: 'server-error',
        [`${limited.origin}/`]: 'rate-limited',
        [`${limited.origin}/from-link`]: 'rate-limited',
      });

      expect(result.notFollowed).toEqual({ [`${rules.origin}/moved`]: 'http://www.example.org/' });

      // No connection went elsewhere than the four sites (the external link and the redirect included).
      const connections = stderr.split('\n').filter((line) => line.startsWith('[test-network]'));
      expect(connections.filter((line) => !line.startsWith('[test-network] connect '))).toEqual([]);
      const ports = new Set([rules, unavailable, limited, none].map((server) => `127.0.0.1:${server.port}`));
      expect(connections.map((line) => line.slice('[test-network] connect '.length)).filter((target) => !ports.has(target))).toEqual([]);
    } finally {
      await rm(storage, { recursive: true, force: true });
    }
  });
});
