/**
 * The library inside the real Cloudflare Workers runtime (issue 9): workerd, driven through miniflare from
 * this Node test, offline, with the package's built files as a Worker's modules (the `.wasm` one as a
 * compiled module, as Workers bundlers hand it over). Workers refuse to compile WebAssembly from bytes, run
 * each request in a context of its own, and (before compatibility date 2025-05-05) have no
 * FinalizationRegistry: each is covered here, and so is the example gate (examples/worker/) exactly as
 * `wrangler deploy --dry-run` bundles it.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Miniflare, type MiniflareOptions } from 'miniflare';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeServers, startServer, text, type TestServer } from './support/http-server.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MODULE_RULES: MiniflareOptions['modulesRules'] = [
  { type: 'CompiledWasm', include: ['**/*.wasm'] },
  { type: 'ESModule', include: ['**/*.js'] },
];
/** On or after 2025-05-05, Workers have FinalizationRegistry and WeakRef. */
const CURRENT_DATE = '2025-06-01';

const running: Miniflare[] = [];

async function worker(scriptPath: string, options: { compatibilityDate?: string; modulesRoot?: string; bindings?: Record<string, string> } = {}): Promise<Miniflare> {
  const miniflare = new Miniflare({
    modules: true,
    scriptPath,
    modulesRoot: options.modulesRoot ?? ROOT,
    modulesRules: MODULE_RULES,
    compatibilityDate: options.compatibilityDate ?? CURRENT_DATE,
    bindings: options.bindings ?? {},
  });
  running.push(miniflare);
  await miniflare.ready;
  return miniflare;
}

async function json(miniflare: Miniflare, path: string, init?: RequestInit): Promise<Record<string, unknown>> {
  const response = await miniflare.dispatchFetch(`http://worker.test${path}`, init as never);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

afterEach(closeServers);
afterAll(async () => {
  await Promise.all(running.map((miniflare) => miniflare.dispose()));
});

describe('the Workers entry, inside workerd', () => {
  const expected = {
    allowed: [false, true, true],
    explain: { allowed: false, line: 6, rule: { kind: 'disallow', pattern: '/search' } },
    batch: [true, false, true, true],
    urlObject: false,
  };

  it('parses, checks, explains and answers batches with the WebAssembly matcher', async () => {
    const answer = await json(await worker('test/workers/api.js'), '/');
    expect(answer).toMatchObject({ ...expected, matcher: { kind: 'wasm' }, finalizationRegistry: 'function' });
    expect(answer.bytesAfterDispose as number).toBeLessThan(answer.bytesInUse as number);
  });

  it('works the same where the runtime has no FinalizationRegistry (compatibility dates before 2025-05-05)', async () => {
    const answer = await json(await worker('test/workers/api.js', { compatibilityDate: '2024-09-01' }), '/');
    expect(answer).toMatchObject({ ...expected, matcher: { kind: 'wasm' }, finalizationRegistry: 'undefined' });
  });

  it("runs robots-parser's drop-in from its own Workers entry, with the WebAssembly matcher", async () => {
    const answer = await json(await worker('test/workers/robots-parser.js'), '/');
    expect(answer).toEqual({
      allowed: [false, true, true],
      line: 2,
      crawlDelay: 2,
      sitemaps: ['https://example.com/map.xml'],
      matcher: 'wasm',
    });
  });

  it('the inline entry, which Workers cannot run, still answers and says why it is slower, once', async () => {
    const fallback = await worker('test/workers/fallback.js');
    const first = await json(fallback, '/');
    const second = await json(fallback, '/');
    expect(first.allowed).toEqual([false, true]);
    expect(first.kind).toBe('typescript');
    expect(first.reason).toMatch(/could not load: CompileError: .*disallowed by embedder/);
    expect(second.warnings).toHaveLength(1);
    expect((second.warnings as string[])[0]).toMatch(/disallowed by embedder.*"workerd" export condition/s);
  });
});

describe("the README's Worker", () => {
  const MARKER = '// not run: a Worker module, run inside workerd by test/workers.test.ts';

  it('runs in workerd as written, answering for a site served on 127.0.0.1', async () => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const block = /```js\n([\s\S]*?)```/g;
    const source = [...readme.matchAll(block)].map((match) => match[1] as string).find((code) => code.startsWith(MARKER));
    expect(source, 'the README has a Worker example').toBeDefined();
    // test/.examples/ (git-ignored) holds the examples the doc tests run; the package is imported by its path here.
    await mkdir(join(ROOT, 'test/.examples'), { recursive: true });
    const path = 'test/.examples/readme-worker.js';
    await writeFile(join(ROOT, path), (source as string).replace("from 'robotstxt-wasm'", "from '../../dist/worker.js'"));
    const site = await startServer({ '/robots.txt': text('User-agent: *\nDisallow: /private/\n') });
    const readmeWorker = await worker(path);
    const ask = encodeURIComponent(`${site.origin}/private/plans`);
    expect(await json(readmeWorker, `/?url=${ask}`)).toEqual({
      url: `${site.origin}/private/plans`,
      allowed: false,
      line: 2,
      rule: { kind: 'disallow', pattern: '/private/' },
    });
    expect((await readmeWorker.dispatchFetch('http://worker.test/')).status).toBe(400);
  });
});

// The Worker keeps its RobotsCache in module scope, as a crawler or a gate would: every request an isolate
// serves shares it.
describe('RobotsCache inside workerd, shared by concurrent requests', () => {
  function slowRobots(delayMs: number): (request: unknown, response: import('node:http').ServerResponse) => void {
    return (_request, response) => {
      setTimeout(() => response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n'), delayMs);
    };
  }

  it('answers two concurrent requests for one origin from one fetch, each in its own request', async () => {
    const site = await startServer({ '/robots.txt': slowRobots(300) });
    const api = await worker('test/workers/api.js');
    const target = encodeURIComponent(`${site.origin}/private/x`);
    const answers = await Promise.all([json(api, `/cache?target=${target}`), json(api, `/cache?target=${target}`)]);
    for (const answer of answers) expect(answer).toMatchObject({ allowed: false, line: 2, from: 'network', matcher: { kind: 'wasm' } });
    expect(site.count()).toBe(1);
    // Later requests are answered from the cache.
    expect(await json(api, `/cache?target=${target}`)).toMatchObject({ allowed: false, from: 'cache' });
    expect(site.count()).toBe(1);
  });

  it('answers many concurrent requests, for several origins, each once', async () => {
    const sites = await Promise.all([0, 1, 2].map(() => startServer({ '/robots.txt': slowRobots(200) })));
    const api = await worker('test/workers/api.js');
    const asks = sites.flatMap((server) =>
      ['/private/a', '/b', '/private/c', '/d'].map((path) => json(api, `/cache?target=${encodeURIComponent(server.origin + path)}`)),
    );
    const answers = await Promise.all(asks);
    expect(answers.map((answer) => answer.allowed)).toEqual([false, true, false, true, false, true, false, true, false, true, false, true]);
    for (const server of sites) expect(server.count()).toBe(1);
  });

  it('a fetch whose request ended first is not waited for forever: the next caller fetches', async () => {
    // The first request for robots.txt hangs; later ones are answered at once.
    let requests = 0;
    const site = await startServer({
      '/robots.txt': (request, response) => {
        requests++;
        if (requests === 1) return;
        text('User-agent: *\nDisallow: /private/\n')(request, response);
      },
    });
    const api = await worker('test/workers/api.js');
    const target = encodeURIComponent(`${site.origin}/private/x`);
    expect(await json(api, `/cache?timeout=400&detach&target=${target}`)).toEqual({ started: true });
    const answer = await json(api, `/cache?timeout=400&target=${target}`);
    expect(answer).toMatchObject({ allowed: false, line: 2 });
    expect(requests).toBe(2);
  });
});

describe('the example gate (examples/worker), as wrangler bundles it', () => {
  let outdir: string;
  let bundle: string[];

  beforeAll(async () => {
    outdir = await mkdtemp(join(tmpdir(), 'robots-gate-'));
    const config = await mkdtemp(join(tmpdir(), 'wrangler-config-'));
    await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'node_modules/wrangler/bin/wrangler.js'), 'deploy', '--dry-run', '--outdir', outdir, '--config', join(ROOT, 'examples/worker/wrangler.toml')],
      // Offline: no metrics, no update check, and wrangler's own files in a directory of the test's.
      { cwd: ROOT, env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_HIDE_BANNER: 'true', XDG_CONFIG_HOME: config, CI: 'true' } },
    );
    bundle = await readdir(outdir);
    await rm(config, { recursive: true, force: true });
  }, 120_000);

  afterAll(async () => {
    await rm(outdir, { recursive: true, force: true });
  });

  it('keeps the matcher a WebAssembly module of its own, imported by the Worker, and imports nothing from node:', async () => {
    const wasm = bundle.filter((file) => file.endsWith('.wasm'));
    expect(wasm).toHaveLength(1);
    const script = await readFile(join(outdir, 'index.js'), 'utf8');
    expect(script).toContain(`from "./${wasm[0]}"`);
    expect(script).not.toMatch(/["']node:/);
  });

  async function gate(site: TestServer): Promise<Miniflare> {
    return worker(join(outdir, 'index.js'), {
      modulesRoot: outdir,
      bindings: { ORIGIN: site.origin, EXEMPT_AGENTS: 'FriendlyBot, OtherBot', BLOCK_MESSAGE: 'Not for crawlers.' },
    });
  }

  const CRAWLER = 'Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)';
  const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

  it('passes allowed paths, browsers, exempt crawlers and robots.txt through; answers a disallowed path with 403 and its rule', async () => {
    const robots = 'User-agent: *\nDisallow: /private/\n\nUser-agent: ExampleBot\nDisallow: /drafts/\nDisallow: /private/\n';
    const site = await startServer({
      '/robots.txt': text(robots),
      '/public': text('public page'),
      '/private/x': text('private page'),
      '/drafts/y': text('draft page'),
    });
    const door = await gate(site);
    const ask = async (path: string, userAgent: string): Promise<{ status: number; body: string }> => {
      const response = await door.dispatchFetch(`http://gate.test${path}`, { headers: { 'user-agent': userAgent } });
      return { status: response.status, body: await response.text() };
    };
    expect(await ask('/public', CRAWLER)).toEqual({ status: 200, body: 'public page' });
    const blocked = await ask('/private/x', CRAWLER);
    expect(blocked.status).toBe(403);
    expect(blocked.body).toBe(`Not for crawlers.\n\nCrawler: ExampleBot\nRule: disallow: /private/ (line 6 of ${site.origin}/robots.txt)\n`);
    expect((await ask('/drafts/y', CRAWLER)).status).toBe(403);
    // A crawler no group names gets the * rules.
    expect((await ask('/drafts/y', 'UnknownBot/1.0')).status).toBe(200);
    expect((await ask('/private/x', 'UnknownBot/1.0')).status).toBe(403);
    expect(await ask('/private/x', BROWSER)).toEqual({ status: 200, body: 'private page' });
    expect(await ask('/private/x', 'FriendlyBot/3.0')).toEqual({ status: 200, body: 'private page' });
    expect((await ask('/robots.txt', CRAWLER)).body).toBe(robots);
    // The gate fetched robots.txt once (the robots.txt request above was passed through, not fetched by it).
    expect(site.requests.filter((request) => request.path === '/robots.txt' && request.headers['user-agent'] === 'RobotsGate/1.0')).toHaveLength(1);
    // Blocked requests never reached the site.
    expect(site.count('/private/x')).toBe(2);
    expect(site.count('/drafts/y')).toBe(1);
  });
});
