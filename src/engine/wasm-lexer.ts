/**
 * The WebAssembly lexer (assembly/lexer.ts) as a RecordReader: the body is copied into linear memory,
 * lexed in chunks of records, and each record is handed to the RecordHandler as positions in the caller's
 * own bytes, exactly as src/parse/records.ts (the reference) would hand them.
 */
import type { RecordHandler } from '../parse/records.js';
import {
  CUT_FLAG,
  KIND_ALLOW,
  KIND_DISALLOW,
  KIND_MALFORMED,
  KIND_MASK,
  KIND_OTHER,
  KIND_SITEMAP,
  KIND_USER_AGENT,
  RECORD_INFO,
  RECORD_KEY_END,
  RECORD_KEY_START,
  RECORD_LINE,
  RECORD_SIZE,
  RECORD_VALUE_END,
  RECORD_VALUE_START,
  VECTOR_SLACK,
} from '../layout.js';
import type { LinearAllocator } from './linear-allocator.js';
import { BYTE_ORDER_MARK } from '../bytes.js';

export interface LexerExports {
  lex(body: number, length: number, start: number, lineNumber: number, out: number, maxRecords: number): number;
  lexResumeAt(): number;
  lexLineNumber(): number;
  lexFinished(): number;
}

// A record's size and fields in u32 words, the unit the records are read in.
const RECORD_WORDS = RECORD_SIZE / 4;
const LINE_WORD = RECORD_LINE / 4;
const KEY_START_WORD = RECORD_KEY_START / 4;
const KEY_END_WORD = RECORD_KEY_END / 4;
const VALUE_START_WORD = RECORD_VALUE_START / 4;
const VALUE_END_WORD = RECORD_VALUE_END / 4;
const INFO_WORD = RECORD_INFO / 4;
const RECORDS_PER_CHUNK = 4096;
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
    this.recordsPointer = allocator.allocate(RECORDS_PER_CHUNK * RECORD_SIZE, 'the lexer records');
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
  const line = records[i + LINE_WORD] as number;
  const keyStart = records[i + KEY_START_WORD] as number;
  const keyEnd = records[i + KEY_END_WORD] as number;
  const start = records[i + VALUE_START_WORD] as number;
  const end = records[i + VALUE_END_WORD] as number;
  const info = records[i + INFO_WORD] as number;
  if (info & CUT_FLAG) handler.lineCut(line);
  switch (info & KIND_MASK) {
    case KIND_MALFORMED:
      return handler.malformed(line);
    case KIND_USER_AGENT:
      return handler.userAgent(line, start, end);
    case KIND_ALLOW:
      return handler.rule(line, true, start, end);
    case KIND_DISALLOW:
      return handler.rule(line, false, start, end);
    case KIND_SITEMAP:
      return handler.sitemap(line, start, end);
    case KIND_OTHER:
      return handler.other(line, keyStart, keyEnd, start, end);
  }
}
