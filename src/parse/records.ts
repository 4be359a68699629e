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
import { startsWithIgnoringAsciiCase } from './ascii.js';
import { forEachLine } from './lines.js';
import { COLON, HASH } from '../bytes.js';

/**
 * Where each record's parts are: offsets into the body the reader was given (value = body[start, end)),
 * not views of it, so that reading makes no object per line; a handler that keeps a value makes its own
 * view or copy.
 */
export interface RecordHandler {
  /** A user-agent line; its value is raw (not yet cut to a product token). */
  userAgent(line: number, start: number, end: number): void;
  /** An allow or disallow line; the pattern is raw, possibly empty. */
  rule(line: number, allow: boolean, start: number, end: number): void;
  sitemap(line: number, start: number, end: number): void;
  /** Any other key, body[keyStart, keyEnd): extensions (crawl-delay, host, …) and unknown keys alike. */
  other(line: number, keyStart: number, keyEnd: number, start: number, end: number): void;
  /** A non-blank line that is neither a comment nor a `key: value` record (kept for diagnostics). */
  malformed(line: number): void;
  /** A line longer than the line limit; its excess bytes were dropped. */
  lineCut(line: number): void;
}

function isAsciiWhitespace(byte: number | undefined): boolean {
  // space, \t, \n, \v, \f, \r: what C's isspace() and absl::ascii_isspace() accept.
  return byte === 0x20 || (byte !== undefined && byte >= 0x09 && byte <= 0x0d);
}

function isSpaceOrTab(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09;
}

/** The first position of `byte` in body[from, to), or `to`. */
function find(body: Uint8Array, from: number, to: number, byte: number): number {
  for (let i = from; i < to; i++) if (body[i] === byte) return i;
  return to;
}

type KeyKind = 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'other';

// Checked in this order, each by prefix, as Google's parser does.
const KEY_SPELLINGS: ReadonlyArray<readonly [KeyKind, readonly string[]]> = [
  ['user-agent', ['user-agent', 'useragent', 'user agent']],
  ['allow', ['allow']],
  ['disallow', ['disallow', 'dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw']],
  ['sitemap', ['sitemap', 'site-map']],
];

/**
 * How keys are read: `google`, by prefix and with the misspellings above, a line without a colon read as
 * two tokens; `exact`, a key is its name alone (any case) and a line needs its colon, as robots-parser
 * reads them (src/compat/).
 */
export type KeyReading = 'google' | 'exact';

/** What kind of record the key in body[start, end) names. */
function classifyKey(body: Uint8Array, start: number, end: number, keys: KeyReading): KeyKind {
  for (const [kind, spellings] of KEY_SPELLINGS) {
    if (keys === 'exact') {
      const name = spellings[0] as string;
      if (end - start === name.length && startsWithIgnoringAsciiCase(body, start, end, name)) return kind;
      continue;
    }
    for (const spelling of spellings) {
      if (startsWithIgnoringAsciiCase(body, start, end, spelling)) return kind;
    }
  }
  return 'other';
}

/**
 * Splits the line body[start, end) into key and value and hands it on; a line that holds no record is
 * reported as malformed unless it is blank or a comment.
 */
function readRecord(body: Uint8Array, line: number, start: number, end: number, handler: RecordHandler, keys: KeyReading): void {
  end = find(body, start, end, HASH);
  while (start < end && isAsciiWhitespace(body[start])) start++;
  while (end > start && isAsciiWhitespace(body[end - 1])) end--;
  if (start === end) return;

  let separator = find(body, start, end, COLON);
  if (separator === end) {
    if (keys === 'exact') return handler.malformed(line);
    // Some files forget the colon: accept whitespace instead, but only between exactly two tokens.
    separator = start;
    while (separator < end && !isSpaceOrTab(body[separator])) separator++;
    let valueStart = separator;
    while (isSpaceOrTab(body[valueStart])) valueStart++;
    let tokens = separator === end ? 1 : 2;
    for (let i = valueStart; i < end && tokens === 2; i++) if (isSpaceOrTab(body[i])) tokens++;
    if (tokens !== 2) return handler.malformed(line);
  }
  let keyEnd = separator;
  while (keyEnd > start && isAsciiWhitespace(body[keyEnd - 1])) keyEnd--;
  if (keyEnd === start) return handler.malformed(line);
  let valueStart = separator + 1;
  while (valueStart < end && isAsciiWhitespace(body[valueStart])) valueStart++;
  switch (classifyKey(body, start, keyEnd, keys)) {
    case 'user-agent':
      return handler.userAgent(line, valueStart, end);
    case 'allow':
      return handler.rule(line, true, valueStart, end);
    case 'disallow':
      return handler.rule(line, false, valueStart, end);
    case 'sitemap':
      return handler.sitemap(line, valueStart, end);
    case 'other':
      return handler.other(line, start, keyEnd, valueStart, end);
  }
}

/** Turns a body into records for a handler: readRecords below, or the WebAssembly lexer. */
export type RecordReader = (body: Uint8Array, handler: RecordHandler) => void;

/** Reads `body` and hands every record to `handler`, in file order. */
export function readRecords(body: Uint8Array, handler: RecordHandler, keys: KeyReading = 'google'): void {
  forEachLine(body, (line, start, end, cut) => {
    if (cut) handler.lineCut(line);
    readRecord(body, line, start, end, handler, keys);
  });
}
