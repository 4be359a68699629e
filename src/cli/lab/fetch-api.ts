/**
 * The lab's fetch API, `POST <token>/api/fetch` with `{"url", "profile"}`: what a page cannot do across
 * origins, done by the command. The robots.txt is fetched exactly as `robotstxt fetch` fetches it
 * (report.ts's fetchRobots: the same User-Agent, host guard and limits), and the answer is the result's
 * facts and the file's text. The request is hostile input like any other: its body is read up to 8 KiB,
 * checked field by field, and at most 4 fetches run at once.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { recordingFetch } from '../recording-fetch.js';
import { fetchFacts, fetchRobots, isBareHost, PROFILES, type Settings } from '../report.js';
import type { FetchLike, ProfileName, RobotsFetchResult } from '../library.js';
import { UsageError } from '../usage.js';
import { sendJson } from './respond.js';
import type { LabApi } from './server.js';

/** Far more than `{"url": …, "profile": …}` needs. */
export const MAX_BODY_BYTES = 8 * 1024;
/** Fetches at once: enough for a person clicking, too few for the page to be used as a crawler. */
export const MAX_IN_FLIGHT = 4;

/** What the page asks for. */
interface Asked {
  readonly url: string;
  readonly profile: ProfileName;
}

/** What the page is answered: the fetch's facts, and the file's text when there was one. */
export interface FetchAnswer {
  readonly outcome: RobotsFetchResult['outcome'];
  readonly reason: RobotsFetchResult['reason'];
  readonly status: number;
  readonly robotsUrl: string;
  readonly finalUrl: string;
  readonly redirects: number;
  readonly bytes: number;
  readonly truncated: boolean;
  readonly contentType: string | null;
  readonly looksLikeHtml: boolean;
  /** The file as the library read it (UTF-8, a BOM dropped), for a 2xx whose rules decide; else null. */
  readonly body: string | null;
}

const EXAMPLE = '{"url": "https://example.com/", "profile": "rfc9309"}';

/** A request body, or why there is none to read. */
type Body = Buffer | 'too-large' | 'closed';

/** The request's body, read up to `limit` bytes: past it, reading stops and the connection is closed after the answer. */
function readBody(request: IncomingMessage, limit: number): Promise<Body> {
  const declared = Number(request.headers['content-length']);
  if (declared > limit) return Promise.resolve('too-large');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let length = 0;
    request.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length <= limit) return void chunks.push(chunk);
      request.removeAllListeners('data');
      request.pause();
      resolve('too-large');
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    // The client went away: nobody to answer.
    request.on('error', () => resolve('closed'));
    request.on('close', () => resolve('closed'));
  });
}

/** Whether the request's body is declared JSON (`application/json`, parameters such as charset allowed). */
function isJson(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/** The request's fields, checked, or the message of a 400 that says what to send. */
function readAsked(value: unknown): Asked | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `the body must be a JSON object, e.g. ${EXAMPLE}`;
  const { url, profile } = value as Record<string, unknown>;
  if (typeof url !== 'string' || url.trim() === '') {
    return `"url" must be an http(s) URL or a host name, e.g. "https://example.com/" or "example.com"`;
  }
  if (profile !== undefined && !(PROFILES as readonly unknown[]).includes(profile)) {
    return `"profile" must be ${PROFILES.map((name) => JSON.stringify(name)).join(', ')} or absent (rfc9309)`;
  }
  return { url: url.trim(), profile: (profile as ProfileName | undefined) ?? 'rfc9309' };
}

/**
 * `fetch`, its requests also ended when `stop` aborts: the server's end does not wait for a slow site
 * (the library's deadline would hold the process up to --timeout).
 */
function stoppable(fetch: FetchLike, stop: AbortSignal): FetchLike {
  return (url, init) => {
    const controller = new AbortController();
    const abort = (): void => controller.abort();
    if (stop.aborted || init.signal.aborted) abort();
    stop.addEventListener('abort', abort, { once: true });
    init.signal.addEventListener('abort', abort, { once: true });
    return fetch(url, { ...init, signal: controller.signal });
  };
}

/** The API: one per server, counting the fetches it runs. */
export class FetchApi implements LabApi {
  private readonly running = new Set<AbortController>();

  /** `settings`: the command's (--user-agent, the host flags); the profile is each request's. */
  constructor(private readonly settings: Settings) {}

  /** Answers one request (its Host, Origin and token already checked). */
  async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!isJson(request.headers['content-type'])) {
      return sendJson(response, 415, { error: `send the request as Content-Type: application/json, e.g. ${EXAMPLE}` });
    }
    const body = await readBody(request, MAX_BODY_BYTES);
    if (body === 'closed') return;
    if (body === 'too-large') {
      return sendJson(response, 413, { error: `the body may be at most ${MAX_BODY_BYTES} bytes` }, { connection: 'close' });
    }
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch {
      return sendJson(response, 400, { error: `the body is not JSON: send e.g. ${EXAMPLE}` });
    }
    const asked = readAsked(value);
    if (typeof asked === 'string') return sendJson(response, 400, { error: asked });
    if (this.running.size >= MAX_IN_FLIGHT) {
      return sendJson(response, 429, { error: `${MAX_IN_FLIGHT} fetches are running: ask again when one has ended` });
    }
    const stop = new AbortController();
    this.running.add(stop);
    try {
      sendJson(response, 200, await this.fetch(asked, stop.signal));
    } catch (error) {
      // A URL the library refuses (an ftp: URL, no host): the page's mistake, said as the command says it.
      if (!(error instanceof UsageError)) throw error;
      sendJson(response, 400, { error: error.message });
    } finally {
      this.running.delete(stop);
    }
  }

  /** Ends every fetch running: the server is stopping. */
  stop(): void {
    for (const fetch of this.running) fetch.abort();
  }

  private async fetch(asked: Asked, stop: AbortSignal): Promise<FetchAnswer> {
    const settings: Settings = { ...this.settings, profile: asked.profile };
    let recorder: ReturnType<typeof recordingFetch> | undefined;
    const url = isBareHost(asked.url) ? `https://${asked.url}` : asked.url;
    // Credentials in the URL are never sent: the library asks for the origin's /robots.txt, which has none.
    const result = await fetchRobots(url, settings, (guard) => {
      recorder = recordingFetch(guard, settings.maxBytes);
      return stoppable(recorder.fetch, stop);
    });
    const body =
      result.outcome === 'rules' && recorder !== undefined ? new TextDecoder().decode(recorder.body().subarray(0, result.bytes)) : null;
    result.robots?.dispose();
    return {
      ...fetchFacts(result),
      bytes: result.bytes,
      truncated: result.truncated,
      contentType: result.contentType ?? null,
      looksLikeHtml: result.looksLikeHtml,
      body,
    };
  }
}
