/**
 * Deciding batches: in the main thread, or spread over worker threads (`--workers N`) with their results
 * handed back in the order the batches came, so that the output is the same bytes whatever N.
 */
import type { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { BatchResult } from './decide.js';
import type { FilterSettings } from './options.js';
import type { HostOutcome } from './robots-source.js';
import type { BatchRequest } from './worker.js';

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

interface Pending {
  resolve(result: BatchResult): void;
  reject(error: Error): void;
}

/** Copies what a worker thread prints to this process's stderr, adding no listener to process.stderr. */
function forwardToStderr(stream: Readable): void {
  stream.on('data', (chunk: Buffer) => process.stderr.write(chunk));
}

export class WorkerPool implements BatchDecider {
  private readonly workers: Worker[];
  private readonly pending = new Map<number, Pending>();
  private sequence = 0;
  readonly inFlight: number;

  constructor(count: number, settings: FilterSettings) {
    const script = new URL('./cli-worker.js', import.meta.url);
    this.workers = Array.from({ length: count }, () => {
      // Not piped into this process's stdout and stderr, as Node does by default: each such pipe adds its own
      // 'error', 'close', 'finish' and 'unpipe' listeners to process.stdout and process.stderr, so with ten
      // workers the next listener anyone adds there (Output's, for EPIPE) set off MaxListenersExceededWarning.
      // A worker writes its batches' output as messages, never to stdout; whatever it prints all the same (a
      // warning of Node's) is a diagnostic, and goes to stderr, through listeners on the worker's own streams.
      const worker = new Worker(script, { workerData: settings, stdout: true, stderr: true });
      forwardToStderr(worker.stdout);
      forwardToStderr(worker.stderr);
      worker.on('message', (message: { sequence: number; result?: BatchResult; error?: string }) => {
        const waiting = this.pending.get(message.sequence);
        this.pending.delete(message.sequence);
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
    this.inFlight = 2 * count;
  }

  decide(bytes: Uint8Array, firstLine: number): Promise<BatchResult> {
    const sequence = this.sequence++;
    const worker = this.workers[sequence % this.workers.length] as Worker;
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
    for (const worker of this.workers) worker.postMessage({ host, body });
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }
}
