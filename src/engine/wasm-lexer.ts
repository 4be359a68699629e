/**
 * The WebAssembly lexer (assembly/lexer.ts) as a RecordReader: the body is copied into linear memory,
 * lexed in chunks of records, and each record is handed to the RecordHandler as positions in the caller's
 * own bytes, exactly as src/parse/records.ts (the reference) would hand them.
 */
import type { RecordHandler } from '../parse/records.js';
import type { LinearAllocator } from './linear-allocator.js';

export interface LexerExports {
  lex(body: number, length: number, start: number, lineNumber: number, out: number, maxRecords: number): number;
  lexResumeAt(): number;
  lexLineNumber(): number;
  lexFinished(): number;
}

const RECORD_WORDS = 6;
const RECORDS_PER_CHUNK = 4096;
/** Bytes past the body that the lexer's 16-byte scans may read. */
const VECTOR_SLACK = 16;
const CUT_FLAG = 0x100;
const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf] as const;

export function isLexerExports(exports: WebAssembly.Exports): boolean {
  return ['lex', 'lexResumeAt', 'lexLineNumber', 'lexFinished'].every((name) => typeof exports[name] === 'function');
}

function byteOrderMarkLength(body: Uint8Array): number {
  let length = 0;
  while (length < BYTE_ORDER_MARK.length && body[length] === BYTE_ORDER_MARK[length]) length++;
  return length;
}

export class WasmLexer {
  private readonly recordsPointer: number;

  constructor(
    private readonly exports: LexerExports,
    private readonly allocator: LinearAllocator,
    private readonly words: () => Uint32Array,
    private readonly bytes: () => Uint8Array,
  ) {
    this.recordsPointer = allocator.allocate(RECORDS_PER_CHUNK * RECORD_WORDS * 4, 'the lexer records');
  }

  /**
   * The body is copied into a block allocated for this call and given back before it returns, so that a
   * 5 MB body leaves nothing counted in use afterwards; a body that cannot be allocated throws the
   * allocator's RangeError, with nothing changed. Not reentrant: a handler must not read another body.
   */
  read(body: Uint8Array, handler: RecordHandler): void {
    const pointer = this.allocator.allocate(body.length + VECTOR_SLACK, 'a copy of the robots.txt body');
    try {
      this.bytes().set(body, pointer);
      let start = byteOrderMarkLength(body);
      let lineNumber = 0;
      let finished = false;
      while (!finished) {
        const count = this.exports.lex(pointer, body.length, start, lineNumber, this.recordsPointer, RECORDS_PER_CHUNK);
        start = this.exports.lexResumeAt();
        lineNumber = this.exports.lexLineNumber();
        finished = this.exports.lexFinished() === 1;
        // A handler may grow memory, which replaces the view: each record is read through the current one.
        // (Copying the chunk out instead cost a tenth of a parse.)
        const first = this.recordsPointer >>> 2;
        for (let i = first; i < first + count * RECORD_WORDS; i += RECORD_WORDS) dispatch(this.words(), i, handler);
      }
    } finally {
      this.allocator.release(pointer);
    }
  }
}

/** Hands record `i` (a word index into `records`) to `handler`, every word read before any handler runs. */
function dispatch(records: Uint32Array, i: number, handler: RecordHandler): void {
  const line = records[i] as number;
  const keyStart = records[i + 1] as number;
  const keyEnd = records[i + 2] as number;
  const start = records[i + 3] as number;
  const end = records[i + 4] as number;
  const info = records[i + 5] as number;
  if (info & CUT_FLAG) handler.lineCut(line);
  switch (info & 0xff) {
    case 0:
      return handler.malformed(line);
    case 1:
      return handler.userAgent(line, start, end);
    case 2:
      return handler.rule(line, true, start, end);
    case 3:
      return handler.rule(line, false, start, end);
    case 4:
      return handler.sitemap(line, start, end);
    case 5:
      return handler.other(line, keyStart, keyEnd, start, end);
  }
}
