/**
 * One input of `filter` (a file, or `-` for stdin), opened, decoded and checked: gzip by its name (`.gz`) or
 * its first bytes, brotli by its name (`.br`: it has no signature), plain text otherwise; a UTF-8 byte order
 * mark at its start (after decoding) dropped. What is not text (../input-kind.ts: bzip2, xz, zstd, UTF-16,
 * binary) is refused by a UsageError, as is a stream that does not decode.
 *
 * check() reads the decoded head (SNIFF_BYTES) of an input before anything is written, so that a bad input
 * refuses the run with nothing written; what it read is kept for reading on when the input cannot be opened
 * again (stdin, a pipe), else the input is closed and read again from its start (a run may name thousands
 * of files: their heads are not all held). Memory stays bounded: everything streams.
 */
import { createReadStream, statSync } from 'node:fs';
import { pipeline, Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import { refusalText, sniff, SNIFF_BYTES } from '../input-kind.js';
import { readError, UsageError } from '../usage.js';
import { joined } from './joined.js';
import { BYTE_ORDER_MARK } from '../../bytes.js';

const READ_CHUNK_BYTES = 256 * 1024;
/** Bytes needed to tell a signature (xz's is the longest). */
const SIGNATURE_BYTES = 6;
type Decoding = 'plain' | 'gzip' | 'brotli';

/** Why a compressed stream stopped: not that compression at all (no byte came out), or cut short or corrupt. */
function decodeError(name: string, decoding: Exclude<Decoding, 'plain'>, produced: boolean, error: unknown): UsageError {
  const what = name === '-' ? 'stdin' : name;
  if (!produced) return new UsageError(`${what} is not valid ${decoding}`);
  const detail = error instanceof Error ? `: ${error.message}` : '';
  return new UsageError(`${what}: the ${decoding} stream is cut short or corrupt${detail}`);
}

/** Raw chunks from a stream, each counted as read. */
async function* counted(stream: Readable, onRead: (bytes: number) => void): AsyncGenerator<Uint8Array> {
  for await (const chunk of stream) {
    onRead((chunk as Buffer).length);
    yield chunk as Buffer;
  }
}

/** An input's decoded chunks, from the start of its raw chunks; refused when its signature says it is not text. */
async function* decoded(name: string, raw: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  // Enough of the head to tell a signature (a pipe may give a byte at a time).
  const head: Uint8Array[] = [];
  let headLength = 0;
  let done = false;
  while (headLength < SIGNATURE_BYTES && !done) {
    const next = await raw.next();
    if (next.done === true) done = true;
    else {
      head.push(next.value);
      headLength += next.value.length;
    }
  }
  if (headLength === 0) return;
  const kind = sniff(joined(head).subarray(0, SIGNATURE_BYTES));
  const lower = name.toLowerCase();
  const decoding: Decoding = lower.endsWith('.br') ? 'brotli' : kind === 'gzip' || lower.endsWith('.gz') ? 'gzip' : 'plain';
  // Brotli has no signature: its first bytes may look like anything.
  if (decoding !== 'brotli' && kind !== 'text' && kind !== 'gzip' && kind !== 'binary')
    throw new UsageError(refusalText(kind, name, 'filter … -'));
  const all = (async function* () {
    yield* head;
    if (done) return;
    for (let next = await raw.next(); next.done !== true; next = await raw.next()) yield next.value;
  })();
  if (decoding === 'plain') {
    yield* all;
    return;
  }
  let produced = false;
  // pipeline(), not pipe(): a read error of the file reaches the decoder's reader instead of leaving it waiting.
  const output = pipeline(Readable.from(all), decoding === 'gzip' ? createGunzip() : createBrotliDecompress(), () => undefined);
  try {
    for await (const chunk of output) {
      produced = true;
      yield chunk as Buffer;
    }
  } catch (error) {
    if (error instanceof UsageError || (error as NodeJS.ErrnoException).syscall !== undefined) throw error;
    throw decodeError(name, decoding, produced, error);
  }
}

/** Drops a UTF-8 byte order mark at the start of the chunks (it may come split over the first few). */
async function* withoutBom(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const head: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of chunks) {
    if (length >= BYTE_ORDER_MARK.length) {
      yield chunk;
      continue;
    }
    head.push(chunk);
    length += chunk.length;
    if (length < BYTE_ORDER_MARK.length) continue;
    const bytes = joined(head);
    yield bytes[0] === BYTE_ORDER_MARK[0] && bytes[1] === BYTE_ORDER_MARK[1] && bytes[2] === BYTE_ORDER_MARK[2]
      ? bytes.subarray(BYTE_ORDER_MARK.length)
      : bytes;
  }
  if (length > 0 && length < BYTE_ORDER_MARK.length) yield joined(head);
}

/** An input opened: its decoded chunks, the byte order mark dropped; close() lets go of its file. */
interface Opened {
  readonly chunks: AsyncIterator<Uint8Array>;
  close(): void;
}

/** One input: check() it, then read() it. */
export class InputSource {
  /** What check() opened and read of an input that cannot be opened again, to read on from. */
  private kept: { readonly opened: Opened; readonly head: Uint8Array } | undefined;
  /** Raw bytes read before read() was given its counter. */
  private readAhead = 0;
  private onRead: (bytes: number) => void = (bytes) => (this.readAhead += bytes);

  private constructor(
    /** As given: a path, or `-` for stdin. */
    readonly name: string,
    /** A regular file's size (it can be opened again); undefined for stdin, a pipe or a device. */
    readonly size: number | undefined,
  ) {}

  /** The input named `name` (`-`: stdin); a UsageError when it cannot be read. */
  static named(name: string): InputSource {
    if (name === '-') return new InputSource(name, undefined);
    try {
      const stats = statSync(name);
      if (stats.isDirectory()) throw Object.assign(new Error('a directory'), { code: 'EISDIR' });
      return new InputSource(name, stats.isFile() ? stats.size : undefined);
    } catch (error) {
      throw readError(name, error);
    }
  }

  private open(): Opened {
    const stream = this.name === '-' ? process.stdin : createReadStream(this.name, { highWaterMark: READ_CHUNK_BYTES });
    const raw = counted(stream, (bytes) => this.onRead(bytes))[Symbol.asyncIterator]();
    return {
      chunks: withoutBom(decoded(this.name, raw))[Symbol.asyncIterator](),
      close: () => {
        if (stream !== process.stdin) stream.destroy();
      },
    };
  }

  /** The next chunk of `opened`, its read errors as UsageErrors. */
  private async next(opened: Opened): Promise<IteratorResult<Uint8Array>> {
    try {
      return await opened.chunks.next();
    } catch (error) {
      opened.close();
      if (error instanceof UsageError) throw error;
      throw readError(this.name, error);
    }
  }

  /**
   * Reads the decoded head and refuses the input (a UsageError) when it is not UTF-8 text. read() reads
   * the head again, or, when the input cannot be opened again, goes on from what was read here.
   */
  async check(): Promise<void> {
    const opened = this.open();
    const chunks: Uint8Array[] = [];
    let length = 0;
    while (length < SNIFF_BYTES) {
      const next = await this.next(opened);
      if (next.done === true) break;
      chunks.push(next.value);
      length += next.value.length;
    }
    const head = joined(chunks);
    const kind = sniff(head.subarray(0, SNIFF_BYTES));
    if (kind !== 'text') {
      opened.close();
      throw new UsageError(refusalText(kind, this.name, 'filter … -'));
    }
    if (this.size === undefined) {
      this.kept = { opened, head };
    } else {
      opened.close();
      this.readAhead = 0;
    }
  }

  /** The input's decoded chunks from its start, the byte order mark dropped; `onRead` counts raw bytes read. */
  async *read(onRead: (bytes: number) => void): AsyncGenerator<Uint8Array> {
    onRead(this.readAhead);
    this.onRead = onRead;
    const kept = this.kept;
    this.kept = undefined;
    if (kept !== undefined && kept.head.length > 0) yield kept.head;
    const opened = kept?.opened ?? this.open();
    try {
      for (let next = await this.next(opened); next.done !== true; next = await this.next(opened)) yield next.value;
    } finally {
      opened.close();
    }
  }
}
