/**
 * Lines → records: one `key: value` per line, classified, and handed to a RecordHandler as they are read
 * (a streaming interface, like RobotsParseHandler in Google's reference parser: parsing knows nothing of
 * what the records are used for).
 *
 * - `#` starts a comment anywhere on a line.
 * - Only ASCII whitespace (space, tab, LF, VT, FF, CR) is trimmed; other Unicode spaces are content.
 * - The key is what stands before the first `:`. Without a colon, a line of exactly two runs of
 *   non-whitespace separated by spaces or tabs is read as key and value (`Disallow /x`).
 * - Keys are compared case-insensitively and by prefix, with the misspellings Google accepts, so
 *   `Disallowed: /x` is a disallow and `User agent: x` a user-agent.
 */
import { forEachLine } from './lines.js';

export interface RecordHandler {
  /** A user-agent line; `value` is the raw value (not yet cut to a product token). */
  userAgent(line: number, value: Uint8Array): void;
  /** An allow or disallow line; `pattern` is the raw value, possibly empty. */
  rule(line: number, allow: boolean, pattern: Uint8Array): void;
  sitemap(line: number, value: Uint8Array): void;
  /** Any other key: extensions (crawl-delay, host, …) and unknown keys alike. */
  other(line: number, key: Uint8Array, value: Uint8Array): void;
  /** A non-blank line that is not a `key: value` record (kept for diagnostics). */
  malformed(line: number, content: Uint8Array): void;
  /** A line longer than the line limit; its excess bytes were dropped. */
  lineCut(line: number): void;
}

const HASH = 0x23;
const COLON = 0x3a;

function isAsciiWhitespace(byte: number | undefined): boolean {
  // space, \t, \n, \v, \f, \r: what C's isspace() and absl::ascii_isspace() accept.
  return byte === 0x20 || (byte !== undefined && byte >= 0x09 && byte <= 0x0d);
}

function isSpaceOrTab(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09;
}

function trimmed(bytes: Uint8Array): Uint8Array {
  let start = 0;
  let end = bytes.length;
  while (start < end && isAsciiWhitespace(bytes[start])) start++;
  while (end > start && isAsciiWhitespace(bytes[end - 1])) end--;
  return bytes.subarray(start, end);
}

type KeyKind = 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'other';

// Checked in this order, each by prefix, as Google's parser does.
const KEY_SPELLINGS: ReadonlyArray<readonly [KeyKind, readonly string[]]> = [
  ['user-agent', ['user-agent', 'useragent', 'user agent']],
  ['allow', ['allow']],
  ['disallow', ['disallow', 'dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw']],
  ['sitemap', ['sitemap', 'site-map']],
];

function startsWithIgnoringAsciiCase(bytes: Uint8Array, lowerPrefix: string): boolean {
  if (bytes.length < lowerPrefix.length) return false;
  for (let i = 0; i < lowerPrefix.length; i++) {
    const byte = bytes[i] as number;
    const lower = byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte;
    if (lower !== lowerPrefix.charCodeAt(i)) return false;
  }
  return true;
}

export function classifyKey(key: Uint8Array): KeyKind {
  for (const [kind, spellings] of KEY_SPELLINGS) {
    if (spellings.some((spelling) => startsWithIgnoringAsciiCase(key, spelling))) return kind;
  }
  return 'other';
}

interface KeyValue {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
}

/** Splits a line into key and value, or returns undefined for a line that holds no record. */
export function splitRecord(content: Uint8Array): KeyValue | undefined {
  const hash = content.indexOf(HASH);
  const line = trimmed(hash >= 0 ? content.subarray(0, hash) : content);
  let separator = line.indexOf(COLON);
  if (separator < 0) {
    // Some files forget the colon: accept whitespace instead, but only between exactly two tokens.
    separator = line.findIndex(isSpaceOrTab);
    if (separator < 0) return undefined;
    let valueStart = separator;
    while (isSpaceOrTab(line[valueStart])) valueStart++;
    if (line.subarray(valueStart).some(isSpaceOrTab)) return undefined;
  }
  const key = trimmed(line.subarray(0, separator));
  if (key.length === 0) return undefined;
  return { key, value: trimmed(line.subarray(separator + 1)) };
}

/** Reads `body` and hands every record to `handler`, in file order. */
export function readRecords(body: Uint8Array, handler: RecordHandler): void {
  forEachLine(body, (line, content, cut) => {
    if (cut) handler.lineCut(line);
    const record = splitRecord(content);
    if (record === undefined) {
      const text = trimmed(content);
      if (text.length > 0 && text[0] !== HASH) handler.malformed(line, content);
      return;
    }
    const { key, value } = record;
    switch (classifyKey(key)) {
      case 'user-agent':
        return handler.userAgent(line, value);
      case 'allow':
        return handler.rule(line, true, value);
      case 'disallow':
        return handler.rule(line, false, value);
      case 'sitemap':
        return handler.sitemap(line, value);
      case 'other':
        return handler.other(line, key, value);
    }
  });
}
