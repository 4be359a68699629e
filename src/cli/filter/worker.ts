/**
 * A worker thread of `filter --workers N`: decides the batches the main thread posts, with robots files of
 * its own (each thread compiles the hosts it meets once, in its own bounded LRU), and posts each batch's
 * output back with its sequence number. Only local robots sources run here (a directory, one file).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { decideBatch } from './decide.js';
import type { FilterSettings } from './options.js';
import { openSource } from './robots-source.js';

export interface BatchRequest {
  readonly sequence: number;
  readonly bytes: Uint8Array;
}

const settings = workerData as FilterSettings;
const source = openSource(settings);
const port = parentPort;
if (port === null) throw new Error('cli-worker.js runs as a worker thread of robotstxt filter');

port.on('message', ({ sequence, bytes }: BatchRequest) => {
  try {
    const result = decideBatch(bytes, settings, source);
    port.postMessage({ sequence, result }, [result.output.buffer as ArrayBuffer]);
  } catch (error) {
    port.postMessage({ sequence, error: error instanceof Error ? error.message : String(error) });
  }
});
