/**
 * The library as the behaviour suites load it: the TypeScript source, or a built package through its
 * exports as users load it (`import 'robotstxt-wasm'` for ESM, `require('robotstxt-wasm')` for CommonJS).
 * vitest.config.ts runs the behaviour suites once per build, naming it in ROBOTSTXT_BUILD, so that a build
 * step that changes a meaning (a CommonJS transform once did) fails the same assertions as a bug in
 * the source would.
 *
 * The matcher is the other dimension: ROBOTSTXT_MATCHER=typescript (vitest.config.ts's project
 * source-typescript) makes the TypeScript matcher the suites' default, chosen with setMatcher() before any
 * test runs, so that the same assertions hold it to the same behaviour as the WebAssembly matcher. A test
 * that chooses a matcher itself keeps its choice, and puts back `defaultMatcher` (not 'wasm') when it is done.
 */
import { createRequire } from 'node:module';
import type * as Entry from '../../src/platform/inline.js';
import type * as DropIn from '../../src/platform/robots-parser.js';

export type { AgentRules, BackendKind, LintDiagnostic, ProfileName, RobotsTxt } from '../../src/platform/inline.js';
export type { Robot } from '../../src/platform/robots-parser.js';

export type Build = 'source' | 'esm' | 'cjs';
type Matcher = Entry.BackendKind;

function buildNamed(value: string | undefined): Build {
  if (value === undefined || value === '' || value === 'source') return 'source';
  if (value === 'esm' || value === 'cjs') return value;
  throw new Error(`ROBOTSTXT_BUILD=${value}: expected source, esm or cjs`);
}

/** Which build this run of the suites holds to the assertions. */
export const build: Build = buildNamed(process.env.ROBOTSTXT_BUILD);

function matcherNamed(value: string | undefined): Matcher {
  if (value === undefined || value === '' || value === 'wasm') return 'wasm';
  if (value === 'typescript') return value;
  throw new Error(`ROBOTSTXT_MATCHER=${value}: expected wasm or typescript`);
}

/** The matcher this run of the suites holds to the assertions: what compiles unless a test chooses. */
export const defaultMatcher: Matcher = matcherNamed(process.env.ROBOTSTXT_MATCHER);

type DropInFunction = typeof DropIn.default;

async function load(): Promise<{ entry: typeof Entry; dropIn: DropInFunction }> {
  if (build === 'cjs') {
    const require = createRequire(import.meta.url);
    return {
      entry: require('robotstxt-wasm') as typeof Entry,
      dropIn: require('robotstxt-wasm/compat/robots-parser') as DropInFunction,
    };
  }
  if (build === 'esm') {
    return {
      entry: (await import('robotstxt-wasm')) as unknown as typeof Entry,
      dropIn: ((await import('robotstxt-wasm/compat/robots-parser')) as unknown as typeof DropIn).default,
    };
  }
  return { entry: await import('../../src/platform/inline.js'), dropIn: (await import('../../src/platform/robots-parser.js')).default };
}

const { entry, dropIn } = await load();
// A silent fallback would hold the wrong matcher to every assertion.
const chosen = entry.setMatcher(defaultMatcher);
if (chosen !== defaultMatcher) throw new Error(`ROBOTSTXT_MATCHER=${defaultMatcher}, but setMatcher() gave ${chosen}`);

export const {
  DEFAULT_LINT_MAX_BYTES,
  DEFAULT_MAX_BYTES,
  init,
  LINT_CODES,
  lintRobotsTxt,
  matcherInfo,
  parseRobotsTxt,
  RobotsCache,
  RobotsCacheDisposedError,
  RulesDisposedError,
  setMatcher,
} = entry;

/** The class's instance type, as `import { RobotsCache }` gives it. */
export type RobotsCache = Entry.RobotsCache;

/** `robotstxt-wasm/compat/robots-parser`: robots-parser's function. */
export const robotsParser: DropInFunction = dropIn;
