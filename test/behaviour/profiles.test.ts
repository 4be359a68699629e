/**
 * docs/design.md#profiles: the two profiles, and exactly where they differ.
 * rfc9309 = Google's reference behaviour except where RFC 9309 says otherwise; google = the reference.
 */
import { describe, expect, it } from 'vitest';
import { defaultMatcher, parseRobotsTxt, setMatcher } from '../support/library.js';
import { isAllowed } from '../support/verdict.js';

describe('percent-encoding', () => {
  // spec: RFC 9309 §2.2.2 (https://www.rfc-editor.org/rfc/rfc9309#section-2.2.2); Google's robots.txt spec (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt), "URL matching based on path values"
  const escaped = 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n';

  it('matches reserved characters literally in both profiles', () => {
    for (const profile of ['google', 'rfc9309'] as const) {
      expect(isAllowed(escaped, 'FooBot', 'http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par', profile)).toBe(true);
    }
  });

  it('encodes non-ASCII in patterns; google matches it only against an encoded URL', () => {
    const text = 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n';
    expect(isAllowed(text, 'FooBot', 'http://foo.bar/foo/bar/%E3%83%84', 'google')).toBe(true);
    expect(isAllowed(text, 'FooBot', 'http://foo.bar/foo/bar/ツ', 'google')).toBe(false);
  });

  it('encodes non-ASCII in URLs too in rfc9309', () => {
    const text = 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n';
    expect(isAllowed(text, 'FooBot', 'http://foo.bar/foo/bar/%E3%83%84', 'rfc9309')).toBe(true);
    expect(isAllowed(text, 'FooBot', 'http://foo.bar/foo/bar/ツ', 'rfc9309')).toBe(true);
  });

  it('upper-cases the hex of escapes in patterns; rfc9309 in URLs too', () => {
    const text = 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%e3%83%84\n';
    expect(isAllowed(text, 'FooBot', '/foo/bar/%E3%83%84', 'google')).toBe(true);
    expect(isAllowed(text, 'FooBot', '/foo/bar/%e3%83%84', 'google')).toBe(false);
    expect(isAllowed(text, 'FooBot', '/foo/bar/%e3%83%84', 'rfc9309')).toBe(true);
  });

  it('decodes escaped unreserved characters on both sides in rfc9309 only', () => {
    const text = 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n';
    expect(isAllowed(text, 'FooBot', '/foo/bar/baz', 'google')).toBe(false);
    expect(isAllowed(text, 'FooBot', '/foo/bar/%62%61%7A', 'google')).toBe(true);
    expect(isAllowed(text, 'FooBot', '/foo/bar/baz', 'rfc9309')).toBe(true);
    expect(isAllowed(text, 'FooBot', '/foo/bar/%62%61%7A', 'rfc9309')).toBe(true);
    expect(isAllowed('User-agent: FooBot\nDisallow: /a-b\n', 'FooBot', '/a%2db', 'rfc9309')).toBe(false);
  });

  it('keeps escaped reserved characters escaped in rfc9309', () => {
    const text = 'User-agent: FooBot\nDisallow: /a%2Fb\n';
    expect(isAllowed(text, 'FooBot', '/a/b', 'rfc9309')).toBe(true);
    expect(isAllowed(text, 'FooBot', '/a%2fb', 'rfc9309')).toBe(false);
  });

  it('measures priority after normalization in rfc9309', () => {
    // Decoded, "/%61%62" is "/ab" (3 octets): the 4-octet disallow wins in rfc9309 only.
    const text = 'User-agent: FooBot\nAllow: /%61%62\nDisallow: /ab*\n';
    expect(isAllowed(text, 'FooBot', '/ab', 'rfc9309')).toBe(false);
    expect(isAllowed(text, 'FooBot', '/%61%62', 'google')).toBe(true);
  });
});

describe('/robots.txt', () => {
  // spec: RFC 9309 §2.2.2 ("/robots.txt" is implicitly allowed)
  const text = 'User-agent: *\nDisallow: /\n';
  it('is always allowed in rfc9309', () => {
    expect(isAllowed(text, 'FooBot', 'https://example.com/robots.txt', 'rfc9309')).toBe(true);
    expect(isAllowed(text, 'FooBot', '/robots.txt?x=1', 'rfc9309')).toBe(true);
    expect(isAllowed(text, 'FooBot', '/%72obots.txt', 'rfc9309')).toBe(true);
    expect(isAllowed(text, 'FooBot', '/robots.txt.bak', 'rfc9309')).toBe(false);
    const rules = parseRobotsTxt(text).forAgent('FooBot');
    expect(rules.explain('/robots.txt')).toEqual({ allowed: true, line: 0 });
  });

  it('follows the rules in google', () => {
    expect(isAllowed(text, 'FooBot', 'https://example.com/robots.txt', 'google')).toBe(false);
  });
});

describe('a NUL in the URL’s path', () => {
  // spec: Google's robots.txt spec, "URL matching based on path values". Google's reference matches the
  // path (found in the whole URL first) as a C string, so in google it ends at its first NUL; RFC 9309
  // knows no such cut, so rfc9309 matches the whole path.
  const MATCHERS = ['wasm', 'typescript'] as const;

  /** The verdict with each matcher, which must agree. */
  function verdict(body: string, url: string, profile: 'google' | 'rfc9309'): boolean {
    const verdicts = MATCHERS.map((matcher) => {
      setMatcher(matcher);
      return isAllowed(body, 'FooBot', url, profile);
    });
    setMatcher(defaultMatcher);
    expect(verdicts[1], `the matchers disagree on ${JSON.stringify(url)} (${profile})`).toBe(verdicts[0]);
    return verdicts[0] as boolean;
  }

  it('ends the path at the first NUL in google: /a\\u0000b is asked as /a', () => {
    const text = 'User-agent: FooBot\nDisallow: /a\n';
    expect(verdict(text, '/a\u0000b', 'google')).toBe(false);
    expect(verdict(text, '/\u0000a', 'google')).toBe(true); // the path is "/"
    expect(verdict(text, '/\u0000a', 'rfc9309')).toBe(true); // "/\0a" does not start with "/a"
    const anchored = 'User-agent: FooBot\nDisallow: /a$\n';
    for (const url of ['/a\u0000b', '/a\u0000', 'https://example.com/a\u0000b?q=1', '/a\u0000\u0000#x', 'example.com/a\u0000/b']) {
      expect(verdict(anchored, url, 'google'), JSON.stringify(url)).toBe(false);
      expect(verdict(anchored, url, 'rfc9309'), JSON.stringify(url)).toBe(true);
    }
  });

  it('matches the whole path, NUL and all, in rfc9309', () => {
    const text = 'User-agent: FooBot\nAllow: /$\nDisallow: /*a\n';
    expect(verdict(text, '/\u0000a', 'rfc9309')).toBe(false);
    expect(verdict(text, '/\u0000a', 'google')).toBe(true);
    expect(verdict(text, '/?a\u0000', 'google')).toBe(false); // what stands before the NUL still counts
    const rules = parseRobotsTxt(text, { profile: 'google' }).forAgent('FooBot');
    expect(rules.explain('https://example.com/\u0000/a')).toEqual({ allowed: true, line: 2, rule: { kind: 'allow', pattern: '/$' } });
  });

  it('cuts only the path: a NUL before it, in the host, or after the fragment changes nothing', () => {
    const text = 'User-agent: FooBot\nDisallow: /a/b\n';
    for (const profile of ['google', 'rfc9309'] as const) {
      expect(verdict(text, 'http://exa\u0000mple.com/a/b', profile), profile).toBe(false);
      expect(verdict(text, '/a/b#\u0000', profile), profile).toBe(false);
    }
  });

  it('finds no NUL in a URL object’s path, where the URL parser writes it as %00', () => {
    const url = new URL('https://example.com/a\u0000b');
    expect(url.pathname).toBe('/a%00b');
    const text = 'User-agent: FooBot\nDisallow: /a%00b$\n';
    for (const profile of ['google', 'rfc9309'] as const) {
      expect(parseRobotsTxt(text, { profile }).isAllowed(url, 'FooBot'), profile).toBe(false);
    }
  });
});

describe('the caller’s agent', () => {
  // spec: RFC 9309 §2.2.1 (product tokens); Google's IsValidUserAgentToObey
  const text = 'User-agent: FooBot\nDisallow: /\nUser-agent: *\nAllow: /\n';

  it('accepts "Name/1.2" as "Name" in rfc9309', () => {
    expect(isAllowed(text, 'FooBot/2.1', '/x', 'rfc9309')).toBe(false);
  });

  it.each(['Foo Bar', '', 'FooBot/2.1 (+http://example.com/bot)', 'ツ', 'FooBot*', '  FooBot  ', 'Foo/1/2'])(
    'rejects %j in rfc9309 with a TypeError that explains product tokens',
    (agent) => {
      expect(() => isAllowed(text, agent, '/x', 'rfc9309')).toThrow(TypeError);
      expect(() => isAllowed(text, agent, '/x', 'rfc9309')).toThrow(/product token/);
    },
  );

  it('compares the agent as given in google', () => {
    expect(isAllowed(text, 'FooBot/2.1', '/x', 'google')).toBe(true);
    expect(isAllowed(text, 'FooBot Bar', '/x', 'google')).toBe(true);
    expect(isAllowed(text, 'FooBot', '/x', 'google')).toBe(false);
  });

  it('lets an empty agent match an empty user-agent value in google', () => {
    const empty = 'User-agent: *\nAllow: /\nUser-agent:\nDisallow: /\n';
    expect(isAllowed(empty, '', '/x', 'google')).toBe(false);
    expect(isAllowed('User-agent: FooBot\nDisallow: /\n', '', '', 'google')).toBe(true);
    expect(isAllowed('', '', '', 'google')).toBe(true);
  });

  it('never matches a named group with a non-ASCII agent in google', () => {
    // U+212A KELVIN SIGN lower-cases to "k" in Unicode, but not in ASCII.
    expect(isAllowed('User-agent: k\nDisallow: /\n', '\u212a', '/x', 'google')).toBe(true);
  });
});

describe('options', () => {
  it('defaults to rfc9309', () => {
    expect(parseRobotsTxt('').profile).toBe('rfc9309');
  });

  it('rejects an unknown profile with a RangeError', () => {
    expect(() => parseRobotsTxt('', { profile: 'bing' as 'google' })).toThrow(RangeError);
  });
});
