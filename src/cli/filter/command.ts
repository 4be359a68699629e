/**
 * `robotstxt filter`: URL lines in, the lines a crawler may fetch out, unchanged and in input order. Input is
 * read as bytes and cut into batches of whole lines (src/cli/filter/input.ts); each batch is decided in the
 * main thread or a worker thread (decide.ts, pool.ts) and written in order; stderr gets progress and a
 * summary (progress.ts).
 */
import { closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, UsageError } from '../usage.js';
import { DEFAULT_USER_AGENT } from '../report.js';
import type { BatchResult } from './decide.js';
import { FetchResolver } from './fetch-source.js';
import { batchesOf, checkInputs, readInputs, type OverlongSegment } from './input.js';
import { readFilterOptions, type FilterOptions } from './options.js';
import { InlineDecider, WorkerPool, type BatchDecider } from './pool.js';
import { Tally } from './progress.js';
import { headerLine, OverlongRecord } from './record.js';
import { checkSummaryTarget } from './summary.js';

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
                         written %xx, and names past 200 bytes end in %% and a hash (see docs/cli.md).
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
    --user-agent UA      the User-Agent header sent (default "${DEFAULT_USER_AGENT}")
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
  --input-format combined|common   Apache/nginx access logs (combined; common, without referer and
                         user agent; vhost_combined, with vhost:port first): the request's target. The
                         host of a path (GET /cart) is --host NAME, else the vhost field; an absolute
                         target (GET http://shop.example/cart) names its own host, which decides over
                         both (RFC 9112 §3.2.2)
  With --robots FILE, the URL may be any text, decided as rules.isAllowed() reads it: /a, example.com/a
  and ftp://example.com/a are decided as robotstxt check decides them. With --robots-dir or --fetch, it
  must be an http(s) URL whose host the URL parser accepts.

Usage preferences (what a site says its content may be used for, once fetched):
  --purpose train-ai|search|ai-input   keep a line only when its URL may be crawled AND the site does not
                         refuse that use: rules.usage(url)'s preference for it, from the agent's groups'
                         Content-Usage lines (train-ai, search) and Content-Signal lines (ai-train, search,
                         ai-input), the longest matching path deciding, a disallow anywhere winning. A host
                         allowed by its outcome (4xx, no file known) states none: unknown. A line dropped
                         so is disallowed, reason usage-disallow (usage-unknown); records end in a field
                         usage: allow, disallow, unknown, or null (empty) when the URL may not be crawled
    --unknown keep|drop  a line whose site states no preference for the purpose: kept (default) or
                         dropped, reason usage-unknown

Output:
  --format text|tsv|jsonl|csv   text (default): the chosen lines, byte for byte as they came;
                         tsv, jsonl, csv: one record per chosen line, with the input line number first:
                           n, url, verdict, reason, rule_kind, rule_pattern, rule_line, text
                         (jsonl: {"n","url","verdict","reason","rule":{"kind","pattern","line"}|null,"text"});
                         reason: rule (the file's rules decided; rule is null when none matched), cut (the
                         same, from a file cut at --max-bytes), missing, server-error, unreachable, refused,
                         redirect-refused (the host's fetch outcome), usage-disallow, usage-unknown (with
                         --purpose), malformed; text: the raw line when it is malformed or the URL is one
                         part of it, else empty (null). tsv escapes \\t \\r \\n \\\\ and control bytes as
                         \\xHH; csv quotes as RFC 4180 says, records end in CRLF; jsonl decodes bytes that
                         are not UTF-8 as U+FFFD
  --no-header            no header line in tsv and csv (for parts of a log joined later)
  --first-line N         the number of the input's first line (default 1): a part of a split log numbers its
                         records as the whole would (split -l 1000000: part k starts at k × 1000000 + 1)
  --emit allowed|disallowed|all   which lines to write (default allowed); malformed lines only with all
  --strict               stop at the first malformed line: say its number, exit 1
  --allow-malformed      exit 0 even when more than half of the lines are malformed
  -q, --quiet            no progress and no summary on stderr (progress is drawn only on a terminal: lines
                         decided, bytes decided of the total, hosts, with --fetch the fetches done and in
                         flight, and an ETA from the bytes decided)
  --summary-json FILE    write the run's summary to FILE as JSON when it ends (whole: a temporary file
                         renamed into place; not -, stdout holds the lines), also after an error once lines
                         were decided (complete: false):
                           lines {total, allowed, disallowed, malformed, byReason {rule, cut, missing,
                             server-error, unreachable, refused, redirect-refused, malformed; with --purpose
                             usage-disallow, usage-unknown}}
                           hosts {total, withoutRobots, cut, unreadable, fetch: null without --fetch or
                             fetch records, else {ok (2xx), redirected (2xx after redirects), clientError
                             (4xx), serverError (5xx, 429), timeout, networkError {total, causes {CODE: n}},
                             refused, redirectRefused}}   (hosts counted up to 1,000,000)
                           saved: null without --save-dir, else {saved, linksReplaced, failed}
                           bytes {read}, seconds, linesPerSecond, bytesPerSecond, complete, exitCode
  --workers N            threads that decide lines, 1 to 64, the main thread one of them (it reads and
                         writes too); the output is the same bytes for any N. Each host's file is compiled
                         once, by the first thread to meet it, and copied by the others. With --fetch, the
                         main thread fetches. As measured on 2 busy cores (2 M lines over 4,196 hosts, random
                         order): 2 threads used 1.6-1.7x the CPU of 1 and ran no faster, as V8's own threads
                         (garbage collection, the JIT) already use the second core; it pays where cores are
                         idle. Default: 1, in the main thread, for input under 64 MiB (gzip by its unpacked
                         size) or piped in; else the cores less one, at most 4
  Old spellings, still read (with a note): --annotate (--format tsv), --output-format lines|jsonl
  (--format text|jsonl), --format combined|common (--input-format).

Malformed lines are counted, and written only with --emit all: an empty line or field, a line over 64 KiB,
a missing field, a line that is not JSON, an access log line with no request or whose target is not a path
or an http(s) URL (* of OPTIONS, host:443 of CONNECT); with --robots-dir or --fetch, also a line with no
http(s) URL (/a, example.com/a, ftp://…) or a host the URL parser refuses (http://bad host/, http://a%2Fb/).
Exit codes: 0 done (disallowed lines, failed fetches and cut files included); 1 more than half of the lines
malformed (unless --allow-malformed), --strict's malformed line, or a --summary-json that could not be
written; 2 usage errors or refused input.

Example:
  robotstxt filter --agent ExampleBot --robots-dir robots/ --format csv --emit all urls.txt.gz`;

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

/**
 * What a line too long to hold becomes in the output, segment by segment: the same as a shorter malformed
 * line would. As text, its bytes as they came (and a newline if the input ended without one); as a record,
 * OverlongRecord's.
 */
class OverlongOutput {
  /** The last byte written as text: whether the line ended with its newline. */
  private lastByte = 0x0a;
  private record: OverlongRecord | undefined;

  constructor(private readonly options: FilterOptions) {}

  parts(segment: OverlongSegment, n: number): Uint8Array[] {
    const { options } = this;
    if (options.emit !== 'all') return [];
    if (options.output !== 'text') {
      if (segment.first) this.record = new OverlongRecord(options.output, n, options.usage !== undefined);
      return (this.record as OverlongRecord).segment(segment.bytes, segment.first, segment.last);
    }
    const { bytes } = segment;
    if (bytes.length > 0) this.lastByte = bytes[bytes.length - 1] as number;
    if (!segment.last) return [bytes];
    return this.lastByte === 0x0a ? [bytes] : [bytes, Uint8Array.of(0x0a)];
  }
}

/** Lines in a batch of whole lines: its newlines, and one more when the input's last line has none. */
function countLines(bytes: Uint8Array): number {
  let lines = 0;
  for (let at = bytes.indexOf(0x0a); at >= 0; at = bytes.indexOf(0x0a, at + 1)) lines++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a ? lines + 1 : lines;
}

/** More than this share of malformed lines makes a run exit 1 (unless --allow-malformed): the input was likely misread. */
const MALFORMED_SHARE = 0.5;

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
    // Said here, before any worker starts: each thread reads the file. Opened, not access()ed: Deno asks for
    // more than read permission to answer access().
    try {
      closeSync(openSync(path, 'r'));
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
  const inputs = await checkInputs(options.files);
  const tally = new Tally(options, inputs.size);
  const decider: BatchDecider = options.workers > 1 ? new WorkerPool(options.workers, options) : new InlineDecider(options);
  // With --fetch, this thread fetches each batch's new hosts' files and hands them to the deciding threads.
  const resolver = options.robots.kind === 'fetch' ? new FetchResolver(options, (host, body) => decider.hand(host, body)) : undefined;
  tally.follow(resolver);
  const output = new Output();
  /** Batches in input order, each `ready` once decided: written as soon as those before them are. */
  const queue: { readonly result: Promise<BatchResult>; readonly readTo: number; ready: boolean }[] = [];
  const overlong = new OverlongOutput(options);
  // Records number their lines: counted here, as batches are cut, since they are decided out of order.
  const numbered = options.output !== 'text';
  let nextLine = options.firstLine;
  /** --strict's first malformed line, which ends the run. */
  let strictStop: number | undefined;

  const settle = async (): Promise<void> => {
    const pending = queue.shift() as (typeof queue)[number];
    const result = await pending.result;
    if (options.strict && result.firstMalformed >= 0) {
      // The batch that holds it is not written: the output ends before the line, at a batch's edge.
      strictStop ??= tally.lines + result.firstMalformed + 1;
      return;
    }
    tally.add(result, pending.readTo);
    await output.write(result.output);
  };

  try {
    if (options.header) await output.write(headerLine(options.output, options.usage !== undefined));
    const items = batchesOf(readInputs(inputs, (bytes) => (tally.bytesRead += bytes)));
    for await (const item of items) {
      if (output.closed || strictStop !== undefined) break;
      if (item.kind === 'overlong') {
        // In order: everything before it first.
        while (queue.length > 0) await settle();
        if (strictStop !== undefined) break;
        if (item.first) {
          if (options.strict) {
            strictStop = tally.lines + 1;
            break;
          }
          tally.addOverlong();
        }
        for (const part of overlong.parts(item, nextLine)) await output.write(part);
        if (item.last) nextLine++;
        continue;
      }
      await resolver?.prepare(item.bytes);
      const firstLine = nextLine;
      if (numbered) nextLine += countLines(item.bytes);
      const pending = { result: decider.decide(item.bytes, firstLine), readTo: tally.bytesRead, ready: false };
      // A rejected batch is reported when its turn comes; until then it must not count as unhandled.
      const isReady = (): void => void (pending.ready = true);
      pending.result.then(isReady, isReady);
      queue.push(pending);
      // Output written as soon as it can be, so that the batches decided keep no more memory than they must.
      while (queue.length >= decider.inFlight || queue[0]?.ready === true) await settle();
    }
    while (queue.length > 0 && !output.closed && strictStop === undefined) await settle();
  } catch (error) {
    // What was decided before the error is still reported to a monitor, as incomplete.
    tally.summaryAfterError(EXIT_USAGE);
    throw error;
  } finally {
    await decider.close();
  }
  const mostlyMalformed = !options.allowMalformed && tally.lines > 0 && tally.malformed > MALFORMED_SHARE * tally.lines;
  const exitCode = strictStop !== undefined || mostlyMalformed ? EXIT_PROBLEMS : EXIT_OK;
  // A --summary-json that could not be written is a run a monitor cannot read: not a success.
  const summarized = tally.summary(exitCode, !output.closed && strictStop === undefined);
  if (strictStop !== undefined) {
    process.stderr.write(`robotstxt: line ${strictStop} holds no URL to decide (--strict): the run stopped there\n`);
  } else if (mostlyMalformed) {
    const share = Math.round((100 * tally.malformed) / tally.lines);
    process.stderr.write(
      `robotstxt: warning: ${tally.malformed} of ${tally.lines} lines (${share} %) hold no URL to decide: is the input format right? ` +
        '(--input-format, --field, --json-field; --allow-malformed accepts such a run)\n',
    );
  }
  return summarized ? exitCode : EXIT_PROBLEMS;
}
