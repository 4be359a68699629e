/**
 * The baseline for `npm run bench:cli` (bench/cli/run.mjs): the URL filter one would write in an afternoon with the
 * peer package robots-parser, the way its README suggests. It does what `robotstxt filter` does, plainly:
 *
 *   node bench/cli/naive-filter.mjs --agent NAME --robots-dir DIR [FILE]   (stdin when no FILE)
 *
 * reads URL lines with readline, parses each with `new URL()`, reads the robots.txt of its host from
 * DIR/<host> once (host lower-cased, shared by http and https; no file: everything allowed), keeps one
 * robotsParser per origin (robots-parser answers only for URLs of the origin it was built for, so http and
 * https each get one, from the same text), and writes the allowed lines, unchanged and in order, to stdout.
 * Lines that are not http(s) URLs are dropped. It reads the whole file (robots-parser has no size limit) and
 * writes in 64 KiB chunks (a write per line would measure system calls, not the filter). No summary.
 */
import { readFileSync } from 'node:fs';
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { parseArgs } from 'node:util';

const robotsParser = createRequire(import.meta.url)('robots-parser');

const { values, positionals } = parseArgs({
  options: { agent: { type: 'string' }, 'robots-dir': { type: 'string' } },
  allowPositionals: true,
});
const agent = values.agent;
const directory = values['robots-dir'];
if (agent === undefined || directory === undefined || positionals.length > 1) {
  console.error('usage: node bench/cli/naive-filter.mjs --agent NAME --robots-dir DIR [FILE]');
  process.exit(2);
}

/** @type {Map<string, string | null>} robots.txt text by host; null: no file */
const bodies = new Map();
/** @type {Map<string, ReturnType<typeof robotsParser> | null>} by origin; null: no file, all allowed */
const parsers = new Map();

// An arrow function, not a declaration: it keeps the narrowing of `directory` above.
/** @param {URL} url */
const parserFor = (url) => {
  const origin = `${url.protocol}//${url.host}`;
  let parser = parsers.get(origin);
  if (parser === undefined) {
    let body = bodies.get(url.hostname);
    if (body === undefined) {
      try {
        body = readFileSync(join(directory, url.hostname), 'utf8');
      } catch {
        body = null;
      }
      bodies.set(url.hostname, body);
    }
    parser = body === null ? null : robotsParser(`${origin}/robots.txt`, body);
    parsers.set(origin, parser);
  }
  return parser;
};

const input = positionals[0] === undefined ? process.stdin : createReadStream(positionals[0]);
let pending = '';
for await (const line of createInterface({ input, crlfDelay: Infinity })) {
  let url;
  try {
    url = new URL(line);
  } catch {
    continue;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') continue;
  const parser = parserFor(url);
  if (parser === null || parser.isAllowed(line, agent) !== false) {
    pending += `${line}\n`;
    if (pending.length >= 65_536) {
      if (!process.stdout.write(pending)) await once(process.stdout, 'drain');
      pending = '';
    }
  }
}
process.stdout.write(pending);
