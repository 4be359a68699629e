/**
 * `npm run bench:lint`: what lintRobotsTxt() costs on a 1 MB file of hostile lines against an ordinary 1 MB file.
 * A service that lints uploaded files lints what strangers wrote, so each shape below is a file of ≈ 1 MB (the
 * CLI's limit) built to make one check slow; all are linted with `maxBytes: Infinity`, so no cut hides a cost.
 * The target: every shape within 3× the ordinary file.
 *
 *   node bench/lint/run.mjs           every shape, the median of 5 runs each
 *   node bench/lint/run.mjs --quick   the median of 3
 *
 * The ordinary file is the corpus's files one after another up to 1 MB (a generated file of common rules when
 * the corpus is absent, said on the first line). It builds nothing: the npm script builds dist/ first.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { corpusDirectory, loadCorpus } from '../../harness/corpus.mjs';
import { median } from '../lib/median.mjs';

const DIST = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
if (!existsSync(DIST)) {
  console.error('dist/ is missing: run `npm run bench:lint` (which builds first) or `npm run build`.');
  process.exit(1);
}
/** @type {typeof import('../../src/index.js')} */
const { lintRobotsTxt, MAX_LINE_BYTES } = await import(new URL('../../dist/index.js', import.meta.url).href);

const SIZE = 1_000_000;
const RUNS = process.argv.includes('--quick') ? 3 : 5;
const encoder = new TextEncoder();

/** @returns {{ body: Uint8Array, from: string }} */
function ordinaryFile() {
  const parts = [];
  let length = 0;
  if (corpusDirectory() !== undefined) {
    for (const { body } of loadCorpus()) {
      if (length >= SIZE) break;
      parts.push(body, Uint8Array.of(0x0a));
      length += body.length + 1;
    }
  }
  const from = length > 0 ? 'the corpus, concatenated' : 'generated rules (no corpus found)';
  for (let i = 0; length < SIZE; i++) {
    const lines = encoder.encode(
      `User-agent: bot${i}\nDisallow: /private/${i}/\nAllow: /public/*.html$\nSitemap: https://example.com/s${i}.xml\n\n`,
    );
    parts.push(lines);
    length += lines.length;
  }
  const body = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    body.set(part, at);
    at += part.length;
  }
  return { body: body.subarray(0, SIZE), from };
}

/** `head` and then `line(i)` for i = 0, 1, … until the file holds SIZE bytes. */
function fileOf(/** @type {string} */ head, /** @type {(i: number) => string} */ line) {
  let body = head;
  for (let i = 0; body.length < SIZE; i++) body += line(i);
  return body.slice(0, SIZE);
}

const LONG = MAX_LINE_BYTES - 40;
const stars = '*'.repeat(LONG);
/** @type {ReadonlyArray<readonly [string, string]>} */
const SHAPES = [
  ['stars then a byte', fileOf('User-agent: *\n', () => `Disallow: /${stars}a\n`)],
  ['stars at the end', fileOf('User-agent: *\n', (i) => `Disallow: /${i}${stars}\n`)],
  ['one pattern, more stars each line', fileOf('User-agent: *\n', (i) => `Allow: /a${'*'.repeat(i % LONG)}\n`)],
  ['long distinct patterns', fileOf('User-agent: *\n', (i) => `Disallow: /${String(i).padStart(LONG, 'x')}\n`)],
  ['spaces inside', fileOf('User-agent: *\n', () => `Disallow: /a${' '.repeat(LONG)}b\n`)],
  ['dollars inside', fileOf('User-agent: *\n', () => `Disallow: /${'$'.repeat(LONG)}\n`)],
  ['slash-stars', fileOf('User-agent: *\n', () => `Disallow: ${'/*'.repeat(LONG >> 1)}\n`)],
  ['not a path', fileOf('User-agent: *\n', () => `Disallow: a${'b'.repeat(LONG)}\n`)],
  ['a full URL', fileOf('User-agent: *\n', () => `Disallow: http://${'a'.repeat(LONG)}\n`)],
  ['long unknown keys', fileOf('', () => `${'k'.repeat(LONG)}: v\n`)],
  ['long agents', fileOf('', (i) => `User-agent: ${String(i).padStart(LONG, 'a')}\nDisallow: /\n`)],
  ['duplicate rules', fileOf('User-agent: *\n', () => 'Disallow: /same\n')],
  ['one group per line', fileOf('', (i) => `User-agent: b${i}\n`)],
  ['multi-byte text', fileOf('User-agent: *\n', () => `Disallow: /${'é'.repeat(LONG >> 1)}\n`)],
  ['two-byte malformed lines', fileOf('', () => 'x\n')],
  ['rules before any group', fileOf('', () => 'Disallow: /\n')],
  ['blank lines inside a group', fileOf('User-agent: *\n', () => 'Disallow: /a\n\n')],
  ['usage paths under disallows', fileOf('User-agent: *\n', (i) => `Disallow: /d${i}/\nContent-Usage: /d${i}/x train-ai=n\n`)],
  [
    'usage paths, one long prefix',
    fileOf('User-agent: *\n', (i) => `Disallow: /${'a'.repeat(i % LONG)}\nContent-Usage: /${'a'.repeat(i % LONG)}b train-ai=n\n`),
  ],
  ['opposite usage preferences', fileOf('User-agent: *\n', () => 'Content-Usage: /a train-ai=y\nContent-Usage: /a train-ai=n\n')],
  ['long usage preferences', fileOf('User-agent: *\n', () => `Content-Signal: ${'ab=yes, '.repeat(LONG >> 3)}search=yes\n`)],
  ['long unreadable preferences', fileOf('User-agent: *\n', () => `Content-Usage: *.pdf Train-AI=n${' x;'.repeat((LONG - 40) / 3)}\n`)],
];

/** Milliseconds of one lint of `body`, the median of RUNS after a warm-up. */
function timeLint(/** @type {string | Uint8Array} */ body) {
  lintRobotsTxt(body, { maxBytes: Infinity });
  const times = [];
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    lintRobotsTxt(body, { maxBytes: Infinity });
    times.push(performance.now() - start);
  }
  return median(times);
}

const ordinary = ordinaryFile();
const base = timeLint(ordinary.body);
console.log(`lintRobotsTxt on 1 MB, maxBytes: Infinity, median of ${RUNS} runs; the ordinary file: ${ordinary.from}`);
console.log('| file | ms | × ordinary |');
console.log('| --- | ---: | ---: |');
console.log(`| ordinary | ${base.toFixed(0)} | 1.00 |`);
let worst = 0;
for (const [name, body] of SHAPES) {
  const ms = timeLint(body);
  worst = Math.max(worst, ms / base);
  console.log(`| ${name} | ${ms.toFixed(0)} | ${(ms / base).toFixed(2)} |`);
}
console.log(`worst: ${worst.toFixed(2)}× the ordinary file (target ≤ 3×)`);
