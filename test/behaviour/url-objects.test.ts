/**
 * URL objects in the matcher API (AgentRules.isAllowed / explain, RobotsTxt.isAllowed).
 *
 * A string is read the way Google's reference reads it (GetPathParamsQuery). A URL object has been parsed
 * already, by the same parser the crawler's fetch uses: it is decided on exactly its pathname + search,
 * the path that fetch requests (docs/design.md#matching: "the path and query that decide are those of the
 * URL that would be fetched"). Reading its href again as a string could decide on another path.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defaultMatcher, parseRobotsTxt, setMatcher, type BackendKind, type ProfileName } from '../support/library.js';
import { profiles } from '../support/verdict.js';

const MATCHERS: readonly BackendKind[] = ['wasm', 'typescript'];

/** Runs `check` once per matcher and profile, with the rules compiled by that matcher. */
function forEveryMatcherAndProfile(check: (profile: ProfileName, matcher: BackendKind) => void): void {
  for (const matcher of MATCHERS) {
    setMatcher(matcher);
    for (const profile of profiles) check(profile, matcher);
  }
}

afterEach(() => {
  setMatcher(defaultMatcher);
});

describe('a URL object is decided on its pathname + search', () => {
  // spec: Google's robots.txt spec (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt), "URL matching based on path values" ("the path is used to match the
  // beginning of a URL"): the path of the URL object, as its parser found it.
  it('decides on a path that starts with "//", which a string would read as a host', () => {
    const body = 'User-agent: *\nDisallow: //evil.com/\nDisallow: /x$\n';
    forEveryMatcherAndProfile((profile, matcher) => {
      const robots = parseRobotsTxt(body, { profile });
      const rules = robots.forAgent('ExampleBot');
      const url = new URL('https://example.com//evil.com/x');
      const where = `${profile}, ${matcher}`;
      expect(url.pathname).toBe('//evil.com/x');
      expect(rules.isAllowed(url), where).toBe(false);
      expect(rules.explain(url), where).toEqual({ allowed: false, line: 2, rule: { kind: 'disallow', pattern: '//evil.com/' } });
      expect(robots.isAllowed(url, 'ExampleBot'), where).toBe(false);
      // The same path as a string is read as host evil.com and path /x: another rule decides.
      expect(rules.explain(url.pathname + url.search), where).toEqual({
        allowed: false,
        line: 3,
        rule: { kind: 'disallow', pattern: '/x$' },
      });
      robots.dispose();
    });
  });

  it('reads a backslash the way the URL parser does: https://example.com\\private has the path /private', () => {
    const body = 'User-agent: *\nDisallow: /private\n';
    forEveryMatcherAndProfile((profile, matcher) => {
      const robots = parseRobotsTxt(body, { profile });
      const where = `${profile}, ${matcher}`;
      expect(robots.isAllowed(new URL('https://example.com\\private'), 'ExampleBot'), where).toBe(false);
      expect(robots.forAgent('ExampleBot').explain(new URL('https://example.com\\private')).line, where).toBe(2);
      // As a string, Google's reading finds no path after the host: it is asked as "/".
      expect(robots.isAllowed('https://example.com\\private', 'ExampleBot'), where).toBe(true);
      robots.dispose();
    });
  });

  it('matches the query, never the fragment', () => {
    const body = 'User-agent: *\nDisallow: /a?b=1$\nDisallow: /*frag\n';
    forEveryMatcherAndProfile((profile, matcher) => {
      const rules = parseRobotsTxt(body, { profile }).forAgent('ExampleBot');
      const where = `${profile}, ${matcher}`;
      expect(rules.isAllowed(new URL('https://example.com/a?b=1#frag')), where).toBe(false);
      expect(rules.explain(new URL('https://example.com/a?b=1#frag')).line, where).toBe(2);
      expect(rules.isAllowed(new URL('https://example.com/x#frag')), where).toBe(true);
      rules.dispose();
    });
  });

  it('asks a URL object with an empty path as "/"', () => {
    const body = 'User-agent: *\nAllow: /$\nDisallow: /\n';
    forEveryMatcherAndProfile((profile, matcher) => {
      const rules = parseRobotsTxt(body, { profile }).forAgent('ExampleBot');
      const where = `${profile}, ${matcher}`;
      for (const url of [new URL('https://example.com'), new URL('foo://example.com'), new URL('https://example.com/#x/y')]) {
        expect(url.pathname + url.search, where).toMatch(/^\/?$/);
        expect(rules.explain(url), `${url.href} (${where})`).toEqual({ allowed: true, line: 2, rule: { kind: 'allow', pattern: '/$' } });
      }
      // A path with no leading slash (an opaque path) gets one, as a string's does.
      expect(rules.isAllowed(new URL('mailto:someone@example.com')), where).toBe(false);
      rules.dispose();
    });
  });

  it('takes anything of a URL object’s shape, e.g. a URL of another realm', () => {
    const shaped = { href: 'https://example.com//private', pathname: '//private', search: '?a' };
    const rules = parseRobotsTxt('User-agent: *\nDisallow: //private?a\n').forAgent('ExampleBot');
    expect(rules.isAllowed(shaped as unknown as URL)).toBe(false);
    expect(rules.isAllowed({ ...shaped, pathname: '/private' } as unknown as URL)).toBe(true);
  });
});

describe('each profile applies its own reading to a URL object’s path', () => {
  // spec: RFC 9309 §2.2.2 (https://www.rfc-editor.org/rfc/rfc9309#section-2.2.2): normalization and the implicit /robots.txt allow
  it('normalizes the path in rfc9309 only, as for strings', () => {
    const body = 'User-agent: *\nDisallow: /baz\nDisallow: /café\nDisallow: /robots.txt\n';
    const rfc9309 = parseRobotsTxt(body).forAgent('ExampleBot');
    const google = parseRobotsTxt(body, { profile: 'google' }).forAgent('ExampleBot');
    // The URL parser keeps %62 as written, and percent-encodes é as %C3%A9.
    const escaped = new URL('https://example.com/%62az');
    expect([rfc9309.isAllowed(escaped), google.isAllowed(escaped)]).toEqual([false, true]);
    const accented = new URL('https://example.com/café');
    expect([rfc9309.isAllowed(accented), google.isAllowed(accented)]).toEqual([false, false]);
    const robots = new URL('https://example.com/robots.txt?x=1');
    expect(rfc9309.explain(robots)).toEqual({ allowed: true, line: 0 });
    expect(google.isAllowed(robots)).toBe(false);
  });
});
