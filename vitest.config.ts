import { readFileSync } from 'node:fs';
import { configDefaults, defineConfig, type Plugin } from 'vitest/config';

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

/**
 * The behaviour suites of the public entries (the native API, lint and the robots-parser drop-in), which
 * load the library through test/support/library.ts: every suite under test/behaviour/ runs against the
 * source, and again against each built package as users load it, since a build step can change what the code
 * means (docs/design.md#testing).
 */
const BEHAVIOUR_SUITES = ['test/behaviour/**/*.test.ts'];

/**
 * The behaviour suites again with the TypeScript matcher as their default (test/support/library.ts,
 * ROBOTSTXT_MATCHER), on the source: both matchers answer to the same assertions. Left out: the suites of
 * test/behaviour/default-matcher/, which run with the default matcher alone: the robots-parser drop-in's
 * suite, whose corpus agreement alone takes over a minute with the WebAssembly matcher and asks nothing of the
 * matcher that the differential and corpus suites (test/conformance/) do not hold both matchers to; and
 * bytes-entry.test.ts, every test of which already chooses each matcher in turn.
 */
const MATCHER_SUITES = { include: BEHAVIOUR_SUITES, exclude: [...configDefaults.exclude, 'test/behaviour/default-matcher/**'] };

export default defineConfig({
  plugins: [wasmAsBytes()],
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 60_000,
    // No test process connects anywhere but the loopback interface.
    setupFiles: ['test/support/loopback-only.setup.ts'],
    // The built package is loaded by Node itself, as users load it, not transformed by vitest.
    server: { deps: { external: [/\/dist\//] } },
    projects: [
      { extends: true, test: { name: 'source', include: ['test/**/*.test.ts'] } },
      ...(['esm', 'cjs'] as const).map((build) => ({
        extends: true as const,
        test: { name: build, include: BEHAVIOUR_SUITES, env: { ROBOTSTXT_BUILD: build } },
      })),
      { extends: true, test: { name: 'source-typescript', ...MATCHER_SUITES, env: { ROBOTSTXT_MATCHER: 'typescript' } } },
    ],
  },
});
