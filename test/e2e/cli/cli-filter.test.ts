/**
 * `robotstxt filter` end to end (docs/design.md#the-command): the built command (dist/cli.js, `npm test` builds it) spawned on
 * fixtures written here, with robots files in the --robots-dir layout, every input shape, stdin and gzip,
 * malformed lines, exit codes, worker threads, the split contract that Hadoop Streaming, Spark's pipe and GNU
 * parallel rely on, agreement with the library's string API, --fetch against a server on 127.0.0.1, and
 * memory that stays flat on a large input.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closeServers, startServer, text } from '../../support/http-server.js';
import { systemTool } from '../../support/system-tool.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CLI = join(ROOT, 'dist/cli.js');
const work = mkdtempSync(join(tmpdir(), 'robotstxt-filter-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(closeServers);

interface Run {
  readonly code: number;
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** `robotstxt filter ARGS`, with `input` on its stdin. */
function run(args: readonly string[], input?: Uint8Array | string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'filter', ...args], { cwd: work });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString() }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
  });
}

function file(name: string, content: string | Uint8Array): string {
  const path = join(work, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  return path;
}

const ROBOTS = join(work, 'robots');
file(
  'robots/example.com',
  'User-agent: *\nDisallow: /private/\nAllow: /private/open\n\nUser-agent: ExampleBot\nDisallow: /drafts/\nDisallow: /private/\n',
);
file('robots/blocked.org', 'User-agent: *\nDisallow: /\n');
file('robots/ported.net_8080', 'User-agent: *\nDisallow: /p\n');
file('robots/secure.io_443', 'User-agent: *\nDisallow: /s\n');
const SOURCE = ['--agent', 'ExampleBot', '--robots-dir', ROBOTS];

const URLS = [
  'https://example.com/public',
  'https://example.com/private/x',
  'http://EXAMPLE.com/drafts/1?q=2',
  'https://blocked.org/',
  'https://unknown.example/anything',
  'http://ported.net:8080/p1',
  'http://ported.net/p1',
  'https://secure.io/s1',
  'https://user:pw@example.com/drafts/#x',
].join('\n');

describe('deciding lines', () => {
  it('writes the allowed lines unchanged and in order, and a summary on stderr', async () => {
    const result = await run([...SOURCE, file('urls.txt', `${URLS}\n`)]);
    expect(result.code).toBe(0);
    expect(result.stdout.toString()).toBe(
      ['https://example.com/public', 'https://unknown.example/anything', 'http://ported.net/p1', ''].join('\n'),
    );
    expect(result.stderr).toMatch(/lines: 9\nallowed: 3\ndisallowed: 6\nmalformed: 0\nhosts: 6, without robots.txt: 2\n/);
  });

  it('--emit disallowed and all; --annotate; jsonl; --quiet', async () => {
    const input = file('urls.txt', `${URLS}\n`);
    expect((await run([...SOURCE, '--emit', 'disallowed', '-q', input])).stdout.toString().split('\n')).toHaveLength(7);
    const annotated = await run([...SOURCE, '--emit', 'all', '--format', 'tsv', '--no-header', '--quiet', input]);
    expect(annotated.stderr).toBe('');
    expect(annotated.stdout.toString().split('\n').slice(0, 3)).toEqual([
      '1\thttps://example.com/public\tallowed\trule\t\t\t\t',
      '2\thttps://example.com/private/x\tdisallowed\trule\tdisallow\t/private/\t7\t',
      '3\thttp://EXAMPLE.com/drafts/1?q=2\tdisallowed\trule\tdisallow\t/drafts/\t6\t',
    ]);
    const jsonl = await run([...SOURCE, '--emit', 'all', '--format', 'jsonl', '-q', input]);
    const objects = jsonl.stdout
      .toString()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    expect(objects[1]).toEqual({
      n: 2,
      url: 'https://example.com/private/x',
      verdict: 'disallowed',
      reason: 'rule',
      rule: { kind: 'disallow', pattern: '/private/', line: 7 },
      text: null,
    });
    expect(objects[4]).toEqual({
      n: 5,
      url: 'https://unknown.example/anything',
      verdict: 'allowed',
      reason: 'missing',
      rule: null,
      text: null,
    });
  });

  it('names ports as host_PORT, and finds host_443 for a default port; --missing disallow', async () => {
    const result = await run([
      ...SOURCE,
      '--emit',
      'all',
      '--format',
      'tsv',
      '--no-header',
      '--missing',
      'disallow',
      '-q',
      file('urls.txt', URLS),
    ]);
    const verdicts = result.stdout
      .toString()
      .trim()
      .split('\n')
      .map((line) => line.split('\t')[2]);
    expect(verdicts).toEqual([
      'allowed',
      'disallowed',
      'disallowed',
      'disallowed',
      'disallowed',
      'disallowed',
      'disallowed',
      'disallowed',
      'disallowed',
    ]);
  });

  it('never reads outside the robots directory: hosts that are not file names have no robots.txt', async () => {
    // A file next to the directory, which a host of ".." must not reach.
    file('outside', 'User-agent: *\nDisallow: /\n');
    // The URL parser reads `..` as a host (its file is named `.%2e`), `.` as the root alone (no host) and
    // refuses `a/../outside` (a percent-decoded `/`): the last two are malformed.
    const input = ['http://../outside', 'http://./x', 'http://a%2F..%2Foutside/x', 'https://robots/example.com'].join('\n');
    const result = await run([...SOURCE, '--missing', 'disallow', '--emit', 'all', '--format', 'tsv', '--no-header'], input);
    expect(result.code).toBe(0);
    expect(
      result.stdout
        .toString()
        .split('\n')
        .map((line) => line.split('\t')[2]),
    ).toEqual(['disallowed', 'malformed', 'malformed', 'disallowed', undefined]);
    expect(result.stderr).toMatch(/hosts: 2, without robots.txt: 2\n/);
  });

  it('agrees with rules.isAllowed(line) on every line, for any URL text', async () => {
    const { parseRobotsTxt } = (await import(join(ROOT, 'dist/index.js'))) as typeof import('../../../src/index.js');
    const body = readFileSync(join(ROBOTS, 'example.com'));
    const rules = parseRobotsTxt(body).forAgent('ExampleBot');
    const piece = fc.constantFrom(
      '/',
      'private',
      'drafts',
      'open',
      '%2F',
      '%70rivate',
      'é',
      '?',
      '#',
      '*',
      '$',
      ';',
      '..',
      '%',
      'A',
      '\u00ff',
      ' ',
    );
    const paths = fc.sample(
      fc.array(piece, { minLength: 1, maxLength: 8 }).map((parts) => parts.join('')),
      400,
    );
    const lines = paths.map((path, i) => `${i % 2 ? 'https' : 'HTTP'}://example.com/${path}`);
    const result = await run([
      '--agent',
      'ExampleBot',
      '--robots',
      join(ROBOTS, 'example.com'),
      '--emit',
      'all',
      '--format',
      'tsv',
      '--no-header',
      '-q',
      file('random.txt', `${lines.join('\n')}\n`),
    ]);
    const verdicts = result.stdout
      .toString()
      .split('\n')
      .slice(0, -1)
      .map((line) => line.split('\t')[2]);
    expect(verdicts).toEqual(lines.map((line) => (rules.isAllowed(line) ? 'allowed' : 'disallowed')));
  });
});

describe('input', () => {
  it('reads stdin, gzip by name and gzip by its first bytes, CRLF lines, and a last line without a newline', async () => {
    const input = 'https://example.com/a\r\nhttps://example.com/private/b\r\nhttps://example.com/c';
    const expected = 'https://example.com/a\r\nhttps://example.com/c\n';
    expect((await run([...SOURCE, '-q'], input)).stdout.toString()).toBe(expected);
    expect((await run([...SOURCE, '-q', file('urls.txt.gz', gzipSync(input))])).stdout.toString()).toBe(expected);
    expect((await run([...SOURCE, '-q', file('urls.bin', gzipSync(input))])).stdout.toString()).toBe(expected);
    expect((await run([...SOURCE, '-q'], gzipSync(input))).stdout.toString()).toBe(expected);
    // Two files, read one after the other.
    expect(
      (
        await run([...SOURCE, '-q', file('one.txt', 'https://example.com/1\n'), file('two.txt', 'https://example.com/2\n')])
      ).stdout.toString(),
    ).toBe('https://example.com/1\nhttps://example.com/2\n');
  });

  it('--field N of tab- or space-separated lines, --json-field, --format combined', async () => {
    const tabs = 'a\thttps://example.com/ok\tz\nb\thttps://example.com/private/no\tz\nc\n';
    expect((await run([...SOURCE, '--field', '2', '-q'], tabs)).stdout.toString()).toBe('a\thttps://example.com/ok\tz\n');
    const spaces = '1   x   https://example.com/ok\n2 y https://example.com/private/no\n';
    expect((await run([...SOURCE, '--field', '3', '--delimiter', ' ', '-q'], spaces)).stdout.toString()).toBe(
      '1   x   https://example.com/ok\n',
    );
    const json =
      '{"request":{"url":"https://example.com/ok"}}\n{"request":{"url":"https://example.com/private/\\u0078"}}\n{"request":{}}\nnot json\n';
    const decided = await run([...SOURCE, '--json-field', 'request.url', '--emit', 'all', '--format', 'tsv', '--no-header', '-q'], json);
    expect(
      decided.stdout
        .toString()
        .split('\n')
        .map((line) => line.split('\t')[2]),
    ).toEqual(['allowed', 'disallowed', 'malformed', 'malformed', undefined]);
    const log = [
      '203.0.113.7 - - [23/Nov/2026:10:00:00 +0000] "GET /ok HTTP/1.1" 200 12 "-" "ExampleBot/1.0"',
      '203.0.113.7 - - [23/Nov/2026:10:00:01 +0000] "GET /private/x?y=1 HTTP/1.1" 200 12 "-" "ExampleBot/1.0"',
      '- garbage',
    ].join('\n');
    const combined = await run(
      [...SOURCE, '--input-format', 'combined', '--host', 'example.com', '--emit', 'all', '--format', 'tsv', '--no-header', '-q'],
      log,
    );
    expect(
      combined.stdout
        .toString()
        .split('\n')
        .map((line) => line.split('\t')[2]),
    ).toEqual(['allowed', 'disallowed', 'malformed', undefined]);
    const vhosts =
      'example.com:443 203.0.113.7 - - [23/Nov/2026:10:00:00 +0000] "GET /private/x HTTP/1.1" 200 1 "-" "-"\nported.net:8080 203.0.113.7 - - [23/Nov/2026:10:00:00 +0000] "GET /p HTTP/1.1" 200 1 "-" "-"\n';
    const byVhost = await run([...SOURCE, '--input-format', 'combined', '--emit', 'all', '--format', 'tsv', '--no-header', '-q'], vhosts);
    expect(
      byVhost.stdout
        .toString()
        .split('\n')
        .map((line) => line.split('\t')[2]),
    ).toEqual(['disallowed', 'disallowed', undefined]);
  });

  it('counts malformed lines (not a URL, binary garbage, a 300 KB line, a 5 MB line) and passes them through only with --emit all', async () => {
    // No NUL byte: that would refuse the input as binary (test/e2e/cli/cli-filter-input.test.ts).
    const garbage = Buffer.from([0x01, 0xff, 0xfe, 0x1b, 0x5b, 0x41, 0x80]);
    const huge = `https://example.com/${'a'.repeat(5 * 1024 * 1024)}`;
    const input = Buffer.concat([
      Buffer.from('https://example.com/ok\nnot a url\nhttps://example .com/a\n'),
      garbage,
      Buffer.from(`\nhttps://example.com/${'x'.repeat(300 * 1024)}\n${huge}\nhttps://example.com/private/a\n`),
    ]);
    const kept = await run([...SOURCE, '--allow-malformed'], input);
    expect(kept.code).toBe(0);
    expect(kept.stdout.toString()).toBe('https://example.com/ok\n');
    expect(kept.stderr).toMatch(/lines: 7\nallowed: 1\ndisallowed: 1\nmalformed: 5\n/);
    const all = await run([...SOURCE, '--emit', 'all', '-q'], input);
    expect(all.stdout.equals(input)).toBe(true);
    // Five lines of seven hold no URL: the run says so and exits 1, its output written all the same.
    expect(all.code).toBe(1);
    expect(all.stderr).toMatch(/^robotstxt: warning: 5 of 7 lines \(71 %\) hold no URL to decide/);
    const strict = await run([...SOURCE, '--strict'], input);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/line 2 holds no URL to decide \(--strict\)/);
  });
});

describe('stderr on a terminal', () => {
  // `script` (util-linux) runs the command on a pseudo-terminal, so that stderr is a TTY there.
  const script = systemTool({ name: 'script', install: 'apt-get install -y util-linux' });

  it.skipIf(!script.found)('shows a progress line (lines decided, lines/s, bytes, hosts) then the summary; --quiet shows neither', () => {
    const input = file('tty.txt', `${URLS}\n`);
    const command = (extra: string): string =>
      `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} filter ${SOURCE.join(' ')} ${extra} ${JSON.stringify(input)} > /dev/null`;
    const shown = spawnSync('script', ['-qec', command(''), '/dev/null'], { cwd: work }).stdout.toString();
    expect(shown).toMatch(/\r\x1b\[K9 lines decided, [\d,]+ lines\/s, [\d.]+ KiB of [\d.]+ KiB \(100 %\), 6 hosts/);
    expect(shown).toMatch(/lines: 9\r?\nallowed: 3/);
    const quiet = spawnSync('script', ['-qec', command('--quiet'), '/dev/null'], { cwd: work }).stdout.toString();
    expect(quiet).toBe('');
  });
});

describe('the agent', () => {
  it('a User-Agent header names its crawler, as in check; a name no group can take is refused before any input is read', async () => {
    const header = 'Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)';
    const input = `${URLS}\n`;
    const byHeader = await run(['--agent', header, '--robots-dir', ROBOTS, '--emit', 'all', '--format', 'tsv', '-q'], input);
    const byToken = await run([...SOURCE, '--emit', 'all', '--format', 'tsv', '-q'], input);
    expect(byHeader.code, byHeader.stderr).toBe(0);
    expect(byHeader.stdout.equals(byToken.stdout)).toBe(true);
    // Refused with an empty log, and with a log whose hosts have no file: the agent is read first.
    for (const log of ['', 'https://nofile.example/\n']) {
      const refused = await run(['--agent', 'not a token!', '--robots-dir', ROBOTS], log);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/^robotstxt: --agent "not a token!" /);
      expect(refused.stderr).not.toMatch(/\{ profile|\n\s+at /);
      expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });
});

describe('usage errors exit 2 and say what to pass', () => {
  it.each([
    [['--robots-dir', 'robots'], /--agent NAME is required/],
    [['--agent', 'ExampleBot'], /--robots-dir DIR .* --robots FILE .* --fetch/],
    [['--agent', 'ExampleBot', '--robots-dir', 'robots', '--robots', 'x'], /say where the robots.txt files are/],
    [['--agent', 'ExampleBot', '--robots-dir', 'robots', 'no-such-file.txt'], /cannot read no-such-file.txt: no such file/],
    [['--agent', 'ExampleBot', '--robots', 'no-such-robots.txt'], /--robots no-such-robots.txt: no such file/],
    [['--agent', 'ExampleBot', '--robots-dir', 'robots', '--workers', '0'], /--workers takes a whole number ≥ 1/],
    [['--agent', 'ExampleBot', '--robots-dir', 'robots', '--emit', 'some'], /--emit takes "allowed" or "disallowed" or "all"/],
    [['--agent', 'ExampleBot', '--robots-dir', 'robots', '--bogus'], /: unknown option --bogus \(see robotstxt filter --help\)/],
    [['--agent', 'ExampleBot', '--robots-dir', 'robots', '--concurrency', '3'], /--concurrency goes with --fetch/],
  ])('%j', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('--help prints the usage and exits 0', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout.toString()).toMatch(/Usage: robotstxt filter --agent NAME/);
  });
});

/** A log of `lines` URL lines over a few hosts, with CRLF, malformed and non-ASCII lines mixed in. */
function generatedLog(lines: number): Buffer {
  const hosts = ['example.com', 'blocked.org', 'unknown.example', 'ported.net:8080', 'secure.io'];
  const parts: string[] = [];
  for (let i = 0; i < lines; i++) {
    if (i % 997 === 0) parts.push(`garbage line ${i}\n`);
    else
      parts.push(
        `https://${hosts[i % hosts.length]}/${['private', 'drafts', 'p', 's', 'open', 'café'][i % 6]}/${i}?q=${i % 13}${i % 7 === 0 ? '\r' : ''}\n`,
      );
  }
  return Buffer.from(parts.join(''));
}

describe('worker threads and the split contract', () => {
  const log = generatedLog(120_000);
  const args = [...SOURCE, '--emit', 'all', '--format', 'tsv', '--no-header', '-q'];

  it('--workers 1 and --workers 2 write the same bytes', async () => {
    const input = file('big.txt', log);
    const one = await run([...args, '--workers', '1', input]);
    const two = await run([...args, '--workers', '2', input]);
    expect(one.code).toBe(0);
    expect(two.stdout.length).toBeGreaterThan(log.length);
    expect(two.stdout.equals(one.stdout)).toBe(true);
  });

  it('the parts of an input split at any line boundaries, filtered apart and joined, give the bytes of the whole', async () => {
    const whole = await run([...args, '--workers', '2'], log);
    const starts = [0];
    for (const cut of [0.13, 0.5, 0.51, 0.97]) starts.push(log.indexOf(0x0a, Math.floor(log.length * cut)) + 1);
    starts.push(log.length);
    const outputs = [];
    for (let i = 0; i + 1 < starts.length; i++) {
      // Each part numbers its records from its first line's number in the whole.
      const before = log.subarray(0, starts[i]).filter((byte) => byte === 0x0a).length;
      outputs.push((await run([...args, '--first-line', String(before + 1)], log.subarray(starts[i], starts[i + 1]))).stdout);
    }
    expect(Buffer.concat(outputs).equals(whole.stdout)).toBe(true);
  });

  it('streams a large input with flat memory (a 64 MiB heap for 3 million lines)', async () => {
    const lines = 3_000_000;
    const generator = spawn(process.execPath, [
      '-e',
      `
      const hosts = ['example.com', 'blocked.org', 'unknown.example'];
      let chunk = '';
      let i = 0;
      function more() {
        while (i < ${lines}) {
          chunk += 'https://' + hosts[i % 3] + '/section-' + (i % 977) + '/page-' + i + '\\n';
          i++;
          if (chunk.length > 65536) { const ok = process.stdout.write(chunk); chunk = ''; if (!ok) return process.stdout.once('drain', more); }
        }
        process.stdout.end(chunk);
      }
      more();`,
    ]);
    const filter = spawn(process.execPath, ['--max-old-space-size=64', CLI, 'filter', ...SOURCE, '--workers', '1'], { cwd: work });
    generator.stdout.pipe(filter.stdin);
    let kept = 0;
    filter.stdout.on('data', (chunk: Buffer) => {
      for (const byte of chunk) if (byte === 0x0a) kept++;
    });
    let stderr = '';
    filter.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => filter.on('close', resolve));
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/lines: 3,000,000\n/);
    expect(kept).toBe(2_000_000);
  }, 120_000);
});

describe('--fetch', () => {
  it('fetches each host once, decides by what it got, and --save-dir writes the --robots-dir layout', async () => {
    const site = await startServer({ '/robots.txt': text('User-agent: *\nDisallow: /private/\n') });
    const gone = await startServer({});
    const input = [`${site.origin}/a`, `${site.origin}/private/b`, `${gone.origin}/private/c`, `${site.origin}/d`].join('\n');
    const saved = join(work, 'saved');
    const result = await run(
      [
        '--agent',
        'ExampleBot',
        '--fetch',
        '--allow-internal-hosts',
        '--concurrency',
        '2',
        '--user-agent',
        'ExampleBot/1.0',
        '--save-dir',
        saved,
        '--emit',
        'all',
        '--format',
        'tsv',
        '--no-header',
        '-q',
      ],
      input,
    );
    expect(result.code).toBe(0);
    expect(
      result.stdout
        .toString()
        .split('\n')
        .map((line) => line.split('\t')[2]),
    ).toEqual(['allowed', 'disallowed', 'allowed', 'allowed', undefined]);
    expect(site.count()).toBe(1);
    expect(site.requests[0]?.headers['user-agent']).toBe('ExampleBot/1.0');
    // The 2xx file as it came; the 404 as an empty file, which allows everything as the 404 did; each fetch's record.
    const siteFile = `127.0.0.1_${site.port}`;
    const goneFile = `127.0.0.1_${gone.port}`;
    expect(readdirSync(saved).sort()).toEqual([siteFile, goneFile, `${siteFile}%outcome.json`, `${goneFile}%outcome.json`].sort());
    expect(readFileSync(join(saved, siteFile), 'utf8')).toBe('User-agent: *\nDisallow: /private/\n');
    const again = await run(
      ['--agent', 'ExampleBot', '--robots-dir', saved, '--emit', 'all', '--format', 'tsv', '--no-header', '-q'],
      input,
    );
    expect(again.stdout.equals(result.stdout)).toBe(true);
    // Fetched in the main thread, decided in it (--workers 1) or in workers (2): the same bytes, each host fetched once.
    const inline = await run(
      [
        '--agent',
        'ExampleBot',
        '--fetch',
        '--allow-internal-hosts',
        '--workers',
        '1',
        '--emit',
        'all',
        '--format',
        'tsv',
        '--no-header',
        '-q',
      ],
      input,
    );
    const threaded = await run(
      [
        '--agent',
        'ExampleBot',
        '--fetch',
        '--allow-internal-hosts',
        '--workers',
        '2',
        '--emit',
        'all',
        '--format',
        'tsv',
        '--no-header',
        '-q',
      ],
      input,
    );
    expect(inline.stdout.equals(result.stdout)).toBe(true);
    expect(threaded.stdout.equals(result.stdout)).toBe(true);
    expect(site.count()).toBe(3);
  });

  it('keeps deciding by a fetched file after its compiled rules left the cache (--cache-mb 1)', async () => {
    // Three sites whose files compile to more than 1 MiB together: each host's rules are evicted and compiled again.
    const big = (token: string): string =>
      `User-agent: *\nDisallow: /${token}/\n${Array.from({ length: 12_000 }, (_, i) => `Disallow: /${token}-${i}/x\n`).join('')}`;
    const sites = await Promise.all(['a', 'b', 'c'].map((token) => startServer({ '/robots.txt': text(big(token)) })));
    const lines: string[] = [];
    for (let round = 0; round < 4; round++)
      sites.forEach((server, i) => lines.push(`${server.origin}/${'abc'[i]}/x`, `${server.origin}/free`));
    const result = await run(
      [
        '--agent',
        'ExampleBot',
        '--fetch',
        '--allow-internal-hosts',
        '--cache-mb',
        '1',
        '--workers',
        '1',
        '--emit',
        'all',
        '--format',
        'tsv',
        '--no-header',
        '-q',
      ],
      `${lines.join('\n')}\n`,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(
      result.stdout
        .toString()
        .split('\n')
        .slice(0, -1)
        .map((line) => line.split('\t')[2]),
    ).toEqual(lines.map((_, i) => (i % 2 === 0 ? 'disallowed' : 'allowed')));
    for (const server of sites) expect(server.count()).toBe(1);
    // The same from a robots directory: rules evicted while a batch still uses them must keep answering.
    const dir = join(work, 'big-robots');
    sites.forEach((server, i) => file(`big-robots/127.0.0.1_${server.port}`, big('abc'[i] as string)));
    const fromDir = await run(
      [
        '--agent',
        'ExampleBot',
        '--robots-dir',
        dir,
        '--cache-mb',
        '1',
        '--workers',
        '1',
        '--emit',
        'all',
        '--format',
        'tsv',
        '--no-header',
        '-q',
      ],
      `${lines.join('\n')}\n`,
    );
    expect(fromDir.stdout.equals(result.stdout)).toBe(true);
  });
});
