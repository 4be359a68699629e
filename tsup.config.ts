import { copyFile } from 'node:fs/promises';
import { defineConfig } from 'tsup';

const shared = { target: 'es2022', platform: 'neutral', sourcemap: false } as const;
const libraryEntries = { index: 'src/platform/inline.ts', 'robots-parser': 'src/platform/robots-parser.ts' };

/**
 * robots-parser-wasm: the drop-in as a package of its own, whose main entry is the drop-in, so that an override
 * (npm `overrides`, `pnpm.overrides`, yarn `resolutions`) can put it where robots-parser was. It carries its own
 * build of the engine from these sources, so it installs alone (test/package/robots-parser-wasm-package.test.ts).
 */
const dropInPackage = 'packages/robots-parser-wasm';
const dropInEntry = { index: 'src/platform/robots-parser.ts' };

export default defineConfig([
  {
    ...shared,
    // Node, browsers and bundlers: the matcher's bytes inlined, nothing to locate at run time.
    // robots-parser's drop-in (`robotstxt-wasm/compat/robots-parser`) is an entry of its own; in CommonJS its
    // module.exports is the function itself, as robots-parser's is.
    entry: libraryEntries,
    format: ['esm', 'cjs'],
    clean: true,
    // The two entries share one copy of the library in either format: esbuild splits the ESM build, and
    // Rollup (tsup's `treeshake`) renders its chunks as ESM and as CommonJS. Rollup reads scopes, so the
    // CommonJS build means what the ESM build means. tsup's other ESM → CommonJS step (sucrase, which it takes
    // for splitting without treeshake) rewrote a class field named like an export into an assignment to
    // that export, and CommonJS verdicts changed once the WebAssembly lexer loaded. Rollup also renders an
    // entry whose only export is the default as `module.exports = value`, as robots-parser's own module is.
    // test/package/builds.test.ts holds the two builds to one behaviour.
    splitting: true,
    treeshake: true,
    loader: { '.wasm': 'binary' },
  },
  {
    ...shared,
    // The declarations of the same entries. cjsInterop here only makes the drop-in's .d.cts say
    // `export =` (its JavaScript is Rollup's above; tsup's cjsInterop on the JavaScript would append
    // `module.exports = exports.default` after Rollup's `module.exports = robotsParser`, which undoes it).
    entry: libraryEntries,
    format: ['esm', 'cjs'],
    dts: { only: true },
    cjsInterop: true,
  },
  {
    ...shared,
    // Cloudflare Workers: the matcher stays a module of its own, imported from beside the entry.
    entry: { worker: 'src/platform/workers.ts', 'robots-parser-worker': 'src/platform/robots-parser-workers.ts' },
    format: ['esm'],
    external: ['./matcher.wasm'],
    onSuccess: () => copyFile('build/matcher.wasm', 'dist/matcher.wasm'),
  },
  {
    ...shared,
    // robots-parser-wasm for Node, browsers and bundlers. One entry, so no chunks; Rollup (treeshake) renders the
    // CommonJS build as `module.exports = robotsParser`, as robots-parser's own module is.
    entry: dropInEntry,
    outDir: `${dropInPackage}/dist`,
    format: ['esm', 'cjs'],
    clean: true,
    treeshake: true,
    loader: { '.wasm': 'binary' },
  },
  {
    ...shared,
    // Its declarations: cjsInterop makes the .d.cts say `export =`, as above.
    entry: dropInEntry,
    outDir: `${dropInPackage}/dist`,
    format: ['esm', 'cjs'],
    dts: { only: true },
    cjsInterop: true,
  },
  {
    ...shared,
    // robots-parser-wasm for Cloudflare Workers, with the matcher beside it as in the main package; the
    // package's LICENSE is the repository's.
    entry: { worker: 'src/platform/robots-parser-workers.ts' },
    outDir: `${dropInPackage}/dist`,
    format: ['esm'],
    external: ['./matcher.wasm'],
    onSuccess: async () => {
      await copyFile('build/matcher.wasm', `${dropInPackage}/dist/matcher.wasm`);
      await copyFile('LICENSE', `${dropInPackage}/LICENSE`);
    },
  },
  {
    ...shared,
    // Store adapters: entries of their own, for every platform (they import only types and small helpers
    // from the library, so each bundle holds what it uses and shares no state with the main entry).
    entry: { 'cache-api': 'src/store/cache-api.ts', redis: 'src/store/redis.ts' },
    format: ['esm', 'cjs'],
    dts: true,
  },
  {
    ...shared,
    // The `robotstxt` command and its worker threads: Node only, never imported by the library.
    entry: { cli: 'src/cli/main.ts', 'cli-worker': 'src/cli/filter/worker.ts' },
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    loader: { '.wasm': 'binary' },
    banner: { js: '#!/usr/bin/env node' },
    // The package says it has no side effects (true for users of the library), which would let the bundler
    // drop src/cli/library.ts, whose side effect provides the matcher to the command.
    esbuildOptions(options) {
      options.ignoreAnnotations = true;
    },
  },
]);
