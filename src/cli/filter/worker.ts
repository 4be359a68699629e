/**
 * A worker thread of `filter --workers N`: decides the batches the main thread posts, with robots files of
 * its own (each thread compiles the hosts it meets once, in its own bounded LRU), and posts each batch's
 * output back with its sequence number. With --fetch, the main thread fetches and posts each host's file
 * (HandedFile) before the first batch that names it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { decideBatch } from './decide.js';
import type { FilterSettings } from './options.js';
import { HandedSource, openSource, type HostOutcome } from './robots-source.js';

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

const settings = workerData as FilterSettings;
const source = openSource(settings);
const port = parentPort;
if (port === null) throw new Error('cli-worker.js runs as a worker thread of robotstxt filter');

port.on('message', (message: BatchRequest | HandedFile) => {
  if ('host' in message) {
    if (source instanceof HandedSource) source.hand(message.host, message.body);
    return;
  }
  const { sequence, bytes, firstLine } = message;
  try {
    const result = decideBatch(bytes, settings, source, firstLine);
    port.postMessage({ sequence, result }, [result.output.buffer as ArrayBuffer]);
  } catch (error) {
    port.postMessage({ sequence, error: error instanceof Error ? error.message : String(error) });
  }
});
