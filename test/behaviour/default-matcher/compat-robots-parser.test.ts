/**
 * The robots-parser drop-in (`robotstxt-wasm/compat/robots-parser`): robots-parser's documented
 * behaviour is the contract. Three ways of holding it to that:
 * - robots-parser's own test suite (node_modules/robots-parser/test/Robots.js, read from the installed package,
 *   not copied) runs against the drop-in, its `require('../index')` answered with the drop-in;
 * - a differential against the real package on every corpus file: URLs derived from the file's own rules plus
 *   other origins, relative and odd URLs; agents as tokens, as `name/version`, as full browser User-Agent
 *   strings and omitted; every method;
 * - hostile and odd files (NUL bytes, Unicode spaces, lone surrogates, very long lines, `__proto__` agents),
 *   where the two must agree too, or differ only in the classes the README lists.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pathsForPattern } from '../../../harness/paths.mjs';
import { robotsParser, type Robot } from '../../support/library.js';
import { describeCorpus, loadCorpus } from '../../support/corpus.js';

const require = createRequire(import.meta.url);
const peer = require('robots-parser') as (url: string, contents: string | null | undefined) => Omit<Robot, 'isExplicitlyDisallowed'>;

describe("robots-parser's own test suite, run against the drop-in", () => {
  const suite = readFileSync(require.resolve('robots-parser/test/Robots.js'), 'utf8');
  const modules: Record<string, unknown> = { '../index': robotsParser, chai: { expect } };
  const requireForSuite = (name: string): unknown => {
    if (!(name in modules)) throw new Error(`the suite asks for ${name}, which this test does not provide`);
    return modules[name];
  };
  // The suite's describe() and it() are vitest's: each of its cases is a case here.
  new Function('require', 'describe', 'it', suite)(requireForSuite, describe, it);
});

/** Every method, for every (URL, agent) pair, on both; returns the calls that differ. */
function compare(
  url: string,
  contents: string,
  urls: readonly string[],
  agents: readonly (string | undefined)[],
): { calls: number; differences: string[] } {
  const ours = robotsParser(url, contents);
  const theirs = peer(url, contents);
  const differences: string[] = [];
  let calls = 0;
  const check = (what: string, a: unknown, b: unknown): void => {
    calls++;
    if (JSON.stringify(a) !== JSON.stringify(b)) differences.push(`${what}: ours ${JSON.stringify(a)}, robots-parser ${JSON.stringify(b)}`);
  };
  check('getSitemaps()', ours.getSitemaps(), theirs.getSitemaps());
  check('getPreferredHost()', ours.getPreferredHost(), theirs.getPreferredHost());
  for (const agent of agents) {
    check(`getCrawlDelay(${agent})`, ours.getCrawlDelay(agent), theirs.getCrawlDelay(agent));
    for (const target of urls) {
      check(`isAllowed(${target}, ${agent})`, ours.isAllowed(target, agent), theirs.isAllowed(target, agent));
      check(`isDisallowed(${target}, ${agent})`, ours.isDisallowed(target, agent), theirs.isDisallowed(target, agent));
      check(
        `getMatchingLineNumber(${target}, ${agent})`,
        ours.getMatchingLineNumber(target, agent),
        theirs.getMatchingLineNumber(target, agent),
      );
    }
  }
  return { calls, differences };
}

const BROWSER_AGENT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

describeCorpus('the drop-in against robots-parser on every corpus file', () => {
  it('agrees on at least 99.5 % of calls, every method', () => {
    const decoder = new TextDecoder();
    let calls = 0;
    const differences: string[] = [];
    for (const { name, body } of loadCorpus()) {
      const contents = decoder.decode(body);
      const agents = new Set<string | undefined>([undefined, '*', 'Googlebot', 'googlebot/2.1', BROWSER_AGENT, 'SomeCrawler']);
      const paths = new Set<string>(['/', '/robots.txt', '/x?y', '/a%2fb', '/%7Efoo', '/café', '//double']);
      for (const line of contents.split(/\r\n|\r|\n/)) {
        const agent = /^\s*user-agent\s*:\s*([^#]*)/i.exec(line)?.[1]?.trim();
        if (agent !== undefined && agents.size < 12) agents.add(agent).add(`${agent}/1.0`);
        const pattern = /^\s*(?:dis)?allow\s*:\s*([^#\s]*)/i.exec(line)?.[1];
        if (pattern !== undefined && paths.size < 40) for (const path of pathsForPattern(pattern)) paths.add(path);
      }
      const urls = [...paths].map((path) => `https://${name}${path}`);
      urls.push(`http://${name}/`, `https://${name}:8443/x`, 'https://other.example/', '/relative', 'http://ex ample.com/');
      const result = compare(`https://${name}/robots.txt`, contents, urls, [...agents]);
      calls += result.calls;
      differences.push(...result.differences.map((difference) => `${name} ${difference}`));
    }
    expect(calls).toBeGreaterThan(1_000_000);
    // Every difference would be a class the README lists; today there is none on the corpus.
    expect(differences.slice(0, 20)).toEqual([]);
    expect(1 - differences.length / calls).toBeGreaterThanOrEqual(0.995);
  }, 600_000);
});

describe('the drop-in against robots-parser on odd and hostile files', () => {
  const pieces = [
    'User-agent: *',
    'User-agent: ExampleBot/2.1',
    'user-agent: __proto__',
    'User-agent: constructor',
    'User-agent:',
    'Disallow: /private',
    'Allow: /private/open',
    'Disallow: /*.pdf$',
    'Disallow:',
    'Allow: /a$b',
    'Disallow: /[0-7]',
    'Disallow: /caf\u00e9',
    'Disallow: /%7efoo',
    'Crawl-delay: 2.5',
    'Crawl-delay: soon',
    'Sitemap: /map.xml',
    'Host: Example.COM',
    'Dissallow: /typo',
    'Disallow /no-colon',
    '\u00a0Disallow: /nbsp',
    'Disallow: /nul\u0000x',
    'Disallow: /lone\ud800',
    '# comment',
    '',
    'Unknown: x',
    'Disallow: /' + 'x'.repeat(20_000),
    // Keys Google's reading accepts (the lexer's) and robots-parser's exact reading does not, and lines
    // without a colon, which the lexer reads as `key value`: the drop-in classifies them again.
    'Disallowed: /google-only',
    'Useragent: ExampleBot',
    'User agent: ExampleBot',
    'User-agentX: ExampleBot',
    'Site-map: /site-map.xml',
    'User-agent ExampleBot',
    'Allow /no-colon/open',
    'Disallow\u00a0: /nbsp-after-key',
    '\u00a0: /nbsp-key',
    '\ufeffUser-agent: bom-agent',
    'User-agent: \u00a0',
    // Values the reader trims of ASCII spaces only, non-ASCII and escaped patterns, empty file-wide values.
    'Disallow: /\u00e9t\u00e9\u00a0',
    'Disallow: \u3000/ideographic-space',
    'Disallow: /%7e%2F%25%zz%',
    'Allow: /a b"c<d>[e]^`{|}\\',
    'Disallow: /*x*y$',
    'Host:',
    'Host: \u00a0',
    'Sitemap:   ',
    'Crawl-delay:',
    // Lines past the lexer's limit, read again whole: a rule after a long run of spaces, a long comment.
    ' '.repeat(17_000) + 'Disallow: /deep',
    'Disallow: /short#' + 'c'.repeat(17_000),
    'x'.repeat(17_000),
  ];
  const agents = [undefined, '*', 'ExampleBot', 'examplebot/9', '__proto__', 'constructor', BROWSER_AGENT, 'bom-agent'];
  const urls = [
    'https://example.com/private/x',
    'https://example.com/private/open',
    'https://example.com/a.pdf',
    'https://example.com/a$b',
    'https://example.com/[0-7]',
    'https://example.com/caf\u00e9',
    'https://example.com/~foo',
    'https://example.com/typo',
    'https://example.com/no-colon',
    'https://example.com/nbsp',
    'https://example.com/nul',
    'https://example.com/' + 'x'.repeat(20_000),
    'https://example.com/google-only',
    'https://example.com/no-colon/open',
    'https://example.com/nbsp-after-key',
    'https://example.com/nbsp-key',
    'https://example.com/%C3%A9t%C3%A9',
    'https://example.com/\u3000/ideographic-space',
    'https://example.com/~foo/%2F%25zz%',
    'https://example.com/a%20b%22c%3Cd%3E[e]^%60%7B|%7D%5C',
    'https://example.com/axy',
    'https://example.com/deep',
    'https://example.com/short',
    'http://example.com/private/x',
    '/private/x',
  ];

  it('agree on random files made of the lines crawlers get wrong', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 14 }), fc.constantFrom('\n', '\r\n', '\r'), (lines, newline) => {
        const { differences } = compare('https://example.com/robots.txt', lines.join(newline), urls, agents);
        expect(differences).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('agree on URLs of every spelling the URL parser rewrites (the drop-in reads plain ones without it)', () => {
    const contents =
      "User-agent: *\nDisallow: /a/b\nDisallow: /*.\nDisallow: /*%2F\nAllow: /a/b?\nDisallow: /q?x=%41\nDisallow: /x'y\nDisallow: /p$\n";
    const alphabet = [
      'a',
      'b',
      'x',
      'y',
      'p',
      'q',
      '/',
      '.',
      '..',
      '%2e',
      '%2E',
      '%2f',
      '%41',
      '?',
      '=',
      '#',
      "'",
      '\\',
      '\t',
      ' ',
      '"',
      '<',
      '|',
      '^',
      '`',
      '{',
      'é',
      '%',
      '%zz',
      ':',
      '@',
      '!',
      '$',
      '&',
      ';',
    ];
    const origins = [
      'https://example.com',
      'https://EXAMPLE.com',
      'https://example.com:443',
      'http://example.com',
      'https://example.com.evil',
      'https://u@example.com',
    ];
    fc.assert(
      fc.property(fc.constantFrom(...origins), fc.array(fc.constantFrom(...alphabet), { maxLength: 10 }), (origin, parts) => {
        const url = `${origin}/${parts.join('')}`;
        expect(compare('https://example.com/robots.txt', contents, [url], [undefined, 'ExampleBot']).differences).toEqual([]);
      }),
      { numRuns: 3000 },
    );
  });

  it("read a line past the lexer's limit whole, both ways: the fast reading, and the reference one a NUL elsewhere sends the file to", () => {
    const long = `User-agent: *\n${' '.repeat(17_000)}Disallow: /deep\nDisallow: /short#${'c'.repeat(17_000)}\n${'x'.repeat(17_000)}: y\nUser-agent: b\nDisallow: /b\n`;
    const urls = ['https://example.com/deep', 'https://example.com/short', 'https://example.com/b'];
    for (const contents of [long, `${long}Disallow: /nul\u0000x\n`]) {
      expect(compare('https://example.com/robots.txt', contents, urls, [undefined, 'b']).differences).toEqual([]);
      expect(robotsParser('https://example.com/robots.txt', contents).isAllowed('https://example.com/deep')).toBe(false);
    }
  });

  it('agree when the robots.txt URL is relative, invalid or missing', () => {
    for (const url of ['/robots.txt', 'https://ex ample.com/robots.txt', 'null', ':/wom/test/']) {
      expect(
        compare(url, 'User-agent: *\nDisallow: /private\n', ['/private', '/open', 'https://example.com/private'], [undefined]).differences,
      ).toEqual([]);
    }
  });

  it('answers undefined for a URL that cannot be parsed, where robots-parser throws when its own URL cannot be parsed either', () => {
    const contents = 'User-agent: *\nDisallow: /private\n';
    expect(() => peer('https://ex ample.com/robots.txt', contents).isAllowed('http://ex ample.com/private')).toThrow(TypeError);
    const robots = robotsParser('https://ex ample.com/robots.txt', contents);
    expect(robots.isAllowed('http://ex ample.com/private')).toBeUndefined();
    expect(robots.isDisallowed('http://ex ample.com/private')).toBe(true);
    expect(robots.getMatchingLineNumber('http://ex ample.com/private')).toBe(-1);
    // With a robots.txt URL that parses, both say "another origin".
    expect(robotsParser('https://example.com/robots.txt', contents).isAllowed('http://ex ample.com/private')).toBeUndefined();
    expect(peer('https://example.com/robots.txt', contents).isAllowed('http://ex ample.com/private')).toBeUndefined();
  });
});

describe('isExplicitlyDisallowed (robots-parser repository, not in its npm release)', () => {
  const robots = robotsParser(
    'https://example.com/robots.txt',
    'User-agent: *\nDisallow: /\n\nUser-agent: AdsBot\nDisallow: /ads\nAllow: /ads/ok\n',
  );

  it("reads the agent's own group only: the `*` group does not count", () => {
    expect(robots.isExplicitlyDisallowed('https://example.com/ads/x', 'AdsBot')).toBe(true);
    expect(robots.isExplicitlyDisallowed('https://example.com/ads/ok', 'AdsBot')).toBe(false);
    expect(robots.isExplicitlyDisallowed('https://example.com/other', 'AdsBot')).toBe(false);
    // Disallowed by `*` alone: not explicitly.
    expect(robots.isExplicitlyDisallowed('https://example.com/other', 'OtherBot')).toBe(false);
    expect(robots.isDisallowed('https://example.com/other', 'OtherBot')).toBe(true);
  });

  it('gives undefined for a URL of another origin, as isAllowed does', () => {
    expect(robots.isExplicitlyDisallowed('https://other.example/ads/x', 'AdsBot')).toBeUndefined();
  });
});
