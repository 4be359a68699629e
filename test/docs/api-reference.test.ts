/**
 * The API reference builds: TypeDoc (typedoc.json, what `npm run docs:api` runs) writes it into a temporary
 * directory and exits 0, which with `treatWarningsAsErrors` means no warning at all (an exported name or member
 * without documentation, a type the API names but no entry exports, a broken `{@link}`). Every name each entry
 * exports has its page, and the main calls' pages show their examples (test/docs/doc-examples.test.ts runs them).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TYPEDOC = join(ROOT, 'node_modules', 'typedoc', 'bin', 'typedoc');
/** TypeDoc takes about a minute on a busy machine. */
const TIMEOUT_MS = 300_000;

interface TypedocConfig {
  readonly entryPoints: readonly string[];
  readonly out: string;
  readonly treatWarningsAsErrors?: boolean;
  readonly excludeInternal?: boolean;
  readonly validation?: { readonly notExported?: boolean; readonly invalidLink?: boolean; readonly notDocumented?: boolean };
}

const config = JSON.parse(readFileSync(join(ROOT, 'typedoc.json'), 'utf8')) as TypedocConfig;

/** Each entry's module, as users import it: its source file, and the page-name prefix TypeDoc gives it. */
const ENTRIES = [
  { module: 'robotstxt-wasm', source: 'src/index.ts' },
  { module: 'robotstxt-wasm/compat/robots-parser', source: 'src/platform/robots-parser.ts' },
  { module: 'robotstxt-wasm/redis', source: 'src/store/redis.ts' },
  { module: 'robotstxt-wasm/cache-api', source: 'src/store/cache-api.ts' },
].map((entry) => ({ ...entry, prefix: entry.module.replaceAll('/', '_') }));

/** The main calls, whose pages must show an example: `<module>`, `<page name>`. */
const EXAMPLES: readonly (readonly [string, string])[] = [
  ['robotstxt-wasm', 'parseRobotsTxt'],
  ['robotstxt-wasm', 'RobotsTxt'],
  ['robotstxt-wasm', 'AgentRules'],
  ['robotstxt-wasm', 'RobotsCache'],
  ['robotstxt-wasm', 'fetchRobotsTxt'],
  ['robotstxt-wasm', 'lintRobotsTxt'],
  ['robotstxt-wasm/compat/robots-parser', 'default'],
  ['robotstxt-wasm/redis', 'redisStore'],
  ['robotstxt-wasm/cache-api', 'cacheApiStore'],
];

/** The names a source entry exports, values and types, as TypeScript resolves them. */
function exportsOf(sources: readonly string[]): Map<string, string[]> {
  const program = ts.createProgram(
    sources.map((source) => join(ROOT, source)),
    {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.esnext.disposable.d.ts'],
      types: [],
      noEmit: true,
      skipLibCheck: true,
    },
  );
  const checker = program.getTypeChecker();
  const found = new Map<string, string[]>();
  for (const source of sources) {
    const file = program.getSourceFile(join(ROOT, source));
    const symbol = file === undefined ? undefined : checker.getSymbolAtLocation(file);
    found.set(source, symbol === undefined ? [] : checker.getExportsOfModule(symbol).map((exported) => exported.name));
  }
  return found;
}

function run(args: readonly string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TYPEDOC, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output: output.replace(/\x1b\[[0-9;]*m/g, '') }));
  });
}

describe('the API reference (TypeDoc)', () => {
  let out: string;
  let result: { code: number | null; output: string };
  /** Page file names, `classes/robotstxt-wasm.RobotsCache.html`, by `<prefix>.<name>`. */
  const pages = new Map<string, string>();

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'robotstxt-api-'));
    result = await run(['--out', out]);
    if (!existsSync(out)) return;
    for (const folder of readdirSync(out, { withFileTypes: true })) {
      if (!folder.isDirectory()) continue;
      for (const page of readdirSync(join(out, folder.name))) {
        if (page.endsWith('.html')) pages.set(page.slice(0, -'.html'.length), join(folder.name, page));
      }
    }
  }, TIMEOUT_MS);

  afterAll(() => {
    if (out !== undefined) rmSync(out, { recursive: true, force: true });
  });

  it('is configured to fail on any warning, undocumented names included', () => {
    expect(config.entryPoints).toEqual(ENTRIES.map((entry) => entry.source));
    expect(config.out).toBe('docs/public/api');
    expect(config.treatWarningsAsErrors).toBe(true);
    expect(config.excludeInternal).toBe(true);
    expect(config.validation).toEqual({ notExported: true, invalidLink: true, notDocumented: true });
  });

  it('builds without a warning', () => {
    expect(result.code, result.output).toBe(0);
    expect(result.output).not.toMatch(/\[warning\]|\[error\]/);
    expect(existsSync(join(out, 'index.html'))).toBe(true);
  });

  it('has a page per entry, named as users import it', () => {
    for (const entry of ENTRIES) expect(pages.get(entry.prefix), entry.module).toBe(`modules/${entry.prefix}.html`);
  });

  it('has a page for every name each entry exports', () => {
    const exported = exportsOf(ENTRIES.map((entry) => entry.source));
    for (const entry of ENTRIES) {
      const names = exported.get(entry.source) ?? [];
      expect(names.length, entry.source).toBeGreaterThan(0);
      const missing = names.filter((name) => !pages.has(`${entry.prefix}.${name}`));
      expect(missing, `${entry.module}: exported names without a page`).toEqual([]);
    }
  });

  it("shows the main calls' examples", () => {
    for (const [module, name] of EXAMPLES) {
      const page = pages.get(`${module.replaceAll('/', '_')}.${name}`);
      expect(page, `${module}: ${name}`).toBeDefined();
      const html = readFileSync(join(out, page!), 'utf8');
      expect(html, `${module}: ${name} has no example`).toMatch(/<h4[^>]*id="example(?:-\d+)?"/);
    }
  });
});
