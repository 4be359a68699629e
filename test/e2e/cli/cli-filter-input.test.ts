/**
 * What `robotstxt filter` reads: files and `-` for stdin anywhere in the list;
 * gzip by name or content (concatenated members too) and brotli by name, decoded as they stream; a UTF-8
 * byte order mark dropped; bzip2, xz, zstd, UTF-16 and binary input refused whole with nothing written;
 * unreadable files as one-line usage errors; the access-log formats users have; and one reading of a line:
 * with --robots FILE every non-empty line is decided as the library's rules.isAllowed(line) reads it, on
 * the WebAssembly fast path and the line-by-line path alike. The built command runs as a process.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runForBytes, type BytesRun } from '../../support/cli.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'robotstxt-filter-input-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function file(name: string, content: string | Uint8Array): string {
  const path = join(work, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  return path;
}

const AGENT = 'ExampleBot';
const ROBOTS_TEXT = [
  'User-agent: ExampleBot',
  'Disallow: /private/',
  'Allow: /private/open',
  'Disallow: /*.pdf$',
  'Disallow: /ü/',
  'Disallow: /%2Fsecret',
  'Disallow: /Upper',
  'Disallow: /cart',
  '',
].join('\n');
const ONE = file('one.txt', ROBOTS_TEXT);
const DIR = join(work, 'robots');
file('robots/example.com', ROBOTS_TEXT);
file('robots/shop.example', 'User-agent: *\nDisallow: /cart\n');
file('robots/www.example.com_8080', 'User-agent: *\nDisallow: /\n');

/** `robotstxt filter --agent ExampleBot ARGS` with `input` on stdin, its output as bytes. */
function filter(args: readonly string[], input: Buffer | string = ''): Promise<BytesRun> {
  return runForBytes([process.execPath, CLI, 'filter', '--agent', AGENT, ...args], input, { cwd: work });
}

/** A refused or failed run: exit 2, nothing on stdout, one line on stderr (no stack trace). */
function expectUsageError(result: BytesRun, message: RegExp): void {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stdout.length).toBe(0);
  expect(result.stderr).toMatch(message);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

/** The verdict column of `--format tsv --emit all` output, after its header line. */
function verdicts(result: BytesRun): string[] {
  return result.stdout
    .toString()
    .split('\n')
    .slice(1, -1)
    .map((line) => line.split('\t')[2] as string);
}

describe('files and stdin', () => {
  it('reads - as stdin anywhere in the FILE list, stdin alone when no FILE is named', async () => {
    const a = file('a.txt', 'https://example.com/a\nhttps://example.com/private/a\n');
    const b = file('b.log.gz', gzipSync('https://example.com/b\n'));
    const result = await filter(['--robots-dir', DIR, '-q', a, '-', b], 'https://example.com/stdin\n');
    expect(result.code).toBe(0);
    expect(result.stdout.toString()).toBe('https://example.com/a\nhttps://example.com/stdin\nhttps://example.com/b\n');
    const alone = await filter(['--robots-dir', DIR, '-q'], 'https://example.com/alone\nhttps://example.com/cart\n');
    expect(alone.stdout.toString()).toBe('https://example.com/alone\n');
  });

  it('a last line without a newline does not run into the next input’s first line', async () => {
    const a = file('no-newline.txt', 'https://example.com/a');
    const result = await filter(['--robots-dir', DIR, '-q', a, '-', a], 'https://example.com/private/x');
    expect(result.stdout.toString()).toBe('https://example.com/a\nhttps://example.com/a\n');
  });

  it('- twice is a usage error', async () => {
    expectUsageError(await filter(['--robots-dir', DIR, '-', '-']), /stdin can be read once/);
  });

  it('an unreadable file is a one-line usage error before any output, wherever it is in the list', async () => {
    const good = file('good.txt', 'https://example.com/a\n');
    expectUsageError(await filter(['--robots-dir', DIR, good, 'missing.log']), /^robotstxt: cannot read missing\.log: no such file\n$/);
    expectUsageError(await filter(['--robots-dir', DIR, good, DIR]), /^robotstxt: cannot read .*robots: is a directory\n$/);
  });

  it.skipIf(process.getuid?.() === 0)('a file it may not read: permission denied', async () => {
    const locked = file('locked.txt', 'https://example.com/a\n');
    chmodSync(locked, 0o000);
    expectUsageError(await filter(['--robots-dir', DIR, locked]), /cannot read .*locked\.txt: permission denied/);
  });
});

describe('compression', () => {
  const text = 'https://example.com/a\nhttps://example.com/private/x\nhttps://example.com/b\n';
  const expected = 'https://example.com/a\nhttps://example.com/b\n';

  it('gzip by name, by content, and concatenated .gz files read whole; brotli by its .br name', async () => {
    for (const [name, bytes] of [
      ['plain.gz', gzipSync(text)],
      ['no-suffix.log', gzipSync(text)],
      ['members.gz', Buffer.concat([gzipSync(text.slice(0, 30)), gzipSync(text.slice(30))])],
      ['urls.br', brotliCompressSync(text)],
    ] as const) {
      const result = await filter(['--robots-dir', DIR, '-q', file(name, bytes)]);
      expect(result.stdout.toString(), name).toBe(expected);
      expect(result.code, name).toBe(0);
    }
    const piped = await filter(['--robots-dir', DIR, '-q', '-'], Buffer.concat([gzipSync(text.slice(0, 30)), gzipSync(text.slice(30))]));
    expect(piped.stdout.toString()).toBe(expected);
  });

  it('a .br that is not brotli, or a .gz that is not gzip, is a usage error', async () => {
    expectUsageError(await filter(['--robots-dir', DIR, file('plain.br', text)]), /^robotstxt: .*plain\.br is not valid brotli\n$/);
    expectUsageError(await filter(['--robots-dir', DIR, file('plain-text.gz', text)]), /plain-text\.gz is not valid gzip/);
  });

  it('a stream cut short or corrupt: one line, exit 2 (nothing written when it is found in the head)', async () => {
    const gz = gzipSync(text);
    expectUsageError(await filter(['--robots-dir', DIR, file('cut.gz', gz.subarray(0, gz.length - 6))]), /cut\.gz.*gzip/);
    const br = brotliCompressSync(text);
    expectUsageError(await filter(['--robots-dir', DIR, file('cut.br', br.subarray(0, br.length - 2))]), /cut\.br.*brotli/);
  });

  it('a stream cut short far into it: the batches before it may stand, then one line and exit 2', async () => {
    // About 7 MB of lines, more than a batch (4 MiB), that do not compress to nothing.
    const lines: string[] = [];
    for (let i = 0; lines.length < 200_000; i++) lines.push(`https://example.com/p/${(i * 2654435761) % 1e9}/${i}`);
    const gz = gzipSync(`${lines.join('\n')}\n`);
    const result = await filter(['--robots-dir', DIR, '-q', file('long-cut.gz', gz.subarray(0, gz.length - 1000))]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^robotstxt: .*long-cut\.gz: the gzip stream is cut short or corrupt/);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    // What was written is whole lines of the input, in order.
    const written = result.stdout.toString();
    expect(`${lines.join('\n')}\n`.startsWith(written)).toBe(true);
  });

  it('streams a large gzip input with a 64 MiB heap', async () => {
    const line = 'https://example.com/some/longer/path/to/a/page?with=a&query=string\n';
    const gz = gzipSync(line.repeat(1_500_000));
    const path = file('large.gz', gz);
    const result = await runForBytes(
      [
        process.execPath,
        '--max-old-space-size=64',
        CLI,
        'filter',
        '--agent',
        AGENT,
        '--robots-dir',
        DIR,
        '--workers',
        '1',
        '--emit',
        'disallowed',
        path,
      ],
      '',
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/lines: 1,?500,?000\n/);
  });
});

describe('a UTF-8 byte order mark', () => {
  it('is dropped at the start of each input (plain, gzip, stdin): the first line is decided, not malformed', async () => {
    const bom = '\uFEFF';
    const a = file('bom.txt', `${bom}https://example.com/a\n`);
    const b = file('bom.gz', gzipSync(`${bom}https://example.com/private/b\nhttps://example.com/b\n`));
    const result = await filter(
      ['--robots-dir', DIR, '--format', 'tsv', '--emit', 'all', '-q', a, b, '-'],
      `${bom}https://example.com/c\n`,
    );
    expect(verdicts(result)).toEqual(['allowed', 'disallowed', 'allowed', 'allowed']);
    const plain = await filter(['--robots-dir', DIR, '-q', a, b, '-'], `${bom}https://example.com/c\n`);
    expect(plain.stdout.toString()).toBe('https://example.com/a\nhttps://example.com/b\nhttps://example.com/c\n');
  });
});

describe('refused inputs', () => {
  const good = file('fine.txt', 'https://example.com/a\n');
  const cases: readonly [string, Buffer, RegExp][] = [
    [
      'logs.bz2',
      Buffer.concat([Buffer.from('BZh91AY&SY'), Buffer.alloc(40, 7)]),
      /logs\.bz2 is bzip2-compressed, .*bzcat .*logs\.bz2 \| robotstxt filter … -\n$/,
    ],
    ['logs.xz', Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0x00, 0x04, 0xe6, 0xd6]), /logs\.xz is xz-compressed, .*xzcat /],
    ['logs.zst', Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x05, 0x29, 0x00]), /logs\.zst is zstd-compressed, .*zstdcat /],
    ['utf16le.txt', Buffer.from('\uFEFFhttps://example.com/a\n', 'utf16le'), /utf16le\.txt is UTF-16 text.*iconv -f UTF-16 -t UTF-8 /],
    ['utf16be.txt', Buffer.from('\uFEFFhttps://example.com/a\n', 'utf16le').swap16(), /utf16be\.txt is UTF-16 text/],
    [
      'image.png',
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]),
      /image\.png is binary, not text \(a NUL byte/,
    ],
    [
      'late-nul.txt',
      Buffer.concat([Buffer.from(`https://example.com/a\n`.repeat(2800)), Buffer.from([0])]),
      /late-nul\.txt is binary, not text/,
    ],
    ['utf16.gz', gzipSync(Buffer.from('\uFEFFhttps://example.com/a\n', 'utf16le')), /utf16\.gz is UTF-16 text/],
    ['nul.br', brotliCompressSync(Buffer.from('https://example.com/a\n\0\n')), /nul\.br is binary, not text/],
  ];

  it.each(cases)('%s, third in the list: exit 2, nothing written, one line that says how to feed it', async (name, bytes, message) => {
    const result = await filter(['--robots-dir', DIR, good, good, file(name, bytes)]);
    expectUsageError(result, message);
    expect(result.stderr).toMatch(/^robotstxt: /);
  });

  it('on stdin too, with the pipe to put it through', async () => {
    const [, bz2] = cases[0] as [string, Buffer, RegExp];
    expectUsageError(
      await filter(['--robots-dir', DIR, good, '-'], bz2),
      /^robotstxt: the input on stdin is bzip2-compressed, .*… \| bzcat \| robotstxt filter … -\n$/,
    );
    expectUsageError(await filter(['--robots-dir', DIR], Buffer.from('a\0b\n')), /stdin is binary, not text/);
  });

  it('a NUL byte past the first 64 KiB is a malformed line, not a refusal', async () => {
    const head = 'https://example.com/a\n'.repeat(3100); // 68,200 bytes
    const result = await filter(['--robots', ONE, '-q', '--emit', 'all', '--format', 'tsv', '-'], `${head}https://example.com/\0x\n`);
    expect(result.code).toBe(0);
    expect(verdicts(result)).toHaveLength(3101);
  });
});

describe('access logs', () => {
  const LOG = [
    // combined, IPv4
    '203.0.113.7 - - [23/Nov/2026:10:00:00 +0000] "GET /ok HTTP/1.1" 200 12 "-" "Mozilla/5.0 (X11)"',
    // common (CLF), an IPv6 client, a user, a negative timezone
    '2001:db8::1 - frank [10/Oct/2000:13:55:36 -0700] "GET /private/x?y=1 HTTP/1.0" 200 2326',
    // absolute-form: its host decides, over --host and the vhost
    '198.51.100.2 - - [23/Nov/2026:10:00:00 +0100] "GET http://shop.example/cart HTTP/1.1" 200 1 "-" "curl/8.5"',
    // OPTIONS *, CONNECT host:port, a target that is no URL, no request at all: malformed
    '198.51.100.2 - - [23/Nov/2026:10:00:00 +0100] "OPTIONS * HTTP/1.1" 200 0 "-" "-"',
    '198.51.100.2 - - [23/Nov/2026:10:00:00 +0100] "CONNECT shop.example:443 HTTP/1.1" 405 0 "-" "-"',
    '198.51.100.2 - - [23/Nov/2026:10:00:00 +0100] "GET cart HTTP/1.1" 400 0 "-" "-"',
    '198.51.100.2 - - [23/Nov/2026:10:00:00 +0100] "-" 408 0 "-" "-"',
    '198.51.100.2 - - [23/Nov/2026:10:00:00 +0100] "\\x16\\x03\\x01\\x02" 400 0 "-" "-"',
    // escaped quotes in the request and the user agent (Apache's \", nginx's \x22)
    '::1 - - [23/Nov/2026:10:00:00 +0000] "GET /private/\\"q\\" HTTP/1.1" 404 0 "-" "a \\"quoted\\" agent"',
    '::1 - - [23/Nov/2026:10:00:00 +0000] "GET /open\\x22x HTTP/1.1" 404 0 "-" "a \\x22quoted\\x22 agent"',
    // HTTP/0.9: no version
    '::1 - - [23/Nov/2026:10:00:00 +0000] "GET /cart" 200 0',
  ].join('\n');

  it('combined, common, absolute targets and escaped quotes, with --host (--input-format combined and common read alike)', async () => {
    const want = [
      'allowed',
      'disallowed',
      'disallowed',
      'malformed',
      'malformed',
      'malformed',
      'malformed',
      'malformed',
      'disallowed',
      'allowed',
      'disallowed',
    ];
    for (const format of ['combined', 'common']) {
      const result = await filter(
        ['--robots-dir', DIR, '--input-format', format, '--host', 'example.com', '--format', 'tsv', '--emit', 'all', '-q'],
        LOG,
      );
      expect(result.code, result.stderr).toBe(0);
      expect(verdicts(result), format).toEqual(want);
    }
    // The old spelling still reads a combined log.
    const old = await filter(['--robots-dir', DIR, '--format', 'combined', '--host', 'example.com', '-q'], LOG);
    expect(old.code).toBe(0);
    expect(old.stdout.toString().split('\n')).toHaveLength(3);
  });

  it('vhost_combined: the vhost names the host (its port too); an absolute target still decides', async () => {
    const log = [
      'example.com:443 203.0.113.7 - - [23/Nov/2026:10:00:00 +0000] "GET /private/x HTTP/1.1" 200 1 "-" "-"',
      'www.example.com:8080 203.0.113.7 - - [23/Nov/2026:10:00:00 +0000] "GET /anything HTTP/1.1" 200 1 "-" "-"',
      'www.example.com:8080 203.0.113.7 - - [23/Nov/2026:10:00:00 +0000] "GET http://example.com/ok HTTP/1.1" 200 1 "-" "-"',
      'shop.example:80 2001:db8::7 - - [23/Nov/2026:10:00:00 -0500] "POST /cart/add HTTP/2.0" 302 0 "https://shop.example/" "-"',
    ].join('\n');
    const result = await filter(['--robots-dir', DIR, '--input-format', 'combined', '--format', 'tsv', '--emit', 'all', '-q'], log);
    expect(verdicts(result)).toEqual(['disallowed', 'disallowed', 'allowed', 'disallowed']);
  });

  it('without --host or a vhost, a path has no host: malformed with --robots-dir, decided with --robots FILE', async () => {
    const dir = await filter(['--robots-dir', DIR, '--input-format', 'combined', '--format', 'tsv', '--emit', 'all', '-q'], LOG);
    expect(verdicts(dir)).toEqual([
      'malformed',
      'malformed',
      'disallowed',
      ...Array(5).fill('malformed'),
      'malformed',
      'malformed',
      'malformed',
    ]);
    const one = await filter(['--robots', ONE, '--input-format', 'common', '--format', 'tsv', '--emit', 'all', '-q'], LOG);
    expect(verdicts(one)).toEqual([
      'allowed',
      'disallowed',
      'disallowed',
      ...Array(5).fill('malformed'),
      'disallowed',
      'allowed',
      'disallowed',
    ]);
  });
});

// The library as built, the reference every line's verdict is held to.
const { parseRobotsTxt } = (await import(join(ROOT, 'dist/index.js'))) as typeof import('../../../src/index.js');
const rules = parseRobotsTxt(ROBOTS_TEXT).forAgent(AGENT);

describe('one reading of a line', () => {
  it('--robots FILE decides every non-empty line as robotstxt check does; --robots-dir needs an http(s) host', async () => {
    const lines = [
      'example.com/private/x',
      'ftp://example.com/private/x',
      'http://bad host/x',
      'http://a%2Fb/private/',
      '/private/y',
      ' ',
      '',
    ];
    const check = await runForBytes([process.execPath, CLI, 'check', ONE, AGENT, ...lines.slice(0, -1)], '');
    const checked = check.stdout
      .toString()
      .trimEnd()
      .split('\n')
      .map((line) => line.split(' ')[0]);
    expect(checked).toEqual(['disallowed', 'disallowed', 'allowed', 'disallowed', 'disallowed', 'allowed']);
    const input = `${lines.join('\n')}\n`;
    const one = await filter(['--robots', ONE, '--format', 'tsv', '--emit', 'all', '-q'], input);
    expect(verdicts(one)).toEqual([...checked, 'malformed']);
    const dir = await filter(['--robots-dir', DIR, '--format', 'tsv', '--emit', 'all', '-q'], input);
    expect(verdicts(dir)).toEqual(lines.map(() => 'malformed'));
    // A field and a JSON field read alike; an empty one is malformed.
    const fields = lines.map((line, i) => `${i}\t${line}\tz`).join('\n');
    expect(verdicts(await filter(['--robots', ONE, '--field', '2', '--format', 'tsv', '--emit', 'all', '-q'], fields))).toEqual([
      ...checked,
      'malformed',
    ]);
    const json = lines.map((line) => JSON.stringify({ url: line })).join('\n');
    expect(verdicts(await filter(['--robots', ONE, '--json-field', 'url', '--format', 'tsv', '--emit', 'all', '-q'], json))).toEqual([
      ...checked,
      'malformed',
    ]);
  });

  /** A few hundred odd lines: schemes, no scheme, bad hosts, spaces, escapes, wildcards' targets. */
  function oddLines(): string[] {
    const starts = [
      '',
      '/',
      'http://',
      'https://',
      'HTTP://',
      'ftp://',
      '//',
      'example.com',
      'http://example.com',
      'http://bad host',
      'http://a%2Fb',
      'http:/',
      'https:',
      'mailto:',
      ' ',
      '\t',
      '?',
      '#',
      ';',
      'http://[::1',
      'ü',
    ];
    const paths = [
      '/private/x',
      'private/x',
      '/private/open',
      '/Upper',
      '/upper',
      '/private/%78',
      '/priv%61te/',
      '?private',
      '#/private/',
      '/ü/a',
      '/%C3%BC/a',
      '/a.pdf',
      '/a.pdf?x',
      '/%2Fsecret',
      '//secret',
      '',
      '/cart',
      ' /cart',
    ];
    const lines: string[] = [];
    for (const start of starts) for (const path of paths) lines.push(`${start}${path}`);
    return lines;
  }

  it('the fast path (text, --workers 1 and 2) and the line-by-line path (jsonl, tsv) agree with rules.isAllowed on odd lines', async () => {
    const lines = oddLines();
    expect(lines.length).toBeGreaterThan(300);
    const input = `${lines.join('\n')}\n`;
    const expected = lines.map((line) => (line === '' ? 'malformed' : rules.isAllowed(line) ? 'allowed' : 'disallowed'));
    const pick = (verdict: string): string =>
      lines
        .filter((_, i) => expected[i] === verdict)
        .map((line) => `${line}\n`)
        .join('');
    for (const workers of ['1', '2']) {
      for (const emit of ['allowed', 'disallowed'] as const) {
        const result = await filter(['--robots', ONE, '--workers', workers, '--emit', emit, '-q'], input);
        expect(result.stdout.toString(), `--workers ${workers} --emit ${emit}`).toBe(pick(emit));
      }
    }
    expect(verdicts(await filter(['--robots', ONE, '--format', 'tsv', '--emit', 'all', '-q'], input))).toEqual(expected);
    const jsonl = await filter(['--robots', ONE, '--format', 'jsonl', '--emit', 'all', '-q'], input);
    const records = jsonl.stdout
      .toString()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { verdict?: string; allowed?: boolean; malformed?: boolean });
    // The record's verdict, in either JSON shape (`verdict`, or `allowed` and `malformed`).
    const read = records.map(
      (record) => record.verdict ?? (record.malformed === true ? 'malformed' : record.allowed === true ? 'allowed' : 'disallowed'),
    );
    expect(read).toEqual(expected);
  });
});
