/**
 * One benchmark step per process, started by bench/run.mjs. V8 shares type feedback, inline caches and
 * optimised code within a process, so an engine timed after another would inherit (or suffer from) its
 * neighbour's state; one process per task keeps every measurement on a fresh VM. A peer's process never
 * loads this library, and ours never loads a peer.
 *
 *   node bench/worker.mjs prepare   <dir>                     builds the workloads into <dir>/workloads.json
 *   node bench/worker.mjs agreement <dir>                     every engine's verdicts, compared with ours
 *   node bench/worker.mjs time      <dir> <workload> <impl> <timeMs>
 *   node --expose-gc bench/worker.mjs memory <dir> <matcher>
 *   node --expose-gc bench/worker.mjs alloc  <dir> <checks>
 *
 * The result is the last line of stdout, as JSON; anything else goes to stderr.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PerformanceObserver, constants as perfConstants } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Bench } from 'tinybench';
import { corpusDirectory, loadCorpus } from './corpus.mjs';
import { buildWorkloads, cappedBody } from './workloads.mjs';

/**
 * This library as built: the orchestrator copies dist/ into <dir> before the first step, so every process of
 * one run measures the same build even while dist/ is rebuilt underneath (the copy is made once per run).
 * @param {string} dir
 * @returns {Promise<typeof import('../dist/index.js')>}
 */
function importLibrary(dir) {
  return import(pathToFileURL(join(dir, 'dist', 'index.js')).href);
}

/** A timed iteration repeats its pass until it lasts at least this long, so the timer's resolution does not matter. */
const MIN_ITERATION_MS = 20;

/** @typedef {import('./workloads.mjs').Workloads} Workloads */
/** @typedef {'wasm' | 'typescript' | 'robots-parser' | 'guard'} Impl */
/**
 * A timed pass: `run` does `ops` units of work (checks, or bytes parsed) and returns a number that depends on
 * all of them, so that no optimiser can skip any; `verdicts` (check workloads) gives what it decided.
 * @typedef {{ run: () => number, ops: number, unit: 'checks' | 'bytes', verdicts?: () => Uint8Array }} Pass
 */

/** @param {unknown} result */
function reply(result) {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** @param {string} dir @returns {Workloads} */
function readWorkloads(dir) {
  return JSON.parse(readFileSync(join(dir, 'workloads.json'), 'utf8'));
}

/**
 * The capped corpus bodies, indexed like `workloads.sites`; refuses a corpus that changed since `prepare`.
 * @param {Workloads} workloads
 */
function corpusBodies(workloads) {
  const files = loadCorpus();
  if (files.length !== workloads.sites.length || files.some((file, i) => file.name !== workloads.sites[i]?.name)) {
    throw new Error('the corpus changed since the workloads were built; run the benchmark again');
  }
  return files.map((file) => cappedBody(file.body));
}

/** The hot site's capped body alone: the hot workloads need no other file. @param {Workloads} workloads */
function hotBody(workloads) {
  const directory = corpusDirectory();
  if (directory === undefined) throw new Error('the corpus is gone');
  return cappedBody(new Uint8Array(readFileSync(join(directory, workloads.hot.name))));
}

/** @param {string} dir @param {Impl} impl */
async function loadOurs(dir, impl) {
  const lib = await importLibrary(dir);
  const kind = impl === 'typescript' ? 'typescript' : 'wasm';
  // setMatcher answers with the matcher it could get; a silent fallback would mislabel every number.
  const got = lib.setMatcher(kind);
  if (got !== kind) throw new Error(`asked for the ${kind} matcher, got ${got}`);
  return lib;
}

/**
 * @typedef {{ isAllowed(url: string, ua?: string): boolean | undefined }} RobotsParserRobots
 * @typedef {{ isAllowed(userAgent: string, path: string): boolean }} Guard
 */

/** @returns {Promise<(url: string, contents: string) => RobotsParserRobots>} */
async function loadRobotsParser() {
  return (await import('robots-parser')).default;
}

/** @returns {(config: { groups: import('./workloads.mjs').GuardGroup[] }) => Guard} */
function loadGuard() {
  // CommonJS without type declarations: module.exports is the factory, typed by the @returns above.
  return createRequire(import.meta.url)('robots-txt-guard');
}

/** @param {Workloads} w @param {number} site */
function siteAt(w, site) {
  const entry = w.sites[site];
  if (entry === undefined) throw new Error(`no site ${site} in the workloads`);
  return entry;
}

/**
 * Workload 1, the crawler mix: every site compiled up front for both agents; each check is one call on that
 * site's compiled rules, in the shuffled frontier order. The frontier is an array of entries that already hold
 * what to call (for every engine alike), so the timed loop only walks it.
 * @param {string} dir @param {Workloads} w @param {Impl} impl @returns {Promise<Pass>}
 */
async function crawlerPass(dir, w, impl) {
  const { agents } = w.crawler;
  const bodies = corpusBodies(w);
  const frontier = w.crawler.path.map((path, i) => {
    const site = /** @type {number} */ (w.crawler.site[i]);
    const agent = /** @type {number} */ (w.crawler.agent[i]);
    return { site, agent: /** @type {string} */ (agents[agent]), agentIndex: agent, url: siteAt(w, site).origin + path, path };
  });
  const n = frontier.length;

  if (impl === 'wasm' || impl === 'typescript') {
    const { parseRobotsTxt } = await loadOurs(dir, impl);
    // Compiled once per (site, agent), like a crawler's cache of compiled robots.txt.
    const compiled = bodies.map((body) => {
      const robots = parseRobotsTxt(body);
      return agents.map((name) => robots.forAgent(name));
    });
    const checks = frontier.map((entry) => ({
      rules: /** @type {import('../dist/index.js').AgentRules} */ (compiled[entry.site]?.[entry.agentIndex]),
      url: entry.url,
    }));
    return {
      ops: n,
      unit: 'checks',
      run() {
        let allowed = 0;
        for (const check of checks) if (check.rules.isAllowed(check.url)) allowed++;
        return allowed;
      },
      verdicts: () => Uint8Array.from(checks, (check) => (check.rules.isAllowed(check.url) ? 1 : 0)),
    };
  }
  if (impl === 'robots-parser') {
    const robotsParser = await loadRobotsParser();
    const decoder = new TextDecoder();
    // Its parse is its compile: done here, before timing, like ours.
    const parsers = bodies.map((body, site) => robotsParser(`${siteAt(w, site).origin}/robots.txt`, decoder.decode(body)));
    const checks = frontier.map((entry) => ({
      robots: /** @type {RobotsParserRobots} */ (parsers[entry.site]),
      url: entry.url,
      agent: entry.agent,
    }));
    return {
      ops: n,
      unit: 'checks',
      run() {
        let allowed = 0;
        for (const check of checks) if (check.robots.isAllowed(check.url, check.agent) === true) allowed++;
        return allowed;
      },
      // 2 marks `undefined` (robots-parser's "this URL is not for this robots.txt"): it never agrees.
      verdicts: () =>
        Uint8Array.from(checks, (check) => {
          const verdict = check.robots.isAllowed(check.url, check.agent);
          return verdict === undefined ? 2 : verdict ? 1 : 0;
        }),
    };
  }
  const guard = loadGuard();
  const guards = w.sites.map((site) => guard(site.guard));
  // robots-txt-guard is asked with the path and query, not the absolute URL.
  const checks = frontier.map((entry) => ({ guard: /** @type {Guard} */ (guards[entry.site]), path: entry.path, agent: entry.agent }));
  return {
    ops: n,
    unit: 'checks',
    run() {
      let allowed = 0;
      for (const check of checks) if (check.guard.isAllowed(check.agent, check.path)) allowed++;
      return allowed;
    },
    verdicts: () => Uint8Array.from(checks, (check) => (check.guard.isAllowed(check.agent, check.path) ? 1 : 0)),
  };
}

/**
 * Workloads 2 and 3: one large rule set, one agent, its URLs cycled; one by one, or as a batch (engines
 * without a batch API call their single check in a loop that writes the same output array). The peers' loops
 * are written out like ours, not through a shared helper taking a callback, so that all are equally tight.
 * @param {string} dir @param {Workloads} w @param {Impl} impl @param {boolean} batch @returns {Promise<Pass>}
 */
async function hotPass(dir, w, impl, batch) {
  const { agent, paths } = w.hot;
  const origin = siteAt(w, w.hot.site).origin;
  const urls = paths.map((path) => origin + path);
  const n = urls.length;
  const out = new Uint8Array(n);
  const body = hotBody(w);
  let next = 0;
  // One read of the output per call keeps the batch observable without timing a second pass over it.
  const probe = () => /** @type {number} */ (out[(next = (next + 1) % n)]);

  if (impl === 'wasm' || impl === 'typescript') {
    const { parseRobotsTxt } = await loadOurs(dir, impl);
    const rules = parseRobotsTxt(body).forAgent(agent);
    const verdicts = () => rules.isAllowedManyInto(urls, new Uint8Array(n));
    if (batch) {
      return {
        ops: n,
        unit: 'checks',
        run() {
          rules.isAllowedManyInto(urls, out);
          return probe();
        },
        verdicts,
      };
    }
    return {
      ops: n,
      unit: 'checks',
      run() {
        let allowed = 0;
        for (const url of urls) if (rules.isAllowed(url)) allowed++;
        return allowed;
      },
      verdicts: () => Uint8Array.from(urls, (url) => (rules.isAllowed(url) ? 1 : 0)),
    };
  }
  if (impl === 'robots-parser') {
    const robotsParser = await loadRobotsParser();
    const robots = robotsParser(`${origin}/robots.txt`, new TextDecoder().decode(body));
    const verdicts = () => Uint8Array.from(urls, (url) => (robots.isAllowed(url, agent) === true ? 1 : 0));
    if (batch) {
      return {
        ops: n,
        unit: 'checks',
        run() {
          let i = 0;
          for (const url of urls) out[i++] = robots.isAllowed(url, agent) === true ? 1 : 0;
          return probe();
        },
        verdicts,
      };
    }
    return {
      ops: n,
      unit: 'checks',
      run() {
        let allowed = 0;
        for (const url of urls) if (robots.isAllowed(url, agent) === true) allowed++;
        return allowed;
      },
      verdicts,
    };
  }
  const guard = loadGuard()(siteAt(w, w.hot.site).guard);
  const verdicts = () => Uint8Array.from(paths, (path) => (guard.isAllowed(agent, path) ? 1 : 0));
  if (batch) {
    return {
      ops: n,
      unit: 'checks',
      run() {
        let i = 0;
        for (const path of paths) out[i++] = guard.isAllowed(agent, path) ? 1 : 0;
        return probe();
      },
      verdicts,
    };
  }
  return {
    ops: n,
    unit: 'checks',
    run() {
      let allowed = 0;
      for (const path of paths) if (guard.isAllowed(agent, path)) allowed++;
      return allowed;
    },
    verdicts,
  };
}

/**
 * Workload 4: the whole corpus parsed and compiled for Googlebot, then dropped. Throughput is counted in the
 * bytes every engine was given (the capped bodies), whatever it does with them.
 * @param {string} dir @param {Workloads} w @param {Impl} impl @returns {Promise<Pass>}
 */
async function parsePass(dir, w, impl) {
  const bodies = corpusBodies(w);
  const bytes = bodies.reduce((sum, body) => sum + body.byteLength, 0);
  if (impl === 'wasm' || impl === 'typescript') {
    const { parseRobotsTxt } = await loadOurs(dir, impl);
    return {
      ops: bytes,
      unit: 'bytes',
      run() {
        let rulesetBytes = 0;
        for (const body of bodies) {
          const robots = parseRobotsTxt(body);
          rulesetBytes += robots.forAgent('Googlebot').byteLength;
          robots.dispose();
        }
        return rulesetBytes;
      },
    };
  }
  if (impl === 'robots-parser') {
    const robotsParser = await loadRobotsParser();
    const decoder = new TextDecoder();
    // It takes text: decoded here, once, outside the timing.
    const inputs = bodies.map((body, site) => ({ url: `${siteAt(w, site).origin}/robots.txt`, text: decoder.decode(body) }));
    return {
      ops: bytes,
      unit: 'bytes',
      run() {
        let parsed = 0;
        for (const input of inputs) if (robotsParser(input.url, input.text)) parsed++;
        return parsed;
      },
    };
  }
  // robots-txt-guard has no parser: this times its construction from our parser's groups.
  const guard = loadGuard();
  const configs = w.sites.map((site) => site.guard);
  return {
    ops: bytes,
    unit: 'bytes',
    run() {
      let built = 0;
      for (const config of configs) if (guard(config)) built++;
      return built;
    },
  };
}

/** @param {string} dir @param {Workloads} w @param {string} workload @param {Impl} impl */
function passFor(dir, w, workload, impl) {
  switch (workload) {
    case 'crawler':
      return crawlerPass(dir, w, impl);
    case 'hot':
      return hotPass(dir, w, impl, false);
    case 'batch':
      return hotPass(dir, w, impl, true);
    case 'parse':
      return parsePass(dir, w, impl);
    default:
      throw new Error(`unknown workload ${workload}`);
  }
}

/**
 * How fast the machine runs plain JS right now: a fixed integer loop, in rounds per ms. The machine is shared
 * (2 vCPUs that may be one core's hyperthreads), and a neighbour's load can halve every number; this probe,
 * taken just before timing, lets the report show which runs were slowed that way.
 */
function machineProbe() {
  let state = 1;
  let rounds = 0;
  const started = performance.now();
  let elapsed = 0;
  while ((elapsed = performance.now() - started) < 50) {
    for (let i = 0; i < 10_000; i++) state = Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + i;
    rounds++;
  }
  return { roundsPerMs: rounds / elapsed, state: state & 1 };
}

/** @param {string} dir @param {string} workload @param {Impl} impl @param {number} timeMs */
async function time(dir, workload, impl, timeMs) {
  const w = readWorkloads(dir);
  const pass = await passFor(dir, w, workload, impl);
  const probe = machineProbe();
  // The first call is untimed: it warms the code and tells how many passes make one timed iteration.
  const started = performance.now();
  const checksum = pass.run();
  const once = performance.now() - started;
  const reps = Math.max(1, Math.min(1000, Math.ceil(MIN_ITERATION_MS / Math.max(once, 0.001))));
  // A pass that takes a good part of the budget was warmed enough by the call above; more warm-up passes
  // would only stretch the run. Iterations go on until the time budget is spent, but a pass longer than the
  // budget (the slow engines on the crawler mix, the TypeScript executor, which is slow by design) is timed
  // once per process: the medians across processes then do the smoothing.
  const long = once > timeMs / 4;
  let sink = 0;
  const bench = new Bench({
    time: timeMs,
    iterations: 1,
    warmup: !long,
    warmupTime: Math.min(250, timeMs / 4),
    warmupIterations: 1,
    throws: true,
  });
  bench.add(`${workload}/${impl}`, () => {
    for (let r = 0; r < reps; r++) sink = (sink + pass.run()) | 0;
  });
  await bench.run();
  const result = /** @type {import('tinybench').Task} */ (bench.tasks[0]).result;
  if (result.state !== 'completed') throw new Error(`tinybench ended in state ${result.state}`);
  const seconds = result.latency.p50 / 1000;
  reply({
    workload,
    impl,
    unit: pass.unit,
    perSecond: (pass.ops * reps) / seconds,
    opsPerIteration: pass.ops * reps,
    iterations: result.latency.samplesCount,
    rme: result.latency.rme,
    checksum,
    probe: probe.roundsPerMs,
    sink: (sink ^ probe.state) & 1,
  });
}

/** @param {string} dir */
async function prepare(dir) {
  const { parseRobotsTxt } = await importLibrary(dir);
  const workloads = buildWorkloads(loadCorpus(), parseRobotsTxt);
  writeFileSync(join(dir, 'workloads.json'), JSON.stringify(workloads));
  reply({
    fingerprint: workloads.fingerprint,
    corpus: workloads.corpus,
    crawlerChecks: workloads.crawler.path.length,
    hot: { name: workloads.hot.name, rules: workloads.hot.rules, urls: workloads.hot.paths.length },
  });
}

/**
 * Every engine's verdicts on the crawler mix and on the hot site (single and batch), compared with our single
 * check on the WebAssembly matcher. Up to 2,000 differing cases per comparison are written to
 * <dir>/disagreements.json for a closer look.
 * @param {string} dir
 */
async function agreement(dir) {
  const w = readWorkloads(dir);
  /** @type {Impl[]} */
  const impls = ['wasm', 'typescript', 'robots-parser', 'guard'];
  /** @type {Record<string, { same: number, total: number, percent: number }>} */
  const summary = {};
  /** @type {Record<string, unknown[]>} */
  const examples = {};
  /** @param {Promise<Pass>} pass */
  const verdictsOf = async (pass) => /** @type {() => Uint8Array} */ ((await pass).verdicts)();
  /**
   * @param {string} key
   * @param {Uint8Array} ours
   * @param {Uint8Array} theirs
   * @param {(i: number) => { site: number, agent: string, path: string }} describe
   */
  const compare = (key, ours, theirs, describe) => {
    let same = 0;
    /** @type {unknown[]} */
    const differing = [];
    for (let i = 0; i < ours.length; i++) {
      if (ours[i] === theirs[i]) {
        same++;
      } else if (differing.length < 2000) {
        const { site, agent, path } = describe(i);
        const theirVerdict = theirs[i] === 2 ? 'undefined' : theirs[i] === 1;
        differing.push({ site: siteAt(w, site).name, agent, path, ours: ours[i] === 1, theirs: theirVerdict });
      }
    }
    summary[key] = { same, total: ours.length, percent: (100 * same) / ours.length };
    examples[key] = differing;
  };
  /** @param {number} i */
  const crawlerCase = (i) => ({
    site: /** @type {number} */ (w.crawler.site[i]),
    agent: /** @type {string} */ (w.crawler.agents[/** @type {number} */ (w.crawler.agent[i])]),
    path: /** @type {string} */ (w.crawler.path[i]),
  });
  /** @param {number} i */
  const hotCase = (i) => ({ site: w.hot.site, agent: w.hot.agent, path: /** @type {string} */ (w.hot.paths[i]) });

  const crawlerReference = await verdictsOf(crawlerPass(dir, w, 'wasm'));
  const hotReference = await verdictsOf(hotPass(dir, w, 'wasm', false));
  for (const impl of impls) {
    if (impl !== 'wasm') {
      compare(`crawler/${impl}`, crawlerReference, await verdictsOf(crawlerPass(dir, w, impl)), crawlerCase);
      compare(`hot/${impl}`, hotReference, await verdictsOf(hotPass(dir, w, impl, false)), hotCase);
    }
    // The batch entry must decide exactly as the single check does (for the peers it is the same loop).
    compare(`batch/${impl}`, hotReference, await verdictsOf(hotPass(dir, w, impl, true)), hotCase);
  }
  writeFileSync(join(dir, 'disagreements.json'), JSON.stringify(examples, null, 1));
  reply(summary);
}

/** Collected twice: a first pass can leave objects that only a second finds unreachable. */
async function settle() {
  const gc = /** @type {() => void} */ (globalThis.gc);
  gc();
  await sleep(10);
  gc();
}

/**
 * Workload 5: what compiling the whole corpus for Googlebot costs, in WebAssembly memory and JS heap, against
 * the size of the rules' text; and whether disposing gives the WebAssembly memory back.
 * @param {string} dir @param {Impl} impl
 */
async function memory(dir, impl) {
  if (typeof globalThis.gc !== 'function') throw new Error('run the memory step with node --expose-gc');
  const w = readWorkloads(dir);
  const { parseRobotsTxt, matcherInfo } = await loadOurs(dir, impl);
  const bodies = corpusBodies(w);
  // Parsed (not yet compiled) before the baseline, so that only compiling is measured.
  const parsed = bodies.map((body) => parseRobotsTxt(body));
  await settle();
  const before = { wasm: matcherInfo().wasmBytesInUse, ...process.memoryUsage() };
  const compiled = parsed.map((robots) => robots.forAgent('Googlebot'));
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
  compiled.length = 0;
  for (const robots of parsed) robots.dispose();
  await settle();
  const disposed = { wasm: matcherInfo().wasmBytesInUse, ...process.memoryUsage() };
  reply({
    impl,
    agents: parsed.length,
    rules,
    ruleTextBytes,
    rulesetBytes,
    wasm: { before: before.wasm, after: after.wasm, disposed: disposed.wasm },
    heapUsed: { before: before.heapUsed, after: after.heapUsed, disposed: disposed.heapUsed },
    arrayBuffers: { before: before.arrayBuffers, after: after.arrayBuffers, disposed: disposed.arrayBuffers },
  });
}

/**
 * Counts garbage collections, by kind, and the heap's growth over calls of `check`, cycling through `urls`:
 * `count` calls, or as many as fit in `seconds` (the control loop runs as long as the checks did, so that
 * collections V8 starts on a timer, like its memory reducer after a shrink, fall in both alike).
 * @param {string[]} urls
 * @param {(url: string) => boolean} check
 * @param {{ count: number } | { seconds: number }} until
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
 * Workload 6: garbage collections during `count` single checks on the hot site, against a control loop that
 * walks the same URLs for as long without checking (what the harness and V8's own timers cause). If the
 * checks scavenge more than the control, the ASCII-only URLs are run alone, to show whether non-ASCII URLs
 * (which go through TextEncoder) are the cause.
 * @param {string} dir @param {number} count
 */
async function alloc(dir, count) {
  if (typeof globalThis.gc !== 'function') throw new Error('run the allocation step with node --expose-gc');
  const w = readWorkloads(dir);
  const { parseRobotsTxt } = await loadOurs(dir, 'wasm');
  const rules = parseRobotsTxt(hotBody(w)).forAgent(w.hot.agent);
  const origin = siteAt(w, w.hot.site).origin;
  // Created once, before counting: the strings a crawler already holds.
  const urls = w.hot.paths.map((path) => origin + path);
  const ascii = urls.filter((url) => /^[\x00-\x7f]*$/.test(url));
  for (let i = 0; i < 200_000; i++) rules.isAllowed(/** @type {string} */ (urls[i % urls.length]));
  const checks = await gcsDuring(urls, (url) => rules.isAllowed(url), { count });
  const control = await gcsDuring(urls, (url) => url.length > 40, { seconds: checks.seconds });
  const asciiChecks =
    checks.minor > control.minor ? await gcsDuring(ascii, (url) => rules.isAllowed(url), { count }) : undefined;
  reply({ count, urls: urls.length, asciiUrls: ascii.length, control, checks, asciiChecks });
}

const [command, dir, ...rest] = process.argv.slice(2);
if (dir === undefined) throw new Error('usage: node bench/worker.mjs <command> <dir> …');
switch (command) {
  case 'prepare':
    await prepare(dir);
    break;
  case 'agreement':
    await agreement(dir);
    break;
  case 'time':
    await time(dir, /** @type {string} */ (rest[0]), /** @type {Impl} */ (rest[1]), Number(rest[2]));
    break;
  case 'memory':
    await memory(dir, /** @type {Impl} */ (rest[0]));
    break;
  case 'alloc':
    await alloc(dir, Number(rest[0]));
    break;
  default:
    throw new Error(`unknown command ${command}`);
}
