/**
 * docs/design.md#matching: which rule decides.
 */
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '../support/library.js';
import { inBothProfiles, isAllowed } from '../support/verdict.js';

const forFooBot = (rules: string): string => `User-agent: FooBot\n${rules}\n`;

describe('what a rule matches', () => {
  // spec: Google's robots.txt spec (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt), "URL matching based on path values"
  it('matches the path, params and query, never the fragment', () => {
    const text = forFooBot('Disallow: /a;b\nDisallow: /q?x=1\nDisallow: /f$');
    expect(inBothProfiles(text, 'FooBot', 'http://example.com/a;b')).toBe(false);
    expect(inBothProfiles(text, 'FooBot', 'http://example.com/q?x=1&y=2')).toBe(false);
    expect(inBothProfiles(text, 'FooBot', 'http://example.com/f#fragment')).toBe(false);
    expect(inBothProfiles(text, 'FooBot', 'http://example.com/q?x=2')).toBe(true);
  });

  it('asks a URL with no path as "/"', () => {
    const text = forFooBot('Disallow: /$');
    for (const url of ['http://example.com', 'http://example.com#x/y', 'example.com', '', 'a']) {
      expect(inBothProfiles(text, 'FooBot', url)).toBe(false);
    }
  });

  it('accepts absolute URLs, scheme-less URLs and bare paths', () => {
    const text = forFooBot('Disallow: /a/b');
    for (const url of ['https://example.com/a/b', 'example.com/a/b?c', '/a/b', '//example.com/a/b', 'a/a/b']) {
      expect(inBothProfiles(text, 'FooBot', url)).toBe(false);
    }
    expect(inBothProfiles(text, 'FooBot', 'http://example.com/x?u=http://e.com/a/b')).toBe(true);
  });

  it('prefixes a slash to a path that starts with ? or ;', () => {
    expect(inBothProfiles(forFooBot('Disallow: /?a'), 'FooBot', 'example.com?a')).toBe(false);
    expect(inBothProfiles(forFooBot('Disallow: /;a'), 'FooBot', 'http://example.com;a')).toBe(false);
  });

  it('is case-sensitive in paths', () => {
    const text = forFooBot('Disallow: /Admin/');
    expect(inBothProfiles(text, 'FooBot', '/Admin/x')).toBe(false);
    expect(inBothProfiles(text, 'FooBot', '/admin/x')).toBe(true);
  });
});

describe('patterns', () => {
  // spec: Google's robots.txt spec, "Usage of wildcards in path values"; RFC 9309 §2.2.3
  it('anchors patterns at the start of the path', () => {
    const text = forFooBot('Disallow: /fish');
    expect(inBothProfiles(text, 'FooBot', '/fish.html')).toBe(false);
    expect(inBothProfiles(text, 'FooBot', '/fishheads/yummy.html')).toBe(false);
    expect(inBothProfiles(text, 'FooBot', '/Fish.asp')).toBe(true);
    expect(inBothProfiles(text, 'FooBot', '/catfish')).toBe(true);
  });

  it('lets * match any run of characters, none included', () => {
    const text = forFooBot('Disallow: /fish*.php');
    expect(inBothProfiles(text, 'FooBot', '/fish.php')).toBe(false);
    expect(inBothProfiles(text, 'FooBot', '/fishheads/catfish.php?parameters')).toBe(false);
    expect(inBothProfiles(text, 'FooBot', '/Fish.PHP')).toBe(true);
  });

  it('anchors at the end with a final $', () => {
    const text = forFooBot('Disallow: /*.php$');
    expect(inBothProfiles(text, 'FooBot', '/filename.php')).toBe(false);
    expect(inBothProfiles(text, 'FooBot', '/folder/filename.php')).toBe(false);
    expect(inBothProfiles(text, 'FooBot', '/filename.php?parameters')).toBe(true);
    expect(inBothProfiles(text, 'FooBot', '/filename.php/')).toBe(true);
    expect(inBothProfiles(text, 'FooBot', '/windows.PHP')).toBe(true);
  });

  it('reads a $ before the end as a literal character', () => {
    const text = forFooBot('Disallow: /a$b');
    expect(inBothProfiles(text, 'FooBot', '/a$b')).toBe(false);
    expect(inBothProfiles(text, 'FooBot', '/a')).toBe(true);
  });

  it('matches "/" and "/*" against everything, and "/$" only the root', () => {
    expect(inBothProfiles(forFooBot('Disallow: /*'), 'FooBot', '/anything')).toBe(false);
    expect(inBothProfiles(forFooBot('Disallow: /$'), 'FooBot', '/')).toBe(false);
    expect(inBothProfiles(forFooBot('Disallow: /$'), 'FooBot', '/a')).toBe(true);
    expect(inBothProfiles(forFooBot('Disallow: *'), 'FooBot', '/a')).toBe(false);
  });

  it('never matches a pattern that starts with neither / nor *', () => {
    const text = forFooBot('Disallow: fish\nDisallow: $\nDisallow: %2Ffish');
    expect(inBothProfiles(text, 'FooBot', '/fish')).toBe(true);
    expect(inBothProfiles(text, 'FooBot', 'fish')).toBe(true);
    expect(parseRobotsTxt(text).forAgent('FooBot').rules).toEqual([]);
  });

  it('gives empty Allow and Disallow no effect', () => {
    expect(inBothProfiles(forFooBot('Disallow:'), 'FooBot', '/a')).toBe(true);
    expect(inBothProfiles(forFooBot('Allow:\nDisallow: /'), 'FooBot', '/a')).toBe(false);
    expect(parseRobotsTxt(forFooBot('Disallow:')).forAgent('FooBot').explain('/a')).toEqual({ allowed: true, line: 0 });
  });

  it('matches * runs of any length in patterns', () => {
    const text = forFooBot('Disallow: /foo/bar/quz\nAllow: /foo/*/qux');
    expect(inBothProfiles(text, 'FooBot', '/foo/bar/quz')).toBe(false);
    expect(inBothProfiles(text, 'FooBot', '/foo/quz')).toBe(true);
    expect(inBothProfiles(text, 'FooBot', '/foo//quz')).toBe(true);
    expect(inBothProfiles(text, 'FooBot', '/foo/bax/quz')).toBe(true);
  });

  it('keeps a rule of 10,000 * fast and exact', () => {
    const text = forFooBot(`Disallow: /${'*'.repeat(10_000)}x`);
    expect(inBothProfiles(text, 'FooBot', `/${'a'.repeat(100_000)}x`)).toBe(false);
    expect(inBothProfiles(text, 'FooBot', `/${'a'.repeat(100_000)}`)).toBe(true);
  });
});

describe('precedence', () => {
  // spec: Google's robots.txt spec, "Order of precedence for rules"; RFC 9309 §2.2.2
  it('lets the longest matching pattern win', () => {
    const text = forFooBot('Allow: /page\nDisallow: /*.html');
    expect(inBothProfiles(text, 'FooBot', '/page.html')).toBe(false);
    expect(inBothProfiles(text, 'FooBot', '/page')).toBe(true);
  });

  it('lets a longer allow beat a shorter disallow', () => {
    const text = forFooBot('Allow: /x/page.\nDisallow: /*.html');
    expect(inBothProfiles(text, 'FooBot', '/x/page.html')).toBe(true);
    expect(inBothProfiles(text, 'FooBot', '/x/y.html')).toBe(false);
  });

  it('lets allow win a tie', () => {
    expect(inBothProfiles(forFooBot('Disallow: /x/page.html\nAllow: /x/page.html'), 'FooBot', '/x/page.html')).toBe(true);
    expect(inBothProfiles(forFooBot('Allow: /folder\nDisallow: /folder'), 'FooBot', '/folder/page')).toBe(true);
    expect(inBothProfiles(forFooBot('Allow: /page\nDisallow: /*.ph'), 'FooBot', '/page.php5')).toBe(true);
  });

  it('counts * and $ in a pattern’s length', () => {
    expect(inBothProfiles(forFooBot('Allow: /$\nDisallow: /'), 'FooBot', '/')).toBe(true);
    expect(inBothProfiles(forFooBot('Allow: /$\nDisallow: /'), 'FooBot', '/page.htm')).toBe(false);
    expect(inBothProfiles(forFooBot('Disallow: /*a\nAllow: /ba'), 'FooBot', '/ba')).toBe(true);
  });

  it('measures length after percent-encoding', () => {
    // "/ä" is 7 octets once encoded (/%C3%A4): longer than the 6 of "/%C3%A".
    const text = forFooBot('Allow: /ä\nDisallow: /%C3%A');
    expect(inBothProfiles(text, 'FooBot', '/%C3%A4')).toBe(true);
  });

  it('explains the deciding rule with its line', () => {
    const rules = parseRobotsTxt(forFooBot('Disallow: /\nAllow: /public/\n# c\nDisallow: /public/secret')).forAgent('FooBot');
    expect(rules.explain('/public/a')).toEqual({ allowed: true, line: 3, rule: { kind: 'allow', pattern: '/public/' } });
    expect(rules.explain('/public/secret/b')).toEqual({
      allowed: false,
      line: 5,
      rule: { kind: 'disallow', pattern: '/public/secret' },
    });
    expect(rules.explain('/other')).toEqual({ allowed: false, line: 2, rule: { kind: 'disallow', pattern: '/' } });
  });

  it('reports the first line among equal rules', () => {
    const rules = parseRobotsTxt(forFooBot('Disallow: /a\nDisallow: /a')).forAgent('FooBot');
    expect(rules.explain('/a').line).toBe(2);
  });
});

describe('Google’s index.html rule', () => {
  // Google's reference: an allowed index.htm(l) also allows its directory.
  const text = 'User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n';
  it('allows the directory of an allowed index.html', () => {
    expect(inBothProfiles(text, 'FooBot', '/allowed-slash/')).toBe(true);
    expect(inBothProfiles(text, 'FooBot', '/allowed-slash/index.html')).toBe(true);
  });

  it('allows only the directory itself, not what is below it', () => {
    expect(inBothProfiles(text, 'FooBot', '/allowed-slash/index.htm')).toBe(false);
    expect(inBothProfiles(text, 'FooBot', '/allowed-slash/other')).toBe(false);
    expect(inBothProfiles(text, 'FooBot', '/anyother-url')).toBe(false);
  });

  it('gives the derived rule its own, shorter length', () => {
    // The derived "/d/$" is 4 octets: it beats a 3-octet disallow, ties (and wins) with a 4-octet one,
    // and loses to a 5-octet one.
    expect(inBothProfiles('User-agent: *\nAllow: /d/index.htm\nDisallow: /d/\n', 'FooBot', '/d/')).toBe(true);
    expect(inBothProfiles('User-agent: *\nAllow: /d/index.htm\nDisallow: /d/$\n', 'FooBot', '/d/')).toBe(true);
    expect(inBothProfiles('User-agent: *\nAllow: /d/index.htm\nDisallow: /*d/$\n', 'FooBot', '/d/')).toBe(false);
  });

  it('does not apply to disallow rules', () => {
    expect(inBothProfiles('User-agent: *\nDisallow: /d/index.html\n', 'FooBot', '/d/')).toBe(true);
  });
});

describe('Google’s documentation examples', () => {
  // spec: Google's robots.txt spec, "Example path matches"
  it.each([
    ['/', ['/', '/index.html', '/fish'], []],
    ['/*', ['/', '/fish'], []],
    ['/fish/', ['/fish/', '/fish/?id=anything', '/fish/salmon.htm'], ['/fish', '/fish.html', '/animals/fish/', '/Fish/Salmon.asp']],
    [
      '/*.php',
      [
        '/index.php',
        '/filename.php',
        '/folder/filename.php',
        '/folder/filename.php?parameters',
        '/folder/any.php.file.html',
        '/filename.php/',
      ],
      ['/', '/windows.PHP'],
    ],
    ['/fish*.php', ['/fish.php', '/fishheads/catfish.php?parameters'], ['/Fish.PHP']],
  ])('Disallow: %s', (pattern, blocked, open) => {
    const text = `User-agent: *\nDisallow: ${pattern}\n`;
    for (const url of blocked) expect(isAllowed(text, 'FooBot', `http://example.com${url}`, 'google')).toBe(false);
    for (const url of open) expect(isAllowed(text, 'FooBot', `http://example.com${url}`, 'google')).toBe(true);
  });
});
