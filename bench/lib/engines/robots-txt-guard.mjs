/**
 * robots-txt-guard: a matcher without a parser, built from groups of rules, asked with the path and query
 * (not the absolute URL). It is given our parser's groups (saved in the workloads), so its "compile" row is
 * its construction alone, and it has no parse or first-verdict row. It has no batch entry: the batch loop
 * calls its single check, writing the same output array.
 */
import { createRequire } from 'node:module';
import { outputProbe, peerVersion } from './engine.mjs';

/**
 * @typedef {import('./engine.mjs').Engine} Engine
 * @typedef {{ isAllowed(userAgent: string, path: string): boolean }} Guard
 * @typedef {(config: { groups: import('../workloads.mjs').GuardGroup[] }) => Guard} GuardFactory
 */

/** @returns {GuardFactory} */
function load() {
  // CommonJS without type declarations: module.exports is the factory, typed by the @returns above.
  return createRequire(import.meta.url)('robots-txt-guard');
}

/** @type {Engine} */
export const guard = {
  impl: 'guard',
  label: `robots-txt-guard ${peerVersion('robots-txt-guard')}`,
  notes: { compile: 'compile only', batch: 'loop' },
  passes: {
    async compile(inputs) {
      const build = load();
      const configs = inputs.workloads.sites.map((site) => site.guard);
      return {
        // Counted in the bytes the other engines parse (the capped bodies), though it reads none of them.
        ops: inputs.workloads.corpus.bytes,
        unit: 'bytes',
        run() {
          let built = 0;
          for (const config of configs) if (build(config)) built++;
          return built;
        },
      };
    },

    async crawler(inputs) {
      const build = load();
      const guards = inputs.workloads.sites.map((site) => build(site.guard));
      const checks = inputs.frontier.map((check) => ({
        guard: /** @type {Guard} */ (guards[check.site]),
        path: check.path,
        agent: check.agent,
      }));
      return {
        ops: checks.length,
        unit: 'checks',
        run() {
          let allowed = 0;
          for (const check of checks) if (check.guard.isAllowed(check.agent, check.path)) allowed++;
          return allowed;
        },
        verdicts: () => Uint8Array.from(checks, (check) => (check.guard.isAllowed(check.agent, check.path) ? 1 : 0)),
      };
    },

    async hot(inputs) {
      const { agent, paths } = inputs.hot;
      const matcher = load()(inputs.site(inputs.workloads.hot.site).guard);
      return {
        ops: paths.length,
        unit: 'checks',
        run() {
          let allowed = 0;
          for (const path of paths) if (matcher.isAllowed(agent, path)) allowed++;
          return allowed;
        },
        verdicts: () => Uint8Array.from(paths, (path) => (matcher.isAllowed(agent, path) ? 1 : 0)),
      };
    },

    async batch(inputs) {
      const { agent, paths } = inputs.hot;
      const matcher = load()(inputs.site(inputs.workloads.hot.site).guard);
      const out = new Uint8Array(paths.length);
      const probe = outputProbe(out);
      return {
        ops: paths.length,
        unit: 'checks',
        run() {
          let i = 0;
          for (const path of paths) out[i++] = matcher.isAllowed(agent, path) ? 1 : 0;
          return probe();
        },
        verdicts: () => Uint8Array.from(paths, (path) => (matcher.isAllowed(agent, path) ? 1 : 0)),
      };
    },
  },
};
