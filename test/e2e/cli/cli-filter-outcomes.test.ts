/**
 * `filter` says what each host's robots.txt came to: every fetch outcome read
 * as the library's outcome table reads it (a refused host disallows all, a refused redirect hop allows all),
 * counted by kind in the stderr summary and in `--summary-json`, network failures with their cause; files cut
 * at `--max-bytes` said once per host with their real size; a file that cannot be read is a note, not the end
 * of the run; progress only on a terminal. The built command runs on the test network
 * (test/support/cli-network-preload.mjs): real servers on 127.0.0.1, names from a table, no packet elsewhere.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CLI, run, runForBytes, runOnTestNetwork, runProgram } from '../../support/cli.js';
import { closeServers, hang, startServer } from '../../support/http-server.js';
import { FETCH_FLAGS, longFile, outcomeSites, RULES, summaryAt } from '../../support/outcome-sites.js';

const work = mkdtempSync(join(tmpdir(), 'robotstxt-outcomes-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(closeServers);

let made = 0;
function folder(files: Record<string, string>): string {
  const dir = join(work, `dir-${made++}`);
  mkdirSync(dir);
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
  return dir;
}

/** The verdicts of an annotated (--format tsv) run's lines, by URL. */
function verdicts(stdout: string): Record<string, string> {
  return Object.fromEntries(
    stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => line.split('\t').slice(1, 3) as [string, string]),
  );
}

describe('filter --fetch reads and counts every host outcome', () => {
  it('2xx, 3xx, 4xx, 5xx, timeout, refused connection, refused host, refused redirect, cut file', async () => {
    const sites = await outcomeSites();
    const { origins } = sites;
    const summaryPath = join(work, 'fetch-summary.json');
    const result = await runOnTestNetwork(
      ['filter', '--agent', 'ExampleBot', ...FETCH_FLAGS, '--emit', 'all', '--format', 'tsv', '--no-header', '--summary-json', summaryPath],
      sites.dns,
      sites.log,
    );
    expect(result.code, result.stderr).toBe(0);
    const verdict = verdicts(result.stdout);
    const both = (origin: string): [string, string] => [verdict[`${origin}/private/a`] as string, verdict[`${origin}/late/b`] as string];
    expect(both(origins.ok as string)).toEqual(['disallowed', 'allowed']);
    expect(both(origins.moved as string)).toEqual(['disallowed', 'allowed']);
    expect(both(origins.missing as string)).toEqual(['allowed', 'allowed']);
    expect(both(origins.down as string)).toEqual(['disallowed', 'disallowed']);
    expect(both(origins.slow as string)).toEqual(['disallowed', 'disallowed']);
    expect(both(origins.closed as string)).toEqual(['disallowed', 'disallowed']);
    // Refused at its first request: disallow-all, as check, fetch and the library read it (not --missing).
    expect(both(origins.refused as string)).toEqual(['disallowed', 'disallowed']);
    // A redirect to a refused host: allow-all, the library's reading of a redirect refused.
    expect(both(origins.refusedHop as string)).toEqual(['allowed', 'allowed']);
    // Cut at 1000 bytes: the late group is not read.
    expect(both(origins.long as string)).toEqual(['allowed', 'allowed']);

    expect(result.stderr).toContain(
      'fetches: 2xx 2, 2xx after redirects 1, 4xx 1 (allow all), 5xx or 429 1 (disallow all), timeouts 1 (disallow all), ' +
        'network errors 1 [ECONNREFUSED 1] (disallow all), refused 1 (disallow all), redirects refused 1 (allow all)',
    );
    expect(result.stderr).toMatch(/^refused hosts: 1 \(intranet\.example\.com\): internal, not fetched; their lines are disallowed/m);
    expect(result.stderr).toMatch(/^redirects to refused hosts: 1 \(127\.0\.0\.1_\d+\): not followed; their lines are allowed/m);
    const longUrl = `${origins.long}/robots.txt`;
    const cutNotes = result.stderr.split('\n').filter((line) => line.includes('--max-bytes 1000: only its first 1000 bytes were read'));
    expect(cutNotes).toEqual([
      `robotstxt: note: ${longUrl} is ${longFile(1000).length.toLocaleString('en-US')} bytes, longer than --max-bytes 1000: only its first 1000 bytes were read`,
    ]);
    expect(result.stderr).toMatch(/^hosts: 9, without robots\.txt: 1$/m);

    const summary = summaryAt(summaryPath);
    expect(summary.lines).toEqual({
      total: 18,
      allowed: 8,
      disallowed: 10,
      malformed: 0,
      byReason: { rule: 4, cut: 2, missing: 2, 'server-error': 2, unreachable: 4, refused: 2, 'redirect-refused': 2, malformed: 0 },
    });
    expect(summary.hosts).toEqual({
      total: 9,
      withoutRobots: 1,
      cut: 1,
      unreadable: 0,
      fetch: {
        ok: 2,
        redirected: 1,
        clientError: 1,
        serverError: 1,
        timeout: 1,
        networkError: { total: 1, causes: { ECONNREFUSED: 1 } },
        refused: 1,
        redirectRefused: 1,
      },
    });
    expect(summary.saved).toBeNull();
    expect(summary.bytes).toEqual({ read: Buffer.byteLength(sites.log) });
    expect(summary).toMatchObject({ complete: true, exitCode: 0 });
    for (const key of ['seconds', 'linesPerSecond', 'bytesPerSecond'] as const) expect(summary[key]).toBeGreaterThanOrEqual(0);
    // The refused name was looked up in the table and never connected to; the redirect's target never asked.
    expect(result.stderr).not.toMatch(/\[test-network\] \w+ 10\.0\.0\.1/);
  });
});

describe('--max-bytes: cut files are said once per host and counted', () => {
  it('--robots-dir: once per host whatever the number of workers, with the file’s real size; its lines carry reason cut', async () => {
    const dir = folder({ 'big.example': longFile(5000), 'small.example': RULES });
    const lines = Array.from({ length: 40 }, (_, i) => `https://big.example/late/${i}\nhttps://small.example/private/${i}`).join('\n');
    const summaryPath = join(work, 'cut-summary.json');
    const result = await run(
      [
        'filter',
        '--agent',
        'ExampleBot',
        '--robots-dir',
        dir,
        '--max-bytes',
        '1000',
        '--workers',
        '2',
        '--format',
        'tsv',
        '--summary-json',
        summaryPath,
      ],
      `${lines}\n`,
    );
    expect(result.code, result.stderr).toBe(0);
    const size = Buffer.byteLength(longFile(5000)).toLocaleString('en-US');
    expect(result.stderr.split('\n').filter((line) => line.startsWith('robotstxt: note:'))).toEqual([
      `robotstxt: note: ${join(dir, 'big.example')} is ${size} bytes, longer than --max-bytes 1000: only its first 1000 bytes were read`,
    ]);
    expect(result.stderr).toMatch(/^robots files: 1 cut at --max-bytes 1,000 \(their first bytes decide\), 0 unreadable/m);
    const summary = summaryAt(summaryPath);
    expect(summary.hosts).toMatchObject({ total: 2, cut: 1, unreadable: 0, fetch: null });
    expect(summary.lines.byReason).toMatchObject({ cut: 40, rule: 40 });
    // Without --max-bytes (the parser's default), the late group is read.
    const whole = await run(['filter', '--agent', 'ExampleBot', '--robots-dir', dir, '-q'], 'https://big.example/late/x\n');
    expect(whole.stdout).toBe('');
  });

  it('--robots FILE is cut too, and said', async () => {
    const dir = folder({ 'robots.txt': longFile(3000) });
    const result = await run(['filter', '--agent', 'ExampleBot', '--robots', join(dir, 'robots.txt'), '--max-bytes', '1000'], '/late/x\n');
    expect(result.stdout).toBe('/late/x\n');
    expect(result.stderr).toContain(`${join(dir, 'robots.txt')} is ${Buffer.byteLength(longFile(3000)).toLocaleString('en-US')} bytes`);
  });
});

describe('a file in --robots-dir that cannot be read', () => {
  it('is a note and a count, not the end of the run: its host’s lines are disallowed, reason unreachable', async () => {
    const dir = folder({ 'ok.example': 'User-agent: *\nAllow: /\n' });
    // A symbolic link to itself: ELOOP for any user, root included.
    symlinkSync('loop.example', join(dir, 'loop.example'));
    const summaryPath = join(work, 'unreadable-summary.json');
    const result = await run(
      [
        'filter',
        '--agent',
        'ExampleBot',
        '--robots-dir',
        dir,
        '--emit',
        'all',
        '--format',
        'tsv',
        '--no-header',
        '--summary-json',
        summaryPath,
      ],
      'https://loop.example/a\nhttps://ok.example/b\n',
    );
    expect(result.code, result.stderr).toBe(0);
    expect(verdicts(result.stdout)).toEqual({ 'https://loop.example/a': 'disallowed', 'https://ok.example/b': 'allowed' });
    expect(result.stderr).toContain(
      `robotstxt: note: ${join(dir, 'loop.example')} cannot be read (ELOOP): loop.example's lines are disallowed, as an unreachable site's`,
    );
    const summary = summaryAt(summaryPath);
    expect(summary.hosts).toMatchObject({ total: 2, unreadable: 1, cut: 0 });
    expect(summary.lines.byReason).toMatchObject({ unreachable: 1, rule: 1 });
  });
});

describe('--summary-json', () => {
  it('is refused for stdout and for a folder that is not there, before any work', async () => {
    const dir = folder({ 'example.com': RULES });
    for (const [target, message] of [
      ['-', /--summary-json takes a file name: stdout holds the lines/],
      [join(work, 'nowhere', 's.json'), /--summary-json .*: no such directory/],
      [dir, /--summary-json .*: a directory/],
    ] as const) {
      const result = await run(
        ['filter', '--agent', 'ExampleBot', '--robots-dir', dir, '--summary-json', target],
        'https://example.com/\n',
      );
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
      expect(result.stderr.split('\n')).toHaveLength(2);
    }
  });

  it('a run that ends on an error after deciding lines still writes it, complete: false, with its exit code', async () => {
    const dir = folder({ 'example.com': RULES });
    const summaryPath = join(work, 'strict-summary.json');
    // More than one batch (4 MiB): the first is decided and counted before the second's malformed line.
    const input = `${'https://example.com/a\n'.repeat(250_000)}not a url\n`;
    const result = await runForBytes(
      [
        process.execPath,
        CLI,
        'filter',
        '--agent',
        'ExampleBot',
        '--robots-dir',
        dir,
        '--strict',
        '--workers',
        '1',
        '--summary-json',
        summaryPath,
      ],
      input,
    );
    expect(result.code).toBe(1);
    const summary = summaryAt(summaryPath);
    expect(summary).toMatchObject({ complete: false, exitCode: 1 });
    expect(summary.lines.total).toBeGreaterThan(0);
    expect(summary.lines.total).toBeLessThan(250_001);
    expect(summary.lines.malformed).toBe(0);
  });

  it('replaces the file whole, and the stderr summary says the same counts', async () => {
    const dir = folder({ 'example.com': RULES });
    const summaryPath = join(work, 'again-summary.json');
    writeFileSync(summaryPath, 'an old summary, longer than the new one will be '.repeat(100));
    const result = await run(
      [
        'filter',
        '--agent',
        'ExampleBot',
        '--robots-dir',
        dir,
        '--format',
        'tsv',
        '--no-header',
        '--emit',
        'all',
        '--summary-json',
        summaryPath,
      ],
      'https://example.com/a\nhttps://example.com/private/b\nhttps://none.example/c\n',
    );
    const summary = summaryAt(summaryPath);
    expect(summary.lines).toEqual({
      total: 3,
      allowed: 2,
      disallowed: 1,
      malformed: 0,
      byReason: { rule: 2, cut: 0, missing: 1, 'server-error': 0, unreachable: 0, refused: 0, 'redirect-refused': 0, malformed: 0 },
    });
    expect(result.stderr).toMatch(
      /^lines: 3\nallowed: 2\ndisallowed: 1\nmalformed: 0\nhosts: 2, without robots\.txt: 1\nby reason: rule 2, missing 1$/m,
    );
  });
});

describe('progress', () => {
  it('is not drawn when stderr is not a terminal: only the summary', async () => {
    const dir = folder({ 'example.com': RULES });
    const result = await run(['filter', '--agent', 'ExampleBot', '--robots-dir', dir], 'https://example.com/a\n');
    expect(result.stderr).not.toMatch(/\r|\x1b/);
    expect(result.stderr).toMatch(/^lines: 1\n/);
  });

  it('on a terminal, counts lines decided and shows the fetches in flight, never 100 % while one waits', async () => {
    const slow = await startServer({ '/robots.txt': hang });
    const input = join(work, 'progress.txt');
    writeFileSync(input, `${slow.origin}/a\n`);
    // script(1) gives the command a terminal; what it writes there comes back on script's stdout.
    const command = [
      process.execPath,
      CLI,
      'filter',
      '--agent',
      'ExampleBot',
      '--fetch',
      '--allow-network',
      '127.0.0.1/32',
      '--timeout',
      '1500',
      input,
    ]
      .map((word) => `'${word}'`)
      .join(' ');
    const result = await runProgram(['script', '-qfec', `${command} 2>&1 >/dev/null`, '/dev/null'], process.env);
    const frames = result.stdout.split('\r').filter((frame) => frame.includes('lines decided'));
    expect(frames.length, result.stdout).toBeGreaterThan(0);
    expect(frames[0]).toMatch(/0 lines decided, .* of .* \(0 %\), 0 hosts, 0 fetched \(1 in flight\)/);
    expect(frames.some((frame) => /100 %\), \d+ hosts, 0 fetched \(1 in flight\)/.test(frame))).toBe(false);
    expect(result.stdout).toMatch(/lines: 1\r?\n/);
  });
});
