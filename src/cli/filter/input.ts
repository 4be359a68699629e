/**
 * The input of `filter`: files and stdin (`-`, or stdin alone when no file is named), each checked before
 * anything is written and decoded (./input-source.ts), as one stream of chunks; then cut into batches of
 * whole lines for deciding.
 *
 * Memory stays bounded whatever the input: a batch is about BATCH_BYTES, and a line that runs past
 * LONG_LINE_BYTES without a newline (binary garbage, a 300 MB "line") is not held whole: it goes on as
 * segments of one malformed line (OverlongSegment), which are written through only with `--emit all`.
 */
import { UsageError } from '../usage.js';
import { InputSource } from './input-source.js';
import { joined } from './joined.js';
import { LF } from '../../bytes.js';

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

/** The inputs, checked (./input-source.ts) before anything is written; and their total size, when all are files. */
export interface Inputs {
  readonly sources: readonly InputSource[];
  readonly size: number | undefined;
}

/**
 * Opens and checks every input, in order: `-` is stdin (read once at most), no FILE is stdin alone. A
 * UsageError (nothing written yet) for the first that cannot be read or is refused.
 */
export async function checkInputs(files: readonly string[]): Promise<Inputs> {
  const names = files.length === 0 ? ['-'] : files;
  if (names.filter((name) => name === '-').length > 1) throw new UsageError('- (stdin) is named more than once: stdin can be read once');
  const sources = names.map((name) => InputSource.named(name));
  for (const source of sources) await source.check();
  let size: number | undefined = 0;
  for (const source of sources) size = size === undefined || source.size === undefined ? undefined : size + source.size;
  return { sources, size };
}

const LF_BYTES = Uint8Array.of(LF);

/**
 * Every input's decoded chunks, in order; an input whose last line has no newline gets one, so that it does
 * not run into the next input's first line. `onRead` counts the raw bytes read.
 */
export async function* readInputs(inputs: Inputs, onRead: (bytes: number) => void): AsyncGenerator<Uint8Array> {
  for (const source of inputs.sources) {
    let last = 0x0a;
    for await (const chunk of source.read(onRead)) {
      if (chunk.length === 0) continue;
      // Plain Uint8Array views of Node's Buffers: the line scanners then see one kind of array, not two.
      yield new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
      last = chunk[chunk.length - 1] as number;
    }
    if (last !== 0x0a) yield LF_BYTES.slice();
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
