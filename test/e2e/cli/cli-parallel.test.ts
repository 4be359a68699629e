/**
 * GNU parallel over `robotstxt filter` (docs/cli.md, "Splitting a log across machines"): `parallel --pipe --keep-order` cuts a
 * URL log into blocks at line ends, runs one filter per block and joins their outputs in order; the result must
 * be the bytes of one filter over the whole log. The guide's own line runs here, with a 4 kB block instead of
 * 64 MB so that the log of about 50 kB is cut into many blocks (the job log counts them), and the filter runs
 * in its other output modes the same way. The log mixes hosts, rules, line lengths (some longer than a block),
 * CRLF lines, malformed lines and bytes that are not UTF-8, and ends without a newline.
 *
 * The command is the built dist/cli.js (`npm test` builds it), on PATH as `robotstxt` as npm links it. GNU
 * parallel runs with a HOME of its own (it keeps state in ~/.parallel) and --will-cite (it asks for a citation
 * once, on a terminal).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runForBytes, type BytesRun } from '../../support/cli.js';
import { systemTool } from '../../support/system-tool.js';

const parallel = systemTool({ name: 'parallel', install: 'apt-get install -y parallel', version: /^GNU parallel/ });

/** Small enough that the log is cut into many blocks; parallel reads `k` as 1000. */
const BLOCK = '4k';
/** Lines per job when records are numbered: parallel's -N cuts the log at whole lines, the same count each. */
const BLOCK_LINES = 40;

const work = mkdtempSync(join(tmpdir(), 'robotstxt-parallel-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ROBOTS: Record<string, string> = {
  'example.com':
    'User-agent: *\nDisallow: /private/\nAllow: /private/open\n\nUser-agent: ExampleBot\nDisallow: /drafts/\nDisallow: /private/\nAllow: /private/open$\n',
  'blocked.org': 'User-agent: *\nDisallow: /\n',
  'shop.test': 'User-agent: ExampleBot\nDisallow: /*?sort=\nDisallow: /*.pdf$\nAllow: /cart/view\nDisallow: /cart/\n',
  'ported.net_8080': 'User-agent: *\nDisallow: /p\n',
  'secure.io_443': 'User-agent: *\nDisallow: /s\n',
};
for (const [host, body] of Object.entries(ROBOTS)) writeFile(join('robots', host), body);

/**
 * A URL log of about 500 lines: hosts with and without a robots file, paths of 0 to ~100 bytes, every 9th line
 * CRLF, every 23rd malformed (no URL, an empty line, a space in the host, bytes that are not UTF-8), two lines
 * longer than a block near the end, and a last line, allowed, without a newline.
 */
function urlLog(): Buffer {
  const hosts = ['example.com', 'blocked.org', 'shop.test', 'unknown.example', 'ported.net:8080', 'secure.io'];
  const paths = [
    'private/x',
    'private/open',
    'drafts/1',
    'cart/view',
    'cart/pay',
    'doc.pdf',
    'list?sort=price',
    'p1',
    's/2',
    'café/%C3%A9',
  ];
  const malformed = [
    Buffer.from('not a url'),
    Buffer.from(''),
    Buffer.from('https://exa mple.com/x'),
    // Not UTF-8, and neither a NUL nor a byte order mark: a block that starts with it is still text.
    Buffer.from([0x80, 0xff, 0x01, 0xfe]),
  ];
  const lines: Buffer[] = [];
  for (let i = 0; i < 500; i++) {
    const end = i % 9 === 0 ? '\r\n' : '\n';
    if (i % 23 === 0) lines.push(malformed[(i / 23) % malformed.length] ?? Buffer.alloc(0), Buffer.from(end));
    else {
      const filler = 'abcdefghij'.repeat(Math.floor(((i * 37) % 100) / 10));
      lines.push(Buffer.from(`${i % 4 ? 'https' : 'HTTP'}://${hosts[i % hosts.length]}/${paths[i % paths.length]}/${filler}${i}${end}`));
    }
  }
  for (const length of [5_000, 9_000]) lines.push(Buffer.from(`https://example.com/long/${'x'.repeat(length)}\n`));
  lines.push(Buffer.from('https://example.com/the-end'));
  return Buffer.concat(lines);
}
const LOG = urlLog();
writeFile('urls.txt', LOG);

// `robotstxt` on PATH, as npm's bin link puts it, and the node running these tests before any other.
mkdirSync(join(work, 'bin'));
symlinkSync(CLI, join(work, 'bin', 'robotstxt'));
mkdirSync(join(work, 'home'));
const ENV: NodeJS.ProcessEnv = {
  ...process.env,
  PATH: [join(work, 'bin'), dirname(process.execPath), process.env.PATH].join(delimiter),
  HOME: join(work, 'home'),
  PARALLEL_HOME: join(work, 'home', '.parallel'),
  // Options parallel reads before its command line's: the README's line runs as written.
  PARALLEL: '--will-cite --joblog jobs.tsv',
};

function writeFile(name: string, content: string | Buffer): void {
  mkdirSync(dirname(join(work, name)), { recursive: true });
  writeFileSync(join(work, name), content);
}

/** `command ...args` in the work directory, with `input` on its stdin. */
function run(command: string, args: readonly string[], input: Buffer | string = ''): Promise<BytesRun> {
  return runForBytes([command, ...args], input, { cwd: work, env: ENV, timeout: 50_000 });
}

function lineCount(bytes: Buffer): number {
  let count = 0;
  for (const byte of bytes) if (byte === 0x0a) count++;
  return count;
}

/** The exit status of each job of the last parallel run, from its --joblog (a header, then a row per job). */
function jobExits(): number[] {
  const [header = '', ...rows] = readFileSync(join(work, 'jobs.tsv'), 'utf8').trimEnd().split('\n');
  const column = header.split('\t').indexOf('Exitval');
  return rows.map((row) => Number(row.split('\t')[column]));
}

/** The log is cut into several blocks, and every block's filter succeeded. */
function expectSeveralJobs(): void {
  const exits = jobExits();
  expect(exits.length).toBeGreaterThanOrEqual(5);
  expect(exits.every((exit) => exit === 0)).toBe(true);
}

describe.skipIf(!parallel.found)('GNU parallel over robotstxt filter', () => {
  it("the guide's line writes the bytes of one process, over many blocks", async () => {
    const readme = readFileSync(new URL('../../../docs/cli.md', import.meta.url), 'utf8');
    const line = readme.split('\n').find((text) => text.startsWith('parallel --pipe'));
    const parts = /^(parallel .*) --block 64M (robotstxt filter .*) < urls\.txt > allowed\.txt$/.exec(line ?? '');
    expect(parts, `docs/cli.md's parallel line: ${line}`).not.toBeNull();
    const [, parallelOptions = '', filter = ''] = parts ?? [];
    const oneProcess = await run('sh', ['-c', `${filter} < urls.txt > alone.txt`]);
    expect(oneProcess.code, oneProcess.stderr).toBe(0);
    const split = await run('sh', ['-c', `${parallelOptions} --block ${BLOCK} ${filter} < urls.txt > allowed.txt`]);
    expect(split.code, split.stderr).toBe(0);
    expectSeveralJobs();
    const alone = readFileSync(join(work, 'alone.txt'));
    // Some lines kept, some dropped (a filter that kept all or none would make the comparison say little), CRLF
    // lines kept as they were, and the last line ended with a newline.
    expect(lineCount(alone)).toBeGreaterThan(lineCount(LOG) / 3);
    expect(lineCount(alone)).toBeLessThan((lineCount(LOG) * 2) / 3);
    expect(alone.includes('\r\n')).toBe(true);
    expect(alone.subarray(-'https://example.com/the-end\n'.length).toString()).toBe('https://example.com/the-end\n');
    expect(readFileSync(join(work, 'allowed.txt')).equals(alone)).toBe(true);
  });

  it.each([
    ['the default output (allowed lines, the summary on stderr)', [], false],
    ['--emit all --format tsv', ['--emit', 'all', '--format', 'tsv', '--no-header', '-q'], true],
    ['--emit disallowed --format jsonl, two worker threads', ['--emit', 'disallowed', '--format', 'jsonl', '--workers', '2', '-q'], true],
    ['--emit all --format csv', ['--emit', 'all', '--format', 'csv', '--no-header', '-q'], true],
  ])('%s: the same bytes as one process', async (_mode, options, numbered) => {
    const filter = ['filter', '--agent', 'ExampleBot', '--robots-dir', 'robots', ...options];
    const alone = await run('robotstxt', filter, LOG);
    expect(alone.code, alone.stderr).toBe(0);
    // Records number their lines: blocks of a fixed number of lines (-N), each numbering from its own start.
    const blocks = numbered ? ['-N', String(BLOCK_LINES), '--first-line', `{= $_=(seq()-1)*${BLOCK_LINES}+1 =}`] : [];
    const split = await run(
      'parallel',
      [
        '--pipe',
        '--keep-order',
        ...(numbered ? [] : ['--block', BLOCK]),
        ...blocks.slice(0, 2),
        'robotstxt',
        ...filter,
        ...blocks.slice(2),
      ],
      LOG,
    );
    expect(split.code, split.stderr).toBe(0);
    expectSeveralJobs();
    expect(alone.stdout.length).toBeGreaterThan(0);
    expect(split.stdout.equals(alone.stdout)).toBe(true);
  });

  it('the log has every kind of line: --emit all --annotate finds allowed, disallowed and malformed ones', async () => {
    const annotated = await run(
      'robotstxt',
      ['filter', '--agent', 'ExampleBot', '--robots-dir', 'robots', '--emit', 'all', '--format', 'tsv', '--no-header', '-q'],
      LOG,
    );
    const verdicts = new Set(
      annotated.stdout
        .toString('latin1')
        .split('\n')
        .map((line) => line.split('\t')[2]),
    );
    expect([...verdicts].sort()).toEqual(['allowed', 'disallowed', 'malformed', undefined].sort());
  });
});
