/**
 * `robotstxt lint` as users run it: the built dist/cli.js in a child process (`npm test` builds dist/ first),
 * against files in a temporary directory and an HTTP server on 127.0.0.1. Exit codes: 0 no error; 1 an error;
 * 2 usage or input errors.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { run } from './support/cli.js';
import { closeServers, startServer, status, text } from './support/http-server.js';

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

  it('--format json: one object per finding per line', async () => {
    const result = await run(['lint', '--format', 'json', broken, clean]);
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
      'json',
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
    const result = await run(['lint', '--format', 'json', '--min-severity', 'error', broken]);
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
    const result = await run(['lint', '--allow-internal-hosts', '--format', 'json', `${server.origin}/some/page`]);
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

  it('--help lists the formats and the codes', async () => {
    const result = await run(['lint', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--format text|json|github');
    expect(result.stdout).toContain('pattern-not-path');
  });
});
