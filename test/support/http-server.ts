/**
 * Real HTTP servers on 127.0.0.1 for the fetch tests: a route table per server, every request recorded,
 * and every server (with its open connections) closed by closeServers().
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = (request: IncomingMessage, response: ServerResponse) => void;

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
}

export interface TestServer {
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly requests: RecordedRequest[];
  /** Sets (or replaces) the handler for `path`; unknown paths get a 404. */
  route(path: string, handler: Route): void;
  /** Requests for `path` so far. */
  count(path?: string): number;
  close(): Promise<void>;
}

const open = new Set<Server>();

export async function startServer(routes: Record<string, Route> = {}): Promise<TestServer> {
  const table = new Map(Object.entries(routes));
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    requests.push({ method: request.method ?? '', path, headers: request.headers });
    const handler = table.get(path);
    if (handler === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.add(server);
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    requests,
    route: (path, handler) => void table.set(path, handler),
    count: (path = '/robots.txt') => requests.filter((request) => request.path === path).length,
    close: () => closeServer(server),
  };
}

function closeServer(server: Server): Promise<void> {
  open.delete(server);
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Closes every server started so far; for afterEach. */
export async function closeServers(): Promise<void> {
  await Promise.all([...open].map(closeServer));
}

/** A port nothing listens on: bound, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A route that answers `body` with `status` and `headers` (text/plain unless given). */
export function text(body: string | Uint8Array, status = 200, headers: Record<string, string> = {}): Route {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
    response.end(body);
  };
}

/** A route that answers `status` with no meaningful body. */
export function status(code: number, headers: Record<string, string> = {}): Route {
  return (_request, response) => {
    response.writeHead(code, headers);
    response.end();
  };
}

/** A redirect to `location` (relative or absolute). */
export function redirect(location: string, code = 301): Route {
  return status(code, { location });
}

/** A route that accepts the request and never answers. */
export const hang: Route = () => undefined;
