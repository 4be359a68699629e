/**
 * The documentation runs: every JavaScript/TypeScript code block of README.md and every `@example` of the
 * published declarations (dist/index.d.ts, built by `npm test` first) runs in its own `node` process, and
 * the values its result comments show (`expr; // value`) are asserted. The conventions (which blocks, how
 * to mark one as not run, which comments are asserted, `…`) are documented at the top of
 * test/support/docs/doc-examples.ts.
 *
 * Network: the examples fetch `https://example.com/…` for real, from a real node:http server on
 * 127.0.0.1 that serves the SITES table below; only the host is rewritten, by the fetch that
 * test/support/docs/example-fetch-preload.mjs installs in each example's process. Nothing leaves 127.0.0.1.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compare, some, someItems } from '../support/docs/doc-example-runtime.js';
import {
  buildModule,
  DECLARATIONS,
  describeFailure,
  ExampleRunner,
  ExampleSourceError,
  extractDeclarationExamples,
  extractMarkdownExamples,
  instrument,
  parseResultValue,
  README,
  valueExports,
  type DocExample,
  type Extracted,
} from '../support/docs/doc-examples.js';
import { closeServers, redirect, startServer, text, type Route } from '../support/http-server.js';

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
 * Raise them when examples gain results; lower them only on purpose.
 */
const FLOOR = { readme: 24, declarations: 37 };
const TIMEOUT_MS = 20_000;

const readme = extractMarkdownExamples(readFileSync(README, 'utf8'), README);
const built = existsSync(DECLARATIONS);
const declarationText = built ? readFileSync(DECLARATIONS, 'utf8') : '';
const declarations: Extracted = built ? extractDeclarationExamples(declarationText, DECLARATIONS) : { examples: [], skipped: [] };
const exported = valueExports(declarationText);

let runner: ExampleRunner;

beforeAll(async () => {
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

describe('README.md examples', () => {
  it.concurrent.each(readme.examples.map((example) => [example.name, example] as const))('%s', async (_, example) => runOk(example));
  for (const skipped of readme.skipped) it.skip(`${skipped.name} (not run: ${skipped.reason})`, () => undefined);
});

describe('dist/index.d.ts @examples', () => {
  it('dist/index.d.ts is built (npm run build), and every @example in it is found', () => {
    expect(built, `${DECLARATIONS} is missing: run npm run build`).toBe(true);
    const written = declarationText.match(/@example\b/g)?.length ?? 0;
    expect(declarations.examples.length + declarations.skipped.length).toBe(written);
  });
  it.concurrent.each(declarations.examples.map((example) => [example.name, example] as const))('%s', async (_, example) => runOk(example));
  for (const skipped of declarations.skipped) it.skip(`${skipped.name} (not run: ${skipped.reason})`, () => undefined);
});

describe('the documentation asserts results', () => {
  it(`README.md has at least ${FLOOR.readme} asserted values`, () => {
    expect(assertedCount(readme.examples)).toBeGreaterThanOrEqual(FLOOR.readme);
  });
  it(`dist/index.d.ts has at least ${FLOOR.declarations} asserted values`, () => {
    expect(assertedCount(declarations.examples)).toBeGreaterThanOrEqual(FLOOR.declarations);
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
