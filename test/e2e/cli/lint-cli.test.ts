/**
 * `robotstxt lint` as users run it: the built dist/cli.js in a child process (`npm test` builds dist/ first),
 * against files in a temporary directory and an HTTP server on 127.0.0.1. Exit codes: 0 no error; 1 an error;
 * 2 usage or input errors.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CLI, run, runForBytes } from '../../support/cli.js';
import { closeServers, startServer, status, text } from '../../support/http-server.js';

const BROKEN = 'User-agent: *\nDisallow: private/\nDissallow: /x\n\nDisallow: /admin\n';
const CLEAN = 'User-agent: *\nDisallow: /search\n\nSitemap: https://example.com/sitemap.xml\n';

const directory = mkdtempSync(join(tmpdir(), 'robotstxt-lint-'));
const broken = join(directory, 'broken.txt');
const clean = join(directory, 'clean.txt');
writeFileSync(broken, BROKEN);
writeFileSync(clean, CLEAN);

afterEach(closeServers);
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('robotstxt lint', () => {
  it('prints file:line:col severity code message, the hint below, and exits 1 on an error', async () => {
    const result = await run(['lint', broken]);
    expect(result.code).toBe(1);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe(
      `${broken}:2:11 error pattern-not-path Disallow value "private/" does not start with "/" or "*": it matches no URL`,
    );
    expect(lines[1]).toBe('  hint: write the path from the root: Disallow: /private/');
    expect(lines[2]).toMatch(new RegExp(`^${broken}:3:1 warning google-only-spelling `));
    expect(lines).toContain('1 error(s), 1 warning(s), 2 info(s)');
    // Not a terminal: no colour.
    expect(result.stdout).not.toContain('\x1b[');
  });

  it('prints nothing and exits 0 for a clean file', async () => {
    expect(await run(['lint', clean])).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('--format jsonl: one object per finding per line', async () => {
    const result = await run(['lint', '--format', 'jsonl', broken, clean]);
    expect(result.code).toBe(1);
    const objects = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(objects.map((object) => object.code)).toEqual([
      'pattern-not-path',
      'google-only-spelling',
      'blank-line-in-group',
      'sensitive-path',
    ]);
    expect(objects[0]).toEqual({
      file: broken,
      code: 'pattern-not-path',
      severity: 'error',
      line: 2,
      column: 11,
      message: 'Disallow value "private/" does not start with "/" or "*": it matches no URL',
      hint: 'write the path from the root: Disallow: /private/',
    });
  });

  it('--format github: workflow annotations, info as notice', async () => {
    const result = await run(['lint', '--format', 'github', broken]);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toBe(
      `::error file=${broken},line=2,col=11,title=pattern-not-path::Disallow value "private/" does not start with "/" or "*": it matches no URL%0Awrite the path from the root: Disallow: /private/`,
    );
    expect(lines[1]).toMatch(/^::warning file=.*,line=3,col=1,title=google-only-spelling::/);
    expect(lines[3]).toMatch(/^::notice file=.*,line=5,col=12,title=sensitive-path::/);
  });

  it('--disable drops codes (comma-separated or repeated); no error left means exit 0', async () => {
    const result = await run([
      'lint',
      '--format',
      'jsonl',
      '--disable',
      'pattern-not-path,sensitive-path',
      '--disable',
      'blank-line-in-group',
      broken,
    ]);
    expect(result.code).toBe(0);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { code: string }).code),
    ).toEqual(['google-only-spelling']);
  });

  it('--min-severity drops what is below it', async () => {
    const result = await run(['lint', '--format', 'jsonl', '--min-severity', 'error', broken]);
    expect(result.code).toBe(1);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('reads stdin as "-"', async () => {
    const result = await run(['lint', '-'], 'Disallow: /x\n');
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^<stdin>:1:1 error rule-before-user-agent /);
  });

  it('fetches a URL the RFC 9309 way and lints the body it got', async () => {
    const server = await startServer({ '/robots.txt': text(BROKEN) });
    const result = await run(['lint', '--allow-internal-hosts', '--format', 'jsonl', `${server.origin}/some/page`]);
    expect(result.code).toBe(1);
    const first = JSON.parse(result.stdout.split('\n')[0] ?? '') as Record<string, unknown>;
    expect(first).toMatchObject({ file: `${server.origin}/robots.txt`, code: 'pattern-not-path', line: 2, column: 11 });
  });

  it('a URL with no file to lint is an input error (exit 2)', async () => {
    const server = await startServer({ '/robots.txt': status(404) });
    const result = await run(['lint', '--allow-internal-hosts', server.origin]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^robotstxt: .*status 404, allow-all .*there is no file to lint/);
  });

  it('usage errors exit 2 with a message, never a stack trace', async () => {
    for (const args of [
      ['lint'],
      ['lint', '--format', 'xml', clean],
      ['lint', '--min-severity', 'fatal', clean],
      ['lint', '--disable', 'nope', clean],
      ['lint', join(directory, 'missing.txt')],
    ]) {
      const result = await run(args);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^robotstxt: /);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('--format json is a synonym of jsonl', async () => {
    expect(await run(['lint', '--format', 'json', broken])).toEqual(await run(['lint', '--format', 'jsonl', broken]));
  });

  it('a gzip file is linted decompressed', async () => {
    const file = join(directory, 'broken.txt.gz');
    writeFileSync(file, gzipSync(BROKEN));
    const result = await run(['lint', file]);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')[0]).toBe(
      `${file}:2:11 error pattern-not-path Disallow value "private/" does not start with "/" or "*": it matches no URL`,
    );
  });

  it('a PNG (or bzip2, or any binary file) is refused whole: exit 2, one line, no findings', async () => {
    const png = join(directory, 'logo.png');
    writeFileSync(png, Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
    const result = await run(['lint', png]);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(/^robotstxt: .*logo\.png is binary, not text [^\n]*\n$/);
    const piped = await runForBytes([process.execPath, CLI, 'lint', '-'], Buffer.from('BZh91AY&SY\0\0\0\0'));
    expect([piped.code, piped.stdout.toString(), piped.stderr]).toEqual([
      2,
      '',
      'robotstxt: the input on stdin is bzip2-compressed, which robotstxt does not read: … | bzcat | robotstxt lint -\n',
    ]);
  });

  it('--help lists the formats and the codes', async () => {
    const result = await run(['lint', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--format text|jsonl|github');
    expect(result.stdout).toContain('pattern-not-path');
  });
});

describe('lint --max-bytes: a file cut is said with its whole length, never the length read', () => {
  const long = `${CLEAN}${'# padding\n'.repeat(200)}`;

  it('a file: the note and file-too-large give its size', async () => {
    const file = join(directory, 'long.txt');
    writeFileSync(file, long);
    const result = await run(['lint', '--format', 'jsonl', '--max-bytes', '100', file]);
    expect(result.stderr).toBe(
      `robotstxt: note: ${file} is ${long.length} bytes, longer than --max-bytes 100: only its first 100 bytes were linted\n`,
    );
    const tooLarge = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { code: string; message: string })
      .find(({ code }) => code === 'file-too-large');
    expect(tooLarge?.message).toBe(`the file is ${long.length} bytes; only its first 100 bytes were linted: the rest was not checked`);
  });

  it("by default, the library's 1,024,000 bytes: a larger file is measured past Google's limit", async () => {
    const file = join(directory, 'big.txt');
    const size = 1_500_000;
    writeFileSync(file, Buffer.concat([Buffer.from(CLEAN), Buffer.alloc(size - CLEAN.length, '# padding\n')]));
    const result = await run(['lint', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `robotstxt: note: ${file} is ${size} bytes, longer than --max-bytes 1024000: only its first 1024000 bytes were linted\n`,
    );
    expect(result.stdout).toContain(`error file-too-large the file is ${size} bytes: Google reads the first 512000 (500 KiB)`);
    expect(result.stdout).toContain(`warning file-over-yandex-limit the file is ${size} bytes, over Yandex's 32 KB limit`);
  });

  it('stdin: its whole length is unknown, and said so', async () => {
    const result = await run(['lint', '--format', 'jsonl', '--max-bytes', '100', '-'], long);
    expect(result.stderr).toBe(
      'robotstxt: note: <stdin> is longer than --max-bytes 100 (its whole length is unknown): only its first 100 bytes were linted\n',
    );
    expect(result.stdout).toContain('"message":"the file is over 100 bytes; only its first 100 bytes were linted');
  });

  it('a URL: the whole length from Content-Length', async () => {
    const server = await startServer({ '/robots.txt': text(long, 200, { 'content-length': String(long.length) }) });
    const result = await run(['lint', '--allow-internal-hosts', '--max-bytes', '100', server.origin]);
    expect(result.stderr).toBe(
      `robotstxt: note: ${server.origin}/robots.txt is ${long.length} bytes, longer than --max-bytes 100: only its first 100 bytes were linted\n`,
    );
    expect(result.stdout).toContain(`file-too-large the file is ${long.length} bytes; only its first 100 bytes were linted`);
  });
});
