/**
 * robots-parser-wasm: robots-parser's drop-in as a package of its own, whose main entry is the
 * drop-in, so that an override (npm `overrides`, `pnpm.overrides`, yarn `resolutions`) can put it where
 * robots-parser was. Tested from its packed tarball, unpacked into a folder that holds nothing else: it must
 * install alone (robotstxt-wasm is not published), load as robots-parser loads in ESM and CommonJS, type-check
 * for both, and give Workers their own build through the `workerd` and `worker` conditions.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DROP_IN_PACKAGE, ROOT, packDropIn, unpackAs, type PackedDropIn } from '../support/drop-in-package.js';

const execFileAsync = promisify(execFile);

interface PackageManifest {
  name: string;
  version: string;
  main?: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  exports: Record<string, string | Record<string, { types: string; default: string }>>;
}

const readManifest = async (path: string): Promise<PackageManifest> => JSON.parse(await readFile(path, 'utf8')) as PackageManifest;

const ROBOTS = 'User-agent: *\nDisallow: /private/\nAllow: /private/open\nSitemap: https://example.com/map.xml\n';

/** What each way of loading must answer, computed in the child process by `robotsParser`. */
const ASK = `
const robots = robotsParser('https://example.com/robots.txt', ${JSON.stringify(ROBOTS)});
const answers = {
  type: typeof robotsParser,
  allowed: ['/private/x', '/private/open', '/public'].map((path) => robots.isAllowed('https://example.com' + path, 'ExampleBot')),
  otherOrigin: String(robots.isAllowed('https://other.example/private/x')),
  line: robots.getMatchingLineNumber('https://example.com/private/x'),
  sitemaps: robots.getSitemaps(),
};
`;
const EXPECTED = {
  type: 'function',
  allowed: [false, true, true],
  otherOrigin: 'undefined',
  line: 2,
  sitemaps: ['https://example.com/map.xml'],
};

let packed: PackedDropIn;
let scratch: string;
/** A folder whose node_modules holds robots-parser-wasm alone, under its own name and as `robots-parser`. */
let fixture: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'robots-parser-wasm-'));
  packed = await packDropIn(scratch);
  fixture = join(scratch, 'user');
  await unpackAs(packed.tarball, fixture, 'robots-parser-wasm');
  await unpackAs(packed.tarball, fixture, 'robots-parser');
  // npm pack starts npm: seconds on a loaded machine.
}, 60_000);

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** Runs `script` with Node in the fixture folder, as `type` (`module` or `commonjs`), and parses what it prints. */
async function runInFixture(type: 'module' | 'commonjs', script: string, nodeOptions: string[] = []): Promise<unknown> {
  const { stdout } = await execFileAsync(process.execPath, [...nodeOptions, '--input-type', type, '-e', script], { cwd: fixture });
  return JSON.parse(stdout) as unknown;
}

describe('robots-parser-wasm, the drop-in as a package', () => {
  it('is versioned with robotstxt-wasm, depends on nothing, and its main entry is the drop-in', async () => {
    const own = await readManifest(join(DROP_IN_PACKAGE, 'package.json'));
    const root = await readManifest(join(ROOT, 'package.json'));
    expect(own.name).toBe('robots-parser-wasm');
    expect(own.version).toBe(root.version);
    expect(own.dependencies).toBeUndefined();
    expect(own.peerDependencies).toBeUndefined();
    expect(own.main).toBe('./dist/index.cjs');
    expect(Object.keys(own.exports)).toEqual(['.', './package.json']);
    const conditions = own.exports['.'] as Record<string, { types: string; default: string }>;
    expect(Object.keys(conditions)).toEqual(['workerd', 'worker', 'import', 'require']);
    expect(conditions.workerd).toEqual(conditions.worker);
    expect(conditions.workerd?.default).toBe('./dist/worker.js');
  });

  it('packs its build, LICENSE and README, nothing else; packing it builds it first (npm run pack:robots-parser-wasm)', async () => {
    const own = (await readManifest(join(DROP_IN_PACKAGE, 'package.json'))) as PackageManifest & { scripts: Record<string, string> };
    const root = (await readManifest(join(ROOT, 'package.json'))) as PackageManifest & { scripts: Record<string, string> };
    expect(own.scripts.prepack).toBe('npm run build --prefix ../..');
    expect(root.scripts['pack:robots-parser-wasm']).toBe('npm pack ./packages/robots-parser-wasm');
    expect([...packed.files].sort()).toEqual(
      [
        'LICENSE',
        'README.md',
        'package.json',
        'dist/index.js',
        'dist/index.cjs',
        'dist/index.d.ts',
        'dist/index.d.cts',
        'dist/worker.js',
        'dist/matcher.wasm',
      ].sort(),
    );
  });

  it('installs alone: an ES module import gives the drop-in as the default export', async () => {
    const script = `import robotsParser from 'robots-parser-wasm';\n${ASK}\nconsole.log(JSON.stringify({ ...answers, file: import.meta.resolve('robots-parser-wasm') }));`;
    expect(await runInFixture('module', script)).toEqual({
      ...EXPECTED,
      file: expect.stringMatching(/\/node_modules\/robots-parser-wasm\/dist\/index\.js$/) as unknown,
    });
  });

  it('installs alone: require() gives the function itself, as robots-parser does', async () => {
    const script = `const robotsParser = require('robots-parser-wasm');\n${ASK}\nconsole.log(JSON.stringify({ ...answers, file: require.resolve('robots-parser-wasm') }));`;
    expect(await runInFixture('commonjs', script)).toEqual({
      ...EXPECTED,
      file: expect.stringMatching(/\/node_modules\/robots-parser-wasm\/dist\/index\.cjs$/) as unknown,
    });
  });

  it("under robots-parser's name, as an override installs it, require('robots-parser') is the drop-in and says so", async () => {
    const script = `const robotsParser = require('robots-parser');\n${ASK}\nconsole.log(JSON.stringify({ ...answers, name: require('robots-parser/package.json').name }));`;
    expect(await runInFixture('commonjs', script)).toEqual({ ...EXPECTED, name: 'robots-parser-wasm' });
  });

  it('its types compile for ES module and CommonJS consumers (NodeNext, Node10) and for bundlers', async () => {
    const use =
      "const robots: Robot = robotsParser('https://example.com/robots.txt', 'User-agent: *');\nconst allowed: boolean | undefined = robots.isAllowed('https://example.com/x', 'ExampleBot');\nexport { allowed };\n";
    await writeFile(join(fixture, 'consumer.mts'), `import robotsParser, { type Robot } from 'robots-parser-wasm';\n${use}`);
    await writeFile(
      join(fixture, 'consumer.cts'),
      `import robotsParser = require('robots-parser-wasm');\ntype Robot = robotsParser.Robot;\n${use}`,
    );
    // Under robots-parser's name, as code written for robots-parser imports it.
    await writeFile(join(fixture, 'bundler.ts'), `import robotsParser, { type Robot } from 'robots-parser';\n${use}`);
    await writeFile(
      join(fixture, 'node10.ts'),
      `import robotsParser from 'robots-parser';\nimport type { Robot } from 'robots-parser';\n${use}`,
    );
    const options = { strict: true, noEmit: true, skipLibCheck: false, types: [], lib: ['es2022'], target: 'ES2022' };
    const configs = {
      'tsconfig.nodenext.json': {
        compilerOptions: { ...options, module: 'NodeNext', moduleResolution: 'NodeNext' },
        files: ['consumer.mts', 'consumer.cts'],
      },
      'tsconfig.bundler.json': { compilerOptions: { ...options, module: 'ESNext', moduleResolution: 'Bundler' }, files: ['bundler.ts'] },
      // No exports map read: the top-level `types`, with esModuleInterop as robots-parser's CommonJS users have it.
      'tsconfig.node10.json': {
        compilerOptions: { ...options, module: 'CommonJS', moduleResolution: 'Node10', esModuleInterop: true },
        files: ['node10.ts'],
      },
    };
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    for (const [file, config] of Object.entries(configs)) {
      await writeFile(join(fixture, file), JSON.stringify(config));
      const run = execFileAsync(process.execPath, [tsc, '-p', join(fixture, file)], { cwd: fixture });
      await expect(
        run.then(
          () => 'compiled',
          (error: { stdout?: string }) => error.stdout ?? String(error),
        ),
        file,
      ).resolves.toBe('compiled');
    }
  });

  it('its declarations point at nothing outside the package: RFC sections and public URLs only', async () => {
    for (const file of ['dist/index.d.ts', 'dist/index.d.cts']) {
      const declarations = await readFile(join(fixture, 'node_modules/robots-parser-wasm', file), 'utf8');
      expect(declarations, file).not.toMatch(/\b00\d_[0-9a-f]+\.txt|DESIGN\.md|\.\.\/shared|\bspec:|issue #\d/);
    }
  });

  it('the workerd and worker conditions resolve to the Workers build, which answers inside workerd', async () => {
    for (const condition of ['workerd', 'worker']) {
      const script = `console.log(JSON.stringify(import.meta.resolve('robots-parser-wasm')));`;
      expect(await runInFixture('module', script, ['--conditions', condition]), condition).toMatch(
        /\/node_modules\/robots-parser-wasm\/dist\/worker\.js$/,
      );
    }
    await writeFile(
      join(fixture, 'worker.js'),
      `import robotsParser from './node_modules/robots-parser-wasm/dist/worker.js';\nexport default { fetch() {\n${ASK}\nreturn Response.json(answers);\n} };\n`,
    );
    const miniflare = new Miniflare({
      modules: true,
      scriptPath: join(fixture, 'worker.js'),
      modulesRoot: fixture,
      modulesRules: [
        { type: 'CompiledWasm', include: ['**/*.wasm'] },
        { type: 'ESModule', include: ['**/*.js'] },
      ],
      compatibilityDate: '2025-06-01',
    });
    try {
      const response = await miniflare.dispatchFetch('http://worker.test/');
      expect(await response.json()).toEqual(EXPECTED);
    } finally {
      await miniflare.dispose();
    }
  });
});
