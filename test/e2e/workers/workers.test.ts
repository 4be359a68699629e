/**
 * The library inside the real Cloudflare Workers runtime (docs/design.md#platforms): workerd, driven through miniflare from
 * this Node test, offline, with the package's built files as a Worker's modules (the `.wasm` one as a
 * compiled module, as Workers bundlers hand it over). Workers refuse to compile WebAssembly from bytes, run
 * each request in a context of its own, and (before compatibility date 2025-05-05) have no
 * FinalizationRegistry: each is covered here, and so is the example gate (examples/worker/) exactly as
 * `wrangler deploy --dry-run` bundles it: every request it makes goes through a recorder that sends those
 * for the site on 127.0.0.1 and refuses any other, so no test sends a packet beyond the loopback.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import fc from 'fast-check';
import {
  Miniflare,
  fetch as miniflareFetch,
  Response as MiniflareResponse,
  type MiniflareOptions,
  type Request as MiniflareRequest,
  type WorkerOptions,
} from 'miniflare';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { recordKey } from '../../../src/cache/shared-record.js';
import { closeServers, redirect, startServer, text, type TestServer } from '../../support/http-server.js';
import { GATE_PATHS, GATE_ROBOTS, gateVerdict, vocabularyHeader } from '../../support/user-agent-oracle.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const MODULE_RULES: MiniflareOptions['modulesRules'] = [
  { type: 'CompiledWasm', include: ['**/*.wasm'] },
  { type: 'ESModule', include: ['**/*.js'] },
];
/** On or after 2025-05-05, Workers have FinalizationRegistry and WeakRef. */
const CURRENT_DATE = '2025-06-01';

const running: Miniflare[] = [];

interface WorkerSetup {
  compatibilityDate?: string;
  modulesRoot?: string;
  bindings?: Record<string, string | boolean>;
  outboundService?: WorkerOptions['outboundService'];
}

async function worker(scriptPath: string, options: WorkerSetup = {}): Promise<Miniflare> {
  const miniflare = new Miniflare({
    modules: true,
    scriptPath,
    modulesRoot: options.modulesRoot ?? ROOT,
    modulesRules: MODULE_RULES,
    compatibilityDate: options.compatibilityDate ?? CURRENT_DATE,
    bindings: options.bindings ?? {},
    ...(options.outboundService === undefined ? {} : { outboundService: options.outboundService }),
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

/** Every request a Worker sent out, and those the recorder refused (any other origin than the sites'). */
interface Outbound {
  readonly sent: string[];
  readonly refused: string[];
}

/**
 * A Worker's outbound service: requests for the sites are sent to them (on 127.0.0.1) as they are, redirects
 * not followed; any other is recorded and refused here, never sent.
 */
function recorder(sites: readonly TestServer[], outbound: Outbound): (request: MiniflareRequest) => Promise<MiniflareResponse> {
  return async (request) => {
    outbound.sent.push(request.url);
    if (!sites.some((site) => site.origin === new URL(request.url).origin)) {
      outbound.refused.push(request.url);
      return new MiniflareResponse('refused by the test: not the site', { status: 599 });
    }
    return miniflareFetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      duplex: 'half',
    });
  };
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
    const answer = await json(await worker('test/e2e/workers/api.js'), '/');
    expect(answer).toMatchObject({ ...expected, matcher: { kind: 'wasm' }, finalizationRegistry: 'function' });
    expect(answer.bytesAfterDispose as number).toBeLessThan(answer.bytesInUse as number);
  });

  it('works the same where the runtime has no FinalizationRegistry (compatibility dates before 2025-05-05)', async () => {
    const answer = await json(await worker('test/e2e/workers/api.js', { compatibilityDate: '2024-09-01' }), '/');
    expect(answer).toMatchObject({ ...expected, matcher: { kind: 'wasm' }, finalizationRegistry: 'undefined' });
  });

  it("runs robots-parser's drop-in from its own Workers entry, with the WebAssembly matcher", async () => {
    const answer = await json(await worker('test/e2e/workers/robots-parser.js'), '/');
    expect(answer).toEqual({
      allowed: [false, true, true],
      line: 2,
      crawlDelay: 2,
      sitemaps: ['https://example.com/map.xml'],
      matcher: 'wasm',
    });
  });

  it('the inline entry, which Workers cannot run, still answers and says why it is slower, once', async () => {
    const fallback = await worker('test/e2e/workers/fallback.js');
    const first = await json(fallback, '/');
    const second = await json(fallback, '/');
    expect(first.allowed).toEqual([false, true]);
    expect(first.kind).toBe('typescript');
    expect(first.reason).toMatch(/could not load: CompileError: .*disallowed by embedder/);
    expect(second.warnings).toHaveLength(1);
    expect((second.warnings as string[])[0]).toMatch(/disallowed by embedder.*"workerd" export condition/s);
  });
});

/**
 * The Worker module of docs/workers.md marked `<!-- run by workers.test.ts: <marker> -->`, written to test/.examples/<name>.js (git-ignored,
 * where the doc tests write the examples they run) with the package's entries imported by their paths in
 * dist/, as the `workerd` condition picks them. Returns its path from the root.
 */
async function readmeWorkerModule(marker: string, name: string): Promise<string> {
  const guide = await readFile(join(ROOT, 'docs', 'workers.md'), 'utf8');
  const block = /<!-- run by workers\.test\.ts: (.*?) -->\n\n```js\n([\s\S]*?)```/g;
  const source = [...guide.matchAll(block)].find((match) => match[1] === marker)?.[2];
  expect(source, `docs/workers.md has a Worker example marked ${marker}`).toBeDefined();
  await mkdir(join(ROOT, 'test/.examples'), { recursive: true });
  const path = `test/.examples/${name}.js`;
  const imported = (source as string)
    .replace("from 'robotstxt-wasm'", "from '../../dist/worker.js'")
    .replace("from 'robotstxt-wasm/cache-api'", "from '../../dist/cache-api.js'");
  await writeFile(join(ROOT, path), imported);
  return path;
}

describe("docs/workers.md's Worker", () => {
  it('runs in workerd as written, answering for a site served on 127.0.0.1', async () => {
    const path = await readmeWorkerModule('a Worker module, run inside workerd', 'readme-worker');
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
    const api = await worker('test/e2e/workers/api.js');
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
    const api = await worker('test/e2e/workers/api.js');
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
    const api = await worker('test/e2e/workers/api.js');
    const target = encodeURIComponent(`${site.origin}/private/x`);
    expect(await json(api, `/cache?timeout=400&detach&target=${target}`)).toEqual({ started: true });
    const answer = await json(api, `/cache?timeout=400&target=${target}`);
    expect(answer).toMatchObject({ allowed: false, line: 2 });
    expect(requests).toBe(2);
  });
});

/**
 * cacheApiStore (`robotstxt-wasm/cache-api`) with workerd's own Cache API. Each Worker of one Miniflare is an
 * isolate of its own, and they share its caches as the isolates of a data centre do.
 */
describe('RobotsCache over the Cache API, shared by the isolates of a data centre', () => {
  const ROBOTS = 'User-agent: *\nDisallow: /private/\n';

  interface Isolates {
    /** One isolate's answer to `path`, as JSON. */
    ask(isolate: string, path: string): Promise<Record<string, unknown>>;
    /** What each isolate sent out. */
    readonly outbound: Readonly<Record<string, Outbound>>;
  }

  /**
   * Isolates running `scriptPath`, each fetching through a recorder that sends only the requests for `sites`;
   * `cache: false` makes the Cache API store nothing, as on `*.workers.dev`.
   */
  async function isolates(
    sites: TestServer | readonly TestServer[],
    names: string[],
    options: { scriptPath?: string; cache?: boolean } = {},
  ): Promise<Isolates> {
    const outbound: Record<string, Outbound> = {};
    const workers: WorkerOptions[] = names.map((name) => {
      outbound[name] = { sent: [], refused: [] };
      return {
        name,
        modules: true,
        scriptPath: options.scriptPath ?? 'test/e2e/workers/cache-api.js',
        modulesRoot: ROOT,
        modulesRules: MODULE_RULES,
        compatibilityDate: CURRENT_DATE,
        outboundService: recorder([sites].flat(), outbound[name]),
        ...(options.cache === undefined ? {} : { cache: options.cache }),
      };
    });
    const miniflare = new Miniflare({ workers });
    running.push(miniflare);
    await miniflare.ready;
    return {
      outbound,
      async ask(isolate, path) {
        // getWorker() gives a service binding; its type comes from @cloudflare/workers-types, not installed here.
        const binding = (await miniflare.getWorker(isolate)) as unknown as { fetch(url: string): Promise<MiniflareResponse> };
        const response = await binding.fetch(`http://worker.test${path}`);
        const body = await response.text();
        expect(response.status, body).toBe(200);
        return JSON.parse(body) as Record<string, unknown>;
      },
    };
  }

  const check = (url: string, cacheName?: string): string =>
    `/check?target=${encodeURIComponent(url)}${cacheName === undefined ? '' : `&cacheName=${cacheName}`}`;

  function sentTo(outbound: Outbound, site: TestServer): number {
    expect(outbound.refused).toEqual([]);
    return outbound.sent.filter((url) => url === `${site.origin}/robots.txt`).length;
  }

  it('one isolate fetches the robots.txt; another answers from its record, without fetching', async () => {
    const site = await startServer({ '/robots.txt': text(ROBOTS) });
    const { ask, outbound } = await isolates(site, ['first', 'second']);
    expect(await ask('first', check(`${site.origin}/private/x`))).toMatchObject({ allowed: false, line: 2, from: 'network' });
    const second = await ask('second', check(`${site.origin}/private/x`));
    expect(second).toMatchObject({ allowed: false, line: 2, from: 'store', store: { hits: 1, errors: 0 } });
    expect(await ask('second', check(`${site.origin}/public`))).toMatchObject({ allowed: true, from: 'cache' });
    expect([sentTo(outbound.first as Outbound, site), sentTo(outbound.second as Outbound, site)]).toEqual([1, 0]);
    expect(site.count()).toBe(1);
  });

  it('best effort: isolates that miss at the same moment may each fetch, and every answer is right', async () => {
    const site = await startServer({
      '/robots.txt': (_request, response) => {
        setTimeout(() => response.writeHead(200, { 'content-type': 'text/plain' }).end(ROBOTS), 200);
      },
    });
    const names = ['a', 'b', 'c'];
    const { ask, outbound } = await isolates(site, names);
    const answers = await Promise.all(names.map((name) => ask(name, check(`${site.origin}/private/x`))));
    for (const answer of answers) expect(answer).toMatchObject({ allowed: false, line: 2 });
    // No lease on the Cache API: one fetch or several, never more than one per isolate.
    const fetched = names.map((name) => sentTo(outbound[name] as Outbound, site));
    for (const count of fetched) expect(count).toBeLessThanOrEqual(1);
    expect(site.count()).toBe(fetched.reduce((sum, count) => sum + count, 0));
    expect(site.count()).toBeGreaterThanOrEqual(1);
  });

  it('a value lives for its ttl: gone once its max-age has passed, while a longer one stays, for every isolate', async () => {
    const site = await startServer({});
    const { ask } = await isolates(site, ['first', 'second']);
    await ask('first', '/store/set?key=short&value=brief&ttl=1000');
    await ask('first', '/store/set?key=long&value=lasting&ttl=600000');
    expect(await ask('second', '/store/get?key=short')).toEqual({ value: 'brief' });
    let short: unknown = 'brief';
    for (let look = 0; look < 40 && short !== null; look++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      short = (await ask('second', '/store/get?key=short')).value;
    }
    expect(short).toBeNull();
    expect(await ask('second', '/store/get?key=long')).toEqual({ value: 'lasting' });
    expect(await ask('first', '/store/get?key=long')).toEqual({ value: 'lasting' });
  });

  it('a value under the record key that is no record is ignored, counted, and replaced by the fetch', async () => {
    const site = await startServer({ '/robots.txt': text(ROBOTS) });
    const { ask } = await isolates(site, ['first', 'second']);
    const key = encodeURIComponent(recordKey(site.origin));
    await ask('first', `/store/set?key=${key}&value=${encodeURIComponent('{"format":1}\nnot a record')}&ttl=600000`);
    const first = await ask('first', check(`${site.origin}/private/x`));
    expect(first).toMatchObject({ allowed: false, from: 'network', store: { invalid: 1, misses: 1, writes: 1 } });
    expect(await ask('second', check(`${site.origin}/private/x`))).toMatchObject({ allowed: false, from: 'store', store: { invalid: 0 } });
    expect(site.count()).toBe(1);
  });

  it('a named cache (caches.open) is shared by the isolates that name it, and is not caches.default', async () => {
    const site = await startServer({ '/robots.txt': text(ROBOTS) });
    const other = await startServer({ '/robots.txt': text('User-agent: *\nDisallow: /\nAllow: /open\n') });
    const { ask } = await isolates([site, other], ['first', 'second', 'third']);
    expect(await ask('first', check(`${site.origin}/private/x`, 'robots'))).toMatchObject({ from: 'network' });
    expect(await ask('second', check(`${site.origin}/private/x`, 'robots'))).toMatchObject({ allowed: false, from: 'store' });
    expect(await ask('second', check(`${site.origin}/public`, 'robots'))).toMatchObject({ allowed: true, from: 'cache' });
    expect(await ask('third', check(`${site.origin}/private/x`))).toMatchObject({ allowed: false, from: 'network' });
    expect(site.count()).toBe(2);
    // The cache each isolate opened in an earlier request serves its later ones.
    expect(await ask('first', check(`${other.origin}/x`, 'robots'))).toMatchObject({ allowed: false, line: 2, from: 'network' });
    expect(await ask('second', check(`${other.origin}/x`, 'robots'))).toMatchObject({
      allowed: false,
      from: 'store',
      store: { errors: 0 },
    });
    expect(other.count()).toBe(1);
  });

  it('where the Cache API stores nothing (*.workers.dev), each isolate fetches for itself and answers', async () => {
    const site = await startServer({ '/robots.txt': text(ROBOTS) });
    const { ask } = await isolates(site, ['first', 'second'], { cache: false });
    for (const name of ['first', 'second'])
      expect(await ask(name, check(`${site.origin}/private/x`))).toMatchObject({
        allowed: false,
        from: 'network',
        store: { hits: 0, misses: 1, errors: 0 },
      });
    expect(site.count()).toBe(2);
  });

  it("docs/workers.md's Worker runs in workerd as written: its second isolate answers from the first one's fetch", async () => {
    const path = await readmeWorkerModule(
      'a Worker module sharing fetched files through the Cache API, run inside workerd',
      'readme-cache-api-worker',
    );
    const site = await startServer({ '/robots.txt': text(ROBOTS) });
    const { ask, outbound } = await isolates(site, ['first', 'second'], { scriptPath: path });
    const url = `${site.origin}/private/plans`;
    expect(await ask('first', `/?url=${encodeURIComponent(url)}`)).toEqual({ url, allowed: false, from: 'network' });
    expect(await ask('second', `/?url=${encodeURIComponent(url)}`)).toEqual({ url, allowed: false, from: 'store' });
    expect(sentTo(outbound.second as Outbound, site)).toBe(0);
    expect(site.count()).toBe(1);
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
      [
        join(ROOT, 'node_modules/wrangler/bin/wrangler.js'),
        'deploy',
        '--dry-run',
        '--outdir',
        outdir,
        '--config',
        join(ROOT, 'examples/worker/wrangler.toml'),
      ],
      // Offline: no metrics, no update check, and wrangler's own files in a directory of the test's.
      {
        cwd: ROOT,
        env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_HIDE_BANNER: 'true', XDG_CONFIG_HOME: config, CI: 'true' },
      },
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
    // In the code, not in comments: the bundle keeps the declarations' JSDoc, whose examples import node:http.
    const code = script
      .split('\n')
      .filter((line) => !/^\s*(?:\*|\/\/|\/\*)/.test(line))
      .join('\n');
    expect(code).not.toMatch(/["']node:/);
  });

  interface Gate {
    readonly door: Miniflare;
    readonly outbound: Outbound;
  }

  /** The gate in workerd, every fetch() it makes going through a recorder. */
  async function gate(site: TestServer, bindings: Record<string, string | boolean> = {}): Promise<Gate> {
    const outbound: Outbound = { sent: [], refused: [] };
    const record = recorder([site], outbound);
    const door = await worker(join(outdir, 'index.js'), {
      modulesRoot: outdir,
      bindings: { ORIGIN: site.origin, EXEMPT_AGENTS: 'FriendlyBot, OtherBot', BLOCK_MESSAGE: 'Not for crawlers.', ...bindings },
      outboundService: record,
    });
    return { door, outbound };
  }

  /** Nothing left for anywhere but the site. */
  function expectOnlyTheSite(outbound: Outbound, site: TestServer): void {
    expect(outbound.refused).toEqual([]);
    for (const url of outbound.sent) expect(new URL(url).origin).toBe(site.origin);
  }

  interface Answer {
    readonly status: number;
    readonly location: string | undefined;
    readonly headers: IncomingHttpHeaders;
    readonly body: string;
  }

  /**
   * One request to the gate over a socket, the request target sent byte for byte as given (`/\host`
   * stays a backslash on the wire, an absolute-form target stays absolute), to workerd on 127.0.0.1.
   */
  async function send(
    door: Miniflare,
    target: string,
    options: { method?: string; headers?: Record<string, string | string[]>; body?: string } = {},
  ): Promise<Answer> {
    const { hostname, port } = await door.ready;
    return new Promise((resolve, reject) => {
      const request = httpRequest(
        // A connection per request (agent: false): one the gate answered without reading its body is closed.
        {
          host: hostname,
          port,
          path: target,
          method: options.method ?? 'GET',
          headers: { host: 'gate.test', ...options.headers },
          agent: false,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              location: response.headers.location,
              headers: response.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(options.body);
    });
  }

  const CRAWLER = 'Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)';
  const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
  const VISITOR = { cookie: 'session=secret', authorization: 'Bearer secret' };

  it('passes allowed paths, browsers, exempt crawlers and robots.txt through; answers a disallowed path with 403 and its rule', async () => {
    const robots = 'User-agent: *\nDisallow: /private/\n\nUser-agent: ExampleBot\nDisallow: /drafts/\nDisallow: /private/\n';
    const site = await startServer({
      '/robots.txt': text(robots),
      '/public': text('public page'),
      '/private/x': text('private page'),
      '/drafts/y': text('draft page'),
    });
    const { door, outbound } = await gate(site);
    const ask = async (path: string, userAgent: string): Promise<{ status: number; body: string }> => {
      const response = await door.dispatchFetch(`http://gate.test${path}`, { headers: { 'user-agent': userAgent } });
      return { status: response.status, body: await response.text() };
    };
    expect(await ask('/public', CRAWLER)).toEqual({ status: 200, body: 'public page' });
    const blocked = await ask('/private/x', CRAWLER);
    expect(blocked.status).toBe(403);
    expect(blocked.body).toBe(
      `Not for crawlers.\n\nCrawler: ExampleBot\nRule: disallow: /private/ (line 6 of ${site.origin}/robots.txt)\n`,
    );
    expect((await ask('/drafts/y', CRAWLER)).status).toBe(403);
    // A crawler no group names gets the * rules.
    expect((await ask('/drafts/y', 'UnknownBot/1.0')).status).toBe(200);
    expect((await ask('/private/x', 'UnknownBot/1.0')).status).toBe(403);
    expect(await ask('/private/x', BROWSER)).toEqual({ status: 200, body: 'private page' });
    expect(await ask('/private/x', 'FriendlyBot/3.0')).toEqual({ status: 200, body: 'private page' });
    expect((await ask('/robots.txt', CRAWLER)).body).toBe(robots);
    // The gate fetched robots.txt once (the robots.txt request above was passed through, not fetched by it).
    expect(
      site.requests.filter((request) => request.path === '/robots.txt' && request.headers['user-agent'] === 'RobotsGate/1.0'),
    ).toHaveLength(1);
    // Blocked requests never reached the site.
    expect(site.count('/private/x')).toBe(2);
    expect(site.count('/drafts/y')).toBe(1);
    expectOnlyTheSite(outbound, site);
  });

  describe('every request goes to ORIGIN, whatever the path says (no open proxy)', () => {
    // Paths that resolved against ORIGIN name another host: scheme-relative, with backslashes (which the URL
    // parser reads as slashes), encoded, after dot segments, with credentials, and another port of 127.0.0.1.
    const hostile = (port: number): string[] => [
      '//attacker.example/steal',
      '///attacker.example/steal',
      '/\\\\attacker.example/steal',
      '/\\attacker.example/steal',
      '\\\\attacker.example/steal',
      '/%2F%2Fattacker.example/steal',
      '/%5C%5Cattacker.example/steal',
      '/..//attacker.example/steal',
      '/./..//attacker.example/steal',
      '//user:pass@attacker.example/steal',
      '//attacker.example:80/robots.txt',
      `//127.0.0.1:${port}/steal`,
      `/\\127.0.0.1:${port}/steal`,
      // Absolute-form request targets (RFC 9112 §3.2.2) name a host of their own.
      'http://attacker.example/steal',
      `http://127.0.0.1:${port}//attacker.example/steal`,
    ];

    it('for browsers and crawlers alike, the site gets the request and no other host is asked', async () => {
      const attacker = await startServer({ '/steal': text('stolen') });
      const site = await startServer({ '/robots.txt': text('User-agent: *\nDisallow: /private\n') });
      const { door, outbound } = await gate(site);
      for (const target of hostile(attacker.port)) {
        for (const userAgent of [BROWSER, CRAWLER]) {
          const answer = await send(door, target, { headers: { ...VISITOR, 'user-agent': userAgent } });
          expect(answer.status, `${target} as ${userAgent}`).not.toBe(599);
        }
      }
      expectOnlyTheSite(outbound, site);
      expect(attacker.requests).toEqual([]);
      // The site got them, with the visitor's cookie: it is the one they were meant for.
      expect(site.requests.filter((request) => request.path.includes('attacker.example')).length).toBeGreaterThanOrEqual(10);
      expect(
        site.requests.filter((request) => request.path !== '/robots.txt').every((request) => request.headers.cookie === VISITOR.cookie),
      ).toBe(true);
      // The only robots.txt the gate fetched is the site's.
      expect(outbound.sent.filter((url) => new URL(url).pathname === '/robots.txt')).toEqual([`${site.origin}/robots.txt`]);
    });

    it('a Host header that names another host (with or without a trailing dot) changes nothing', async () => {
      const site = await startServer({ '/robots.txt': text('User-agent: *\nDisallow: /private\n'), '/page': text('page') });
      const { door, outbound } = await gate(site);
      for (const host of ['attacker.example', 'gate.test.', 'attacker.example.', `127.0.0.1:${site.port + 1}`]) {
        expect(await send(door, '/page', { headers: { ...VISITOR, host, 'user-agent': BROWSER } })).toMatchObject({
          status: 200,
          body: 'page',
        });
        expect((await send(door, '/private', { headers: { host, 'user-agent': CRAWLER } })).status).toBe(403);
      }
      expectOnlyTheSite(outbound, site);
    });

    it('random hostile paths never make the gate ask another host (property)', async () => {
      const site = await startServer({ '/robots.txt': text('User-agent: *\nDisallow: /private\n') });
      const { door, outbound } = await gate(site);
      const pieces = [
        '/',
        '//',
        '\\',
        '%2F',
        '%2f',
        '%5C',
        '.',
        '..',
        '%2E',
        '@',
        ':',
        '%40',
        '?',
        '#',
        ';',
        '%3B',
        'attacker.example',
        'private',
        'user:pw@',
        '80',
      ];
      const target = fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 10 }).map((parts) => `/${parts.join('')}`);
      await fc.assert(
        fc.asyncProperty(target, fc.constantFrom(BROWSER, CRAWLER), async (path, userAgent) => {
          const answer = await send(door, path, { headers: { ...VISITOR, 'user-agent': userAgent } });
          expect(answer.status, path).not.toBe(599);
          expectOnlyTheSite(outbound, site);
        }),
        { numRuns: 120 },
      );
      expect(outbound.sent.length).toBeGreaterThan(0);
    });

    it("an origin's redirect to another host goes back to the client as it is, not followed", async () => {
      const site = await startServer({
        '/robots.txt': text('User-agent: *\nDisallow: /private\n'),
        '/moved': redirect('http://attacker.example/landing', 302),
        '/elsewhere': redirect('//127.0.0.1:1/x', 301),
      });
      const { door, outbound } = await gate(site);
      for (const userAgent of [BROWSER, CRAWLER]) {
        expect(await send(door, '/moved', { headers: { ...VISITOR, 'user-agent': userAgent } })).toMatchObject({
          status: 302,
          location: 'http://attacker.example/landing',
        });
        expect(await send(door, '/elsewhere', { headers: { ...VISITOR, 'user-agent': userAgent } })).toMatchObject({
          status: 301,
          location: '//127.0.0.1:1/x',
        });
      }
      expectOnlyTheSite(outbound, site);
      expect(outbound.sent.filter((url) => url.endsWith('/moved'))).toHaveLength(2);
    });

    it('a misconfigured ORIGIN or reading switch answers 500 and says what is wrong, and nothing is asked', async () => {
      const site = await startServer({ '/robots.txt': text('User-agent: *\nDisallow: /private\n'), '/page': text('page') });
      const misconfigured: Array<[Record<string, string | boolean>, RegExp]> = [
        [{ ORIGIN: 'not a URL' }, /ORIGIN must be/],
        [{ ORIGIN: '' }, /ORIGIN must be/],
        [{ ORIGIN: `ftp://127.0.0.1:${site.port}` }, /ORIGIN must be .*http\(s\)/],
        [{ ORIGIN: `${site.origin}/app/` }, /no credentials, path, query or fragment/],
        [{ ORIGIN: `http://user:password@127.0.0.1:${site.port}` }, /no credentials/],
        [{ ORIGIN: `${site.origin}/?x=1` }, /ORIGIN must be/],
        [{ ORIGIN: `${site.origin}#top` }, /ORIGIN must be/],
        [{ MERGE_SLASHES: 'yes' }, /MERGE_SLASHES must be true or false/],
        [{ CONTENT_USAGE_HEADER: 'yes' }, /CONTENT_USAGE_HEADER must be on or off/],
        [{ CONTENT_USAGE_HEADER: 'onn' }, /CONTENT_USAGE_HEADER must be on or off/],
      ];
      for (const [bindings, message] of misconfigured) {
        const { door, outbound } = await gate(site, bindings);
        for (const userAgent of [BROWSER, CRAWLER]) {
          const answer = await send(door, '/page', { headers: { 'user-agent': userAgent } });
          expect(answer.status, JSON.stringify(bindings)).toBe(500);
          expect(answer.body).toMatch(/^The robots gate is misconfigured: /);
          expect(answer.body).toMatch(message);
          // The value itself is not echoed: it could hold credentials.
          expect(answer.body).not.toContain('password');
        }
        expect(outbound.sent).toEqual([]);
      }
      expect(site.requests).toEqual([]);
    });
  });

  describe('paths the origin may read otherwise are decided as the origin reads them', () => {
    const ROBOTS = 'User-agent: *\nDisallow: /private\n';
    const EVASIONS = [
      '//private/x',
      '///private',
      '/%2Fprivate',
      '/%2fprivate',
      '/%5Cprivate',
      '/;x/private',
      '/a;x=1/..;y/private',
      '//%2F;a/private',
      '/public/..%2Fprivate',
      '/robots.txt%2F..%2Fprivate',
      '/%2F/%2F;jsessionid=1/private/x?q=1',
    ];

    async function site(): Promise<TestServer> {
      // Every path answers 200 from the site (its own reading is not modelled here, only the gate's).
      const server = await startServer({ '/robots.txt': text(ROBOTS) });
      const served: Record<string, ReturnType<typeof text>> = {};
      for (const path of [
        ...EVASIONS,
        '/public//x',
        '/public;x',
        '/public%2Fx',
        '/public?to=//private',
        '/public?to=%2Fprivate',
        '/PRIVATE',
        '/privat',
      ])
        served[path] = text('served');
      for (const [path, route] of Object.entries(served)) server.route(path, route);
      return server;
    }

    it('each evasion gets 403 for a crawler, naming the rule and the reading that matched', async () => {
      const server = await site();
      const { door, outbound } = await gate(server);
      for (const path of EVASIONS) {
        const answer = await send(door, path, { headers: { 'user-agent': CRAWLER } });
        expect(answer.status, path).toBe(403);
        expect(answer.body, path).toContain(`Rule: disallow: /private (line 2 of ${server.origin}/robots.txt)\n`);
        expect(answer.body, path).toMatch(/\nPath as the origin may read it: \/private(\/x)?\n$/);
      }
      expect((await send(door, '//private/x', { headers: { 'user-agent': CRAWLER } })).body).toBe(
        `Not for crawlers.\n\nCrawler: ExampleBot\nRule: disallow: /private (line 2 of ${server.origin}/robots.txt)\nPath as the origin may read it: /private/x\n`,
      );
      // None reached the site; browsers get every one of them.
      expect(server.requests.map((request) => request.path)).toEqual(['/robots.txt']);
      for (const path of EVASIONS) expect((await send(door, path, { headers: { 'user-agent': BROWSER } })).status, path).toBe(200);
      expectOnlyTheSite(outbound, server);
    });

    it('allowed paths still pass: a reading refuses only what it reads as disallowed, and the query is never read', async () => {
      const server = await site();
      const { door } = await gate(server);
      for (const path of ['/public//x', '/public;x', '/public%2Fx', '/public?to=//private', '/public?to=%2Fprivate', '/privat']) {
        expect(await send(door, path, { headers: { 'user-agent': CRAWLER } }), path).toMatchObject({ status: 200, body: 'served' });
      }
    });

    it('each reading switched off lets its own evasion through, and only that one', async () => {
      const server = await site();
      // Evasions that need one reading each (dot segments resolved after it, as the URL parser does).
      const switches: Array<[string, string | boolean, string]> = [
        ['DECODE_ENCODED_SLASH', false, '/public%2F..%2Fprivate'],
        ['DROP_PATH_PARAMETERS', 'FALSE', '/public/..;x/private'],
        ['MERGE_SLASHES', 'false', '//private/x'],
      ];
      for (const [, , evasion] of switches) server.route(evasion, text('served'));
      for (const [variable, off, evasion] of switches) {
        const { door } = await gate(server, { [variable]: off });
        for (const [, , other] of switches) {
          const answer = await send(door, other, { headers: { 'user-agent': CRAWLER } });
          expect(answer.status, `${other} with ${variable}=${String(off)}`).toBe(other === evasion ? 200 : 403);
        }
      }
      // The readings build on each other: /%2Fprivate is /private only to an origin that decodes and merges.
      const { door: noMerging } = await gate(server, { MERGE_SLASHES: false });
      expect((await send(noMerging, '/%2Fprivate', { headers: { 'user-agent': CRAWLER } })).status).toBe(200);
    });

    it('paths are case-sensitive unless CASE_INSENSITIVE_PATHS: then paths and patterns are compared in lower case', async () => {
      const server = await startServer({
        '/robots.txt': text('User-agent: *\nDisallow: /private\nDisallow: /Admin/\nAllow: /Admin/Public\n'),
      });
      for (const path of ['/PRIVATE', '/Private/x', '/admin/', '/ADMIN/x', '/admin/public', '//PRIVATE', '/public'])
        server.route(path, text('served'));
      const sensitive = await gate(server);
      const insensitive = await gate(server, { CASE_INSENSITIVE_PATHS: 'true' });
      const status = async (door: Miniflare, path: string): Promise<number> =>
        (await send(door, path, { headers: { 'user-agent': CRAWLER } })).status;
      expect(await status(sensitive.door, '/PRIVATE')).toBe(200);
      expect(await status(sensitive.door, '/admin/')).toBe(200);
      for (const path of ['/PRIVATE', '/Private/x', '/admin/', '/ADMIN/x', '//PRIVATE'])
        expect(await status(insensitive.door, path), path).toBe(403);
      expect(await status(insensitive.door, '/admin/public')).toBe(200);
      expect(await status(insensitive.door, '/public')).toBe(200);
      const answer = await send(insensitive.door, '/Private/x', { headers: { 'user-agent': CRAWLER } });
      expect(answer.body).toContain('Path as the origin may read it: /private/x\n');
    });
  });

  describe('other ways around the gate', () => {
    const ROBOTS = 'User-agent: *\nDisallow: /private\n\nUser-agent: FriendlyBot\nAllow: /\n';

    async function door(): Promise<{ door: Miniflare; site: TestServer; outbound: Outbound }> {
      const site = await startServer({ '/robots.txt': text(ROBOTS), '/private': text('private page'), '/public': text('public page') });
      return { site, ...(await gate(site, { EXEMPT_AGENTS: '' })) };
    }

    it('the User-Agent header is found in any case of its name', async () => {
      const { door: gateDoor } = await door();
      for (const name of ['user-agent', 'User-Agent', 'USER-AGENT', 'uSeR-aGeNt']) {
        expect((await send(gateDoor, '/private', { headers: { [name]: CRAWLER } })).status, name).toBe(403);
      }
    });

    it('several User-Agent headers: every crawler they name is checked, and one disallowed is refused', async () => {
      const { door: gateDoor } = await door();
      const status = async (userAgents: string[]): Promise<number> =>
        (await send(gateDoor, '/private', { headers: { 'user-agent': userAgents } })).status;
      // FriendlyBot may fetch everything; ExampleBot, sent second, may not.
      expect(await status(['FriendlyBot/3.0', CRAWLER])).toBe(403);
      expect(await status([BROWSER, CRAWLER])).toBe(403);
      expect(await status(['FriendlyBot/3.0'])).toBe(200);
      // A browser's own comma, inside its parentheses, names nothing: two browser headers pass.
      expect(await status([BROWSER, BROWSER])).toBe(200);
      const refused = await send(gateDoor, '/private', { headers: { 'user-agent': ['FriendlyBot/3.0', CRAWLER] } });
      expect(refused.body).toContain('Crawler: ExampleBot\n');
    });

    it('a crawler that names a friend first is decided too: an open (, a space, a comment, a repeated line hide nothing', async () => {
      const { door: gateDoor, site } = await door();
      const answer = async (userAgent: string | string[]): Promise<Answer> =>
        send(gateDoor, '/private', { headers: { 'user-agent': userAgent } });
      const attacks: Array<string | string[]> = [
        // Joined as `FriendlyBot/3.0 (, ExampleBot/1.0`: the open ( once hid the comma, and the gate decided for FriendlyBot alone.
        ['FriendlyBot/3.0 (', 'ExampleBot/1.0'],
        ['FriendlyBot/3.0 (x', 'Mozilla/5.0 ExampleBot/1.0'],
        // A ) in the second line closing the first line's (: the comment holds the comma, so it is read word by word.
        ['FriendlyBot/3.0 (', 'ExampleBot/1.0 x)'],
        ['FriendlyBot/3.0 (\\', 'ExampleBot/1.0 x)'],
        ['FriendlyBot/3.0 )', 'ExampleBot/1.0'],
        // Two names in one line, by a space or in one comment; ExampleBot once decided on the first name only.
        'FriendlyBot/3.0 ExampleBot/1.0',
        'Mozilla/5.0 (compatible; FriendlyBot/3.0; ExampleBot/1.0)',
        'FriendlyBot/3.0 (x ExampleBot/1.0 y',
        // Three lines, the crawler last.
        ['FriendlyBot/3.0', 'FriendlyBot/3.0 (compatible', CRAWLER],
      ];
      for (const userAgent of attacks) {
        const refused = await answer(userAgent);
        expect(refused.status, JSON.stringify(userAgent)).toBe(403);
        expect(refused.body, JSON.stringify(userAgent)).toContain('Crawler: ExampleBot\n');
      }
      // FriendlyBot alone, however its header is cut or repeated, still gets the page.
      for (const userAgent of [
        'FriendlyBot/3.0 (',
        'FriendlyBot/3.0 )',
        ['FriendlyBot/3.0 (', 'FriendlyBot/3.0'],
        'Mozilla/5.0 (compatible; FriendlyBot/3.0)',
      ]) {
        expect(await answer(userAgent), JSON.stringify(userAgent)).toMatchObject({ status: 200, body: 'private page' });
      }
      expect(site.count('/private')).toBe(4);
    });

    it('a header too long or naming too many crawlers to decide for each is refused, on any path', async () => {
      const { door: gateDoor, site } = await door();
      const names = (count: number): string[] =>
        Array.from({ length: count }, (_, i) => `Bot${i.toString(26).replace(/\d/g, (d) => 'qrstuvwxyz'[Number(d)] ?? '')}`);
      const status = async (path: string, userAgent: string | string[]): Promise<Answer> =>
        send(gateDoor, path, { headers: { 'user-agent': userAgent } });
      // 32 distinct crawlers are decided one by one: none is refused /public.
      expect(new Set(names(33).map((name) => name.toLowerCase())).size).toBe(33);
      expect((await status('/public', names(32).join(' '))).status).toBe(200);
      const many = await status('/public', names(33));
      expect(many.status).toBe(403);
      expect(many.body).toBe('Not for crawlers.\n\nThis User-Agent header names more than 32 crawlers; at most 32 are read.\n');
      const long = await status('/public', `ExampleBot/1.0 ${'+'.repeat(8192)}`);
      expect(long.status).toBe(403);
      expect(long.body).toContain('This User-Agent header has 8207 characters; at most 8192 are read.\n');
      // 64 KB of distinct tokens: refused for its length, unread.
      expect((await status('/public', names(8000).join(' '))).status).toBe(403);
      expect(site.count('/public')).toBe(1);
    });

    it('answers as the strictest verdict over every name the lines hold, for random lines and paths (property)', async () => {
      const site = await startServer({ '/robots.txt': text(GATE_ROBOTS) });
      for (const path of GATE_PATHS) site.route(path, text('served'));
      const { door: gateDoor } = await gate(site, { EXEMPT_AGENTS: 'OtherBot' });
      const exempt = new Set(['otherbot']);
      // HTTP trims a field line's surrounding whitespace (RFC 9110 §5.5); a line left empty is not sent.
      const lines = fc
        .array(vocabularyHeader(12), { minLength: 1, maxLength: 3 })
        .map((parts) => parts.map((part) => part.replace(/^[ \t]+|[ \t]+$/g, '')).filter((part) => part !== ''));
      await fc.assert(
        fc.asyncProperty(lines, fc.constantFrom(...GATE_PATHS), async (userAgents, path) => {
          const verdict = gateVerdict(userAgents.join(', '), path, exempt);
          const answer = await send(gateDoor, path, { headers: userAgents.length === 0 ? {} : { 'user-agent': userAgents } });
          expect(answer.status, `${JSON.stringify(userAgents)} ${path}`).toBe(verdict === undefined ? 200 : 403);
          if (verdict !== undefined && verdict !== 'refused') expect(answer.body).toContain(`Crawler: ${verdict}\n`);
        }),
        { seed: 0x9a7e, numRuns: 60 },
      );
    });

    it('HEAD, GET and POST are decided alike', async () => {
      const { door: gateDoor, site } = await door();
      for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS']) {
        const body = method === 'POST' || method === 'PUT' ? { body: 'x=1' } : {};
        expect((await send(gateDoor, '/private', { method, headers: { 'user-agent': CRAWLER }, ...body })).status, method).toBe(403);
      }
      expect((await send(gateDoor, '/public', { method: 'HEAD', headers: { 'user-agent': CRAWLER } })).status).toBe(200);
      expect(site.requests.filter((request) => request.path === '/private')).toEqual([]);
    });

    it('a query, encoded letters, an encoded ? and dot segments do not hide the path; /robots.txt alone is exempt', async () => {
      const { door: gateDoor } = await door();
      const status = async (path: string): Promise<number> => (await send(gateDoor, path, { headers: { 'user-agent': CRAWLER } })).status;
      // spec: RFC 9309 §2.2.2, percent-encoded unreserved octets are decoded before comparison.
      for (const path of [
        '/private?x',
        '/private#x',
        '/priv%61te',
        '/%70rivate',
        '/private%3F',
        '/private%23',
        '/robots.txt/../private',
        '/robots.txt/%2e%2e/private',
        '/./private',
        '/x/../private',
      ]) {
        expect(await status(path), path).toBe(403);
      }
      expect(await status('/robots.txt')).toBe(200);
      // Not the path /robots.txt: decided like any other (the file has no rule against them).
      expect(await status('/robots.txt;x')).toBe(404);
      expect(await status('//robots.txt')).toBe(404);
    });

    it('a crawler that does not name itself is not stopped: what the gate cannot do', async () => {
      const { door: gateDoor } = await door();
      expect((await send(gateDoor, '/private', { headers: { 'user-agent': BROWSER } })).status).toBe(200);
      expect((await send(gateDoor, '/private')).status).toBe(200);
    });
  });

  /**
   * CONTENT_USAGE_HEADER: the site's usage preferences (robots.txt's Content-Usage and Content-Signal lines,
   * draft-ietf-aipref-attach-05 §3) on what the gate passes through, as the `Content-Usage` field of
   * attach-05 §2: for the crawlers the request names, combined (draft-ietf-aipref-vocab-07 §5.1), or for the
   * `*` groups when it names none.
   */
  describe('the Content-Usage header, from robots.txt', () => {
    const ROBOTS = [
      'User-agent: *',
      'Disallow: /private/',
      'Content-Usage: /articles/ train-ai=n, search=y',
      // ai-input has no Content-Usage label: it never reaches the header.
      'Content-Signal: /articles/ ai-input=no',
      'Content-Signal: /news/ search=yes, ai-train=no',
      'Content-Usage: /open/ train-ai=y',
      '',
      'User-agent: ExampleBot',
      'Disallow: /private/',
      'Content-Usage: /articles/ train-ai=y',
      '',
      'User-agent: FriendlyBot',
      'Disallow: /articles/',
      'Content-Usage: train-ai=y',
      '',
    ].join('\n');
    const PAGES = ['/articles/a', '/news/x', '/about', '/private/x', '/open/x', '//news/x', '/open/..;x/articles/a'];
    const OWN = 'train-ai=y, search=n';

    async function site(): Promise<TestServer> {
      const server = await startServer({ '/robots.txt': text(ROBOTS) });
      for (const path of PAGES) server.route(path, text('page'));
      // The origin labels this one itself.
      server.route('/articles/own', text('own page', 200, { 'content-usage': OWN }));
      return server;
    }

    /** The request's answer: its status and Content-Usage header (undefined for none). */
    async function label(
      door: Miniflare,
      path: string,
      userAgent: string | undefined,
      method = 'GET',
    ): Promise<{ status: number; usage: string | undefined }> {
      const answer = await send(door, path, { method, headers: userAgent === undefined ? {} : { 'user-agent': userAgent } });
      const usage = answer.headers['content-usage'];
      return { status: answer.status, usage: Array.isArray(usage) ? usage.join(', ') : usage };
    }

    const EXAMPLE_BOT = CRAWLER;
    const UNKNOWN_BOT = 'UnknownBot/1.0';
    const FRIENDLY_BOT = 'FriendlyBot/3.0';

    it("a browser gets the * preferences; a crawler its group's; another crawler the * ones", async () => {
      const server = await site();
      const { door, outbound } = await gate(server, { CONTENT_USAGE_HEADER: 'on' });
      const cases: Array<[string, string | undefined, { status: number; usage: string | undefined }]> = [
        ['/articles/a', BROWSER, { status: 200, usage: 'train-ai=n, search=y' }],
        ['/articles/a', undefined, { status: 200, usage: 'train-ai=n, search=y' }],
        ['/articles/a', EXAMPLE_BOT, { status: 200, usage: 'train-ai=y' }],
        ['/articles/a', UNKNOWN_BOT, { status: 200, usage: 'train-ai=n, search=y' }],
        // Content-Signal alone: ai-train and search read as train-ai and search.
        ['/news/x', BROWSER, { status: 200, usage: 'train-ai=n, search=y' }],
        ['/news/x', UNKNOWN_BOT, { status: 200, usage: 'train-ai=n, search=y' }],
        // ExampleBot's group says nothing of /news/: no header.
        ['/news/x', EXAMPLE_BOT, { status: 200, usage: undefined }],
        ['/open/x', BROWSER, { status: 200, usage: 'train-ai=y' }],
        // Several crawlers named: each one's preferences, the most restrictive per purpose (vocab-07 §5.1).
        ['/articles/a', `${EXAMPLE_BOT} ${UNKNOWN_BOT}`, { status: 200, usage: 'train-ai=n, search=y' }],
        ['/open/x', `${EXAMPLE_BOT} ${UNKNOWN_BOT}`, { status: 200, usage: 'train-ai=y' }],
        // An exempt crawler passes whatever its rules say, and its preferences are still its group's, not *'s.
        ['/news/x', FRIENDLY_BOT, { status: 200, usage: 'train-ai=y' }],
        // Disallowed to it, so the path has no preferences for it (attach-05 §3.1); exempt, so it passes.
        ['/articles/a', FRIENDLY_BOT, { status: 200, usage: undefined }],
      ];
      for (const [path, userAgent, expected] of cases) {
        expect(await label(door, path, userAgent), `${path} as ${String(userAgent)}`).toEqual(expected);
      }
      // The gate read robots.txt once, from the site, and asked nothing of anyone else.
      expect(server.requests.filter((request) => request.path === '/robots.txt')).toHaveLength(1);
      expectOnlyTheSite(outbound, server);
    });

    it('no header where no purpose is known, where the path may not be crawled, and on robots.txt', async () => {
      const server = await site();
      const { door } = await gate(server, { CONTENT_USAGE_HEADER: 'on' });
      for (const userAgent of [BROWSER, EXAMPLE_BOT, UNKNOWN_BOT]) {
        expect(await label(door, '/about', userAgent), userAgent).toEqual({ status: 200, usage: undefined });
        expect((await label(door, '/robots.txt', userAgent)).usage, userAgent).toBeUndefined();
      }
      // A browser passes a path disallowed to *, unlabelled; a crawler is refused, unlabelled too.
      expect(await label(door, '/private/x', BROWSER)).toEqual({ status: 200, usage: undefined });
      expect(await label(door, '/private/x', UNKNOWN_BOT)).toEqual({ status: 403, usage: undefined });
      expect(await label(door, '/private/x', EXAMPLE_BOT)).toEqual({ status: 403, usage: undefined });
    });

    it('a header the origin sends is kept as it is, for every visitor', async () => {
      const server = await site();
      const { door } = await gate(server, { CONTENT_USAGE_HEADER: 'on' });
      for (const userAgent of [BROWSER, EXAMPLE_BOT, UNKNOWN_BOT]) {
        const answer = await send(door, '/articles/own', { headers: { 'user-agent': userAgent } });
        expect(answer, userAgent).toMatchObject({ status: 200, body: 'own page' });
        // One field, the origin's: none added beside it.
        expect(answer.headers['content-usage'], userAgent).toBe(OWN);
      }
    });

    it('the paths the origin may read are combined too, the most restrictive winning; HEAD is labelled alike', async () => {
      const server = await site();
      const { door } = await gate(server, { CONTENT_USAGE_HEADER: 'on' });
      // `//news/x` says nothing itself; merged, it is /news/x.
      expect(await label(door, '//news/x', BROWSER)).toEqual({ status: 200, usage: 'train-ai=n, search=y' });
      // As given, under /open/ (train-ai=y); with `;x` dropped, /articles/a (train-ai=n, search=y).
      expect(await label(door, '/open/..;x/articles/a', BROWSER)).toEqual({ status: 200, usage: 'train-ai=n, search=y' });
      expect(await label(door, '/articles/a', UNKNOWN_BOT, 'HEAD')).toEqual({ status: 200, usage: 'train-ai=n, search=y' });
    });

    it("off by default (and when off): no header, and a browser's request reads no robots.txt", async () => {
      const server = await site();
      const offs: Array<Record<string, string | boolean>> = [{}, { CONTENT_USAGE_HEADER: 'OFF' }, { CONTENT_USAGE_HEADER: false }];
      for (const bindings of offs) {
        const { door } = await gate(server, bindings);
        for (const path of ['/articles/a', '/news/x']) {
          expect(await label(door, path, BROWSER), `${path} ${JSON.stringify(bindings)}`).toEqual({ status: 200, usage: undefined });
        }
      }
      expect(server.count('/robots.txt')).toBe(0);
      const { door } = await gate(server);
      expect(await label(door, '/articles/a', UNKNOWN_BOT)).toEqual({ status: 200, usage: undefined });
      expect(await label(door, '/articles/a', EXAMPLE_BOT)).toEqual({ status: 200, usage: undefined });
      // On, in any case, or as a TOML boolean.
      for (const on of [' ON ', true]) {
        const { door: labelling } = await gate(server, { CONTENT_USAGE_HEADER: on });
        expect((await label(labelling, '/articles/a', BROWSER)).usage, String(on)).toBe('train-ai=n, search=y');
      }
    });

    it('a site without robots.txt, or whose robots.txt has no usage lines, gets no header', async () => {
      const bare = await startServer({ '/page': text('page') });
      const plain = await startServer({ '/robots.txt': text('User-agent: *\nDisallow: /private/\n'), '/page': text('page') });
      for (const server of [bare, plain]) {
        const { door, outbound } = await gate(server, { CONTENT_USAGE_HEADER: 'on' });
        for (const userAgent of [BROWSER, EXAMPLE_BOT]) {
          expect(await label(door, '/page', userAgent), `${server.origin} ${userAgent}`).toEqual({ status: 200, usage: undefined });
        }
        expectOnlyTheSite(outbound, server);
      }
    });
  });
});
