/**
 * A single check's cost in Node, Bun and Deno (the library claims all three, so a
 * slow runtime must show): bench/runtimes/check.mjs's loop, the same in each,
 * each run in a process of its own, runs interleaved (run 1 in every runtime, then run 2, …) so that a slow
 * spell of the shared machine hits all alike; reports each runtime's median across runs and its ratio to Node's.
 * A runtime that is not installed (harness/other-runtimes.mjs: .ci/tools, then PATH) is left out, and said to be.
 *
 *   node bench/runtimes/run.mjs [--runs N] [--before DIST]
 *
 * --before times a build made before a change too (a built dist/ directory), interleaved with ./dist.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeMachine, machine } from '../lib/machine.mjs';
import { median } from '../lib/median.mjs';
import { RUNTIME_ENV, RUNTIME_NAMES, scriptCommand, TOOLS_BIN, versionOf } from '../../harness/other-runtimes.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LOOP = fileURLToPath(new URL('./check.mjs', import.meta.url));

/** @param {string} name @returns {string | undefined} */
function option(name) {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}

/** @typedef {{ name: string, version: string, command: (dist: string) => string[] }} TimedRuntime */

/** @returns {TimedRuntime[]} Node, then each other runtime found */
function runtimes() {
  /** @type {TimedRuntime[]} */
  const found = [{ name: 'node', version: process.versions.node, command: (dist) => [process.execPath, LOOP, dist] }];
  for (const name of RUNTIME_NAMES) {
    const path = [join(TOOLS_BIN, name), name].find((candidate) => versionOf(name, candidate) !== undefined);
    if (path === undefined) {
      console.log(`${name}: not installed (npm install --prefix .ci/tools --no-save), left out`);
      continue;
    }
    found.push({
      name,
      version: /** @type {string} */ (versionOf(name, path)),
      command: (dist) => scriptCommand(name, path, LOOP, [dist], { read: [dist, ROOT] }),
    });
  }
  return found;
}

/** @typedef {{ nsPerCheck: number, nsPerWrite: Record<string, number | null>, matcher: string }} LoopResult */

/** @param {string[]} command @returns {LoopResult} */
function timeOnce(command) {
  const [file = '', ...args] = command;
  const output = execFileSync(file, args, { encoding: 'utf8', env: { ...process.env, ...RUNTIME_ENV }, timeout: 300_000 });
  /** @type {LoopResult} */
  const result = JSON.parse(output);
  if (result.matcher !== 'wasm') throw new Error(`${command.join(' ')}: the ${result.matcher} matcher answered, not the WebAssembly one`);
  return result;
}

function main() {
  const runs = Number(option('--runs') ?? 7);
  const beforeOption = option('--before');
  /** @type {[string, string][]} */
  const builds = [['after', join(ROOT, 'dist')]];
  if (beforeOption !== undefined) builds.unshift(['before', resolve(beforeOption)]);
  for (const [, dist] of builds) {
    if (!existsSync(join(dist, 'index.js'))) throw new Error(`${dist}: not a built dist/ directory (npm run build)`);
  }
  const timed = runtimes();
  const loadBefore = loadavg()[0] ?? 0;
  /** @type {Map<string, number[]>} checks, by runtime and build */
  const samples = new Map();
  /** @type {Map<string, Map<string, number[]>>} writes alone, by runtime and way (every build's runs: the build does not change them) */
  const writes = new Map();
  for (let run = 0; run < runs; run++) {
    for (const runtime of timed) {
      for (const [build, dist] of builds) {
        const result = timeOnce(runtime.command(dist));
        const key = `${runtime.name} ${build}`;
        samples.set(key, [...(samples.get(key) ?? []), result.nsPerCheck]);
        const byWay = writes.get(runtime.name) ?? new Map();
        writes.set(runtime.name, byWay);
        for (const [way, ns] of Object.entries(result.nsPerWrite)) if (ns !== null) byWay.set(way, [...(byWay.get(way) ?? []), ns]);
      }
    }
  }
  const loadAfter = loadavg()[0] ?? 0;
  console.log(
    `${describeMachine(machine())} · load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after · ${runs} interleaved runs\n`,
  );
  const nodeOf = (/** @type {string} */ build) => median(samples.get(`node ${build}`) ?? []);
  const columns = builds.map(([build]) => build);
  console.log(`| runtime | ${columns.map((build) => `${build}: ns per check | ${build}: ÷ Node`).join(' | ')} |`);
  console.log(`| --- | ${columns.map(() => '---: | ---:').join(' | ')} |`);
  for (const runtime of timed) {
    const cells = columns.map((build) => {
      const ns = median(samples.get(`${runtime.name} ${build}`) ?? []);
      return `${ns.toFixed(0)} | ${(ns / nodeOf(build)).toFixed(2)}×`;
    });
    console.log(`| ${runtime.name} ${runtime.version} | ${cells.join(' | ')} |`);
  }
  const ways = [...new Set([...writes.values()].flatMap((byWay) => [...byWay.keys()]))];
  console.log(`\nWriting the same URLs into a buffer as UTF-8, alone (ns per URL; – where the runtime has no such way):\n`);
  console.log(`| runtime | ${ways.join(' | ')} |`);
  console.log(`| --- | ${ways.map(() => '---:').join(' | ')} |`);
  for (const runtime of timed) {
    const byWay = writes.get(runtime.name);
    const cells = ways.map((way) => {
      const values = byWay?.get(way);
      return values === undefined ? '–' : median(values).toFixed(0);
    });
    console.log(`| ${runtime.name} ${runtime.version} | ${cells.join(' | ')} |`);
  }
  console.log('\nEvery run, in order (ns per check):\n');
  for (const [key, values] of samples) console.log(`- ${key}: ${values.map((ns) => ns.toFixed(0)).join(', ')}`);
}

main();
