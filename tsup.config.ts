import { copyFile } from 'node:fs/promises';
import { defineConfig } from 'tsup';

const shared = { target: 'es2022', platform: 'neutral', sourcemap: false } as const;

export default defineConfig([
  {
    ...shared,
    // Node, browsers and bundlers: the matcher's bytes inlined, nothing to locate at run time.
    // robots-parser's drop-in (`robotstxt-wasm/compat/robots-parser`) is an entry of its own; in CommonJS its
    // module.exports is the function itself, as robots-parser's is (cjsInterop).
    entry: { index: 'src/platform/inline.ts', 'robots-parser': 'src/platform/robots-parser.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    cjsInterop: true,
    // cjsInterop needs the CommonJS build to go through tsup's own ESM → CJS step, which splitting selects;
    // the two entries then share one copy of the library in either format.
    splitting: true,
    loader: { '.wasm': 'binary' },
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
