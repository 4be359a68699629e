/**
 * docs/design.md#reading-a-file (groups, agent selection): which lines apply to which agent.
 */
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '../support/library.js';
import { inBothProfiles, isAllowed, profiles } from '../support/verdict.js';

describe('opening and closing groups', () => {
  // spec: Google's robots.txt spec (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt), "Grouping of lines and rules"
  const body = [
    'allow: /foo/bar/',
    '',
    'user-agent: FooBot',
    'disallow: /',
    'allow: /x/',
    'user-agent: BarBot',
    'disallow: /',
    'allow: /y/',
    '',
    '',
    'allow: /w/',
    'user-agent: BazBot',
    '',
    'user-agent: FooBot',
    'allow: /z/',
    'disallow: /',
  ].join('\n');

  it('ignores rules before any user-agent line', () => {
    expect(inBothProfiles(body, 'QuxBot', '/foo/bar/')).toBe(true);
    expect(parseRobotsTxt(body).diagnostics).toContainEqual(expect.objectContaining({ line: 1, code: 'outside-group' }));
  });

  it('does not end a group at a blank line', () => {
    expect(inBothProfiles(body, 'BarBot', '/w/a')).toBe(true);
    expect(inBothProfiles(body, 'BarBot', '/y/c')).toBe(true);
    expect(inBothProfiles(body, 'BarBot', '/z/d')).toBe(false);
  });

  it('opens one group for consecutive user-agent lines, blank lines between them included', () => {
    expect(inBothProfiles(body, 'BazBot', '/z/d')).toBe(true);
    expect(inBothProfiles(body, 'BazBot', '/q')).toBe(false);
  });

  it('merges all groups that name the agent', () => {
    expect(inBothProfiles(body, 'FooBot', '/x/b')).toBe(true);
    expect(inBothProfiles(body, 'FooBot', '/z/d')).toBe(true);
    expect(inBothProfiles(body, 'FooBot', '/y/c')).toBe(false);
  });

  it('ends a group at a user-agent line after an empty rule too', () => {
    const text = 'User-agent: FooBot\nDisallow:\nUser-agent: BarBot\nDisallow: /\n';
    expect(inBothProfiles(text, 'FooBot', '/a')).toBe(true);
    expect(inBothProfiles(text, 'BarBot', '/a')).toBe(false);
  });

  it.each(['Sitemap: https://foo.bar/sitemap', 'Invalid-Unknown-Line: unknown', 'Crawl-delay: 3'])(
    'does not end a group at "%s"',
    (line) => {
      const text = `User-agent: BarBot\n${line}\nUser-agent: *\nDisallow: /\n`;
      expect(inBothProfiles(text, 'BarBot', '/')).toBe(false);
      expect(inBothProfiles(text, 'FooBot', '/')).toBe(false);
    },
  );
});

describe('the caller’s agent', () => {
  // spec: Google's robots.txt spec, "User agent line"; RFC 9309 §2.2.1
  it('compares user-agent values case-insensitively', () => {
    for (const value of ['FooBot', 'foobot', 'FOOBOT']) {
      const text = `User-Agent: ${value}\nDisallow: /\n`;
      expect(inBothProfiles(text, 'FooBot', '/x')).toBe(false);
      expect(inBothProfiles(text, 'foobot', '/x')).toBe(false);
      expect(inBothProfiles(text, 'FOOBOT', '/x')).toBe(false);
    }
  });

  it('cuts a user-agent value to its leading run of letters, "_" and "-"', () => {
    const text = 'User-agent: *\nDisallow: /\nUser-agent: Foo Bar\nAllow: /x/\nDisallow: /\n';
    expect(inBothProfiles(text, 'Foo', '/x/y')).toBe(true);
    const versioned = 'User-agent: FooBot/2.1\nDisallow: /\n';
    expect(inBothProfiles(versioned, 'FooBot', '/x')).toBe(false);
  });

  it('does not match a longer or shorter name', () => {
    const text = 'User-agent: FooBot-News\nDisallow: /\nUser-agent: Foo\nDisallow: /\n';
    expect(inBothProfiles(text, 'FooBot', '/x')).toBe(true);
  });

  it('keeps "_" and "-" in the product token', () => {
    const text = 'User-agent: Foo_Bar-Baz\nDisallow: /\n';
    expect(inBothProfiles(text, 'foo_bar-baz', '/x')).toBe(false);
  });
});

describe('the global group', () => {
  // spec: Google's robots.txt spec, "Order of precedence for user agents"; RFC 9309 §2.2.1
  it('applies the * group to an agent no group names', () => {
    expect(inBothProfiles('User-agent: *\nDisallow: /\nUser-agent: FooBot\nAllow: /\n', 'BarBot', '/x')).toBe(false);
  });

  it('treats "*" followed by whitespace and more as the global group', () => {
    expect(inBothProfiles('User-agent: * is everyone\nDisallow: /\n', 'BarBot', '/x')).toBe(false);
  });

  it('does not treat "*Bot" as the global group', () => {
    expect(inBothProfiles('User-agent: *Bot\nDisallow: /\n', 'BarBot', '/x')).toBe(true);
  });

  it('merges all * groups', () => {
    const text = 'User-agent: *\nDisallow: /a\nUser-agent: FooBot\nDisallow: /\nUser-agent: *\nDisallow: /b\n';
    expect(inBothProfiles(text, 'BarBot', '/a')).toBe(false);
    expect(inBothProfiles(text, 'BarBot', '/b')).toBe(false);
    expect(inBothProfiles(text, 'BarBot', '/c')).toBe(true);
  });

  it('ignores the * rules entirely once a group names the agent', () => {
    const text = 'User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n';
    expect(inBothProfiles(text, 'FooBot', '/x/page')).toBe(true);
    expect(inBothProfiles(text, 'FooBot', '/y/page')).toBe(false);
  });

  it('ignores the * rules even when the agent’s group has no rules', () => {
    const text = 'User-agent: *\nDisallow: /\nUser-agent: FooBot\n';
    expect(inBothProfiles(text, 'FooBot', '/x')).toBe(true);
    expect(parseRobotsTxt(text).forAgent('FooBot').matched).toBe('agent');
  });

  it('counts a group that lists both * and the agent as the agent’s', () => {
    const text = 'User-agent: *\nUser-agent: FooBot\nDisallow: /a\nUser-agent: *\nDisallow: /b\n';
    expect(inBothProfiles(text, 'FooBot', '/a')).toBe(false);
    expect(inBothProfiles(text, 'FooBot', '/b')).toBe(true);
    expect(inBothProfiles(text, 'BarBot', '/b')).toBe(false);
  });

  it('allows everything when no group names the agent and there is no * group', () => {
    const text = 'User-agent: FooBot\nAllow: /\nUser-agent: BarBot\nDisallow: /\n';
    expect(inBothProfiles(text, 'QuxBot', '/x')).toBe(true);
    expect(parseRobotsTxt(text).forAgent('QuxBot').matched).toBe('none');
  });

  it('allows everything for an empty file', () => {
    for (const profile of profiles) expect(isAllowed('', 'FooBot', '/', profile)).toBe(true);
  });
});

describe('group extensions', () => {
  // spec: Yandex's robots.txt docs (https://yandex.com/support/webmaster/controlling-robot/robots-txt.html), "Crawl-delay"
  it('reads crawl-delay, request-rate and visit-time from the applicable groups', () => {
    const text = [
      'User-agent: *',
      'Crawl-delay: 2.5',
      'Request-rate: 1/10s',
      'Visit-time: 0600-0845',
      'Disallow: /private',
      'User-agent: FooBot',
      'Disallow: /x',
      'User-agent: FooBot',
      'Crawl-delay: 7',
      'Crawl-delay: 9',
    ].join('\n');
    const robots = parseRobotsTxt(text);
    const global = robots.forAgent('BarBot');
    expect(global.crawlDelay).toBe(2.5);
    expect(global.requestRate).toEqual({ requests: 1, seconds: 10 });
    expect(global.visitTime).toEqual({ from: '06:00', to: '08:45' });
    const own = robots.forAgent('FooBot');
    expect(own.crawlDelay).toBe(7);
    expect(own.requestRate).toBeUndefined();
    expect(own.visitTime).toBeUndefined();
  });

  it('reports an invalid crawl-delay and keeps looking', () => {
    const robots = parseRobotsTxt('User-agent: *\nCrawl-delay: soon\nCrawl-delay: 1\n');
    expect(robots.forAgent('FooBot').crawlDelay).toBe(1);
    expect(robots.diagnostics).toContainEqual(expect.objectContaining({ line: 2, code: 'invalid-value' }));
  });
});
