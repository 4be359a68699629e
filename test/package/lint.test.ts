/**
 * Both packages as npm would publish them, linted as a registry reviewer lints them: each is packed into a
 * tarball (as `npm publish` packs it, from the dist/ that `npm test` built), then
 * - publint (strict: its warnings count as errors) reads the tarball's package.json against the files it holds;
 * - Are the Types Wrong (`attw`, its CLI) resolves every entry of the exports map in TypeScript's four ways
 *   (node10, node16 from CommonJS, node16 from ESM, bundler) and must find types for each, and no problem;
 * - a CommonJS consumer with TypeScript's default resolution (node10, which reads no exports map) compiles
 *   against the unpacked packages, every entry named;
 * - the declarations hold nothing marked `@internal` (tsconfig.json's stripInternal);
 * - the root entry's values are the public API, and the internal ones it exported in 0.1, kept for a release,
 *   are marked deprecated where an editor shows it (src/deprecated.ts).
 * Offline: nothing here asks a registry (`--no-definitely-typed`: no @types package is looked up).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { publint } from 'publint';
import ts from 'typescript';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_LIMITS } from '../../src/cache/cache-policy.js';
import { MAX_REDIRECTS } from '../../src/fetch/fetch-robots.js';
import { MAX_LINE_BYTES } from '../../src/parse/lines.js';
import { DROP_IN_PACKAGE, packPackage, ROOT, unpackAs, type PackedDropIn } from '../support/drop-in-package.js';

const execFileAsync = promisify(execFile);

const REPOSITORY = 'https://github.com/robotstxt-wasm/robotstxt-wasm';

interface Subject {
  /** The package's name, as users install it. */
  readonly name: string;
  /** Its folder in the repository. */
  readonly folder: string;
  /** The entries of its exports map that resolve to code (package.json aside). */
  readonly entries: readonly string[];
}

const SUBJECTS: readonly Subject[] = [
  { name: 'robotstxt-wasm', folder: ROOT, entries: ['.', './compat/robots-parser', './cache-api', './redis'] },
  { name: 'robots-parser-wasm', folder: DROP_IN_PACKAGE, entries: ['.'] },
];

const RESOLUTION_KINDS = ['node10', 'node16-cjs', 'node16-esm', 'bundler'] as const;

/** The members marked @internal in the source, which must not reach a user's editor. */
const INTERNAL_MEMBERS = ['rebuildTableFrom', 'signedLineOf', 'loadedRuleset', 'ruleTableFor', 'compileAll', 'compiledRulesets'];

let scratch: string;
/** A folder whose node_modules holds both packages, unpacked from their tarballs. */
let consumer: string;
const packed = new Map<string, PackedDropIn>();

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'robotstxt-package-lint-'));
  consumer = join(scratch, 'consumer');
  for (const subject of SUBJECTS) {
    const pack = await packPackage(subject.folder, scratch);
    packed.set(subject.name, pack);
    await unpackAs(pack.tarball, consumer, subject.name);
  }
  // npm pack starts npm twice: seconds on a loaded machine.
}, 120_000);

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

function tarballOf(subject: Subject): string {
  const pack = packed.get(subject.name);
  if (pack === undefined) throw new Error(`${subject.name} was not packed`);
  return pack.tarball;
}

interface AttwResolution {
  readonly resolution?: { readonly fileName: string; readonly isTypeScript: boolean };
}
interface AttwReport {
  readonly analysis: {
    readonly types: { readonly kind: string } | false;
    readonly entrypoints: Record<string, { readonly resolutions: Record<string, AttwResolution> }>;
    readonly problems: readonly { readonly kind: string; readonly entrypoint?: string; readonly resolutionKind?: string }[];
  };
}

/** Runs attw's CLI on a tarball and returns its JSON report (it exits 1 when it finds a problem). */
async function attw(tarball: string): Promise<{ exitCode: number; report: AttwReport }> {
  const cli = join(ROOT, 'node_modules/@arethetypeswrong/cli/dist/index.js');
  const args = [cli, tarball, '--format', 'json', '--no-definitely-typed', '--profile', 'strict'];
  // attw reads an .attw.json from its working folder: the scratch folder has none, so its defaults apply.
  const options = { cwd: scratch, maxBuffer: 64 * 1024 * 1024 };
  try {
    const { stdout } = await execFileAsync(process.execPath, args, options);
    return { exitCode: 0, report: JSON.parse(stdout) as AttwReport };
  } catch (error) {
    const { code, stdout } = error as { code?: number; stdout?: string };
    if (typeof code !== 'number' || stdout === undefined || stdout === '') throw error;
    return { exitCode: code, report: JSON.parse(stdout) as AttwReport };
  }
}

describe.each(SUBJECTS)('$name, packed', (subject) => {
  it('passes publint in strict mode: no error, warning or suggestion', async () => {
    const bytes = await readFile(tarballOf(subject));
    const tarball = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const { messages, pkg } = await publint({ pack: { tarball }, strict: true });
    expect(messages.map((message) => `${message.type} ${message.code}: ${formatMessage(message, pkg) ?? ''}`)).toEqual([]);
  });

  // attw loads TypeScript and resolves every entry four ways: tens of seconds on a loaded machine.
  it('passes attw: every entry has types in node10, node16 (CommonJS and ESM) and bundler resolution', { timeout: 180_000 }, async () => {
    const { exitCode, report } = await attw(tarballOf(subject));
    expect(report.analysis.problems).toEqual([]);
    expect(exitCode).toBe(0);
    expect(report.analysis.types).toEqual({ kind: 'included' });
    const { entrypoints } = report.analysis;
    expect(Object.keys(entrypoints).sort()).toEqual([...subject.entries, './package.json'].sort());
    for (const entry of subject.entries) {
      for (const kind of RESOLUTION_KINDS) {
        const resolution = entrypoints[entry]?.resolutions[kind]?.resolution;
        expect({ entry, kind, types: resolution?.isTypeScript === true && /\.d\.c?ts$/.test(resolution.fileName) }).toEqual({
          entry,
          kind,
          types: true,
        });
      }
    }
  });

  it('ships no @internal member in its declarations', async () => {
    const root = join(consumer, 'node_modules', subject.name);
    const declarations = (await readdir(join(root, 'dist'))).filter((file) => /\.d\.c?ts$/.test(file));
    expect(declarations.length).toBeGreaterThan(0);
    for (const file of declarations) {
      const text = await readFile(join(root, 'dist', file), 'utf8');
      expect(text, file).not.toContain('@internal');
      for (const name of INTERNAL_MEMBERS) expect(text, `${file}: ${name}`).not.toMatch(new RegExp(`\\b${name}\\b`));
      // `index` is also a word of the comments: the member is a method declaration.
      expect(text, `${file}: index()`).not.toMatch(/^\s*index\(\): void;/m);
    }
  });

  it("names its repository, so that the registry's page sends the README's relative links there", async () => {
    const manifest = JSON.parse(await readFile(join(subject.folder, 'package.json'), 'utf8')) as Record<string, unknown>;
    const directory = relative(ROOT, subject.folder).replaceAll('\\', '/');
    expect(manifest.repository).toEqual({
      type: 'git',
      url: `git+${REPOSITORY}.git`,
      ...(directory === '' ? {} : { directory }),
    });
    expect(manifest.homepage).toBe(directory === '' ? `${REPOSITORY}#readme` : `${REPOSITORY}/tree/main/${directory}#readme`);
    expect(manifest.bugs).toBe(`${REPOSITORY}/issues`);
    expect(manifest.keywords).toEqual(expect.arrayContaining(['robots.txt', 'rfc9309', 'webassembly']));
    expect(Array.isArray(manifest.files)).toBe(true);
    // A relative link the registry rewrites must lead to something in the repository.
    const readme = await readFile(join(subject.folder, 'README.md'), 'utf8');
    for (const [, target] of readme.matchAll(/\]\((?!https?:|mailto:|#)([^)\s#]+)(?:#[^)]*)?\)/g)) {
      expect(existsSync(join(subject.folder, decodeURI(target ?? ''))), `README.md links ${target}`).toBe(true);
    }
  });
});

describe("a CommonJS consumer with TypeScript's default resolution (node10)", () => {
  it('finds the types of every entry of both packages', { timeout: 180_000 }, async () => {
    const source = [
      "import { parseRobotsTxt, RobotsCache } from 'robotstxt-wasm';",
      "import robotsParser = require('robotstxt-wasm/compat/robots-parser');",
      "import { cacheApiStore } from 'robotstxt-wasm/cache-api';",
      "import { redisStore } from 'robotstxt-wasm/redis';",
      "import dropIn = require('robots-parser-wasm');",
      '',
      "const allowed: boolean = parseRobotsTxt('User-agent: *\\nDisallow: /private/\\n').isAllowed('https://example.com/', 'ExampleBot');",
      "const viaParser: boolean | undefined = robotsParser('https://example.com/robots.txt', '').isAllowed('https://example.com/');",
      "const viaDropIn: boolean | undefined = dropIn('https://example.com/robots.txt', '').isAllowed('https://example.com/');",
      'export const used = [allowed, viaParser, viaDropIn, RobotsCache, cacheApiStore, redisStore];',
      '',
    ].join('\n');
    const config = {
      compilerOptions: {
        target: 'ES2022',
        module: 'commonjs',
        moduleResolution: 'node10',
        lib: ['es2022'],
        types: [],
        strict: true,
        skipLibCheck: false,
        noEmit: true,
      },
      files: ['consumer.ts'],
    };
    await writeFile(join(consumer, 'consumer.ts'), source);
    await writeFile(join(consumer, 'tsconfig.json'), JSON.stringify(config));
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const run = execFileAsync(process.execPath, [tsc, '-p', join(consumer, 'tsconfig.json')], { cwd: dirname(consumer) });
    await expect(
      run.then(
        () => 'compiled',
        (error: { stdout?: string }) => error.stdout ?? String(error),
      ),
    ).resolves.toBe('compiled');
  });
});

/** The values of the root entry: its public API, then what it keeps for one release (src/deprecated.ts). */
const PUBLIC_VALUES = [
  'AgentRules',
  'DEFAULT_LINT_MAX_BYTES',
  'DEFAULT_MAX_BYTES',
  'HostRefusedError',
  'LINT_CODES',
  'RobotsCache',
  'RobotsCacheDisposedError',
  'RobotsTxt',
  'RulesDisposedError',
  'fetchRobotsTxt',
  'init',
  'isPublicAddress',
  'isUserAgentHeader',
  'lintRobotsTxt',
  'matcherInfo',
  'parseRobotsTxt',
  'productToken',
  'productTokens',
  'publicHostsOnly',
  'robotsLocation',
  'setMatcher',
];
const DEPRECATED_VALUES = { CACHE_LIMITS, MAX_LINE_BYTES, MAX_REDIRECTS };

describe('the root entry, packed', () => {
  it('offers the public API, and the internal bounds of 0.1 for one more release with the same values', () => {
    const entry = createRequire(join(consumer, 'index.js'))('robotstxt-wasm') as Record<string, unknown>;
    expect(Object.keys(entry).sort()).toEqual([...PUBLIC_VALUES, ...Object.keys(DEPRECATED_VALUES)].sort());
    for (const [name, value] of Object.entries(DEPRECATED_VALUES)) expect(entry[name], name).toEqual(value);
  });

  it('marks those bounds deprecated, so that an editor strikes them through and says what to do', () => {
    const file = join(consumer, 'uses-deprecated.ts');
    const source = `import { CACHE_LIMITS, MAX_LINE_BYTES, MAX_REDIRECTS, parseRobotsTxt } from 'robotstxt-wasm';\nvoid [CACHE_LIMITS, MAX_LINE_BYTES, MAX_REDIRECTS, parseRobotsTxt];\n`;
    const read = (path: string): string | undefined => (path === file ? source : ts.sys.readFile(path));
    const service = ts.createLanguageService({
      getScriptFileNames: () => [file],
      getScriptVersion: () => '1',
      getScriptSnapshot: (path) => {
        const text = read(path);
        return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
      },
      getCurrentDirectory: () => consumer,
      getCompilationSettings: () => ({ module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, types: [] }),
      getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
      fileExists: (path) => path === file || ts.sys.fileExists(path),
      readFile: read,
    });
    const deprecated = service
      .getSuggestionDiagnostics(file)
      .filter((diagnostic) => diagnostic.reportsDeprecated === true)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '));
    expect([...new Set(deprecated)].sort()).toEqual(Object.keys(DEPRECATED_VALUES).map((name) => `'${name}' is deprecated.`));
    const info = service.getQuickInfoAtPosition(file, source.indexOf('CACHE_LIMITS'));
    expect(
      info?.tags
        ?.find((tag) => tag.name === 'deprecated')
        ?.text?.map((part) => part.text)
        .join(''),
    ).toMatch(/^since 0\.2: internal, will be removed in 0\.3\./);
  });
});
