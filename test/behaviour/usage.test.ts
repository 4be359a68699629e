/**
 * Usage preferences: AgentRules.usage(), RobotsTxt.usage() and RobotsTxt.licenses, held to the drafts
 * that define them (draft-ietf-aipref-attach-05, the robots.txt rule; draft-ietf-aipref-vocab-07, the
 * vocabulary), Cloudflare's Content Signals Policy (https://contentsignals.org/) and the choices
 * docs/design.md#usage-preferences records where they are silent. Each case names its section.
 */
import { describe, expect, it } from 'vitest';
import { defaultMatcher, matcherInfo, parseRobotsTxt, type ProfileName } from '../support/library.js';
import { ATTACH_EXAMPLE, ATTACH_INTRODUCTION } from '../support/usage-files.js';

function usageOf(body: string, url: string, agent = 'ExampleBot', profile?: ProfileName) {
  return parseRobotsTxt(body, profile === undefined ? {} : { profile })
    .forAgent(agent)
    .usage(url);
}

/** The three purposes alone, for comparing answers. */
function purposes(body: string, url: string, agent = 'ExampleBot') {
  const answer = usageOf(body, url, agent);
  return answer === null ? null : [answer['train-ai'], answer.search, answer['ai-input']];
}

const UNKNOWN = ['unknown', 'unknown', 'unknown'];

describe('draft-ietf-aipref-attach-05: the examples', () => {
  // §3.4, "Example robots.txt file" and its table.
  const EXAMPLE = ATTACH_EXAMPLE;

  it('§3.4: /test crawlable with train-ai=n, /never/test not crawlable (no preference), /ai-ok/test train-ai=y', () => {
    expect(purposes(EXAMPLE, 'https://example.com/test', 'OtherBot')).toEqual(['disallow', 'unknown', 'unknown']);
    expect(usageOf(EXAMPLE, 'https://example.com/never/test', 'OtherBot')).toBeNull();
    expect(purposes(EXAMPLE, 'https://example.com/ai-ok/test', 'OtherBot')).toEqual(['allow', 'unknown', 'unknown']);
  });

  it('§3.4: ExampleBot uses its own group: everything crawlable, train-ai=y', () => {
    expect(purposes(EXAMPLE, '/test')).toEqual(['allow', 'unknown', 'unknown']);
    expect(purposes(EXAMPLE, '/never/test')).toEqual(['allow', 'unknown', 'unknown']);
    const answer = usageOf(EXAMPLE, '/never/test');
    expect(answer?.statements).toEqual([
      {
        source: 'content-usage',
        line: 9,
        path: undefined,
        preference: 'train-ai=y',
        reading: { 'train-ai': 'allow', search: 'unknown', 'ai-input': 'unknown' },
      },
    ]);
  });

  it('§1.2: a Content-Usage rule beside Allow: /', () => {
    expect(purposes(ATTACH_INTRODUCTION, '/anything')).toEqual(['disallow', 'unknown', 'unknown']);
  });
});

describe('draft-ietf-aipref-attach-05 §3.1: which rule applies to a path', () => {
  it('the longest matching path decides, counted in bytes', () => {
    const body = 'User-agent: *\nContent-Usage: /a/ train-ai=n\nContent-Usage: /a/b/ train-ai=y\nContent-Usage: /a/b/c search=n\n';
    expect(purposes(body, '/a/x')).toEqual(['disallow', 'unknown', 'unknown']);
    expect(purposes(body, '/a/b/x')).toEqual(['allow', 'unknown', 'unknown']);
    // The longest match speaks of search only: train-ai is unknown there, not inherited from a shorter path.
    expect(purposes(body, '/a/b/c')).toEqual(['unknown', 'disallow', 'unknown']);
    expect(purposes(body, '/b')).toEqual(UNKNOWN);
  });

  it('a line without a path applies to every path, and any matching path outranks it (its length is 0)', () => {
    const body = 'User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: / train-ai=y\n';
    expect(purposes(body, '/x')).toEqual(['allow', 'unknown', 'unknown']);
    const pathless = 'User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /x train-ai=y\n';
    expect(purposes(pathless, '/y')).toEqual(['disallow', 'unknown', 'unknown']);
  });

  it('paths are percent-normalised as Allow and Disallow patterns are (RFC 9309 §2.2.2)', () => {
    const body = 'User-agent: *\nContent-Usage: /café train-ai=n\nContent-Usage: /%7Euser/ train-ai=y\n';
    expect(purposes(body, '/caf%C3%A9/menu')).toEqual(['disallow', 'unknown', 'unknown']);
    expect(purposes(body, 'https://example.com/café')).toEqual(['disallow', 'unknown', 'unknown']);
    expect(purposes(body, '/~user/page')).toEqual(['allow', 'unknown', 'unknown']);
  });

  it('`*` and `$` match as in Allow and Disallow', () => {
    const body = 'User-agent: *\nContent-Usage: /*.pdf$ train-ai=n\nContent-Usage: /docs/*/draft search=n\n';
    expect(purposes(body, '/files/a.pdf')).toEqual(['disallow', 'unknown', 'unknown']);
    expect(purposes(body, '/files/a.pdf?x=1')).toEqual(UNKNOWN);
    expect(purposes(body, '/docs/v2/draft-1')).toEqual(['unknown', 'disallow', 'unknown']);
  });

  it('only paths that may be crawled have preferences: a disallowed URL answers null', () => {
    const body = 'User-agent: *\nDisallow: /private/\nAllow: /private/open\nContent-Usage: train-ai=n\n';
    expect(usageOf(body, '/private/x')).toBeNull();
    expect(purposes(body, '/private/open/x')).toEqual(['disallow', 'unknown', 'unknown']);
    expect(usageOf('User-agent: *\nDisallow: /\nContent-Usage: train-ai=y\n', '/')).toBeNull();
  });

  it('/robots.txt itself may always be crawled, so its preferences are the file’s', () => {
    expect(purposes('User-agent: *\nDisallow: /\nContent-Usage: train-ai=n\n', '/robots.txt')).toEqual(['disallow', 'unknown', 'unknown']);
  });

  it('the order of rules in a group carries no meaning; Content-Usage may interleave with Allow and Disallow', () => {
    const lines = [
      'Content-Usage: /a train-ai=n',
      'Disallow: /a/secret',
      'Content-Usage: /a/b train-ai=y',
      'Allow: /',
      'Content-Usage: search=n',
    ];
    const forwards = `User-agent: *\n${lines.join('\n')}\n`;
    const backwards = `User-agent: *\n${[...lines].reverse().join('\n')}\n`;
    for (const url of ['/a', '/a/b', '/a/bc', '/a/secret', '/z']) expect(purposes(backwards, url)).toEqual(purposes(forwards, url));
  });

  it('identical paths with conflicting preferences combine (vocab-07 §5.1): a disallow wins, unlike Allow/Disallow', () => {
    const body = 'User-agent: *\nContent-Usage: /x train-ai=y\nContent-Usage: /x train-ai=n, search=y\nContent-Usage: /x search=n\n';
    expect(purposes(body, '/x')).toEqual(['disallow', 'disallow', 'unknown']);
    expect(usageOf(body, '/x')?.statements.map((s) => s.line)).toEqual([2, 3, 4]);
    // Identical once normalised: %7E is `~`.
    expect(purposes('User-agent: *\nContent-Usage: /%7Ex train-ai=y\nContent-Usage: /~x train-ai=n\n', '/~x')).toEqual([
      'disallow',
      'unknown',
      'unknown',
    ]);
    // An allow and an unknown: allow.
    expect(purposes('User-agent: *\nContent-Usage: train-ai=y\nContent-Usage: search=y\n', '/')).toEqual(['allow', 'allow', 'unknown']);
  });

  it('two different paths of one length that both match (through `*`) combine too', () => {
    const body =
      'User-agent: *\nContent-Usage: /a*c train-ai=n, search=y\nContent-Usage: /abc train-ai=y, search=n\nContent-Usage: /a search=y\n';
    expect(purposes(body, '/abc')).toEqual(['disallow', 'disallow', 'unknown']);
    expect(usageOf(body, '/abc')?.statements.map((s) => s.line)).toEqual([2, 3]);
    expect(purposes(body, '/axxc')).toEqual(['disallow', 'allow', 'unknown']);
    expect(purposes(body, '/ab')).toEqual(['unknown', 'allow', 'unknown']);
  });
});

describe('draft-ietf-aipref-attach-05 §3.2: processing a Content-Usage line', () => {
  it('the label in any case, SP and HTAB around it and around the colon', () => {
    expect(purposes('User-agent: *\n \tCONTENT-usage \t: \ttrain-ai=n\n', '/')).toEqual(['disallow', 'unknown', 'unknown']);
  });

  it('the value ends at `#`', () => {
    expect(purposes('User-agent: *\nContent-Usage: train-ai=n # not for training\n', '/')).toEqual(['disallow', 'unknown', 'unknown']);
    // The path is cut at `#` too: `/a` with no preference left (an empty Dictionary: nothing stated).
    const cut = usageOf('User-agent: *\nContent-Usage: /a#b train-ai=n\n', '/a');
    expect(cut?.['train-ai']).toBe('unknown');
    expect(cut?.statements[0]).toMatchObject({ path: '/a', preference: '' });
  });

  it('a path ends at the first SP or HTAB; the rest is the preference', () => {
    expect(purposes('User-agent: *\nContent-Usage: /a\ttrain-ai=n\n', '/a/b')).toEqual(['disallow', 'unknown', 'unknown']);
    expect(usageOf('User-agent: *\nContent-Usage: /a \t train-ai=n\n', '/a')?.statements[0]).toMatchObject({
      path: '/a',
      preference: 'train-ai=n',
    });
  });

  it('a value that does not start with `/` has no path: all of it is the preference', () => {
    // `*.pdf train-ai=n` is then one Dictionary that fails to parse: every purpose unknown, for every path.
    const answer = usageOf('User-agent: *\nContent-Usage: *.pdf train-ai=n\nContent-Usage: /x/ search=n\n', '/a.pdf');
    expect([answer?.['train-ai'], answer?.search]).toEqual(['unknown', 'unknown']);
    expect(answer?.statements[0]).toMatchObject({ path: undefined, preference: '*.pdf train-ai=n' });
  });

  it('the statement is read as bytes: a non-ASCII byte makes it fail, not a crash', () => {
    expect(purposes('User-agent: *\nContent-Usage: train-ai=ñ\n', '/')).toEqual(UNKNOWN);
  });
});

describe('draft-ietf-aipref-vocab-07: reading a statement', () => {
  const read = (preference: string) => purposes(`User-agent: *\nContent-Usage: ${preference}\n`, '/');

  it('§6.2: the Tokens y and n allow and disallow; §6.1: train-ai and search', () => {
    expect(read('train-ai=y, search=n')).toEqual(['allow', 'disallow', 'unknown']);
  });

  it('§6.5: any other value is unknown: a bare key (Boolean true), a String, another Token, an Inner List', () => {
    expect(read('train-ai')).toEqual(UNKNOWN);
    expect(read('train-ai="n"')).toEqual(UNKNOWN);
    expect(read('train-ai=yes, search=no')).toEqual(UNKNOWN);
    expect(read('train-ai=(n)')).toEqual(UNKNOWN);
    expect(read('train-ai=?0')).toEqual(UNKNOWN);
  });

  it('§6.4: unknown keys and parameters are ignored', () => {
    expect(read('foo=n, train-ai=n;reason="no", bar')).toEqual(['disallow', 'unknown', 'unknown']);
  });

  it('§6.5.1: the last value of a repeated key wins, so that its example is all unknown', () => {
    expect(read('train-ai=n, train-ai=y')).toEqual(['allow', 'unknown', 'unknown']);
    expect(read('train-ai=y, train-ai, search=n, search="n"')).toEqual(UNKNOWN);
  });

  it('§6.5.1: a Dictionary that fails to parse (an upper-case key) leaves every purpose unknown', () => {
    expect(read('Train-AI=n')).toEqual(UNKNOWN);
    expect(read('train-ai=n,')).toEqual(UNKNOWN);
  });

  it('§6.5.2: only the parameters of the value that applies count, and none changes the preference', () => {
    expect(read('train-ai;allow=n, train-ai=y')).toEqual(['allow', 'unknown', 'unknown']);
  });

  it("Content-Usage says nothing of ai-input, which is Content-Signal's", () => {
    expect(read('ai-input=n')).toEqual(UNKNOWN);
  });
});

describe("Content-Signal (Cloudflare's Content Signals Policy)", () => {
  it('search, ai-input and ai-train, yes and no; a signal left out is unknown (neither granted nor restricted)', () => {
    const body = 'User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n';
    expect(purposes(body, '/')).toEqual(['disallow', 'allow', 'unknown']);
    expect(purposes('User-agent: *\nContent-Signal: ai-input=yes\n', '/')).toEqual(['unknown', 'unknown', 'allow']);
  });

  it('our choice: keys and values in any case (lint warns)', () => {
    expect(purposes('User-agent: *\nContent-Signal: Search=Yes, AI-Train=NO\n', '/')).toEqual(['disallow', 'allow', 'unknown']);
  });

  it('values other than yes and no are unknown', () => {
    expect(purposes('User-agent: *\nContent-Signal: search=y, ai-train=n, ai-input="yes"\n', '/')).toEqual(UNKNOWN);
  });

  it('our choice: a Content-Signal with a path applies to that path, as a Content-Usage one would', () => {
    const body = 'User-agent: *\nContent-Signal: ai-train=no\nContent-Signal: /blog/ ai-train=yes\n';
    expect(purposes(body, '/blog/post')).toEqual(['allow', 'unknown', 'unknown']);
    expect(purposes(body, '/shop')).toEqual(['disallow', 'unknown', 'unknown']);
  });

  it('combines with Content-Usage per purpose (vocab-07 §5.1): train-ai with ai-train, search with search', () => {
    const body = 'User-agent: *\nContent-Usage: train-ai=y, search=n\nContent-Signal: ai-train=no, search=yes, ai-input=no\n';
    expect(purposes(body, '/')).toEqual(['disallow', 'disallow', 'disallow']);
    const agree = 'User-agent: *\nContent-Usage: train-ai=y\nContent-Signal: search=yes\n';
    expect(purposes(agree, '/')).toEqual(['allow', 'allow', 'unknown']);
    expect(usageOf(agree, '/')?.statements.map((s) => s.source)).toEqual(['content-usage', 'content-signal']);
  });

  it('each source has its own longest match', () => {
    const body = 'User-agent: *\nContent-Usage: /a/b/ train-ai=y\nContent-Signal: ai-train=no\n';
    // Content-Usage's /a/b/ does not outrank Content-Signal's statement: they are two statements, combined.
    expect(purposes(body, '/a/b/c')).toEqual(['disallow', 'unknown', 'unknown']);
  });
});

describe('groups: the lines belong to the group they stand in', () => {
  it('selected as Allow and Disallow are: the agent’s own groups, else `*`', () => {
    const body = 'User-agent: *\nContent-Usage: train-ai=n\n\nUser-agent: ExampleBot\nContent-Signal: search=yes\n';
    expect(purposes(body, '/', 'ExampleBot')).toEqual(['unknown', 'allow', 'unknown']);
    expect(purposes(body, '/', 'OtherBot')).toEqual(['disallow', 'unknown', 'unknown']);
  });

  it('the groups naming an agent merge, and so do their usage lines', () => {
    const body =
      'User-agent: ExampleBot\nContent-Usage: train-ai=n\n\nUser-agent: *\nContent-Usage: search=n\n\nUser-agent: ExampleBot\nContent-Usage: search=y\n';
    expect(purposes(body, '/')).toEqual(['disallow', 'allow', 'unknown']);
  });

  it('attach-05 §3 makes Content-Usage a rule: it ends a run of User-agent lines (and so does Content-Signal)', () => {
    for (const line of ['Content-Usage: train-ai=n', 'Content-Signal: ai-train=no']) {
      const body = `User-agent: a\n${line}\nUser-agent: b\nDisallow: /x\n`;
      expect(purposes(body, '/x', 'a')).toEqual(['disallow', 'unknown', 'unknown']);
      expect(purposes(body, '/', 'b')).toEqual(UNKNOWN);
      expect(usageOf(body, '/x', 'b')).toBeNull();
      expect(parseRobotsTxt(body).groups.map((group) => group.agents.map((agent) => agent.value))).toEqual([['a'], ['b']]);
    }
  });

  it('our choice: a line before any User-agent line belongs to no group: ignored, and reported', () => {
    const robots = parseRobotsTxt('Content-Signal: ai-train=no\nContent-Usage: train-ai=n\nUser-agent: *\nAllow: /\n');
    expect(robots.usage('/', 'ExampleBot')).toEqual({ 'train-ai': 'unknown', search: 'unknown', 'ai-input': 'unknown', statements: [] });
    expect(robots.diagnostics.map((d) => [d.line, d.code])).toEqual([
      [1, 'outside-group'],
      [2, 'outside-group'],
    ]);
  });

  it('every profile reads them, and a group that names no agent asked for leaves all unknown', () => {
    for (const profile of ['rfc9309', 'google', 'yandex'] as const) {
      expect(usageOf('User-agent: *\nContent-Usage: train-ai=n\n', '/', 'ExampleBot', profile)?.['train-ai']).toBe('disallow');
    }
    expect(purposes('User-agent: OtherBot\nContent-Usage: train-ai=n\n', '/')).toEqual(UNKNOWN);
  });

  it('robots.groups shows each group’s usage lines', () => {
    const robots = parseRobotsTxt('User-agent: *\nContent-Usage: /a train-ai=n\nDisallow: /b\n\nUser-agent: x\nDisallow: /\n');
    expect(robots.groups[0]?.usage).toEqual([
      {
        source: 'content-usage',
        line: 2,
        path: '/a',
        preference: 'train-ai=n',
        reading: { 'train-ai': 'disallow', search: 'unknown', 'ai-input': 'unknown' },
      },
    ]);
    expect(robots.groups[1]).not.toHaveProperty('usage');
  });
});

describe('the answer', () => {
  it('with no usage line: every purpose unknown, no statement; null where disallowed', () => {
    const rules = parseRobotsTxt('User-agent: *\nDisallow: /private/\n').forAgent('ExampleBot');
    expect(rules.usage('/a')).toEqual({ 'train-ai': 'unknown', search: 'unknown', 'ai-input': 'unknown', statements: [] });
    expect(rules.usage('/private/a')).toBeNull();
    expect(parseRobotsTxt('').usage('/', 'ExampleBot')?.statements).toEqual([]);
  });

  it('is frozen, and the same object for every URL the same lines decide', () => {
    const rules = parseRobotsTxt('User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /a/ train-ai=y\n').forAgent('ExampleBot');
    const first = rules.usage('/x');
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first?.statements)).toBe(true);
    expect(rules.usage('/y?q=1')).toBe(first);
    expect(rules.usage('/a/1')).toBe(rules.usage('/a/2'));
    expect(rules.usage('/a/1')).not.toBe(first);
  });

  it('reads a URL object by its pathname and search, as isAllowed() does', () => {
    const rules = parseRobotsTxt('User-agent: *\nContent-Usage: /a train-ai=n\nDisallow: /b\n').forAgent('ExampleBot');
    expect(rules.usage(new URL('https://example.com/a?x'))?.['train-ai']).toBe('disallow');
    expect(rules.usage(new URL('https://example.com/b'))).toBeNull();
    // `//a` as a URL object's path is not `/a`.
    expect(rules.usage(new URL('https://example.com//a'))?.['train-ai']).toBe('unknown');
    expect(() => rules.usage(42 as unknown as string)).toThrow(TypeError);
  });

  it('agrees with isAllowed() in every tier, and robots.usage() with forAgent().usage()', () => {
    const body = 'User-agent: *\nDisallow: /p\nAllow: /p/ok\nContent-Usage: /p/ok train-ai=y\n';
    const robots = parseRobotsTxt(body);
    const rules = robots.forAgent('ExampleBot');
    for (let round = 0; round < 40; round++) {
      for (const url of ['/p', '/p/ok/1', '/q']) {
        expect(rules.usage(url) === null).toBe(!rules.isAllowed(url));
        expect(robots.usage(url, 'ExampleBot')).toBe(rules.usage(url));
      }
    }
    expect(rules.tier).toBe('indexed');
  });

  it('compiles the usage lines on the first usage(), not for isAllowed(); with { indexed: true }, at once', () => {
    const body = 'User-agent: *\nDisallow: /x\nContent-Usage: /a train-ai=n\n';
    const rules = parseRobotsTxt(body).forAgent('ExampleBot');
    for (let i = 0; i < 40; i++) expect(rules.isAllowed(`/a/${i}`)).toBe(true);
    expect(rules.tier).toBe('indexed');
    const compiled = rules.byteLength;
    expect(rules.usage('/a')?.['train-ai']).toBe('disallow');
    expect(rules.byteLength).toBeGreaterThan(compiled);
    const atOnce = parseRobotsTxt(body).forAgent('ExampleBot', { indexed: true });
    expect(atOnce.byteLength).toBe(rules.byteLength);
    expect(atOnce.usage('/a')?.['train-ai']).toBe('disallow');
    expect(atOnce.byteLength).toBe(rules.byteLength);
    expect([rules.hasUsageLines, parseRobotsTxt('User-agent: *\nDisallow: /x\n').forAgent('x').hasUsageLines]).toEqual([true, false]);
    rules.dispose();
    atOnce.dispose();
  });

  it('counts its compiled paths in byteLength, and dispose() gives them back', () => {
    const before = matcherInfo().wasmBytesInUse;
    const plain = parseRobotsTxt('User-agent: *\nDisallow: /x\n').forAgent('ExampleBot');
    plain.usage('/');
    const withUsage = parseRobotsTxt('User-agent: *\nDisallow: /x\nContent-Usage: /a train-ai=n\nContent-Usage: /b search=n\n').forAgent(
      'ExampleBot',
    );
    withUsage.usage('/');
    const plainOnly = parseRobotsTxt('User-agent: *\nDisallow: /x\n').forAgent('ExampleBot', { indexed: true });
    expect(withUsage.byteLength).toBeGreaterThan(plainOnly.byteLength);
    // The TypeScript matcher keeps its rulesets outside WebAssembly memory.
    if (defaultMatcher === 'wasm') expect(matcherInfo().wasmBytesInUse).toBeGreaterThan(before);
    plainOnly.dispose();
    plain.dispose();
    withUsage.dispose();
    expect(matcherInfo().wasmBytesInUse).toBe(before);
  });
});

describe('License (RSL 1.0): a file-wide line', () => {
  it('absolute URLs, in file order, each once; relative and invalid ones are diagnostics', () => {
    const robots = parseRobotsTxt(
      [
        'License: https://example.com/license.xml',
        'User-agent: *',
        'Disallow: /x',
        'license: https://example.com/b.xml',
        'License: /relative.xml',
        'License: https://example.com/license.xml',
        'LICENSE: http://[::1',
      ].join('\n'),
    );
    expect(robots.licenses).toEqual(['https://example.com/license.xml', 'https://example.com/b.xml']);
    expect(robots.diagnostics.map((d) => [d.line, d.code])).toEqual([
      [5, 'invalid-value'],
      [7, 'invalid-value'],
    ]);
    expect(parseRobotsTxt('User-agent: *\n').licenses).toEqual([]);
  });

  it('does not end a group, like Sitemap', () => {
    expect(parseRobotsTxt('User-agent: a\nLicense: https://example.com/l\nUser-agent: b\nDisallow: /\n').isAllowed('/', 'a')).toBe(false);
  });
});
