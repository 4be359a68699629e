/**
 * The engines the benchmark compares, in the report's order: ours first (the WebAssembly matcher users get,
 * then the TypeScript executor of the same bytecode), then the peers, robots-parser followed by our drop-in for it. Importing this loads no engine: each
 * module loads its library inside its passes, so a timing process loads only the engine it times.
 */
import { dropIn, robotsParser } from './robots-parser.mjs';
import { guard } from './robots-txt-guard.mjs';
import { typescript, wasm } from './robotstxt-wasm.mjs';

/** @typedef {import('./engine.mjs').Engine} Engine @typedef {import('./engine.mjs').Impl} Impl */

/** @type {readonly Engine[]} */
export const ENGINES = [wasm, typescript, robotsParser, dropIn, guard];

/** @param {string} impl @returns {Engine} */
export function engineNamed(impl) {
  const engine = ENGINES.find((candidate) => candidate.impl === impl);
  if (engine === undefined) throw new Error(`unknown engine ${impl} (known: ${ENGINES.map((known) => known.impl).join(', ')})`);
  return engine;
}
