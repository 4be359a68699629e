/**
 * The lab's HTTP server on 127.0.0.1: everything under `/<token>/`, the page's files by GET and HEAD and
 * the fetch API by POST; any other path a 404 that says nothing more. Each request is first checked by
 * request-guard.ts (its Host, Origin and Sec-Fetch-Site), then by its token. A failure while answering
 * one request is a 500 for that request, never the end of the server.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { note, printable } from '../printable.js';
import { UsageError } from '../usage.js';
import { refusedStatus, tokenMatches } from './request-guard.js';
import { send, sendJson, sendStatus } from './respond.js';
import type { LabFiles } from './static-files.js';

const API_PATH = '/api/fetch';
/** Reserved for the API: no file of the page is served from below it. */
const API_PREFIX = '/api/';

/** A body of at most 8 KiB has no reason to take longer. */
const REQUEST_TIMEOUT_MS = 30_000;

/** What answers the API's requests (fetch-api.ts's FetchApi). */
export interface LabApi {
  /** Answers one request, whose Host, Origin and token are checked. */
  answer(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Ends what it has running: the server is stopping. */
  stop(): void;
}

export interface LabServerOptions {
  readonly files: LabFiles;
  readonly api: LabApi;
  readonly token: string;
  /** 0: a free port the system chooses. */
  readonly port: number;
}

export interface LabServer {
  /** `http://127.0.0.1:PORT/<token>/`: the page. */
  readonly address: string;
  /** Stops the fetches running, closes every connection, and resolves once the server is closed. */
  close(): Promise<void>;
}

/** The request target's path (its query left out), split at the token: the token, and what follows it. */
function splitTarget(target: string): { readonly token: string; readonly rest: string | undefined } | undefined {
  // An absolute-form target (`GET http://…`) or `*` names no file here.
  if (!target.startsWith('/')) return undefined;
  const end = target.search(/[?#]/);
  const path = end < 0 ? target : target.slice(0, end);
  const slash = path.indexOf('/', 1);
  return slash < 0 ? { token: path.slice(1), rest: undefined } : { token: path.slice(1, slash), rest: path.slice(slash) };
}

async function route(request: IncomingMessage, response: ServerResponse, options: LabServerOptions, port: number): Promise<void> {
  const method = request.method ?? '';
  const refused = refusedStatus(request.headers, port, method === 'POST');
  if (refused !== undefined) return sendStatus(response, refused, refused === 421 ? 'misdirected request' : 'forbidden');
  const target = splitTarget(request.url ?? '');
  if (target === undefined || !tokenMatches(target.token, options.token)) return sendStatus(response, 404, 'not found');
  const reading = method === 'GET' || method === 'HEAD';
  if (target.rest === undefined) {
    // The address without its final slash: the page's relative URLs need it.
    if (!reading) return sendStatus(response, 405, 'method not allowed', { allow: 'GET, HEAD' });
    return send(response, 308, 'text/plain; charset=utf-8', '', { location: `/${options.token}/` });
  }
  if (target.rest === API_PATH) {
    if (method !== 'POST') return sendStatus(response, 405, 'method not allowed', { allow: 'POST' });
    return options.api.answer(request, response);
  }
  if (target.rest.startsWith(API_PREFIX)) return sendStatus(response, 404, 'not found');
  if (!reading) return sendStatus(response, 405, 'method not allowed', { allow: 'GET, HEAD' });
  const file = await options.files.read(target.rest);
  if (file === undefined) return sendStatus(response, 404, 'not found');
  send(response, 200, file.type, file.bytes, {}, 'no-cache');
}

/** A 500 for a request whose answer failed, when nothing of it was sent yet; the operator hears of it on stderr. */
function failed(response: ServerResponse, error: unknown): void {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  process.stderr.write(`robotstxt: lab: internal error while answering a request: ${printable(message)}\n`);
  if (response.headersSent) response.destroy();
  else sendJson(response, 500, { error: 'internal error: the command says more on its stderr' });
}

/** Starts the server on 127.0.0.1 (only: nothing else on the network can reach it). */
export async function startLabServer(options: LabServerOptions): Promise<LabServer> {
  let port = options.port;
  const server = createServer((request, response) => {
    // A client that goes away mid-answer is no error of the server's.
    request.on('error', () => undefined);
    response.on('error', () => undefined);
    route(request, response, options, port).catch((error: unknown) => failed(response, error));
  });
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  await new Promise<void>((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException): void => {
      const why = error.code === 'EADDRINUSE' ? 'the port is in use' : error.code === 'EACCES' ? 'permission denied' : error.message;
      reject(new UsageError(`cannot listen on 127.0.0.1:${options.port}: ${why} (--port 0 lets the system choose a free port)`));
    };
    server.once('error', refused);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', refused);
      resolve();
    });
  });
  // Once listening, an error of the socket (a connection it could not accept: too many open files) ends no
  // request but that one: said on stderr, and the server goes on.
  server.on('error', (error) => note(`lab: ${error.message}`));
  port = (server.address() as AddressInfo).port;
  return {
    address: `http://127.0.0.1:${port}/${options.token}/`,
    close: () =>
      new Promise<void>((resolve) => {
        options.api.stop();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
