import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/platform/inline.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  target: 'es2022',
  platform: 'neutral',
  loader: { '.wasm': 'binary' },
  sourcemap: false,
});
