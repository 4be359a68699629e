import { readFileSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vitest/config';

/** Loads `*.wasm` imports as their bytes, as the bundle does (tsup's binary loader). */
function wasmAsBytes(): Plugin {
  return {
    name: 'wasm-as-bytes',
    enforce: 'pre',
    load(id) {
      if (!id.endsWith('.wasm')) return null;
      const base64 = readFileSync(id).toString('base64');
      return `export default Uint8Array.from(atob(${JSON.stringify(base64)}), (c) => c.charCodeAt(0));`;
    },
  };
}

export default defineConfig({
  plugins: [wasmAsBytes()],
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 60_000,
  },
});
