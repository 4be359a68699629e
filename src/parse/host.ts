/**
 * Yandex's `Host` directive: the main mirror of the site, written as a domain name with an optional
 * port and an optional `https://` (Yandex docs: "Host directive"). A malformed value is ignored, so
 * the parser is strict and returns `undefined` for anything it cannot be sure of.
 */

const MAX_HOSTNAME_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;

// Longer than any valid value could be even before IDNA mapping; stops huge inputs before the URL parser.
const MAX_VALUE_LENGTH = 1024;

const SCHEME = /^(https?):\/\//i;
const PORT = /^\d{1,5}$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const NUMERIC_LABEL = /^(?:\d+|0x[0-9a-f]*)$/;

// ASCII that may appear in a host as written; anything else ASCII (`/`, `?`, `@`, `%`, `_`, space, …)
// is rejected before the URL parser could read it as a delimiter, decode it or tolerate it.
const ASCII_HOST_CHARS = /^[A-Za-z0-9.-]+$/;
const NON_ASCII = /[^\x00-\x7f]/;

function isValidHostname(hostname: string): boolean {
  if (hostname.length > MAX_HOSTNAME_LENGTH) return false;
  const labels = hostname.split('.');
  // Yandex rejects IP addresses, and the WHATWG parser reads any name whose last label looks numeric
  // as IPv4, so a numeric last label is never a domain name.
  const last = labels[labels.length - 1] ?? '';
  if (NUMERIC_LABEL.test(last)) return false;
  return labels.every((label) => label.length <= MAX_LABEL_LENGTH && LABEL.test(label));
}

/** The ASCII (punycode) form of `hostname`, or `undefined` when it is not a valid domain name. */
function toAsciiHostname(hostname: string): string | undefined {
  // Plain ASCII names need no IDNA: the URL parser would only lower-case them. Only `xn--` labels must
  // go through it, because it is what checks that they decode. (One regular expression for the whole
  // name: a file of thousands of Host lines must parse in linear time, and fast.)
  if (ASCII_HOST_CHARS.test(hostname) && !/xn--/i.test(hostname)) {
    const ascii = hostname.toLowerCase();
    return isValidHostname(ascii) ? ascii : undefined;
  }
  // Only the ASCII characters are checked here: non-ASCII ones go to IDNA, whose result is
  // validated again below, so full-width dots or digits cannot sneak past as something else.
  for (const char of hostname) {
    if (!NON_ASCII.test(char) && !ASCII_HOST_CHARS.test(char)) return undefined;
  }
  let ascii: string;
  try {
    // ASCII names go through IDNA too, because it is what checks that an `xn--` label decodes.
    ascii = new URL(`http://${hostname}`).hostname;
  } catch {
    return undefined;
  }
  return isValidHostname(ascii) ? ascii : undefined;
}

/**
 * The main mirror named by a `Host` value, lower-cased, with international names in punycode.
 * `https://` is kept because it says the mirror is the https one; `http://` and default ports
 * (80 for http, 443 for https) are dropped because they say nothing. IP addresses are rejected,
 * as Yandex asks for "one valid domain name ... not an IP address".
 *
 * @example parseHost('Example.COM:8080')     // 'example.com:8080'
 * @example parseHost('https://example.com')  // 'https://example.com'
 * @example parseHost('example.com/path')     // undefined
 */
export function parseHost(value: string): string | undefined {
  if (value.length === 0 || value.length > MAX_VALUE_LENGTH) return undefined;
  let rest = value;
  let secure = false;
  const scheme = SCHEME.exec(rest);
  if (scheme !== null) {
    secure = scheme[1]?.toLowerCase() === 'https';
    rest = rest.slice(scheme[0].length);
  }

  let port = '';
  const colon = rest.indexOf(':');
  if (colon >= 0) {
    const digits = rest.slice(colon + 1);
    if (!PORT.test(digits)) return undefined;
    const number = Number(digits);
    if (number < 1 || number > 65535) return undefined;
    const isDefault = number === (secure ? 443 : 80);
    port = isDefault ? '' : `:${number}`;
    rest = rest.slice(0, colon);
  }

  const hostname = toAsciiHostname(rest);
  if (hostname === undefined) return undefined;
  return `${secure ? 'https://' : ''}${hostname}${port}`;
}
