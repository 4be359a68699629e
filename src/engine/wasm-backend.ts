/**
 * The WebAssembly matcher as a backend (assembly/index.ts, compiled to build/matcher.wasm).
 *
 * One instance serves every ruleset: rulesets live in its linear memory (src/engine/linear-allocator.ts),
 * and URLs are written into one preallocated input region. A single check creates no JS object: its URL
 * is encoded to UTF-8 by hand (writeUrl), whatever its characters. A batch chunk that is all ASCII is
 * one native TextEncoder.encodeInto of the joined URLs; any other chunk is written URL by URL by hand.
 */
import type { RecordHandler } from '../parse/records.js';
import type { LoadedRuleset, MatcherBackend } from './backend.js';
import { LinearAllocator } from './linear-allocator.js';
import { isLexerExports, WasmLexer, type LexerExports } from './wasm-lexer.js';

interface MatcherExports extends LexerExports {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  decide(ruleset: number, input: number, length: number, scratch: number): number;
  isAllowed(ruleset: number, input: number, length: number, scratch: number): number;
  decidePath(ruleset: number, input: number, length: number, scratch: number): number;
  isAllowedPath(ruleset: number, input: number, length: number, scratch: number): number;
  decideMany(ruleset: number, input: number, table: number, count: number, scratch: number, out: number): void;
}

const INITIAL_INPUT_BYTES = 64 * 1024;
/** Bytes past the end of the input that the matcher's 16-byte scans may read. */
const VECTOR_SLACK = 16;
/** URLs per crossing of the batch entry. */
const BATCH_URLS = 4096;

function isMatcherExports(exports: WebAssembly.Exports): exports is WebAssembly.Exports & MatcherExports {
  return (
    exports.memory instanceof WebAssembly.Memory &&
    typeof exports.heapBase === 'function' &&
    typeof exports.decide === 'function' &&
    typeof exports.isAllowed === 'function' &&
    typeof exports.decidePath === 'function' &&
    typeof exports.isAllowedPath === 'function' &&
    typeof exports.decideMany === 'function' &&
    isLexerExports(exports)
  );
}

export class WasmBackend implements MatcherBackend {
  readonly kind = 'wasm';
  private readonly exports: MatcherExports;
  private readonly allocator: LinearAllocator;
  private readonly encoder = new TextEncoder();
  private bytes: Uint8Array;
  private words: Uint32Array;
  /** Input region (a URL, or a batch of URLs) and the scratch region the matcher rewrites paths into. */
  private inputPointer = 0;
  private inputCapacity = 0;
  private scratchPointer = 0;
  private readonly tablePointer: number;
  private readonly outPointer: number;
  private readonly lexer: WasmLexer;

  constructor(instance: WebAssembly.Instance) {
    if (!isMatcherExports(instance.exports)) throw new TypeError('not a robotstxt-wasm matcher module');
    this.exports = instance.exports;
    const memory = this.exports.memory;
    this.bytes = new Uint8Array(memory.buffer);
    this.words = new Uint32Array(memory.buffer);
    this.allocator = new LinearAllocator(memory, this.exports.heapBase(), () => {
      this.bytes = new Uint8Array(memory.buffer);
      this.words = new Uint32Array(memory.buffer);
    });
    this.tablePointer = this.allocator.allocate((BATCH_URLS + 1) * 4);
    this.outPointer = this.allocator.allocate(BATCH_URLS);
    this.reserveInput(INITIAL_INPUT_BYTES);
    this.lexer = new WasmLexer(this.exports, this.allocator, () => this.words, () => this.bytes);
  }

  /** The WebAssembly lexer as a RecordReader (src/parse/records.ts). */
  readonly readRecords = (body: Uint8Array, handler: RecordHandler): void => this.lexer.read(body, handler);

  /** Bytes of linear memory held by rulesets and buffers. */
  get bytesInUse(): number {
    return this.allocator.bytesInUse;
  }

  load(bytecode: Uint8Array): LoadedRuleset {
    const pointer = this.allocator.allocate(bytecode.byteLength);
    this.bytes.set(bytecode, pointer);
    return new WasmRuleset(this, pointer, bytecode.byteLength);
  }

  /** @internal Gives a ruleset's memory back (WasmRuleset.free). */
  release(pointer: number): void {
    this.allocator.release(pointer);
  }

  /** @internal */
  decide(ruleset: number, url: string): number {
    const length = this.writeInput(ruleset, url);
    return this.exports.decide(ruleset, this.inputPointer, length, this.scratchPointer);
  }

  /** @internal */
  isAllowed(ruleset: number, url: string): boolean {
    const length = this.writeInput(ruleset, url);
    return this.exports.isAllowed(ruleset, this.inputPointer, length, this.scratchPointer) === 1;
  }

  /** @internal */
  decidePath(ruleset: number, path: string): number {
    const length = this.writeInput(ruleset, path);
    return this.exports.decidePath(ruleset, this.inputPointer, length, this.scratchPointer);
  }

  /** @internal */
  isAllowedPath(ruleset: number, path: string): boolean {
    const length = this.writeInput(ruleset, path);
    return this.exports.isAllowedPath(ruleset, this.inputPointer, length, this.scratchPointer) === 1;
  }

  /** Writes one URL (or path) into the input region (grown when needed); returns its byte length. */
  private writeInput(ruleset: number, url: string): number {
    checkLive(ruleset);
    if (url.length * 3 > this.inputCapacity) this.reserveInput(url.length * 3);
    return this.writeUrl(url, this.inputPointer);
  }

  /** @internal */
  decideMany(ruleset: number, urls: readonly string[], out: Uint8Array): void {
    checkLive(ruleset);
    const table = this.tablePointer >>> 2;
    let first = 0;
    while (first < urls.length) {
      // A chunk: as many URLs as fit at 3 bytes per UTF-16 unit (the worst case), at most BATCH_URLS.
      let count = 0;
      let units = 0;
      this.words[table] = 0;
      while (first + count < urls.length && count < BATCH_URLS) {
        const length = (urls[first + count] as string).length;
        if ((units + length) * 3 > this.inputCapacity) {
          if (count > 0) break;
          this.reserveInput(length * 3);
        }
        units += length;
        count++;
        this.words[table + count] = units;
      }
      this.writeChunk(urls, first, count);
      this.exports.decideMany(ruleset, this.inputPointer, this.tablePointer, count, this.scratchPointer, this.outPointer);
      out.set(this.bytes.subarray(this.outPointer, this.outPointer + count), first);
      first += count;
    }
  }

  /**
   * Writes urls[first, first + count) one after another into the input region. An ASCII chunk is one
   * native encode of the joined URLs, whose offsets are then the UTF-16 ones already in the table; a chunk
   * with any other character is written URL by URL, and the table rewritten in bytes.
   */
  private writeChunk(urls: readonly string[], first: number, count: number): void {
    const joined = (first === 0 && count === urls.length ? urls : urls.slice(first, first + count)).join('');
    const input = this.bytes.subarray(this.inputPointer, this.inputPointer + this.inputCapacity);
    if (this.encoder.encodeInto(joined, input).written === joined.length) return;
    const table = this.tablePointer >>> 2;
    let used = 0;
    for (let i = 0; i < count; i++) {
      used += this.writeUrl(urls[first + i] as string, this.inputPointer + used);
      this.words[table + i + 1] = used;
    }
  }

  /**
   * Writes `url` as UTF-8 at `at` (a lone surrogate as U+FFFD, like TextEncoder); returns its byte length.
   * The caller reserved 3 bytes per UTF-16 unit. By hand, so that no check allocates.
   */
  private writeUrl(url: string, at: number): number {
    const bytes = this.bytes;
    const length = url.length;
    let out = at;
    for (let i = 0; i < length; i++) {
      let code = url.charCodeAt(i);
      if (code < 0x80) {
        bytes[out++] = code;
      } else if (code < 0x800) {
        bytes[out++] = 0xc0 | (code >> 6);
        bytes[out++] = 0x80 | (code & 0x3f);
      } else {
        if (code >= 0xd800 && code <= 0xdfff) {
          const low = url.charCodeAt(i + 1);
          if (code <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
            code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
            bytes[out++] = 0xf0 | (code >> 18);
            bytes[out++] = 0x80 | ((code >> 12) & 0x3f);
            bytes[out++] = 0x80 | ((code >> 6) & 0x3f);
            bytes[out++] = 0x80 | (code & 0x3f);
            i++;
            continue;
          }
          code = 0xfffd;
        }
        bytes[out++] = 0xe0 | (code >> 12);
        bytes[out++] = 0x80 | ((code >> 6) & 0x3f);
        bytes[out++] = 0x80 | (code & 0x3f);
      }
    }
    return out - at;
  }

  /**
   * Makes the input region hold at least `bytes`, plus the 16 bytes the matcher's vector scan may read
   * past a URL's end; the scratch region holds 3 × that, plus a slash.
   */
  private reserveInput(bytes: number): void {
    if (this.inputPointer !== 0) {
      this.allocator.release(this.inputPointer);
      this.allocator.release(this.scratchPointer);
    }
    this.inputCapacity = Math.max(bytes, this.inputCapacity * 2, INITIAL_INPUT_BYTES);
    this.inputPointer = this.allocator.allocate(this.inputCapacity + VECTOR_SLACK);
    this.scratchPointer = this.allocator.allocate(this.inputCapacity * 3 + 16);
  }
}

function checkLive(ruleset: number): void {
  if (ruleset === 0) throw new Error('this ruleset was disposed; compile it again with forAgent()');
}

/** One ruleset in the backend's memory: a small object per compiled agent, no closures. */
class WasmRuleset implements LoadedRuleset {
  constructor(
    private readonly backend: WasmBackend,
    private pointer: number,
    readonly byteLength: number,
  ) {}

  decide(url: string): number {
    return this.backend.decide(this.pointer, url);
  }

  isAllowed(url: string): boolean {
    return this.backend.isAllowed(this.pointer, url);
  }

  decidePath(path: string): number {
    return this.backend.decidePath(this.pointer, path);
  }

  isAllowedPath(path: string): boolean {
    return this.backend.isAllowedPath(this.pointer, path);
  }

  decideMany(urls: readonly string[], out: Uint8Array): void {
    this.backend.decideMany(this.pointer, urls, out);
  }

  free(): void {
    if (this.pointer !== 0) this.backend.release(this.pointer);
    this.pointer = 0;
  }
}

/** Instantiates the matcher from its compiled module (zero imports). */
export function createWasmBackend(module: WebAssembly.Module): WasmBackend {
  return new WasmBackend(new WebAssembly.Instance(module, {}));
}
