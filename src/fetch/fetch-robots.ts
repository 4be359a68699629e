/**
 * One robots.txt fetch by the standard, without any cache: redirects followed by hand, the body read up to
 * maxBytes, one deadline for all of it, and every network event turned into an outcome, never an exception.
 * RFC 9309 §2.3.1, §2.5; https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt
 */
import { parseFetchedRobotsTxt } from '../api/robots-txt.js';
import type { ResponseShape, URLInput } from '../api/web-types.js';
import { responseMaxAge } from './cache-control.js';
import { isHostRefusal } from './host-policy.js';
import { profileNamed } from '../profile.js';
import { resolveFetchOptions, type FetchRobotsOptions, type ResolvedFetchOptions } from './options.js';
import { robotsLocation, type RobotsLocation } from './origin.js';
import {
  outcomeOf,
  reasonForStatus,
  type RobotsFetchReason,
  type RobotsFetchResult,
  type RobotsFetchRules,
  type RobotsFetchVerdict,
} from './outcome.js';
import { readLimited, type LimitedRead } from './read-body.js';
import { retryAfterSeconds } from './retry-after.js';

/** Redirects followed; the next one counts as a 4xx (RFC 9309 §2.3.1.2: "at least five"). */
export const MAX_REDIRECTS = 5;

/** What a conditional request sends: the validators of the copy held, and the URL that copy came from. */
export interface Validators {
  readonly url: string;
  readonly etag: string | undefined;
  readonly lastModified: string | undefined;
}

/** A conditional request answered 304: the copy held is still good. */
export interface NotModified {
  readonly outcome: 'not-modified';
  readonly status: 304;
  readonly maxAge: number | undefined;
  readonly etag: string | undefined;
  readonly lastModified: string | undefined;
}

/**
 * @internal A fetch as RobotsCache keeps it: the result, and the bytes read when a body was parsed (the
 * first maxBytes bytes, and the one after them when there were more), to parse again on demand.
 */
export interface FetchAttempt<Result> {
  readonly result: Result;
  readonly body?: Uint8Array;
}

/** What is known so far, for the result a timeout produces in the middle of it all. */
interface Progress {
  url: string;
  redirects: number;
  status: number;
  contentType: string | undefined;
  maxAge: number | undefined;
  retryAfter: number | undefined;
  etag: string | undefined;
  lastModified: string | undefined;
}

/** Progress before the first request. */
const NOTHING_YET: Omit<Progress, 'url'> = {
  redirects: 0,
  status: 0,
  contentType: undefined,
  maxAge: undefined,
  retryAfter: undefined,
  etag: undefined,
  lastModified: undefined,
};

const HTML_START = /^[\t\n\f\r ]*<(?:!doctype[\t\n\f\r ]+html|html|head|body|title|meta|script|!--)/i;

function looksLikeHtml(contentType: string | undefined, body: Uint8Array): boolean {
  if (contentType !== undefined && /^\s*(?:text\/html|application\/xhtml\+xml)\b/i.test(contentType)) return true;
  let start = 0;
  while (start < 3 && body[start] === [0xef, 0xbb, 0xbf][start]) start++;
  return HTML_START.test(String.fromCharCode(...body.subarray(start, start + 64)));
}

/** Whether a custom fetch gave something this module can read as a Response. */
function isResponse(value: unknown): value is ResponseShape {
  if (typeof value !== 'object' || value === null) return false;
  const response = value as Partial<Record<keyof ResponseShape, unknown>>;
  const headers = response.headers as { get?: unknown } | null | undefined;
  const body = response.body as { getReader?: unknown } | null | undefined;
  return (
    typeof response.status === 'number' &&
    typeof headers === 'object' &&
    headers !== null &&
    typeof headers.get === 'function' &&
    (body === null || body === undefined || typeof body.getReader === 'function')
  );
}

/** Lets the connection go without reading what is left of a body. */
function discard(response: ResponseShape): void {
  response.body?.cancel().catch(() => undefined);
}

/** `url` as it may be requested and reported: no credentials, no fragment. */
function withoutCredentials(url: URL): URL {
  url.username = '';
  url.password = '';
  url.hash = '';
  return url;
}

/** Whether a policy option (allowRedirect, allowHost) lets `url` be requested: only `true` does, a throw refuses. */
function permits(policy: ((url: URL) => boolean) | undefined, url: string): boolean {
  if (policy === undefined) return true;
  try {
    // A copy: the policy cannot change the URL that is requested.
    return policy(new URL(url)) === true;
  } catch {
    return false;
  }
}

/** Whether the crawler set a policy on where its requests go: then none is sent that it was not asked about. */
function hasHostPolicy(options: ResolvedFetchOptions): boolean {
  return options.allowRedirect !== undefined || options.allowHost !== undefined;
}

/** Whether both policies let a redirect lead to `url`. */
function permitsHop(options: ResolvedFetchOptions, url: string): boolean {
  return permits(options.allowRedirect, url) && permits(options.allowHost, url);
}

/** The next hop of a redirect: its URL, or why it cannot be followed. */
function redirectTarget(
  response: ResponseShape,
  from: string,
  options: ResolvedFetchOptions,
): string | 'bad-redirect' | 'redirect-refused' {
  const location = response.headers.get('location');
  if (location === null || location.trim() === '') return 'bad-redirect';
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    return 'bad-redirect';
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') return 'bad-redirect';
  // fetch() refuses URLs with credentials; a robots.txt is public, so they are dropped, never sent or shown.
  withoutCredentials(next);
  if (!permitsHop(options, next.href)) return 'redirect-refused';
  return next.href;
}

type FetchFacts = Omit<RobotsFetchVerdict, 'outcome' | 'reason' | 'robots'>;

function facts(where: RobotsLocation, progress: Progress): FetchFacts {
  return {
    status: progress.status,
    origin: where.origin,
    robotsUrl: where.robotsUrl,
    finalUrl: progress.url,
    redirects: progress.redirects,
    bytes: 0,
    truncated: false,
    bytesIgnored: 0,
    contentType: progress.contentType,
    looksLikeHtml: false,
    maxAge: progress.maxAge,
    retryAfter: progress.retryAfter,
    etag: progress.etag,
    lastModified: progress.lastModified,
  };
}

/** A fetch that ended without a file to parse. */
function result(where: RobotsLocation, progress: Progress, reason: Exclude<RobotsFetchReason, 'ok'>): RobotsFetchVerdict {
  return { ...facts(where, progress), outcome: outcomeOf(reason) === 'allow-all' ? 'allow-all' : 'disallow-all', reason };
}

/** Bytes past the limit, when an uncompressed body's Content-Length tells them. */
function ignoredBytes(response: ResponseShape, body: LimitedRead): number | undefined {
  if (!body.truncated) return 0;
  const encoding = response.headers.get('content-encoding')?.trim().toLowerCase();
  if (encoding !== undefined && encoding !== '' && encoding !== 'identity') return undefined;
  const declared = response.headers.get('content-length')?.trim();
  if (declared === undefined || !/^\d+$/.test(declared)) return undefined;
  const length = Number(declared);
  return Number.isSafeInteger(length) && length > body.kept ? length - body.kept : undefined;
}

function record(progress: Progress, response: ResponseShape, options: ResolvedFetchOptions): void {
  progress.status = response.status;
  const headers = response.headers;
  progress.contentType = headers.get('content-type') ?? undefined;
  progress.maxAge = responseMaxAge(headers);
  progress.retryAfter = response.status === 429 || response.status === 503 ? retryAfterSeconds(headers, options.now()) : undefined;
  progress.etag = headers.get('etag') ?? undefined;
  progress.lastModified = headers.get('last-modified') ?? undefined;
}

function conditionalHeaders(userAgent: string, url: string, validators: Validators | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'user-agent': userAgent };
  if (validators === undefined || validators.url !== url) return headers;
  if (validators.etag !== undefined) headers['if-none-match'] = validators.etag;
  if (validators.lastModified !== undefined) headers['if-modified-since'] = validators.lastModified;
  return headers;
}

async function fetchHops(
  where: RobotsLocation,
  options: ResolvedFetchOptions,
  signal: AbortSignal,
  progress: Progress,
  validators: Validators | undefined,
): Promise<FetchAttempt<RobotsFetchResult | NotModified>> {
  const visited = new Set([where.robotsUrl]);
  let redirect: 'manual' | 'follow' = 'manual';
  let response: ResponseShape;
  for (;;) {
    let answer: unknown;
    try {
      answer = await options.fetch(progress.url, {
        method: 'GET',
        redirect,
        headers: conditionalHeaders(options.userAgent, progress.url, validators),
        signal,
      });
    } catch (error) {
      // A fetch whose DNS lookup found an internal address: the same refusal as allowHost's.
      if (isHostRefusal(error)) return { result: result(where, progress, progress.redirects === 0 ? 'host-refused' : 'redirect-refused') };
      return { result: result(where, progress, signal.aborted ? 'timeout' : 'network-error') };
    }
    if (!isResponse(answer)) return { result: result(where, progress, 'invalid-response') };
    response = answer;
    if (response.type === 'opaqueredirect') {
      discard(response);
      // A browser hides where a redirect goes. Following it would send a request no policy was asked
      // about, and asking about the response afterwards is too late: the request has been sent.
      if (hasHostPolicy(options)) return { result: result(where, progress, 'redirect-refused') };
      // A fetch told to follow that still answers with an opaque redirect would be asked forever.
      if (redirect === 'follow') return { result: result(where, progress, 'invalid-response') };
      // Without a policy, the browser follows (up to its own limit of 20).
      redirect = 'follow';
      continue;
    }
    if (response.redirected === true) {
      // The fetch followed redirects itself (a browser told to, or a fetch that ignores 'manual'): its
      // requests are sent, but what they reached is asked about before a byte of it is read.
      const reached =
        typeof response.url === 'string' && URL.canParse(response.url) ? withoutCredentials(new URL(response.url)).href : undefined;
      if (reached === undefined ? hasHostPolicy(options) : !permitsHop(options, reached)) {
        discard(response);
        return { result: result(where, progress, 'redirect-refused') };
      }
      if (reached !== undefined) progress.url = reached;
    }
    record(progress, response, options);
    if (response.status === 304 && validators?.url === progress.url) {
      discard(response);
      return {
        result: { outcome: 'not-modified', status: 304, maxAge: progress.maxAge, etag: progress.etag, lastModified: progress.lastModified },
      };
    }
    if (response.status < 300 || response.status >= 400) break;
    discard(response);
    const next = redirectTarget(response, progress.url, options);
    if (next === 'bad-redirect' || next === 'redirect-refused') return { result: result(where, progress, next) };
    if (visited.has(next)) return { result: result(where, progress, 'redirect-loop') };
    if (progress.redirects === MAX_REDIRECTS) return { result: result(where, progress, 'too-many-redirects') };
    visited.add(next);
    progress.redirects++;
    progress.url = next;
  }
  const reason = reasonForStatus(response.status, profileNamed(options.profile));
  if (reason !== 'ok') {
    discard(response);
    return { result: result(where, progress, reason) };
  }
  let body: LimitedRead;
  try {
    body = await readLimited(response.body, options.maxBytes);
  } catch {
    return { result: result(where, progress, signal.aborted ? 'timeout' : 'body-interrupted') };
  }
  if (signal.aborted) return { result: result(where, progress, 'timeout') };
  const bytesIgnored = ignoredBytes(response, body);
  const rules: RobotsFetchRules = {
    ...facts(where, progress),
    outcome: 'rules',
    reason: 'ok',
    robots: parseFetchedRobotsTxt(body.bytes, { profile: options.profile, maxBytes: options.maxBytes }, bytesIgnored),
    bytes: body.kept,
    truncated: body.truncated,
    bytesIgnored,
    looksLikeHtml: looksLikeHtml(progress.contentType, body.bytes.subarray(0, body.kept)),
  };
  return { result: rules, body: body.bytes };
}

/**
 * @internal The result for a host the `allowHost` option refuses (nothing is sent), or undefined when it
 * may be fetched. Asked before fetchRobotsAt(), once per fetch.
 */
export function hostRefusal(where: RobotsLocation, options: ResolvedFetchOptions): RobotsFetchVerdict | undefined {
  if (permits(options.allowHost, where.robotsUrl)) return undefined;
  return result(where, { ...NOTHING_YET, url: where.robotsUrl }, 'host-refused');
}

/**
 * @internal fetchRobotsTxt() with its input already checked, once hostRefusal() let the host be fetched;
 * RobotsCache calls it. `cancel` aborts the
 * requests (the result is then a timeout, which the cache drops). With `validators`, the request to the
 * URL they came from is conditional, and a 304 comes back as NotModified.
 */
export function fetchRobotsAt(
  where: RobotsLocation,
  options: ResolvedFetchOptions,
  cancel?: AbortSignal,
): Promise<FetchAttempt<RobotsFetchResult>>;
export function fetchRobotsAt(
  where: RobotsLocation,
  options: ResolvedFetchOptions,
  cancel: AbortSignal | undefined,
  validators: Validators | undefined,
): Promise<FetchAttempt<RobotsFetchResult | NotModified>>;
export async function fetchRobotsAt(
  where: RobotsLocation,
  options: ResolvedFetchOptions,
  cancel?: AbortSignal,
  validators?: Validators,
): Promise<FetchAttempt<RobotsFetchResult | NotModified>> {
  const progress: Progress = { ...NOTHING_YET, url: where.robotsUrl };
  const controller = new AbortController();
  const abort = (): void => controller.abort();
  cancel?.addEventListener('abort', abort, { once: true });
  if (cancel?.aborted === true) abort();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The race makes the deadline hold even for a fetch that ignores its signal.
  const deadline = new Promise<FetchAttempt<RobotsFetchResult>>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ result: result(where, progress, 'timeout') });
    }, options.timeoutMs);
  });
  try {
    return await Promise.race([fetchHops(where, options, controller.signal, progress, validators), deadline]);
  } finally {
    clearTimeout(timer);
    cancel?.removeEventListener('abort', abort);
  }
}

/**
 * Fetches the robots.txt of `originOrUrl`'s origin once, by the standard, without caching: follows up
 * to 5 redirects itself (across hosts; the result applies to the original origin), reads at most
 * `maxBytes` of the body, and gives up after `timeoutMs` in all. Network trouble is an outcome, not an
 * exception: only a bad URL or bad options throw (TypeError, RangeError). With `allowHost` (such as
 * `publicHostsOnly`), a refused host is not fetched: `disallow-all`, reason `'host-refused'`. With
 * `allowHost` or `allowRedirect`, no request is sent that they were not asked about: a redirect whose
 * target the runtime hides (a browser's opaque redirect) is not followed, `allow-all` with reason
 * `'redirect-refused'`, and a response a fetch reached by following redirects itself is read only when
 * they allow its URL.
 *
 * @example
 * import { createServer } from 'node:http';
 * import { fetchRobotsTxt } from 'robotstxt-wasm';
 * // A site on 127.0.0.1 to ask; a crawler asks real sites by their URLs.
 * const site = createServer((request, response) => response.end('User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n\nSitemap: https://example.com/sitemap.xml\n'));
 * await new Promise<void>((listening) => site.listen(0, '127.0.0.1', listening));
 * const origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
 * const result = await fetchRobotsTxt(`${origin}/any/page`, { userAgent: 'ExampleBot/1.2 (+https://example.com/bot)' });
 * result.outcome; // 'rules'
 * switch (result.outcome) {
 *   case 'rules': result.robots.isAllowed(`${origin}/private/page`, 'ExampleBot'); break;
 *   case 'allow-all': break;    // 4xx: no restrictions
 *   case 'disallow-all': break; // 5xx, 429, timeout, network failure: crawl nothing for now
 * }
 * site.close();
 */
export async function fetchRobotsTxt(originOrUrl: string | URLInput, options: FetchRobotsOptions): Promise<RobotsFetchResult> {
  const where = robotsLocation(originOrUrl);
  const resolved = resolveFetchOptions(options);
  return hostRefusal(where, resolved) ?? (await fetchRobotsAt(where, resolved)).result;
}
