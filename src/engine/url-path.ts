/**
 * Finds what robots.txt rules are matched against in a URL: its path, params and query, without the
 * fragment, always starting with `/`. This is Google's GetPathParamsQuery on bytes, so that absolute
 * URLs, scheme-less URLs (`example.com/a`) and bare paths (`/a?b`) are all accepted and anything else
 * still gives a path (`""` and `"a"` give `/`). The WebAssembly matcher does the same in assembly/url.ts.
 */

const SLASH = 0x2f;
const HASH = 0x23;

function isPathStart(byte: number): boolean {
  return byte === SLASH || byte === 0x3f /* ? */ || byte === 0x3b; /* ; */
}

function findFrom(bytes: Uint8Array, from: number, test: (byte: number) => boolean): number {
  for (let i = from; i < bytes.length; i++) if (test(bytes[i] as number)) return i;
  return bytes.length;
}

function findSchemeSeparator(bytes: Uint8Array, from: number): number {
  for (let i = from; i + 3 <= bytes.length; i++) {
    if (bytes[i] === 0x3a && bytes[i + 1] === SLASH && bytes[i + 2] === SLASH) return i;
  }
  return bytes.length;
}

const ROOT = Uint8Array.of(SLASH);

/** The path, params and query of `url` (UTF-8 bytes), starting with `/`. */
export function pathParamsQuery(url: Uint8Array): Uint8Array {
  const length = url.length;
  const searchStart = length >= 2 && url[0] === SLASH && url[1] === SLASH ? 2 : 0;
  const earlyPath = findFrom(url, searchStart, isPathStart);
  let protocolEnd = findSchemeSeparator(url, searchStart);
  if (earlyPath < protocolEnd) protocolEnd = length;
  protocolEnd = protocolEnd >= length ? searchStart : protocolEnd + 3;

  const pathStart = findFrom(url, protocolEnd, isPathStart);
  if (pathStart >= length) return ROOT;
  const hash = findFrom(url, searchStart, (byte) => byte === HASH);
  if (hash < pathStart) return ROOT;
  return withLeadingSlash(url.subarray(pathStart, hash));
}

/** `path` as rules see it: with a leading `/` (added when missing, so that `""` is `/`). */
export function withLeadingSlash(path: Uint8Array): Uint8Array {
  if (path[0] === SLASH) return path;
  const withSlash = new Uint8Array(path.length + 1);
  withSlash[0] = SLASH;
  withSlash.set(path, 1);
  return withSlash;
}
