/**
 * A robots.txt file (or stdin, "-") as `check` and `lint` read it: at most a limit of its bytes, gzip
 * decompressed on the way (by its content: the name does not matter), any other kind of input refused
 * before it is parsed (input-kind.ts). What is read stays bounded whatever the input: a 10 GB file, /dev/zero
 * or a gzip bomb costs the limit and a decompressor's buffer, no more.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable, pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { printable } from './printable.js';
import { refusalText, sniff, SNIFF_BYTES } from './input-kind.js';
import { readError, UsageError } from './usage.js';

export interface RobotsInput {
  /** The input's first `limit` + 1 bytes at most, decompressed: one past the limit tells the parser whether the limit cut a line. */
  readonly bytes: Uint8Array;
  /** Its whole length in bytes when known: a plain file's size. Stdin's and a gzip file's are not known. */
  readonly size: number | undefined;
  /** Whether the input was gzip, and `bytes` are what it decompressed to. */
  readonly gzip: boolean;
}

/** Chunks from `chunks` until more than `limit` bytes are held or it ends; a stream is left open, to read on. */
async function take(chunks: AsyncIterator<Uint8Array>, limit: number): Promise<Uint8Array[]> {
  const taken: Uint8Array[] = [];
  let length = 0;
  while (length <= limit) {
    const next = await chunks.next();
    if (next.done === true) break;
    taken.push(next.value);
    length += next.value.length;
  }
  return taken;
}

/** At most `limit` + 1 bytes of a stream, which is then closed. */
export async function readUpTo(stream: AsyncIterable<Uint8Array>, limit: number): Promise<Uint8Array> {
  const chunks = stream[Symbol.asyncIterator]();
  try {
    const taken = await take(chunks, limit);
    return Buffer.concat(taken).subarray(0, limit + 1);
  } finally {
    await chunks.return?.();
  }
}

/** `head` then the rest of `chunks`, as one stream. */
async function* joined(head: readonly Uint8Array[], chunks: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield* head;
  for (let next = await chunks.next(); next.done !== true; next = await chunks.next()) yield next.value;
}

/** The decompressed bytes of a gzip stream, at most `limit` + 1 of them: a bomb is cut there, never held whole. */
async function gunzip(head: readonly Uint8Array[], chunks: AsyncIterator<Uint8Array>, limit: number): Promise<Uint8Array> {
  const decompressor = createGunzip();
  // pipeline destroys both streams when either fails or stops: a damaged file fails the read below.
  pipeline(Readable.from(joined(head, chunks)), decompressor, () => undefined);
  return readUpTo(decompressor, limit);
}

/**
 * Reads `path` ("-" for stdin) for `command`, how the command reads stdin as written after `robotstxt `
 * (`check - AGENT URL…`): what refusalText() shows. A file that cannot be read is readError()'s UsageError;
 * input of a kind that is not text or gzip, refusalText()'s.
 */
export async function readRobotsInput(path: string, limit: number, command: string): Promise<RobotsInput> {
  // Enough to tell the kind even when the limit is tiny (--max-bytes 0).
  const wanted = Math.max(limit, SNIFF_BYTES);
  let bytes: Uint8Array;
  let gzip = false;
  try {
    const chunks = (path === '-' ? process.stdin : createReadStream(path))[Symbol.asyncIterator]();
    try {
      const head = await take(chunks, wanted);
      let kind = sniff(Buffer.concat(head).subarray(0, SNIFF_BYTES));
      if (kind === 'gzip') {
        gzip = true;
        bytes = await gunzip(head, chunks, wanted);
        kind = sniff(bytes.subarray(0, SNIFF_BYTES));
      } else bytes = Buffer.concat(head);
      if (kind !== 'text') throw new UsageError(refusalText(kind, path, command));
    } finally {
      await chunks.return?.();
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw readError(path, error);
  }
  const size = path === '-' || gzip ? undefined : await fileSize(path);
  return { bytes: bytes.subarray(0, limit + 1), size, gzip };
}

async function fileSize(path: string): Promise<number | undefined> {
  return stat(path).then(
    (info) => (info.isFile() ? info.size : undefined),
    () => undefined,
  );
}

/**
 * The note for input longer than the limit, with its whole length when known (never the length read), else
 * saying it is unknown:
 * `robotstxt: note: big.txt is 10000000 bytes, longer than --max-bytes 1024000: only its first 1024000 bytes were linted`.
 * `done` is what was done with those bytes (parsed, linted).
 */
export function cutNote(name: string, size: number | undefined, limit: number, done: string): string {
  const length = size === undefined ? 'longer than' : `${size} bytes, longer than`;
  const unknown = size === undefined ? ' (its whole length is unknown)' : '';
  return `robotstxt: note: ${printable(name)} is ${length} --max-bytes ${limit}${unknown}: only its first ${limit} bytes were ${done}\n`;
}
