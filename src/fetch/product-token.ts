/**
 * The robots.txt product token of a crawler, read from its full User-Agent header.
 *
 * A User-Agent header (RFC 9110 §10.1.5) is a list of products (`Name/version`) and parenthesised
 * comments; crawlers dress theirs as a browser's and put their own name in a comment
 * (`Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)`). Site owners write the name
 * (`User-agent: ExampleBot`), and RFC 9309 §2.2.1 matches it on its letters, `_` and `-` only.
 */

/**
 * Browser, engine and platform names that stand in User-Agent headers for compatibility: never the
 * crawler's own name. Compared in lower case against the part of a word before its `/`.
 */
const NOT_A_CRAWLER: ReadonlySet<string> = new Set(
  [
    // browsers and engines
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
    // filler
    'compatible',
    'like',
    // platforms, CPUs and devices
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
    // the old encryption-strength token
    'U',
  ].map((name) => name.toLowerCase()),
);

/** Longer than any name above: a longer word is never looked up (nor lower-cased whole). */
const LONGEST_NAME = 16;

// A language tag as browsers wrote them in comments: `en`, `en-US`, `en_gb`, `zh-Hant-TW`, `es-419`.
// Each optional group starts with a separator, so matching is linear.
const LANGUAGE_TAG = /^[a-z]{2,3}(?:[-_](?:[A-Za-z]{4}))?(?:[-_](?:[A-Za-z]{2}|[0-9]{3}))?$/;

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x0b || code === 0x0c;
}

/** `+http://…`, `https://…`, `www.…`, `bot@example.com`: where to read about the crawler, not its name. */
function isLink(word: string): boolean {
  return word.startsWith('+') || word.includes('://') || word.slice(0, 4).toLowerCase() === 'www.' || word.includes('@');
}

/** The leading run of `[A-Za-z_-]` of a word, the cut robots.txt applies to `User-agent:` values. */
function leadingToken(word: string): string {
  let end = 0;
  while (end < word.length) {
    const c = word.charCodeAt(end);
    const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
    if (!letter && c !== 0x5f && c !== 0x2d) break;
    end++;
  }
  return word.slice(0, end);
}

/** The product token a word (`Name`, `Name/version`) names, or undefined when it names no crawler. */
function tokenOf(word: string): string | undefined {
  if (isLink(word)) return undefined;
  const slash = word.indexOf('/');
  const name = slash === -1 ? word : word.slice(0, slash);
  // `rv:140.0`: Gecko's revision, however long.
  if (name.slice(0, 3).toLowerCase() === 'rv:') return undefined;
  if (name.length <= LONGEST_NAME) {
    if (NOT_A_CRAWLER.has(name.toLowerCase())) return undefined;
    if (slash === -1 && LANGUAGE_TAG.test(name)) return undefined;
  }
  const token = leadingToken(name);
  // One letter is a platform or security code (`U`, `K`, `x86_64`, `i686`), never a crawler's name.
  return token.length >= 2 ? token : undefined;
}

/**
 * The token of one comment entry (the text between `(`, `)`, `;` and `,`): it counts when it is one
 * word, optionally followed by links only (`archive.org_bot +http://archive.org/…`). Several words
 * describe a platform or device (`Android 6.0.1`, `Nexus 5X Build/MMB29P`, `Windows NT 10.0`).
 */
function entryToken(text: string, start: number, end: number): string | undefined {
  let i = start;
  while (i < end && isSpace(text.charCodeAt(i))) i++;
  const firstStart = i;
  while (i < end && !isSpace(text.charCodeAt(i))) i++;
  const firstEnd = i;
  if (firstStart === firstEnd) return undefined;
  for (;;) {
    while (i < end && isSpace(text.charCodeAt(i))) i++;
    if (i >= end) break;
    const wordStart = i;
    while (i < end && !isSpace(text.charCodeAt(i))) i++;
    if (!isLink(text.slice(wordStart, i))) return undefined;
  }
  return tokenOf(text.slice(firstStart, firstEnd));
}

/**
 * The robots.txt product token a crawler's `User-Agent` header names: the name site owners write in
 * `User-agent:` lines (RFC 9309 §2.2.1) to address that crawler.
 *
 * The header (RFC 9110 §10.1.5) is read left to right, products and comments alike, nested comments
 * and `; compatible; Name/1.0;` pieces outside parentheses included. Browser, engine and platform
 * names (`Mozilla`, `AppleWebKit`, `KHTML`, `Chrome`, `Safari`, `compatible`, `Linux`, `Windows NT 10.0`,
 * `rv:140.0`, `en-US` …) and links (`+https://…`) are skipped; the first name left is returned, cut to
 * its leading run of letters, `_` and `-` as robots.txt cuts `User-agent:` values (`archive.org_bot` →
 * `archive`). A comment entry counts only when it is one word, optionally followed by a link; names of
 * one character are skipped. Runs in time linear in the header's length, whatever it holds.
 *
 * Returns `undefined` when no name is left (an ordinary browser's header, or `''`). Throws a
 * `TypeError` when `userAgentHeader` is not a string.
 *
 * @example
 * import { productToken } from 'robotstxt-wasm';
 *
 * productToken('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'); // 'Googlebot'
 * productToken('CCBot/2.0 (https://commoncrawl.org/faq/)'); // 'CCBot'
 * productToken('Mozilla/5.0 (compatible; archive.org_bot +http://archive.org/details/archive.org_bot)'); // 'archive'
 * productToken('Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0'); // undefined
 */
export function productToken(userAgentHeader: string): string | undefined {
  if (typeof userAgentHeader !== 'string') {
    throw new TypeError(
      `productToken() expects the User-Agent header as a string, got ${describe(userAgentHeader)}: ` +
        `pass a header such as "Mozilla/5.0 (compatible; ExampleBot/1.2; +https://example.com/bot)"`,
    );
  }
  const text = userAgentHeader;
  const length = text.length;
  // Comment depth is only counted, never recursed into: unbalanced or deeply nested parentheses
  // cost nothing more than any other character.
  let depth = 0;
  let segmentStart = 0;
  let i = 0;
  while (i <= length) {
    const c = i < length ? text.charCodeAt(i) : -1;
    if (c === 0x5c && depth > 0 && i + 1 < length) {
      // A quoted-pair inside a comment: the next character is text, not a delimiter.
      i += 2;
      continue;
    }
    const delimiter = c === -1 || c === 0x28 || c === 0x29 || c === 0x3b || c === 0x2c || (depth === 0 && isSpace(c));
    if (!delimiter) {
      i++;
      continue;
    }
    if (i > segmentStart) {
      // Outside comments a segment is a single word (whitespace ends it); inside, a whole entry.
      const token = depth === 0 ? tokenOf(text.slice(segmentStart, i)) : entryToken(text, segmentStart, i);
      if (token !== undefined) return token;
    }
    if (c === 0x28) depth++;
    else if (c === 0x29 && depth > 0) depth--;
    i++;
    segmentStart = i;
  }
  return undefined;
}
