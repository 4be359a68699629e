/**
 * `npm run bench:cli`: the `robotstxt filter` command end to end (read a crawl log, decide every line, write the
 * allowed ones) against a naive filter built on the peer package robots-parser (bench/cli-naive-filter.mjs).
 *
 *   node bench/cli.mjs                 10,000,000 URL lines (about 500 MB) over 1,000 corpus hosts, one run each
 *   node bench/cli.mjs --lines 1000000 a smaller log, for a quick run
 *   node bench/cli.mjs --runs 3        3 interleaved runs of each filter; the report gives the median time
 *   node bench/cli.mjs --cli FILE      time another build of the command instead of dist/cli.js
 *
 * The log is generated for the run, streamed to a temporary file (os.tmpdir(), removed at the end): a
 * fixed-seed PRNG (bench/workloads.mjs) picks 1,000 hosts of the real-world corpus, those whose file name is a
 * plain host name, and for each line a host (skewed, as a crawler's frontier is), http or https (some
 * host names upper-case), and a path: mostly derived from the host's own rules for Googlebot, as
 * bench/workloads.mjs derives them, else an ordinary content path; some get a query, some a fragment. Its
 * SHA-256 identifies it in the report: numbers from two runs compare only when it matches.
 *
 * Timed, each in its own process from start to exit, reading the log as a FILE argument and writing to a
 * temporary file (hashed and deleted after the timing):
 *   node dist/cli.js filter --agent Googlebot --robots-dir <corpus> --quiet --workers 1 <log>
 *   node dist/cli.js filter --agent Googlebot --robots-dir <corpus> --quiet --workers 2 <log>
 *   node bench/cli-naive-filter.mjs --agent Googlebot --robots-dir <corpus> <log>
 * The outputs of --workers 1 and --workers 2 must be byte-identical (the run fails otherwise). It prints a
 * markdown report. It builds nothing: the npm script builds dist/ first, and the run times a copy of dist/
 * made at its start (dist/ may be rebuilt meanwhile). Without the corpus it prints a note and exits 0; so it
 * does, with a message, while the command's filter is not implemented (it fails to run a two-line probe).
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
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { corpusDirectory, expectedDirectory } from './corpus.mjs';
import { cappedBody, mulberry32, pathsForPattern } from './workloads.mjs';
import { median } from './median.mjs';

const AGENT = 'Googlebot';
const HOSTS = 1_000;
const SEED = 0x5eed_c1a0;
/** Rule-derived paths kept per host: enough to cover its rules, few enough that the pools stay small. */
const PATHS_PER_HOST = 200;

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const NAIVE = fileURLToPath(new URL('./cli-naive-filter.mjs', import.meta.url));

const { values: options } = parseArgs({
  options: { lines: { type: 'string' }, runs: { type: 'string' }, cli: { type: 'string' } },
});
const LINES = wholeNumber('lines', options.lines, 10_000_000);
const RUNS = wholeNumber('runs', options.runs, 1);

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

/**
 * Whether the command's filter runs and decides as its interface says, on two hosts and three lines. A filter
 * that cannot run (not implemented yet) is a skip; one that runs and decides wrongly fails the benchmark.
 * @param {string} cli @param {string} dir
 * @returns {{ ok: true } | { ok: false, skip: boolean, message: string }}
 */
function probe(cli, dir) {
  const robots = join(dir, 'probe-robots');
  mkdirSync(robots);
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
 * @param {typeof import('../src/index.js').parseRobotsTxt} parseRobotsTxt
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
 * Streams the log to `file`; returns its size and SHA-256.
 * @param {string} file @param {ReturnType<typeof chooseSites>} sites @param {() => number} random
 */
async function writeLog(file, sites, random) {
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
    return /** @type {ReturnType<typeof chooseSites>[number]} */ (sites[low]);
  };
  const int = (/** @type {number} */ below) => Math.floor(random() * below);
  const word = (/** @type {string[]} */ list) => /** @type {string} */ (list[int(list.length)]);

  const hash = createHash('sha256');
  const out = createWriteStream(file);
  let bytes = 0;
  let chunk = '';
  for (let i = 0; i < LINES; i++) {
    const site = pickSite();
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
    chunk += `${scheme}${host}${path}\n`;
    if (chunk.length >= 1 << 20 || i === LINES - 1) {
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
    const cli = options.cli === undefined ? join(dir, 'dist', 'cli.js') : resolve(options.cli);
    const checked = probe(cli, dir);
    if (!checked.ok) {
      if (checked.skip) {
        console.log(`Benchmark skipped: \`robotstxt filter\` does not run yet (${cli}: ${checked.message}).`);
        return;
      }
      throw new Error(`robotstxt filter decides wrongly: ${checked.message}`);
    }

    /** @type {typeof import('../src/index.js')} */
    const library = await import(pathToFileURL(join(dir, 'dist', 'index.js')).href);
    const random = mulberry32(SEED);
    log(`choosing ${HOSTS} hosts from ${corpus} …`);
    const sites = chooseSites(corpus, library.parseRobotsTxt, random);
    const logFile = join(dir, 'urls.txt');
    log(`writing ${LINES.toLocaleString('en')} URL lines to ${logFile} …`);
    let began = performance.now();
    const generated = await writeLog(logFile, sites, random);
    log(
      `  ${(generated.bytes / 1e6).toFixed(0)} MB in ${((performance.now() - began) / 1000).toFixed(1)} s, sha256 ${generated.sha256.slice(0, 12)}`,
    );

    const common = ['--agent', AGENT, '--robots-dir', corpus];
    const variants = [
      { key: 'workers1', label: '`robotstxt filter --workers 1`', args: [cli, 'filter', ...common, '--quiet', '--workers', '1', logFile] },
      { key: 'workers2', label: '`robotstxt filter --workers 2`', args: [cli, 'filter', ...common, '--quiet', '--workers', '2', logFile] },
      {
        key: 'naive',
        label: `naive: robots-parser ${peerVersion('robots-parser')}, readline, \`new URL()\``,
        args: [NAIVE, ...common, logFile],
      },
    ];
    /** @type {Map<string, Awaited<ReturnType<typeof timed>>[]>} */
    const samples = new Map(variants.map(({ key }) => [key, []]));
    for (let run = 1; run <= RUNS; run++) {
      for (const variant of variants) {
        const result = await timed(variant.args, join(dir, `${variant.key}.out`));
        const previous = /** @type {Awaited<ReturnType<typeof timed>>[]} */ (samples.get(variant.key));
        if (previous[0] !== undefined && previous[0].sha256 !== result.sha256)
          throw new Error(`${variant.key}: run ${run} wrote other bytes than run 1`);
        previous.push(result);
        log(
          `  run ${run}/${RUNS} ${variant.key.padEnd(9)} ${result.seconds.toFixed(2).padStart(7)} s  ${si(LINES / result.seconds)} lines/s`,
        );
      }
    }

    const seconds = Object.fromEntries(
      variants.map(({ key }) => [
        key,
        median(/** @type {Awaited<ReturnType<typeof timed>>[]} */ (samples.get(key)).map((sample) => sample.seconds)),
      ]),
    );
    const first = (/** @type {string} */ key) => /** @type {Awaited<ReturnType<typeof timed>>} */ (samples.get(key)?.[0]);
    const identical = first('workers1').sha256 === first('workers2').sha256;
    const rows = variants.map(({ key, label }) => {
      const s = /** @type {number} */ (seconds[key]);
      const out = first(key);
      return `| ${label} | ${s.toFixed(2)} s | **${si(LINES / s)}** | ${(generated.bytes / 1e6 / s).toFixed(1)} MB/s | ${out.lines.toLocaleString('en')} | ${times(/** @type {number} */ (seconds.naive) / s)} |`;
    });
    const report = [
      '## `robotstxt filter` end to end',
      '',
      `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.version}. ` +
        `${LINES.toLocaleString('en')} URL lines (${(generated.bytes / 1e6).toFixed(0)} MB, sha256 ${generated.sha256.slice(0, 12)}) over ${sites.length.toLocaleString('en')} corpus hosts, ` +
        `agent ${AGENT}; wall time of each process from start to exit, reading the log file and writing the allowed lines to a file` +
        `${RUNS > 1 ? `; median of ${RUNS} interleaved runs` : '; one run each'}.`,
      '',
      '| filter | time | lines/s | input MB/s | lines kept | vs naive |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      ...rows,
      '',
      `--workers 2 vs --workers 1: ${times(/** @type {number} */ (seconds.workers1) / /** @type {number} */ (seconds.workers2))}. ` +
        `Outputs of --workers 1 and --workers 2: ${identical ? `byte-identical ✓ (sha256 ${first('workers1').sha256.slice(0, 12)})` : '**differ** ✗'}. ` +
        `The naive filter keeps ${first('naive').lines.toLocaleString('en')} lines (robots-parser reads some rules differently; see \`npm run bench\` for the agreement).`,
    ];
    console.log(report.join('\n'));
    if (!identical) {
      console.error(`the outputs of --workers 1 and --workers 2 differ (${first('workers1').lines} and ${first('workers2').lines} lines)`);
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
