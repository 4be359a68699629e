/**
 * A URL's host as `filter` reads it, both to find the host's file in a `--robots-dir` folder and to fetch it
 * (`--fetch`): as the WHATWG URL parser reads it (https://url.spec.whatwg.org/#host-parsing), so that a line
 * is decided by the file of the host that fetch() and `robotstxt check` would ask. That is lower case,
 * percent-decoded, international names in punycode (`bücher.de` is `xn--bcher-kva.de`), IPv4 addresses in
 * dotted decimal (`0x7f.1` is `127.0.0.1`), IPv6 in brackets, and the root's trailing dot removed
 * (`example.com.` names the same host as `example.com`, RFC 1034 §3.1; `a..` keeps its dots: it has an
 * empty label). The origin made of it reads back, in the URL parser, as itself. A host the parser refuses
 * (`a%2Fb`, `256.1.1.1`, `[::1`, `xn--a`) is no host: its line is malformed.
 *
 * Most hosts in a log are plain lower-case ASCII names, which the parser leaves as they are (but for case):
 * those are read here without it. Anything the parser may change or refuse goes through it: a byte outside
 * letters, digits, `-`, `_` and `.` (a percent escape, non-ASCII, brackets), a trailing or doubled dot, a
 * punycode label (`xn--`, which must decode) and a last label that starts with a digit (an IPv4 address in
 * any of the forms the parser reads).
 */

/** A host's reading: the key its robots.txt is known by, and the origin its robots.txt is fetched from. */
export interface HostReading {
  /** The host, and `_PORT` for a port other than the scheme's default: `example.com`, `example.com_8080`. */
  readonly key: string;
  /** The scheme's default port when the URL uses it (the host's file may then be named `host_PORT` too). */
  readonly defaultPort: '80' | '443' | undefined;
  /** `http://example.com`, `https://[::1]:8443`: scheme, host as read above, and a port other than the default. */
  readonly origin: string;
}

/** Plain names: ASCII letters, digits, `-` and `_` in labels joined by single dots. */
const PLAIN_NAME = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;
const PUNYCODE_LABEL = /(?:^|\.)xn--/;
/** What ends an authority, or is in none: the parser would read the rest as a path, userinfo or nothing. */
const NOT_IN_AUTHORITY = /[\x00-\x20\x7f/?#\\@]/;

/**
 * The reading of an authority's host and port (`Example.COM:8080`, no userinfo) for a URL of the scheme
 * (`secure`: https), or undefined when the URL parser refuses it.
 */
export function readAuthority(authority: string, secure: boolean): HostReading | undefined {
  const scheme = secure ? 'https' : 'http';
  const defaultPort = secure ? '443' : '80';
  const colon = authority.indexOf(':');
  // Tested before lower-casing: toLowerCase() makes ASCII of some other letters (the Kelvin sign is `k`).
  const written = colon < 0 ? authority : authority.slice(0, colon);
  const name = written.toLowerCase();
  const portText = colon < 0 ? '' : authority.slice(colon + 1);
  let hostname: string;
  let port: string;
  if (
    PLAIN_NAME.test(written) &&
    !PUNYCODE_LABEL.test(name) &&
    !startsWithDigit(name, name.lastIndexOf('.') + 1) &&
    /^\d*$/.test(portText)
  ) {
    const number = portText === '' ? undefined : Number(portText);
    if (number !== undefined && number > 65535) return undefined;
    hostname = name;
    port = number === undefined || String(number) === defaultPort ? '' : String(number);
  } else {
    if (NOT_IN_AUTHORITY.test(authority)) return undefined;
    let url: URL;
    try {
      url = new URL(`${scheme}://${authority}/`);
    } catch {
      return undefined;
    }
    // The root alone names no host. Only the root's dot goes: `a.9..` has an empty label, and `a.9.` (read
    // again) would be an IPv4 address.
    if (url.hostname === '.') return undefined;
    hostname = /[^.]\.$/.test(url.hostname) ? url.hostname.slice(0, -1) : url.hostname;
    port = url.port;
  }
  return {
    key: port === '' ? hostname : `${hostname}_${port}`,
    defaultPort: port === '' ? defaultPort : undefined,
    origin: `${scheme}://${hostname}${port === '' ? '' : `:${port}`}`,
  };
}

/** Vhosts read so far (a log names a few, on every line); past MAX_KNOWN_VHOSTS, the table starts over. */
const knownVhosts = new Map<string, HostReading | undefined>();
const MAX_KNOWN_VHOSTS = 1 << 16;

/**
 * The reading of an access log's vhost (`host[:port]`), or undefined when the URL parser refuses it. A log
 * line names no scheme: port 443 is https's default, any other port names itself over http.
 */
export function readVhost(vhost: string): HostReading | undefined {
  if (knownVhosts.has(vhost)) return knownVhosts.get(vhost);
  if (knownVhosts.size >= MAX_KNOWN_VHOSTS) knownVhosts.clear();
  const reading = readAuthority(vhost, /:0*443$/.test(vhost));
  knownVhosts.set(vhost, reading);
  return reading;
}

function startsWithDigit(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return code >= 0x30 && code <= 0x39;
}
