/**
 * `robotstxt filter` left to run unattended over input it does not control (a link dump, a crawl log): the
 * built command (dist/cli.js) run as a process. No line stops a batch; a URL's host is read as the WHATWG URL
 * parser reads it (https://url.spec.whatwg.org/#host-parsing), the same for --robots-dir and --fetch; saved
 * files are named so that every file system takes them and written without following a planted link; and
 * annotated output carries no control byte from a robots.txt or a URL. --fetch runs on the test network
 * (test/support/cli-network-preload.mjs): names resolve from a table, every socket stays on 127.0.0.1.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { run, runOnTestNetwork, type Run } from '../../support/cli.js';
import { closeServers, startServer, text } from '../../support/http-server.js';

const work = mkdtempSync(join(tmpdir(), 'robotstxt-unattended-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ownServers: Server[] = [];
afterEach(async () => {
  await closeServers();
  await Promise.all(
    ownServers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

const RULES = 'User-agent: *\nDisallow: /private\n';

function folder(name: string, files: Record<string, string> = {}): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, body] of Object.entries(files)) writeFileSync(join(dir, file), body);
  return dir;
}

/** The second column of annotated output: each line's verdict. */
function verdicts(result: Run): string[] {
  return result.stdout
    .split('\n')
    .slice(0, -1)
    .map((line) => line.split('\t')[2] as string);
}

/** The connection attempts of a run on the test network (`connect TARGET` or `refused TARGET`). */
function connections(result: Run): string[] {
  return [...result.stderr.matchAll(/^\[test-network\] (.*)$/gm)].map((match) => match[1] as string);
}

const FETCH = [
  'filter',
  '--agent',
  'ExampleBot',
  '--fetch',
  '--allow-network',
  '127.0.0.1/32',
  '--emit',
  'all',
  '--format',
  'tsv',
  '--no-header',
  '--allow-malformed',
];

describe('no line stops a batch', () => {
  // Hosts the URL parser refuses: a percent-decoded `/`, an IPv4 number out of range, a forbidden code
  // point, an unclosed IPv6 literal, punycode that does not decode.
  const REFUSED = ['http://a%2Fb/x', 'http://256.1.1.1/x', 'http://a<b/x', 'http://[::1/x', 'http://xn--a/x'];

  it('--fetch: a line whose host the URL parser refuses is malformed, never fetched, and the batch goes on', async () => {
    const site = await startServer({ '/robots.txt': text(RULES) });
    const input = [`${site.origin}/private/a`, ...REFUSED, `${site.origin}/open`].join('\n');
    const result = await runOnTestNetwork(FETCH, {}, `${input}\n`);
    expect(result.code, result.stderr).toBe(0);
    expect(verdicts(result)).toEqual(['disallowed', ...REFUSED.map(() => 'malformed'), 'allowed']);
    expect(result.stdout.split('\n')[1]).toBe('2\t\tmalformed\tmalformed\t\t\t\thttp://a%2Fb/x');
    expect(result.stderr).toMatch(/^lines: 7\nallowed: 1\ndisallowed: 1\nmalformed: 5\n/m);
    expect(result.stderr).not.toMatch(/Error|\n\s+at /);
    expect(connections(result)).toEqual([`connect 127.0.0.1:${site.port}`]);
  });

  it('--robots-dir reads those lines as malformed too, the same host reading', async () => {
    const dir = folder('refused', { 'example.com': RULES });
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
        '--allow-malformed',
        '-q',
      ],
      REFUSED.join('\n'),
    );
    expect(result.code).toBe(0);
    expect(verdicts(result)).toEqual(REFUSED.map(() => 'malformed'));
  });

  it('--user-agent and --timeout the library refuses are usage errors before any line is read', async () => {
    const agent = await run(['filter', '--agent', 'ExampleBot', '--fetch', '--user-agent', 'a\u0001b'], 'http://198.51.100.7/\n');
    expect(agent.code).toBe(2);
    expect(agent.stderr).toMatch(/^robotstxt: --user-agent: Invalid userAgent/);
    const timeout = await run(['filter', '--agent', 'ExampleBot', '--fetch', '--timeout', '9999999999999'], 'http://198.51.100.7/\n');
    expect(timeout.code).toBe(2);
    expect(timeout.stderr).toMatch(/^robotstxt: --timeout: timeoutMs must be a number of milliseconds/);
    expect(`${agent.stderr}${timeout.stderr}`).not.toMatch(/\n\s+at /);
  });
});

/** A server on `port` of 127.0.0.1 whose /robots.txt `route` answers; undefined when the port is taken. */
function listenOn(port: number, route: (request: IncomingMessage, response: ServerResponse) => void): Promise<Server | undefined> {
  return new Promise((resolve) => {
    const server = createServer((request, response) => {
      if (request.url === '/robots.txt') route(request, response);
      else response.writeHead(404).end();
    });
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      ownServers.push(server);
      resolve(server);
    });
  });
}

describe('--save-dir keeps each host’s own body', () => {
  it('a host whose origin is a prefix of another’s (127.0.0.1:P and 127.0.0.1:P7) does not drop the other’s body', async () => {
    // The slow site sends its headers, then waits for the third host's request, which the fast site's fetch
    // (over by then: its worker takes the next host) comes to; the fast site answers once the slow one began.
    let slowStarted!: () => void;
    const slowBegun = new Promise<void>((resolve) => (slowStarted = resolve));
    let thirdAsked!: () => void;
    const thirdBegun = new Promise<void>((resolve) => (thirdAsked = resolve));
    const slowBody = 'User-agent: *\nDisallow: /slow\n';
    let fast: number | undefined;
    let slow: number | undefined;
    while (slow === undefined) {
      const port = 1024 + Math.floor(Math.random() * 5500);
      if ((await listenOn(port, (_request, response) => void answerFast(response))) === undefined) continue;
      const longer = port * 10 + 7;
      const server = await listenOn(longer, (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write(slowBody.slice(0, 14));
        slowStarted();
        void thirdBegun.then(() => response.end(slowBody.slice(14)));
      });
      if (server === undefined) continue;
      fast = port;
      slow = longer;
    }
    async function answerFast(response: ServerResponse): Promise<void> {
      await slowBegun;
      // Time for the slow site's headers to reach the command before this one's do.
      await new Promise((resolve) => setTimeout(resolve, 200));
      response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /fast\n');
    }
    const third = await startServer({
      '/robots.txt': (request, response) => {
        thirdAsked();
        text(RULES)(request, response);
      },
    });
    const saved = join(work, 'prefix-saved');
    const input = [
      `http://127.0.0.1:${slow}/slow/x`,
      `http://127.0.0.1:${fast}/fast/x`,
      `${third.origin}/private`,
      `http://127.0.0.1:${slow}/ok`,
    ];
    const result = await runOnTestNetwork(
      [...FETCH, '--concurrency', '2', '--workers', '1', '--save-dir', saved],
      {},
      `${input.join('\n')}\n`,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split('\n').slice(0, -1)).toEqual([
      `1\t${input[0]}\tdisallowed\trule\tdisallow\t/slow\t2\t`,
      `2\t${input[1]}\tdisallowed\trule\tdisallow\t/fast\t2\t`,
      `3\t${input[2]}\tdisallowed\trule\tdisallow\t/private\t2\t`,
      `4\t${input[3]}\tallowed\trule\t\t\t\t`,
    ]);
    expect(readFileSync(join(saved, `127.0.0.1_${slow}`), 'utf8')).toBe(slowBody);
    expect(result.stderr).toMatch(/^saved: 3, symbolic links replaced: 0, could not be saved: 0$/m);
  });
});

describe('saved files are safe', () => {
  it('names every host so that a file system takes it (a 251-character host, a reserved name, `*`), and the folder replays', async () => {
    const site = await startServer({ '/robots.txt': text(RULES) });
    const long = ['a', 'b', 'c', 'd'].map((letter) => letter.repeat(62)).join('.');
    const dns = { [long]: ['127.0.0.1'], 'nul.example': ['127.0.0.1'], 'a*b.example': ['127.0.0.1'] };
    const hosts = [long, 'nul.example', 'a*b.example'];
    const input = hosts.flatMap((host) => [`http://${host}:${site.port}/private/x`, `http://${host}:${site.port}/open`]).join('\n');
    const saved = join(work, 'names-saved');
    const result = await runOnTestNetwork([...FETCH, '--save-dir', saved], dns, `${input}\n`);
    expect(result.code, result.stderr).toBe(0);
    expect(verdicts(result)).toEqual(hosts.flatMap(() => ['disallowed', 'allowed']));
    // As the README's folder layout says: past 200 bytes, the first 182, `%%` and 16 hex digits of the key's SHA-256.
    const longKey = `${long}_${site.port}`;
    const hashed = `${longKey.slice(0, 182)}%%${createHash('sha256').update(longKey).digest('hex').slice(0, 16)}`;
    const files = [hashed, `%6eul.example_${site.port}`, `a%2ab.example_${site.port}`];
    // Each beside its fetch record, whose name (`%o`) no host's file can take.
    expect(readdirSync(saved).sort()).toEqual([...files, ...files.map((name) => `${name}%outcome.json`)].sort());
    for (const name of files) expect(readFileSync(join(saved, name), 'utf8')).toBe(RULES);
    const replay = await run(
      [
        'filter',
        '--agent',
        'ExampleBot',
        '--robots-dir',
        saved,
        '--missing',
        'disallow',
        '--emit',
        'all',
        '--format',
        'tsv',
        '--no-header',
        '-q',
      ],
      input,
    );
    expect(replay.stdout).toBe(result.stdout);
  });

  it('replaces a symbolic link planted at a host’s name instead of writing through it, and says so', async () => {
    const site = await startServer({ '/robots.txt': text(RULES) });
    const saved = folder('link-saved');
    const victim = join(work, 'victim.txt');
    writeFileSync(victim, 'not yours\n');
    symlinkSync(victim, join(saved, `127.0.0.1_${site.port}`));
    const result = await runOnTestNetwork([...FETCH, '--save-dir', saved], {}, `${site.origin}/private\n`);
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('not yours\n');
    const file = join(saved, `127.0.0.1_${site.port}`);
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe(RULES);
    expect(readdirSync(saved).sort()).toEqual([`127.0.0.1_${site.port}`, `127.0.0.1_${site.port}%outcome.json`]);
    expect(result.stderr).toContain(`robotstxt: note: ${file} was a symbolic link: replaced by 127.0.0.1_${site.port}'s robots.txt`);
    expect(result.stderr).toMatch(/^saved: 1, symbolic links replaced: 1, could not be saved: 0$/m);
  });

  it('a --save-dir folder that cannot be made is a usage error, before any worker starts', async () => {
    writeFileSync(join(work, 'a-file'), '');
    const result = await run([...FETCH, '--save-dir', join(work, 'a-file', 'saved'), '--workers', '2'], 'http://198.51.100.7/\n');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`robotstxt: --save-dir ${join(work, 'a-file', 'saved')}: the folder cannot be made (ENOTDIR)\n`);
  });

  it('a file that cannot be saved is said in one line and counted, and the run goes on', async () => {
    const blocked = await startServer({ '/robots.txt': text(RULES) });
    const other = await startServer({ '/robots.txt': text('User-agent: *\nDisallow: /\n') });
    const saved = folder('blocked-saved');
    // A folder where the host's file would go: nothing can be renamed over it.
    mkdirSync(join(saved, `127.0.0.1_${blocked.port}`));
    writeFileSync(join(saved, `127.0.0.1_${blocked.port}`, 'keep'), '');
    const input = [`${blocked.origin}/private`, `${blocked.origin}/open`, `${other.origin}/x`].join('\n');
    const result = await runOnTestNetwork([...FETCH, '--save-dir', saved, '--workers', '1'], {}, `${input}\n`);
    expect(result.code, result.stderr).toBe(0);
    expect(verdicts(result)).toEqual(['disallowed', 'allowed', 'disallowed']);
    const notes = result.stderr.split('\n').filter((line) => line.startsWith('robotstxt: '));
    expect(notes).toEqual([
      expect.stringMatching(
        new RegExp(`^robotstxt: note: 127\\.0\\.0\\.1_${blocked.port}'s robots\\.txt could not be saved in .* \\(E[A-Z]+\\)$`),
      ),
    ]);
    expect(result.stderr).toMatch(/^saved: 1, symbolic links replaced: 0, could not be saved: 1$/m);
    expect(readFileSync(join(saved, `127.0.0.1_${other.port}`), 'utf8')).toBe('User-agent: *\nDisallow: /\n');
    // The host whose file could not be saved has no record either: a record is only ever beside its file.
    expect(readdirSync(saved).sort()).toEqual(
      [`127.0.0.1_${blocked.port}`, `127.0.0.1_${other.port}`, `127.0.0.1_${other.port}%outcome.json`].sort(),
    );
  });
});

describe('annotated output carries no control byte', () => {
  const robots = folder('controls', {
    'example.com': 'User-agent: *\nDisallow: /a\tb\nDisallow: /e\u001b[31m\nDisallow: /back\\slash\nDisallow: /del\u007f\n',
  });
  const SOURCE = ['filter', '--agent', 'ExampleBot', '--robots-dir', robots, '--emit', 'all', '-q'];
  const lines = [
    'https://example.com/a\tb/x',
    'https://example.com/e\u001b[31m/x',
    'https://example.com/back\\slash',
    'https://example.com/del\u007f',
    'https://example.com/ok\u0001\r',
  ];

  it('--format tsv escapes TAB, CR, LF, ESC, other C0 bytes, DEL, C1 controls and the backslash in the URL and the rule', async () => {
    const result = await run([...SOURCE, '--format', 'tsv', '--no-header'], `${[...lines, 'https://example.com/c1\u009b2J'].join('\n')}\n`);
    expect(result.stdout.split('\n')).toEqual([
      '1\thttps://example.com/a\\tb/x\tdisallowed\trule\tdisallow\t/a\\tb\t2\t',
      '2\thttps://example.com/e\\x1b[31m/x\tdisallowed\trule\tdisallow\t/e\\x1b[31m\t3\t',
      '3\thttps://example.com/back\\\\slash\tdisallowed\trule\tdisallow\t/back\\\\slash\t4\t',
      '4\thttps://example.com/del\\x7f\tdisallowed\trule\tdisallow\t/del\\x7f\t5\t',
      '5\thttps://example.com/ok\\x01\tallowed\trule\t\t\t\t',
      '6\thttps://example.com/c1\\xc2\\x9b2J\tallowed\trule\t\t\t\t',
      '',
    ]);
    expect(result.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it('with fields (--field N), the record keeps the whole line, escaped; jsonl carries the exact text; plain output is the input', async () => {
    const fields = await run([...SOURCE, '--format', 'tsv', '--no-header', '--field', '2'], `id\t${lines[1]}\tz\n`);
    expect(fields.stdout).toBe(
      '1\thttps://example.com/e\\x1b[31m/x\tdisallowed\trule\tdisallow\t/e\\x1b[31m\t3\tid\\thttps://example.com/e\\x1b[31m/x\\tz\n',
    );
    const jsonl = await run([...SOURCE, '--format', 'jsonl'], `${lines[1]}\n`);
    expect(JSON.parse(jsonl.stdout)).toEqual({
      n: 1,
      url: lines[1],
      verdict: 'disallowed',
      reason: 'rule',
      rule: { kind: 'disallow', pattern: '/e\u001b[31m', line: 3 },
      text: null,
    });
    expect(jsonl.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    const plain = await run(SOURCE, `${lines.join('\n')}\n`);
    expect(plain.stdout).toBe(`${lines.join('\n')}\n`);
  });
});

describe('a URL’s host is read as the URL parser reads it', () => {
  // fetch() of each of these asks example.com (or xn--bcher-kva.de) for /private, which its file disallows.
  const URLS = ['http://example.com./private', 'http://%65xample.com/private', 'HTTP://EXAMPLE.COM:80/private', 'http://bücher.de/private'];

  it('--robots-dir finds the host’s file for a trailing dot, a percent escape, upper case and an international name', async () => {
    const dir = folder('parsed', { 'example.com': RULES, 'xn--bcher-kva.de': RULES });
    const result = await run(['filter', '--agent', 'ExampleBot', '--robots-dir', dir, '--emit', 'all'], URLS.join('\n'));
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^lines: 4\nallowed: 0\ndisallowed: 4\nmalformed: 0\nhosts: 2, without robots.txt: 0$/m);
    const annotated = await run(
      ['filter', '--agent', 'ExampleBot', '--robots-dir', dir, '--emit', 'all', '--format', 'tsv', '--no-header', '-q'],
      URLS.join('\n'),
    );
    expect(verdicts(annotated)).toEqual(['disallowed', 'disallowed', 'disallowed', 'disallowed']);
  });

  it('--fetch asks the one host those spellings name, once, and saves it under the name --robots-dir reads', async () => {
    const site = await startServer({ '/robots.txt': text(RULES) });
    const input = ['http://example.com.', 'http://%65xample.com', 'HTTP://EXAMPLE.COM'].map((origin) => `${origin}:${site.port}/private`);
    const saved = join(work, 'parsed-saved');
    const result = await runOnTestNetwork([...FETCH, '--save-dir', saved], { 'example.com': ['127.0.0.1'] }, input.join('\n'));
    expect(result.code, result.stderr).toBe(0);
    expect(verdicts(result)).toEqual(['disallowed', 'disallowed', 'disallowed']);
    expect(site.count()).toBe(1);
    expect(site.requests[0]?.headers.host).toBe(`example.com:${site.port}`);
    expect(readdirSync(saved).sort()).toEqual([`example.com_${site.port}`, `example.com_${site.port}%outcome.json`]);
  });
});
