/**
 * `robotstxt filter` left to run unattended over input it does not control (a link dump, a crawl log): the
 * built command (dist/cli.js) run as a process. No line stops a batch; a URL's host is read as the WHATWG URL
 * parser reads it (https://url.spec.whatwg.org/#host-parsing), the same for --robots-dir and --fetch; saved
 * files are named so that every file system takes them and written without following a planted link; and
 * annotated output carries no control byte from a robots.txt or a URL. --fetch runs on the test network
 * (test/support/cli-network-preload.mjs): names resolve from a table, every socket stays on 127.0.0.1.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { run, runOnTestNetwork, type Run } from './support/cli.js';
import { closeServers, startServer, text } from './support/http-server.js';

const work = mkdtempSync(join(tmpdir(), 'robotstxt-unattended-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ownServers: Server[] = [];
afterEach(async () => {
  await closeServers();
  await Promise.all(
    ownServers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

const RULES = 'User-agent: *\nDisallow: /private\n';

function folder(name: string, files: Record<string, string> = {}): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, body] of Object.entries(files)) writeFileSync(join(dir, file), body);
  return dir;
}

/** The second column of annotated output: each line's verdict. */
function verdicts(result: Run): string[] {
  return result.stdout
    .split('\n')
    .slice(0, -1)
    .map((line) => line.split('\t')[1] as string);
}

/** The connection attempts of a run on the test network (`connect TARGET` or `refused TARGET`). */
function connections(result: Run): string[] {
  return [...result.stderr.matchAll(/^\[test-network\] (.*)$/gm)].map((match) => match[1] as string);
}

const FETCH = ['filter', '--agent', 'ExampleBot', '--fetch', '--allow-network', '127.0.0.1/32', '--emit', 'all', '--annotate'];

describe('no line stops a batch', () => {
  // Hosts the URL parser refuses: a percent-decoded `/`, an IPv4 number out of range, a forbidden code
  // point, an unclosed IPv6 literal, punycode that does not decode.
  const REFUSED = ['http://a%2Fb/x', 'http://256.1.1.1/x', 'http://a<b/x', 'http://[::1/x', 'http://xn--a/x'];

  it('--fetch: a line whose host the URL parser refuses is malformed, never fetched, and the batch goes on', async () => {
    const site = await startServer({ '/robots.txt': text(RULES) });
    const input = [`${site.origin}/private/a`, ...REFUSED, `${site.origin}/open`].join('\n');
    const result = await runOnTestNetwork(FETCH, {}, `${input}\n`);
    expect(result.code, result.stderr).toBe(0);
    expect(verdicts(result)).toEqual(['disallowed', ...REFUSED.map(() => 'malformed'), 'allowed']);
    expect(result.stdout.split('\n')[1]).toBe('http://a%2Fb/x\tmalformed\t0\t');
    expect(result.stderr).toMatch(/^lines: 7\nallowed: 1\ndisallowed: 1\nmalformed: 5\n/m);
    expect(result.stderr).not.toMatch(/Error|\n\s+at /);
    expect(connections(result)).toEqual([`connect 127.0.0.1:${site.port}`]);
  });

  it('--robots-dir reads those lines as malformed too, the same host reading', async () => {
    const dir = folder('refused', { 'example.com': RULES });
    const result = await run(
      ['filter', '--agent', 'ExampleBot', '--robots-dir', dir, '--emit', 'all', '--annotate', '-q'],
      REFUSED.join('\n'),
    );
    expect(result.code).toBe(0);
    expect(verdicts(result)).toEqual(REFUSED.map(() => 'malformed'));
  });
});

describe('a URL’s host is read as the URL parser reads it', () => {
  // fetch() of each of these asks example.com (or xn--bcher-kva.de) for /private, which its file disallows.
  const URLS = ['http://example.com./private', 'http://%65xample.com/private', 'HTTP://EXAMPLE.COM:80/private', 'http://bücher.de/private'];

  it('--robots-dir finds the host’s file for a trailing dot, a percent escape, upper case and an international name', async () => {
    const dir = folder('parsed', { 'example.com': RULES, 'xn--bcher-kva.de': RULES });
    const result = await run(['filter', '--agent', 'ExampleBot', '--robots-dir', dir, '--emit', 'all'], URLS.join('\n'));
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^lines: 4\nallowed: 0\ndisallowed: 4\nmalformed: 0\nhosts: 2, without robots.txt: 0$/m);
    const annotated = await run(
      ['filter', '--agent', 'ExampleBot', '--robots-dir', dir, '--emit', 'all', '--annotate', '-q'],
      URLS.join('\n'),
    );
    expect(verdicts(annotated)).toEqual(['disallowed', 'disallowed', 'disallowed', 'disallowed']);
  });

  it('--fetch asks the one host those spellings name, once, and saves it under the name --robots-dir reads', async () => {
    const site = await startServer({ '/robots.txt': text(RULES) });
    const input = ['http://example.com.', 'http://%65xample.com', 'HTTP://EXAMPLE.COM'].map((origin) => `${origin}:${site.port}/private`);
    const saved = join(work, 'parsed-saved');
    const result = await runOnTestNetwork([...FETCH, '--save-dir', saved], { 'example.com': ['127.0.0.1'] }, input.join('\n'));
    expect(result.code, result.stderr).toBe(0);
    expect(verdicts(result)).toEqual(['disallowed', 'disallowed', 'disallowed']);
    expect(site.count()).toBe(1);
    expect(site.requests[0]?.headers.host).toBe(`example.com:${site.port}`);
    expect(readdirSync(saved)).toEqual([`example.com_${site.port}`]);
  });
});
