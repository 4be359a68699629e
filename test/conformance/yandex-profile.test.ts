/**
 * The yandex profile: every example of Yandex's robots.txt documentation
 * (https://yandex.com/support/webmaster/controlling-robot/robots-txt.html), each
 * citing the sentence it pins. The document's examples lost their line breaks; they are written here one
 * directive a line, as the comments in them show.
 */
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '../support/library.js';
import { isAllowed } from '../support/verdict.js';

/** The yandex verdict for YandexBot, the main indexing robot, unless another agent is named. */
function yandexAllows(body: string, url: string, agent = 'YandexBot'): boolean {
  return isAllowed(body, agent, url, 'yandex');
}

describe('group selection', () => {
  // spec: Yandex's robots.txt docs, "User-agent: YandexBot # will be used only by the main indexing robot",
  // "User-agent: Yandex # will be used by all Yandex robots ... except for the main indexing robot",
  // "User-agent: * # won't be used by Yandex robots"
  const body = 'User-agent: YandexBot\nDisallow: /*id=\n\nUser-agent: Yandex\nDisallow: /*sid=\n\nUser-agent: *\nDisallow: /cgi-bin\n';

  it("gives a robot's own group to that robot alone", () => {
    expect(yandexAllows(body, '/page?id=1')).toBe(false);
    // "sid=" holds "id=": the Yandex group's rule is not YandexBot's, which another file shows.
    expect(yandexAllows('User-agent: YandexBot\nDisallow: /a\n\nUser-agent: Yandex\nDisallow: /b\n', '/b')).toBe(true);
    expect(yandexAllows(body, '/cgi-bin/x')).toBe(true);
    expect(parseRobotsTxt(body, { profile: 'yandex' }).forAgent('YandexBot').matched).toBe('agent');
  });

  it('gives the Yandex group to every other Yandex robot, and ignores * for them', () => {
    for (const agent of ['YandexImages', 'YandexNews', 'yandexmobilebot']) {
      expect(yandexAllows(body, '/page?sid=1', agent)).toBe(false);
      expect(yandexAllows(body, '/page?id=1', agent)).toBe(true);
      expect(yandexAllows(body, '/cgi-bin/x', agent)).toBe(true);
      expect(parseRobotsTxt(body, { profile: 'yandex' }).forAgent(agent).matched).toBe('family');
    }
  });

  it('selects the same groups whichever agent a file is asked for first', () => {
    // The first agent asked is selected while reading (src/parse/agent-selector.ts), the rest from the full parse.
    const agents = ['YandexImages', 'YandexBot', 'Googlebot', 'YandexNews'];
    for (const first of agents) {
      const robots = parseRobotsTxt(body, { profile: 'yandex' });
      robots.forAgent(first);
      for (const agent of agents) {
        const fresh = parseRobotsTxt(body, { profile: 'yandex' }).forAgent(agent);
        const later = robots.forAgent(agent);
        expect(later.matched, `${agent} after ${first}`).toBe(fresh.matched);
        for (const url of ['/page?id=1', '/page?sid=1', '/cgi-bin/x']) expect(later.isAllowed(url)).toBe(fresh.isAllowed(url));
      }
    }
  });

  it('uses * for a Yandex robot only when no group names Yandex', () => {
    // spec: Yandex's robots.txt docs, "looks for either the substring Yandex (the case doesn't matter) or *.
    // If a string User-agent: Yandex is detected, directives for User-agent: * are ignored."
    expect(yandexAllows('User-agent: *\nDisallow: /cgi-bin\n', '/cgi-bin/x', 'YandexImages')).toBe(false);
    expect(yandexAllows('User-agent: *\nDisallow: /cgi-bin\n\nUser-agent: yandex\nDisallow: /tmp\n', '/cgi-bin/x', 'YandexImages')).toBe(
      true,
    );
  });

  it('allows everything when neither a Yandex group nor * is found', () => {
    // spec: Yandex's robots.txt docs, "If the User-agent: Yandex and User-agent: * strings are not found,
    // the robot is considered to have unlimited access."
    const robots = parseRobotsTxt('User-agent: Googlebot\nDisallow: /\n', { profile: 'yandex' });
    expect(robots.isAllowed('/x', 'YandexBot')).toBe(true);
    expect(robots.forAgent('YandexBot').matched).toBe('none');
  });

  it("lets a robot's own group win over the Yandex group", () => {
    // spec: Yandex's robots.txt docs, "User-agent: YandexCalendar Disallow: /",
    // "User-agent: YandexMobileBot Disallow: /private/*.txt$"
    const text = 'User-agent: YandexCalendar\nDisallow: /\n\nUser-agent: YandexMobileBot\nDisallow: /private/*.txt$\n';
    expect(yandexAllows(text, '/x', 'YandexCalendar')).toBe(false);
    expect(yandexAllows(text, '/x')).toBe(true);
    expect(yandexAllows(text, '/private/a.txt', 'YandexMobileBot')).toBe(false);
    expect(yandexAllows(text, '/private/a.txt?x', 'YandexMobileBot')).toBe(true);
  });

  it('gives other crawlers no Yandex family: the Yandex group is not theirs', () => {
    const text = 'User-agent: Yandex\nDisallow: /\n\nUser-agent: *\nDisallow: /cgi-bin\n';
    expect(yandexAllows(text, '/x', 'Googlebot')).toBe(true);
    expect(yandexAllows(text, '/cgi-bin/x', 'Googlebot')).toBe(false);
  });

  it('differs from rfc9309 and google, which give the Yandex group to a robot named Yandex only', () => {
    const text = 'User-agent: Yandex\nAllow: /\n\nUser-agent: *\nDisallow: /\n';
    expect(yandexAllows(text, '/x')).toBe(true);
    expect(isAllowed(text, 'YandexBot', '/x', 'rfc9309')).toBe(false);
    expect(isAllowed(text, 'YandexBot', '/x', 'google')).toBe(false);
  });
});

describe('Disallow and Allow', () => {
  it('blocks the whole site, or a prefix', () => {
    // spec: Yandex's robots.txt docs, "Disallow: / # blocks access to the whole site",
    // "Disallow: /cgi-bin # blocks access to the pages starting with '/cgi-bin'"
    expect(yandexAllows('User-agent: Yandex\nDisallow: /\n', '/')).toBe(false);
    expect(yandexAllows('User-agent: Yandex\nDisallow: /cgi-bin\n', '/cgi-bin/x')).toBe(false);
    expect(yandexAllows('User-agent: Yandex\nDisallow: /cgi-bin\n', '/cgi')).toBe(true);
  });

  it('allows only what Allow names under Disallow: /', () => {
    // spec: Yandex's robots.txt docs, "Allow: /cgi-bin Disallow: / # prohibits downloading anything except
    // for the pages starting with '/cgi-bin'"
    const text = 'User-agent: Yandex\nAllow: /cgi-bin\nDisallow: /\n';
    expect(yandexAllows(text, '/cgi-bin/x')).toBe(true);
    expect(yandexAllows(text, '/other')).toBe(false);
  });

  it('sorts by prefix length, the longest deciding, whatever the order in the file', () => {
    // spec: Yandex's robots.txt docs, "sorted according to URL prefix length (from shortest to longest) and
    // applied in order. If several directives match a particular site page, the robot selects the last one"
    const catalog = 'User-agent: Yandex\nAllow: /catalog\nDisallow: /\n';
    expect(yandexAllows(catalog, '/catalog/x')).toBe(true);
    expect(yandexAllows(catalog, '/news')).toBe(false);
    const auto = 'User-agent: Yandex\nAllow: /\nAllow: /catalog/auto\nDisallow: /catalog\n';
    expect(yandexAllows(auto, '/catalog/x')).toBe(false);
    expect(yandexAllows(auto, '/catalog/auto/x')).toBe(true);
    expect(yandexAllows(auto, '/news')).toBe(true);
  });

  it('applies Allow when prefixes of the same length conflict', () => {
    // spec: Yandex's robots.txt docs, "If there is a conflict between two directives with prefixes of the
    // same length, the Allow directive takes precedence."
    expect(yandexAllows('User-agent: Yandex\nDisallow: /page\nAllow: /page\n', '/page')).toBe(true);
    expect(yandexAllows('User-agent: Yandex\nDisallow: /pag*\nAllow: /page\n', '/page')).toBe(true);
  });

  it('reads an empty Disallow as Allow: / and ignores an empty Allow', () => {
    // spec: Yandex's robots.txt docs, "Disallow: # same as Allow: /", "Allow: # isn't taken into account by the robot"
    expect(yandexAllows('User-agent: Yandex\nDisallow:\n', '/x')).toBe(true);
    expect(yandexAllows('User-agent: Yandex\nAllow:\nDisallow: /\n', '/x')).toBe(false);
  });

  it('reads Allow: / beside Disallow: / as allowing everything', () => {
    // spec: Yandex's robots.txt docs, "with extensions supported, everything is allowed"
    expect(yandexAllows('User-agent: Yandex\nAllow: /\nDisallow: /\n', '/x')).toBe(true);
  });

  it('allows /archive alone', () => {
    // spec: Yandex's robots.txt docs, "Allow: /archive Disallow: / # allows everything that contains '/archive'; the rest is prohibited"
    const text = 'User-agent: Yandex\nAllow: /archive\nDisallow: /\n';
    expect(yandexAllows(text, '/archive/2020')).toBe(true);
    expect(yandexAllows(text, '/news')).toBe(false);
  });
});

describe('* and $', () => {
  it('reads * as any sequence of characters, or none', () => {
    // spec: Yandex's robots.txt docs, "Disallow: /cgi-bin/*.aspx # prohibits '/cgi-bin/example.aspx' and
    // '/cgi-bin/private/test.aspx'", "Disallow: /*private # prohibits both '/private', and '/cgi-bin/private'"
    const text = 'User-agent: Yandex\nDisallow: /cgi-bin/*.aspx\nDisallow: /*private\n';
    for (const url of ['/cgi-bin/example.aspx', '/cgi-bin/private/test.aspx', '/private', '/cgi-bin/private']) {
      expect(yandexAllows(text, url), url).toBe(false);
    }
    expect(yandexAllows(text, '/cgi-bin/example.html')).toBe(true);
  });

  it('appends * to every rule', () => {
    // spec: Yandex's robots.txt docs, "Disallow: /cgi-bin* # blocks access to pages starting with '/cgi-bin'
    // Disallow: /cgi-bin # the same"
    for (const rule of ['/cgi-bin*', '/cgi-bin']) {
      expect(yandexAllows(`User-agent: Yandex\nDisallow: ${rule}\n`, '/cgi-bin/x')).toBe(false);
      expect(yandexAllows(`User-agent: Yandex\nDisallow: ${rule}\n`, '/cgi-bi')).toBe(true);
    }
  });

  it('cancels the appended * with $', () => {
    // spec: Yandex's robots.txt docs, "Disallow: /example$ # prohibits '/example', but allows '/example.html'",
    // "Disallow: /example # prohibits both '/example', and '/example.html'"
    expect(yandexAllows('User-agent: Yandex\nDisallow: /example$\n', '/example')).toBe(false);
    expect(yandexAllows('User-agent: Yandex\nDisallow: /example$\n', '/example.html')).toBe(true);
    expect(yandexAllows('User-agent: Yandex\nDisallow: /example\n', '/example.html')).toBe(false);
  });

  it('keeps a written * before $', () => {
    // spec: Yandex's robots.txt docs, "Disallow: /example*$ # exactly the same as 'Disallow: /example'
    // prohibits both /example.html and /example"
    expect(yandexAllows('User-agent: Yandex\nDisallow: /example*$\n', '/example')).toBe(false);
    expect(yandexAllows('User-agent: Yandex\nDisallow: /example*$\n', '/example.html')).toBe(false);
  });

  it('matches the extended examples', () => {
    // spec: Yandex's robots.txt docs, "'/private*html', '/private/test.html', '/private/html/test.aspx', and so
    // on are prohibited as well", "with extensions supported, only '/private' is prohibited"
    const star = 'User-agent: Yandex\nDisallow: /private*html\n';
    for (const url of ['/private*html', '/private/test.html', '/private/html/test.aspx']) expect(yandexAllows(star, url), url).toBe(false);
    const dollar = 'User-agent: Yandex\nDisallow: /private$\n';
    expect(yandexAllows(dollar, '/private')).toBe(false);
    expect(yandexAllows(dollar, '/private$')).toBe(true);
    expect(yandexAllows(dollar, '/private$test')).toBe(true);
  });

  it('matches the example of HTML files, PHP scripts and zips', () => {
    // spec: Yandex's robots.txt docs, "Allow: /obsolete/private/*.html$ # allows HTML files", "Disallow: /*.php$
    // # probibits all '*.php' on site", "Disallow: /*/private/ # ... but the Allow above negates part of the
    // prohibition", "Disallow: /*/old/*.zip$ # prohibits all '*.zip' files containing '/old/' in the path"
    const text =
      'User-agent: Yandex\nAllow: /obsolete/private/*.html$\nDisallow: /*.php$\nDisallow: /*/private/\nDisallow: /*/old/*.zip$\n';
    expect(yandexAllows(text, '/obsolete/private/a.html')).toBe(true);
    expect(yandexAllows(text, '/obsolete/private/a.txt')).toBe(false);
    expect(yandexAllows(text, '/index.php')).toBe(false);
    expect(yandexAllows(text, '/index.php?x=1')).toBe(true);
    expect(yandexAllows(text, '/a/old/b.zip')).toBe(false);
    expect(yandexAllows(text, '/a/new/b.zip')).toBe(true);
  });

  it('matches a query with *', () => {
    // spec: Yandex's robots.txt docs, "Disallow: /add.php?*user= # prohibits all 'add.php?' scripts with the ' user ' option"
    const text = 'User-agent: Yandex\nDisallow: /add.php?*user=\n';
    expect(yandexAllows(text, '/add.php?a=1&user=2')).toBe(false);
    expect(yandexAllows(text, '/add.php?a=1')).toBe(true);
  });
});

describe('lines between groups', () => {
  it('starts a group at a User-agent line with no blank line before it', () => {
    // spec: Yandex's robots.txt docs, "the Yandex robot parses strings based on the 'User-agent:' substring.
    // In this case, the result for the Yandex robot is 'Allow: /'"
    expect(yandexAllows('User-agent: *\nDisallow: /\nUser-agent: Yandex\nAllow: /\n', '/x')).toBe(true);
    // spec: Yandex's robots.txt docs, "# comment1... # comment2... # comment3... User-agent: Yandex Allow: /
    // # same as in the previous example"
    expect(
      yandexAllows('User-agent: *\nDisallow: /\n# comment1...\n# comment2...\n# comment3...\nUser-agent: Yandex\nAllow: /\n', '/x'),
    ).toBe(true);
  });

  it('reads a blank line inside a group as nothing: the group goes on to the next User-agent line', () => {
    // spec: Yandex's robots.txt docs, "Note. Empty line breaks aren't allowed between the User-agent, Disallow
    // and Allow directives." The document says what authors must not write, not what the robot then does;
    // what it says the robot does is parse "based on the 'User-agent:' substring", so a blank line ends
    // nothing, as in rfc9309 and google (the linter reports such a line).
    expect(yandexAllows('User-agent: Yandex\n\nDisallow: /private\n\nAllow: /private/open\n', '/private/x')).toBe(false);
    expect(yandexAllows('User-agent: Yandex\n\nDisallow: /private\n\nAllow: /private/open\n', '/private/open')).toBe(true);
  });
});

describe('the 32 KB limit', () => {
  // spec: Yandex's robots.txt docs, "If the file size exceeds 32 KB, the robot assumes it allows everything,
  // meaning it is interpreted the same way as: User-agent: Yandex Disallow:"
  const head = 'User-agent: *\nDisallow: /\nSitemap: https://example.com/sitemap.xml\n';
  const padded = (bytes: number): string => head + '#'.repeat(bytes - head.length);

  it('reads a file of exactly 32 KB', () => {
    const robots = parseRobotsTxt(padded(32 * 1024), { profile: 'yandex' });
    expect(robots.isAllowed('/x', 'YandexBot')).toBe(false);
    expect(robots.truncated).toBe(false);
  });

  it('reads a larger file as allowing everything, and says so', () => {
    const robots = parseRobotsTxt(padded(32 * 1024 + 1), { profile: 'yandex' });
    expect(robots.isAllowed('/x', 'YandexBot')).toBe(true);
    expect(robots.isAllowed('/x', 'Googlebot')).toBe(true);
    expect(robots.sitemaps).toEqual([]);
    expect(robots.truncated).toBe(true);
    expect(robots.bytesParsed).toBe(0);
    expect(robots.bytesIgnored).toBe(32 * 1024 + 1);
    expect(robots.diagnostics[0]).toMatchObject({ line: 0, code: 'over-profile-limit' });
  });

  it('counts UTF-8 bytes, and applies to bytes as to text', () => {
    const text = head + 'é'.repeat(16 * 1024);
    expect(parseRobotsTxt(text, { profile: 'yandex' }).isAllowed('/x', 'YandexBot')).toBe(true);
    expect(parseRobotsTxt(new TextEncoder().encode(text), { profile: 'yandex' }).isAllowed('/x', 'YandexBot')).toBe(true);
  });

  it('is yandex’s alone', () => {
    expect(isAllowed(padded(40_000), 'YandexBot', '/x', 'rfc9309')).toBe(false);
    expect(isAllowed(padded(40_000), 'YandexBot', '/x', 'google')).toBe(false);
  });
});

describe('the agent', () => {
  it('takes a product token, with or without a version, and refuses a header', () => {
    const robots = parseRobotsTxt('User-agent: YandexBot\nDisallow: /\n', { profile: 'yandex' });
    expect(robots.isAllowed('/x', 'YandexBot/3.0')).toBe(false);
    expect(() => robots.isAllowed('/x', 'Mozilla/5.0 (compatible; YandexBot/3.0)')).toThrow(/YandexBot/);
  });
});
