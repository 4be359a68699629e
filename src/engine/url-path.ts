/**
 * Finds what robots.txt rules are matched against in a URL: its path, params and query, without the
 * fragment, always starting with `/`. This is Google's GetPathParamsQuery on bytes, so that absolute
 * URLs, scheme-less URLs (`example.com/a`) and bare paths (`/a?b`) are all accepted and anything else
 * still gives a path (`""` and `"a"` give `/`). The WebAssembly matcher does the same in assembly/url-path.ts.
 */
import { HASH, SLASH } from '../bytes.js';

function isPathStart(byte: number): boolean {
  return byte === SLASH || byte === 0x3f /* ? */ || byte === 0x3b; /* ; */
}

function pathStartFrom(bytes: Uint8Array, from: number, length: number): number {
  for (let i = from; i < length; i++) if (isPathStart(bytes[i] as number)) return i;
  return length;
}

function hashFrom(bytes: Uint8Array, from: number, length: number): number {
  for (let i = from; i < length; i++) if (bytes[i] === HASH) return i;
  return length;
}

function findSchemeSeparator(bytes: Uint8Array, from: number, length: number): number {
  for (let i = from; i + 3 <= length; i++) {
    if (bytes[i] === 0x3a && bytes[i + 1] === SLASH && bytes[i + 2] === SLASH) return i;
  }
  return length;
}

const ROOT = Uint8Array.of(SLASH);

/** Where the path, params and query of url[0, length) (UTF-8 bytes) start, or -1 when it has none. */
function pathStart(url: Uint8Array, length: number): number {
  const searchStart = length >= 2 && url[0] === SLASH && url[1] === SLASH ? 2 : 0;
  const earlyPath = pathStartFrom(url, searchStart, length);
  let protocolEnd = findSchemeSeparator(url, searchStart, length);
  if (earlyPath < protocolEnd) protocolEnd = length;
  protocolEnd = protocolEnd >= length ? searchStart : protocolEnd + 3;

  const start = pathStartFrom(url, protocolEnd, length);
  if (start >= length) return -1;
  // A `#` before the path starts the fragment: there is no path.
  return hashFrom(url, searchStart, start) < start ? -1 : start;
}

/**
 * The path, params and query of the URL in url[0, length) (UTF-8 bytes), starting with `/`: a view of `url`
 * where it has its own `/`.
 */
export function pathParamsQueryOf(url: Uint8Array, length: number): Uint8Array {
  const start = pathStart(url, length);
  return start < 0 ? ROOT : withLeadingSlash(url.subarray(start, hashFrom(url, start, length)));
}

/** The path, params and query of `url` (UTF-8 bytes), starting with `/`. */
export function pathParamsQuery(url: Uint8Array): Uint8Array {
  return pathParamsQueryOf(url, url.length);
}

/** `path` as rules see it: with a leading `/` (added when missing, so that `""` is `/`). */
export function withLeadingSlash(path: Uint8Array): Uint8Array {
  if (path[0] === SLASH) return path;
  const withSlash = new Uint8Array(path.length + 1);
  withSlash[0] = SLASH;
  withSlash.set(path, 1);
  return withSlash;
}
