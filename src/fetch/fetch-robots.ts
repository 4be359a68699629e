/**
 * One robots.txt fetch by the standard, without any cache: redirects followed by hand, the body read up to
 * maxBytes, one deadline for all of it, and every network event turned into an outcome, never an exception.
 * spec: 003_14cd348ff9b99c23.txt, "Handling HTTP result codes"; RFC 9309 §2.3.1, §2.5.
 */
import { parseRobotsTxt } from '../robots-txt.js';
import { responseMaxAge } from './cache-control.js';
import { resolveFetchOptions, type FetchRobotsOptions, type ResolvedFetchOptions } from './options.js';
import { robotsLocation, type RobotsLocation } from './origin.js';
import { outcomeOf, reasonForStatus, type RobotsFetchReason, type RobotsFetchResult, type RobotsFetchVerdict } from './outcome.js';
import { readLimited, type LimitedRead } from './read-body.js';

/** Redirects followed; the next one counts as a 4xx (RFC 9309 §2.3.1.2: "at least five"). */
export const MAX_REDIRECTS = 5;

/** What is known so far, for the result a timeout produces in the middle of it all. */
interface Progress {
  url: string;
  redirects: number;
  status: number;
  contentType: string | undefined;
  maxAge: number | undefined;
}

const HTML_START = /^[\t\n\f\r ]*<(?:!doctype[\t\n\f\r ]+html|html|head|body|title|meta|script|!--)/i;

function looksLikeHtml(contentType: string | undefined, body: Uint8Array): boolean {
  if (contentType !== undefined && /^\s*(?:text\/html|application\/xhtml\+xml)\b/i.test(contentType)) return true;
  let start = 0;
  while (start < 3 && body[start] === [0xef, 0xbb, 0xbf][start]) start++;
  return HTML_START.test(String.fromCharCode(...body.subarray(start, start + 64)));
}

/** Lets the connection go without reading what is left of a body. */
function discard(response: Response): void {
  response.body?.cancel().catch(() => undefined);
}

/** The next hop of a redirect, or undefined when it cannot be followed. */
function redirectTarget(response: Response, from: string): string | undefined {
  const location = response.headers.get('location');
  if (location === null || location.trim() === '') return undefined;
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    return undefined;
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') return undefined;
  next.hash = '';
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
    contentType: progress.contentType,
    looksLikeHtml: false,
    maxAge: progress.maxAge,
  };
}

/** A fetch that ended without a file to parse. */
function result(where: RobotsLocation, progress: Progress, reason: Exclude<RobotsFetchReason, 'ok'>): RobotsFetchVerdict {
  return { ...facts(where, progress), outcome: outcomeOf(reason) === 'allow-all' ? 'allow-all' : 'disallow-all', reason };
}

async function fetchHops(
  where: RobotsLocation,
  options: ResolvedFetchOptions,
  signal: AbortSignal,
  progress: Progress,
): Promise<RobotsFetchResult> {
  const visited = new Set([where.robotsUrl]);
  let redirect: RequestRedirect = 'manual';
  let response: Response;
  for (;;) {
    try {
      response = await options.fetch(progress.url, {
        method: 'GET',
        redirect,
        headers: { 'user-agent': options.userAgent },
        signal,
      });
    } catch {
      return result(where, progress, signal.aborted ? 'timeout' : 'network-error');
    }
    if (response.type === 'opaqueredirect') {
      // Browsers hide redirects from scripts; let the browser follow them (up to its own limit of 20).
      discard(response);
      redirect = 'follow';
      continue;
    }
    if (response.redirected && response.url !== '') progress.url = response.url;
    progress.status = response.status;
    progress.contentType = response.headers.get('content-type') ?? undefined;
    progress.maxAge = responseMaxAge(response.headers);
    if (response.status < 300 || response.status >= 400) break;
    discard(response);
    const next = redirectTarget(response, progress.url);
    if (next === undefined) return result(where, progress, 'bad-redirect');
    if (visited.has(next)) return result(where, progress, 'redirect-loop');
    if (progress.redirects === MAX_REDIRECTS) return result(where, progress, 'too-many-redirects');
    visited.add(next);
    progress.redirects++;
    progress.url = next;
  }
  const reason = reasonForStatus(response.status);
  if (reason !== 'ok') {
    discard(response);
    return result(where, progress, reason);
  }
  let body: LimitedRead;
  try {
    body = await readLimited(response.body, options.maxBytes);
  } catch {
    return result(where, progress, signal.aborted ? 'timeout' : 'body-interrupted');
  }
  if (signal.aborted) return result(where, progress, 'timeout');
  return {
    ...facts(where, progress),
    outcome: 'rules',
    reason: 'ok',
    robots: parseRobotsTxt(body.bytes, { profile: options.profile, maxBytes: options.maxBytes }),
    bytes: body.kept,
    truncated: body.truncated,
    looksLikeHtml: looksLikeHtml(progress.contentType, body.bytes),
  };
}

/** @internal fetchRobotsTxt() with its input already checked; RobotsCache calls it. */
export async function fetchRobotsAt(where: RobotsLocation, options: ResolvedFetchOptions): Promise<RobotsFetchResult> {
  const progress: Progress = { url: where.robotsUrl, redirects: 0, status: 0, contentType: undefined, maxAge: undefined };
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The race makes the deadline hold even for a fetch that ignores its signal.
  const deadline = new Promise<RobotsFetchResult>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve(result(where, progress, 'timeout'));
    }, options.timeoutMs);
  });
  try {
    return await Promise.race([fetchHops(where, options, controller.signal, progress), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Fetches the robots.txt of `originOrUrl`'s origin once, by the standard, without caching: follows up
 * to 5 redirects itself (across hosts; the result applies to the original origin), reads at most
 * `maxBytes` of the body, and gives up after `timeoutMs` in all. Network trouble is an outcome, not an
 * exception: only a bad URL or bad options throw (TypeError, RangeError).
 *
 * @example
 * const result = await fetchRobotsTxt('https://example.com/any/page', { userAgent: 'ExampleBot/1.2 (+https://example.com/bot)' });
 * switch (result.outcome) {
 *   case 'rules': result.robots.isAllowed('https://example.com/any/page', 'ExampleBot'); break;
 *   case 'allow-all': break;    // 4xx: no restrictions
 *   case 'disallow-all': break; // 5xx, 429, timeout, network failure: crawl nothing for now
 * }
 */
export async function fetchRobotsTxt(originOrUrl: string | URL, options: FetchRobotsOptions): Promise<RobotsFetchResult> {
  const where = robotsLocation(originOrUrl);
  return fetchRobotsAt(where, resolveFetchOptions(options));
}
