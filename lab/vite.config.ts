/**
 * The robots.txt lab: a static page, built into dist/lab/ beside the package's own files (so `robotstxt lab`
 * serves it from where the command is installed) with relative asset URLs, so it works under any path: the
 * command's token prefix, a docs site's folder, a file server. It uses the package as a page does, through its
 * name and the built dist/ (npm run build builds the library before the lab).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { offline } from './offline.js';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [offline()],
  resolve: { alias: { 'robotstxt-wasm': fileURLToPath(new URL('../dist/index.js', import.meta.url)) } },
  build: {
    outDir: fileURLToPath(new URL('../dist/lab/', import.meta.url)),
    emptyOutDir: true,
    // One file per kind: the page is small enough, and fewer requests load faster from a file server.
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    // The page is one script: CodeMirror and the engine, WebAssembly inlined (test/e2e/lab/ bounds its weight).
    chunkSizeWarningLimit: 700,
  },
  logLevel: 'warn',
});
