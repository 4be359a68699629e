/**
 * DESIGN §2: the two profiles, and exactly where they differ.
 * rfc9309 = Google's reference behaviour except where RFC 9309 says otherwise; google = the reference.
 */
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '../src/platform/inline.js';
import { isAllowed } from './support/verdict.js';

describe('percent-encoding', () => {
  // spec: RFC 9309 §2.2.2 (README of ../shared/spec); 003_14cd348ff9b99c23.txt, "URL matching based on path values"
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
