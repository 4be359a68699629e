/**
 * `npm run bench:cli`: the `robotstxt filter` command end to end (read a crawl log, decide every line, write the
 * allowed ones) against a naive filter built on the peer package robots-parser (bench/cli/naive-filter.mjs).
 *
 *   node bench/cli/run.mjs                   2,000,000 URL lines over every plain-named corpus host (4,196), 3 runs
 *   node bench/cli/run.mjs --lines 10000000  a longer log
 *   node bench/cli/run.mjs --hosts 1000      fewer hosts
 *   node bench/cli/run.mjs --runs 5          5 interleaved runs of each filter; the report gives the median time
 *   node bench/cli/run.mjs --workers 1,2,4,default   the worker counts timed (default 1,2,default; 1 and 2 always):
 *                                        `default` runs the command without --workers, as a user does
 *   node bench/cli/run.mjs --cli FILE        time another build of the command instead of dist/cli.js
 *   node bench/cli/run.mjs --before FILE     also time this build (e.g. the last release's cli.js), interleaved with
 *                                        the other, so that before and after share one run's noise
 *
 * The log is generated for the run, streamed to temporary files (os.tmpdir(), removed at the end): a fixed-seed
 * PRNG (bench/lib/workloads.mjs) picks the hosts of the real-world corpus whose file name is a plain host name, and
 * for each line a host (skewed, as a crawler's frontier is: weight 1 / rank^0.8, so the tail is hosts seen a
 * handful of times), http or https (some host names upper-case), and a path: mostly derived from the host's own
 * rules for Googlebot, as bench/lib/workloads.mjs derives them, else an ordinary content path; some get a query, some
 * a fragment. The lines come in random host order, as crawl and access logs do; the same lines sorted by host
 * (stably) make the second log. SHA-256 identifies the random log in the report: numbers from two runs compare
 * only when it matches.
 *
 * Timed, each in its own process from start to exit, reading a log as a FILE argument and writing to a temporary
 * file (hashed and deleted after the timing):
 *   node dist/cli.js filter --agent Googlebot --robots-dir <corpus> --quiet [--workers 1|2] <random or sorted log>
 *   node bench/cli/naive-filter.mjs --agent Googlebot --robots-dir <corpus> <random log>
 * and the cost of a new host: `--workers 1` over a log that names every host once (one line each), against a
 * log of as many lines that all name one host; the difference per host, less the time this process takes to
 * open and read the host's file (as the command does, into a reused buffer), is what a new host costs beyond
 * reading its file (parse, compile, load, learning it, the first check, and the code still warming up).
 *
 * On each log, every build's outputs must be byte-identical whatever the worker count, and to the other
 * build's; the sorted log's output must have the random log's lines and bytes (the same lines, in another
 * order). The run fails otherwise. It prints a markdown report. It builds nothing: the npm script builds dist/ first,
 * and the run times a copy of dist/ made at its start (dist/ may be rebuilt meanwhile). Without the corpus it
 * prints a note and exits 0; so it does, with a message, while the command's filter is not implemented (it
 * fails to run a two-line probe).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import {
  closeSync,
  cpSync,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { corpusDirectory, expectedDirectory } from '../../harness/corpus.mjs';
import { cappedBody } from '../lib/workloads.mjs';
import { pathsForPattern } from '../../harness/paths.mjs';
import { mulberry32 } from '../../harness/random.mjs';
import { median } from '../lib/median.mjs';

const AGENT = 'Googlebot';
const SEED = 0x5eed_c1a0;
/** Rule-derived paths kept per host: enough to cover its rules, few enough that the pools stay small. */
const PATHS_PER_HOST = 200;

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NAIVE = fileURLToPath(new URL('./naive-filter.mjs', import.meta.url));

const { values: options } = parseArgs({
  options: {
    lines: { type: 'string' },
    hosts: { type: 'string' },
    runs: { type: 'string' },
    cli: { type: 'string' },
    before: { type: 'string' },
    workers: { type: 'string' },
  },
});
const LINES = wholeNumber('lines', options.lines, 2_000_000);
const HOSTS = wholeNumber('hosts', options.hosts, Number.MAX_SAFE_INTEGER);
const RUNS = wholeNumber('runs', options.runs, 3);
/** @type {(number | 'default')[]} */
const WORKERS = [
  ...new Set([
    1,
    2,
    ...(options.workers ?? 'default')
      .split(',')
      .map((count) => (count === 'default' ? /** @type {const} */ ('default') : wholeNumber('workers', count, 1))),
  ]),
];

/** @param {string} name @param {string | undefined} value @param {number} fallback */
function wholeNumber(name, value, fallback) {
  if (value === undefined) return fallback;
  const number = Number(value.replaceAll('_', ''));
  if (!Number.isSafeInteger(number) || number < 1) {
    console.error(`--${name} takes a whole number ≥ 1, got ${JSON.stringify(value)}`);
    process.exit(2);
  }
  return number;
}

/** @param {string} line */
function log(line) {
  process.stderr.write(`${line}\n`);
}

/** @param {number} value */
function si(value) {
  if (value >= 1e6) return `${(value / 1e6).toFixed(2)} M`;
  if (value >= 1e3) return `${(value / 1e3).toFixed(1)} k`;
  return value.toFixed(0);
}

/** @param {number} ratio */
function times(ratio) {
  return `${ratio >= 10 ? ratio.toFixed(0) : ratio.toFixed(1)}×`;
}

/** @param {readonly number[]} values the spread of a row's runs, as ± half the range around the median, in % */
function spread(values) {
  const middle = median(values);
  return values.length < 2 ? '' : ` ±${((50 * (Math.max(...values) - Math.min(...values))) / middle).toFixed(0)}%`;
}

/**
 * Whether the command's filter runs and decides as its interface says, on two hosts and three lines. A filter
 * that cannot run (not implemented yet) is a skip; one that runs and decides wrongly fails the benchmark.
 * @param {string} cli @param {string} dir
 * @returns {{ ok: true } | { ok: false, skip: boolean, message: string }}
 */
function probe(cli, dir) {
  const robots = join(dir, 'probe-robots');
  mkdirSync(robots, { recursive: true });
  writeFileSync(join(robots, 'probe.example'), 'User-agent: *\nDisallow: /private\n');
  const input = 'https://probe.example/private/x\nhttp://PROBE.example/public\nhttps://absent.example/private\n';
  const result = spawnSync(process.execPath, [cli, 'filter', '--agent', AGENT, '--robots-dir', robots, '--quiet', '--workers', '2'], {
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.status !== 0) {
    const said = (result.stderr ?? '').trim().split('\n')[0] ?? '';
    return { ok: false, skip: true, message: `exit ${result.status ?? result.signal}${said === '' ? '' : `: ${said}`}` };
  }
  const expected = 'http://PROBE.example/public\nhttps://absent.example/private\n';
  if (result.stdout !== expected) {
    return {
      ok: false,
      skip: false,
      message: `on a three-line probe it wrote ${JSON.stringify(result.stdout)}, expected ${JSON.stringify(expected)}`,
    };
  }
  return { ok: true };
}

/**
 * Picks the hosts and, for each, the paths a crawler asks there.
 * @param {string} corpus
 * @param {typeof import('../../src/index.js').parseRobotsTxt} parseRobotsTxt
 * @param {() => number} random
 */
function chooseSites(corpus, parseRobotsTxt, random) {
  // Files named host_port are left out: a URL's host alone names a file in the robots directory.
  const names = readdirSync(corpus, { withFileTypes: true })
    .filter((entry) => entry.isFile() && /^[a-z0-9][a-z0-9.-]*$/.test(entry.name))
    .map((entry) => entry.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (let i = names.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [names[i], names[j]] = [/** @type {string} */ (names[j]), /** @type {string} */ (names[i])];
  }
  return names.slice(0, HOSTS).map((host) => {
    const buffer = readFileSync(join(corpus, host));
    const robots = parseRobotsTxt(cappedBody(new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)));
    const patterns = robots.forAgent(AGENT).rules.map((rule) => rule.pattern);
    robots.dispose();
    // A log line holds no whitespace or control characters: paths that would are left out.
    const candidates = [...new Set(patterns.flatMap(pathsForPattern))].filter((path) => !/[\x00-\x20\x7f]/.test(path));
    for (let i = candidates.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [candidates[i], candidates[j]] = [/** @type {string} */ (candidates[j]), /** @type {string} */ (candidates[i])];
    }
    return { host, shouted: host.toUpperCase(), paths: candidates.slice(0, PATHS_PER_HOST) };
  });
}

const SECTIONS = ['news', 'products', 'blog', 'help', 'category', 'search', 'user', 'static', 'en', 'p'];
const WORDS = ['home', 'sale', 'summer', 'review', 'guide', 'index', 'photos', 'video', 'page', 'item'];

/**
 * The log's lines, in the order drawn (random host order), each with its site's index.
 * @param {ReturnType<typeof chooseSites>} sites @param {() => number} random
 */
function drawLines(sites, random) {
  // Zipf-like popularity (weight 1 / rank^0.8) over the hosts in their shuffled order.
  const cumulative = new Float64Array(sites.length);
  let total = 0;
  for (let i = 0; i < sites.length; i++) cumulative[i] = total += 1 / (i + 1) ** 0.8;
  const pickSite = () => {
    const at = random() * total;
    let low = 0;
    let high = sites.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (/** @type {number} */ (cumulative[middle]) > at) high = middle;
      else low = middle + 1;
    }
    return low;
  };
  const int = (/** @type {number} */ below) => Math.floor(random() * below);
  const word = (/** @type {string[]} */ list) => /** @type {string} */ (list[int(list.length)]);

  const lines = new Array(LINES);
  const siteOf = new Uint32Array(LINES);
  for (let i = 0; i < LINES; i++) {
    const index = pickSite();
    const site = /** @type {ReturnType<typeof chooseSites>[number]} */ (sites[index]);
    const scheme = random() < 0.8 ? 'https://' : 'http://';
    const host = random() < 0.01 ? site.shouted : site.host;
    let path =
      site.paths.length > 0 && random() < 0.6
        ? /** @type {string} */ (site.paths[int(site.paths.length)])
        : `/${word(SECTIONS)}/${word(WORDS)}-${int(100_000)}${random() < 0.3 ? '.html' : ''}`;
    const shape = random();
    if (shape < 0.15) path += `${path.includes('?') ? '&' : '?'}id=${int(1_000_000)}`;
    else if (shape < 0.22) path += `${path.includes('?') ? '&' : '?'}utm_source=${word(WORDS)}&utm_medium=email`;
    else if (shape < 0.27) path += `#${word(WORDS)}-${int(10)}`;
    lines[i] = `${scheme}${host}${path}\n`;
    siteOf[i] = index;
  }
  return { lines: /** @type {string[]} */ (lines), siteOf };
}

/**
 * Streams `lines` (in the order of `order`, indexes into them) to `file`; returns its size and SHA-256.
 * @param {string} file @param {readonly string[]} lines @param {ArrayLike<number>} order
 */
async function writeLog(file, lines, order) {
  const hash = createHash('sha256');
  const out = createWriteStream(file);
  let bytes = 0;
  let chunk = '';
  for (let i = 0; i < order.length; i++) {
    chunk += lines[/** @type {number} */ (order[i])];
    if (chunk.length >= 1 << 20 || i === order.length - 1) {
      const buffer = Buffer.from(chunk);
      chunk = '';
      bytes += buffer.byteLength;
      hash.update(buffer);
      if (!out.write(buffer)) await once(out, 'drain');
    }
  }
  out.end();
  await once(out, 'close');
  return { bytes, sha256: hash.digest('hex') };
}

/**
 * Runs one filter to completion with its stdout in a file; returns the wall time and the output's hash and lines.
 * @param {string[]} args @param {string} outputFile
 */
async function timed(args, outputFile) {
  const fd = openSync(outputFile, 'w');
  const began = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', fd, 'pipe'] });
  closeSync(fd);
  /** @type {Buffer[]} */
  const stderr = [];
  // Piped (the third stdio entry), so present.
  /** @type {import('node:stream').Readable} */ (child.stderr).on('data', (data) => stderr.push(data));
  const [code, signal] = await once(child, 'close');
  const seconds = (performance.now() - began) / 1000;
  if (code !== 0)
    throw new Error(`${args.map((arg) => basename(arg)).join(' ')} failed (${code ?? signal}): ${Buffer.concat(stderr).toString().trim()}`);
  const hash = createHash('sha256');
  let lines = 0;
  for await (const data of createReadStream(outputFile, { highWaterMark: 1 << 20 })) {
    hash.update(data);
    for (let at = data.indexOf(10); at >= 0; at = data.indexOf(10, at + 1)) lines++;
  }
  const bytes = statSync(outputFile).size;
  rmSync(outputFile);
  return { seconds, sha256: hash.digest('hex'), lines, bytes };
}

/**
 * Microseconds to open and read one host's file, as the command does (into one reused buffer): the median
 * over `runs` passes over the hosts' files.
 * @param {string} corpus @param {ReturnType<typeof chooseSites>} sites @param {number} runs
 */
function readMicros(corpus, sites, runs) {
  const buffer = Buffer.allocUnsafe(512 * 1024 + 1);
  /** @type {number[]} */
  const passes = [];
  for (let run = 0; run < runs; run++) {
    const began = performance.now();
    for (const { host } of sites) {
      const fd = openSync(join(corpus, host), 'r');
      readSync(fd, buffer, 0, buffer.length, null);
      closeSync(fd);
    }
    passes.push(((performance.now() - began) * 1000) / sites.length);
  }
  return median(passes);
}

/**
 * @typedef {{ key: string, build: string, log: 'random' | 'sorted' | 'each' | 'one', workers: number | 'default', args: string[] }} Variant
 * @typedef {Awaited<ReturnType<typeof timed>>} Sample
 */

async function main() {
  const corpus = corpusDirectory();
  if (corpus === undefined) {
    console.log(`Benchmark skipped: robots corpus not found at ${expectedDirectory()}; set ROBOTS_CORPUS to run it.`);
    return;
  }
  if (!existsSync(join(ROOT, 'dist', 'index.js')) || (options.cli === undefined && !existsSync(join(ROOT, 'dist', 'cli.js')))) {
    console.error('dist/ is missing: run `npm run bench:cli` (which builds first) or `npm run build`.');
    process.exitCode = 1;
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'robotstxt-bench-cli-'));
  try {
    // A snapshot of the build: dist/ may be rebuilt while the benchmark runs, and a run must time one build.
    cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
    const builds = [{ name: 'after', cli: options.cli === undefined ? join(dir, 'dist', 'cli.js') : resolve(options.cli) }];
    if (options.before !== undefined) builds.unshift({ name: 'before', cli: resolve(options.before) });
    for (const { cli } of builds) {
      const checked = probe(cli, dir);
      if (checked.ok) continue;
      if (checked.skip) {
        console.log(`Benchmark skipped: \`robotstxt filter\` does not run yet (${cli}: ${checked.message}).`);
        return;
      }
      throw new Error(`robotstxt filter decides wrongly: ${checked.message}`);
    }

    /** @type {typeof import('../../src/index.js')} */
    const library = await import(pathToFileURL(join(dir, 'dist', 'index.js')).href);
    const random = mulberry32(SEED);
    log(`choosing hosts from ${corpus} …`);
    const sites = chooseSites(corpus, library.parseRobotsTxt, random);
    log(`drawing ${LINES.toLocaleString('en')} URL lines over ${sites.length.toLocaleString('en')} hosts …`);
    let began = performance.now();
    const { lines, siteOf } = drawLines(sites, random);
    const drawn = Array.from(lines.keys());
    // Sorted by host name, stably: each host's lines in the order they were drawn.
    const sorted = drawn.slice().sort((a, b) => {
      const x = /** @type {ReturnType<typeof chooseSites>[number]} */ (sites[/** @type {number} */ (siteOf[a])]).host;
      const y = /** @type {ReturnType<typeof chooseSites>[number]} */ (sites[/** @type {number} */ (siteOf[b])]).host;
      return x < y ? -1 : x > y ? 1 : a - b;
    });
    const logs = {
      random: join(dir, 'random.txt'),
      sorted: join(dir, 'sorted.txt'),
      each: join(dir, 'each-host-once.txt'),
      one: join(dir, 'one-host.txt'),
    };
    const generated = await writeLog(logs.random, lines, drawn);
    await writeLog(logs.sorted, lines, sorted);
    // One line per host, every host once; and as many lines, all of the first host.
    const firstLines = sites.map((site) => `https://${site.host}/news/page-1.html\n`);
    await writeLog(logs.each, firstLines, Array.from(firstLines.keys()));
    await writeLog(logs.one, firstLines, new Array(firstLines.length).fill(0));
    log(
      `  ${(generated.bytes / 1e6).toFixed(0)} MB in ${((performance.now() - began) / 1000).toFixed(1)} s, sha256 ${generated.sha256.slice(0, 12)}`,
    );
    const distinct = new Set(siteOf).size;

    const common = ['--agent', AGENT, '--robots-dir', corpus];
    /** @type {Variant[]} */
    const variants = [];
    for (const { name, cli } of builds) {
      for (const order of /** @type {const} */ (['random', 'sorted'])) {
        for (const workers of WORKERS) {
          variants.push({
            key: `${name} ${order} w${workers}`,
            build: name,
            log: order,
            workers,
            args: [cli, 'filter', ...common, '--quiet', ...(workers === 'default' ? [] : ['--workers', String(workers)]), logs[order]],
          });
        }
      }
      for (const order of /** @type {const} */ (['each', 'one'])) {
        variants.push({
          key: `${name} ${order}`,
          build: name,
          log: order,
          workers: 1,
          args: [cli, 'filter', ...common, '--quiet', '--workers', '1', logs[order]],
        });
      }
    }
    variants.push({ key: 'naive random', build: 'naive', log: 'random', workers: 1, args: [NAIVE, ...common, logs.random] });

    /** @type {Map<string, Sample[]>} */
    const samples = new Map(variants.map(({ key }) => [key, []]));
    for (let run = 1; run <= RUNS; run++) {
      for (const variant of variants) {
        const result = await timed(variant.args, join(dir, 'out.txt'));
        /** @type {Sample[]} */ (samples.get(variant.key)).push(result);
        const count = variant.log === 'random' || variant.log === 'sorted' ? LINES : sites.length;
        log(
          `  run ${run}/${RUNS} ${variant.key.padEnd(20)} ${result.seconds.toFixed(2).padStart(7)} s  ${si(count / result.seconds)} lines/s`,
        );
      }
    }

    const seconds = (/** @type {string} */ key) => median(/** @type {Sample[]} */ (samples.get(key)).map((sample) => sample.seconds));
    const first = (/** @type {string} */ key) => /** @type {Sample} */ (samples.get(key)?.[0]);
    // The same log decided by any build and worker count: the same bytes; sorted or not, the same lines.
    const mismatches = [];
    for (const variant of variants) {
      if (variant.build === 'naive') continue;
      const out = first(variant.key);
      for (const sample of /** @type {Sample[]} */ (samples.get(variant.key)))
        if (sample.sha256 !== out.sha256) mismatches.push(`${variant.key}: runs wrote different bytes`);
      const reference = first(`after ${variant.log}${variant.log === 'random' || variant.log === 'sorted' ? ' w1' : ''}`);
      if (out.sha256 !== reference.sha256) mismatches.push(`${variant.key} and after ${variant.log} w1 differ`);
      if (variant.log === 'sorted' && (out.lines !== first('after random w1').lines || out.bytes !== first('after random w1').bytes))
        mismatches.push(`${variant.key} kept other lines than the random log`);
    }
    const naive = seconds('naive random');
    const rows = [];
    for (const { name } of builds) {
      for (const workers of WORKERS) {
        for (const order of ['random', 'sorted']) {
          const key = `${name} ${order} w${workers}`;
          const s = seconds(key);
          const all = /** @type {Sample[]} */ (samples.get(key)).map((sample) => sample.seconds);
          const command = workers === 'default' ? '`robotstxt filter` (default workers)' : `\`robotstxt filter --workers ${workers}\``;
          const label = `${builds.length > 1 ? `${name}: ` : ''}${command}, ${order}`;
          rows.push(
            `| ${label} | ${s.toFixed(2)} s${spread(all)} | **${si(LINES / s)}** | ${(generated.bytes / 1e6 / s).toFixed(1)} MB/s | ${first(key).lines.toLocaleString('en')} | ${times(naive / s)} |`,
          );
        }
      }
    }
    rows.push(
      `| naive: robots-parser ${peerVersion('robots-parser')}, readline, \`new URL()\`, random | ${naive.toFixed(2)} s${spread(/** @type {Sample[]} */ (samples.get('naive random')).map((sample) => sample.seconds))} | **${si(LINES / naive)}** | ${(generated.bytes / 1e6 / naive).toFixed(1)} MB/s | ${first('naive random').lines.toLocaleString('en')} | 1.0× |`,
    );
    const read = readMicros(corpus, sites, 5);
    const summaries = builds.map(({ name }) => {
      const w1 = seconds(`${name} random w1`);
      const w2 = seconds(`${name} random w2`);
      const perHost = ((seconds(`${name} each`) - seconds(`${name} one`)) * 1e6) / sites.length;
      return (
        `${builds.length > 1 ? `**${name}**: ` : ''}random vs sorted: ${times(w1 / seconds(`${name} sorted w1`))} with 1 worker, ` +
        `${times(w2 / seconds(`${name} sorted w2`))} with 2; --workers 2 vs --workers 1: ${times(w1 / w2)} random, ` +
        `${times(seconds(`${name} sorted w1`) / seconds(`${name} sorted w2`))} sorted. A new host: ${perHost.toFixed(0)} µs ` +
        `(${sites.length.toLocaleString('en')} hosts named once each, ${seconds(`${name} each`).toFixed(2)} s, against as many lines of one host, ` +
        `${seconds(`${name} one`).toFixed(2)} s), ${(perHost - read).toFixed(0)} µs beyond reading its file (${read.toFixed(1)} µs here).`
      );
    });
    const report = [
      '## `robotstxt filter` end to end',
      '',
      `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.version}. ` +
        `${LINES.toLocaleString('en')} URL lines (${(generated.bytes / 1e6).toFixed(0)} MB, sha256 ${generated.sha256.slice(0, 12)}) over ${distinct.toLocaleString('en')} corpus hosts, ` +
        `agent ${AGENT}, in random host order and the same lines sorted by host; wall time of each process from start to exit, reading the log file and writing the allowed lines to a file` +
        `${RUNS > 1 ? `; median of ${RUNS} interleaved runs (± half their range)` : '; one run each'}.`,
      '',
      '| filter | time | lines/s | input MB/s | lines kept | vs naive |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      ...rows,
      '',
      ...summaries.map((summary) => `${summary}\n`),
      `Outputs: ${mismatches.length === 0 ? `the same bytes for every build and worker count, the same lines sorted or not ✓ (sha256 ${first('after random w1').sha256.slice(0, 12)})` : `**differ** ✗ (${mismatches.join('; ')})`}. ` +
        `The naive filter keeps ${first('naive random').lines.toLocaleString('en')} lines (robots-parser reads some rules differently; see \`npm run bench\` for the agreement).`,
    ];
    console.log(report.join('\n'));
    if (mismatches.length > 0) {
      console.error(mismatches.join('\n'));
      process.exitCode = 1;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** @param {string} name */
function peerVersion(name) {
  try {
    return JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return '?';
  }
}

await main();
