/**
 * Our engine's memory, in two worker steps (bench/matcher/worker.mjs; both need `node --expose-gc`): what compiling
 * the whole corpus costs against the size of the rules' text, and whether single checks make garbage.
 */
import { PerformanceObserver, constants as perfConstants } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { compiledNow, loadLibrary } from '../lib/engines/robotstxt-wasm.mjs';
import { Inputs } from '../lib/inputs.mjs';
import { CRAWLER_AGENTS } from '../lib/workloads.mjs';

/**
 * What the steps answer.
 * @typedef {{ before: number, after: number, disposed: number }} Phases
 * @typedef {{ impl: 'wasm' | 'typescript', agents: number, rules: number, ruleTextBytes: number, rulesetBytes: number, wasm: Phases, heapUsed: Phases, arrayBuffers: Phases }} Memory
 * @typedef {{ calls: number, seconds: number, minor: number, major: number, other: number, heapDelta: number, perSecond: number, sink: number }} Collections
 * @typedef {{ count: number, urls: number, asciiUrls: number, control: Collections, checks: Collections, asciiChecks?: Collections }} Alloc
 */

/** @returns {() => void} */
function exposedGc() {
  if (typeof globalThis.gc !== 'function') throw new Error('run this step with node --expose-gc');
  return globalThis.gc;
}

/** Collected twice: a first pass can leave objects that only a second finds unreachable. */
async function settle() {
  const gc = exposedGc();
  gc();
  await sleep(10);
  gc();
}

/**
 * What compiling the whole corpus for every agent of the crawler mix costs, in WebAssembly memory and JS heap,
 * against the size of the rules' text (every agent's counted); and whether disposing gives the WebAssembly
 * memory back. Rules compiled to the same bytes share one block (src/engine/residency.ts): WebAssembly memory
 * holds the distinct ones, while `rulesetBytes` adds up every agent's as if none were shared.
 * @param {string} dir @param {'wasm' | 'typescript'} impl @returns {Promise<Memory>}
 */
export async function memory(dir, impl) {
  exposedGc();
  const { parseRobotsTxt, matcherInfo } = await loadLibrary(dir, impl);
  // The bodies are read before the baseline; each file is parsed, compiled for every agent and let go, as a
  // crawler that keeps compiled rules does: what is measured is what the compiled agents hold (a file asked for
  // a second agent keeps its whole parse while it lives, which is not the rules' cost).
  const bodies = new Inputs(dir).bodies;
  await settle();
  const before = { wasm: matcherInfo().wasmBytesInUse, ...process.memoryUsage() };
  const compiled = bodies.flatMap((body) => {
    const robots = parseRobotsTxt(body);
    return CRAWLER_AGENTS.map((agent) => compiledNow(robots.forAgent(agent)));
  });
  await settle();
  const after = { wasm: matcherInfo().wasmBytesInUse, ...process.memoryUsage() };
  // Read after the measurement: `rules` builds fresh objects.
  let ruleTextBytes = 0;
  let rules = 0;
  let rulesetBytes = 0;
  for (const agentRules of compiled) {
    rulesetBytes += agentRules.byteLength;
    for (const rule of agentRules.rules) {
      rules++;
      // The rule's line as written, `Disallow: /x` (the key's case aside): what a reader would call its text.
      ruleTextBytes += rule.kind.length + 2 + Buffer.byteLength(rule.pattern);
    }
  }
  // Agents no group names share one compile of a file: disposed once each is enough, and twice is harmless.
  for (const agentRules of compiled) agentRules.dispose();
  const agents = compiled.length;
  compiled.length = 0;
  await settle();
  const disposed = { wasm: matcherInfo().wasmBytesInUse, ...process.memoryUsage() };
  return {
    impl,
    agents,
    rules,
    ruleTextBytes,
    rulesetBytes,
    wasm: { before: before.wasm, after: after.wasm, disposed: disposed.wasm },
    heapUsed: { before: before.heapUsed, after: after.heapUsed, disposed: disposed.heapUsed },
    arrayBuffers: { before: before.arrayBuffers, after: after.arrayBuffers, disposed: disposed.arrayBuffers },
  };
}

/**
 * Counts garbage collections, by kind, and the heap's growth over calls of `check`, cycling through `urls`:
 * `count` calls, or as many as fit in `seconds` (the control loop runs as long as the checks did, so that
 * collections V8 starts on a timer fall in both alike).
 * @param {string[]} urls
 * @param {(url: string) => boolean} check
 * @param {{ count: number } | { seconds: number }} until
 * @returns {Promise<Collections>}
 */
async function gcsDuring(urls, check, until) {
  await settle();
  await sleep(20);
  const kinds = { minor: 0, major: 0, other: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      // `detail` (Node ≥ 16) is missing from this @types/node's PerformanceEntry.
      const kind = /** @type {{ detail?: { kind?: number } }} */ (/** @type {unknown} */ (entry)).detail?.kind;
      // Scavenges are what allocating on a hot path causes first; the rest are counted apart.
      if (kind === perfConstants.NODE_PERFORMANCE_GC_MINOR) kinds.minor++;
      else if (kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) kinds.major++;
      else kinds.other++;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const deadline = 'seconds' in until ? started + until.seconds * 1000 : Infinity;
  const count = 'count' in until ? until.count : Infinity;
  let sink = 0;
  let i = 0;
  let done = 0;
  while (done < count) {
    if (check(/** @type {string} */ (urls[i]))) sink++;
    if (++i === urls.length) i = 0;
    // Reading the clock is not free: only every 65,536 calls, and only when a duration is the limit.
    if ((++done & 0xffff) === 0 && performance.now() >= deadline) break;
  }
  const seconds = (performance.now() - started) / 1000;
  const heapAfter = process.memoryUsage().heapUsed;
  // GC entries are delivered asynchronously: give them a moment to arrive before counting.
  await sleep(100);
  observer.disconnect();
  return { calls: done, seconds, ...kinds, heapDelta: heapAfter - heapBefore, perSecond: done / seconds, sink };
}

/**
 * Garbage collections during `count` single checks on the hot site (WebAssembly matcher), against a control
 * loop that walks the same URLs for as long without checking (what the harness and V8's own timers cause).
 * If the checks scavenge more than the control, the ASCII-only URLs are run alone, to show whether non-ASCII
 * URLs (which go through TextEncoder) are the cause.
 * @param {string} dir @param {number} count @returns {Promise<Alloc>}
 */
export async function alloc(dir, count) {
  exposedGc();
  const { parseRobotsTxt } = await loadLibrary(dir, 'wasm');
  // Made once, before counting: the strings a crawler already holds.
  const { body, agent, urls } = new Inputs(dir).hot;
  const rules = parseRobotsTxt(body).forAgent(agent);
  const ascii = urls.filter((url) => /^[\x00-\x7f]*$/.test(url));
  for (let i = 0; i < 200_000; i++) rules.isAllowed(/** @type {string} */ (urls[i % urls.length]));
  const checks = await gcsDuring(urls, (url) => rules.isAllowed(url), { count });
  const control = await gcsDuring(urls, (url) => url.length > 40, { seconds: checks.seconds });
  const asciiChecks = checks.minor > control.minor ? await gcsDuring(ascii, (url) => rules.isAllowed(url), { count }) : undefined;
  return { count, urls: urls.length, asciiUrls: ascii.length, control, checks, asciiChecks };
}
