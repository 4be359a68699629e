/**
 * The documentation runs: every JavaScript/TypeScript code block of README.md and of the guide's pages
 * (every .md page under docs/) and every `@example` of the published declarations (each entry's dist/*.d.ts, built by `npm test` first)
 * runs in its own `node` process, and the values its result comments show (`expr; // value`) are asserted. Every
 * other fenced block is marked, as run by another test or as not run, and a test here holds that. The
 * conventions (which blocks, how to mark one, which comments are asserted, `…`) are documented at the top of
 * test/support/docs/doc-examples.ts.
 *
 * Network: the examples fetch `https://example.com/…` for real, from a real node:http server on
 * 127.0.0.1 that serves the SITES table below; only the host is rewritten, by the fetch that
 * test/support/docs/example-fetch-preload.mjs installs in each example's process. The declarations' examples
 * start their own site on 127.0.0.1 instead, so that they run as users copy them. Nothing leaves 127.0.0.1.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compare, some, someItems } from '../support/docs/doc-example-runtime.js';
import {
  buildModule,
  DECLARATIONS,
  blocksRunBy,
  describeFailure,
  documentationFiles,
  ExampleRunner,
  ExampleSourceError,
  extractDeclarationExamples,
  extractMarkdownExamples,
  fencedBlocks,
  instrument,
  parseResultValue,
  README,
  ROOT,
  valueExports,
  type DocExample,
  type Extracted,
} from '../support/docs/doc-examples.js';
import { closeServers, redirect, startServer, text, type Route } from '../support/http-server.js';
import { redisServerTool, startRedisServer, type RedisServer } from '../support/redis-server.js';

/** An HTML page linking to `links`. */
function page(title: string, links: readonly string[] = []): string {
  const anchors = links.map((href) => `<li><a href="${href}">${href}</a></li>`).join('\n');
  return `<!doctype html>\n<html><head><title>${title}</title></head>\n<body><h1>${title}</h1>\n<ul>\n${anchors}\n</ul></body></html>\n`;
}

/**
 * The sites the examples can reach, per host: path (with query, if any) → body, or a Route for anything
 * else (redirects, statuses). A string is served with 200 and a content type from its extension:
 * `.txt` text/plain, `.xml` application/xml, anything else text/html. Other paths get a 404; other hosts
 * fail as a DNS failure does.
 */
const SITES: Record<string, Record<string, string | Route>> = {
  'example.com': {
    '/robots.txt':
      'User-agent: *\nDisallow: /private/\nAllow: /private/press\nCrawl-delay: 2\n\nSitemap: https://example.com/sitemap.xml\n',
    '/': page('Example', ['/about', '/private/plans', 'https://example.org/news']),
    '/about': page('About', ['/']),
    '/private/plans': page('Plans'),
    '/private/press/2026': page('Press 2026'),
    '/sitemap.xml':
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
      '<url><loc>https://example.com/</loc></url>\n<url><loc>https://example.com/about</loc></url>\n</urlset>\n',
  },
  'example.org': {
    '/robots.txt': 'User-agent: *\nDisallow: /drafts/\n\nSitemap: https://example.org/sitemap.xml\n',
    '/': page('Example.org', ['/news']),
    '/news': page('News', ['/', '/drafts/next']),
    '/drafts/next': page('Next'),
  },
};

/** Hosts for the tests of the machinery itself (not for the documentation). */
const MACHINERY_SITES: Record<string, Record<string, string | Route>> = {
  'redirects.test': {
    '/robots.txt': redirect('https://example.org/robots.txt'),
    '/hop': redirect('/robots.txt', 302),
  },
};

function routes(sites: Record<string, Record<string, string | Route>>): Record<string, Route> {
  const table: Record<string, Route> = {};
  for (const [host, paths] of Object.entries(sites)) {
    for (const [path, answer] of Object.entries(paths)) {
      const type = path.endsWith('.txt') ? 'text/plain' : path.endsWith('.xml') ? 'application/xml' : 'text/html; charset=utf-8';
      table[`/${host}${path}`] = typeof answer === 'string' ? text(answer, 200, { 'content-type': type }) : answer;
    }
  }
  return table;
}

/**
 * Result values asserted today, per file: a rewrite of the documentation must not drop them unnoticed.
 * Raise them when examples gain results; lower them only on purpose. A page not listed must assert none (or
 * be listed). docs/fleet.md's 3 are asserted by redis-readme.test.ts, which runs its block against Redis.
 */
const FLOOR: Record<string, number> = {
  'README.md': 10,
  'docs/getting-started.md': 11,
  'docs/decisions.md': 12,
  'docs/crawling.md': 21,
  'docs/lint.md': 7,
  'docs/usage.md': 9,
  'docs/migrating.md': 4,
};
/** The same for the `@example`s of every entry's declarations, together. */
const DECLARATIONS_FLOOR = 89;
const TIMEOUT_MS = 20_000;

const documents = documentationFiles().map((file) => ({
  file,
  path: relative(ROOT, file),
  extracted: extractMarkdownExamples(readFileSync(file, 'utf8'), file),
}));
/** Each entry's declarations (dist/index.d.ts first) and their examples. */
const declarationFiles = DECLARATIONS.map((file) => {
  const built = existsSync(file);
  const text = built ? readFileSync(file, 'utf8') : '';
  const extracted: Extracted = built ? extractDeclarationExamples(text, file) : { examples: [], skipped: [] };
  return { file, name: basename(file), built, text, ...extracted };
});
const exported = valueExports(declarationFiles[0]!.text);
/** Examples that talk to Redis (REDIS_URL) run against a redis-server, where one is installed. */
const needsRedis = (example: DocExample): boolean => example.source.includes('REDIS_URL');
const redis = redisServerTool();

let runner: ExampleRunner;
let redisServer: RedisServer | undefined;

beforeAll(async () => {
  if (redis.found && declarationFiles.some((declarations) => declarations.examples.some(needsRedis))) {
    redisServer = await startRedisServer();
    process.env.REDIS_URL = redisServer.url;
  }
  const server = await startServer(routes({ ...SITES, ...MACHINERY_SITES }));
  runner = new ExampleRunner({
    origin: server.origin,
    hosts: [...Object.keys(SITES), ...Object.keys(MACHINERY_SITES)],
    timeoutMs: TIMEOUT_MS,
    concurrency: 2,
  });
});

afterAll(async () => {
  runner?.dispose();
  await closeServers();
  delete process.env.REDIS_URL;
  await redisServer?.close();
});

async function runOk(example: DocExample): Promise<void> {
  const result = await runner.runExample(example, exported);
  if (result.code !== 0 || result.timedOut) throw new Error(describeFailure(example.name, result, TIMEOUT_MS));
}

function assertedCount(examples: readonly DocExample[]): number {
  let count = 0;
  for (const example of examples) {
    try {
      count += buildModule(example, { runtime: 'runtime', exports: exported }).assertions.length;
    } catch (error) {
      if (!(error instanceof ExampleSourceError)) throw error; // its own test reports it
    }
  }
  return count;
}

for (const { path, extracted } of documents) {
  describe(`${path} examples`, () => {
    if (extracted.examples.length === 0) it(`${path} has no example run here`, () => undefined);
    it.concurrent.each(extracted.examples.map((example) => [example.name, example] as const))('%s', async (_, example) => runOk(example));
    for (const skipped of extracted.skipped) it.skip(`${skipped.name} (${skipped.reason})`, () => undefined);
  });
}

/** Every test file under test/, by file name. */
function testFiles(dir = join(ROOT, 'test'), found = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) testFiles(path, found);
    else if (entry.name.endsWith('.test.ts')) found.set(entry.name, path);
  }
  return found;
}

describe('every fenced block of README.md and docs/ is run or marked', () => {
  const tests = testFiles();
  it.each(documents.map(({ file, path }) => [path, file] as const))('%s', (path, file) => {
    const problems: string[] = [];
    for (const block of fencedBlocks(readFileSync(file, 'utf8'), file)) {
      const where = `${path}:${block.line - 1} (\`\`\`${block.info})`;
      if (block.mark === undefined) {
        if (block.language === undefined) problems.push(`${where}: neither run here nor marked <!-- not run: … --> or <!-- run by … -->`);
        continue;
      }
      if (block.mark.kind === 'not-run') continue;
      const runner = tests.get(block.mark.test);
      if (runner === undefined) problems.push(`${where}: run by ${block.mark.test}, which is no test file under test/`);
      else if (!readFileSync(runner, 'utf8').includes(basename(file))) {
        problems.push(`${where}: run by ${block.mark.test}, which never names ${basename(file)}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

for (const declarations of declarationFiles) {
  describe(`dist/${declarations.name} @examples`, () => {
    it(`dist/${declarations.name} is built (npm run build), and every @example in it is found`, () => {
      expect(declarations.built, `${declarations.file} is missing: run npm run build`).toBe(true);
      const written = declarations.text.match(/@example\b/g)?.length ?? 0;
      expect(declarations.examples.length + declarations.skipped.length).toBe(written);
    });
    const runs = declarations.examples.filter((example) => redis.found || !needsRedis(example));
    it.concurrent.each(runs.map((example) => [example.name, example] as const))('%s', async (_, example) => runOk(example));
    for (const example of declarations.examples.filter((example) => !runs.includes(example))) {
      it.skip(`${example.name} (needs redis-server: ${redis.found ? '' : redis.note})`, () => undefined);
    }
    for (const skipped of declarations.skipped) it.skip(`${skipped.name} (not run: ${skipped.reason})`, () => undefined);
  });
}

describe('the documentation asserts results', () => {
  for (const { path, extracted } of documents) {
    it(`${path} has at least ${FLOOR[path] ?? 0} asserted values`, () => {
      const count = assertedCount(extracted.examples);
      if (count > 0) expect(FLOOR[path], `${path} asserts ${count} values: list it in FLOOR`).toBeDefined();
      expect(count).toBeGreaterThanOrEqual(FLOOR[path] ?? 0);
    });
  }
  it('every file in FLOOR exists', () => {
    for (const path of Object.keys(FLOOR)) expect(existsSync(join(ROOT, path)), path).toBe(true);
  });
  it(`the entries' declarations have at least ${DECLARATIONS_FLOOR} asserted values`, () => {
    expect(assertedCount(declarationFiles.flatMap((declarations) => declarations.examples))).toBeGreaterThanOrEqual(DECLARATIONS_FLOOR);
  });
});

// ---------------------------------------------------------------------------------------------------
// The machinery

function example(source: string, language: 'ts' | 'js' = 'ts'): DocExample {
  return { name: 'machinery example', file: README, line: 1, language, source, importsPackage: false };
}

describe('extracting examples', () => {
  it('takes the JS/TS blocks of Markdown, named by their heading, and lists those not run', () => {
    const markdown = [
      '# Title', // 1
      '```sh', // 2
      'npm test', // 3
      '```', // 4
      '## Usage', // 5
      '```ts', // 6
      'const a = 1; // 1', // 7
      '```', // 8
      '```', // 9
      'a diagram', // 10
      '```', // 11
      '```text', // 12
      'x', // 13
      '```', // 14
      '````JavaScript', // 15
      'const b = 2;', // 16
      '````', // 17
      '### More', // 18
      '```mjs', // 19
      '// not run: needs a browser', // 20
      'document.title;', // 21
      '```', // 22
      '  ```typescript', // 23
      '  let c = 3;', // 24
      '  ```', // 25
    ].join('\n');
    const { examples, skipped } = extractMarkdownExamples(markdown, '/x/README.md');
    expect(examples.map(({ name, line, language, source }) => ({ name, line, language, source }))).toEqual([
      { name: 'README.md: Usage #1', line: 7, language: 'ts', source: 'const a = 1; // 1' },
      { name: 'README.md: Usage #2', line: 16, language: 'js', source: 'const b = 2;' },
      { name: 'README.md: More #2', line: 24, language: 'ts', source: 'let c = 3;' },
    ]);
    expect(skipped).toEqual([{ name: 'README.md: More #1', file: '/x/README.md', line: 20, reason: 'needs a browser' }]);
  });

  it('takes the @examples of declarations, named by what they document', () => {
    const dts = [
      '/**', // 1
      ' * Parses.', // 2
      ' *', // 3
      ' * @example', // 4
      " * parse('x'); // 'x'", // 5
      ' * @returns something', // 6
      ' */', // 7
      'declare function parse(body: string): string;', // 8
      'declare class Cache {', // 9
      '    /**', // 10
      '     * @example', // 11
      "     * await cache.get('a'); // 1", // 12
      '     *', // 13
      '     * @example', // 14
      '     * // not run: needs the network', // 15
      '     */', // 16
      '    get(key: string): Promise<number>;', // 17
      '    /** @example const cache = new Cache(); */', // 18
      '    constructor();', // 19
      '}', // 20
      'export { type X, Cache, parse };', // 21
    ].join('\n');
    const { examples, skipped } = extractDeclarationExamples(dts, '/x/index.d.ts');
    expect(examples.map(({ name, line, source, importsPackage }) => ({ name, line, source, importsPackage }))).toEqual([
      { name: 'index.d.ts: parse', line: 5, source: "parse('x'); // 'x'", importsPackage: true },
      { name: 'index.d.ts: Cache.get #1', line: 12, source: "await cache.get('a'); // 1", importsPackage: true },
      { name: 'index.d.ts: Cache.constructor', line: 18, source: 'const cache = new Cache();', importsPackage: true },
    ]);
    expect(skipped.map(({ name, line, reason }) => ({ name, line, reason }))).toEqual([
      { name: 'index.d.ts: Cache.get #2', line: 15, reason: 'needs the network' },
    ]);
    expect(valueExports(dts)).toEqual(['Cache', 'parse']);
  });
});

describe('marks', () => {
  const markdown = [
    '## Shell', // 1
    '<!-- not run: needs the network -->', // 2
    '', // 3
    '```sh', // 4
    'curl https://example.com/', // 5
    '```', // 6
    '<!-- run by cli-guide.test.ts: with parts of 3 lines -->', // 7
    '```sh', // 8
    'robotstxt filter', // 9
    '```', // 10
    '<!-- run by redis-readme.test.ts -->', // 11
    '```ts', // 12
    'await redis.ping();', // 13
    '```', // 14
    '```json', // 15
    '{}', // 16
    '```', // 17
    '<!-- not run: configuration -->', // 18
    'A sentence between the mark and the block.', // 19
    '```ts', // 20
    'const a = 1; // 1', // 21
    '```', // 22
  ].join('\n');

  it('reads the HTML comment right above a fence as its mark, and nothing further up', () => {
    expect(fencedBlocks(markdown, '/x/docs/a.md').map(({ line, info, mark }) => ({ line, info, mark }))).toEqual([
      { line: 5, info: 'sh', mark: { kind: 'not-run', reason: 'needs the network' } },
      { line: 9, info: 'sh', mark: { kind: 'run-by', test: 'cli-guide.test.ts', note: 'with parts of 3 lines' } },
      { line: 13, info: 'ts', mark: { kind: 'run-by', test: 'redis-readme.test.ts', note: '' } },
      { line: 16, info: 'json', mark: undefined },
      { line: 21, info: 'ts', mark: undefined },
    ]);
  });

  it('skips marked JS/TS blocks with their reason, and finds the blocks a test runs', () => {
    const { examples, skipped } = extractMarkdownExamples(markdown, '/x/docs/a.md');
    expect(examples.map(({ name, line }) => [name, line])).toEqual([['a.md: Shell #2', 21]]);
    expect(skipped.map(({ name, reason }) => [name, reason])).toEqual([['a.md: Shell #1', 'run by redis-readme.test.ts']]);
    expect(blocksRunBy(markdown, '/x/docs/a.md', 'cli-guide.test.ts').map(({ line, source }) => [line, source])).toEqual([
      [9, 'robotstxt filter'],
    ]);
    expect(blocksRunBy(markdown, '/x/docs/a.md', 'redis-readme.test.ts')[0]?.example?.source).toBe('await redis.ping();');
  });

  it('refuses a mark it cannot read', () => {
    expect(() => fencedBlocks('<!-- not-run configuration -->\n```json\n{}\n```', '/x/a.md')).toThrow(ExampleSourceError);
    expect(() => fencedBlocks('<!-- run by the CLI tests -->\n```sh\nx\n```', '/x/a.md')).toThrow(/neither/);
  });
});

describe('result comments', () => {
  it('reads literal values and leaves prose alone', () => {
    expect(parseResultValue('false')).toBe('false');
    expect(parseResultValue("['https://example.com/sitemap.xml']")).toBe('["https://example.com/sitemap.xml"]');
    expect(parseResultValue("{ allowed: false, 'line': 3, rule: undefined, n: -1, big: 5_000 }")).toBe(
      '{ "allowed": false, "line": 3, "rule": undefined, "n": -1, "big": 5000 }',
    );
    for (const prose of [
      "or 'ExampleBot/1.2'",
      'extractLinks: your HTML parser',
      '2 (seconds; undefined when absent)',
      '[true, false], one crossing into WebAssembly',
      "gives the compiled rules' memory back",
      'e.g. when the crawl ends',
      'robots',
      'process.exit(1)',
      '{ outcome, status, robots?, fetchedAt, … }',
      '…',
      '',
    ]) {
      expect(parseResultValue(prose), prose).toBeUndefined();
    }
  });

  it('reads … as "at least these keys / elements", but not inside strings', () => {
    expect(parseResultValue("{ a: 1, …, b: { c: 'x…' , ... } }")).toBe('__doc.some({ "a": 1, "b": __doc.some({ "c": "x…" }) })');
    expect(parseResultValue('[1, …]')).toBe('__doc.someItems([1], [])');
    expect(parseResultValue('[1, ..., 3]')).toBe('__doc.someItems([1], [3])');
    expect(parseResultValue('[…, 1, …]')).toBeUndefined();
  });

  it('asserts a trailing comment on an expression, a declaration and an awaited expression', () => {
    const { source, assertions } = instrument(
      ['const a = 1 + 1; // 2', 'a * 2; // 4', 'await Promise.resolve(a); // 2', "if (a) String(a); // '2'"].join('\n'),
      'ts',
    );
    expect(assertions.map(({ line, value }) => [line, value])).toEqual([
      [1, '2'],
      [2, '4'],
      [3, '2'],
      [4, "'2'"],
    ]);
    expect(source).toBe(
      [
        'const a = __doc.check(0, (1 + 1), 2); // 2',
        '__doc.check(1, (a * 2), 4); // 4',
        '__doc.check(2, (await Promise.resolve(a)), 2); // 2',
        'if (a) __doc.check(3, (String(a)), "2"); // \'2\'',
      ].join('\n'),
    );
  });

  it('asserts a value written on the comment lines below the statement', () => {
    const { assertions } = instrument(
      [
        'rules.explain("/private/plans");',
        '// { allowed: false, line: 3,',
        "//   rule: { kind: 'disallow', pattern: '/private/' } }",
        '// and a sentence after it',
        'robots.sitemaps; // [',
        "//   'https://example.com/sitemap.xml',",
        '// ]',
      ].join('\n'),
      'js',
    );
    expect(assertions.map(({ line, expected }) => [line, expected])).toEqual([
      [1, '{ "allowed": false, "line": 3, "rule": { "kind": "disallow", "pattern": "/private/" } }'],
      [5, '["https://example.com/sitemap.xml"]'],
    ]);
  });

  it('does not assert prose comments', () => {
    const source = [
      "const rules = robots.forAgent('ExampleBot'); // or 'ExampleBot/1.2'",
      'for (const link of links) { // extractLinks: your HTML parser',
      '  use(link); // e.g. when the crawl ends',
      '}',
      'rules.dispose(); // gives the memory back',
      '// { a: 1 } is what the note below says',
    ].join('\n');
    expect(instrument(source, 'ts')).toEqual({ source, assertions: [] });
  });

  it('refuses a value comment that follows no statement', () => {
    expect(() => instrument(['const options = {', '  timeoutMs: 5_000, // 5000', '};'].join('\n'), 'ts')).toThrow(
      /line 2: the result comment "\/\/ 5000" follows no statement/,
    );
    expect(() => instrument(['f();', '', '// true'].join('\n'), 'js')).toThrow(ExampleSourceError);
  });

  it('compares deeply, with … as a subset', () => {
    expect(compare({ a: [1, { b: 'x' }], c: undefined }, { a: [1, { b: 'x' }] })).toBeUndefined();
    expect(compare([1, 0], Uint8Array.of(1, 0))).toBeUndefined();
    expect(compare(NaN, NaN)).toBeUndefined();
    expect(compare({ a: 1 }, { a: 1, b: 2 })).toBe('value.b: expected undefined, got 2');
    expect(compare(some({ a: 1 }), { a: 1, b: 2 })).toBeUndefined();
    expect(compare(some({ a: 1, c: 3 }), { a: 1, b: 2 })).toBe('value.c: expected 3, got undefined');
    expect(compare({ s: some({ x: 'y' }) }, { s: { x: 'z', w: 1 } })).toBe("value.s.x: expected 'y', got 'z'");
    expect(compare(someItems([1], [9]), [1, 5, 9])).toBeUndefined();
    expect(compare(someItems([1], [9]), [1, 5, 8])).toBe('value[2]: expected 9, got 8');
    expect(compare([1], [1, 2])).toMatch(/^value: expected \[ 1 \], got \[ 1, 2 \]/);
    expect(compare('1', 1)).toBe("value: expected '1', got 1");
  });
});

describe('running examples', () => {
  it('passes when every result comment holds, … included', async () => {
    const result = await runner.runExample(
      example(
        [
          'const counts = new Map<string, number>([["a", 1]]);',
          "counts.get('a'); // 1",
          "const info = { kind: 'wasm', bytes: 344512, extra: [1, 2, 3] }; // { kind: 'wasm', …, extra: [1, …] }",
          'info.extra;',
          '// [1,',
          '//  2, 3]',
        ].join('\n'),
      ),
      exported,
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('doc-example: 3 of 3 result comments checked');
    expect(result.code).toBe(0);
  });

  it('fails on a wrong value, saying where, what and how it differs', async () => {
    const source = ['const a = 1;', "({ kind: 'wasm', n: a + 1 }); // { kind: 'wasm', n: 3 }"].join('\n');
    const result = await runner.runExample({ ...example(source), line: 40 }, exported);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('result comment does not match at README.md:41');
    expect(result.stderr).toContain('first difference: value.n: expected 3, got 2');
    expect(result.stderr).toMatch(/README\.md:41:\d+/); // the stack points into README.md via the source map
  });

  it('fails when a subset (…) misses a key', async () => {
    const result = await runner.runExample(example('({ a: 1, b: 2 }); // { c: 3, … }', 'js'), exported);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('value.c: expected 3, got undefined');
  });

  it('fails when a result comment never runs, or its failure is caught', async () => {
    const unrun = await runner.runExample(example('if (Math.random() > 2) Math.abs(-1); // 1'), exported);
    expect(unrun.code).toBe(1);
    expect(unrun.stderr).toContain('result comments whose statement never ran');
    const caught = await runner.runExample(example(['try {', '  Math.abs(-1); // 2', '} catch {}'].join('\n')), exported);
    expect(caught.code).toBe(1);
    expect(caught.stderr).toContain('first difference: value: expected 2, got 1');
  });

  it('resolves the package by its own name, and gives @examples without imports its exports', async () => {
    const result = await runner.runExample(
      {
        ...example("const robots = parseRobotsTxt('User-agent: *\\nDisallow: /x');\nrobots.isAllowed('/x', 'Bot'); // false"),
        importsPackage: true,
      },
      ['parseRobotsTxt', 'RobotsCache'],
    );
    expect(describeFailure('package', result)).toContain('exit code 0');
    const imported = await runner.runExample(
      example(
        "import { parseRobotsTxt } from 'robotstxt-wasm';\nparseRobotsTxt('User-agent: *\\nDisallow: /x').isAllowed('/y', 'Bot'); // true",
      ),
      exported,
    );
    expect(describeFailure('import', imported)).toContain('exit code 0');
  });

  it('serves the sites from 127.0.0.1 and refuses everything else', async () => {
    const result = await runner.runExample(
      example(
        [
          "import dns from 'node:dns';",
          "import http from 'node:http';",
          "dns.lookup = () => { throw new Error('a DNS lookup was attempted'); };",
          "const robots = await fetch('https://example.com/robots.txt');",
          'robots.status; // 200',
          "robots.url; // 'https://example.com/robots.txt'",
          `(await robots.text()); // ${JSON.stringify(SITES['example.com']!['/robots.txt'])}`,
          "const moved = await fetch('https://redirects.test/robots.txt');",
          "[moved.status, moved.url, moved.redirected]; // [200, 'https://example.org/robots.txt', true]",
          "const manual = await fetch('https://redirects.test/hop', { redirect: 'manual' });",
          "[manual.status, manual.headers.get('location')]; // [302, '/robots.txt']",
          "(await fetch('http://example.com/missing')).status; // 404",
          'const refused = async (url: string) => fetch(url).then(() => "fetched", (error) => `${error.name}: ${error.cause?.code ?? error.message}`);',
          "await refused('https://unknown.example/'); // 'TypeError: ENOTFOUND'",
          "(await refused('file:///etc/passwd')).startsWith('TypeError'); // true",
          "await new Promise((resolve) => http.get('http://example.com/').on('error', (error) => resolve(error.message)));",
          "// 'tests may only connect to the loopback interface (refused example.com:80)'",
        ].join('\n'),
      ),
      exported,
    );
    expect(describeFailure('network', result)).toContain('exit code 0');
    expect(result.stdout).toContain('doc-example: 9 of 9 result comments checked');
  });

  it('kills an example that runs too long', async () => {
    const quick = new ExampleRunner({ origin: 'http://127.0.0.1:9', hosts: [], timeoutMs: 500, concurrency: 1 });
    try {
      const result = await quick.run('hangs', 'setInterval(() => {}, 1000);\n');
      expect(result.timedOut).toBe(true);
      expect(describeFailure('hangs', result, 500)).toContain('timed out after 500 ms');
    } finally {
      quick.dispose();
    }
  });
});
