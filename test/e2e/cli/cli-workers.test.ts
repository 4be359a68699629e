/**
 * `robotstxt filter`'s worker threads: any count from 1 to 64 writes the same bytes and no
 * warning (ten workers and more used to print MaxListenersExceededWarning: each worker's stdout and stderr were
 * piped into the process's own, with listeners there); a count past 64 is a usage error; and the default count
 * follows the measured rule of src/cli/filter/worker-count.ts, whose inputs (the input's size, the cores) are
 * checked here directly.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { BATCH_BYTES } from '../../../src/cli/filter/input.js';
import { DEFAULT_CAP, defaultWorkers, inputBytes, MAX_WORKERS, SMALL_INPUT_BYTES } from '../../../src/cli/filter/worker-count.js';
import { CLI, runForBytes } from '../../support/cli.js';

const work = mkdtempSync(join(tmpdir(), 'robotstxt-workers-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const robots = join(work, 'robots');
mkdirSync(robots);
writeFileSync(join(robots, 'example.com'), 'User-agent: *\nDisallow: /private/\nAllow: /private/open\n');
writeFileSync(join(robots, 'blocked.org'), 'User-agent: *\nDisallow: /\n');

/** A small log: hosts with and without a file, allowed, disallowed and malformed lines. */
const LOG = Array.from({ length: 300 }, (_, i) =>
  i % 17 === 0 ? 'not a url' : `https://${['example.com', 'blocked.org', 'nofile.net'][i % 3]}/${i % 2 ? 'private' : 'public'}/${i}`,
).join('\n');
const logFile = join(work, 'urls.txt');
writeFileSync(logFile, `${LOG}\n`);

const FILTER = [CLI, 'filter', '--agent', 'ExampleBot', '--robots-dir', robots, '--emit', 'all', '--format', 'tsv'];

describe('robotstxt filter --workers N', () => {
  let one: Buffer;
  it('--workers 1 decides in the main thread', async () => {
    const run = await runForBytes([process.execPath, ...FILTER, '-q', '--workers', '1', logFile], '');
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout.toString()).toContain('\tdisallowed\t');
    one = run.stdout;
  });

  it.each([['2'], ['10'], ['32'], ['the default']])(
    '--workers %s writes the same bytes, and no warning, from a file and from stdin',
    { timeout: 120_000 },
    async (count) => {
      const workers = count === 'the default' ? [] : ['--workers', count];
      // Quiet: stderr must be empty. Not quiet: the progress and summary there, and still no warning.
      const quiet = await runForBytes([process.execPath, ...FILTER, '-q', ...workers, logFile], '');
      expect({ code: quiet.code, stderr: quiet.stderr }).toEqual({ code: 0, stderr: '' });
      expect(quiet.stdout.equals(one), 'other bytes than --workers 1').toBe(true);
      const told = await runForBytes([process.execPath, ...FILTER, ...workers], `${LOG}\n`);
      expect(told.code).toBe(0);
      expect(told.stderr).not.toMatch(/\(node:\d+\)|Warning:/);
      expect(told.stdout.equals(one), 'other bytes than --workers 1, on stdin').toBe(true);
    },
  );

  it(`--workers ${MAX_WORKERS}, the most, writes the same bytes and no warning`, { timeout: 120_000 }, async () => {
    const run = await runForBytes([process.execPath, ...FILTER, '--workers', String(MAX_WORKERS), logFile], '');
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(/\(node:\d+\)|Warning:/);
    expect(run.stdout.equals(one), 'other bytes than --workers 1').toBe(true);
  });

  it('refuses a count past 64, or not a whole number ≥ 1, before any work: one line, exit 2', () => {
    for (const value of ['65', '1000', '0', '-1', '1.5', '2e1', 'four', '']) {
      const result = spawnSync(process.execPath, [...FILTER, `--workers=${value}`, logFile], { encoding: 'utf8' });
      expect({ value, code: result.status, stdout: result.stdout }).toEqual({ value, code: 2, stdout: '' });
      expect(result.stderr).toContain(`--workers takes a whole number ≥ 1 and ≤ 64, got ${JSON.stringify(value)}`);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });
});

describe('--workers N over a log of several batches', () => {
  // Every thread decides some of its batches (the main thread too) and meets every host: hosts compiled by one
  // thread are taught to the others from the shared table, over http and https, beside hosts with no file and
  // a file cut at --max-bytes, which each thread reads itself.
  const many = join(work, 'many');
  mkdirSync(many);
  const HOSTS = 300;
  for (let h = 0; h < HOSTS; h++) {
    if (h % 10 === 9) continue;
    const body =
      h === 0
        ? `User-agent: *\nDisallow: /cut\n${'# padding\n'.repeat(100)}Disallow: /late\n`
        : `User-agent: *\nDisallow: /p${h % 7}/\nAllow: /p${h % 7}/open\n`;
    writeFileSync(join(many, `host${h}.example`), body);
  }
  const lines: string[] = [];
  for (let i = 0; lines.length * 48 < 3.5 * BATCH_BYTES; i++) {
    const h = (i * 7919) % HOSTS;
    lines.push(`${i % 3 ? 'https' : 'http'}://host${h}.example/p${i % 7}/${i % 5 ? 'open' : 'x'}/${i}${i % 11 ? '' : '/late'}`);
  }
  const bigLog = join(work, 'big.txt');
  writeFileSync(bigLog, `${lines.join('\n')}\n`);

  it('writes the bytes --workers 1 writes, and counts the same lines, hosts and cut files', { timeout: 300_000 }, async () => {
    const outputs: Buffer[] = [];
    const summaries: unknown[] = [];
    for (const workers of ['1', '2', '3']) {
      const summary = join(work, `summary-${workers}.json`);
      const args = ['filter', '--agent', 'ExampleBot', '--robots-dir', many, '--max-bytes', '200', '-q', '--summary-json', summary];
      const result = await runForBytes([process.execPath, CLI, ...args, '--workers', workers, bigLog], '');
      // The cut file is said once, whichever threads read it.
      expect({ workers, code: result.code, stderr: result.stderr.replace(many, 'DIR') }).toEqual({
        workers,
        code: 0,
        stderr: 'robotstxt: note: DIR/host0.example is 1,045 bytes, longer than --max-bytes 200: only its first 200 bytes were read\n',
      });
      outputs.push(result.stdout);
      const { lines: counted, hosts } = JSON.parse(readFileSync(summary, 'utf8')) as { lines: unknown; hosts: unknown };
      summaries.push({ lines: counted, hosts });
    }
    expect(outputs[0]?.length).toBeGreaterThan(BATCH_BYTES);
    expect(outputs[1]?.equals(outputs[0] as Buffer), '--workers 2').toBe(true);
    expect(outputs[2]?.equals(outputs[0] as Buffer), '--workers 3').toBe(true);
    expect(summaries[1]).toEqual(summaries[0]);
    expect(summaries[2]).toEqual(summaries[0]);
    expect(summaries[0]).toMatchObject({ hosts: { total: HOSTS, withoutRobots: HOSTS / 10, cut: 1 } });
  });
});

describe('the default worker count', () => {
  it('is 1 (the main thread) below the measured size, for an unknown size, and on one or two cores', () => {
    for (const cores of [1, 2, 4, 16, 128]) {
      expect(defaultWorkers(undefined, cores)).toBe(1);
      expect(defaultWorkers(0, cores)).toBe(1);
      expect(defaultWorkers(SMALL_INPUT_BYTES - 1, cores)).toBe(1);
    }
    for (const bytes of [SMALL_INPUT_BYTES, 10 * 1024 ** 3]) {
      expect(defaultWorkers(bytes, 1)).toBe(1);
      expect(defaultWorkers(bytes, 2)).toBe(1);
    }
  });

  it('above it, a core left to the main thread, at most the cap however many cores', () => {
    const large = 10 * 1024 ** 3;
    expect(defaultWorkers(large, 3)).toBe(Math.min(2, DEFAULT_CAP));
    expect(defaultWorkers(large, DEFAULT_CAP + 1)).toBe(DEFAULT_CAP);
    for (const cores of [16, 64, 256]) expect(defaultWorkers(large, cores)).toBe(DEFAULT_CAP);
    // An input large enough for workers fills a batch for each of them.
    expect(SMALL_INPUT_BYTES / BATCH_BYTES).toBeGreaterThanOrEqual(DEFAULT_CAP);
  });

  it('counts a file by its size, a gzip file by the size its trailer records, and a FIFO or a missing file as unknown', () => {
    const plain = join(work, 'plain.txt');
    writeFileSync(plain, 'x'.repeat(1000));
    expect(inputBytes([plain])).toBe(1000);
    expect(inputBytes([plain, plain])).toBe(2000);
    const gz = join(work, 'log.gz');
    const content = Buffer.alloc(3_000_000, 'https://example.com/a\n');
    writeFileSync(gz, gzipSync(content));
    expect(inputBytes([gz])).toBe(content.length);
    // A gzip header on a file too short to be one, or a trailer smaller than the file: the file's size.
    const fake = join(work, 'fake.gz');
    writeFileSync(fake, Buffer.from([0x1f, 0x8b, 1, 2, 3]));
    expect(inputBytes([fake])).toBe(5);
    expect(inputBytes([join(work, 'missing.txt')])).toBeUndefined();
    expect(inputBytes([plain, join(work, 'missing.txt')])).toBeUndefined();
    expect(inputBytes([work])).toBeUndefined();
    const fifo = join(work, 'fifo');
    // Not opened (that would wait for a writer): a FIFO's size is unknown.
    if (spawnSync('mkfifo', [fifo]).status === 0) expect(inputBytes([fifo])).toBeUndefined();
  });
});
