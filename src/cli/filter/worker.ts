/**
 * A worker thread of `filter --workers N`: decides the batches the main thread posts, with robots files of
 * its own (each thread keeps the hosts it meets in its own bounded LRU, compiled once per run by whichever
 * thread meets a host first: ./shared-rulesets.ts), and posts each batch's
 * output back with its sequence number. With --fetch, the main thread fetches and posts each host's file
 * (HandedFile) before the first batch that names it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { decideBatch } from './decide.js';
import type { FilterSettings } from './options.js';
import { HandedSource, openSource, type HostOutcome } from './robots-source.js';
import { SharedRulesetCache, SharedRulesets } from './shared-rulesets.js';

export interface BatchRequest {
  readonly sequence: number;
  readonly bytes: Uint8Array;
  /** The input line number of the batch's first line. */
  readonly firstLine: number;
}

/** With --fetch: a host's file the main thread fetched, posted before the first batch that names the host. */
export interface HandedFile {
  readonly host: string;
  readonly body: Uint8Array | HostOutcome;
}

/** What a worker thread starts with: the settings, and the table of rulesets the threads share. */
export interface WorkerSetup {
  readonly settings: FilterSettings;
  readonly shared: SharedArrayBuffer;
  readonly slots: number;
}

const setup = workerData as WorkerSetup;
const { settings } = setup;
const source = openSource(settings);
const shared = new SharedRulesetCache(new SharedRulesets(setup.shared, setup.slots), settings.cacheBytes);
const port = parentPort;
if (port === null) throw new Error('cli-worker.js runs as a worker thread of robotstxt filter');

port.on('message', (message: BatchRequest | HandedFile) => {
  if ('host' in message) {
    if (source instanceof HandedSource) source.hand(message.host, message.body);
    return;
  }
  const { sequence, bytes, firstLine } = message;
  try {
    const result = decideBatch(bytes, settings, source, firstLine, shared);
    port.postMessage({ sequence, result }, [result.output.buffer as ArrayBuffer]);
  } catch (error) {
    port.postMessage({ sequence, error: error instanceof Error ? error.message : String(error) });
  }
});
