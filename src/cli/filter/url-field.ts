/**
 * Where a line's URL is, and which host's robots.txt decides it, read from the line's bytes.
 *
 * A URL is a byte range of the line when the shape allows (a whole line, a field, an access log's request
 * path), so that the common case builds no string for it; a JSON field is decoded (escapes), and given as
 * text. The host is read as the URL parser reads it (./host-name.ts) and names a robots.txt file in the
 * `--robots-dir` layout (./robots-file-name.ts): shared by http and https, with `_PORT` added for a port
 * other than the scheme's default (`example.com_8080`); for a default port, `host_443` / `host_80` is looked
 * for too, as some collections name them.
 */
import { readAuthority, readVhost, type HostReading } from './host-name.js';
import type { InputShape } from './options.js';

/** Lines longer than this hold no URL a crawler would fetch: they are malformed (and never decoded). */
export const MAX_URL_LINE_BYTES = 64 * 1024;

const SLASH = 0x2f;
const COLON = 0x3a;
const QUESTION = 0x3f;
const HASH = 0x23;
const AT = 0x40;
const TAB = 0x09;
const SPACE = 0x20;
const QUOTE = 0x22;

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

/** Sets the field's host from a reading; false when there is none (the URL parser refused the host). */
function setHost(field: UrlField, reading: HostReading | undefined): boolean {
  field.host = reading?.key;
  field.defaultPort = reading?.defaultPort;
  field.origin = reading?.origin;
  return reading !== undefined;
}

function lower(byte: number): number {
  return byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte;
}

/**
 * Reads the host of the URL in bytes[start, end) into `field`: none for a path (no scheme and authority);
 * false (malformed) for a scheme other than http(s), or a host the URL parser refuses.
 */
function readHost(bytes: Uint8Array, start: number, end: number, field: UrlField): boolean {
  // "http://" or "https://" in any case, byte by byte: this runs once a line.
  const isHttp =
    end - start >= 7 &&
    ((bytes[start] as number) | 0x20) === 0x68 &&
    ((bytes[start + 1] as number) | 0x20) === 0x74 &&
    ((bytes[start + 2] as number) | 0x20) === 0x74 &&
    ((bytes[start + 3] as number) | 0x20) === 0x70;
  const https = isHttp && ((bytes[start + 4] as number) | 0x20) === 0x73;
  const colon = start + (https ? 5 : 4);
  if (!(isHttp && bytes[colon] === COLON && bytes[colon + 1] === SLASH && bytes[colon + 2] === SLASH && colon + 3 <= end)) {
    setHost(field, undefined);
    return bytes[start] === SLASH;
  }
  const at = colon + 3;
  // One pass over the authority: where it ends, where the host starts (after any userinfo), and a hash of
  // the host and port, lower-cased, to find them again without building a string (a log repeats its hosts).
  const seed = https ? 0x811c9dc5 : 0x050c5d1f;
  let hash = seed;
  let hostStart = at;
  let authorityEnd = at;
  for (; authorityEnd < end; authorityEnd++) {
    const byte = bytes[authorityEnd] as number;
    if (byte === SLASH || byte === QUESTION || byte === HASH || byte === 0x5c) break;
    // A space or a control character: no host has one (`https://news example/`).
    if (byte <= SPACE || byte === 0x7f) return false;
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
    if (sameAuthority(known, bytes, hostStart, authorityEnd, https)) return setHost(field, known.reading);
  }
  const reading = readAuthority(authorityText(bytes, hostStart, authorityEnd), https);
  rememberHost(hash, bytes, hostStart, authorityEnd, https, reading);
  return setHost(field, reading);
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
    value = JSON.parse(new TextDecoder().decode(bytes.subarray(start, end)));
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

/**
 * An access log line (Apache/nginx "combined", or "vhost_combined" with `vhost[:port]` first): the request
 * path of the first quoted field, and the vhost when there is one.
 */
function accessLogField(bytes: Uint8Array, start: number, end: number, field: UrlField, host: string | undefined): boolean {
  let quote = start;
  let fieldsBefore = 0;
  let inField = false;
  while (quote < end && bytes[quote] !== QUOTE) {
    const byte = bytes[quote] as number;
    if (byte === 0x5b) break; // the [date] field: the request is the quoted field after it
    if (byte === SPACE) inField = false;
    else if (!inField) {
      inField = true;
      fieldsBefore++;
    }
    quote++;
  }
  while (quote < end && bytes[quote] !== QUOTE) quote++;
  if (quote === end) return false;
  // "METHOD /path HTTP/x": the second token.
  let at = quote + 1;
  while (at < end && bytes[at] !== SPACE && bytes[at] !== QUOTE) at++;
  if (bytes[at] !== SPACE) return false;
  const pathStart = at + 1;
  let pathEnd = pathStart;
  while (pathEnd < end && bytes[pathEnd] !== SPACE && bytes[pathEnd] !== QUOTE) pathEnd++;
  if (pathEnd === pathStart || bytes[pathStart] !== SLASH) return false;
  field.start = pathStart;
  field.end = pathEnd;
  let vhost = host;
  if (vhost === undefined && fieldsBefore === 4) {
    // vhost_combined: "%v:%p %h %l %u %t …"
    let vhostEnd = start;
    while (vhostEnd < end && bytes[vhostEnd] !== SPACE) vhostEnd++;
    vhost = authorityText(bytes, start, vhostEnd);
  }
  if (vhost === undefined) {
    setHost(field, undefined);
    return true;
  }
  return setHost(field, readVhost(vhost));
}

/**
 * Reads the URL of the line bytes[start, end) into `field`. False when the line holds none (malformed): too
 * long, no such field, not an http(s) URL or a path, no host where one is needed.
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
      const encoded = new TextEncoder().encode(field.text);
      if (encoded.length === 0 || !readHost(encoded, 0, encoded.length, field)) return false;
      return !needsHost || field.host !== undefined;
    }
    case 'access':
      if (!accessLogField(bytes, start, end, field, shape.host)) return false;
      return !needsHost || field.host !== undefined;
  }
  if (field.end === field.start || !readHost(bytes, field.start, field.end, field)) return false;
  return !needsHost || field.host !== undefined;
}
