/**
 * The `robotstxt check` and `robotstxt fetch` commands as users run them: the built dist/cli.js in a child
 * process (`npm test` builds dist/ first), against files in a temporary directory and real HTTP servers on
 * 127.0.0.1. Exit codes: 0 allowed / a result came back; 1 something disallowed; 2 usage or input errors.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { version } from '../../../package.json';
import { CLI, run, runForBytes, type Run } from '../../support/cli.js';
import { closedPort, closeServers, redirect, startServer, status, text } from '../../support/http-server.js';

const ROBOTS =
  'User-agent: *\nDisallow: /private/\nAllow: /private/press\nCrawl-delay: 2\n\nUser-agent: ExampleBot\nDisallow: /drafts/\n\nSitemap: https://example.com/sitemap.xml\n';
const HEADER = 'Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)';

const directory = mkdtempSync(join(tmpdir(), 'robotstxt-cli-'));
const robotsFile = join(directory, 'robots.txt');
writeFileSync(robotsFile, ROBOTS);

afterEach(closeServers);
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A user mistake is a message, never a stack trace. */
function expectUsageError(result: Run, message: RegExp): void {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(/^robotstxt: /);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

describe('check against a file', () => {
  it('prints one aligned line per URL with the deciding rule and its line, and exits 1 when one is disallowed', async () => {
    const result = await run(['check', robotsFile, 'OtherBot', '/private/plans', 'https://example.com/private/press/2026', '/']);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')).toEqual([
      'disallowed  /private/plans                          disallow: /private/ (line 2)',
      'allowed     https://example.com/private/press/2026  allow: /private/press (line 3)',
      'allowed     /                                       (no rule)',
      '',
    ]);
  });

  it('exits 0 when every URL is allowed', async () => {
    const result = await run(['check', robotsFile, 'OtherBot', '/', '/public/page']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('allowed     /             (no rule)\nallowed     /public/page  (no rule)\n');
  });

  // RFC 9309 §2.2.1: a group naming the agent replaces the * group.
  it("a group that names the agent decides alone: the * group's rules do not apply", async () => {
    const result = await run(['check', robotsFile, 'ExampleBot', '/private/plans', '/drafts/a']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('allowed     /private/plans  (no rule)');
    expect(result.stdout).toContain('disallowed  /drafts/a       disallow: /drafts/ (line 7)');
  });

  it('--format json prints one object per URL per line: verdict, line, rule, agent, source and usage', async () => {
    const result = await run(['check', '--format', 'jsonl', robotsFile, 'OtherBot', '/private/plans', '/']);
    expect(result.code).toBe(1);
    expect(jsonLines(result.stdout)).toEqual([
      {
        url: '/private/plans',
        allowed: false,
        line: 2,
        rule: { kind: 'disallow', pattern: '/private/' },
        agent: 'OtherBot',
        matched: 'global',
        profile: 'rfc9309',
        source: { kind: 'file', path: robotsFile },
        // Not crawlable: no preferences (cli-check-usage.test.ts tells the rest).
        usage: null,
      },
      {
        url: '/',
        allowed: true,
        line: 0,
        rule: null,
        agent: 'OtherBot',
        matched: 'global',
        profile: 'rfc9309',
        source: { kind: 'file', path: robotsFile },
        usage: { 'train-ai': 'unknown', search: 'unknown', 'ai-input': 'unknown', statements: [] },
      },
    ]);
  });

  it('reads ROBOTS from stdin when it is "-"', async () => {
    const result = await run(['check', '-', 'ExampleBot', '/a'], 'User-agent: *\nDisallow: /\n');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('disallowed  /a  disallow: / (line 2)\n');
  });

  it('says when no group applies to the agent', async () => {
    writeFileSync(join(directory, 'named.txt'), 'User-agent: OnlyBot\nDisallow: /\n');
    const result = await run(['check', join(directory, 'named.txt'), 'ExampleBot', '/a']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('allowed     /a  (no rule: no group applies to this agent)\n');
  });

  it('--profile google compares the agent as given: ExampleBot/1.2 matches no group, so the * group applies', async () => {
    const result = await run(['check', '--profile', 'google', '--format', 'jsonl', robotsFile, 'ExampleBot/1.2', '/drafts/a']);
    expect(result.code).toBe(0);
    expect(jsonLines(result.stdout)[0]).toMatchObject({ allowed: true, matched: 'global', profile: 'google' });
  });

  it('--profile yandex gives a Yandex robot the User-agent: Yandex group and ignores * for it', async () => {
    // spec: Yandex's robots.txt docs (https://yandex.com/support/webmaster/controlling-robot/robots-txt.html), "If a string User-agent: Yandexis detected, directives for User-agent: * are ignored."
    writeFileSync(join(directory, 'yandex.txt'), 'User-agent: *\nDisallow: /\n\nUser-agent: Yandex\nDisallow: /private/\n');
    const file = join(directory, 'yandex.txt');
    const result = await run(['check', '--profile', 'yandex', '--format', 'jsonl', file, 'YandexImages', '/a', '/private/b']);
    expect(result.code).toBe(1);
    expect(jsonLines(result.stdout)).toMatchObject([
      { url: '/a', allowed: true, matched: 'family', profile: 'yandex' },
      { url: '/private/b', allowed: false, matched: 'family', profile: 'yandex' },
    ]);
  });

  it('--max-bytes cuts the file, and a note on stderr says so with the whole length', async () => {
    const result = await run(['check', '--max-bytes', '10', robotsFile, 'OtherBot', '/private/plans']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      `robotstxt: note: ${robotsFile} is ${ROBOTS.length} bytes, longer than --max-bytes 10: only its first 10 bytes were parsed\n`,
    );
  });

  it('--format jsonl writes JSON lines; json is its synonym', async () => {
    const args = [robotsFile, 'OtherBot', '/private/plans', '/'];
    const jsonl = await run(['check', '--format', 'jsonl', ...args]);
    expect(jsonLines(jsonl.stdout)).toHaveLength(2);
    expect(await run(['check', '--format', 'json', ...args])).toEqual(jsonl);
  });

  it('control characters from the file are escaped, not sent to the terminal', async () => {
    writeFileSync(join(directory, 'escape.txt'), 'User-agent: *\nDisallow: /a\x1b[31m\n');
    const result = await run(['check', join(directory, 'escape.txt'), 'ExampleBot', '/a\x1b[31m']);
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain('\x1b');
    expect(result.stdout).toContain('disallow: /a\\x1b[31m (line 2)');
  });
});

describe('check: the forms of AGENT', () => {
  it('a product token, name/version and a full User-Agent header all check as the crawler token', async () => {
    for (const agent of ['ExampleBot', 'ExampleBot/1.2', HEADER]) {
      const result = await run(['check', '--format', 'jsonl', robotsFile, agent, '/drafts/a', '/private/plans']);
      expect(result.code).toBe(1);
      expect(jsonLines(result.stdout).map((line) => [line.allowed, line.matched])).toEqual([
        [false, 'agent'],
        [true, 'agent'],
      ]);
    }
  });

  it('a full header is read with productToken(), and the text output names the token it found', async () => {
    const result = await run(['check', robotsFile, HEADER, '/drafts/a']);
    expect(result.stdout.split('\n')[0]).toBe(`agent ExampleBot (the crawler token of ${JSON.stringify(HEADER)})`);
  });

  it('a browser header that names no crawler is a usage error', async () => {
    const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    expectUsageError(await run(['check', robotsFile, browser, '/']), /names no crawler.*pass the crawler's token/);
  });

  // RFC 9309 §2.2.1: the library throws a TypeError for an agent that is not a product token.
  it('an agent that is not a product token is a usage error that says what to pass', async () => {
    expectUsageError(
      await run(['check', robotsFile, 'Example.Bot', '/']),
      /AGENT "Example\.Bot" is not a product token: pass the crawler's name/,
    );
  });

  it('words without a comment or a product/version are a mistyped name, not a header: refused, advising --profile google', async () => {
    const result = await run(['check', robotsFile, 'not a token!', '/']);
    expectUsageError(result, /^robotstxt: AGENT "not a token!" is not a product token: .*; --profile google compares it as given\n$/);
    expect(result.stderr).not.toContain('{ profile');
    const google = await run(['check', '--profile', 'google', robotsFile, 'not a token!', '/private/x']);
    expect(google.code).toBe(1);
  });
});

describe('check: ROBOTS as gzip, and the inputs it refuses', () => {
  const rules = 'User-agent: *\nDisallow: /private/\n';
  const verdict = 'disallowed  /private/x  disallow: /private/ (line 2)\n';
  const checkStdin = (input: Buffer) => runForBytes([process.execPath, CLI, 'check', '-', 'ExampleBot', '/private/x'], input);

  it('a gzip file, or gzip on stdin, is read decompressed, whatever its name', async () => {
    const file = join(directory, 'gzipped-robots.txt');
    writeFileSync(file, gzipSync(rules));
    expect(await run(['check', file, 'ExampleBot', '/private/x'])).toEqual({ code: 1, stdout: verdict, stderr: '' });
    const piped = await checkStdin(gzipSync(rules));
    expect([piped.code, piped.stdout.toString(), piped.stderr]).toEqual([1, verdict, '']);
  });

  it('a gzip bomb is decompressed up to --max-bytes only: a note, and the verdicts of what was read', async () => {
    const file = join(directory, 'bomb.gz');
    // 32 MiB of comment lines, about 32 KiB compressed.
    writeFileSync(file, gzipSync(Buffer.concat([Buffer.from(rules), Buffer.alloc(32 * 1024 * 1024, '# comment\n')]), { level: 9 }));
    const result = await run(['check', '--max-bytes', '1000', file, 'ExampleBot', '/private/x']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(verdict);
    expect(result.stderr).toBe(
      `robotstxt: note: ${file} is longer than --max-bytes 1000 (its whole length is unknown): only its first 1000 bytes were parsed\n`,
    );
  });

  it('a UTF-8 byte-order mark is read past', async () => {
    const file = join(directory, 'bom.txt');
    writeFileSync(file, `\ufeff${rules}`);
    expect(await run(['check', file, 'ExampleBot', '/private/x'])).toEqual({ code: 1, stdout: verdict, stderr: '' });
  });

  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  it.each([
    [
      'robots.txt.bz2',
      Buffer.concat([Buffer.from('BZh91AY&SY'), Buffer.alloc(32, 1)]),
      'is bzip2-compressed, which robotstxt does not read: bzcat',
    ],
    [
      'robots.txt.xz',
      Buffer.concat([Buffer.from('fd377a585a00', 'hex'), Buffer.alloc(32, 1)]),
      'is xz-compressed, which robotstxt does not read: xzcat',
    ],
    [
      'robots.txt.zst',
      Buffer.concat([Buffer.from('28b52ffd', 'hex'), Buffer.alloc(32, 1)]),
      'is zstd-compressed, which robotstxt does not read: zstdcat',
    ],
    [
      'robots-utf16.txt',
      Buffer.concat([Buffer.from('fffe', 'hex'), Buffer.from(rules, 'utf16le')]),
      'is UTF-16 text (it starts with a byte-order mark), which robotstxt does not read: iconv -f UTF-16 -t UTF-8',
    ],
  ])('%s is refused whole, with the command that turns it into text', async (name, bytes, says) => {
    const file = join(directory, name);
    writeFileSync(file, bytes);
    expect(await run(['check', file, 'ExampleBot', '/private/x'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `robotstxt: ${file} ${says} ${file} | robotstxt check - AGENT URL…\n`,
    });
  });

  it.each([
    ['image.png', png],
    ['nul.txt', Buffer.from(`${rules}\0`)],
    ['image.png.gz', gzipSync(png)],
  ])('%s is binary: refused whole', async (name, bytes) => {
    const file = join(directory, name);
    writeFileSync(file, bytes);
    const result = await run(['check', file, 'ExampleBot', '/private/x']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(new RegExp(`^robotstxt: ${file.replace(/[.\\/]/g, '\\$&')} is binary, not text \\([^\n]*\n$`));
  });

  it('on stdin too: the message says to pipe it through the decompressor', async () => {
    const piped = await checkStdin(Buffer.concat([Buffer.from('BZh91AY&SY'), Buffer.alloc(32, 1)]));
    expect([piped.code, piped.stdout.toString(), piped.stderr]).toEqual([
      2,
      '',
      'robotstxt: the input on stdin is bzip2-compressed, which robotstxt does not read: … | bzcat | robotstxt check - AGENT URL…\n',
    ]);
  });
});

describe('check against an http(s) URL', () => {
  // RFC 9309 §2.3.1.1
  it('a 200: the first line says what was fetched, then the verdicts of its rules', async () => {
    const server = await startServer({ '/robots.txt': text(ROBOTS) });
    const result = await run(['check', '--allow-internal-hosts', `${server.origin}/any/page`, 'OtherBot', '/private/plans', '/']);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')).toEqual([
      `fetched ${server.origin}/robots.txt: status 200, rules (ok): the file's rules decide; ${ROBOTS.length} bytes`,
      'disallowed  /private/plans  disallow: /private/ (line 2)',
      'allowed     /               (no rule)',
      '',
    ]);
    expect(server.requests[0]?.headers['user-agent']).toBe(`robotstxt-cli/${version} (+https://www.npmjs.com/package/robotstxt-wasm)`);
  });

  // RFC 9309 §2.3.1.3
  it('a 404 allows everything: exit 0, and the output says why', async () => {
    const server = await startServer();
    const result = await run(['check', '--allow-internal-hosts', server.origin, 'ExampleBot', '/private/plans']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^fetched .*: status 404, allow-all \(client-error\): no usable robots\.txt/);
    expect(result.stdout).toContain('allowed     /private/plans  (allow-all: client-error)');
  });

  // RFC 9309 §2.3.1.4
  it('a 503 disallows everything: exit 1, so that scripts can branch on it', async () => {
    const server = await startServer({ '/robots.txt': status(503) });
    const result = await run(['check', '--allow-internal-hosts', '--format', 'jsonl', server.origin, 'ExampleBot', '/', '/a']);
    expect(result.code).toBe(1);
    const lines = jsonLines(result.stdout);
    expect(lines.map((line) => line.allowed)).toEqual([false, false]);
    expect(lines[0]).toMatchObject({
      line: 0,
      rule: null,
      source: { kind: 'fetch', robotsUrl: `${server.origin}/robots.txt`, status: 503, outcome: 'disallow-all', reason: 'server-error' },
    });
  });

  it('an unreachable site disallows everything', async () => {
    const result = await run(['check', '--allow-internal-hosts', `http://127.0.0.1:${await closedPort()}/`, 'ExampleBot', '/']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/no response, disallow-all \(network-error\)/);
  });

  // RFC 9309 §2.3.1.2
  it('a redirect is followed, and the first line names where it led', async () => {
    const server = await startServer({ '/robots.txt': redirect('/moved.txt'), '/moved.txt': text(ROBOTS) });
    const result = await run(['check', '--allow-internal-hosts', server.origin, 'OtherBot', '/private/x']);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')[0]).toBe(
      `fetched ${server.origin}/robots.txt after 1 redirect to ${server.origin}/moved.txt: status 200, rules (ok): ` +
        `the file's rules decide; ${ROBOTS.length} bytes`,
    );
  });

  it('--user-agent sets the header sent, while AGENT picks the group', async () => {
    const server = await startServer({ '/robots.txt': text(ROBOTS) });
    const result = await run(['check', '--allow-internal-hosts', '--user-agent', HEADER, server.origin, 'ExampleBot', '/drafts/a']);
    expect(result.code).toBe(1);
    expect(server.requests[0]?.headers['user-agent']).toBe(HEADER);
  });

  it('URLs on another origin get a note: their own robots.txt governs them', async () => {
    const server = await startServer({ '/robots.txt': text(ROBOTS) });
    const result = await run(['check', '--allow-internal-hosts', server.origin, 'ExampleBot', 'https://example.org/a']);
    expect(result.stderr).toContain(`note: URLs on https://example.org are governed by its own robots.txt, not ${server.origin}'s`);
  });
});

describe('check: usage and input errors exit 2 with a message', () => {
  it.each([
    [[], /check takes ROBOTS AGENT URL…, missing ROBOTS, AGENT and URL/],
    [[robotsFile], /missing AGENT and URL/],
    [[robotsFile, 'ExampleBot'], /missing URL/],
    [[join(directory, 'missing.txt'), 'ExampleBot', '/'], /^robotstxt: cannot read .*missing\.txt: no such file\n$/],
    [[directory, 'ExampleBot', '/'], /^robotstxt: cannot read .*: is a directory\n$/],
    [['--format', 'xml', robotsFile, 'ExampleBot', '/'], /--format takes "text" or "jsonl", got "xml"/],
    [['--profile', 'bing', robotsFile, 'ExampleBot', '/'], /--profile takes "rfc9309" or "google"/],
    [['--timeout', '0', robotsFile, 'ExampleBot', '/'], /--timeout takes a whole number ≥ 1/],
    [['--max-bytes', 'lots', robotsFile, 'ExampleBot', '/'], /--max-bytes takes a whole number ≥ 0/],
    [['--verbose', robotsFile, 'ExampleBot', '/'], /^robotstxt: unknown option --verbose \(see robotstxt check --help\)\n$/],
    [['--user-agent', 'Bot\u00e9', 'http://127.0.0.1:1/', 'ExampleBot', '/'], /--user-agent: Invalid userAgent/],
    [['http://', 'ExampleBot', '/'], /Invalid URL "http:\/\/"/],
  ])('check %j', async (args, message) => {
    expectUsageError(await run(['check', ...args]), message);
  });
});

describe('fetch', () => {
  it('reports outcome, status, final URL, size, cache lifetime, content type, groups, sitemaps, host and diagnostics', async () => {
    const body = `${ROBOTS}Host: shop.example\nNoindex: /x\n`;
    const server = await startServer({ '/robots.txt': text(body, 200, { 'cache-control': 'max-age=3600' }) });
    const result = await run(['fetch', '--allow-internal-hosts', `${server.origin}/some/page`]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n')).toEqual([
      `robots.txt    ${server.origin}/robots.txt`,
      "outcome       rules (ok): the file's rules decide",
      'status        200',
      `final URL     ${server.origin}/robots.txt (no redirects)`,
      `size          ${body.length} bytes, whole`,
      'cache         kept 1 h (Cache-Control max-age 3600 s)',
      'content type  text/plain; charset=utf-8, not HTML',
      'groups        2',
      '  line 1  User-agent: *           2 rules, crawl-delay 2',
      '  line 6  User-agent: ExampleBot  1 rule',
      'sitemaps      1',
      '  https://example.com/sitemap.xml',
      'host          shop.example',
      'diagnostics   1 (unknown-directive 1)',
      '',
    ]);
  });

  it('--format json gives every field of the result, the cache lifetime and the file', async () => {
    const server = await startServer({ '/robots.txt': redirect('/moved.txt'), '/moved.txt': text(ROBOTS) });
    const result = await run(['fetch', '--allow-internal-hosts', '--format', 'json', '--user-agent', HEADER, server.origin]);
    expect(result.code).toBe(0);
    const [report] = jsonLines(result.stdout);
    expect(report).toMatchObject({
      robotsUrl: `${server.origin}/robots.txt`,
      outcome: 'rules',
      reason: 'ok',
      status: 200,
      finalUrl: `${server.origin}/moved.txt`,
      redirects: 1,
      bytes: ROBOTS.length,
      truncated: false,
      looksLikeHtml: false,
      maxAge: null,
      cacheLifetimeMs: 86_400_000,
      nextFetchAfterMs: null,
      userAgent: HEADER,
      file: {
        groups: [
          { line: 1, agents: ['*'], rules: 2, allow: 1, disallow: 1, crawlDelay: 2 },
          { line: 6, agents: ['ExampleBot'], rules: 1, allow: 0, disallow: 1, crawlDelay: null },
        ],
        sitemaps: ['https://example.com/sitemap.xml'],
        host: null,
        diagnostics: [],
      },
    });
    expect(server.requests.map((request) => request.headers['user-agent'])).toEqual([HEADER, HEADER]);
  });

  it('--format jsonl is a synonym of json: the report is one object on one line', async () => {
    const server = await startServer({ '/robots.txt': text(ROBOTS, 200, { 'cache-control': 'max-age=3600' }) });
    const json = await run(['fetch', '--allow-internal-hosts', '--format', 'json', server.origin]);
    const jsonl = await run(['fetch', '--allow-internal-hosts', '--format', 'jsonl', server.origin]);
    expect(jsonLines(jsonl.stdout)).toHaveLength(1);
    expect(jsonl).toEqual(json);
  });

  it('an HTML page served as robots.txt is flagged', async () => {
    const server = await startServer({
      '/robots.txt': text('<!DOCTYPE html><html><body>hi</body></html>', 200, { 'content-type': 'text/html' }),
    });
    const result = await run(['fetch', '--allow-internal-hosts', server.origin]);
    expect(result.stdout).toContain('content type  text/html, looks like HTML');
  });

  it('--max-bytes truncates the body, and the size line says so', async () => {
    // The ignored size is known from an uncompressed body's Content-Length.
    const server = await startServer({ '/robots.txt': text(ROBOTS, 200, { 'content-length': String(ROBOTS.length) }) });
    const [report] = jsonLines(
      (await run(['fetch', '--allow-internal-hosts', '--format', 'json', '--max-bytes', '20', server.origin])).stdout,
    );
    expect(report).toMatchObject({ bytes: 20, truncated: true, bytesIgnored: ROBOTS.length - 20 });
    const textReport = await run(['fetch', '--allow-internal-hosts', '--max-bytes', '20', server.origin]);
    expect(textReport.stdout).toContain(
      `size          20 bytes parsed, truncated at --max-bytes: ${ROBOTS.length - 20} more bytes ignored`,
    );
  });

  // RFC 9309 §2.3.1.3
  it('a 404 is a result: exit 0, outcome allow-all, no file', async () => {
    const server = await startServer();
    const result = await run(['fetch', '--allow-internal-hosts', server.origin]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('outcome       allow-all (client-error): no usable robots.txt, so everything may be crawled');
    expect(result.stdout).toContain('status        404');
    expect(result.stdout).toContain('cache         kept 24 h (no Cache-Control max-age');
    expect(result.stdout).not.toContain('groups');
    const [report] = jsonLines((await run(['fetch', '--allow-internal-hosts', '--format', 'json', server.origin])).stdout);
    expect(report).toMatchObject({ outcome: 'allow-all', reason: 'client-error', status: 404, file: null });
  });

  // RFC 9309 §2.3.1.4
  it('a 500 is a result: exit 0, outcome disallow-all, and when a cache would ask again', async () => {
    const server = await startServer({ '/robots.txt': status(500) });
    const result = await run(['fetch', '--allow-internal-hosts', server.origin]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('outcome       disallow-all (server-error): the site counts as unreachable');
    expect(result.stdout).toContain('status        500');
    expect(result.stdout).toContain('cache         not kept: asked again after 1 min');
    const [report] = jsonLines((await run(['fetch', '--allow-internal-hosts', '--format', 'json', server.origin])).stdout);
    expect(report).toMatchObject({ outcome: 'disallow-all', status: 500, cacheLifetimeMs: null, nextFetchAfterMs: 60_000, file: null });
  });

  it('a 503 with Retry-After: a cache asks again after it', async () => {
    const server = await startServer({ '/robots.txt': status(503, { 'retry-after': '120' }) });
    const result = await run(['fetch', '--allow-internal-hosts', server.origin]);
    expect(result.stdout).toContain('cache         not kept: asked again after 2 min (Retry-After 120 s)');
  });

  it.each([
    [[], /fetch takes one URL, e.g\. robotstxt fetch https:\/\/example\.com\/ \(got none/],
    [['http://127.0.0.1:1/', 'http://127.0.0.1:2/'], /fetch takes one URL/],
    [['example.com'], /Invalid URL "example\.com".*did you mean https:\/\/example\.com\?/],
    [['ftp://127.0.0.1/'], /Unsupported URL scheme "ftp:"/],
    [['--timeout', 'soon', 'http://127.0.0.1:1/'], /--timeout takes a whole number/],
    [['--timeout', '9999999999', 'http://127.0.0.1:1/'], /--timeout takes at most/],
  ])('fetch %j is a usage error', async (args, message) => {
    expectUsageError(await run(['fetch', ...args]), message);
  });
});
