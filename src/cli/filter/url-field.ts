/**
 * Where a line's URL is, and which host's robots.txt decides it, read from the line's bytes.
 *
 * A URL is a byte range of the line when the shape allows (a whole line, a field, an access log's request
 * target), so that the common case builds no string for it; a JSON field, or a target with the log's backslash
 * escapes, is decoded and given as text. The host is read as the URL parser reads it (./host-name.ts) and names a robots.txt file in the
 * `--robots-dir` layout (./robots-file-name.ts): shared by http and https, with `_PORT` added for a port
 * other than the scheme's default (`example.com_8080`); for a default port, `host_443` / `host_80` is looked
 * for too, as some collections name them.
 */
import { readAuthority, readVhost, type HostReading } from './host-name.js';
import type { InputShape } from './options.js';
import { AT, BACKSLASH, COLON, HASH, OPEN_BRACKET, QUESTION, QUOTE, SLASH, SPACE, TAB } from '../../bytes.js';

/** Lines longer than this hold no URL a crawler would fetch: they are malformed (and never decoded). */
export const MAX_URL_LINE_BYTES = 64 * 1024;

/** A line's URL: bytes[start, end) of the batch, or `text` when it had to be decoded; `host` as above. */
export interface UrlField {
  start: number;
  end: number;
  text: string | undefined;
  /** The host's key (HostReading.key), or undefined for a path. */
  host: string | undefined;
  /** The scheme's default port when the URL uses it: the host's file may be named `host_PORT` too. */
  defaultPort: string | undefined;
  /** Where the host's robots.txt is fetched from (HostReading.origin). */
  origin: string | undefined;
}

/** A UrlField to read lines into. */
export function emptyField(): UrlField {
  return { start: 0, end: 0, text: undefined, host: undefined, defaultPort: undefined, origin: undefined };
}

/** Sets the field's host from a reading (none: a path, or a host the URL parser refuses). */
function setHost(field: UrlField, reading: HostReading | undefined): void {
  field.host = reading?.key;
  field.defaultPort = reading?.defaultPort;
  field.origin = reading?.origin;
}

function lower(byte: number): number {
  return byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte;
}

/** Where the authority starts after "http://" or "https://" (any case) at bytes[start], or -1 for another URL. */
function authorityStart(bytes: Uint8Array, start: number, end: number): number {
  // Byte by byte: this runs once a line.
  const isHttp =
    end - start >= 7 &&
    ((bytes[start] as number) | 0x20) === 0x68 &&
    ((bytes[start + 1] as number) | 0x20) === 0x74 &&
    ((bytes[start + 2] as number) | 0x20) === 0x74 &&
    ((bytes[start + 3] as number) | 0x20) === 0x70;
  const https = isHttp && ((bytes[start + 4] as number) | 0x20) === 0x73;
  const colon = start + (https ? 5 : 4);
  return isHttp && bytes[colon] === COLON && bytes[colon + 1] === SLASH && bytes[colon + 2] === SLASH && colon + 3 <= end ? colon + 3 : -1;
}

function isHttpUrl(bytes: Uint8Array, start: number, end: number): boolean {
  return authorityStart(bytes, start, end) >= 0;
}

/**
 * Reads the host of the URL in bytes[start, end) into `field`: none for anything but an http(s) URL whose
 * host the URL parser accepts (a path, another scheme, `example.com/x`, `http://bad host/`).
 */
function readHost(bytes: Uint8Array, start: number, end: number, field: UrlField): void {
  const at = authorityStart(bytes, start, end);
  if (at < 0) {
    setHost(field, undefined);
    return;
  }
  const https = at - start === 8;
  // One pass over the authority: where it ends, where the host starts (after any userinfo), and a hash of
  // the host and port, lower-cased, to find them again without building a string (a log repeats its hosts).
  const seed = https ? 0x811c9dc5 : 0x050c5d1f;
  let hash = seed;
  let hostStart = at;
  let authorityEnd = at;
  for (; authorityEnd < end; authorityEnd++) {
    const byte = bytes[authorityEnd] as number;
    if (byte === SLASH || byte === QUESTION || byte === HASH || byte === BACKSLASH) break;
    // A space or a control character: no host has one (`https://news example/`).
    if (byte <= SPACE || byte === 0x7f) {
      setHost(field, undefined);
      return;
    }
    if (byte === AT) {
      hostStart = authorityEnd + 1;
      hash = seed;
    } else {
      hash = Math.imul(hash ^ (byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte), 0x01000193);
    }
  }
  // 30 bits: a small integer as a map key, not a heap number.
  hash &= 0x3fffffff;
  for (let known = knownHosts.get(hash); known !== undefined; known = known.next) {
    if (sameAuthority(known, bytes, hostStart, authorityEnd, https)) {
      setHost(field, known.reading);
      return;
    }
  }
  const reading = readAuthority(authorityText(bytes, hostStart, authorityEnd), https);
  rememberHost(hash, bytes, hostStart, authorityEnd, https, reading);
  setHost(field, reading);
}

/** What an authority (host and port, after any userinfo) was read as, found again by its bytes. */
interface KnownHost {
  /** The authority's bytes, ASCII letters lower-cased. */
  readonly bytes: Uint8Array;
  readonly https: boolean;
  /** Undefined when the URL parser refuses the host. */
  readonly reading: HostReading | undefined;
  /** Another authority of the same hash. */
  readonly next: KnownHost | undefined;
}

/** Authorities remembered per thread; past this many, the table starts over (it is only a shortcut). */
const MAX_KNOWN_HOSTS = 1 << 16;
const knownHosts = new Map<number, KnownHost>();

function sameAuthority(known: KnownHost, bytes: Uint8Array, start: number, end: number, https: boolean): boolean {
  if (known.https !== https || known.bytes.length !== end - start) return false;
  for (let i = 0; i < known.bytes.length; i++) if (known.bytes[i] !== lower(bytes[start + i] as number)) return false;
  return true;
}

function rememberHost(hash: number, bytes: Uint8Array, start: number, end: number, https: boolean, reading: HostReading | undefined): void {
  if (knownHosts.size >= MAX_KNOWN_HOSTS) knownHosts.clear();
  const lowered = new Uint8Array(end - start);
  for (let i = 0; i < lowered.length; i++) lowered[i] = lower(bytes[start + i] as number);
  knownHosts.set(hash, { bytes: lowered, https, reading, next: knownHosts.get(hash) });
}

const utf8 = new TextDecoder();
const encoder = new TextEncoder();

/** An authority's bytes as text: by hand for ASCII (most hosts), by the decoder for the rest. */
function authorityText(bytes: Uint8Array, start: number, end: number): string {
  let text = '';
  for (let i = start; i < end; i++) {
    const byte = bytes[i] as number;
    if (byte >= 0x80) return utf8.decode(bytes.subarray(start, end));
    text += String.fromCharCode(byte);
  }
  return text;
}

/** The `n`th (1-based) field of bytes[start, end), split at `delimiter` (runs of spaces are one separator). */
function fieldRange(
  bytes: Uint8Array,
  start: number,
  end: number,
  n: number,
  delimiter: 'tab' | 'spaces' | number,
  field: UrlField,
): boolean {
  const separator = delimiter === 'tab' ? TAB : delimiter === 'spaces' ? SPACE : delimiter;
  let at = start;
  if (delimiter === 'spaces') while (at < end && bytes[at] === SPACE) at++;
  for (let index = 1; ; index++) {
    let fieldEnd = at;
    while (fieldEnd < end && bytes[fieldEnd] !== separator) fieldEnd++;
    if (index === n) {
      field.start = at;
      field.end = fieldEnd;
      return true;
    }
    if (fieldEnd === end) return false;
    at = fieldEnd + 1;
    if (delimiter === 'spaces') while (at < end && bytes[at] === SPACE) at++;
  }
}

function jsonField(bytes: Uint8Array, start: number, end: number, key: readonly string[], field: UrlField): boolean {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(bytes.subarray(start, end)));
  } catch {
    return false;
  }
  for (const part of key) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, part)) return false;
    value = (value as Record<string, unknown>)[part];
  }
  if (typeof value !== 'string') return false;
  field.text = value;
  return true;
}

/** The backslash escape at bytes[at] of an access log (Apache's `\"`, `\\`, `\n`…; `\xHH`): its byte and length. */
function escapedByte(bytes: Uint8Array, at: number, end: number): { byte: number; length: number } | undefined {
  const next = bytes[at + 1];
  if (at + 1 >= end || next === undefined) return undefined;
  const simple = ESCAPES.get(next);
  if (simple !== undefined) return { byte: simple, length: 2 };
  if (next !== 0x78 || at + 3 >= end) return undefined;
  const hex = String.fromCharCode(bytes[at + 2] as number, bytes[at + 3] as number);
  return /^[0-9A-Fa-f]{2}$/.test(hex) ? { byte: Number.parseInt(hex, 16), length: 4 } : undefined;
}

/** `\b \n \r \t \v \\ \"`, as Apache's log escaping writes them. */
const ESCAPES = new Map([
  [0x62, 0x08],
  [0x6e, 0x0a],
  [0x72, 0x0d],
  [0x74, 0x09],
  [0x76, 0x0b],
  [BACKSLASH, BACKSLASH],
  [QUOTE, QUOTE],
]);

/** A request target as it was sent: the log's escapes (which only a backslash starts) undone, as text. */
function unescapedTarget(bytes: Uint8Array, start: number, end: number): string {
  const out: number[] = [];
  for (let at = start; at < end; at++) {
    const escape = bytes[at] === BACKSLASH ? escapedByte(bytes, at, end) : undefined;
    if (escape === undefined) out.push(bytes[at] as number);
    else {
      out.push(escape.byte);
      at += escape.length - 1;
    }
  }
  return utf8.decode(Uint8Array.from(out));
}

/**
 * An access log line: Apache/nginx combined or common (CLF), `client ident user [date] "request" status
 * bytes` and, combined, `"referer" "user-agent"`; or vhost_combined / vhost_common, with the vhost
 * (`host[:port]`) first. The URL is the request's target (`"METHOD target HTTP/x"`, escaped quotes and all):
 * in origin-form (`/path?q`), with the host from --host, else the vhost field; in absolute-form
 * (`http://shop.example/cart`), whose own host decides, as RFC 9112 §3.2.2 says. Any other target
 * (`*`, `host:443`, not a URL) and a line with no request are malformed (false). The host is set when one
 * is known and the URL parser accepts it.
 */
function accessLogField(bytes: Uint8Array, start: number, end: number, field: UrlField, host: string | undefined): boolean {
  // The fields before the [date] (three, or four with the vhost first); the request is the first quoted field.
  let quote = start;
  let fieldsBefore = 0;
  let inField = false;
  for (; quote < end && bytes[quote] !== QUOTE; quote++) {
    const byte = bytes[quote] as number;
    if (byte === SPACE) inField = false;
    else if (!inField) {
      inField = true;
      // The [date]: its quotes-free text runs on to the request.
      if (byte === OPEN_BRACKET && fieldsBefore > 0) break;
      fieldsBefore++;
    }
  }
  while (quote < end && bytes[quote] !== QUOTE) quote++;
  // "METHOD target[ HTTP/x]": a backslash escapes the byte after it, a quote ends it.
  const methodStart = quote + 1;
  let at = methodStart;
  while (at < end && bytes[at] !== SPACE && bytes[at] !== QUOTE) at += bytes[at] === BACKSLASH ? 2 : 1;
  if (at >= end || bytes[at] !== SPACE || at === methodStart) return false;
  const targetStart = at + 1;
  let escaped = false;
  at = targetStart;
  while (at < end && bytes[at] !== SPACE && bytes[at] !== QUOTE) {
    if (bytes[at] === BACKSLASH) {
      escaped = true;
      at++;
    }
    at++;
  }
  const targetEnd = Math.min(at, end);
  if (targetEnd === targetStart) return false;
  field.start = targetStart;
  field.end = targetEnd;
  if (escaped) field.text = unescapedTarget(bytes, targetStart, targetEnd);
  if (bytes[targetStart] !== SLASH) {
    // Absolute-form, or malformed.
    if (!isHttpUrl(bytes, targetStart, targetEnd)) return false;
    if (field.text === undefined) readHost(bytes, targetStart, targetEnd, field);
    else {
      const encoded = encoder.encode(field.text);
      readHost(encoded, 0, encoded.length, field);
    }
    return true;
  }
  let vhost = host;
  if (vhost === undefined && fieldsBefore === 4) {
    // vhost_combined: "%v:%p %h %l %u %t …"
    let vhostEnd = start;
    while (vhostEnd < end && bytes[vhostEnd] !== SPACE) vhostEnd++;
    vhost = authorityText(bytes, start, vhostEnd);
  }
  setHost(field, vhost === undefined ? undefined : readVhost(vhost));
  return true;
}

/**
 * Reads the URL of the line bytes[start, end) into `field`. False when the line holds none (malformed):
 * an empty line or field, a line over MAX_URL_LINE_BYTES, no such field, not JSON, an access log line with
 * no request or a target that is not a path or an http(s) URL; and, when `needsHost` (one robots.txt per
 * host), no http(s) host that the URL parser accepts. Else, one robots.txt for every URL, any other text is
 * a URL: it is decided as the library's rules.isAllowed() reads that string (`example.com/a`, `ftp://x/a`).
 */
export function readUrlField(
  bytes: Uint8Array,
  start: number,
  end: number,
  shape: InputShape,
  needsHost: boolean,
  field: UrlField,
): boolean {
  field.text = undefined;
  field.start = start;
  field.end = end;
  if (end - start > MAX_URL_LINE_BYTES) return false;
  switch (shape.kind) {
    case 'line':
      break;
    case 'field':
      if (!fieldRange(bytes, start, end, shape.field, shape.delimiter, field)) return false;
      break;
    case 'json': {
      if (!jsonField(bytes, start, end, shape.key, field)) return false;
      const encoded = encoder.encode(field.text);
      if (encoded.length === 0) return false;
      readHost(encoded, 0, encoded.length, field);
      return !needsHost || field.host !== undefined;
    }
    case 'access':
      if (!accessLogField(bytes, start, end, field, shape.host)) return false;
      return !needsHost || field.host !== undefined;
  }
  if (field.end === field.start) return false;
  readHost(bytes, field.start, field.end, field);
  return !needsHost || field.host !== undefined;
}
