/**
 * One step of a benchmark worker (bench/matcher/worker.mjs, or another given as `script`) in a process of its own (each
 * timing runs in a fresh process, so that one engine's JIT state and garbage never weigh on another's), for the
 * orchestrators: bench/matcher/run.mjs, bench/matcher/compare.mjs and bench/cold/run.mjs.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const WORKER = fileURLToPath(new URL('../matcher/worker.mjs', import.meta.url));

/**
 * Runs one worker step and returns its JSON answer (its last line of stdout), typed by the caller.
 * @template T
 * @param {string[]} args
 * @param {{ exposeGc?: boolean, script?: string }} [options] `script`: the worker's path (bench/matcher/worker.mjs by default)
 * @returns {T}
 */
export function step(args, options = {}) {
  const script = options.script ?? WORKER;
  const result = spawnSync(process.execPath, [...(options.exposeGc ? ['--expose-gc'] : []), script, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0)
    throw new Error(`${script} ${args.slice(0, 1).concat(args.slice(2)).join(' ')} failed (exit ${result.status ?? result.signal})`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '');
}
