/**
 * Bad input: every kind of it gets a clear typed error or a documented result, and quickly. Each heavy
 * input has a test of its own with a 10 s timeout, so that one that became slow fails on its own, by name
 * (vitest fails a synchronous test that overran its timeout once it returns).
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  defaultMatcher,
  DEFAULT_MAX_BYTES,
  matcherInfo,
  parseRobotsTxt,
  RulesDisposedError,
  setMatcher,
  type BackendKind,
  type ProfileName,
  type RobotsTxt,
} from '../support/library.js';
// The parser's line limit is internal: the source's constant, the same number in every build.
import { MAX_LINE_BYTES } from '../../src/parse/lines.js';
import { mulberry32 } from '../../harness/random.mjs';

const TIMEOUT = { timeout: 10_000 };
const PROFILES: readonly ProfileName[] = ['rfc9309', 'google'];
const MATCHERS: readonly BackendKind[] = ['wasm', 'typescript'];
const MEGABYTE = 1 << 20;

/** Bytes from the seeded generator, so the "random" input is the same on every run: each the low byte of one draw. */
function randomBytes(length: number, seed: number): Uint8Array {
  const next = mulberry32(seed);
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (next() * 2 ** 32) & 0xff;
  return bytes;
}

/**
 * Garbage that looks enough like robots.txt to reach every branch of the parser: keys (and their typos),
 * separators, wildcards, escapes, comments, line ends of every kind, NUL and invalid UTF-8.
 */
function robotsLikeGarbage(length: number, seed: number): Uint8Array {
  const pieces = [
    'User-agent:',
    'user agent ',
    'Allow:',
    'Disallow:',
    'dissallow:',
    'Sitemap:',
    'Crawl-delay:',
    'Host:',
    'Clean-param:',
    'Request-rate:',
    'Visit-time:',
    ' ',
    '\t',
    ':',
    '*',
    '$',
    '/',
    '%',
    '%2F',
    '%41',
    '#',
    '?',
    '\n',
    '\r',
    '\r\n',
    '\n\r',
    '\u0000',
    '\u00a0',
    'é',
    '\uFEFF',
    'Googlebot',
    'ExampleBot',
    '1.5',
    '1/10',
  ].map((piece) => new TextEncoder().encode(piece));
  const noise = randomBytes(length, seed);
  const out = new Uint8Array(length);
  let at = 0;
  for (let i = 0; at < length; i++) {
    const roll = noise[i % length] as number;
    const piece = roll < 200 ? (pieces[roll % pieces.length] as Uint8Array) : noise.subarray(i % length, (i % length) + (roll & 7));
    out.set(piece.subarray(0, length - at), at);
    at += Math.min(piece.length, length - at) || 1;
  }
  return out;
}

/** Line count the way the parser counts: CR, LF and CRLF each end a line, plus the last line. */
function lineCount(bytes: Uint8Array): number {
  let count = 1;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) count++;
    else if (bytes[i] === 0x0d) {
      count++;
      if (bytes[i + 1] === 0x0a) i++;
    }
  }
  return count;
}

/** Asks `urls` of every matcher and expects the same verdicts; returns them. */
function verdictsOfEveryMatcher(robots: RobotsTxt, agent: string, urls: readonly string[]): boolean[] {
  const verdicts = MATCHERS.map((matcher) => {
    setMatcher(matcher);
    robots.dispose(); // compiled again, with this matcher
    return robots.forAgent(agent).isAllowedMany(urls);
  });
  setMatcher(defaultMatcher);
  expect(verdicts[1]).toEqual(verdicts[0]);
  return verdicts[0] as boolean[];
}

afterEach(() => {
  setMatcher(defaultMatcher);
});

describe('binary garbage', TIMEOUT, () => {
  const garbage = randomBytes(MEGABYTE, 0x5eed);

  // spec: Google's robots.txt spec (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt), "File format" ("Only valid records will be considered; all other content
  // will be ignored ... without warning or error")
  it('parses a megabyte of random bytes, in both profiles, and answers for it', () => {
    for (const profile of PROFILES) {
      const robots = parseRobotsTxt(garbage, { profile });
      expect(robots.bytesParsed).toBe(DEFAULT_MAX_BYTES);
      expect(robots.bytesIgnored).toBe(MEGABYTE - DEFAULT_MAX_BYTES);
      const lines = lineCount(garbage.subarray(0, DEFAULT_MAX_BYTES));
      for (const group of robots.groups) {
        expect(group.agents.length).toBeGreaterThan(0);
        for (const { line } of [...group.agents, ...group.rules]) expect(line).toBeGreaterThanOrEqual(1);
        for (const { line } of [...group.agents, ...group.rules]) expect(line).toBeLessThanOrEqual(lines);
      }
      expect(typeof robots.isAllowed('/', 'ExampleBot')).toBe('boolean');
      robots.dispose();
    }
  });

  // spec: Google's robots.txt spec, "File format"; "URL matching based on path values"
  it('parses garbage made of robots.txt fragments, and both matchers agree on it', () => {
    const body = robotsLikeGarbage(256 * 1024, 0xbad);
    for (const profile of PROFILES) {
      const robots = parseRobotsTxt(body, { profile });
      expect(robots.bytesParsed + (robots.bytesIgnored ?? NaN)).toBe(body.length);
      for (const agent of ['Googlebot', 'ExampleBot']) {
        const rules = robots.forAgent(agent).rules;
        const urls = rules.slice(0, 200).flatMap(({ pattern }) => {
          const path = pattern.replaceAll('*', 'x').replace(/\$$/, '');
          return [path, `${path}x`, `https://example.com${path}`];
        });
        verdictsOfEveryMatcher(robots, agent, ['/', '/robots.txt', ...urls]);
      }
      robots.dispose();
    }
  });
});

describe('a body over the size limit', TIMEOUT, () => {
  const HEAD = 'User-agent: *\nDisallow: /early\n';
  const TAIL = 'Disallow: /late\n';
  const FILLER = '# filler, to make the file big\n';
  const fillerLines = Math.ceil((50 * MEGABYTE) / FILLER.length);
  const FIFTY_MEGABYTES = HEAD.length + fillerLines * FILLER.length + TAIL.length;

  function expectTruncatedAt500KiB(robots: RobotsTxt): void {
    expect(robots.truncated).toBe(true);
    expect(robots.bytesParsed).toBe(DEFAULT_MAX_BYTES);
    expect(robots.bytesIgnored).toBe(FIFTY_MEGABYTES - DEFAULT_MAX_BYTES);
    expect(robots.diagnostics).toContainEqual(expect.objectContaining({ line: 0, code: 'body-truncated' }));
    // What is before the limit counts; what is after it does not.
    expect(robots.isAllowed('/early', 'ExampleBot')).toBe(false);
    expect(robots.isAllowed('/late', 'ExampleBot')).toBe(true);
  }

  // spec: Google's robots.txt spec, "File format" ("Content which is after the maximum file size may be
  // ignored. Google currently enforces a size limit of 500 kilobytes"); RFC 9309 §2.5 (at least 500 KiB)
  it('parses only the first 512,000 bytes of a 50 MB string, and reports the rest', () => {
    const body = HEAD + FILLER.repeat(fillerLines) + TAIL;
    expect(body.length).toBe(FIFTY_MEGABYTES);
    expectTruncatedAt500KiB(parseRobotsTxt(body));
  });

  // spec: Google's robots.txt spec, "File format" (500 kilobytes); RFC 9309 §2.5
  it('parses only the first 512,000 bytes of 50 MB of bytes, and reports the rest', () => {
    const body = new Uint8Array(FIFTY_MEGABYTES);
    const encoder = new TextEncoder();
    body.set(encoder.encode(HEAD));
    const filler = encoder.encode(FILLER);
    for (let at = HEAD.length; at < FIFTY_MEGABYTES - TAIL.length; at += filler.length) body.set(filler, at);
    body.set(encoder.encode(TAIL), FIFTY_MEGABYTES - TAIL.length);
    expectTruncatedAt500KiB(parseRobotsTxt(body));
  });

  // spec: RFC 9309 §2.5 (a parsing limit of at least 500 KiB; what is past it is not read)
  it('ignores what follows maxBytes and reports it', () => {
    const body = 'User-agent: *\nDisallow: /a\nDisallow: /b\n';
    const maxBytes = body.indexOf('Disallow: /b');
    const robots = parseRobotsTxt(body, { maxBytes });
    expect(robots.bytesParsed).toBe(maxBytes);
    expect(robots.bytesIgnored).toBe(body.length - maxBytes);
    expect(robots.diagnostics).toContainEqual(expect.objectContaining({ line: 0, code: 'body-truncated' }));
    expect(robots.isAllowed('/a', 'ExampleBot')).toBe(false);
    expect(robots.isAllowed('/b', 'ExampleBot')).toBe(true);
    // With room for the whole body nothing is cut, and nothing is reported.
    const whole = parseRobotsTxt(body, { maxBytes: body.length });
    expect([whole.truncated, whole.bytesIgnored, whole.isAllowed('/b', 'ExampleBot')]).toEqual([false, 0, false]);
    expect(whole.diagnostics.map((diagnostic) => diagnostic.code)).not.toContain('body-truncated');
  });

  // The README of ParseOptions: maxBytes is a whole number of bytes ≥ 0, or Infinity
  it('takes maxBytes of 0 (nothing parsed) and Infinity (no limit)', () => {
    const body = 'User-agent: *\nDisallow: /\n';
    const nothing = parseRobotsTxt(body, { maxBytes: 0 });
    expect([nothing.bytesParsed, nothing.bytesIgnored, nothing.groups.length]).toEqual([0, body.length, 0]);
    expect(nothing.isAllowed('/x', 'ExampleBot')).toBe(true);
    const everything = parseRobotsTxt(body + '#'.repeat(DEFAULT_MAX_BYTES), { maxBytes: Infinity });
    expect([everything.truncated, everything.isAllowed('/x', 'ExampleBot')]).toEqual([false, false]);
  });

  // A limit that falls inside a character cuts it like raw bytes: strings and bytes count alike.
  it('counts the bytes of a string body in UTF-8, even when the limit splits a character', () => {
    for (const text of ['€€€€', '😀😀😀', 'ab\uD800cd\uDC00', 'Disallow: /é']) {
      for (const maxBytes of [0, 1, 4, 5, 6, 10, 100]) {
        const fromString = parseRobotsTxt(text, { maxBytes });
        const fromBytes = parseRobotsTxt(new TextEncoder().encode(text), { maxBytes });
        const counts = [fromString.bytesParsed, fromString.bytesIgnored];
        expect(counts, `${JSON.stringify(text)} cut at ${maxBytes}`).toEqual([fromBytes.bytesParsed, fromBytes.bytesIgnored]);
      }
    }
  });

  it('refuses a maxBytes that is not a whole number of bytes with a RangeError', () => {
    for (const maxBytes of [-1, 1.5, Number.NaN, '10', -Infinity, 2 ** 53]) {
      expect(() => parseRobotsTxt('User-agent: *', { maxBytes: maxBytes as number }), String(maxBytes)).toThrow(RangeError);
    }
    expect(() => parseRobotsTxt('', { maxBytes: -1 })).toThrow(/maxBytes/);
  });
});

describe('a very long line', TIMEOUT, () => {
  // The line "Disallow: /aaa…", and what is left of it when it is cut.
  const KEY = 'Disallow: ';
  const KEPT_PATTERN = `/${'a'.repeat(MAX_LINE_BYTES - KEY.length - 1)}`;

  // spec: Google's robots.txt spec, "File format" (Google's reference reads at most 16,663 bytes of a line;
  // docs/design.md#reading-a-file: "A line keeps at most its first 16,663 bytes (Google's limit)")
  it('keeps the first 16,663 bytes of a 1 MB line, reports the cut, and still applies the rule', () => {
    expect(MAX_LINE_BYTES).toBe(16_663);
    const body = `User-agent: *\n${KEY}/${'a'.repeat(MEGABYTE)}`;
    const robots = parseRobotsTxt(body, { maxBytes: Infinity });
    expect(robots.truncated).toBe(false);
    expect(robots.diagnostics).toContainEqual(expect.objectContaining({ line: 2, code: 'line-too-long' }));
    const rules = robots.forAgent('ExampleBot');
    expect(rules.rules).toEqual([{ kind: 'disallow', pattern: KEPT_PATTERN, line: 2 }]);
    // The cut rule is a prefix: of its own length and longer paths, not of shorter ones.
    expect(rules.isAllowed(KEPT_PATTERN)).toBe(false);
    expect(rules.isAllowed(`${KEPT_PATTERN}a`)).toBe(false);
    expect(rules.isAllowed(`/${'a'.repeat(MEGABYTE)}`)).toBe(false);
    expect(rules.isAllowed(KEPT_PATTERN.slice(0, -1))).toBe(true);
    expect(rules.isAllowed(`${KEPT_PATTERN.slice(0, -1)}b`)).toBe(true);
  });

  // spec: as above: the limit is on bytes, so a line of exactly 16,663 bytes is whole
  it('cuts a line of 16,664 bytes but not one of 16,663', () => {
    for (const [extra, cut] of [
      [0, false],
      [1, true],
    ] as const) {
      const line = KEPT_PATTERN + 'b'.repeat(extra);
      const robots = parseRobotsTxt(`User-agent: *\r\n${KEY}${line}\r\nAllow: /a\r\n`);
      const codes = robots.diagnostics.filter((diagnostic) => diagnostic.line === 2).map((diagnostic) => diagnostic.code);
      expect(codes).toEqual(cut ? ['line-too-long'] : []);
      expect(robots.forAgent('ExampleBot').rules.map((rule) => rule.pattern)).toEqual([KEPT_PATTERN, '/a']);
    }
  });

  // The limit counts raw bytes: a character that straddles it is cut like any other bytes, never "fixed up",
  // and the cut pattern is percent-encoded byte by byte (RFC 9309 §2.2.2).
  it('cuts a line of multi-byte characters on the byte count, even inside a character', () => {
    const prefix = `${KEY}/x`; // 12 bytes, so 16,651 bytes are left: 8,325 "é" and half of one more
    const robots = parseRobotsTxt(`User-agent: *\n${prefix}${'é'.repeat(MAX_LINE_BYTES)}\n`);
    const pattern = robots.groups[0]?.rules[0]?.pattern;
    expect(pattern?.length).toBe(MAX_LINE_BYTES - KEY.length);
    expect(pattern?.at(-1)).toBe(0xc3); // the first byte of "é" (C3 A9)
    const keptCharacters = (MAX_LINE_BYTES - prefix.length - 1) / 2;
    expect(robots.isAllowed(`/x${'é'.repeat(keptCharacters + 1)}`, 'ExampleBot')).toBe(false);
    expect(robots.isAllowed(`/x${'é'.repeat(keptCharacters)}`, 'ExampleBot')).toBe(true);
  });
});

describe('patterns built to be slow', TIMEOUT, () => {
  const HUNDRED_KB = 100 * 1024;

  // spec: Google's robots.txt spec, "URL matching based on path values" ("* designates 0 or more instances of
  // any valid character"); docs/design.md#hostile-input: "a rule of 10,000 `*` against a 100 KB URL must still return in milliseconds"
  for (const matcher of MATCHERS) {
    it(`answers for 10,000 stars then x against a 100 KB URL (${matcher} matcher)`, () => {
      setMatcher(matcher);
      const robots = parseRobotsTxt(`User-agent: *\nDisallow: ${'*'.repeat(10_000)}x\n`);
      const rules = robots.forAgent('ExampleBot');
      expect(rules.isAllowed(`/${'a'.repeat(HUNDRED_KB)}`)).toBe(true);
      expect(rules.isAllowed(`/${'a'.repeat(HUNDRED_KB)}x`)).toBe(false);
      expect(rules.isAllowed(`/x${'a'.repeat(HUNDRED_KB)}`)).toBe(false);
      expect(rules.isAllowed(`https://example.com/${'a'.repeat(HUNDRED_KB / 2)}x${'a'.repeat(HUNDRED_KB / 2)}`)).toBe(false);
    });
  }

  // Same spec: many pieces between stars must not make either matcher slow.
  for (const matcher of MATCHERS) {
    it(`answers for / then 5,000 "a*" then b against a 100 KB URL (${matcher} matcher)`, () => {
      setMatcher(matcher);
      const robots = parseRobotsTxt(`User-agent: *\nDisallow: /${'a*'.repeat(5_000)}b\n`);
      const rules = robots.forAgent('ExampleBot');
      expect(rules.isAllowed(`/${'a'.repeat(HUNDRED_KB)}b`)).toBe(false);
      expect(rules.isAllowed(`/${'ab'.repeat(HUNDRED_KB / 2)}`)).toBe(false);
      expect(rules.isAllowed(`/${'a'.repeat(HUNDRED_KB)}`)).toBe(true); // no b
      expect(rules.isAllowed(`/${'a'.repeat(4_999)}${'b'.repeat(HUNDRED_KB)}`)).toBe(true); // one a short
      expect(rules.isAllowed(`/b${'a'.repeat(HUNDRED_KB)}b`)).toBe(true); // the first piece, "/a", is anchored
      expect(rules.isAllowed(`/ab${'a'.repeat(HUNDRED_KB)}b`)).toBe(false);
      expect(rules.isAllowed(`/${'a'.repeat(5_000)}b`)).toBe(false); // exactly enough
    });
  }

  it('gives the same verdicts with both matchers for many "a*" pieces, on short URLs', () => {
    const robots = parseRobotsTxt(`User-agent: *\nDisallow: /${'a*'.repeat(50)}b\nAllow: /${'a*'.repeat(50)}b$\n`);
    const urls = [49, 50, 51, 200].flatMap((count) => [
      `/${'a'.repeat(count)}b`,
      `/${'a'.repeat(count)}bc`,
      `/${'ab'.repeat(count)}`,
      `/${'a'.repeat(count)}`,
      `/${'ba'.repeat(count)}b`,
    ]);
    const verdicts = verdictsOfEveryMatcher(robots, 'ExampleBot', urls);
    // 49 a's: no rule matches. 50 or more, then b at the end: the longer, end-anchored allow wins; with a
    // "c" after the b, only the disallow matches.
    const short = [true, true, true, true, true];
    const enough = [true, false, true, true, true];
    expect(verdicts).toEqual([...short, ...enough, ...enough, ...enough]);
  });
});

describe('URLs that are not URLs', TIMEOUT, () => {
  // "/" alone is allowed, anything longer is not: so each verdict says which path was asked.
  const BODY = 'User-agent: *\nAllow: /$\nDisallow: /\n';
  const WITHOUT_A_PATH = ['', 'not a url', 'http://', '::::', '%%%', '\u0000', '\uD800', 'https://example.com#/a'];

  // The documented fallback (AgentRules.isAllowed): any string is accepted, and one with no path is asked as "/".
  // spec: Google's robots.txt spec, "URL matching based on path values"
  it('asks a string with no path as "/", in both profiles and with both matchers', () => {
    for (const profile of PROFILES) {
      const robots = parseRobotsTxt(BODY, { profile });
      for (const url of WITHOUT_A_PATH) {
        expect(robots.forAgent('ExampleBot').explain(url), JSON.stringify(url)).toEqual({
          allowed: true,
          line: 2,
          rule: { kind: 'allow', pattern: '/$' },
        });
      }
      expect(verdictsOfEveryMatcher(robots, 'ExampleBot', WITHOUT_A_PATH)).toEqual(WITHOUT_A_PATH.map(() => true));
    }
  });

  it('answers for a 1 MB URL and for paths with broken escapes or lone surrogates', () => {
    const urls = [`https://example.com/${'a'.repeat(MEGABYTE)}`, '/%%%', '/%4', '/%zz', '/\uD800', '/\uDC00x', `/${'%'.repeat(MEGABYTE)}`];
    for (const profile of PROFILES) {
      const robots = parseRobotsTxt(BODY, { profile });
      expect(verdictsOfEveryMatcher(robots, 'ExampleBot', urls)).toEqual(urls.map(() => false));
    }
  });
});

describe('arguments of the wrong type', TIMEOUT, () => {
  const NOT_STRINGS: ReadonlyArray<readonly [string, unknown]> = [
    ['a number', 42],
    ['null', null],
    ['undefined', undefined],
    ['an object', { toString: () => '/' }],
  ];
  const robots = parseRobotsTxt('User-agent: *\nDisallow: /private\n');

  it('refuses a body that is neither a string nor bytes with a TypeError', () => {
    for (const [what, body] of NOT_STRINGS) {
      expect(() => parseRobotsTxt(body as string), what).toThrow(TypeError);
      expect(() => parseRobotsTxt(body as string), what).toThrow(/string or a Uint8Array/);
    }
  });

  it('refuses a URL that is not a string with a TypeError', () => {
    const rules = robots.forAgent('ExampleBot');
    for (const [what, url] of NOT_STRINGS) {
      expect(() => rules.isAllowed(url as string), what).toThrow(TypeError);
      expect(() => rules.isAllowed(url as string), what).toThrow(/URL as a string/);
      expect(() => rules.explain(url as string), what).toThrow(/URL as a string/);
      expect(() => robots.isAllowed(url as string, 'ExampleBot'), what).toThrow(/URL as a string/);
      expect(() => robots.cleanUrl(url as string), what).toThrow(/URL as a string/);
      expect(() => rules.isAllowedMany(['/a', url as string]), what).toThrow(/URL as a string/);
      expect(() => rules.isAllowedMany(url as string[]), what).toThrow(TypeError);
    }
  });

  // AgentRules.isAllowed: a URL is a string or a URL object; anything else is refused, saying both.
  it('refuses a URL that is neither a string nor a URL object with a TypeError that names both', () => {
    const rules = robots.forAgent('ExampleBot');
    const notUrls: readonly unknown[] = [...NOT_STRINGS.map(([, url]) => url), { pathname: '/private' }, ['/private'], new Uint8Array(1)];
    for (const url of notUrls) {
      const what = Object.prototype.toString.call(url);
      for (const ask of [
        () => rules.isAllowed(url as URL),
        () => rules.explain(url as URL),
        () => robots.isAllowed(url as URL, 'ExampleBot'),
      ]) {
        expect(ask, what).toThrow(TypeError);
        expect(ask, what).toThrow(/string or a URL object/);
      }
    }
    expect(() => rules.isAllowed(42 as unknown as URL)).toThrow(/got number/);
    expect(() => rules.isAllowed([] as unknown as URL)).toThrow(/got Array/);
  });

  it('refuses a URL object in a batch with a TypeError that says to ask isAllowed for it', () => {
    const rules = robots.forAgent('ExampleBot');
    const batch = ['/a', new URL('https://example.com/private')] as unknown as string[];
    expect(() => rules.isAllowedMany(batch)).toThrow(TypeError);
    expect(() => rules.isAllowedMany(batch)).toThrow(/isAllowed\(url\)/);
  });

  // AgentRules.isAllowedManyInto writes one byte per URL into `out`, which must be a Uint8Array.
  it('refuses an out that is not a Uint8Array with a TypeError that says so, with both matchers', () => {
    const notBytes: readonly unknown[] = [
      [],
      [0, 0],
      new Array(2),
      new Uint16Array(2),
      new Uint8ClampedArray(2),
      new ArrayBuffer(2),
      null,
      {},
      '00',
      2,
    ];
    for (const matcher of MATCHERS) {
      setMatcher(matcher);
      const rules = parseRobotsTxt('User-agent: *\nDisallow: /private\n').forAgent('ExampleBot');
      for (const out of notBytes) {
        const what = `${Object.prototype.toString.call(out)} (${matcher})`;
        const ask = (): unknown => rules.isAllowedManyInto(['/a', '/private'], out as Uint8Array);
        expect(ask, what).toThrow(TypeError);
        expect(ask, what).toThrow(/out must be a Uint8Array/);
      }
      // A Uint8Array, or a subclass such as Node's Buffer, is taken.
      expect(Array.from(rules.isAllowedManyInto(['/a', '/private'], Buffer.alloc(2)))).toEqual([1, 0]);
      expect(Array.from(rules.isAllowedManyInto(['/a', '/private']))).toEqual([1, 0]);
    }
  });

  it('says that isAllowedMany wants an array, even when given null or undefined', () => {
    const rules = robots.forAgent('ExampleBot');
    expect(() => rules.isAllowedMany(null as unknown as string[])).toThrow(/array/);
    expect(() => rules.isAllowedMany(undefined as unknown as string[])).toThrow(/array/);
  });

  it('refuses an agent that is not a string with a TypeError, in both profiles', () => {
    for (const profile of PROFILES) {
      const parsed = parseRobotsTxt('User-agent: *\nDisallow: /\n', { profile });
      for (const [what, agent] of NOT_STRINGS) {
        expect(() => parsed.forAgent(agent as string), `${what} (${profile})`).toThrow(TypeError);
      }
    }
  });
});

describe('a matcher that does not exist', TIMEOUT, () => {
  it('is a RangeError, and the matcher in use stays', () => {
    for (const chosen of MATCHERS) {
      setMatcher(chosen);
      const before = matcherInfo();
      for (const kind of ['WASM', 'js', 'TypeScript', '', 42, null, undefined, { toString: () => 'wasm' }]) {
        expect(() => setMatcher(kind as BackendKind), String(kind)).toThrow(RangeError);
        expect(() => setMatcher(kind as BackendKind), String(kind)).toThrow(/'wasm' or 'typescript'/);
        expect(matcherInfo(), String(kind)).toEqual(before);
      }
    }
  });

  it('does not echo a long hostile value back at length', () => {
    expect(() => setMatcher('x'.repeat(100_000) as BackendKind)).toThrow(/^.{0,120}$/);
  });
});

describe('agents and profiles', TIMEOUT, () => {
  const BODY = 'User-agent: Googlebot\nDisallow: /google\n\nUser-agent: *\nDisallow: /everyone\n';
  const NOT_PRODUCT_TOKENS = ['Foo Bar', '', 'Googlebot/2.1 (+http://www.google.com/bot.html)', 'ツ'];

  // RFC 9309 §2.2.1: the product token is letters, "_" and "-" only (docs/design.md#profiles: rfc9309 rejects anything
  // else "with a clear error")
  it('refuses an agent that is not a product token in the rfc9309 profile, saying so', () => {
    const robots = parseRobotsTxt(BODY);
    for (const agent of NOT_PRODUCT_TOKENS) {
      expect(() => robots.forAgent(agent), JSON.stringify(agent)).toThrow(TypeError);
      expect(() => robots.forAgent(agent), JSON.stringify(agent)).toThrow(/product token/);
      expect(() => robots.isAllowed('/', agent), JSON.stringify(agent)).toThrow(/product token/);
    }
    // A version is allowed, and ignored.
    expect(robots.isAllowed('/google', 'Googlebot/2.1')).toBe(false);
  });

  // docs/design.md#profiles: "google compares it as given": such an agent names no group, so the * group applies
  it('gives such an agent the * group in the google profile', () => {
    const robots = parseRobotsTxt(BODY, { profile: 'google' });
    for (const agent of NOT_PRODUCT_TOKENS.filter((agent) => agent !== '')) {
      const rules = robots.forAgent(agent);
      expect(rules.matched, JSON.stringify(agent)).toBe('global');
      expect([rules.isAllowed('/everyone'), rules.isAllowed('/google')], JSON.stringify(agent)).toEqual([false, true]);
    }
  });

  it('refuses an unknown profile with a RangeError', () => {
    for (const profile of ['bing', 'RFC9309', 'Google', 'toString', '__proto__', 'constructor']) {
      expect(() => parseRobotsTxt(BODY, { profile: profile as ProfileName }), profile).toThrow(RangeError);
      expect(() => parseRobotsTxt(BODY, { profile: profile as ProfileName }), profile).toThrow(/Unknown profile/);
    }
  });
});

describe('disposed rules', TIMEOUT, () => {
  it('throws RulesDisposedError when disposed rules are asked again', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /private\n');
    const rules = robots.forAgent('ExampleBot');
    expect(rules.isAllowed('/private')).toBe(false);
    rules.dispose();
    rules.dispose(); // idempotent
    expect(rules.disposed).toBe(true);
    expect(() => rules.isAllowed('/private')).toThrow(RulesDisposedError);
    expect(() => rules.explain('/private')).toThrow(RulesDisposedError);
    expect(() => rules.isAllowedMany(['/private'])).toThrow(RulesDisposedError);
    expect(() => rules.isAllowedManyInto(['/private'])).toThrow(RulesDisposedError);
    expect(() => rules.byteLength).toThrow(RulesDisposedError);
    const error = ((): unknown => {
      try {
        rules.isAllowed('/');
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'RulesDisposedError', message: expect.stringMatching(/forAgent/) });
    // What the error says to do works: the robots file compiles the rules anew.
    const again = robots.forAgent('ExampleBot');
    expect(again).not.toBe(rules);
    expect(again.isAllowed('/private')).toBe(false);
  });

  it('disposes every compiled agent when the file is disposed, and compiles anew when asked', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /private\n');
    const first = robots.forAgent('ExampleBot');
    const second = robots.forAgent('OtherBot');
    robots.dispose();
    expect(() => first.isAllowed('/')).toThrow(RulesDisposedError);
    expect(() => second.explain('/')).toThrow(RulesDisposedError);
    expect(robots.isAllowed('/private', 'ExampleBot')).toBe(false);
  });
});

describe('parsed patterns do not keep the body alive', () => {
  it('the one rule of a 450 KB HTML page is a view of a buffer of its own, not of the page', () => {
    const page = `User-agent: *\nDisallow: /x\n${'<p>filler text of a page served as robots.txt</p>\n'.repeat(9_000)}`;
    for (const body of [page, new TextEncoder().encode(page)]) {
      const robots = parseRobotsTxt(body);
      const pattern = robots.groups[0]?.rules[0]?.pattern;
      expect(pattern).toEqual(new TextEncoder().encode('/x'));
      expect(pattern?.buffer.byteLength).toBeLessThan(64);
      expect(robots.isAllowed('/x', 'ExampleBot')).toBe(false);
    }
  });
});
