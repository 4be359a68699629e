/**
 * How the lab server answers, whatever it answers: the headers every response carries, and the plain and
 * JSON bodies of its statuses. No response carries an Access-Control-* header: the page and its API share
 * one origin, and no other origin may read either.
 */
import type { ServerResponse } from 'node:http';

/**
 * The page's policy: its own scripts and the engine's WebAssembly (compiled from bytes, which CSP calls
 * wasm-unsafe-eval), inline styles (the editor sets style attributes), data: images, requests to this
 * server only; never framed, no <base>, no form posted anywhere.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * On every response: no content sniffing (a file is what its type says), no Referer that would carry the
 * token to another site, and no cross-origin page may load a response as a script or image.
 */
const EVERY_RESPONSE: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

/**
 * Writes a whole response. For HEAD, node:http sends the headers (Content-Length included) and drops the
 * body. `cache` is the Cache-Control value: the lab's files are checked again on each load (no-cache),
 * the rest is never stored.
 */
export function send(
  response: ServerResponse,
  status: number,
  type: string,
  body: string | Uint8Array,
  headers: Readonly<Record<string, string>> = {},
  cache = 'no-store',
): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  response.writeHead(status, {
    ...EVERY_RESPONSE,
    'cache-control': cache,
    'content-type': type,
    'content-length': String(bytes.byteLength),
    ...headers,
  });
  response.end(bytes);
}

/** A status with a short text and nothing else: no path, no token, no detail of why. */
export function sendStatus(response: ServerResponse, status: number, text: string, headers: Readonly<Record<string, string>> = {}): void {
  send(response, status, 'text/plain; charset=utf-8', `${text}\n`, headers);
}

/** The API's answers: JSON, never stored. */
export function sendJson(response: ServerResponse, status: number, value: unknown, headers: Readonly<Record<string, string>> = {}): void {
  send(response, status, 'application/json; charset=utf-8', JSON.stringify(value), headers);
}
