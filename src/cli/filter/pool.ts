/**
 * Deciding batches: in the main thread, or spread over it and worker threads (`--workers N`: N threads in all,
 * the main thread one of them) with their results handed back in the order the batches came, so that the
 * output is the same bytes whatever N.
 */
import type { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { decideBatch, type BatchResult } from './decide.js';
import type { FilterSettings } from './options.js';
import { HandedSource, openSource, type HostOutcome } from './robots-source.js';
import { SharedRulesetCache, SharedRulesets } from './shared-rulesets.js';
import type { BatchRequest, WorkerSetup } from './worker.js';

export interface BatchDecider {
  /**
   * The result of `bytes` (a LinesBatch's: its buffer may be handed to another thread, and is then no longer
   * the caller's), whose first line is input line `firstLine`, decided in turn; results come back in the order
   * of the calls.
   */
  decide(bytes: Uint8Array, firstLine: number): Promise<BatchResult>;
  /** Batches that may be in flight before the caller waits for the oldest. */
  readonly inFlight: number;
  /** With --fetch: a host's file, for every thread that decides, before any batch that names the host. */
  hand(host: string, body: Uint8Array | HostOutcome): void;
  close(): Promise<void>;
}

/** Batches decided in this thread. */
export class InlineDecider implements BatchDecider {
  readonly inFlight = 1;
  private readonly source;
  private readonly shared: SharedRulesetCache | undefined;

  /** `shared`: the rulesets this thread shares with the others that decide (./shared-rulesets.ts). */
  constructor(
    private readonly settings: FilterSettings,
    shared?: SharedRulesets,
  ) {
    this.source = openSource(settings);
    this.shared = shared === undefined ? undefined : new SharedRulesetCache(shared, settings.cacheBytes);
  }

  async decide(bytes: Uint8Array, firstLine: number): Promise<BatchResult> {
    return this.decideNow(bytes, firstLine);
  }

  decideNow(bytes: Uint8Array, firstLine: number): BatchResult {
    return decideBatch(bytes, this.settings, this.source, firstLine, this.shared);
  }

  hand(host: string, body: Uint8Array | HostOutcome): void {
    if (this.source instanceof HandedSource) this.source.hand(host, body);
  }

  async close(): Promise<void> {}
}

interface Pending {
  resolve(result: BatchResult): void;
  reject(error: Error): void;
}

/**
 * Batches a worker holds (the one it decides and the next, so that it never waits for the main thread to post
 * one) before the main thread decides the next batch itself.
 */
const QUEUED_PER_WORKER = 2;

/** Copies what a worker thread prints to this process's stderr, adding no listener to process.stderr. */
function forwardToStderr(stream: Readable): void {
  stream.on('data', (chunk: Buffer) => process.stderr.write(chunk));
}

/**
 * `threads` threads deciding batches: threads - 1 worker threads, and this one. The main thread's own share
 * matters on a machine with as many cores as threads: had it only read, posted and written while `threads`
 * workers decided, N workers would have been N + 1 threads competing for N cores (on 2 cores, two workers ran
 * at 0.7–1.1× one). A batch goes to the worker with the fewest queued, while one holds fewer than
 * QUEUED_PER_WORKER; else the main thread decides it at once, so that every thread stays busy and the share
 * each takes follows its speed (the main thread also reads, writes and, with --fetch, fetches).
 */
export class WorkerPool implements BatchDecider {
  private readonly workers: Worker[];
  /** Batches posted to each worker and not yet answered. */
  private readonly queued: number[];
  private readonly pending = new Map<number, Pending>();
  private readonly inline: InlineDecider;
  private sequence = 0;
  readonly inFlight: number;

  constructor(threads: number, settings: FilterSettings) {
    const script = new URL('./cli-worker.js', import.meta.url);
    const count = Math.max(1, threads - 1);
    const shared = SharedRulesets.create(settings.cacheBytes);
    this.inline = new InlineDecider(settings, shared);
    this.queued = new Array<number>(count).fill(0);
    this.workers = Array.from({ length: count }, (_, slot) => {
      // Not piped into this process's stdout and stderr, as Node does by default: each such pipe adds its own
      // 'error', 'close', 'finish' and 'unpipe' listeners to process.stdout and process.stderr, so with ten
      // workers the next listener anyone adds there (Output's, for EPIPE) set off MaxListenersExceededWarning.
      // A worker writes its batches' output as messages, never to stdout; whatever it prints all the same (a
      // warning of Node's) is a diagnostic, and goes to stderr, through listeners on the worker's own streams.
      const worker = new Worker(script, {
        workerData: { settings, shared: shared.buffer, slots: shared.slots } satisfies WorkerSetup,
        stdout: true,
        stderr: true,
      });
      forwardToStderr(worker.stdout);
      forwardToStderr(worker.stderr);
      worker.on('message', (message: { sequence: number; result?: BatchResult; error?: string }) => {
        const waiting = this.pending.get(message.sequence);
        this.pending.delete(message.sequence);
        this.queued[slot] = (this.queued[slot] as number) - 1;
        if (message.result !== undefined) waiting?.resolve(message.result);
        else waiting?.reject(new Error(message.error));
      });
      worker.on('error', (error) => this.failAll(error));
      // A worker that ends while batches wait for it would leave them waiting forever.
      worker.on('exit', (code) => {
        if (!this.closing) this.failAll(new Error(`a worker thread ended (exit code ${code}) before deciding its batches`));
      });
      return worker;
    });
    // Every worker's queue full, and one batch more that this thread decides while they work.
    this.inFlight = QUEUED_PER_WORKER * count + 2;
  }

  decide(bytes: Uint8Array, firstLine: number): Promise<BatchResult> {
    let slot = 0;
    for (let at = 1; at < this.workers.length; at++) if ((this.queued[at] as number) < (this.queued[slot] as number)) slot = at;
    if ((this.queued[slot] as number) >= QUEUED_PER_WORKER) {
      try {
        return Promise.resolve(this.inline.decideNow(bytes, firstLine));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
    const sequence = this.sequence++;
    this.queued[slot] = (this.queued[slot] as number) + 1;
    const worker = this.workers[slot] as Worker;
    return new Promise<BatchResult>((resolve, reject) => {
      this.pending.set(sequence, { resolve, reject });
      worker.postMessage({ sequence, bytes, firstLine } satisfies BatchRequest, [bytes.buffer as ArrayBuffer]);
    });
  }

  private closing = false;

  private failAll(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }

  hand(host: string, body: Uint8Array | HostOutcome): void {
    this.inline.hand(host, body);
    for (const worker of this.workers) worker.postMessage({ host, body });
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }
}
