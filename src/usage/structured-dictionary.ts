/**
 * A Structured Fields Dictionary (RFC 9651 §3.2) parsed from bytes, by the algorithms of RFC 9651 §4.2.
 *
 * The Content-Usage rule's statement of preference (draft-ietf-aipref-attach-05 §3) is a Dictionary
 * (draft-ietf-aipref-vocab-07 §6), and draft-ietf-aipref-vocab-07 §6.5 reads it from bytes, not from text: a
 * preference that is not a Dictionary, exactly, says nothing. So this is the RFC's parser, each step as the RFC
 * words it, on the bytes of the robots.txt line as they stand (no copy, no decoding first).
 *
 * Hostile input is the usual input here (a robots.txt is whatever a server sends): every loop advances the
 * cursor, nothing scans past `end`, the only nesting is an Inner List's one level (no recursion), and a failure
 * is an answer (undefined), never an exception.
 */

export type BareItem =
  | { readonly type: 'integer' | 'decimal'; readonly value: number }
  | { readonly type: 'string' | 'token' | 'display-string'; readonly value: string }
  | { readonly type: 'byte-sequence'; readonly value: Uint8Array }
  | { readonly type: 'boolean'; readonly value: boolean }
  | { readonly type: 'date'; readonly value: number };
export type Parameters = ReadonlyMap<string, BareItem>;
export interface Item {
  readonly item: BareItem;
  readonly params: Parameters;
}
export interface InnerList {
  readonly inner: readonly Item[];
  readonly params: Parameters;
}
export type DictionaryMember = Item | InnerList;

const HTAB = 0x09;
const SP = 0x20;
const DQUOTE = 0x22;
const PERCENT = 0x25;
const STAR = 0x2a;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const COLON = 0x3a;
const SEMICOLON = 0x3b;
const EQUALS = 0x3d;
const QUESTION = 0x3f;
const AT = 0x40;
const BACKSLASH = 0x5c;
const OPEN_PAREN = 0x28;
const CLOSE_PAREN = 0x29;
/** What Reader.peek answers at the end of the input: no byte equals it. */
const END = -1;

/** RFC 9651 §4.2.4: at most 15 digits in an Integer, 12 before a Decimal's `.`, 16 characters in a Decimal. */
const MAX_INTEGER_DIGITS = 15;
const MAX_DECIMAL_INTEGER_DIGITS = 12;
const MAX_DECIMAL_CHARACTERS = 16;
const MAX_FRACTION_DIGITS = 3;

const isDigit = (byte: number): boolean => byte >= 0x30 && byte <= 0x39;
const isLowerAlpha = (byte: number): boolean => byte >= 0x61 && byte <= 0x7a;
const isAlpha = (byte: number): boolean => isLowerAlpha(byte) || (byte >= 0x41 && byte <= 0x5a);

/** RFC 9651 §4.2.3.3: what a Key continues with (lcalpha, DIGIT, "_", "-", ".", "*"). */
function isKeyByte(byte: number): boolean {
  return isLowerAlpha(byte) || isDigit(byte) || byte === 0x5f || byte === MINUS || byte === DOT || byte === STAR;
}

/** RFC 9110 §5.6.2's tchar, which RFC 9651 §4.2.6 extends with ":" and "/" for a Token's later bytes. */
const TCHAR_PUNCTUATION = new Set([...`!#$%&'*+-.^_\`|~`].map((char) => char.charCodeAt(0)));
function isTokenByte(byte: number): boolean {
  return isAlpha(byte) || isDigit(byte) || TCHAR_PUNCTUATION.has(byte) || byte === COLON || byte === 0x2f;
}

/** The base64 alphabet of RFC 4648 §4, each byte's 6-bit value; -1 for every other byte. */
const BASE64_VALUES = (() => {
  const values = new Int8Array(256).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let index = 0; index < alphabet.length; index++) values[alphabet.charCodeAt(index)] = index;
  return values;
})();

/**
 * Text from bytes already checked to be ASCII. Any decoder reads ASCII alike; one call keeps a long Token or
 * String linear (no string built a character at a time).
 */
const asciiDecoder = new TextDecoder();
/** RFC 9651 §4.2.10 decodes a Display String's octets as UTF-8 and fails if they are not: fatal, and a
 *  leading U+FEFF is a character of the string, not a byte order mark to drop. */
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The input_string of RFC 9651 §4.2, as a cursor over bytes[at, end). */
class Reader {
  constructor(
    readonly bytes: Uint8Array,
    public at: number,
    readonly end: number,
  ) {}

  /** The first byte of the remaining input, or END when none is left. */
  peek(): number {
    return this.at < this.end ? (this.bytes[this.at] as number) : END;
  }

  get empty(): boolean {
    return this.at >= this.end;
  }

  text(from: number, to: number): string {
    return asciiDecoder.decode(this.bytes.subarray(from, to));
  }

  /** "Discard any leading SP characters" (RFC 9651 §4.2, §4.2.1.2, §4.2.3.2). */
  skipSpaces(): void {
    while (this.at < this.end && this.bytes[this.at] === SP) this.at++;
  }

  /** "Discard any leading OWS characters" (RFC 9651 §4.2.2): SP and HTAB. */
  skipOptionalWhitespace(): void {
    while (this.at < this.end && (this.bytes[this.at] === SP || this.bytes[this.at] === HTAB)) this.at++;
  }
}

/**
 * bytes[start, end) parsed as a Dictionary (RFC 9651 §4.2 with field_type "dictionary": leading and
 * trailing SP discarded, §4.2.2); undefined when parsing fails. Insertion order kept; a repeated key's
 * last value wins, in the first key's place (RFC 9651 §4.2.2's ordered map semantics).
 *
 * RFC 9651 §4.2 first converts the bytes to ASCII and fails on any other byte. That step is implicit here: no
 * rule below accepts a byte above 0x7f, so one anywhere fails the parse where it stands.
 */
export function parseDictionary(bytes: Uint8Array, start = 0, end = bytes.length): Map<string, DictionaryMember> | undefined {
  const from = Math.max(0, Math.min(start, bytes.length));
  const reader = new Reader(bytes, from, Math.max(from, Math.min(end, bytes.length)));
  reader.skipSpaces();
  const dictionary = readDictionary(reader);
  if (dictionary === undefined) return undefined;
  reader.skipSpaces();
  return reader.empty ? dictionary : undefined;
}

/** RFC 9651 §4.2.2 Parsing a Dictionary. */
function readDictionary(reader: Reader): Map<string, DictionaryMember> | undefined {
  const dictionary = new Map<string, DictionaryMember>();
  while (!reader.empty) {
    const key = readKey(reader);
    if (key === undefined) return undefined;
    let member: DictionaryMember | undefined;
    if (reader.peek() === EQUALS) {
      reader.at++;
      member = readItemOrInnerList(reader);
    } else {
      // A key alone is Boolean true (RFC 9651 §4.2.2 step 2.3), with the parameters that follow it.
      const params = readParameters(reader);
      member = params === undefined ? undefined : { item: { type: 'boolean', value: true }, params };
    }
    if (member === undefined) return undefined;
    // Map.set keeps a repeated key where it first stood and gives it the last value: §4.2.2's "overwriting".
    dictionary.set(key, member);
    reader.skipOptionalWhitespace();
    if (reader.empty) return dictionary;
    if (reader.peek() !== COMMA) return undefined;
    reader.at++;
    reader.skipOptionalWhitespace();
    // A trailing comma is a failure (§4.2.2 step 2.9).
    if (reader.empty) return undefined;
  }
  return dictionary;
}

/** RFC 9651 §4.2.1.1 Parsing an Item or Inner List. */
function readItemOrInnerList(reader: Reader): DictionaryMember | undefined {
  return reader.peek() === OPEN_PAREN ? readInnerList(reader) : readItem(reader);
}

/** RFC 9651 §4.2.1.2 Parsing an Inner List: Items apart by SP (not HTAB), closed by ")", then parameters. */
function readInnerList(reader: Reader): InnerList | undefined {
  reader.at++; // the "(" readItemOrInnerList saw
  const inner: Item[] = [];
  while (!reader.empty) {
    reader.skipSpaces();
    if (reader.peek() === CLOSE_PAREN) {
      reader.at++;
      const params = readParameters(reader);
      return params === undefined ? undefined : { inner, params };
    }
    const item = readItem(reader);
    if (item === undefined) return undefined;
    inner.push(item);
    const next = reader.peek();
    if (next !== SP && next !== CLOSE_PAREN) return undefined;
  }
  return undefined; // no ")" before the end
}

/** RFC 9651 §4.2.3 Parsing an Item: a Bare Item, then its parameters. */
function readItem(reader: Reader): Item | undefined {
  const item = readBareItem(reader);
  if (item === undefined) return undefined;
  const params = readParameters(reader);
  return params === undefined ? undefined : { item, params };
}

/** RFC 9651 §4.2.3.1 Parsing a Bare Item: the first byte chooses the type. */
function readBareItem(reader: Reader): BareItem | undefined {
  const first = reader.peek();
  if (first === MINUS || isDigit(first)) return readNumber(reader);
  if (first === DQUOTE) return readString(reader);
  if (first === STAR || isAlpha(first)) return readToken(reader);
  if (first === COLON) return readByteSequence(reader);
  if (first === QUESTION) return readBoolean(reader);
  if (first === AT) return readDate(reader);
  if (first === PERCENT) return readDisplayString(reader);
  return undefined;
}

/** RFC 9651 §4.2.3.2 Parsing Parameters: `;key` or `;key=bare-item`, SP allowed after each ";". */
function readParameters(reader: Reader): Map<string, BareItem> | undefined {
  const params = new Map<string, BareItem>();
  while (reader.peek() === SEMICOLON) {
    reader.at++;
    reader.skipSpaces();
    // So a trailing ";" fails: a Key must follow it.
    const key = readKey(reader);
    if (key === undefined) return undefined;
    let value: BareItem | undefined = { type: 'boolean', value: true };
    if (reader.peek() === EQUALS) {
      reader.at++;
      value = readBareItem(reader);
      if (value === undefined) return undefined;
    }
    params.set(key, value);
  }
  return params;
}

/** RFC 9651 §4.2.3.3 Parsing a Key: lcalpha or "*", then key bytes. An uppercase letter fails. */
function readKey(reader: Reader): string | undefined {
  const first = reader.peek();
  if (!isLowerAlpha(first) && first !== STAR) return undefined;
  const from = reader.at++;
  while (reader.at < reader.end && isKeyByte(reader.bytes[reader.at] as number)) reader.at++;
  return reader.text(from, reader.at);
}

/** RFC 9651 §4.2.4 Parsing an Integer or Decimal, with its digit limits. */
function readNumber(reader: Reader): BareItem | undefined {
  let negative = false;
  if (reader.peek() === MINUS) {
    negative = true;
    reader.at++;
  }
  if (!isDigit(reader.peek())) return undefined;
  // The digits, as one integer (at most 15 digits: exact in a double), and where the "." was.
  let digits = 0;
  let characters = 0;
  let fractionDigits = -1; // -1 while an Integer
  for (;;) {
    const byte = reader.peek();
    if (isDigit(byte)) {
      digits = digits * 10 + (byte - 0x30);
      if (fractionDigits >= 0) fractionDigits++;
    } else if (byte === DOT && fractionDigits < 0) {
      if (characters > MAX_DECIMAL_INTEGER_DIGITS) return undefined;
      fractionDigits = 0;
    } else {
      break;
    }
    reader.at++;
    characters++;
    if (characters > (fractionDigits < 0 ? MAX_INTEGER_DIGITS : MAX_DECIMAL_CHARACTERS)) return undefined;
  }
  // -0 is 0: the sign of zero is a double's, not the RFC's.
  const sign = negative && digits !== 0 ? -1 : 1;
  if (fractionDigits < 0) return { type: 'integer', value: sign * digits };
  if (fractionDigits === 0 || fractionDigits > MAX_FRACTION_DIGITS) return undefined;
  // One division of two exact integers: the double nearest the decimal, as parseFloat would give.
  return { type: 'decimal', value: (sign * digits) / 10 ** fractionDigits };
}

/** RFC 9651 §4.2.5 Parsing a String: printable ASCII between DQUOTEs; `\` escapes only DQUOTE and `\`. */
function readString(reader: Reader): BareItem | undefined {
  reader.at++; // the DQUOTE readBareItem saw
  let value = '';
  let run = reader.at; // the start of the bytes not yet in `value`
  while (!reader.empty) {
    const byte = reader.bytes[reader.at] as number;
    if (byte === BACKSLASH) {
      const next = reader.at + 1 < reader.end ? reader.bytes[reader.at + 1] : END;
      if (next !== DQUOTE && next !== BACKSLASH) return undefined;
      value += reader.text(run, reader.at);
      run = reader.at + 1; // the escaped byte starts the next run
      reader.at += 2;
    } else if (byte === DQUOTE) {
      value += reader.text(run, reader.at);
      reader.at++;
      return { type: 'string', value };
    } else if (byte < 0x20 || byte > 0x7e) {
      return undefined;
    } else {
      reader.at++;
    }
  }
  return undefined; // no closing DQUOTE
}

/** RFC 9651 §4.2.6 Parsing a Token: ALPHA or "*", then tchar, ":" or "/". */
function readToken(reader: Reader): BareItem {
  const from = reader.at++; // readBareItem saw ALPHA or "*"
  while (reader.at < reader.end && isTokenByte(reader.bytes[reader.at] as number)) reader.at++;
  return { type: 'token', value: reader.text(from, reader.at) };
}

/**
 * RFC 9651 §4.2.7 Parsing a Byte Sequence: base64 between colons. The RFC asks parsers not to fail for
 * missing "=" padding, nor for non-zero pad bits, so both are read; "=" anywhere but at the end, more "="
 * than the data lacks, or a length no base64 has (one character past a group of four) fail.
 */
function readByteSequence(reader: Reader): BareItem | undefined {
  const from = ++reader.at; // past the ":" readBareItem saw
  while (reader.at < reader.end && reader.bytes[reader.at] !== COLON) reader.at++;
  if (reader.empty) return undefined; // no closing ":"
  const to = reader.at++;
  let dataEnd = to;
  while (dataEnd > from && reader.bytes[dataEnd - 1] === EQUALS) dataEnd--;
  const padding = to - dataEnd;
  const dataLength = dataEnd - from;
  if (dataLength % 4 === 1 || padding > (4 - (dataLength % 4)) % 4) return undefined;
  const value = new Uint8Array(Math.floor((dataLength * 3) / 4));
  let bits = 0;
  let bitCount = 0;
  let written = 0;
  for (let at = from; at < dataEnd; at++) {
    const sextet = BASE64_VALUES[reader.bytes[at] as number] as number;
    if (sextet < 0) return undefined; // not ALPHA, DIGIT, "+" or "/" (an "=" in the middle among them)
    bits = ((bits << 6) | sextet) & 0xffffff;
    bitCount += 6;
    if (bitCount >= 8) {
      bitCount -= 8;
      value[written++] = (bits >> bitCount) & 0xff;
    }
  }
  // The bits left over (bitCount < 8) are the pad bits, which are dropped whatever they hold.
  return { type: 'byte-sequence', value };
}

/** RFC 9651 §4.2.8 Parsing a Boolean: `?1` or `?0`. */
function readBoolean(reader: Reader): BareItem | undefined {
  reader.at++; // the "?" readBareItem saw
  const byte = reader.peek();
  if (byte !== 0x31 && byte !== 0x30) return undefined;
  reader.at++;
  return { type: 'boolean', value: byte === 0x31 };
}

/** RFC 9651 §4.2.9 Parsing a Date: "@" and an Integer (a Decimal fails), in seconds since the epoch. */
function readDate(reader: Reader): BareItem | undefined {
  reader.at++; // the "@" readBareItem saw
  const seconds = readNumber(reader);
  return seconds === undefined || seconds.type !== 'integer' ? undefined : { type: 'date', value: seconds.value };
}

/** RFC 9651 §4.2.10 Parsing a Display String: `%"…"`, octets as lowercase `%xx`, the whole UTF-8. */
function readDisplayString(reader: Reader): BareItem | undefined {
  reader.at++; // the "%" readBareItem saw
  if (reader.peek() !== DQUOTE) return undefined;
  reader.at++;
  const octets: number[] = [];
  while (!reader.empty) {
    const byte = reader.bytes[reader.at++] as number;
    if (byte < 0x20 || byte > 0x7e) return undefined;
    if (byte === PERCENT) {
      if (reader.end - reader.at < 2) return undefined;
      const high = lowerHexValue(reader.bytes[reader.at] as number);
      const low = lowerHexValue(reader.bytes[reader.at + 1] as number);
      if (high < 0 || low < 0) return undefined;
      octets.push((high << 4) | low);
      reader.at += 2;
    } else if (byte === DQUOTE) {
      try {
        return { type: 'display-string', value: utf8Decoder.decode(Uint8Array.from(octets)) };
      } catch {
        return undefined; // not UTF-8
      }
    } else {
      octets.push(byte);
    }
  }
  return undefined; // no closing DQUOTE
}

/** A lowercase hex digit's value (RFC 9651 §4.2.10 refuses "A"–"F"); -1 for any other byte. */
function lowerHexValue(byte: number): number {
  if (isDigit(byte)) return byte - 0x30;
  return byte >= 0x61 && byte <= 0x66 ? byte - 0x61 + 10 : -1;
}
