/**
 * The yandex profile's reading of a fetch: a 200 alone has rules, any other final status allows
 * everything, and so does a body over 32 KB; fetchRobotsTxt and RobotsCache say which in `reason`.
 * Against real HTTP servers on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fetchRobotsTxt, RobotsCache } from '../../../src/platform/inline.js';
import { closeServers, startServer, status, text } from '../../support/http-server.js';

const UA = 'YandexBot/3.0';
const RULES = 'User-agent: Yandex\nDisallow: /private/\n';

afterEach(closeServers);

describe('fetchRobotsTxt with the yandex profile', () => {
  it('parses a 200', async () => {
    const server = await startServer({ '/robots.txt': text(RULES) });
    const result = await fetchRobotsTxt(server.origin, { userAgent: UA, profile: 'yandex' });
    expect(result).toMatchObject({ outcome: 'rules', reason: 'ok', status: 200 });
    expect(result.robots?.isAllowed('/private/x', 'YandexImages')).toBe(false);
  });

  // spec: Yandex's robots.txt docs (https://yandex.com/support/webmaster/controlling-robot/robots-txt.html), "If the file is missing, is not a text file, or the robot's request
  // returns an HTTP status other than 200 OK, the robot assumes that it has unrestricted access to the
  // site's documents."
  it.each([204, 404, 429, 500, 503])('reads a %i as allowing everything, where rfc9309 does not always', async (code) => {
    const server = await startServer({ '/robots.txt': code === 204 ? status(204) : text('User-agent: *\nDisallow: /\n', code) });
    const yandex = await fetchRobotsTxt(server.origin, { userAgent: UA, profile: 'yandex' });
    expect(yandex).toMatchObject({ outcome: 'allow-all', reason: 'not-200', status: code });
    const rfc9309 = await fetchRobotsTxt(server.origin, { userAgent: UA });
    expect(rfc9309.reason).not.toBe('not-200');
  });

  // spec: Yandex's robots.txt docs, "If the file size exceeds 32 KB, the robot assumes it allows everything"
  it('reads a 200 over 32 KB as allowing everything', async () => {
    const body = `User-agent: *\nDisallow: /\n${'#'.repeat(40_000)}\n`;
    const server = await startServer({ '/robots.txt': text(body) });
    const result = await fetchRobotsTxt(server.origin, { userAgent: UA, profile: 'yandex' });
    expect(result.outcome).toBe('rules');
    expect(result.robots?.isAllowed('/x', 'YandexBot')).toBe(true);
    expect(result.robots?.diagnostics[0]?.code).toBe('over-profile-limit');
  });
});

describe('RobotsCache with the yandex profile', () => {
  it('allows everything on a 503, and says why', async () => {
    const server = await startServer({ '/robots.txt': text('User-agent: *\nDisallow: /\n', 503) });
    const cache = new RobotsCache({ userAgent: UA, profile: 'yandex' });
    try {
      expect(await cache.isAllowed(`${server.origin}/x`)).toBe(true);
      expect((await cache.explain(`${server.origin}/x`)).source).toMatchObject({ outcome: 'allow-all', reason: 'not-200', status: 503 });
    } finally {
      cache.dispose();
    }
  });

  it("gives a Yandex robot the Yandex group's rules", async () => {
    const server = await startServer({ '/robots.txt': text(`${RULES}\nUser-agent: *\nDisallow: /\n`) });
    const cache = new RobotsCache({ userAgent: 'Mozilla/5.0 (compatible; YandexImages/3.0)', profile: 'yandex' });
    try {
      expect(await cache.isAllowed(`${server.origin}/private/x`)).toBe(false);
      expect(await cache.isAllowed(`${server.origin}/public`)).toBe(true);
    } finally {
      cache.dispose();
    }
  });
});
