/**
 * What an engine module gives the benchmark: one pass per workload it can run, every engine the same loop
 * shape, so that the rows of the report compare like with like. A pass is built before timing (inputs made,
 * rules compiled where the workload asks for compiled rules) and its `run` is what is timed. Each engine's
 * loops are written out in its own module, not through a shared helper taking a callback, so that all are
 * equally tight.
 *
 * The workloads, in the report's order:
 * - `parse`: the whole corpus parsed, nothing compiled (bytes/s).
 * - `compile`: the whole corpus parsed and compiled for Googlebot, then dropped (bytes/s).
 * - `first`: the typical file's bytes → its first verdict: parse, compile for one agent, one check (files/s).
 * - `crawler`: the crawler mix, every site compiled up front for both agents; one single check per URL.
 * - `hot`: one hot site (hundreds of rules), one agent, its URLs one single check each.
 * - `hot-utf8`: the same single checks on the URLs as UTF-8 bytes, one buffer of lines (the single check on bytes).
 * - `batch-bytes`: the hot site's URLs in one batch, as UTF-8 bytes with ranges (the bytes entry).
 * - `batch`: the hot site's URLs in one batch of strings.
 */
import { readFileSync } from 'node:fs';

/**
 * @typedef {(typeof WORKLOADS)[number]} Workload
 * @typedef {'wasm' | 'typescript' | 'robots-parser' | 'drop-in' | 'guard'} Impl
 * @typedef {import('../inputs.mjs').Inputs} Inputs
 */
/**
 * A timed pass: `run` does `ops` units of work (checks, bytes parsed, or files taken to a first verdict) and
 * returns a number that depends on all of them, so that no optimiser can skip any; `verdicts` (check
 * workloads) gives what it decided, 1 allowed, 0 disallowed, 2 for an answer that is neither.
 * `warmup`: passes run before timing until the engine's steady state (ours: every ruleset in its last tier),
 * and what that took.
 * @typedef {{ passes: number, checks: number, ms: number }} Warmup
 * @typedef {{ run: () => number, ops: number, unit: 'checks' | 'bytes' | 'files', verdicts?: () => Uint8Array, warmup?: Warmup }} Pass
 */
/**
 * @typedef {{
 *   impl: Impl,
 *   label: string,
 *   passes: Partial<Record<Workload, (inputs: Inputs) => Promise<Pass>>>,
 *   sameAs?: Partial<Record<Workload, Workload>>,
 *   notes?: Partial<Record<Workload, string>>,
 * }} Engine
 * `sameAs`: a workload this engine does not run apart because another of its passes already does that work
 * (robots-parser's parse builds everything its checks use: its parse is its parse + compile).
 * `notes`: a few words shown beside the engine's figure, where its loop differs from ours.
 */

export const WORKLOADS = /** @type {const} */ (['parse', 'compile', 'first', 'crawler', 'hot', 'hot-utf8', 'batch-bytes', 'batch']);

/**
 * A batch pass's output read once per pass: it keeps the batch observable without timing a second pass over it.
 * @param {Uint8Array} out
 * @returns {() => number}
 */
export function outputProbe(out) {
  let next = 0;
  return () => /** @type {number} */ (out[(next = (next + 1) % out.length)]);
}

/** The installed version of a peer, for its label. @param {string} name @returns {string} */
export function peerVersion(name) {
  try {
    const manifest = readFileSync(new URL(`../../../node_modules/${name}/package.json`, import.meta.url), 'utf8');
    return /** @type {{ version: string }} */ (JSON.parse(manifest)).version;
  } catch {
    return '?';
  }
}
