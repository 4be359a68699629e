/**
 * Who the lab server answers. It listens on 127.0.0.1, but any web page the person opens can make their
 * browser send requests there, and a name the page's site controls can be made to resolve to 127.0.0.1
 * (DNS rebinding). So a request is answered only when it names this server as its host, comes from no
 * other origin, and knows the token printed when the command started, which no other page can read.
 * https://fetch.spec.whatwg.org/#http-origin, https://www.w3.org/TR/fetch-metadata/#sec-fetch-site-header
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** A new token for one run: 24 random bytes, 32 base64url characters. */
export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Whether `given` is `token`, compared in constant time: how long a refusal takes says nothing of the token. */
export function tokenMatches(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Why a request is refused before anything else is read of it: its status (421 or 403), or undefined.
 * `originRequired`: for the API, which a browser calls with an Origin (it sends one on every POST), so a
 * request without one is no page's of this server.
 */
export function refusedStatus(headers: IncomingHttpHeaders, port: number, originRequired: boolean): 421 | 403 | undefined {
  const host = headers.host?.toLowerCase();
  // A rebound name arrives with its own Host: only this server's own names are answered.
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return 421;
  const origin = headers.origin;
  if (origin === undefined ? originRequired : origin.toLowerCase() !== `http://${host}`) return 403;
  // `none` is the person's own navigation (the address typed or pasted); anything else is another page's.
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return 403;
  return undefined;
}
