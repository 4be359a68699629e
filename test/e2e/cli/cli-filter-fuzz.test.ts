/**
 * `robotstxt filter` over generated lines (seeded, bounded): random bytes, and URL-like lines from a grammar
 * of schemes, userinfo, hosts (IPv4 in every form the URL parser reads, IPv6 literals with zones, IDN and
 * punycode labels, labels of 63 characters and more, percent escapes, trailing dots), ports, paths and
 * queries. The built command runs as a process, with --robots-dir and with --fetch, each with --workers 1
 * and 2. The process never dies; every input line gets exactly one output line, in order, holding the line
 * (escaped, ./cli-filter-unattended.test.ts) and its verdict; the verdict is the one the WHATWG URL parser's
 * reading of the host and the library's string API give (https://url.spec.whatwg.org/#host-parsing); the
 * same lines are malformed with --fetch as with --robots-dir; the output is the same bytes for any number
 * of workers.
 *
 * With --fetch, nothing generated may reach a network: the command runs with the test network preloaded
 * (test/support/cli-network-preload.mjs: names resolve from an empty table, so no DNS query is made, and a
 * socket to anything but 127.0.0.1 is refused before it connects) and, where `unshare -rn` works, in a
 * network namespace of its own with no interface up, so that not even a packet could leave.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runForBytes, type BytesRun } from '../../support/cli.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const PRELOAD = join(ROOT, 'test/support/cli-network-preload.mjs');
const AGENT = 'ExampleBot';
const work = mkdtempSync(join(tmpdir(), 'robotstxt-filter-fuzz-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const unshare = spawnSync('unshare', ['-rn', 'true']).status === 0;

/** Host keys with a file in the robots folder, and the name each file has (the README's folder layout). */
const FILES: Record<string, { readonly name: string; readonly body: string }> = {
  'example.com': { name: 'example.com', body: 'User-agent: *\nDisallow: /private\nAllow: /private/open\n' },
  'example.com_8080': { name: 'example.com_8080', body: 'User-agent: *\nDisallow: /\n' },
  'xn--bcher-kva.de': { name: 'xn--bcher-kva.de', body: 'User-agent: *\nDisallow: /\nAllow: /public\n' },
  '127.0.0.1': { name: '127.0.0.1', body: 'User-agent: *\nDisallow: /p\n' },
  'secure.example_443': { name: 'secure.example_443', body: 'User-agent: *\nDisallow: /s\n' },
  '[::1]': { name: '%5b%3a%3a1%5d', body: 'User-agent: *\nDisallow: /v6\n' },
  'nul.example': { name: '%6eul.example', body: `User-agent: ${AGENT}\nDisallow: /n\n` },
};
const ROBOTS = join(work, 'robots');
mkdirSync(ROBOTS);
for (const { name, body } of Object.values(FILES)) writeFileSync(join(ROBOTS, name), body);

function runFilter(args: readonly string[], input: Buffer, network: boolean): Promise<BytesRun> {
  const node = [process.execPath, ...(network ? ['--import', PRELOAD] : []), CLI, 'filter', ...args];
  const [file, ...rest] = network && unshare ? ['unshare', '-rn', ...node] : node;
  return runForBytes([file as string, ...rest], input, { env: { ...process.env, ROBOTSTXT_TEST_DNS: '' } });
}

// The grammar.
const scheme = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('http://', 'https://', 'HTTP://', 'hTtPs://') },
  { weight: 1, arbitrary: fc.constantFrom('http:/', 'https:', 'ftp://', '//', '', 'http:\\\\') },
);
const userinfo = fc.oneof(
  { weight: 8, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.constantFrom('user@', 'u:p@', '@', 'a@b@', 'x%40y@', 'a:b:c@') },
);
const label = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('example', 'EXAMPLE', 'com', 'de', 'secure', 'www', 'a', 'x-y', 'a_b') },
  fc.constantFrom(
    'example',
    'EXAMPLE',
    'com',
    'de',
    'xn--bcher-kva',
    'XN--BCHER-KVA',
    'xn--a',
    'xn--',
    'xn--wgv71a',
    'bücher',
    'BÜCHER',
    '日本',
    'ß',
    '\u212aelvin',
    'a'.repeat(63),
    'b'.repeat(64),
    'c'.repeat(200),
    '%65xample',
    'ex%41mple',
    'a%2Fb',
    '%',
    '%zz',
    '%00',
    '%e2%82%ac',
    'nul',
    'con',
    'secure',
    'a*b',
    'a"b',
    'a<b',
    '_x',
    '-a-',
    'localhost',
    'internal',
    '0x7f',
    '1',
    '',
  ),
  fc.string({ unit: fc.constantFrom('a', 'z', '0', '9', '-', '_', '%', 'A', 'é'), maxLength: 8 }),
);
const name = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 4 }), fc.constantFrom('', '', '', '.', '..'))
  .map(([labels, end]) => `${labels.join('.')}${end}`);
const octet = fc.oneof(
  fc.nat(300).map(String),
  fc.nat(255).map((n) => `0x${n.toString(16)}`),
  fc.nat(255).map((n) => `0${n.toString(8)}`),
);
const ipv4 = fc.oneof(
  fc.constantFrom('127.0.0.1', '0x7f.1', '0177.0.0.1', '2130706433', '256.1.1.1', '1.2.3.4.', '8.8.8.8', '10.0.0.1', '169.254.169.254'),
  fc.constantFrom('0x', '1.2.3.0x4', '999999999999', '1.2.3', '0', '192.168.0.1', '4294967296', '0xffffffff'),
  fc.array(octet, { minLength: 1, maxLength: 5 }).map((octets) => octets.join('.')),
);
const ipv6 = fc.constantFrom(
  '[::1]',
  '[::1',
  '::1',
  '[fe80::1%25eth0]',
  '[fe80::1%eth0]',
  '[::ffff:127.0.0.1]',
  '[2001:db8::1]',
  '[2001:DB8:0:0:0:0:0:1]',
  '[]',
  '[v1.x]',
  '[::1]]',
  '[1:2:3:4:5:6:7:8]',
  '[::FFFF:8.8.8.8]',
  '[0:0:0:0:0:0:0:1]',
);
const known = fc.constantFrom(
  'example.com',
  'EXAMPLE.COM',
  'example.com.',
  '%65xample.com',
  'xn--bcher-kva.de',
  'bücher.de',
  'secure.example',
);
const host = fc.oneof(
  { weight: 3, arbitrary: name },
  { weight: 2, arbitrary: ipv4 },
  { weight: 1, arbitrary: ipv6 },
  { weight: 3, arbitrary: known },
  { weight: 1, arbitrary: fc.constantFrom('nul.example', 'NUL.example', '127.0.0.1') },
);
const port = fc.oneof(
  { weight: 6, arbitrary: fc.constant('') },
  { weight: 3, arbitrary: fc.constantFrom(':', ':80', ':443', ':8080', ':08080', ':65535', ':0', ':00080') },
  { weight: 1, arbitrary: fc.constantFrom(':65536', ':abc', ':99999999999', ':80:90') },
);
const pathPart = fc.constantFrom(
  '/',
  'private',
  'open',
  'public',
  'p',
  's',
  'v6',
  'n',
  '%2F',
  '%70rivate',
  'é',
  '\u001b[31m',
  '\t',
  ' ',
  '\\',
  '..',
  '*',
  '$',
  '\u007f',
  // Not NUL: a NUL byte in the first 64 KiB refuses the whole input as binary (test/e2e/cli/cli-filter-input.test.ts).
  '\u0001',
  '\r',
);
const path = fc.oneof(
  { weight: 6, arbitrary: fc.array(pathPart, { maxLength: 6 }).map((parts) => `/${parts.join('')}`) },
  { weight: 1, arbitrary: fc.array(pathPart, { maxLength: 6 }).map((parts) => parts.join('')) },
);
const query = fc.constantFrom('', '', '', '?q=1', '?a=b&c', '#frag', '?x#y', '?/private');
const url = fc.tuple(scheme, userinfo, host, port, path, query).map((parts) => Buffer.from(parts.join('')));
const noise = fc.uint8Array({ maxLength: 80 }).map((bytes) => Buffer.from(bytes.filter((byte) => byte !== 0x0a && byte !== 0x00)));
const line = fc.oneof({ weight: 5, arbitrary: url }, { weight: 1, arbitrary: noise });

/** A log of `count` generated lines and two more (a long one, the last), ending with a newline or not. */
function generatedLog(seed: number, count: number): { input: Buffer; lines: Buffer[] } {
  // The first line a URL: noise there could start with a signature (gzip, a byte order mark) and be read as one.
  const lines = [Buffer.from('https://example.com/first'), ...fc.sample(line, { seed, numRuns: count })];
  lines.splice(count >> 1, 0, Buffer.from(`https://example.com/${'x'.repeat(70 * 1024)}`));
  // Not empty: an empty last line without its newline would be no line at all.
  lines.push(Buffer.from('https://example.com/private/open'));
  const joined = lines.map((bytes) => Buffer.concat([bytes, Buffer.from('\n')]));
  const input = Buffer.concat(joined);
  return { input: seed % 2 === 0 ? input : input.subarray(0, -1), lines };
}

// The oracle.
const decoder = new TextDecoder();
const { parseRobotsTxt } = (await import(join(ROOT, 'dist/index.js'))) as typeof import('../../../src/index.js');
const rules = new Map(Object.entries(FILES).map(([key, { body }]) => [key, parseRobotsTxt(body).forAgent(AGENT)]));

type Verdict = 'allowed' | 'disallowed' | 'malformed';

/** The host key of a line as the URL parser reads it (README: the folder layout), or undefined: malformed. */
function hostOf(text: string, bytes: Buffer): { key: string; defaultPort: string | undefined } | undefined {
  const scheme = /^https?:\/\//i.exec(bytes.toString('latin1'));
  if (scheme === null) return undefined;
  let end = scheme[0].length;
  while (end < bytes.length && !'/?#\\'.includes(String.fromCharCode(bytes[end] as number))) end++;
  const authority = bytes.subarray(scheme[0].length, end);
  if (authority.some((byte) => byte <= 0x20 || byte === 0x7f)) return undefined;
  if (authority.lastIndexOf(0x40) === authority.length - 1) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.hostname === '.') return undefined;
  const hostname = url.hostname.replace(/(?<=[^.])\.$/, '');
  const defaultPort = url.protocol === 'https:' ? '443' : '80';
  return url.port === '' ? { key: hostname, defaultPort } : { key: `${hostname}_${url.port}`, defaultPort: undefined };
}

/** What --robots-dir (with --missing disallow) or --fetch (where no host can be reached) must say of a line. */
function expected(bytes: Buffer, source: 'dir' | 'fetch'): Verdict {
  const content = bytes[bytes.length - 1] === 0x0d ? bytes.subarray(0, -1) : bytes;
  if (content.length > 64 * 1024) return 'malformed';
  const text = decoder.decode(content);
  const host = hostOf(text, content);
  if (host === undefined) return 'malformed';
  if (source === 'fetch') return 'disallowed';
  const found = rules.get(host.key) ?? (host.defaultPort === undefined ? undefined : rules.get(`${host.key}_${host.defaultPort}`));
  return found?.isAllowed(text) === true ? 'allowed' : 'disallowed';
}

/** The line as a TSV field writes it: C0 bytes, DEL, `\` and C1 controls in UTF-8 (C2 80 to C2 9F) escaped. */
function escaped(bytes: Buffer): Buffer {
  const content = bytes[bytes.length - 1] === 0x0d ? bytes.subarray(0, -1) : bytes;
  const names: Record<number, string> = { 0x09: '\\t', 0x0a: '\\n', 0x0d: '\\r', 0x5c: '\\\\' };
  const hex = (byte: number): string => `\\x${byte.toString(16).padStart(2, '0')}`;
  let text = '';
  for (let i = 0; i < content.length; i++) {
    const byte = content[i] as number;
    const next = content[i + 1];
    if (byte < 0x20 || byte === 0x7f || byte === 0x5c) text += names[byte] ?? hex(byte);
    else if (byte === 0xc2 && next !== undefined && next >= 0x80 && next <= 0x9f) text += hex(byte) + hex(content[++i] as number);
    else text += String.fromCharCode(byte);
  }
  return Buffer.from(text, 'latin1');
}

/** Checks a run's output line by line against the input's lines, and returns the verdicts. */
function checkRun(result: BytesRun, lines: readonly Buffer[], source: 'dir' | 'fetch'): Verdict[] {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).not.toMatch(/\n\s+at |Error/);
  const out: Buffer[] = [];
  for (let start = 0; start < result.stdout.length;) {
    const newline = result.stdout.indexOf(0x0a, start);
    out.push(result.stdout.subarray(start, newline));
    start = newline + 1;
  }
  expect(out.length).toBe(lines.length);
  const verdicts: Verdict[] = [];
  lines.forEach((bytes, i) => {
    const what = `line ${i}: ${JSON.stringify(bytes.toString('latin1'))}`;
    // No field holds a TAB: n, url, verdict, reason, rule kind, pattern and line, and the raw line when malformed.
    const fields = (out[i] as Buffer).toString('latin1').split('\t');
    expect(fields, what).toHaveLength(8);
    const [n, url, verdict, reason, , , ruleLine, text] = fields;
    expect(n, what).toBe(String(i + 1));
    expect(verdict, what).toBe(expected(bytes, source));
    // The line is the URL when it is decided, and the text when it is not.
    expect(verdict === 'malformed' ? text : url, what).toBe(escaped(bytes).toString('latin1'));
    expect(verdict === 'malformed' ? url : text, what).toBe('');
    if (verdict === 'malformed') expect([reason, ruleLine], what).toEqual(['malformed', '']);
    verdicts.push(verdict as Verdict);
  });
  const count = (name: Verdict | undefined): string =>
    verdicts.filter((verdict) => name === undefined || verdict === name).length.toLocaleString('en-US');
  expect(result.stderr).toContain(
    `lines: ${count(undefined)}\nallowed: ${count('allowed')}\ndisallowed: ${count('disallowed')}\nmalformed: ${count('malformed')}\n`,
  );
  return verdicts;
}

describe('filter over generated lines', () => {
  const ARGS = ['--agent', AGENT, '--emit', 'all', '--format', 'tsv', '--no-header', '--missing', 'disallow', '--allow-malformed'];

  it.each([0x5eed_0001, 0x5eed_0002, 0x5eed_0003])(
    'seed %i: --robots-dir and --fetch give every line one verdict, the URL parser’s host’s, for any number of workers',
    async (seed) => {
      const { input, lines } = generatedLog(seed, 1500);
      const dir = ['--robots-dir', ROBOTS];
      const dirOne = await runFilter([...ARGS, ...dir, '--workers', '1'], input, false);
      const dirVerdicts = checkRun(dirOne, lines, 'dir');
      const dirTwo = await runFilter([...ARGS, ...dir, '--workers', '2'], input, false);
      expect(dirTwo.stdout.equals(dirOne.stdout)).toBe(true);
      // The plain output (no --annotate, through the WebAssembly line scanner): the allowed lines as they came.
      const plain = await runFilter(['--agent', AGENT, '--missing', 'disallow', '-q', ...dir], input, false);
      const allowed = lines.filter((_, i) => dirVerdicts[i] === 'allowed');
      expect(plain.stdout.equals(Buffer.concat(allowed.map((bytes) => Buffer.concat([bytes, Buffer.from('\n')]))))).toBe(true);

      const fetch = ['--fetch', '--timeout', '5000', '--concurrency', '32'];
      const fetchOne = await runFilter([...ARGS, ...fetch, '--workers', '1'], input, true);
      const fetchVerdicts = checkRun(fetchOne, lines, 'fetch');
      expect(fetchVerdicts.map((verdict) => verdict === 'malformed')).toEqual(dirVerdicts.map((verdict) => verdict === 'malformed'));
      // Nothing was connected to: every name failed its (table) lookup, every address was refused or unreachable.
      expect(fetchOne.stderr).not.toMatch(/^\[test-network\] connect /m);
      const fetchTwo = await runFilter([...ARGS, ...fetch, '--workers', '2'], input, true);
      expect(fetchTwo.stdout.equals(fetchOne.stdout)).toBe(true);
    },
    30_000,
  );
});
