/**
 * The built package as users load it: ESM and CommonJS from dist/, with the
 * WebAssembly matcher inlined. `npm test` builds dist/ first.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/** The part of the entry these tests use, stated here so that type-checking needs no build. */
interface Entry {
  parseRobotsTxt(body: string): { isAllowed(url: string, agent: string): boolean };
  matcherInfo(): { kind: string };
}

const execFileAsync = promisify(execFile);

const ROBOTS = 'User-agent: *\nDisallow: /private/\nAllow: /private/open\n';

function checkEntry(entry: Entry): void {
  const robots = entry.parseRobotsTxt(ROBOTS);
  expect(robots.isAllowed('https://example.com/private/x', 'ExampleBot')).toBe(false);
  expect(robots.isAllowed('https://example.com/private/open', 'ExampleBot')).toBe(true);
  expect(entry.matcherInfo().kind).toBe('wasm');
}

describe('the built package', () => {
  it('loads as an ES module with the wasm matcher', async () => {
    const entry = (await import(new URL('../../dist/index.js', import.meta.url).href)) as Entry;
    checkEntry(entry);
  });

  it('loads as CommonJS with the wasm matcher', () => {
    const require = createRequire(import.meta.url);
    checkEntry(require('../../dist/index.cjs') as Entry);
  });

  it('lists a Workers entry first in every export, for the workerd and worker conditions', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, string | Record<string, unknown>>;
    };
    const entries = Object.entries(manifest.exports).filter(([, target]) => typeof target !== 'string');
    expect(entries.map(([subpath]) => subpath)).toContain('.');
    for (const [subpath, conditions] of entries) {
      expect(Object.keys(conditions).slice(0, 2), subpath).toEqual(['workerd', 'worker']);
      expect((conditions as Record<string, unknown>).workerd, subpath).toEqual((conditions as Record<string, unknown>).worker);
    }
    expect(manifest.exports['.']).toMatchObject({ workerd: { types: './dist/index.d.ts', default: './dist/worker.js' } });
  });

  it("offers robots-parser's drop-in: the default export in ESM, module.exports itself in CommonJS", async () => {
    type RobotsParser = (url: string, contents: string) => { isAllowed(url: string, ua?: string): boolean | undefined };
    const check = (robotsParser: RobotsParser): void => {
      expect(typeof robotsParser).toBe('function');
      const robots = robotsParser('https://example.com/robots.txt', ROBOTS);
      expect(robots.isAllowed('https://example.com/private/x', 'ExampleBot')).toBe(false);
      expect(robots.isAllowed('https://other.example/private/x', 'ExampleBot')).toBeUndefined();
    };
    check(((await import('robotstxt-wasm/compat/robots-parser')) as { default: RobotsParser }).default);
    check(createRequire(import.meta.url)('robotstxt-wasm/compat/robots-parser') as RobotsParser);
  });

  it('offers the Cache API store (robotstxt-wasm/cache-api) in ESM and CommonJS, and to workerd as the same file', async () => {
    interface CacheApiModule {
      cacheApiStore(options?: { cache?: unknown }): {
        get(key: string): Promise<string | undefined>;
        set(key: string, value: string, ttlMs: number): Promise<void>;
      };
    }
    const check = async (module: CacheApiModule): Promise<void> => {
      const held = new Map<string, Response>();
      const cache = {
        match: async (url: string) => held.get(url)?.clone(),
        put: async (url: string, response: Response) => void held.set(url, response),
      };
      const store = module.cacheApiStore({ cache });
      await store.set('v1/record/https://example.com', 'record', 60_000);
      expect(await store.get('v1/record/https://example.com')).toBe('record');
      expect([...held.keys()]).toEqual(['https://robotstxt-wasm.invalid/v1%2Frecord%2Fhttps%3A%2F%2Fexample.com']);
      // Node has no caches.default.
      expect(() => module.cacheApiStore()).toThrow(TypeError);
    };
    await check((await import('robotstxt-wasm/cache-api')) as CacheApiModule);
    await check(createRequire(import.meta.url)('robotstxt-wasm/cache-api') as CacheApiModule);
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, Record<string, { default: string }>>;
    };
    // test/e2e/workers/workers.test.ts runs this file inside workerd.
    expect(manifest.exports['./cache-api']?.workerd?.default).toBe('./dist/cache-api.js');
  });

  it('offers the Redis store adapter (robotstxt-wasm/redis) in ESM and CommonJS, with no client of its own', async () => {
    type RedisEntry = { redisStore(client: unknown): unknown };
    const check = (entry: RedisEntry): void => {
      expect(typeof entry.redisStore).toBe('function');
      // The client is the user's: without one the adapter says what to pass (test/e2e/redis/redis-store.test.ts runs it against Redis).
      expect(() => entry.redisStore({})).toThrow(/createClient\(\).*new Redis\(\)/);
    };
    check((await import('robotstxt-wasm/redis')) as RedisEntry);
    check(createRequire(import.meta.url)('robotstxt-wasm/redis') as RedisEntry);
  });

  it('resolves through the exports map', async () => {
    const entry = (await import('robotstxt-wasm')) as Entry;
    checkEntry(entry);
  });
});

describe('what npm publishes', () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));

  it('a pack holds dist/ and the LICENSE, and prepack builds dist/ first (so a clean clone packs a working package)', async () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(manifest.scripts.prepack).toBe('npm run build');
    // --ignore-scripts: listing must not rebuild dist/ under the feet of the other tests.
    const { stdout } = await execFileAsync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root });
    const files = (JSON.parse(stdout) as [{ files: { path: string }[] }])[0].files.map((file) => file.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'LICENSE',
        'README.md',
        'package.json',
        'dist/index.js',
        'dist/index.cjs',
        'dist/index.d.ts',
        'dist/index.d.cts',
        'dist/worker.js',
        'dist/matcher.wasm',
        'dist/cache-api.js',
        'dist/cache-api.cjs',
        'dist/cache-api.d.ts',
        'dist/cache-api.d.cts',
        'dist/redis.js',
        'dist/redis.cjs',
        'dist/redis.d.ts',
        'dist/redis.d.cts',
        // The robots.txt lab that `robotstxt lab` serves.
        'dist/lab/index.html',
        'dist/lab/sw.js',
      ]),
    );
    expect(files.filter((path) => !/^(?:dist\/|LICENSE$|README\.md$|CHANGELOG\.md$|package\.json$)/.test(path))).toEqual([]);
  });

  it('the published declarations point at nothing outside the package: RFC sections and public URLs only', () => {
    for (const file of [
      'dist/index.d.ts',
      'dist/index.d.cts',
      'dist/cache-api.d.ts',
      'dist/cache-api.d.cts',
      'dist/redis.d.ts',
      'dist/redis.d.cts',
    ]) {
      const declarations = readFileSync(join(root, file), 'utf8');
      expect(declarations).not.toMatch(/\b00\d_[0-9a-f]+\.txt|DESIGN\.md|\.\.\/shared|\bspec:|issue #\d/);
    }
  });

  // Each configuration compiles a consumer of the built declarations (test/package/types/): es2022 alone has no
  // URL, Response or AbortSignal; DOM, @types/node and esnext each declare their own.
  it.each(['es2022', 'dom', 'node', 'esnext-dom'])('the public types compile for a consumer with lib %s', async (name) => {
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const run = execFileAsync(process.execPath, [tsc, '-p', join(root, `test/package/types/tsconfig.${name}.json`)], { cwd: root });
    await expect(
      run.then(
        () => 'compiled',
        (error: { stdout?: string }) => error.stdout ?? String(error),
      ),
    ).resolves.toBe('compiled');
  });
});

describe('runtimes without the newer globals', () => {
  it('loads and answers where FinalizationRegistry and WeakRef are missing (dispose() alone frees)', async () => {
    const entry = new URL('../../dist/index.js', import.meta.url).href;
    const script = [
      'delete globalThis.FinalizationRegistry;',
      'delete globalThis.WeakRef;',
      `const { parseRobotsTxt, matcherInfo } = await import(${JSON.stringify(entry)});`,
      // Compiled at once: by default the first verdicts are read with nothing compiled, nothing to free.
      "const rules = parseRobotsTxt('User-agent: *\\nDisallow: /private/\\n').forAgent('ExampleBot', { indexed: true });",
      "const verdicts = [rules.isAllowed('/private/x'), rules.isAllowed('/public')];",
      'const before = matcherInfo().wasmBytesInUse;',
      'rules.dispose();',
      'console.log(JSON.stringify({ verdicts, freed: matcherInfo().wasmBytesInUse < before }));',
    ].join('\n');
    const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', script]);
    expect(JSON.parse(stdout)).toEqual({ verdicts: [false, true], freed: true });
  });
});
