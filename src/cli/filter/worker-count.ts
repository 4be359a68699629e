/**
 * How many threads decide `filter`'s lines: `--workers N` as given (1 to MAX_WORKERS), or a default chosen by
 * measurement from the input's size and the machine's cores.
 *
 * Measured when the default was chosen (docs/design.md#the-command), when --workers N was N worker threads
 * beside a main thread that only read and wrote, and each thread compiled every host it met:
 * `node bench/cli/run.mjs --lines N [--hosts 486] --workers 1,2,4`, its random-order log and the same lines
 * sorted by host, 50 bytes a line; 2 cores shared with other jobs (load average 4 to 11); lines/s,
 * median of 3 runs, random / sorted:
 *
 *   lines (bytes), hosts            --workers 1       --workers 2       --workers 4
 *   10 k (0.5 MB), 2,843         5.7 k /   4.6 k     5.3 k /   4.1 k     4.3 k /   4.5 k
 *   200 k (10 MB), 486          93.7 k / 105.6 k    53.0 k /  59.6 k    39.6 k /  50.1 k
 *   200 k (10 MB), 4,196        58.7 k /  52.3 k    30.8 k /  43.7 k    22.3 k /  34.5 k
 *   2 M (100 MB), 4,196        295.6 k / 340.3 k   159.2 k / 271.5 k    90.6 k / 212.8 k
 *
 * and a one-line input takes 0.20 s with --workers 1, 0.34 s with 2, 0.43 s with 4, 0.64 s with 8.
 *
 * Since then --workers N is N threads, the main thread one of them (it decides a batch whenever every worker
 * holds two), and a host is compiled once per run, by the first thread to meet it, the others copying its
 * bytecode (./shared-rulesets.ts). Measured again on the 2 M line log (4,196 hosts, output to a file),
 * interleaved, medians of 3 or 4 runs, on 2 cores shared with four other jobs (load average 8 to 16), CPU time
 * (user + system) and wall time:
 *
 *                   --workers 1              --workers 2              before: 1       before: 2
 *   random order    4.6–5.0 s, 11.9–14.3 s   8.0–8.1 s, 20.1–22.0 s   5.7 s, 14.3 s   9.1 s, 21.3 s
 *   sorted by host  3.7 s,  6.1 s            4.9 s,  7.1 s            4.1 s,  8.0 s   5.3 s, 13.3 s
 *
 * Per thread on the random log, CPU seconds from /proc: with 1, the deciding thread 3.1–3.4 and V8's helper
 * threads (garbage collection, the JIT) 1.1–1.6, which already keep much of the second core busy; with 2, the
 * main thread 2.5–2.6 and the worker 2.2–2.3, helpers 2.2–2.5; before, with 2, the main thread 0.7, the two
 * workers 2.4 and 2.5, helpers 2.6. Two deciding threads together spend 1.4 s more than one (each teaches its
 * scanner every host, holds its own copy of every ruleset in its own memory and warms its own code up), and on
 * 2 cores find no idle core to run on: there the default stays 1. The rule:
 *
 * - an input under SMALL_INPUT_BYTES, or of unknown size (a pipe on stdin): 1, decided in the main thread;
 * - larger: availableParallelism() - 1 threads (a core left to V8's helper threads and the reading and writing;
 *   1 on 2 cores), at most DEFAULT_CAP, which bounds what the duplicated start and tables cost a busy many-core
 *   machine. An input that large fills 16 batches (BATCH_BYTES) or more, enough for every one of the capped
 *   threads.
 *
 * A gzip file counts for the size its trailer records (its content's size modulo 4 GiB) when that is larger
 * than the file: a compressed log of 20 MB holds some 150 MB of lines.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { UsageError } from '../usage.js';

/** The most `--workers` takes: past the cores there is nothing to gain, and each thread holds its own rules. */
export const MAX_WORKERS = 64;
/**
 * Below this many bytes, the main thread alone: a worker pays off only once the lines to decide outweigh its
 * start, its own table of every host and its own warm-up. On 2 cores, with no core for the main thread, that was past 100 MB of
 * the many-host log in bench/RESULTS.md's quieter runs (--workers 2 0.8× of 1 in random order, 1.1× sorted); with
 * a core of its own for each thread it comes sooner.
 */
export const SMALL_INPUT_BYTES = 64 * 1024 * 1024;
/** The most worker threads the default starts, however many cores. */
export const DEFAULT_CAP = 4;

/** `--workers`: the value given, or the default for these input files (stdin when none, or `-`). */
export function workerCount(value: string | undefined, files: readonly string[]): number {
  if (value !== undefined) {
    const count = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!(count >= 1 && count <= MAX_WORKERS))
      throw new UsageError(`--workers takes a whole number ≥ 1 and ≤ ${MAX_WORKERS}, got ${JSON.stringify(value)}`);
    return count;
  }
  return defaultWorkers(inputBytes(files), availableParallelism());
}

/** The default worker count for an input of `bytes` (undefined: not known) on a machine of `cores`. */
export function defaultWorkers(bytes: number | undefined, cores: number): number {
  if (bytes === undefined || bytes < SMALL_INPUT_BYTES) return 1;
  // Threads in all, the main thread one of them: a core is left to V8's own threads.
  return Math.max(1, Math.min(DEFAULT_CAP, cores - 1));
}

/**
 * The input's bytes, as far as can be known without reading it: undefined when one input is not a regular
 * file (stdin from a pipe, a FIFO: those are never opened here) or cannot be read (the input's own checks say so).
 */
export function inputBytes(files: readonly string[]): number | undefined {
  let total = 0;
  for (const file of files.length === 0 ? ['-'] : files) {
    const bytes = fileBytes(file);
    if (bytes === undefined) return undefined;
    total += bytes;
  }
  return total;
}

function fileBytes(file: string): number | undefined {
  const stdin = file === '-';
  let fd: number | undefined;
  try {
    const stats = stdin ? fstatSync(0) : statSync(file);
    // Checked before opening: opening a FIFO would wait for its writer.
    if (!stats.isFile()) return undefined;
    fd = stdin ? 0 : openSync(file, 'r');
    // Read at the file's offsets, so that stdin redirected from a file is left where it was.
    return Math.max(stats.size, gzipContentBytes(fd, stats.size));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined && !stdin) closeSync(fd);
  }
}

/** A gzip file's ISIZE (its content's size modulo 2^32, in its last 4 bytes); 0 for any other file. */
function gzipContentBytes(fd: number, size: number): number {
  if (size < 18) return 0;
  const head = Buffer.alloc(4);
  if (readSync(fd, head, 0, 2, 0) !== 2 || head[0] !== 0x1f || head[1] !== 0x8b) return 0;
  return readSync(fd, head, 0, 4, size - 4) === 4 ? head.readUInt32LE(0) : 0;
}
