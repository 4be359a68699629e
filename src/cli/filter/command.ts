/**
 * `robotstxt filter`: URL lines in, the lines a crawler may fetch out, unchanged and in input order. Input is
 * read as bytes and cut into batches of whole lines (src/cli/filter/input.ts); each batch is decided in the
 * main thread or a worker thread (decide.ts, pool.ts) and written in order; stderr gets progress and a
 * summary (progress.ts).
 */
import { mkdirSync, statSync } from 'node:fs';
import { EXIT_OK, UsageError } from '../usage.js';
import { decideBatch, type BatchResult } from './decide.js';
import { FetchResolver } from './fetch-source.js';
import { batchesOf, checkInputs, readInputs, type OverlongSegment } from './input.js';
import { readFilterOptions, type FilterOptions } from './options.js';
import { WorkerPool, type BatchDecider } from './pool.js';
import { HandedSource, openSource, type HostOutcome } from './robots-source.js';
import { Tally } from './progress.js';
import { keepsTabs, tsvField } from './tsv.js';

export const FILTER_HELP = `robotstxt filter: keep the URL lines a crawler may fetch.

Usage: robotstxt filter --agent NAME (--robots-dir DIR | --robots FILE | --fetch) [options] [FILE…]

Reads URL lines from the FILEs in order (- is stdin, read once at most; no FILE: stdin alone), decides
each for the crawler, and writes the chosen lines to stdout, unchanged and in input order. A line is
decided as written, exactly as the library's rules.isAllowed(line) reads a string.

Input: gzip (by a .gz name or its first bytes; concatenated .gz files too) and brotli (by a .br name: it
has no signature) are decompressed as they are read; a UTF-8 byte order mark is dropped. bzip2, xz, zstd,
UTF-16 and binary input (a NUL byte in the first 64 KiB) are refused whole, exit 2, nothing written, with
the command that feeds them (bzcat logs.bz2 | robotstxt filter … -). The head of every input is checked
before anything is written; a compressed stream found cut short or corrupt further on stops the run with
exit 2, after the output of the batches before it.

Robots files:
  --agent NAME           the crawler's product token (required), e.g. ExampleBot
  --robots-dir DIR       one robots.txt per host, named after the URL's host as the URL parser reads it
                         (lower case, punycode, no trailing dot), shared by http and https; a port other
                         than the scheme's default is added as _PORT (example.com_8080); for a default
                         port, host_443 or host_80 is found too; other bytes than a-z 0-9 . - _ are
                         written %xx, and names past 200 bytes end in %% and a hash (see the README)
  --robots FILE          one robots.txt for every URL (then lines may be paths: /a/b?c)
  --fetch                fetch each host's robots.txt from the site (RFC 9309: redirects, 4xx allow all,
                         5xx and timeouts disallow all), once per host
    --concurrency N      fetches at a time (default 16)
    --user-agent UA      the User-Agent header sent (default robotstxt-cli/0.1)
    --timeout MS         per fetch, in milliseconds (default 10000)
    --save-dir DIR       write what was fetched in the --robots-dir layout, for the next run (each file
                         written whole and renamed into place: a symbolic link there is replaced, not
                         followed; a file that cannot be written is said on stderr and counted)
    --allow-internal-hosts   fetch from internal hosts too: by default localhost, loopback, private,
                         link-local, CGNAT and unique-local addresses, private names and cloud metadata
                         endpoints are refused (as written and as resolved, at every redirect too),
                         counted in the summary, and their lines follow --missing; nothing is saved
    --allow-network CIDR addresses in CIDR (e.g. 10.20.0.0/16) may be fetched, written as such or resolved
                         from a name (repeatable); a private name is then judged by its addresses
  --missing allow|disallow   a host with no robots.txt known (default allow); counted in the summary
  --profile rfc9309|google|yandex   how rules and URLs are read (default rfc9309)
  --cache-mb N           compiled robots files kept per thread, in MiB (default 256)

Where the URL is:
  (default)              the whole line
  --field N              the Nth field (1-based, as cut counts) of tab-separated lines
    --delimiter C        another separator; ' ' takes a run of spaces as one
  --json-field KEY       a JSON object per line; KEY may be nested: request.url
  --input-format combined|common   Apache/nginx access logs (combined; common, without referer and
                         user agent; vhost_combined, with vhost:port first): the request's target. The
                         host of a path (GET /cart) is --host NAME, else the vhost field; an absolute
                         target (GET http://shop.example/cart) names its own host, which decides over
                         both (RFC 9112 §3.2.2)
  With --robots FILE, the URL may be any text, decided as rules.isAllowed() reads it: /a, example.com/a
  and ftp://example.com/a are decided as robotstxt check decides them. With --robots-dir or --fetch, it
  must be an http(s) URL whose host the URL parser accepts.

Output:
  --emit allowed|disallowed|all   which lines to write (default allowed); malformed lines only with all
  --annotate             append TAB allowed|disallowed|malformed TAB the rule's line (0 for none) TAB the rule;
                         the line and the rule are written with \\t \\r \\n \\\\ and \\xHH for control bytes
  --output-format lines|jsonl     jsonl: {"url","allowed","line","rule"} per line instead of the line
  --strict               a malformed line is an error (exit 2) that names its line number
  -q, --quiet            no progress and no summary on stderr
  --workers N            threads that decide lines, 1 to 64; the output is the same bytes for any N. With
                         --fetch, the main thread fetches and the workers decide. Default, as measured (each
                         worker starts and compiles every host it meets on its own; on 2 busy cores, 200 k
                         lines ran at 94 k lines/s with 1, 53 k with 2; 2 M lines 296 k with 1, 159 k with 2):
                         1, in the main thread, for input under 64 MiB (gzip by its unpacked size) or piped
                         in; else the cores less one, at most 4

Malformed lines are counted, and written only with --emit all: an empty line or field, a line over 64 KiB,
a missing field, a line that is not JSON, an access log line with no request or whose target is not a path
or an http(s) URL (* of OPTIONS, host:443 of CONNECT); with --robots-dir or --fetch, also a line with no
http(s) URL (/a, example.com/a, ftp://…) or a host the URL parser refuses (http://bad host/, http://a%2Fb/).
Exit codes: 0 done; 2 usage or input errors (and --strict's malformed line).

Example:
  robotstxt filter --agent ExampleBot --robots-dir robots/ --annotate --emit all urls.txt.gz`;

/** Batches decided in this thread. */
class InlineDecider implements BatchDecider {
  readonly inFlight = 1;
  private readonly source;

  constructor(private readonly options: FilterOptions) {
    this.source = openSource(options);
  }

  async decide(bytes: Uint8Array): Promise<BatchResult> {
    return decideBatch(bytes, this.options, this.source);
  }

  hand(host: string, body: Uint8Array | HostOutcome): void {
    if (this.source instanceof HandedSource) this.source.hand(host, body);
  }

  async close(): Promise<void> {}
}

/** Writes to stdout, waiting when it is full; stops quietly when the reader went away (`| head`). */
class Output {
  closed = false;

  constructor() {
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') this.closed = true;
      else throw error;
    });
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.closed || bytes.length === 0) return;
    if (process.stdout.write(bytes)) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        process.stdout.off('drain', done);
        process.stdout.off('close', done);
        resolve();
      };
      process.stdout.on('drain', done);
      process.stdout.on('close', done);
    });
  }
}

/** Where an overlong line's output stands between its segments. */
interface OverlongState {
  /** The last byte written, unannotated: whether the line ended with its newline. */
  lastByte: number;
  /** Annotated: a CR that ended the last segment, not written until the next says whether it ends the line. */
  heldCr: boolean;
}

const ESCAPED_CR = tsvField(Uint8Array.of(0x0d));

/** What a line too long to hold becomes in the output: the same as a shorter malformed line would. */
function overlongOutput(segment: OverlongSegment, options: FilterOptions, state: OverlongState): Uint8Array[] {
  if (options.emit !== 'all') return [];
  if (options.output === 'jsonl') return segment.last ? [new TextEncoder().encode('{"url":null,"malformed":true}\n')] : [];
  const bytes = segment.bytes;
  if (options.output !== 'tsv') {
    if (bytes.length > 0) state.lastByte = bytes[bytes.length - 1] as number;
    if (!segment.last) return [bytes];
    return state.lastByte === 0x0a ? [bytes] : [bytes, Uint8Array.of(0x0a)];
  }
  // Annotated: the line without its ending, escaped as a field, then the columns.
  let end = bytes.length;
  if (segment.last && end > 0 && bytes[end - 1] === 0x0a) end--;
  const parts: Uint8Array[] = [];
  if (state.heldCr && end > 0) parts.push(ESCAPED_CR);
  if (end > 0 || segment.last) state.heldCr = false;
  if (end > 0 && bytes[end - 1] === 0x0d) {
    end--;
    state.heldCr = !segment.last;
  }
  parts.push(tsvField(bytes.subarray(0, end), keepsTabs(options.shape)));
  if (segment.last) parts.push(new TextEncoder().encode('\tmalformed\t0\t\n'));
  return parts;
}

/**
 * A robots file or directory that is not there, or a --save-dir folder that cannot be made, is a usage error,
 * before any worker starts.
 */
function checkRobotsSource(options: FilterOptions): void {
  const { robots } = options;
  if (robots.kind === 'fetch') {
    if (robots.saveDir === undefined) return;
    try {
      mkdirSync(robots.saveDir, { recursive: true });
    } catch (error) {
      throw new UsageError(
        `--save-dir ${robots.saveDir}: the folder cannot be made (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      );
    }
    return;
  }
  const path = robots.kind === 'dir' ? robots.dir : robots.file;
  const flag = robots.kind === 'dir' ? '--robots-dir' : '--robots';
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    throw new UsageError(`${flag} ${path}: no such ${robots.kind === 'dir' ? 'directory' : 'file'}`);
  }
  if (isDirectory !== (robots.kind === 'dir'))
    throw new UsageError(`${flag} ${path}: not a ${robots.kind === 'dir' ? 'directory' : 'file'}`);
}

export async function runFilter(args: readonly string[]): Promise<number> {
  const options = readFilterOptions(args);
  for (const deprecation of options.deprecations) process.stderr.write(`robotstxt: note: ${deprecation}\n`);
  checkRobotsSource(options);
  const inputs = await checkInputs(options.files);
  const tally = new Tally(!options.quiet, inputs.size);
  const decider: BatchDecider = options.workers > 1 ? new WorkerPool(options.workers, options) : new InlineDecider(options);
  // With --fetch, this thread fetches each batch's new hosts' files and hands them to the deciding threads.
  const resolver = options.robots.kind === 'fetch' ? new FetchResolver(options, (host, body) => decider.hand(host, body)) : undefined;
  const output = new Output();
  const queue: Promise<BatchResult>[] = [];
  const overlong: OverlongState = { lastByte: 0x0a, heldCr: false };

  const settle = async (result: BatchResult): Promise<void> => {
    if (options.strict && result.firstMalformed >= 0) {
      throw new UsageError(`line ${tally.lines + result.firstMalformed + 1} holds no URL to decide (--strict)`);
    }
    tally.add(result);
    await output.write(result.output);
  };

  try {
    const items = batchesOf(readInputs(inputs, (bytes) => (tally.bytesRead += bytes)));
    for await (const item of items) {
      if (output.closed) break;
      if (item.kind === 'overlong') {
        // In order: everything before it first.
        while (queue.length > 0) await settle(await (queue.shift() as Promise<BatchResult>));
        if (item.first) {
          if (options.strict) throw new UsageError(`line ${tally.lines + 1} is longer than 4 MiB and holds no URL to decide (--strict)`);
          tally.addOverlong();
        }
        for (const part of overlongOutput(item, options, overlong)) await output.write(part);
        continue;
      }
      await resolver?.prepare(item.bytes);
      queue.push(decider.decide(item.bytes));
      // A rejected batch is reported when its turn comes; until then it must not count as unhandled.
      queue[queue.length - 1]?.catch(() => undefined);
      while (queue.length >= decider.inFlight) await settle(await (queue.shift() as Promise<BatchResult>));
    }
    while (queue.length > 0 && !output.closed) await settle(await (queue.shift() as Promise<BatchResult>));
  } finally {
    await decider.close();
  }
  tally.summary(resolver);
  return EXIT_OK;
}
