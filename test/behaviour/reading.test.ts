/**
 * docs/design.md#reading-a-file: bytes → lines → records.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { decodeUtf8 } from '../../src/parse/utf8.js';
import { defaultMatcher, parseRobotsTxt, setMatcher } from '../support/library.js';
import { inBothProfiles, profiles } from '../support/verdict.js';

const bytes = (...parts: (string | number[])[]): Uint8Array => {
  const chunks = parts.map((part) => (typeof part === 'string' ? new TextEncoder().encode(part) : Uint8Array.from(part)));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
};

describe('byte order mark', () => {
  // spec: Google's robots.txt spec (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt), "File format" (the UTF-8 BOM is ignored)
  const rules = 'User-Agent: FooBot\nDisallow: /x\n';
  it.each([
    ['a whole BOM', [0xef, 0xbb, 0xbf]],
    ['the first two bytes of a BOM', [0xef, 0xbb]],
    ['the first byte of a BOM', [0xef]],
  ])('skips %s at the start', (_name, bom) => {
    expect(inBothProfiles(bytes(bom, rules), 'FooBot', '/x')).toBe(false);
    expect(parseRobotsTxt(bytes(bom, rules)).groups).toHaveLength(1);
  });

  it('reads a broken BOM as content of the first line', () => {
    const robots = parseRobotsTxt(bytes([0xef, 0x11, 0xbf], rules));
    // The first line's key is now "\x11\xBFUser-Agent": unknown, so the rule has no group.
    expect(robots.groups).toHaveLength(0);
    expect(inBothProfiles(bytes([0xef, 0x11, 0xbf], rules), 'FooBot', '/x')).toBe(true);
  });

  it('treats a BOM after the start as part of its line', () => {
    const body = bytes('User-Agent: FooBot\n', [0xef, 0xbb, 0xbf], 'Disallow: /x\n');
    expect(inBothProfiles(body, 'FooBot', '/x')).toBe(true);
    expect(parseRobotsTxt(body).diagnostics.map((d) => d.code)).toContain('unknown-directive');
  });
});

describe('a U+FEFF inside a value', () => {
  // spec: Google's robots.txt spec, "File format" (only a BOM "at the beginning of the robots.txt file is
  // ignored") and "Order of precedence for user-agents" ("All non-matching text is ignored"): bytes EF BB BF
  // right after the colon stay, and the name is cut before them, to nothing.
  const MATCHERS = ['wasm', 'typescript'] as const;
  /** Each body as a string and as the bytes EF BB BF stand in. */
  const asStringAndBytes = (text: string): (string | Uint8Array)[] => [text, new TextEncoder().encode(text)];

  afterEach(() => {
    setMatcher(defaultMatcher);
  });

  it('does not read "User-agent: \\uFEFFFooBot" as naming FooBot', () => {
    for (const matcher of MATCHERS) {
      setMatcher(matcher);
      for (const body of asStringAndBytes('User-agent: \uFEFFFooBot\nDisallow: /x\n')) {
        expect(parseRobotsTxt(body).groups[0]?.agents[0]).toEqual({ line: 1, value: '\uFEFFFooBot', token: '', global: false });
        for (const profile of profiles) {
          const rules = parseRobotsTxt(body, { profile }).forAgent('FooBot');
          expect([rules.matched, rules.isAllowed('/x')], `${matcher}, ${profile}`).toEqual(['none', true]);
        }
      }
      // A U+FEFF that starts the file is still skipped; the one in the value still stays.
      for (const body of asStringAndBytes('\uFEFFUser-agent: \uFEFFFooBot\nDisallow: /x\n')) {
        expect(parseRobotsTxt(body).groups[0]?.agents[0]?.value, matcher).toBe('\uFEFFFooBot');
      }
    }
  });

  it('does not read "User-agent: \\uFEFF*" as the * group', () => {
    const group = 'User-agent: \uFEFF*\nDisallow: /x\n';
    for (const matcher of MATCHERS) {
      setMatcher(matcher);
      for (const body of asStringAndBytes(`${group}\nUser-agent: *\nDisallow: /y\n`)) {
        expect(parseRobotsTxt(body).groups[0]?.agents[0]).toEqual({ line: 1, value: '\uFEFF*', token: '', global: false });
        for (const profile of profiles) {
          const rules = parseRobotsTxt(body, { profile }).forAgent('FooBot');
          const where = `${matcher}, ${profile}`;
          expect(rules.matched, where).toBe('global');
          expect([rules.isAllowed('/x'), rules.isAllowed('/y')], where).toEqual([true, false]);
        }
      }
      for (const body of asStringAndBytes(group)) expect(parseRobotsTxt(body).forAgent('FooBot').matched, matcher).toBe('none');
    }
  });

  // The google profile compares the caller's agent as given: the empty agent names the empty name.
  it('gives the empty agent that group in the google profile', () => {
    for (const matcher of MATCHERS) {
      setMatcher(matcher);
      for (const text of ['User-agent: \uFEFFFooBot\nDisallow: /x\n', 'User-agent: \uFEFF*\nDisallow: /x\n']) {
        for (const body of asStringAndBytes(text)) {
          const rules = parseRobotsTxt(body, { profile: 'google' }).forAgent('');
          expect([rules.matched, rules.isAllowed('/x')], `${matcher}, ${JSON.stringify(text)}`).toEqual(['agent', false]);
        }
      }
    }
  });

  it('keeps the U+FEFF of a pattern that starts with one, in whatever explain() reports', () => {
    for (const matcher of MATCHERS) {
      setMatcher(matcher);
      for (const profile of profiles) {
        for (const body of asStringAndBytes('User-agent: FooBot\nDisallow: \uFEFF/x\n')) {
          const rules = parseRobotsTxt(body, { profile }).forAgent('FooBot');
          // Percent-encoded, the pattern starts with neither "/" nor "*": it can match no path.
          for (const url of ['/x', '/\uFEFF/x', '/%EF%BB%BF/x', 'https://example.com/x']) {
            const explained = rules.explain(url);
            expect(explained, `${matcher}, ${profile}, ${url}`).toEqual({ allowed: true, line: 0 });
            if (explained.rule !== undefined) expect(explained.rule.pattern.startsWith('\uFEFF')).toBe(true);
          }
          for (const rule of rules.rules) expect(rule.pattern.startsWith('\uFEFF')).toBe(true);
        }
      }
    }
  });

  it('decodes every value with a leading U+FEFF kept', () => {
    expect(decodeUtf8(Uint8Array.of(0xef, 0xbb, 0xbf, 0x2a))).toBe('\uFEFF*');
    expect(decodeUtf8(Uint8Array.of(0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf))).toBe('\uFEFF\uFEFF');
    expect(decodeUtf8(Uint8Array.of(0xef, 0xbb))).toBe('\uFFFD');
    // Other values than user-agents keep it too: this sitemap is not an absolute URL.
    const robots = parseRobotsTxt('User-agent: *\nSitemap: \uFEFFhttps://example.com/sitemap.xml\nCrawl-delay: \uFEFF2\n');
    expect(robots.sitemaps).toEqual([]);
    expect(robots.forAgent('FooBot').crawlDelay).toBeUndefined();
  });
});

describe('line ends', () => {
  // spec: Google's robots.txt spec, "File format" (CR, CR/LF or LF end a line)
  it.each([
    ['LF', '\n'],
    ['CR', '\r'],
    ['CRLF', '\r\n'],
  ])('ends lines at %s', (_name, eol) => {
    const body = ['User-agent: FooBot', 'Disallow: /', 'Allow: /x', 'Disallow: /x/y'].join(eol);
    expect(inBothProfiles(body, 'FooBot', '/a')).toBe(false);
    expect(inBothProfiles(body, 'FooBot', '/x')).toBe(true);
    expect(inBothProfiles(body, 'FooBot', '/x/y')).toBe(false);
    const rules = parseRobotsTxt(body).forAgent('FooBot');
    expect(rules.explain('/x/y').line).toBe(4);
  });

  it('counts a mix of line ends, and LF then CR as two', () => {
    const body = 'User-agent: FooBot\r\nAllow: /a\rAllow: /b\n\rDisallow: /c\r\n\nDisallow: /d';
    const rules = parseRobotsTxt(body).forAgent('FooBot');
    expect(rules.explain('/a').line).toBe(2);
    expect(rules.explain('/b').line).toBe(3);
    expect(rules.explain('/c').line).toBe(5);
    expect(rules.explain('/d').line).toBe(7);
  });
});

describe('line length', () => {
  // spec: Google's robots.txt spec, "File format"; Google's parser keeps 16,663 bytes of a line
  it('keeps the first 16,663 bytes of a long line, so a cut rule still matches as a prefix', () => {
    const prefix = 'disallow: ';
    const path = '/x/' + 'a'.repeat(16_663 - prefix.length - 3);
    const body = `user-agent: FooBot\n${prefix}${path}/qux\n`;
    expect(inBothProfiles(body, 'FooBot', 'http://foo.bar/fux')).toBe(true);
    expect(inBothProfiles(body, 'FooBot', `http://foo.bar${path}/fux`)).toBe(false);
    expect(parseRobotsTxt(body).diagnostics.map((d) => d.code)).toContain('line-too-long');
  });

  it('counts the limit on raw bytes, before percent-encoding', () => {
    const prefix = 'allow: ';
    const room = 16_663 - prefix.length - 1;
    // 'é' is 2 bytes (C3 A9): the odd room cuts the last one in half, leaving its C3 byte.
    const body = `user-agent: FooBot\ndisallow: /\n${prefix}/${'é'.repeat(room)}\n`;
    const rules = parseRobotsTxt(body, { profile: 'google' }).forAgent('FooBot');
    const kept = encodeURI('é'.repeat(Math.floor(room / 2)));
    expect(rules.isAllowed(`/${kept}%C3`)).toBe(true);
    expect(rules.isAllowed(`/${kept}`)).toBe(false);
  });
});

describe('comments and whitespace', () => {
  // spec: RFC 9309 §2.2 (comments); Google's robots.txt spec, "Formal syntax and definition"
  it('starts a comment at # anywhere on a line', () => {
    const body = '# Disallow: /\nUser-agent: FooBot # a bot\nDisallow: /foo/quz#qux\nAllow: /\n';
    expect(inBothProfiles(body, 'FooBot', '/foo/bar')).toBe(true);
    expect(inBothProfiles(body, 'FooBot', '/foo/quz')).toBe(false);
  });

  it('trims ASCII whitespace, tab, vertical tab and form feed included', () => {
    const body = ' \tUser-agent:\t FooBot \v\n\f Disallow \t:  /x \t\n';
    expect(inBothProfiles(body, 'FooBot', '/x')).toBe(false);
  });

  it('keeps a no-break space as content, percent-encoded in the pattern', () => {
    const body = 'User-agent: FooBot\nDisallow: /a\u00a0\n';
    expect(inBothProfiles(body, 'FooBot', '/a')).toBe(true);
    expect(inBothProfiles(body, 'FooBot', '/a%C2%A0')).toBe(false);
  });
});

describe('keys', () => {
  // spec: Google's robots.txt spec, "Formal syntax and definition" (field names are case-insensitive)
  it('matches keys case-insensitively', () => {
    const body = 'USER-AGENT: FooBot\nDISALLOW: /x\nuser-agent: BarBot\nallow: /x\ndisallow: /\n';
    expect(inBothProfiles(body, 'FooBot', '/x')).toBe(false);
    expect(inBothProfiles(body, 'BarBot', '/x')).toBe(true);
  });

  it.each([
    ['useragent', 'disallow'],
    ['user agent', 'disallow'],
    ['user-agent', 'dissallow'],
    ['user-agent', 'dissalow'],
    ['user-agent', 'disalow'],
    ['user-agent', 'diasllow'],
    ['user-agent', 'disallaw'],
    ['User-agents', 'Disallowed'],
  ])('accepts Google’s spellings: %s / %s', (agentKey, disallowKey) => {
    const body = `${agentKey}: FooBot\n${disallowKey}: /x\n`;
    expect(inBothProfiles(body, 'FooBot', '/x')).toBe(false);
  });

  it('matches keys by prefix, so "Disallowed:" is a disallow and "Allowance:" an allow', () => {
    const body = 'User-agent: FooBot\nDisallowed: /\nAllowance: /x\n';
    expect(inBothProfiles(body, 'FooBot', '/y')).toBe(false);
    expect(inBothProfiles(body, 'FooBot', '/x')).toBe(true);
  });

  it('reads "site-map" as a sitemap', () => {
    expect(parseRobotsTxt('Site-map: https://example.com/s.xml').sitemaps).toEqual(['https://example.com/s.xml']);
  });

  it('reads a line of exactly two tokens without a colon as key and value', () => {
    const body = 'user-agent FooBot\ndisallow /\n';
    expect(inBothProfiles(body, 'FooBot', '/a')).toBe(false);
  });

  it('ignores a colon-less line of more than two tokens', () => {
    const body = 'user-agent FooBot\ndisallow / now\n';
    expect(inBothProfiles(body, 'FooBot', '/a')).toBe(true);
  });

  it('ignores lines with an empty key or no separator', () => {
    const body = 'user-agent: FooBot\n: /\ndisallow\n';
    expect(inBothProfiles(body, 'FooBot', '/a')).toBe(true);
  });

  it('keeps unknown keys for diagnostics without failing', () => {
    const robots = parseRobotsTxt('User-agent: *\nNoindex: /x\nDisallow: /y\n');
    expect(robots.diagnostics).toContainEqual(expect.objectContaining({ line: 2, code: 'unknown-directive' }));
    expect(robots.isAllowed('/x', 'FooBot')).toBe(true);
  });

  it('ends a line at a NUL byte, as the reference reads lines as C strings', () => {
    const body = bytes('User-agent: FooBot\nDisallow: /a', [0], 'b\n');
    expect(inBothProfiles(body, 'FooBot', '/a')).toBe(false);
    expect(inBothProfiles(body, 'FooBot', '/c')).toBe(true);
  });
});

describe('byte limit', () => {
  // spec: Google's robots.txt spec, "File format" (500 KiB; content after it is ignored)
  it('parses the first 512,000 bytes by default and reports the rest', () => {
    const head = 'User-agent: *\nDisallow: /a\n';
    const body = head + '#'.repeat(512_000 - head.length) + '\nDisallow: /b\n';
    const robots = parseRobotsTxt(body);
    expect(robots.isAllowed('/a', 'FooBot')).toBe(false);
    expect(robots.isAllowed('/b', 'FooBot')).toBe(true);
    expect(robots.truncated).toBe(true);
    expect(robots.bytesParsed).toBe(512_000);
    expect(robots.bytesIgnored).toBe(body.length - 512_000);
    expect(robots.diagnostics[0]).toMatchObject({ line: 0, code: 'body-truncated' });
  });

  it('drops a line that maxBytes cuts short instead of reading it as a shorter rule', () => {
    // spec: RFC 9309 §2.5 (rules past the parsing limit are not read, so they allow nothing away)
    const body = 'User-agent: *\nDisallow: /x\nDisallow: /abcdef\n';
    const robots = parseRobotsTxt(body, { maxBytes: body.indexOf('cdef') });
    expect(robots.isAllowed('/abxyz', 'FooBot')).toBe(true);
    expect(robots.isAllowed('/x', 'FooBot')).toBe(false);
    expect(robots.bytesIgnored).toBe(5);
    expect(robots.diagnostics[0]?.message).toMatch(/dropped/);
  });

  it('keeps a last line that ends exactly at maxBytes', () => {
    const body = 'User-agent: *\nDisallow: /abc\nDisallow: /d\n';
    for (const input of [body, new TextEncoder().encode(body)]) {
      const robots = parseRobotsTxt(input, { maxBytes: body.indexOf('\nDisallow: /d') });
      expect(robots.isAllowed('/abc', 'FooBot')).toBe(false);
      expect(robots.isAllowed('/d', 'FooBot')).toBe(true);
    }
  });

  it('counts the limit in UTF-8 bytes for string input', () => {
    const body = 'User-agent: *\nDisallow: /é\n';
    const robots = parseRobotsTxt(body, { maxBytes: 26 });
    expect(robots.bytesParsed + (robots.bytesIgnored ?? NaN)).toBe(new TextEncoder().encode(body).length);
  });
});

describe('diagnostics', () => {
  it('keeps at most 1,000 diagnostics and says when more were left out', () => {
    const robots = parseRobotsTxt('not a record\n'.repeat(5_000));
    expect(robots.diagnostics).toHaveLength(1_001);
    expect(robots.diagnostics[1_000]?.code).toBe('too-many-diagnostics');
  });
});
