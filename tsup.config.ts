import { copyFile } from 'node:fs/promises';
import { defineConfig } from 'tsup';

const shared = { target: 'es2022', platform: 'neutral', sourcemap: false } as const;

export default defineConfig([
  {
    ...shared,
    // Node, browsers and bundlers: the matcher's bytes inlined, nothing to locate at run time.
    entry: { index: 'src/platform/inline.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    loader: { '.wasm': 'binary' },
  },
  {
    ...shared,
    // Cloudflare Workers: the matcher stays a module of its own, imported from beside the entry.
    entry: { worker: 'src/platform/workers.ts' },
    format: ['esm'],
    external: ['./matcher.wasm'],
    onSuccess: () => copyFile('build/matcher.wasm', 'dist/matcher.wasm'),
  },
]);
