/**
 * The input of `filter`: files (or stdin when none), each plain or gzip (by its name or by its first two
 * bytes), as one stream of chunks; then cut into batches of whole lines for deciding.
 *
 * Memory stays bounded whatever the input: a batch is about BATCH_BYTES, and a line that runs past
 * LONG_LINE_BYTES without a newline (binary garbage, a 300 MB "line") is not held whole: it goes on as
 * segments of one malformed line (OverlongSegment), which are written through only with `--emit all`.
 */
import { createReadStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { UsageError } from '../usage.js';
import { joined } from './joined.js';

export const BATCH_BYTES = 4 * 1024 * 1024;
export const LONG_LINE_BYTES = 4 * 1024 * 1024;

/** Whole lines, in a buffer no other batch or chunk shares: it can be handed to a worker thread as it is. */
export interface LinesBatch {
  readonly kind: 'lines';
  readonly bytes: Uint8Array;
}

/** A piece of a line too long to hold: `first` opens it, `last` ends it (with its newline, if it had one). */
export interface OverlongSegment {
  readonly kind: 'overlong';
  readonly bytes: Uint8Array;
  readonly first: boolean;
  readonly last: boolean;
}

export type InputItem = LinesBatch | OverlongSegment;

/** Checks that every input file can be read; returns their total size when they are all files. */
export function inputSize(files: readonly string[]): number | undefined {
  let total = 0;
  for (const file of files) {
    try {
      const stats = statSync(file);
      if (!stats.isFile()) throw new UsageError(`${file} is not a file`);
      total += stats.size;
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
  return files.length === 0 ? undefined : total;
}

/** The chunks of one input, gunzipped when its first bytes say gzip; `onRead` counts the bytes read from it. */
async function* chunksOf(stream: Readable, onRead: (bytes: number) => void): AsyncGenerator<Uint8Array> {
  const raw = (async function* () {
    for await (const chunk of stream) {
      onRead((chunk as Buffer).length);
      yield chunk as Buffer;
    }
  })();
  const first = await raw.next();
  if (first.done === true) return;
  const head = first.value;
  const all = (async function* () {
    yield head;
    yield* raw;
  })();
  if (head[0] === 0x1f && head[1] === 0x8b) {
    const gunzip = Readable.from(all).pipe(createGunzip());
    try {
      for await (const chunk of gunzip) yield chunk as Buffer;
    } catch (error) {
      throw new UsageError(`the input is not valid gzip: ${(error as Error).message}`);
    }
  } else {
    yield* all;
  }
}

/** Every input's chunks, in order (stdin when there are no files). */
export async function* readInputs(files: readonly string[], onRead: (bytes: number) => void): AsyncGenerator<Uint8Array> {
  const streams =
    files.length === 0 ? [() => process.stdin] : files.map((file) => () => createReadStream(file, { highWaterMark: 256 * 1024 }));
  for (const open of streams) {
    // Plain Uint8Array views of Node's Buffers: the line scanners then see one kind of array, not two.
    for await (const chunk of chunksOf(open(), onRead)) yield new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
  }
}

/** Chunks as one array of a buffer of its own (one chunk may share its stream's buffer: it is copied). */
function owned(parts: readonly Uint8Array[]): Uint8Array {
  return parts.length === 1 ? (parts[0] as Uint8Array).slice() : joined(parts);
}

/** Cuts chunks into batches of whole lines (about BATCH_BYTES each) and segments of overlong lines. */
export async function* batchesOf(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<InputItem> {
  let pending: Uint8Array[] = [];
  let pendingLength = 0;
  /** Inside an overlong line: its segments go on until its newline. */
  let overlong = false;
  for await (const chunk of chunks) {
    if (overlong) {
      const newline = chunk.indexOf(0x0a);
      if (newline < 0) {
        yield { kind: 'overlong', bytes: chunk, first: false, last: false };
        continue;
      }
      yield { kind: 'overlong', bytes: chunk.subarray(0, newline + 1), first: false, last: true };
      overlong = false;
      pending = [chunk.subarray(newline + 1)];
      pendingLength = pending[0]?.length ?? 0;
      continue;
    }
    pending.push(chunk);
    pendingLength += chunk.length;
    if (pendingLength < BATCH_BYTES) continue;
    const batch = owned(pending);
    const last = batch.lastIndexOf(0x0a);
    if (last >= 0) {
      // The rest is copied: the batch's buffer may be handed to a worker thread (and detached here).
      pending = [batch.slice(last + 1)];
      pendingLength = batch.length - last - 1;
      yield { kind: 'lines', bytes: batch.subarray(0, last + 1) };
    } else if (batch.length > LONG_LINE_BYTES) {
      yield { kind: 'overlong', bytes: batch, first: true, last: false };
      overlong = true;
      pending = [];
      pendingLength = 0;
    } else {
      pending = [batch];
    }
    // A batch that ended in a long partial line: it may now be a line too long to hold.
    if (pendingLength > LONG_LINE_BYTES) {
      yield { kind: 'overlong', bytes: joined(pending), first: true, last: false };
      overlong = true;
      pending = [];
      pendingLength = 0;
    }
  }
  if (overlong) yield { kind: 'overlong', bytes: new Uint8Array(0), first: false, last: true };
  else if (pendingLength > 0) yield { kind: 'lines', bytes: owned(pending) };
}
