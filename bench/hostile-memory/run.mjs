/**
 * `npm run bench:hostile-memory`: what robots.txt files built to hurt cost in parsing and in memory (the
 * bound per input kind: docs/design.md#hostile-input); bench/hostile/run.mjs measures the CPU of single checks.
 *
 *   node bench/hostile-memory/run.mjs                      this build (dist/)
 *   node bench/hostile-memory/run.mjs --dist OTHER/dist/index.js   another build, e.g. an older checkout, for before/after
 *   node bench/hostile-memory/run.mjs --parse-only         the parse times alone
 *
 * Prints markdown: parse time per line kind against Disallow lines of the same size (500 KB each, in a
 * group; the fastest of 15 interleaved runs), memory per cached origin in RobotsCache (harness/cache-memory-probe.mjs,
 * JS heap and WebAssembly together, --expose-gc), WebAssembly bytes in use after a 10 MB URL, and the
 * allocator under fragmentation (bench/hostile-memory/allocator-fragmentation.mjs).
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compiledNow } from '../lib/engines/robotstxt-wasm.mjs';

const distArgument = process.argv.indexOf('--dist');
const dist =
  distArgument > 0 ? resolve(process.argv[distArgument + 1] ?? '') : fileURLToPath(new URL('../../dist/index.js', import.meta.url));
/** @type {typeof import('../../src/index.js')} */
const library = await import(pathToFileURL(dist).href);
const PROBE = fileURLToPath(new URL('../../harness/cache-memory-probe.mjs', import.meta.url));
const FRAGMENTATION = fileURLToPath(new URL('./allocator-fragmentation.mjs', import.meta.url));
const SIZE = 512_000;

/**
 * `line(i)` repeated up to SIZE bytes, after one `User-agent: *` line: a rule outside any group is
 * dropped unread, so without it the Disallow reference would measure less than a real rule costs.
 * @param {(i: number) => string} line
 */
function fill(line) {
  let body = 'User-agent: *\n';
  for (let i = 0; ; i++) {
    const next = `${line(i)}\n`;
    if (body.length + next.length > SIZE) return body;
    body += next;
  }
}

const PARSE_SHAPES = /** @type {const} */ ({
  'Disallow (the reference)': fill((i) => `Disallow: /p${i}/x`),
  Sitemap: fill((i) => `Sitemap: https://example.com/s${i}.xml`),
  'User-agent': fill((i) => `User-agent: bot${i}`),
  'tiny groups (User-agent, Allow)': fill((i) => (i % 2 ? 'Allow:/' : 'User-agent:*')),
  'Crawl-delay': fill((i) => `Crawl-delay: ${i % 10}`),
  Host: fill((i) => `Host: h${i}.example.com`),
  'Clean-param': fill((i) => `Clean-param: p${i} /x${i}`),
  'unknown keys': fill((i) => `Foo${i}: bar`),
  'HTML, no records': fill((i) => `<div class="x${i}">hello</div>`),
});

function parseTimes() {
  const bodies = Object.entries(PARSE_SHAPES).map(([name, text]) => /** @type {const} */ ([name, new TextEncoder().encode(text)]));
  /** @type {Map<string, number>} */
  const best = new Map();
  for (let run = 0; run < 15; run++) {
    for (const [name, bytes] of bodies) {
      const start = performance.now();
      library.parseRobotsTxt(bytes).dispose();
      const elapsed = performance.now() - start;
      best.set(name, Math.min(best.get(name) ?? Infinity, elapsed));
    }
  }
  const reference = best.get('Disallow (the reference)') ?? NaN;
  const rows = [...best].map(([name, ms]) => `| ${name} | ${ms.toFixed(1)} ms | ${(ms / reference).toFixed(2)}× |`);
  return ['| 500 KB of | parse | vs Disallow |', '| --- | --- | --- |', ...rows].join('\n');
}

const MEMORY_SHAPES = ['many groups', 'many distinct groups', 'many tiny rules', 'many sitemaps', 'long lines', 'html junk with one rule'];

function cacheMemory() {
  const rows = MEMORY_SHAPES.map((shape) => {
    const output = execFileSync(process.execPath, ['--expose-gc', PROBE, shape, '6'], { env: { ...process.env, ROBOTS_DIST: dist } });
    const { bodyBytes, perOrigin, residentPerOrigin } = JSON.parse(output.toString());
    // Older builds report JS heap and WebAssembly together, with no resident part of their own.
    const resident = residentPerOrigin === undefined ? 'in the total' : `${residentPerOrigin} B`;
    const total = perOrigin + (residentPerOrigin ?? 0);
    return `| ${shape} | ${bodyBytes} B | ${perOrigin} B | ${resident} | ${(total / bodyBytes).toFixed(2)}× |`;
  });
  return [
    '| 500 KB file of | body | per cached origin, JS | its rules resident in WebAssembly (at most 64 MiB for all origins) | both, against the body |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

function bigUrl() {
  const rules = compiledNow(library.parseRobotsTxt('User-agent: *\nDisallow: /private/\n').forAgent('ExampleBot'));
  rules.isAllowed('/warm-up');
  const before = library.matcherInfo().wasmBytesInUse;
  rules.isAllowed(`/${'a'.repeat(10_000_000)}`);
  const after = library.matcherInfo().wasmBytesInUse;
  rules.dispose();
  return `WebAssembly bytes in use: ${before} before a 10 MB URL, ${after} after it (${after - before} more).`;
}

/**
 * A synchronous loop of parses of a 64 KB body, each asked once, with and without dispose(): no
 * FinalizationRegistry callback can run inside it. Run in a child process each, so that one cannot
 * starve the other of memory.
 */
function forgottenDispose() {
  const script = (/** @type {boolean} */ dispose) => `
    const { parseRobotsTxt, matcherInfo } = await import(${JSON.stringify(pathToFileURL(dist).href)});
    let body = 'User-agent: *\\n';
    for (let i = 0; body.length < 64 * 1024; i++) body += 'Disallow: /section-' + i + '/*.html$\\n';
    const started = performance.now();
    let highest = 0;
    try {
      for (let i = 0; i < 40000; i++) {
        const robots = parseRobotsTxt(body);
        robots.isAllowed('/section-' + (i % 1000) + '/x.html', 'ExampleBot');
        ${dispose ? 'robots.dispose();' : ''}
        if (i % 1000 === 0) highest = Math.max(highest, matcherInfo().wasmBytesInUse);
      }
      console.log(JSON.stringify({ ok: true, seconds: (performance.now() - started) / 1000, highest }));
    } catch (error) {
      console.log(JSON.stringify({ ok: false, seconds: (performance.now() - started) / 1000, error: String(error), highest }));
    }`;
  const rows = [true, false].map((dispose) => {
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script(dispose)]).toString();
    const { ok, seconds, error, highest } = JSON.parse(output);
    const outcome = ok ? `completed in ${seconds.toFixed(1)} s` : `failed after ${seconds.toFixed(1)} s: ${error}`;
    return `| ${dispose ? 'with' : 'without'} dispose() | ${outcome} | ${(highest / 1048576).toFixed(1)} MiB |`;
  });
  return ['| 40,000 parses of 64 KB | outcome | WebAssembly in use, highest |', '| --- | --- | --- |', ...rows].join('\n');
}

function fragmentation() {
  return execFileSync(process.execPath, [FRAGMENTATION, dist])
    .toString()
    .trim()
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

console.log(`## Hostile files: parsing and memory (${dist})\n`);
console.log(`Parse time per line kind (fastest of 15 runs):\n\n${parseTimes()}\n`);
if (process.argv.includes('--parse-only')) process.exit(0);
console.log(
  `Memory per cached origin (RobotsCache; JS heap and buffers, and apart the compiled rules resident in WebAssembly):\n\n${cacheMemory()}\n`,
);
console.log(`${bigUrl()}\n`);
if (!process.argv.includes('--skip-loop')) console.log(`Rules nobody disposes, in a synchronous loop:\n\n${forgottenDispose()}\n`);
console.log(`Allocator under fragmentation:\n\n${fragmentation()}\n`);
