/**
 * `robotstxt filter`: URL lines in, the lines a crawler may fetch out, unchanged and in input order. Input is
 * read as bytes and cut into batches of whole lines (src/cli/filter/input.ts); each batch is decided in the
 * main thread or a worker thread (decide.ts, pool.ts) and written in order; stderr gets progress and a
 * summary (progress.ts).
 */
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { EXIT_OK, EXIT_USAGE, UsageError } from '../usage.js';
import { decideBatch, type BatchResult } from './decide.js';
import { FetchResolver } from './fetch-source.js';
import { batchesOf, inputSize, readInputs, type OverlongSegment } from './input.js';
import { readFilterOptions, type FilterOptions } from './options.js';
import { WorkerPool, type BatchDecider } from './pool.js';
import { HandedSource, openSource, type HostOutcome } from './robots-source.js';
import { Tally } from './progress.js';
import { checkSummaryTarget } from './summary.js';
import { keepsTabs, tsvField } from './tsv.js';

export const FILTER_HELP = `robotstxt filter: keep the URL lines a crawler may fetch.

Usage: robotstxt filter --agent NAME (--robots-dir DIR | --robots FILE | --fetch) [options] [FILE…]

Reads URL lines from the FILEs (stdin when none; gzip is read by its name or its first bytes), decides each
for the crawler, and writes the chosen lines to stdout, unchanged and in input order. A line is decided as
written, exactly as the library's rules.isAllowed(line) reads a string.

Robots files:
  --agent NAME           the crawler's product token (required), e.g. ExampleBot
  --robots-dir DIR       one robots.txt per host, named after the URL's host as the URL parser reads it
                         (lower case, punycode, no trailing dot), shared by http and https; a port other
                         than the scheme's default is added as _PORT (example.com_8080); for a default
                         port, host_443 or host_80 is found too; other bytes than a-z 0-9 . - _ are
                         written %xx, and names past 200 bytes end in %% and a hash (see the README).
                         A file that cannot be read (EACCES, ELOOP) is a note: its host's lines are
                         disallowed, reason unreachable. A fetch record beside a file (NAME%outcome.json,
                         written by --save-dir) says what the host's fetch came to, and is read first
  --robots FILE          one robots.txt for every URL (then lines may be paths: /a/b?c)
  --max-bytes N          read each robots.txt (file or fetched) up to N bytes (default 512000); a longer
                         one is cut there, said once on stderr with its size, and its lines carry reason cut
  --fetch                fetch each host's robots.txt from the site, once per host, and read what came as
                         RFC 9309 says: 2xx its rules (after up to 5 redirects); 4xx allow all (missing);
                         5xx and 429 disallow all (server-error); a timeout or a network error (refused
                         connection, DNS, reset, TLS) disallow all (unreachable)
    --concurrency N      fetches at a time (default 16)
    --user-agent UA      the User-Agent header sent (default robotstxt-cli/0.1)
    --timeout MS         per fetch, in milliseconds (default 10000)
    --save-dir DIR       write what was fetched in the --robots-dir layout, for the next run: each host's
                         file (a 2xx as it came, cut one byte past --max-bytes; a 4xx as an empty file) and
                         its fetch record NAME%outcome.json (status, reason, a failure's cause, final URL,
                         redirects, bytes, cut, when), a 5xx, a timeout and a refused host included, so that
                         --robots-dir on the folder gives the same output. Each written whole and renamed
                         into place (a symbolic link there is replaced, not followed); one that cannot be
                         written is said on stderr and counted
    --allow-internal-hosts   fetch from internal hosts too: by default localhost, loopback, private,
                         link-local, CGNAT and unique-local addresses, private names and cloud metadata
                         endpoints are refused (as written and as resolved, at every redirect too), as
                         the library reads them: a host refused disallows all (refused), a redirect to one
                         allows all (redirect-refused); counted in the summary
    --allow-network CIDR addresses in CIDR (e.g. 10.20.0.0/16) may be fetched, written as such or resolved
                         from a name (repeatable); a private name is then judged by its addresses.
                         Both also go with --robots-dir: a refusal recorded in a saved folder that this
                         policy allows reads as no file fetched (--missing decides, noted); the replay
                         never fetches nor looks up a name
  --missing allow|disallow   a host with no robots.txt known (default allow); counted in the summary
  --profile rfc9309|google|yandex   how rules and URLs are read (default rfc9309)
  --cache-mb N           compiled robots files kept per thread, in MiB (default 256)

Where the URL is:
  (default)              the whole line
  --field N              the Nth field (1-based, as cut counts) of tab-separated lines
    --delimiter C        another separator; ' ' takes a run of spaces as one
  --json-field KEY       a JSON object per line; KEY may be nested: request.url
  --format combined      Apache/nginx access logs: the request's path; the host is the vhost field
                         (vhost_combined), or --host NAME

Output:
  --emit allowed|disallowed|all   which lines to write (default allowed); malformed lines only with all
  --annotate             append TAB allowed|disallowed|malformed TAB the rule's line (0 for none) TAB the rule;
                         the line and the rule are written with \\t \\r \\n \\\\ and \\xHH for control bytes
  --output-format lines|jsonl     jsonl: {"url","allowed","line","rule"} per line instead of the line
  --strict               a malformed line is an error (exit 2) that names its line number
  -q, --quiet            no progress and no summary on stderr (progress is drawn only on a terminal: lines
                         decided, bytes decided of the total, hosts, with --fetch the fetches done and in
                         flight, and an ETA from the bytes decided)
  --summary-json FILE    write the run's summary to FILE as JSON when it ends (whole: a temporary file
                         renamed into place; not -, stdout holds the lines), also after an error once lines
                         were decided (complete: false):
                           lines {total, allowed, disallowed, malformed, byReason {rule, cut, missing,
                             server-error, unreachable, refused, redirect-refused, malformed}}
                           hosts {total, withoutRobots, cut, unreadable, fetch: null without --fetch or
                             fetch records, else {ok (2xx), redirected (2xx after redirects), clientError
                             (4xx), serverError (5xx, 429), timeout, networkError {total, causes {CODE: n}},
                             refused, redirectRefused}}   (hosts counted up to 1,000,000)
                           saved: null without --save-dir, else {saved, linksReplaced, failed}
                           bytes {read}, seconds, linesPerSecond, bytesPerSecond, complete, exitCode
  --workers N            worker threads (default: the number of cores); the output is the same bytes for any N.
                         With --fetch, the main thread fetches and the workers decide.

Malformed lines (no http(s) URL or path where one is expected, no host where one is needed, a host the
URL parser refuses, lines over 64 KiB, binary garbage) are counted, and written only with --emit all.
Exit codes: 0 done (fetch failures and cut files included); 1 done, but --summary-json could not be
written; 2 usage or input errors (and --strict's malformed line).

Example:
  robotstxt filter --agent ExampleBot --robots-dir robots/ --annotate --emit all urls.txt.gz`;

/** The exit code when the run was done but --summary-json could not be written (said on stderr). */
const EXIT_SUMMARY_UNWRITTEN = 1;

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
  if (robots.kind === 'file') {
    // Said here, before any worker starts: each thread reads the file.
    try {
      accessSync(path, constants.R_OK);
    } catch (error) {
      throw new UsageError(`--robots ${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  }
}

export async function runFilter(args: readonly string[]): Promise<number> {
  const options = readFilterOptions(args);
  for (const deprecation of options.deprecations) process.stderr.write(`robotstxt: note: ${deprecation}\n`);
  checkRobotsSource(options);
  checkSummaryTarget(options.summaryJson);
  const totalBytes = inputSize(options.files);
  const tally = new Tally(options, totalBytes);
  const decider: BatchDecider = options.workers > 1 ? new WorkerPool(options.workers, options) : new InlineDecider(options);
  // With --fetch, this thread fetches each batch's new hosts' files and hands them to the deciding threads.
  const resolver = options.robots.kind === 'fetch' ? new FetchResolver(options, (host, body) => decider.hand(host, body)) : undefined;
  tally.follow(resolver);
  const output = new Output();
  /** Batches in flight, each with the input bytes read when it was formed (which its progress counts as decided). */
  const queue: { readonly result: Promise<BatchResult>; readonly readTo: number }[] = [];
  const overlong: OverlongState = { lastByte: 0x0a, heldCr: false };

  const settle = async (item: { readonly result: Promise<BatchResult>; readonly readTo: number }): Promise<void> => {
    const result = await item.result;
    if (options.strict && result.firstMalformed >= 0) {
      throw new UsageError(`line ${tally.lines + result.firstMalformed + 1} holds no URL to decide (--strict)`);
    }
    tally.add(result, item.readTo);
    await output.write(result.output);
  };

  try {
    const items = batchesOf(readInputs(options.files, (bytes) => (tally.bytesRead += bytes)));
    for await (const item of items) {
      if (output.closed) break;
      if (item.kind === 'overlong') {
        // In order: everything before it first.
        while (queue.length > 0) await settle(queue.shift() as (typeof queue)[number]);
        if (item.first) {
          if (options.strict) throw new UsageError(`line ${tally.lines + 1} is longer than 4 MiB and holds no URL to decide (--strict)`);
          tally.addOverlong();
        }
        for (const part of overlongOutput(item, options, overlong)) await output.write(part);
        continue;
      }
      await resolver?.prepare(item.bytes);
      queue.push({ result: decider.decide(item.bytes), readTo: tally.bytesRead });
      // A rejected batch is reported when its turn comes; until then it must not count as unhandled.
      queue[queue.length - 1]?.result.catch(() => undefined);
      while (queue.length >= decider.inFlight) await settle(queue.shift() as (typeof queue)[number]);
    }
    while (queue.length > 0 && !output.closed) await settle(queue.shift() as (typeof queue)[number]);
  } catch (error) {
    // What was decided before the error is still reported to a monitor, as incomplete.
    tally.summaryAfterError(EXIT_USAGE);
    throw error;
  } finally {
    await decider.close();
  }
  // A --summary-json that could not be written is a run a monitor cannot read: not a success.
  return tally.summary(EXIT_OK, !output.closed) ? EXIT_OK : EXIT_SUMMARY_UNWRITTEN;
}
