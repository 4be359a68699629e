/**
 * The command's own fetch, over node:http and node:https, for one reason: the DNS lookup. Node's global
 * fetch (undici) takes no lookup of its own without the undici package, and a check of a name's addresses
 * made before a fetch can be answered differently when the fetch connects (DNS rebinding); a `lookup`
 * given to the socket sees the very addresses it connects to (src/cli/host-guard.ts checks them).
 *
 * What the library reads of a Response it gets as fetch would give it: the status, the headers, and the
 * body decoded from `Content-Encoding` gzip, deflate and br (any other coding leaves the body as it came,
 * as undici does). Redirects are not followed: fetchRobotsTxt follows them itself, hop by hop. The
 * request's AbortSignal destroys the connection, the body included; a body read in part and cancelled
 * closes it. Each request has its own connection (a robots.txt is one request per host).
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { finished, pipeline, type Readable, type Transform } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { FetchInit, ResponseShape } from './library.js';

/** A response as this fetch gives it: the library's shape, with the platform's Headers and ReadableStream. */
export interface HttpResponse extends ResponseShape {
  readonly url: string;
  readonly redirected: false;
  readonly headers: Headers;
  readonly body: ReadableStream<Uint8Array> | null;
}

export type HttpFetch = (url: string, init: FetchInit) => Promise<HttpResponse>;

/** Bytes of decoded body buffered ahead of the reader; past it, the socket is paused. */
const BUFFERED_BYTES = 64 * 1024;
/** Statuses whose responses have no body (RFC 9110 §6.4.1). */
const NO_BODY = new Set([204, 205, 304]);

/** Like fetch: a body cut short still gives what arrived, and the break is reported by the stream's end. */
const ZLIB_OPTIONS = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
const BROTLI_OPTIONS = { flush: constants.BROTLI_OPERATION_FLUSH, finishFlush: constants.BROTLI_OPERATION_FLUSH };

/**
 * The decoders for a `Content-Encoding` value, in the order to apply them (the last coding applied first),
 * or none when any coding is one fetch does not decode.
 */
function decoders(contentEncoding: string | undefined): Transform[] {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  const chain: Transform[] = [];
  for (const coding of codings.reverse()) {
    // "deflate" is the zlib format (RFC 9110 §8.4.1.2).
    if (coding === 'gzip' || coding === 'x-gzip') chain.push(createGunzip(ZLIB_OPTIONS));
    else if (coding === 'deflate') chain.push(createInflate(ZLIB_OPTIONS));
    else if (coding === 'br') chain.push(createBrotliDecompress(BROTLI_OPTIONS));
    else return [];
  }
  return chain;
}

/** `source` as a byte stream that reads from it only as fast as its reader does; cancelling destroys it. */
function byteStream(source: Readable): ReadableStream<Uint8Array> {
  let settled = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        source.on('data', (chunk: Buffer) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) source.pause();
        });
        // A connection closed before the body's end is an error, as it is for fetch.
        finished(source, (error) => {
          if (settled) return;
          settled = true;
          if (error === undefined || error === null) controller.close();
          else controller.error(error);
        });
      },
      pull() {
        source.resume();
      },
      cancel() {
        settled = true;
        source.destroy();
      },
    },
    { highWaterMark: BUFFERED_BYTES, size: (chunk) => chunk.byteLength },
  );
}

function headersOf(message: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = message.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) headers.append(raw[index] as string, raw[index + 1] as string);
  return headers;
}

function responseOf(url: string, message: IncomingMessage): HttpResponse {
  const headers = headersOf(message);
  const status = message.statusCode ?? 0;
  let body: ReadableStream<Uint8Array> | null = null;
  if (NO_BODY.has(status)) {
    message.resume();
  } else {
    const chain = decoders(headers.get('content-encoding') ?? undefined);
    // pipeline destroys every stream when one fails, so the last one reports the failure.
    if (chain.length > 0) pipeline([message, ...chain], () => undefined);
    body = byteStream(chain[chain.length - 1] ?? message);
  }
  return { status, url, redirected: false, type: 'basic', headers, body };
}

/** A fetch of http(s) URLs whose connections resolve names with `lookup`. */
export function httpFetch(lookup: LookupFunction): HttpFetch {
  return (url, init) =>
    new Promise<HttpResponse>((resolve, reject) => {
      const target = new URL(url);
      const signal = init.signal as AbortSignal;
      if (signal.aborted) return reject(signal.reason);
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      const request = send(target, {
        method: init.method,
        headers: { 'accept-encoding': 'gzip, deflate, br', ...init.headers },
        lookup,
        agent: false,
        signal,
      });
      // Every error, also one after the response (an abort), is handled: the body's stream reports those.
      request.on('error', reject);
      request.once('response', (message) => {
        try {
          resolve(responseOf(url, message));
        } catch (error) {
          // A header value the Headers class refuses: no response fetch would give.
          message.destroy();
          reject(error);
        }
      });
      request.end();
    });
}
