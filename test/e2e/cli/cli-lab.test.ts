/**
 * `robotstxt lab` as users run it: the built dist/cli.js started as a process, serving the built page
 * (dist/lab/, which `npm run build` writes) on 127.0.0.1 until it is stopped, and asked over real
 * connections to that address only. What a browser sends (Host, Origin, Sec-Fetch-Site) is written by
 * hand, as another page or a rebound name would send it. Fetches go to real servers on 127.0.0.1, or to
 * names resolved from a table on the test network (test/support/cli-network-preload.mjs).
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { version } from '../../../package.json';
import { run, runProgram } from '../../support/cli.js';
import { startLab, stopLabs, type Lab } from '../../support/lab-command.js';
import { closedPort, closeServers, hang, redirect, startServer, status, text } from '../../support/http-server.js';

const ROBOTS = 'User-agent: *\nDisallow: /private/\n\nUser-agent: ExampleBot\nDisallow: /drafts/\n';
const DEFAULT_USER_AGENT = `robotstxt-cli/${version} (+https://www.npmjs.com/package/robotstxt-wasm)`;
const HEADER = 'Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)';
const CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
const DIST = fileURLToPath(new URL('../../../dist/', import.meta.url));

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

interface Asking {
  readonly method?: string;
  /** Headers sent; `host` defaults to 127.0.0.1:PORT, and null sends none. */
  readonly headers?: Readonly<Record<string, string | null>>;
  readonly body?: string;
}

/** One request to the lab, on its own connection to 127.0.0.1; no answer, whatever it is, has a CORS header. */
async function ask(lab: Lab, path: string, asking: Asking = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries({ host: `127.0.0.1:${lab.port}`, ...asking.headers })) {
    if (value !== null) headers[name] = value;
  }
  const answer = await new Promise<Answer>((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port: lab.port, method: asking.method ?? 'GET', path, headers, setHost: false, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString() }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(asking.body);
  });
  expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  return answer;
}

/** The page's own call of the API: a POST of JSON from the page's origin. */
async function askApi(lab: Lab, value: unknown, headers: Readonly<Record<string, string | null>> = {}): Promise<Answer> {
  return ask(lab, `/${lab.token}/api/fetch`, {
    method: 'POST',
    headers: { origin: `http://127.0.0.1:${lab.port}`, 'content-type': 'application/json', ...headers },
    body: typeof value === 'string' ? value : JSON.stringify(value),
  });
}

function json(answer: Answer): Record<string, unknown> {
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  return JSON.parse(answer.body) as Record<string, unknown>;
}

/** Waits until `done()`: for a state another process reaches (a request arriving), not for a time. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('robotstxt lab: the address', () => {
  it('prints http://127.0.0.1:PORT/<token>/ and how to stop it; the token is new on every run', async () => {
    const [first, second] = await Promise.all([startLab(), startLab()]);
    for (const lab of [first, second]) {
      expect(lab.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{32}\/\nOpen it in a browser; Ctrl-C stops the server\.\n$/);
      expect(lab.port).toBeGreaterThan(0);
      expect(lab.stderr()).toBe('');
    }
    expect(first?.token).not.toBe(second?.token);
  });

  it('--port N listens on N', async () => {
    const port = await closedPort();
    const lab = await startLab(['--port', String(port)]);
    expect(lab.address).toBe(`http://127.0.0.1:${port}/${lab.token}/`);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('stops on %s, closing the server, and exits 0', async (signal) => {
    const lab = await startLab();
    expect((await ask(lab, `/${lab.token}/`)).status).toBe(200);
    expect(await lab.stop(signal)).toBe(0);
    await expect(ask(lab, `/${lab.token}/`)).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('robotstxt lab: the page', () => {
  it('is served under the token in live mode, with its security headers', async () => {
    const lab = await startLab();
    const page = await ask(lab, `/${lab.token}/`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('data-lab-mode="live"');
    expect(page.body).not.toContain('data-lab-mode="static"');
    expect(page.headers).toMatchObject({
      'content-security-policy': CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-cache',
    });
    const built = readFileSync(join(DIST, 'lab', 'index.html'), 'utf8');
    expect(page.body).toBe(built.replace('data-lab-mode="static"', 'data-lab-mode="live"'));
    // The same page by its name, by localhost, and as a query string's target.
    for (const [path, host] of [
      [`/${lab.token}/index.html`, `127.0.0.1:${lab.port}`],
      [`/${lab.token}/`, `localhost:${lab.port}`],
      [`/${lab.token}/?robots=x`, `LOCALHOST:${lab.port}`],
    ] as const) {
      const again = await ask(lab, path, { headers: { host } });
      expect({ status: again.status, body: again.body }).toEqual({ status: 200, body: page.body });
    }
    const head = await ask(lab, `/${lab.token}/`, { method: 'HEAD' });
    expect({ status: head.status, body: head.body, length: head.headers['content-length'] }).toEqual({
      status: 200,
      body: '',
      length: String(Buffer.byteLength(page.body)),
    });
  });

  it('every file the page links relatively is served with its type', async () => {
    const lab = await startLab();
    const page = (await ask(lab, `/${lab.token}/`)).body;
    const types: Record<string, RegExp> = {
      js: /^text\/javascript/,
      mjs: /^text\/javascript/,
      css: /^text\/css/,
      svg: /^image\/svg\+xml$/,
      png: /^image\/png$/,
      ico: /^image\/x-icon$/,
      webmanifest: /^application\/manifest\+json$/,
      json: /^application\/json/,
    };
    for (const [, file] of page.matchAll(/(?:src|href)="\.\/([^"#?]+)"/g)) {
      const answer = await ask(lab, `/${lab.token}/${file}`);
      expect(answer.status, file).toBe(200);
      expect(answer.headers['content-type'], file).toMatch(types[(file as string).split('.').pop() as string] ?? /^$/);
    }
  });

  it('/<token> (no final slash) redirects to /<token>/', async () => {
    const lab = await startLab();
    const answer = await ask(lab, `/${lab.token}`);
    expect(answer.status).toBe(308);
    expect(answer.headers.location).toBe(`/${lab.token}/`);
  });

  it('any other path is a 404 that says nothing: no token, a wrong one, one cut or lengthened', async () => {
    const lab = await startLab();
    const other = `${lab.token[0] === 'A' ? 'B' : 'A'}${lab.token.slice(1)}`;
    for (const path of [
      '/',
      '/index.html',
      '/favicon.ico',
      '/api/fetch',
      `/${other}/`,
      `/${other}`,
      `/${lab.token.slice(0, -1)}/`,
      `/${lab.token}x/`,
      `/x/${lab.token}/`,
      `/${encodeURIComponent(`${lab.token}/`)}`,
      `/%${lab.token}/`,
      `/${lab.token}/api/`,
      `/${lab.token}/api/other`,
      `/${lab.token}/missing.js`,
    ]) {
      const answer = await ask(lab, path);
      expect({ path, status: answer.status, body: answer.body }).toEqual({ path, status: 404, body: 'not found\n' });
    }
  });

  it('no path leaves the lab folder: dot segments, encoded slashes and backslashes, NUL, hidden files', async () => {
    const lab = await startLab();
    // dist/cli.js is beside dist/lab/: what each of these would reach if a path could climb out.
    const command = readFileSync(join(DIST, 'cli.js'), 'utf8').slice(0, 200);
    const t = lab.token;
    for (const path of [
      `/${t}/../cli.js`,
      `/${t}/./index.html`,
      `/${t}/%2e%2e/cli.js`,
      `/${t}/.%2e/cli.js`,
      `/${t}/..%2fcli.js`,
      `/${t}/%2e%2e%2fcli.js`,
      `/${t}/%2E%2E%2Fcli.js`,
      `/${t}/..%5ccli.js`,
      `/${t}/..\\cli.js`,
      `/${t}/%252e%252e/cli.js`,
      `/${t}/index.html%00`,
      `/${t}/index.html%00.js`,
      `/${t}//index.html`,
      `/${t}/index.html/`,
      `/${t}/%2fetc%2fpasswd`,
      `/${t}/C:%5cWindows%5cwin.ini`,
      `/${t}/.env`,
      `/${t}/%`,
      `/${t}/%zz`,
      `/${t}/${'../'.repeat(12)}etc/passwd`,
    ]) {
      const answer = await ask(lab, path);
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
      expect(answer.body).not.toContain(command);
    }
  });

  it('answers only to its own Host: another name, port or no port is refused, nothing served', async () => {
    const lab = await startLab();
    for (const host of [
      `evil.example:${lab.port}`,
      `127.0.0.1:${lab.port + 1}`,
      '127.0.0.1',
      'localhost',
      `localhost.evil.example:${lab.port}`,
      `127.0.0.1:${lab.port}.evil.example`,
      `[::1]:${lab.port}`,
    ]) {
      const answer = await ask(lab, `/${lab.token}/`, { headers: { host } });
      expect({ host, status: answer.status }).toEqual({ host, status: 421 });
      expect(answer.body).not.toContain('data-lab-mode');
    }
    const none = await ask(lab, `/${lab.token}/`, { headers: { host: null } });
    expect([400, 421]).toContain(none.status);
    expect(none.body).not.toContain('data-lab-mode');
  });

  it('refuses another origin (Origin, Sec-Fetch-Site) with a 403, and serves its own', async () => {
    const lab = await startLab();
    const own = `http://127.0.0.1:${lab.port}`;
    const foreign: Record<string, string>[] = [
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { origin: `https://127.0.0.1:${lab.port}` },
      { origin: `http://localhost:${lab.port}` },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: own, 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of foreign) {
      const answer = await ask(lab, `/${lab.token}/`, { headers });
      expect({ headers, status: answer.status }).toEqual({ headers, status: 403 });
      expect(answer.body).not.toContain('data-lab-mode');
    }
    const ownHeaders: Record<string, string>[] = [{ origin: own }, { 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }];
    for (const headers of ownHeaders) {
      expect((await ask(lab, `/${lab.token}/`, { headers })).status).toBe(200);
    }
  });

  it('takes GET and HEAD for files, POST for the API, and nothing else: OPTIONS is a 405, never a CORS answer', async () => {
    const lab = await startLab();
    const origin = `http://127.0.0.1:${lab.port}`;
    const preflight = { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' };
    for (const [method, path, allow] of [
      ['OPTIONS', `/${lab.token}/api/fetch`, 'POST'],
      ['OPTIONS', `/${lab.token}/`, 'GET, HEAD'],
      ['PUT', `/${lab.token}/index.html`, 'GET, HEAD'],
      ['DELETE', `/${lab.token}/index.html`, 'GET, HEAD'],
      ['GET', `/${lab.token}/api/fetch`, 'POST'],
      ['POST', `/${lab.token}/`, 'GET, HEAD'],
    ] as const) {
      const answer = await ask(lab, path, { method, headers: preflight });
      expect({ method, path, status: answer.status, allow: answer.headers.allow }).toEqual({ method, path, status: 405, allow });
    }
    // Another page's preflight is refused before its method is looked at.
    const foreign = await ask(lab, `/${lab.token}/api/fetch`, {
      method: 'OPTIONS',
      headers: { ...preflight, origin: 'http://evil.example' },
    });
    expect(foreign.status).toBe(403);
  });
});

describe('robotstxt lab: the fetch API', () => {
  it('fetches a robots.txt as robotstxt fetch does, with --allow-internal-hosts for a loopback site', async () => {
    const site = await startServer({ '/robots.txt': text(ROBOTS) });
    const lab = await startLab(['--allow-internal-hosts']);
    const answer = await askApi(lab, { url: `${site.origin}/some/page` });
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(json(answer)).toEqual({
      outcome: 'rules',
      reason: 'ok',
      status: 200,
      robotsUrl: `${site.origin}/robots.txt`,
      finalUrl: `${site.origin}/robots.txt`,
      redirects: 0,
      bytes: ROBOTS.length,
      truncated: false,
      contentType: 'text/plain; charset=utf-8',
      looksLikeHtml: false,
      body: ROBOTS,
    });
    expect(site.requests.map((request) => request.headers['user-agent'])).toEqual([DEFAULT_USER_AGENT]);
    // The same answer robotstxt fetch reports.
    const fetched = JSON.parse((await run(['fetch', '--allow-internal-hosts', '--format', 'json', site.origin])).stdout) as Record<
      string,
      unknown
    >;
    expect(json(answer)).toMatchObject({
      outcome: fetched.outcome,
      reason: fetched.reason,
      bytes: fetched.bytes,
      contentType: fetched.contentType,
    });
  });

  it('the same URL is refused without --allow-internal-hosts: disallow-all, host-refused, never requested', async () => {
    const site = await startServer({ '/robots.txt': text(ROBOTS) });
    const lab = await startLab();
    const answer = await askApi(lab, { url: site.origin });
    expect(answer.status).toBe(200);
    expect(json(answer)).toMatchObject({ outcome: 'disallow-all', reason: 'host-refused', status: 0, body: null, contentType: null });
    expect(site.count()).toBe(0);
    expect(lab.stderr()).toContain('robotstxt: note: 127.0.0.1 is an internal host: not fetched');
  });

  it('a name that resolves to 127.0.0.1 is refused as resolved, and fetched with --allow-internal-hosts', async () => {
    const site = await startServer({ '/robots.txt': text(ROBOTS) });
    const dns = { 'site.example.com': ['127.0.0.1'] };
    const url = `http://site.example.com:${site.port}/`;
    const guarded = await startLab([], dns);
    expect(json(await askApi(guarded, { url }))).toMatchObject({ outcome: 'disallow-all', reason: 'host-refused' });
    expect(guarded.stderr()).toContain('note: site.example.com resolves to 127.0.0.1, an internal address: not fetched');
    expect(site.count()).toBe(0);
    const allowed = await startLab(['--allow-internal-hosts'], dns);
    expect(json(await askApi(allowed, { url }))).toMatchObject({ outcome: 'rules', status: 200, body: ROBOTS });
    expect(allowed.stderr()).toContain(`[test-network] connect site.example.com (127.0.0.1):${site.port}`);
    expect(site.count()).toBe(1);
  });

  it('a redirect from the loopback site to 10.0.0.1 is refused at the hop (--allow-network lets the site through)', async () => {
    const site = await startServer({ '/robots.txt': redirect('http://10.0.0.1/robots.txt') });
    const lab = await startLab(['--allow-network', '127.0.0.1/32'], {});
    expect(json(await askApi(lab, { url: site.origin }))).toMatchObject({ outcome: 'allow-all', reason: 'redirect-refused', status: 301 });
    expect(lab.stderr()).not.toContain('[test-network] connect 10.0.0.1');
  });

  it('a bare host name is read as https://host/', async () => {
    const lab = await startLab();
    expect(json(await askApi(lab, { url: 'localhost:9' }))).toMatchObject({
      robotsUrl: 'https://localhost:9/robots.txt',
      reason: 'host-refused',
    });
  });

  it('sends --user-agent, follows redirects, and reads with the profile asked for', async () => {
    const site = await startServer({ '/robots.txt': redirect('/moved.txt'), '/moved.txt': text(ROBOTS), '/gone/robots.txt': status(404) });
    const lab = await startLab(['--allow-internal-hosts', '--user-agent', HEADER]);
    expect(json(await askApi(lab, { url: site.origin, profile: 'google' }))).toMatchObject({
      outcome: 'rules',
      redirects: 1,
      finalUrl: `${site.origin}/moved.txt`,
      body: ROBOTS,
    });
    expect(site.requests.map((request) => request.headers['user-agent'])).toEqual([HEADER, HEADER]);
    // Yandex reads any final status but 200 as no restriction: its own reason.
    site.route('/robots.txt', status(404));
    expect(json(await askApi(lab, { url: site.origin, profile: 'yandex' }))).toMatchObject({ outcome: 'allow-all', reason: 'not-200' });
    expect(json(await askApi(lab, { url: site.origin, profile: 'rfc9309' }))).toMatchObject({
      outcome: 'allow-all',
      reason: 'client-error',
    });
  });

  it('a 503 reads disallow-all, and a 404 allow-all, with no body', async () => {
    const site = await startServer({ '/robots.txt': status(503) });
    const lab = await startLab(['--allow-internal-hosts']);
    expect(json(await askApi(lab, { url: site.origin }))).toMatchObject({
      outcome: 'disallow-all',
      reason: 'server-error',
      status: 503,
      body: null,
    });
    site.route('/robots.txt', status(404));
    expect(json(await askApi(lab, { url: site.origin }))).toMatchObject({
      outcome: 'allow-all',
      reason: 'client-error',
      status: 404,
      body: null,
    });
  });

  it('--max-bytes cuts the body: bytes, truncated, and the text read', async () => {
    const site = await startServer({ '/robots.txt': text(ROBOTS) });
    const lab = await startLab(['--allow-internal-hosts', '--max-bytes', '12']);
    expect(json(await askApi(lab, { url: site.origin }))).toMatchObject({ bytes: 12, truncated: true, body: ROBOTS.slice(0, 12) });
  });

  it('never sends the credentials of a URL: the library asks for the origin, without them', async () => {
    const site = await startServer({ '/robots.txt': text(ROBOTS) });
    const lab = await startLab(['--allow-internal-hosts']);
    const answer = json(await askApi(lab, { url: `http://user:secret@127.0.0.1:${site.port}/private/` }));
    expect(answer).toMatchObject({ outcome: 'rules', robotsUrl: `${site.origin}/robots.txt`, finalUrl: `${site.origin}/robots.txt` });
    expect(JSON.stringify(answer)).not.toContain('secret');
    expect(site.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('refuses a POST without an Origin, or from another origin (403)', async () => {
    const site = await startServer({ '/robots.txt': text(ROBOTS) });
    const lab = await startLab(['--allow-internal-hosts']);
    expect((await askApi(lab, { url: site.origin }, { origin: null })).status).toBe(403);
    expect((await askApi(lab, { url: site.origin }, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await askApi(lab, { url: site.origin }, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect(site.count()).toBe(0);
  });

  it.each([
    ['a body that is not JSON', 'url=https://example.com/', {}, 400, /not JSON/],
    ['a JSON array', '["https://example.com/"]', {}, 400, /must be a JSON object/],
    ['no url', '{"profile":"google"}', {}, 400, /"url" must be/],
    ['an empty url', '{"url":"  "}', {}, 400, /"url" must be/],
    ['a url that is not a string', '{"url":["https://example.com/"]}', {}, 400, /"url" must be/],
    ['an unknown profile', '{"url":"https://example.com/","profile":"bing"}', {}, 400, /"profile" must be "rfc9309", "google", "yandex"/],
    ['a scheme other than http(s)', '{"url":"ftp://example.com/"}', {}, 400, /Unsupported URL scheme "ftp:"/],
    ['a URL that does not parse', '{"url":"http://"}', {}, 400, /Invalid URL/],
    ['another Content-Type', '{"url":"https://example.com/"}', { 'content-type': 'text/plain' }, 415, /application\/json/],
    ['a body over 8 KiB', JSON.stringify({ url: `https://example.com/${'a'.repeat(9000)}` }), {}, 413, /at most 8192 bytes/],
  ])('%s is refused with a JSON error, and nothing is fetched', async (_what, body, headers, code, message) => {
    const lab = await startLab();
    const answer = await askApi(lab, body, headers);
    expect(answer.status).toBe(code);
    expect(json(answer).error).toMatch(message);
    expect(lab.stderr()).toBe('');
    // The server goes on serving.
    expect((await ask(lab, `/${lab.token}/`)).status).toBe(200);
  });

  it('runs at most 4 fetches at once (429 beyond), and stopping ends those running: exit 0', async () => {
    const site = await startServer({ '/robots.txt': hang });
    const lab = await startLab(['--allow-internal-hosts']);
    const pending = Array.from({ length: 4 }, () => askApi(lab, { url: site.origin }).catch((error: Error) => error));
    await until(() => site.count() === 4);
    const refused = await askApi(lab, { url: site.origin });
    expect(refused.status).toBe(429);
    expect(json(refused).error).toMatch(/4 fetches are running/);
    expect(site.count()).toBe(4);
    expect(await lab.stop()).toBe(0);
    for (const settled of await Promise.all(pending)) expect(settled).toBeInstanceOf(Error);
  });
});

describe('robotstxt lab: usage', () => {
  it.each([
    [['--port', '65536'], /^robotstxt: --port takes a whole number from 0 to 65535, got "65536"\n$/],
    [['--port', 'http'], /^robotstxt: --port takes a whole number ≥ 0, got "http"\n$/],
    [['--port=-1'], /--port takes a whole number ≥ 0, got "-1"/],
    [['--port'], /--port needs a value/],
    [['index.html'], /^robotstxt: lab takes no arguments, got "index.html" \(see robotstxt lab --help\)\n$/],
    [['--allow-network', 'intranet'], /--allow-network takes an IP address or a range in CIDR notation/],
    [['--user-agent', 'Bot\u00e9'], /^robotstxt: --user-agent: Invalid userAgent/],
    [['--timeout', '0'], /--timeout takes a whole number ≥ 1/],
    [['--profile', 'google'], /^robotstxt: unknown option --profile \(see robotstxt lab --help\)\n$/],
  ])('lab %j is a usage error: one line, exit 2, nothing served', async (args, message) => {
    const result = await run(['lab', ...args]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
  });

  it('a port in use is a usage error', async () => {
    const server = await startServer();
    const result = await run(['lab', '--port', String(server.port)]);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `robotstxt: cannot listen on 127.0.0.1:${server.port}: the port is in use (--port 0 lets the system choose a free port)\n`,
    });
  });

  it('without the built page, says how to build it (exit 2)', async () => {
    // The command's files without lab/ beside them.
    const bare = mkdtempSync(join(tmpdir(), 'robotstxt-lab-'));
    try {
      for (const file of readdirSync(DIST).filter((name) => name.endsWith('.js'))) copyFileSync(join(DIST, file), join(bare, file));
      const missing = await runProgram([process.execPath, join(bare, 'cli.js'), 'lab'], process.env);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toBe(
        `robotstxt: the lab page is not built: ${join(bare, 'lab', 'index.html')} is missing (run npm run build:lab, or npm run build, first)\n`,
      );
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it('--help says what it serves, the token, the checks and the flags', async () => {
    const help = await run(['lab', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^robotstxt lab: /);
    for (const part of [
      'http://127.0.0.1:PORT/TOKEN/',
      '--port N',
      '--allow-internal-hosts',
      '--allow-network CIDR',
      `(default "${DEFAULT_USER_AGENT}")`,
    ]) {
      expect(help.stdout).toContain(part);
    }
  });
});
