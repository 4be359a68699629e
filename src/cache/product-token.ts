/**
 * The robots.txt product token of a crawler, read from its full User-Agent header.
 *
 * A User-Agent header (RFC 9110 §10.1.5) is a list of products (`Name/version`) and parenthesised
 * comments; crawlers dress theirs as a browser's and put their own name in a comment
 * (`Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)`). Site owners write the name
 * (`User-agent: ExampleBot`), and RFC 9309 §2.2.1 matches it on its letters, `_` and `-` only.
 */
import { BACKSLASH, CLOSE_PAREN, COMMA, OPEN_PAREN, SEMICOLON } from '../bytes.js';

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

/** Past the last character: ends the last segment. */
const END = -1;

/** A `(` that a later `)` closes: only such a `(` opens a comment. */
const CLOSED = 1;
/**
 * A comment that holds a `,` (quoted or not, in it or in a comment nested in it). Repeated header lines
 * arrive joined by `, ` (RFC 9110 §5.3; `Headers.get()` joins them so), and a comment can then begin in one
 * line and end in the next: it is read word by word, so that neither line's names are taken for a description.
 */
const HOLDS_COMMA = 2;

/**
 * What each `(` of `text` opens, in order of appearance: `CLOSED`, with `HOLDS_COMMA`, or 0 for a `(` that
 * nothing closes. A `)` closes the last `(` still open; one with none open closes nothing. Inside parentheses
 * a `\` makes the next character text (RFC 9110 §5.6.5's quoted-pair), exactly as readTokens() reads it, so
 * that both see the same parentheses.
 */
function parentheses(text: string): number[] {
  const kinds: number[] = [];
  // Indices into `kinds` of the `(` still open, innermost last.
  const open: number[] = [];
  const mark = (at: number, flag: number): void => {
    kinds[at] = (kinds[at] ?? 0) | flag;
  };
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === OPEN_PAREN) {
      open.push(kinds.length);
      kinds.push(0);
      continue;
    }
    const innermost = open.at(-1);
    if (innermost === undefined) continue;
    if (c === BACKSLASH && i + 1 < length) {
      i++;
      if (text.charCodeAt(i) === COMMA) mark(innermost, HOLDS_COMMA);
    } else if (c === COMMA) {
      mark(innermost, HOLDS_COMMA);
    } else if (c === CLOSE_PAREN) {
      open.pop();
      mark(innermost, CLOSED);
      const outer = open.at(-1);
      if (outer !== undefined && ((kinds[innermost] ?? 0) & HOLDS_COMMA) !== 0) mark(outer, HOLDS_COMMA);
    }
  }
  return kinds;
}

/**
 * Reads `text` left to right and hands each crawler name it finds to `found`, in header order, until
 * `found` returns true. Two ways to read a stretch of the header:
 * - word by word, as products: outside comments, inside a `(` that nothing closes, and inside a comment
 *   that holds a comma; every word whitespace, `(`, `)`, `;` or `,` ends is looked at alone.
 * - by entries, inside any other comment: the text between `(`, `)`, `;` and `,` is one entry
 *   (entryToken()), so that a description of several words (`Nexus 5X Build/MMB29P`) names nothing.
 * A `(` left open thus hides nothing after it, and a `)` with nothing open closes nothing. Each character
 * is read twice (here and in parentheses()) and each segment once more: linear in the header's length,
 * whatever it holds; nesting is counted, never recursed into.
 */
function readTokens(text: string, found: (token: string) => boolean): void {
  const kinds = parentheses(text);
  const length = text.length;
  let nextOpen = 0;
  // Parentheses open, closed later or not: inside any of them a `\` quotes the next character.
  let open = 0;
  // Comments open: parentheses that a `)` closes later.
  let comments = 0;
  // The depth of the outermost open comment that holds a comma (0 for none): inside it, words.
  let wordsFrom = 0;
  let quoted = false;
  let segmentStart = 0;
  for (let i = 0; i <= length; i++) {
    const c = i < length ? text.charCodeAt(i) : END;
    const isQuoted = quoted;
    quoted = false;
    if (!isQuoted && c === BACKSLASH && open > 0 && i + 1 < length) {
      quoted = true;
      continue;
    }
    const byWords = comments === 0 || wordsFrom !== 0;
    const delimiter = c === END || c === OPEN_PAREN || c === CLOSE_PAREN || c === SEMICOLON || c === COMMA || (byWords && isSpace(c));
    // A quoted character is text in an entry; between words it still ends a word, but opens and closes nothing.
    if (!delimiter || (isQuoted && !byWords)) continue;
    if (i > segmentStart) {
      const token = byWords ? tokenOf(text.slice(segmentStart, i)) : entryToken(text, segmentStart, i);
      if (token !== undefined && found(token)) return;
    }
    segmentStart = i + 1;
    if (isQuoted) continue;
    if (c === OPEN_PAREN) {
      open++;
      const kind = kinds[nextOpen++] ?? 0;
      if ((kind & CLOSED) !== 0) {
        comments++;
        if (wordsFrom === 0 && (kind & HOLDS_COMMA) !== 0) wordsFrom = comments;
      }
    } else if (c === CLOSE_PAREN && open > 0) {
      // It closes the innermost `(` still open, which is a comment: a `(` that nothing closes is never the one.
      open--;
      if (wordsFrom === comments) wordsFrom = 0;
      comments--;
    }
  }
}

function expectString(value: unknown, fn: string): asserts value is string {
  if (typeof value !== 'string') {
    throw new TypeError(
      `${fn}() expects the User-Agent header as a string, got ${describe(value)}: ` +
        `pass a header such as "Mozilla/5.0 (compatible; ExampleBot/1.2; +https://example.com/bot)"`,
    );
  }
}

/**
 * Whether a crawler's name as someone wrote it is a whole User-Agent header rather than a product token: it has
 * a comment (parentheses), or several words of which one is a product with a version
 * (`Mozilla/5.0 ExampleBot/2.1`). Words with neither (`not a token!`) are a mistyped name, not a header
 * whose one plausible word should be taken. A header's crawler is then read with productToken().
 *
 * @example
 * import { isUserAgentHeader } from 'robotstxt-wasm';
 *
 * isUserAgentHeader('Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)'); // true
 * isUserAgentHeader('ExampleBot/2.1'); // false
 * isUserAgentHeader('ExampleBot'); // false
 */
export function isUserAgentHeader(value: string): boolean {
  expectString(value, 'isUserAgentHeader');
  return /[()]/.test(value) || (/\s/.test(value) && value.includes('/'));
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
 * one character are skipped. A `(` that no `)` closes opens no comment, and a comment that holds a comma
 * is read word by word like products (see productTokens()). Runs in time linear in the header's length,
 * whatever it holds.
 *
 * Returns `undefined` when no name is left (an ordinary browser's header, or `''`). Throws a
 * `TypeError` when `userAgentHeader` is not a string. To read every name a header holds, as a gate
 * deciding for whoever is at the door must, use productTokens().
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
  expectString(userAgentHeader, 'productToken');
  let first: string | undefined;
  readTokens(userAgentHeader, (token) => {
    first = token;
    return true;
  });
  return first;
}

/**
 * The longest header productTokens() reads, in characters. Apache (`LimitRequestFieldSize`, 8,190 bytes)
 * and nginx (`large_client_header_buffers`, 8 KB) refuse longer header lines by default, and no crawler's
 * header comes near: a longer one is refused, never read in part.
 */
export const MAX_USER_AGENT_LENGTH = 8192;

/**
 * The most distinct names productTokens() returns. A crawler's header names one, rarely two; an app's
 * (`[FBAN/FBIOS;FBAV/…;…]`) about a dozen. A header naming more is refused, never read in part.
 */
export const MAX_PRODUCT_TOKENS = 32;

/**
 * Every robots.txt product token a `User-Agent` header names, in header order, each once (compared
 * without case, spelled as it first appears): what a server deciding for whoever is at the door must
 * check, since a request may name a crawler that is allowed before one that is not.
 *
 * It reads as productToken() reads (the same browser, engine and platform names, links and language
 * tags skipped; every product and every comment entry of one word looked at) and returns all the names
 * instead of the first. Repeated `User-Agent` lines arrive joined by `, ` (RFC 9110 §5.3: `Headers.get()`
 * joins them so), and no joining hides a name either line holds:
 * - a `(` that no `)` closes opens no comment: what follows it is read word by word, as products;
 * - a `)` with no `(` open closes nothing;
 * - a comment that holds a comma (as a comment that one line opens and the next closes does) is read word
 *   by word; in any other comment an entry of several words is a description and names nothing
 *   (`(Linux; Nexus 5X Build/MMB29P)`).
 *
 * Bounded: a header over 8,192 characters is not read, and reading stops at the name after the 32nd
 * distinct one. Either way it throws a `RangeError` that says which bound, rather than return some of the
 * names: a caller that decides for every name refuses such a request. Linear in the header's length, each
 * name deduplicated in O(1). Throws a `TypeError` when `userAgentHeader` is not a string.
 *
 * @example
 * import { productTokens } from 'robotstxt-wasm';
 *
 * productTokens('Mozilla/5.0 (compatible; FriendlyBot/3.0; ExampleBot/1.0)'); // ['FriendlyBot', 'ExampleBot']
 *
 * // Two User-Agent lines, `FriendlyBot/3.0 (` and `ExampleBot/1.0`, as Headers.get() joins them:
 * productTokens('FriendlyBot/3.0 (, ExampleBot/1.0'); // ['FriendlyBot', 'ExampleBot']
 * productTokens('Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36'); // []
 */
export function productTokens(userAgentHeader: string): string[] {
  expectString(userAgentHeader, 'productTokens');
  if (userAgentHeader.length > MAX_USER_AGENT_LENGTH) {
    throw new RangeError(`This User-Agent header has ${userAgentHeader.length} characters; at most ${MAX_USER_AGENT_LENGTH} are read.`);
  }
  const tokens: string[] = [];
  const seen = new Set<string>();
  readTokens(userAgentHeader, (token) => {
    const key = token.toLowerCase();
    if (seen.has(key)) return false;
    if (seen.size === MAX_PRODUCT_TOKENS) {
      throw new RangeError(
        `This User-Agent header names more than ${MAX_PRODUCT_TOKENS} crawlers; at most ${MAX_PRODUCT_TOKENS} are read.`,
      );
    }
    seen.add(key);
    tokens.push(token);
    return false;
  });
  return tokens;
}
