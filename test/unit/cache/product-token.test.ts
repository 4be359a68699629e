/**
 * productToken() and productTokens(): the robots.txt product token a crawler's User-Agent header names, and
 * every one it names (RFC 9309 §2.2.1; the header's grammar is RFC 9110 §10.1.5, repeated header lines
 * joined by `, ` §5.3). The headers are the ones the crawlers' operators publish. test/conformance/gate-names.test.ts
 * holds both to an independent reading under random headers.
 */
import { describe, expect, it } from 'vitest';
import { MAX_PRODUCT_TOKENS, MAX_USER_AGENT_LENGTH, productToken, productTokens } from '../../../src/cache/product-token.js';
import { parseRobotsTxt } from '../../../src/platform/inline.js';

function expectToken(headers: readonly string[], token: string | undefined): void {
  for (const header of headers) expect(productToken(header), header).toBe(token);
}

describe('productToken: crawlers that dress as browsers', () => {
  // Google's "Overview of Google crawlers" page: Googlebot Smartphone and Googlebot Desktop
  it('finds Googlebot in its desktop and smartphone headers', () => {
    expectToken(
      [
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/W.X.Y.Z Safari/537.36',
        'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/W.X.Y.Z Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
        'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/137.0.7151.119 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
        'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
        'Googlebot/2.1 (+http://www.google.com/bot.html)',
      ],
      'Googlebot',
    );
  });

  // Bing Webmaster blog: the classic header and the evergreen (Edge-based) desktop and mobile ones
  it('finds bingbot in the classic header and the Chrome-like ones', () => {
    expectToken(
      [
        'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36',
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/W.X.Y.Z Safari/537.36 Edg/W.X.Y.Z',
        'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/W.X.Y.Z Mobile Safari/537.36 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
      ],
      'bingbot',
    );
  });

  // Yandex Webmaster, "Yandex robots in server logs"
  it('finds YandexBot, whether its comment comes before or after the browser products', () => {
    expectToken(
      [
        'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)',
        'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/81.0.4044.268',
      ],
      'YandexBot',
    );
    expectToken(
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 8_1 like Mac OS X) AppleWebKit/600.1.4 (KHTML, like Gecko) Version/8.0 Mobile/12B411 Safari/600.1.4 (compatible; YandexMobileBot/3.0; +http://yandex.com/bots)',
      ],
      'YandexMobileBot',
    );
  });

  // OpenAI's "Overview of OpenAI Crawlers": GPTBot's token inside the comment, and outside parentheses
  it('finds GPTBot in its comment and in the "; compatible; GPTBot/1.x;" pieces outside parentheses', () => {
    expectToken(
      [
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.0; +https://openai.com/gptbot)',
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.0; +https://openai.com/gptbot',
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot',
      ],
      'GPTBot',
    );
    expectToken(
      ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot'],
      'OAI-SearchBot',
    );
  });

  // Apple's "About Applebot": the token sits in a comment after Safari/…
  it('finds Applebot in the comment that follows Safari', () => {
    expectToken(
      [
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
        'Mozilla/5.0 (iPhone; CPU iPhone OS 8_1 like Mac OS X) AppleWebKit/600.1.4 (KHTML, like Gecko) Version/8.0 Mobile/12B410 Safari/600.1.4 (Applebot/0.1; +http://www.apple.com/go/applebot)',
      ],
      'Applebot',
    );
  });
});

describe('productToken: crawlers that lead with their own product', () => {
  // DuckDuckGo's "DuckDuckBot" help page
  it('finds DuckDuckBot before its ";" and its link comment', () => {
    expectToken(['DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)'], 'DuckDuckBot');
  });

  // Meta's "Meta Web Crawlers" page
  it('finds facebookexternalhit, with or without a link comment', () => {
    expectToken(
      ['facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)', 'facebookexternalhit/1.1'],
      'facebookexternalhit',
    );
  });

  // Common Crawl's FAQ, "How does the Common Crawl CCBot identify itself?"
  it('finds CCBot before a comment that holds only a link', () => {
    expectToken(['CCBot/2.0 (https://commoncrawl.org/faq/)', 'CCBot/1.0 (+https://commoncrawl.org/bot.html)'], 'CCBot');
  });

  it('finds a plain product with a link comment, or a tool with no comment at all', () => {
    expectToken(['ExampleBot/1.2 (+https://example.com/bot)', 'ExampleBot'], 'ExampleBot');
    expectToken(['curl/8.5.0'], 'curl');
  });
});

describe('productToken: the cut robots.txt applies', () => {
  // spec: RFC 9309 §2.2.1 (product token: letters, "_" and "-"); Google's robots.txt spec (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt),
  // "Order of precedence for user-agents" ("googlebot/1.2 ... equivalent to googlebot")
  it('cuts the name to its leading run of letters, "_" and "-"', () => {
    expectToken(['Mozilla/5.0 (compatible; archive.org_bot +http://archive.org/details/archive.org_bot)'], 'archive');
    expectToken(['Googlebot-Image/1.0'], 'Googlebot-Image');
    expectToken(['Mozilla/5.0 (compatible; ia_archiver/1.0)'], 'ia_archiver');
    expectToken(['Mozilla/5.0 (compatible; Name2Bot/1.0)'], 'Name');
  });

  it('skips names whose cut is empty or one character', () => {
    expectToken(['Mozilla/5.0 (Linux; Android 10; K) 2ndBot/1.0 X/1.0 ExampleBot/2.0'], 'ExampleBot');
    expectToken(['Opera 7.54 [en]', '1.0 (2.0; x86_64)', 'A/1 (B; C/2)'], undefined);
  });

  // spec: Google's robots.txt spec, "Order of precedence for user-agents" (the user-agent is not case-sensitive)
  it('finds the token a robots.txt group names, so the group applies to the crawler', () => {
    const robots = parseRobotsTxt('User-agent: archive\nDisallow: /private/\n\nUser-agent: bingbot\nDisallow: /\n');
    const archive = productToken('Mozilla/5.0 (compatible; archive.org_bot +http://archive.org/details/archive.org_bot)');
    const bing = productToken('Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)');
    expect(robots.isAllowed('https://example.com/private/page', archive!)).toBe(false);
    expect(robots.isAllowed('https://example.com/public/page', archive!)).toBe(true);
    expect(robots.isAllowed('https://example.com/public/page', bing!)).toBe(false);
    robots.dispose();
  });
});

describe('productToken: what is not a crawler name', () => {
  // Current headers of each browser (Chrome's and Safari's with their reduced, frozen platform parts)
  it('returns undefined for the headers of ordinary browsers', () => {
    expectToken(
      [
        // Chrome on Windows, macOS, Android
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36',
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36',
        'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36',
        // Firefox on Windows, Linux
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0',
        'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
        'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
        // Safari on macOS, iPhone
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Safari/605.1.15',
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Mobile/15E148 Safari/604.1',
        // Edge, Opera, Samsung Internet
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36 Edg/138.0.0.0',
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/134.0.0.0 Safari/537.36 OPR/119.0.0.0',
        'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/28.0 Chrome/130.0.0.0 Mobile Safari/537.36',
        // Android WebView, Chrome and Firefox on iOS, headless Chrome
        'Mozilla/5.0 (Linux; Android 10; K; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/138.0.0.0 Mobile Safari/537.36',
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/138.0.7204.156 Mobile/15E148 Safari/604.1',
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/141.0 Mobile/15E148 Safari/605.1.15',
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/138.0.0.0 Safari/537.36',
        // Internet Explorer 11, and the old Opera with its language tag
        'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko',
        'Opera/9.80 (Windows NT 6.0; U; en) Presto/2.2.15 Version/10.10',
        'Mozilla/5.0 (Windows; U; Windows NT 5.1; en-US; rv:1.9.2.3) Gecko/20100401 Firefox/3.6.3',
      ],
      undefined,
    );
  });

  it('skips comment entries of several words, which describe a platform or device', () => {
    expectToken(
      ['Mozilla/5.0 (Android 6.0.1; Nexus 5X Build/MMB29P; Intel Mac OS X 10_15_5; Windows NT 10.0; like Gecko; ExampleBot/1.0)'],
      'ExampleBot',
    );
    expectToken(['Mozilla/5.0 (Some Device Name; Another One)'], undefined);
  });

  it('skips links, contacts, language tags and rv: versions', () => {
    expectToken(
      [
        'Mozilla/5.0 (+https://example.com/bot; https://example.com/; www.example.com; bot@example.com; en-US; zh-Hant-TW; rv:140.0; ExampleBot/1.0)',
        'Mozilla/5.0 +https://example.com/bot ExampleBot/1.0',
      ],
      'ExampleBot',
    );
  });

  it('skips every browser, engine and platform name, in a comment or as a product', () => {
    const names = [
      'Mozilla',
      'AppleWebKit',
      'WebKit',
      'KHTML',
      'Gecko',
      'Chrome',
      'Chromium',
      'HeadlessChrome',
      'Safari',
      'Version',
      'Mobile',
      'Firefox',
      'Edg',
      'Edge',
      'EdgA',
      'EdgiOS',
      'OPR',
      'Opera',
      'Trident',
      'MSIE',
      'IEMobile',
      'CriOS',
      'FxiOS',
      'SamsungBrowser',
      'YaBrowser',
      'Vivaldi',
      'UCBrowser',
      'Presto',
      'compatible',
      'like',
      'Linux',
      'Android',
      'Windows',
      'Macintosh',
      'X11',
      'Win64',
      'WOW64',
      'Win32',
      'x64',
      'Intel',
      'PPC',
      'ARM',
      'arm64',
      'aarch64',
      'iPhone',
      'iPad',
      'iPod',
      'CPU',
      'Ubuntu',
      'Fedora',
      'Debian',
      'CrOS',
      'Tizen',
      'Build',
      'wv',
      'Touch',
      'Tablet',
      'U',
    ];
    for (const name of names) {
      expectToken([`Mozilla/5.0 (${name}; ${name}/1.0; ExampleBot/1.0)`, `${name}/1.0 ${name} ExampleBot/1.0`], 'ExampleBot');
    }
  });

  it('skips browser, engine and platform names whatever their case', () => {
    expectToken(['MOZILLA/5.0 (COMPATIBLE; LINUX; win64; ExampleBot/1.0) KHTML LIKE gecko'], 'ExampleBot');
  });

  it('returns the first crawler name in header order', () => {
    expectToken(['Mozilla/5.0 (compatible; FirstBot/1.0) SecondBot/2.0'], 'FirstBot');
    expectToken(['FirstBot/1.0 (compatible; SecondBot/2.0)'], 'FirstBot');
  });

  it('reads nested comments and quoted characters inside comments', () => {
    expectToken(['Mozilla/5.0 (compatible (Linux; (X11)); ExampleBot/1.0)'], 'ExampleBot');
    expectToken(['Mozilla/5.0 (compatible; \\(\\;; ExampleBot/1.0)'], 'ExampleBot');
    // RFC 9110 §5.6.5: a quoted-pair in a comment is text, so `\)` does not close it
    expectToken(['Mozilla/5.0 (a comment with \\) inside) ExampleBot/1.0'], 'ExampleBot');
  });

  it('reads on after a ( that nothing closes, as products: it opens no comment', () => {
    expectToken(['Mozilla/5.0 (x ExampleBot/1.0', 'Mozilla/5.0 (compatible (x) ExampleBot/1.0 y'], 'ExampleBot');
    // A header cut short is read word by word too: its platform's words are names then.
    expectToken(['Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P'], 'Nexus');
  });

  it('reads a comment that holds a comma word by word, where one header line may end and the next begin', () => {
    expectToken(
      ['Mozilla/5.0 (, ExampleBot/1.0 x)', 'Mozilla/5.0 (x ExampleBot/1.0, y)', 'Mozilla/5.0 (a (b, c) ExampleBot/1.0 d)'],
      'ExampleBot',
    );
    // Without a comma a comment of several words is still a description.
    expectToken(['Mozilla/5.0 (x ExampleBot/1.0 y)'], undefined);
  });

  it('returns undefined for an empty header or one with nothing but delimiters and links', () => {
    expectToken(['', '   ', '\t', '()', '(;;,)', ')(', '; ; ;', '(+https://example.com/bot)'], undefined);
  });
});

describe('productToken: bad input', () => {
  it('throws a TypeError that says what to pass for a non-string', () => {
    for (const value of [undefined, null, 42, {}, ['Googlebot'], new Uint8Array(4)]) {
      expect(() => productToken(value as unknown as string), String(value)).toThrow(TypeError);
    }
    expect(() => productToken(null as unknown as string)).toThrow(/expects the User-Agent header as a string, got null/);
  });

  // Each character is looked at a bounded number of times: no backtracking regex, no recursion.
  it('reads a 1 MB header in one pass', () => {
    const MB = 1 << 20;
    const times = (piece: string): number => Math.ceil(MB / piece.length);
    const browsers = 'Safari/537.36 '.repeat(times('Safari/537.36 '));
    expect(productToken(`Mozilla/5.0 ${browsers}ExampleBot/1.0`)).toBe('ExampleBot');
    expect(productToken(`Mozilla/5.0 (${'Nexus 5X; '.repeat(times('Nexus 5X; '))}ExampleBot/1.0)`)).toBe('ExampleBot');
    expect(productToken(`Mozilla/5.0 (ExampleBot ${'+https://x '.repeat(times('+https://x '))})`)).toBe('ExampleBot');
    expect(productToken(`(${'word '.repeat(times('word '))})`)).toBeUndefined();
    expect(productToken(`${'1'.repeat(MB)} rv:${'9'.repeat(MB)}`)).toBeUndefined();
    expect(productToken(`Bot${'_'.repeat(MB)}/1.0`)).toHaveLength(MB + 3);
    const tags = 'en-'.repeat(times('en-'));
    expect(productToken(tags)).toBe(tags);
  });

  it('reads 100,000 unbalanced or nested parentheses in one pass', () => {
    const N = 100_000;
    expect(productToken('('.repeat(N))).toBeUndefined();
    expect(productToken(')'.repeat(N))).toBeUndefined();
    expect(productToken(`${'('.repeat(N)}ExampleBot/1.0`)).toBe('ExampleBot');
    expect(productToken(`${')'.repeat(N)}ExampleBot/1.0`)).toBe('ExampleBot');
    expect(productToken(`Mozilla/5.0 ${'('.repeat(N)}compatible; ExampleBot/1.0${')'.repeat(N)}`)).toBe('ExampleBot');
    expect(productToken('(x'.repeat(N))).toBeUndefined();
    expect(productToken('\\('.repeat(N))).toBeUndefined();
  });
});

describe('productTokens: every name a header holds', () => {
  const FRIEND_FIRST = [
    // Two names, one after the other, as products and as comment entries
    'FriendlyBot/3.0 ExampleBot/1.0',
    'Mozilla/5.0 (compatible; FriendlyBot/3.0; ExampleBot/1.0)',
    'FriendlyBot/3.0 (compatible; ExampleBot/1.0; +https://example.com/bot)',
    'Mozilla/5.0 (compatible; FriendlyBot/3.0) AppleWebKit/537.36 (KHTML, like Gecko; compatible; ExampleBot/1.0)',
  ];

  it('returns every name in header order, the first being productToken()', () => {
    for (const header of FRIEND_FIRST) {
      expect(productTokens(header), header).toEqual(['FriendlyBot', 'ExampleBot']);
      expect(productToken(header), header).toBe('FriendlyBot');
    }
  });

  it('skips what productToken() skips: browsers, engines, platforms, descriptions, links, language tags', () => {
    expect(
      productTokens('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36'),
    ).toEqual([]);
    expect(productTokens('Opera/9.80 (Windows NT 6.0; U; en) Presto/2.2.15 Version/10.10')).toEqual([]);
    expect(
      productTokens(
        'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/W.X.Y.Z Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      ),
    ).toEqual(['Googlebot']);
    expect(productTokens('Mozilla/5.0 (compatible; archive.org_bot +http://archive.org/details/archive.org_bot; en-US; rv:1.0)')).toEqual([
      'archive',
    ]);
    expect(productTokens('')).toEqual([]);
  });

  it('names each crawler once, spelled as it first appears, whatever the case of the others', () => {
    expect(productTokens('ExampleBot/1.0 (compatible; examplebot/2.0; EXAMPLEBOT) FriendlyBot/3.0 ExampleBot/1.0')).toEqual([
      'ExampleBot',
      'FriendlyBot',
    ]);
  });

  // RFC 9110 §5.3: repeated lines arrive joined by ", " (Headers.get() joins them so)
  it('reads repeated User-Agent lines joined by ", ": no line hides the next, whatever its parentheses', () => {
    const joined = (...lines: string[]): string[] => productTokens(lines.join(', '));
    const CRAWLER = 'Mozilla/5.0 (compatible; ExampleBot/1.0; +https://example.com/bot)';
    for (const first of [
      'FriendlyBot/3.0',
      'FriendlyBot/3.0 (',
      'FriendlyBot/3.0 (x',
      'FriendlyBot/3.0 (compatible; x',
      'FriendlyBot/3.0 )',
      'FriendlyBot/3.0 ((',
      'FriendlyBot/3.0 (\\',
    ]) {
      for (const second of ['ExampleBot/1.0', 'ExampleBot/1.0 x)', 'Mozilla/5.0 ExampleBot/1.0', 'x ExampleBot/1.0 y)', CRAWLER]) {
        expect(joined(first, second), `${first} | ${second}`).toEqual(['FriendlyBot', 'ExampleBot']);
      }
    }
    expect(joined(CRAWLER, CRAWLER)).toEqual(['ExampleBot']);
    // A browser's own comma stays inside its comment: two browsers name nothing.
    const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
    expect(joined(BROWSER, BROWSER)).toEqual([]);
  });

  it('reads on after a ( that nothing closes and past a ) that closes nothing', () => {
    expect(productTokens('FriendlyBot/3.0 (x ExampleBot/1.0 y')).toEqual(['FriendlyBot', 'ExampleBot']);
    expect(productTokens('FriendlyBot/3.0 ((compatible) ExampleBot/1.0')).toEqual(['FriendlyBot', 'ExampleBot']);
    expect(productTokens('FriendlyBot/3.0 ) ExampleBot/1.0 ) (OtherBot/2.0)')).toEqual(['FriendlyBot', 'ExampleBot', 'OtherBot']);
    expect(productTokens(`${')'.repeat(1000)}FriendlyBot/3.0 ${'('.repeat(1000)}ExampleBot/1.0`)).toEqual(['FriendlyBot', 'ExampleBot']);
  });
});

describe('productTokens: bounds', () => {
  it(`reads headers of up to ${MAX_USER_AGENT_LENGTH} characters, and refuses a longer one with a RangeError, unread`, () => {
    const padded = (length: number): string => 'ExampleBot/1.0'.padEnd(length, ' ');
    expect(productTokens(padded(MAX_USER_AGENT_LENGTH))).toEqual(['ExampleBot']);
    expect(() => productTokens(padded(MAX_USER_AGENT_LENGTH + 1))).toThrow(
      new RangeError('This User-Agent header has 8193 characters; at most 8192 are read.'),
    );
    expect(() => productTokens(padded(128 * 1024))).toThrow(RangeError);
  });

  it(`returns up to ${MAX_PRODUCT_TOKENS} distinct names, and refuses a header naming more with a RangeError`, () => {
    const names = (count: number): string[] =>
      Array.from({ length: count }, (_, i) => `Bot${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + Math.floor(i / 26))}`);
    expect(productTokens(names(MAX_PRODUCT_TOKENS).join(' '))).toEqual(names(MAX_PRODUCT_TOKENS));
    // The same names again are no new names.
    expect(productTokens([...names(MAX_PRODUCT_TOKENS), ...names(MAX_PRODUCT_TOKENS)].join(' '))).toHaveLength(MAX_PRODUCT_TOKENS);
    expect(() => productTokens(names(MAX_PRODUCT_TOKENS + 1).join(' '))).toThrow(
      new RangeError('This User-Agent header names more than 32 crawlers; at most 32 are read.'),
    );
    // 64 KB of distinct tokens is refused for its length; 8 KB of them, at the 33rd name.
    expect(() => productTokens(names(650).join(' '))).toThrow(/names more than 32 crawlers/);
  });

  it('throws a TypeError that says what to pass for a non-string', () => {
    for (const value of [undefined, null, 42, {}, ['Googlebot'], new Uint8Array(4)]) {
      expect(() => productTokens(value as unknown as string), String(value)).toThrow(TypeError);
    }
    expect(() => productTokens(42 as unknown as string)).toThrow(/productTokens\(\) expects the User-Agent header as a string, got number/);
  });
});
