/**
 * Where the built command's fetches may go (src/cli/host-guard.ts): `fetch`, `check`, `lint` of a URL and
 * `filter --fetch` refuse internal hosts by default, as written and as resolved, at the first request and
 * at every redirect. The command runs on the test network (test/support/cli-network-preload.mjs): names
 * resolve from a table, never from real DNS, every socket stays on 127.0.0.1, and each connection attempt
 * is written to stderr as `[test-network] connect|refused TARGET`, so that a host refused is seen never
 * to be requested.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runOnTestNetwork as run, type Run } from '../../support/cli.js';
import { closeServers, redirect, startServer, text } from '../../support/http-server.js';

const RULES = 'User-agent: *\nDisallow: /private/\n';
const work = mkdtempSync(join(tmpdir(), 'robotstxt-hosts-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(closeServers);

/** The connection attempts the run made (`connect TARGET` or `refused TARGET`). */
function connections(result: Run): string[] {
  return [...result.stderr.matchAll(/^\[test-network\] (.*)$/gm)].map((match) => match[1] as string);
}

function json(result: Run): Record<string, unknown> {
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

describe('fetch and check refuse internal hosts by default', () => {
  it('fetch http://169.254.169.254/ is refused, reported, and never requested', async () => {
    const result = await run(['fetch', 'http://169.254.169.254/latest/meta-data/']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('outcome       disallow-all (host-refused): the host is internal and was not fetched');
    expect(result.stderr).toContain(
      'robotstxt: note: 169.254.169.254 is an internal host: not fetched (--allow-internal-hosts or --allow-network CIDR allows it)',
    );
    expect(connections(result)).toEqual([]);
  });

  it.each([
    ['http://2852039166/', '169.254.169.254 in decimal'],
    ['http://0251.0376.0251.0376/', '169.254.169.254 in octal'],
    ['http://0x7f.1:9/', '127.0.0.1 in hex'],
    ['http://[::ffff:169.254.169.254]/', 'IPv4-mapped'],
    ['http://[fd00:ec2::254]/', "AWS's IPv6 metadata endpoint"],
    ['http://metadata.google.internal/', "Google Cloud's metadata name"],
    ['http://localhost:9/', 'localhost'],
  ])('fetch --format json %s is refused (%s)', async (url) => {
    const result = await run(['fetch', '--format', 'json', url]);
    expect(json(result)).toMatchObject({ outcome: 'disallow-all', reason: 'host-refused', status: 0, cacheLifetimeMs: 60_000 });
    expect(connections(result)).toEqual([]);
  });

  it('check of an internal URL disallows every path (exit 1) and says why', async () => {
    const result = await run(['check', 'http://10.0.0.1/', 'ExampleBot', '/a']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      'fetched http://10.0.0.1/robots.txt: no response, disallow-all (host-refused): the host is internal and was not fetched, ' +
        'so nothing may be crawled\ndisallowed  /a  (disallow-all: host-refused)\n',
    );
    expect(result.stderr).toContain('note: 10.0.0.1 is an internal host');
    expect(connections(result)).toEqual([]);
  });

  it('lint of an internal URL has no file to lint (exit 2) and says why', async () => {
    const result = await run(['lint', 'http://192.168.1.1/']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/host-refused.*there is no file to lint/);
    expect(connections(result)).toEqual([]);
  });

  it('a public-looking name that resolves to 10.0.0.1 is refused at its lookup, without a connection', async () => {
    const result = await run(['fetch', '--format', 'json', 'http://intranet.example.com/'], { 'intranet.example.com': ['10.0.0.1'] });
    expect(json(result)).toMatchObject({ reason: 'host-refused' });
    expect(result.stderr).toContain('note: intranet.example.com resolves to 10.0.0.1, an internal address: not fetched');
    expect(connections(result)).toEqual([]);
  });

  it('a name that resolves to 127.0.0.1 reaches the loopback server with --allow-internal-hosts, and only with it', async () => {
    const server = await startServer({ '/robots.txt': text(RULES) });
    const dns = { 'site.example.com': ['127.0.0.1'] };
    const url = `http://site.example.com:${server.port}/`;
    expect(json(await run(['fetch', '--format', 'json', url], dns))).toMatchObject({ reason: 'host-refused' });
    expect(server.count()).toBe(0);
    const allowed = await run(['fetch', '--format', 'json', '--allow-internal-hosts', url], dns);
    expect(json(allowed)).toMatchObject({ outcome: 'rules', status: 200 });
    expect(connections(allowed)).toEqual([`connect site.example.com (127.0.0.1):${server.port}`]);
    expect(server.count()).toBe(1);
  });

  it('a redirect from the loopback server to http://10.0.0.1/robots.txt is refused (--allow-network lets the server through)', async () => {
    const server = await startServer({ '/robots.txt': redirect('http://10.0.0.1/robots.txt') });
    const result = await run(['fetch', '--format', 'json', '--allow-network', '127.0.0.1/32', server.origin]);
    expect(json(result)).toMatchObject({ outcome: 'allow-all', reason: 'redirect-refused', status: 301, redirects: 0 });
    expect(result.stderr).toContain('note: 10.0.0.1 is an internal host: not fetched');
    expect(connections(result)).toEqual([`connect 127.0.0.1:${server.port}`]);
  });

  it.each([
    [['--allow-network', '10.0.0.0/33'], /--allow-network takes an IP address or a range in CIDR notation/],
    [['--allow-network', 'example.com'], /--allow-network takes/],
    [['--allow-internal-hosts=yes'], /allow-internal-hosts/],
  ])('a bad host flag is a usage error: %j', async (flags, message) => {
    const result = await run(['fetch', ...flags, 'http://10.0.0.1/']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(connections(result)).toEqual([]);
  });
});

describe('filter --fetch refuses internal hosts by default', () => {
  it('counts each refused host, reads it as the library does, records it, and never requests it', async () => {
    const site = await startServer({ '/robots.txt': text(RULES) });
    const moved = await startServer({ '/robots.txt': redirect('http://10.0.0.1/robots.txt') });
    const input = [
      `${site.origin}/a`,
      `${site.origin}/private/b`,
      'http://169.254.169.254/latest/meta-data/',
      'http://0251.0376.0251.0376/latest/',
      `${moved.origin}/c`,
      `http://intranet.example.com/d`,
    ].join('\n');
    const saved = join(work, 'saved');
    const result = await run(
      [
        'filter',
        '--agent',
        'ExampleBot',
        '--fetch',
        '--allow-network',
        `127.0.0.1/32`,
        '--save-dir',
        saved,
        '--missing',
        'disallow',
        '--emit',
        'all',
        '--format',
        'tsv',
        '--no-header',
        '--workers',
        '1',
      ],
      { 'intranet.example.com': ['192.168.0.7'] },
      `${input}\n`,
    );
    expect(result.code, result.stderr).toBe(0);
    // Refused at the first request: disallow-all. A redirect to a refused host: allow-all (the library's
    // outcome table), whatever --missing says.
    expect(result.stdout.split('\n').map((line) => line.split('\t')[2])).toEqual([
      'allowed',
      'disallowed',
      'disallowed',
      'disallowed',
      'allowed',
      'disallowed',
      undefined,
    ]);
    // Fetched concurrently: the hosts are named in the order their refusals came. The URL parser reads
    // 0251.0376.0251.0376 as 169.254.169.254: one host, refused once.
    const refused = /^refused hosts: 2 \((.*)\): internal, not fetched; their lines are disallowed/m.exec(result.stderr);
    expect(refused?.[1]?.split(', ').sort()).toEqual(['169.254.169.254', 'intranet.example.com']);
    expect(result.stderr).toMatch(
      new RegExp(`^redirects to refused hosts: 1 \\(127\\.0\\.0\\.1_${moved.port}\\): not followed; their lines are allowed`, 'm'),
    );
    expect(result.stderr).toMatch(/hosts: 4, without robots\.txt: 0/);
    // Only the site's file is saved; every host's fetch is recorded, the refused ones included, for a replay.
    const site1 = `127.0.0.1_${site.port}`;
    const hosts = [site1, '169.254.169.254', `127.0.0.1_${moved.port}`, 'intranet.example.com'];
    expect(readdirSync(saved).sort()).toEqual([site1, ...hosts.map((host) => `${host}%outcome.json`)].sort());
    expect(connections(result).sort()).toEqual([`connect 127.0.0.1:${moved.port}`, `connect 127.0.0.1:${site.port}`].sort());
  });

  it('with the default --missing allow, refused hosts are still disallowed: --missing is for hosts with no robots.txt', async () => {
    const result = await run(
      ['filter', '--agent', 'ExampleBot', '--fetch', '--emit', 'all', '--format', 'tsv', '--no-header'],
      {},
      'http://10.1.2.3/x\n',
    );
    expect(result.stdout).toBe('1\thttp://10.1.2.3/x\tdisallowed\trefused\t\t\t\t\n');
    expect(result.stderr).toMatch(/^refused hosts: 1 \(10\.1\.2\.3\): internal, not fetched/m);
    expect(connections(result)).toEqual([]);
  });

  it('the host flags go with --fetch', async () => {
    const result = await run(['filter', '--agent', 'ExampleBot', '--robots', 'robots.txt', '--allow-internal-hosts']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--allow-internal-hosts goes with --fetch or --robots-dir/);
  });
});
