/**
 * The command's host guard and its own fetch (src/cli/host-guard.ts, src/cli/http-fetch.ts), in this
 * process: names resolve from a table (never real DNS), and every socket of this process stays on the
 * loopback interface (test/support/loopback-sockets.mjs records each attempt). Servers are real, on
 * 127.0.0.1. The built command's use of them: test/e2e/cli/cli-hosts.test.ts.
 */
import type { LookupAddress } from 'node:dns';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostGuard, type HostPolicy, type Resolve } from '../../../src/cli/host-guard.js';
import { httpFetch } from '../../../src/cli/http-fetch.js';
import { parseNetwork, type Network } from '../../../src/fetch/host-policy.js';
import { fetchRobotsTxt, HostRefusedError, type FetchRobotsOptions } from '../../../src/platform/inline.js';
import { closeServers, hang, redirect, startServer, status, text } from '../../support/http-server.js';
import { keepSocketsOnLoopback } from '../../support/loopback-sockets.mjs';

const UA = 'ExampleBot/1.2 (+https://example.com/bot)';
const RULES = 'User-agent: *\nDisallow: /private/\n';

/** Every connection attempt of this process: `target`, and whether the backstop let it through. */
const attempts: { target: string; allowed: boolean }[] = [];
keepSocketsOnLoopback((target, allowed) => attempts.push({ target, allowed }), { ownLookups: true });

beforeEach(() => void attempts.splice(0));
afterEach(closeServers);

/** A resolver that answers from `table` (a name's answers, one list per lookup in turn, the last repeated). */
function tableResolve(table: Record<string, readonly (readonly string[])[]>): { resolve: Resolve; asked: string[] } {
  const asked: string[] = [];
  const resolve: Resolve = (hostname, _options, callback) => {
    const turns = table[hostname];
    const answer = turns?.[Math.min(asked.filter((name) => name === hostname).length, turns.length - 1)];
    asked.push(hostname);
    const addresses: LookupAddress[] = (answer ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    setImmediate(() =>
      addresses.length === 0
        ? callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), [])
        : callback(null, addresses),
    );
  };
  return { resolve, asked };
}

function networks(...cidrs: string[]): Network[] {
  return cidrs.map((cidr) => parseNetwork(cidr) as Network);
}

function guarded(policy: Partial<HostPolicy>, resolve: Resolve): { guard: HostGuard; options: FetchRobotsOptions } {
  const guard = new HostGuard({ allowInternalHosts: false, allowedNetworks: [], ...policy }, resolve);
  return { guard, options: { userAgent: UA, fetch: guard.fetch, allowHost: guard.allowHost, timeoutMs: 5_000 } };
}

describe('the resolved address is checked on the connection', () => {
  it('a public-looking name that resolves to 10.0.0.1 is refused, without a connection', async () => {
    const { resolve, asked } = tableResolve({ 'intranet.example.com': [['10.0.0.1']] });
    const { guard, options } = guarded({}, resolve);
    const result = await fetchRobotsTxt('http://intranet.example.com/', options);
    expect(result).toMatchObject({ outcome: 'disallow-all', reason: 'host-refused', status: 0 });
    expect(guard.lastRefusal).toEqual({ host: 'intranet.example.com', address: '10.0.0.1' });
    expect(asked).toEqual(['intranet.example.com']);
    expect(attempts.some((attempt) => attempt.target.includes('10.0.0.1'))).toBe(false);
  });

  it('a name that resolves to 127.0.0.1 is refused by default and reaches the loopback server with --allow-internal-hosts', async () => {
    const server = await startServer({ '/robots.txt': text(RULES) });
    const { resolve } = tableResolve({ 'site.example.com': [['127.0.0.1']] });
    const url = `http://site.example.com:${server.port}/`;
    expect(await fetchRobotsTxt(url, guarded({}, resolve).options)).toMatchObject({ reason: 'host-refused' });
    expect(server.count()).toBe(0);
    const allowed = await fetchRobotsTxt(url, guarded({ allowInternalHosts: true }, resolve).options);
    expect(allowed).toMatchObject({ outcome: 'rules', status: 200 });
    expect(server.count()).toBe(1);
    expect(server.requests[0]?.headers.host).toBe(`site.example.com:${server.port}`);
    expect(attempts).toEqual([{ target: `site.example.com (127.0.0.1):${server.port}`, allowed: true }]);
  });

  it('--allow-network lets one range through, and only it', async () => {
    const server = await startServer({ '/robots.txt': text(RULES) });
    const { resolve } = tableResolve({ 'site.example.com': [['127.0.0.1']], 'other.example.com': [['127.0.0.2']] });
    const { options } = guarded({ allowedNetworks: networks('127.0.0.1/32') }, resolve);
    expect(await fetchRobotsTxt(`http://site.example.com:${server.port}/`, options)).toMatchObject({ outcome: 'rules' });
    expect(await fetchRobotsTxt(`http://other.example.com:${server.port}/`, options)).toMatchObject({ reason: 'host-refused' });
    expect(await fetchRobotsTxt(`${server.origin}/`, options)).toMatchObject({ outcome: 'rules' });
    expect(server.count()).toBe(2);
  });

  it('with --allow-network, a private name is judged by its addresses: in the range it is fetched, outside it refused', async () => {
    const server = await startServer({ '/robots.txt': text(RULES) });
    const { resolve } = tableResolve({
      intranet: [['127.0.0.1']],
      'metadata.google.internal': [['169.254.169.254']],
      localhost: [['127.0.0.1']],
    });
    const { guard, options } = guarded({ allowedNetworks: networks('127.0.0.0/8') }, resolve);
    expect(await fetchRobotsTxt(`http://intranet:${server.port}/`, options)).toMatchObject({ outcome: 'rules' });
    expect(await fetchRobotsTxt(`http://localhost:${server.port}/`, options)).toMatchObject({ outcome: 'rules' });
    expect(await fetchRobotsTxt('http://metadata.google.internal/', options)).toMatchObject({ reason: 'host-refused' });
    expect(guard.lastRefusal).toEqual({ host: 'metadata.google.internal', address: '169.254.169.254' });
    // Without it, such a name is refused as written, before any lookup.
    const plain = tableResolve({ intranet: [['127.0.0.1']] });
    expect(await fetchRobotsTxt(`http://intranet:${server.port}/`, guarded({}, plain.resolve).options)).toMatchObject({
      reason: 'host-refused',
    });
    expect(plain.asked).toEqual([]);
    expect(server.count()).toBe(2);
  });

  it('one internal address among public ones refuses the name (a rebinding attempt mixes them)', async () => {
    const { resolve } = tableResolve({ 'mixed.example.com': [['93.184.215.14', '127.0.0.1']] });
    const { guard, options } = guarded({}, resolve);
    expect(await fetchRobotsTxt('http://mixed.example.com/', options)).toMatchObject({ reason: 'host-refused' });
    expect(guard.lastRefusal?.address).toBe('127.0.0.1');
    expect(attempts).toEqual([]);
  });

  it('DNS rebinding: each connection checks what its own lookup answered, not an earlier answer', async () => {
    const server = await startServer({ '/robots.txt': text(RULES) });
    // Allowed the first time (127.0.0.1, in the allowed range); the same name then answers 10.0.0.1.
    const { resolve, asked } = tableResolve({ 'rebind.example.com': [['127.0.0.1'], ['10.0.0.1']] });
    const { options } = guarded({ allowedNetworks: networks('127.0.0.0/8') }, resolve);
    const url = `http://rebind.example.com:${server.port}/`;
    expect(await fetchRobotsTxt(url, options)).toMatchObject({ outcome: 'rules' });
    expect(await fetchRobotsTxt(url, options)).toMatchObject({ reason: 'host-refused' });
    expect(asked).toEqual(['rebind.example.com', 'rebind.example.com']);
    expect(server.count()).toBe(1);
    expect(attempts.some((attempt) => attempt.target.includes('10.0.0.1'))).toBe(false);
  });

  it('a name the table does not know is a network error, as a DNS failure is', async () => {
    const { options } = guarded({}, tableResolve({}).resolve);
    expect(await fetchRobotsTxt('http://unknown.example.com/', options)).toMatchObject({ reason: 'network-error' });
  });
});

describe('redirects are checked at every hop', () => {
  it('a redirect from the loopback server to http://10.0.0.1/robots.txt is refused, never connected', async () => {
    const server = await startServer({ '/robots.txt': redirect('http://10.0.0.1/robots.txt') });
    const { guard, options } = guarded({ allowedNetworks: networks('127.0.0.1') }, tableResolve({}).resolve);
    const result = await fetchRobotsTxt(server.origin, options);
    expect(result).toMatchObject({
      outcome: 'allow-all',
      reason: 'redirect-refused',
      status: 301,
      finalUrl: `${server.origin}/robots.txt`,
    });
    expect(guard.lastRefusal).toEqual({ host: '10.0.0.1', address: undefined });
    expect(attempts.map((attempt) => attempt.target)).toEqual([`127.0.0.1:${server.port}`]);
  });

  it('a redirect to a name that resolves to an internal address is refused at its lookup', async () => {
    const server = await startServer({ '/robots.txt': redirect('http://moved.example.com/robots.txt') });
    const { resolve, asked } = tableResolve({ 'moved.example.com': [['169.254.169.254']] });
    const { guard, options } = guarded({ allowedNetworks: networks('127.0.0.1') }, resolve);
    expect(await fetchRobotsTxt(server.origin, options)).toMatchObject({ outcome: 'allow-all', reason: 'redirect-refused', redirects: 1 });
    expect(asked).toEqual(['moved.example.com']);
    expect(guard.lastRefusal).toEqual({ host: 'moved.example.com', address: '169.254.169.254' });
  });
});

describe("the guard's fetch holds the line on its own", () => {
  it.each([
    'http://169.254.169.254/robots.txt',
    'http://[::ffff:a9fe:a9fe]/robots.txt',
    'http://2130706433/robots.txt',
    'http://localhost/',
  ])('refuses %s with a HostRefusedError, without allowHost and without a connection', async (url) => {
    const { guard } = guarded({}, tableResolve({}).resolve);
    const init = { method: 'GET', redirect: 'manual', headers: {}, signal: new AbortController().signal } as const;
    await expect(guard.fetch(url, init)).rejects.toBeInstanceOf(HostRefusedError);
    expect(attempts).toEqual([]);
  });
});

describe('the fetch over node:http reads responses as fetch() does', () => {
  /** The plain fetch, on 127.0.0.1 literals: no lookup may happen. */
  const fetch = httpFetch(() => {
    throw new Error('no name is looked up for an IP literal');
  });
  const options = { userAgent: UA, fetch, timeoutMs: 5_000 };

  it.each([
    ['gzip', gzipSync(RULES)],
    ['x-gzip', gzipSync(RULES)],
    ['deflate', deflateSync(RULES)],
    ['br', brotliCompressSync(RULES)],
    ['deflate, gzip', gzipSync(deflateSync(RULES))],
    ['identity', Buffer.from(RULES)],
  ])('decodes Content-Encoding: %s', async (coding, body) => {
    const server = await startServer({ '/robots.txt': text(body, 200, { 'content-encoding': coding }) });
    const result = await fetchRobotsTxt(server.origin, options);
    expect(result).toMatchObject({ outcome: 'rules', bytes: RULES.length });
    expect(result.robots?.isAllowed('/private/x', 'ExampleBot')).toBe(false);
    expect(server.requests[0]?.headers['accept-encoding']).toBe('gzip, deflate, br');
    expect(server.requests[0]?.headers['user-agent']).toBe(UA);
  });

  it('leaves a body of an unknown coding as it came, as undici does', async () => {
    const server = await startServer({ '/robots.txt': text(RULES, 200, { 'content-encoding': 'zz-unknown' }) });
    expect(await fetchRobotsTxt(server.origin, options)).toMatchObject({ outcome: 'rules', bytes: RULES.length });
  });

  it('a gzip bomb is read only up to maxBytes: the download stops there', async () => {
    const server = await startServer({
      '/robots.txt': text(gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x41)), 200, { 'content-encoding': 'gzip' }),
    });
    const result = await fetchRobotsTxt(server.origin, { ...options, maxBytes: 1000 });
    expect(result).toMatchObject({ outcome: 'rules', bytes: 1000, truncated: true, bytesIgnored: undefined });
  });

  it('a corrupt compressed body breaks off: unreachable', async () => {
    const server = await startServer({ '/robots.txt': text('not gzip at all', 200, { 'content-encoding': 'gzip' }) });
    expect(await fetchRobotsTxt(server.origin, options)).toMatchObject({ outcome: 'disallow-all', reason: 'body-interrupted' });
  });

  it('a connection closed before the body ends breaks off', async () => {
    const server = await startServer({
      '/robots.txt': (_request, response) => {
        response.writeHead(200, { 'content-length': '1000' });
        response.write('User-agent: *\n');
        setTimeout(() => response.socket?.destroy(), 20);
      },
    });
    expect(await fetchRobotsTxt(server.origin, options)).toMatchObject({ outcome: 'disallow-all', reason: 'body-interrupted' });
  });

  it('statuses as they came: 204 is an empty file, 404 allows all, 599 and 700 are server errors', async () => {
    const server = await startServer({ '/robots.txt': status(204) });
    expect(await fetchRobotsTxt(server.origin, options)).toMatchObject({ outcome: 'rules', status: 204, bytes: 0 });
    server.route('/robots.txt', status(404));
    expect(await fetchRobotsTxt(server.origin, options)).toMatchObject({ outcome: 'allow-all', status: 404 });
    for (const code of [599, 700]) {
      server.route('/robots.txt', status(code));
      expect(await fetchRobotsTxt(server.origin, options)).toMatchObject({ outcome: 'disallow-all', reason: 'server-error', status: code });
    }
  });

  it('the deadline aborts a server that never answers, and one whose body stalls', async () => {
    const server = await startServer({ '/robots.txt': hang });
    expect(await fetchRobotsTxt(server.origin, { ...options, timeoutMs: 200 })).toMatchObject({ reason: 'timeout' });
    server.route('/robots.txt', (_request, response) => void response.writeHead(200).write('User-agent: *\n'));
    expect(await fetchRobotsTxt(server.origin, { ...options, timeoutMs: 200 })).toMatchObject({ reason: 'timeout' });
  });

  it('redirects are handed back, not followed: the library follows them', async () => {
    const server = await startServer({ '/robots.txt': redirect('/moved.txt'), '/moved.txt': text(RULES) });
    const result = await fetchRobotsTxt(server.origin, options);
    expect(result).toMatchObject({ outcome: 'rules', redirects: 1, finalUrl: `${server.origin}/moved.txt` });
    expect(server.requests.map((request) => request.path)).toEqual(['/robots.txt', '/moved.txt']);
  });
});
