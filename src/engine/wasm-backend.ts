/**
 * The WebAssembly matcher as a backend (assembly/index.ts lists the exports of its modules; compiled to build/matcher.wasm).
 *
 * One instance serves every ruleset: rulesets live in its linear memory (src/engine/linear-allocator.ts),
 * and URLs are written into one preallocated input region. A single check creates no JS object: its URL
 * is encoded to UTF-8 by the platform's writer (src/engine/utf8-writer.ts), whatever its characters. A batch chunk that is all ASCII is
 * one native TextEncoder.encodeInto of the joined URLs; any other chunk is written URL by URL by hand.
 *
 * Byte ranges (decideBytes: UTF-8 text the caller holds as bytes, read as TextDecoder reads it) go in chunks
 * too, planned by src/engine/byte-chunks.ts: the span of the caller's bytes that a chunk's ranges cover is
 * copied in with one set() when they are close together, else the ranges are gathered one after another;
 * either way the table gets the ranges' places
 * in the region as pairs (the layout below, RANGE_ENTRY_WORDS). The matcher
 * checks each range is well-formed UTF-8 and decides it; a range that is not (RANGE_NOT_UTF8, rare) is
 * decoded here and decided as that string, since the U+FFFD a TextDecoder puts for bad bytes is encoded
 * differently from the bytes themselves.
 *
 * A URL too long for the input region gets a region of its own for the length of the call, given back
 * before the call returns: one 10 MB URL must not keep hundreds of megabytes counted as in use for the
 * life of the process. (Linear memory itself cannot shrink: the pages it grew by stay, free for reuse.)
 *
 * Which rulesets are in linear memory at a time, within a budget, is src/engine/residency.ts's job.
 */
import { automatonWorkNeeds, checkBytecode } from '../compile/bytecode.js';
import { CHUNK_COPY, CHUNK_LONG, planChunk, type ChunkPlan } from './byte-chunks.js';
import { RANGE_END, RANGE_ENTRY_SIZE, RANGE_NOT_UTF8, RANGE_START, RULESET_RESERVE, USE_MARK, VECTOR_SLACK } from '../layout.js';
import type { RecordHandler } from '../parse/records.js';
import { utf8Length } from '../parse/utf8.js';
import { QUERY_PATH, QUERY_VERDICT_ONLY, type LoadedRuleset, type MatcherBackend, type QueryFlags } from './backend.js';
import { LinearAllocator } from './linear-allocator.js';
import { handWrittenUtf8, type Utf8Writer, type Utf8WriterFactory } from './utf8-writer.js';
import { isLexerExports, WasmLexer, type LexerExports } from './wasm-lexer.js';
import { ResidentRuleset, Residents } from './residency.js';
import { checkLayout } from './wasm-layout.js';

/**
 * The module's line scanner (assembly/filter/line-scanner.ts), which only `robotstxt filter` drives: the CLI
 * builds its driver (src/cli/filter/line-scanner.ts) from the backend's linearMemory(). Checked here with the
 * rest of the module's exports, so that a module without it is refused at load, as one without any other.
 */
export interface LineScannerExports {
  scanLines(state: number): number;
  rememberHost(state: number, value: number): number;
  moveHosts(state: number, from: number, slots: number, keys: number): void;
  forgetHosts(state: number): void;
}

function isLineScannerExports(exports: WebAssembly.Exports): boolean {
  return ['scanLines', 'rememberHost', 'moveHosts', 'forgetHosts'].every((name) => typeof exports[name] === 'function');
}

/**
 * @internal What code that drives the module's other functions (the CLI's line scanner) needs of a backend:
 * the exports, the allocator of its linear memory, views of that memory (new ones after it grows), how many
 * rulesets residency has moved out so far, and where a ruleset is (made resident), or 0 for another backend's.
 */
export interface WasmMemory {
  readonly exports: LineScannerExports;
  readonly allocator: LinearAllocator;
  words(): Uint32Array;
  bytes(): Uint8Array;
  evictions(): number;
  addressOf(ruleset: LoadedRuleset): number;
}

interface MatcherExports extends LexerExports, LineScannerExports {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  decide(ruleset: number, input: number, length: number, scratch: number): number;
  isAllowed(ruleset: number, input: number, length: number, scratch: number): number;
  decidePath(ruleset: number, input: number, length: number, scratch: number): number;
  isAllowedPath(ruleset: number, input: number, length: number, scratch: number): number;
  decideMany(ruleset: number, input: number, table: number, count: number, scratch: number, out: number): void;
  decideRanges(ruleset: number, input: number, table: number, count: number, scratch: number, out: number): number;
  decideRange(ruleset: number, input: number, length: number, scratch: number): number;
  setWorkArea(pointer: number, memoNodes: number, bytes: number): void;
}

/** Input bytes the standing region holds: a URL of up to a third of this many UTF-16 units fits whatever its characters. */
const INPUT_BYTES = 64 * 1024;
/** URLs per crossing of the batch entry. */
const BATCH_URLS = 4096;
/**
 * The range batch (decideRanges in assembly/batch.ts; the layout is src/layout.ts's RANGE_*): a table entry
 * is RANGE_ENTRY_WORDS u32s, a range's start and end offsets into the input region; the verdict byte
 * RANGE_NOT_UTF8 marks a range that is not well-formed UTF-8, left for the host. Ranges share the URL
 * table, BATCH_RANGES of them per crossing.
 */
const RANGE_ENTRY_WORDS = RANGE_ENTRY_SIZE / 4;
const RANGE_START_WORD = RANGE_START / 4;
const RANGE_END_WORD = RANGE_END / 4;
const BATCH_RANGES = Math.floor((BATCH_URLS + 1) / RANGE_ENTRY_WORDS);
/** Ranges up to this long are gathered byte by byte: cheaper than the view a set() needs. */
const GATHER_BY_HAND = 128;
/** A single check's range up to this long is copied by hand (decideUtf8): cheaper than the view a set() needs. */
const COPY_BY_HAND = 128;
/** Where the scratch starts in a region for `capacity` input bytes: after the input and its slack. */
function scratchOffset(capacity: number): number {
  return Math.ceil((capacity + VECTOR_SLACK) / 16) * 16;
}

/** Bytes of a region for `capacity` input bytes: the scratch holds 3 × those (%XX each), a slash, and slack. */
function regionBytes(capacity: number): number {
  return scratchOffset(capacity) + capacity * 3 + 1 + VECTOR_SLACK;
}

function isMatcherExports(exports: WebAssembly.Exports): exports is WebAssembly.Exports & MatcherExports {
  return (
    exports.memory instanceof WebAssembly.Memory &&
    typeof exports.heapBase === 'function' &&
    typeof exports.decide === 'function' &&
    typeof exports.isAllowed === 'function' &&
    typeof exports.decidePath === 'function' &&
    typeof exports.isAllowedPath === 'function' &&
    typeof exports.decideMany === 'function' &&
    typeof exports.decideRanges === 'function' &&
    typeof exports.decideRange === 'function' &&
    typeof exports.setWorkArea === 'function' &&
    isLexerExports(exports) &&
    isLineScannerExports(exports)
  );
}

export class WasmBackend implements MatcherBackend {
  readonly kind = 'wasm';
  private readonly exports: MatcherExports;
  private readonly allocator: LinearAllocator;
  private readonly encoder = new TextEncoder();
  /** For the ranges that are not well-formed UTF-8: the string a TextDecoder makes of them decides. */
  private readonly decoder = new TextDecoder();
  private bytes: Uint8Array;
  private words: Uint32Array;
  /**
   * The standing input region (a URL, or a batch of URLs) and, in the same block, the scratch region the
   * matcher rewrites paths into. Fixed in size: longer input gets a region of its own (withRegion).
   */
  private readonly inputPointer: number;
  private readonly scratchPointer: number;
  private readonly tablePointer: number;
  private readonly outPointer: number;
  private readonly lexer: WasmLexer;
  /** The byte ranges' chunk being decided (decideBytes), one object for every call. */
  private readonly plan: ChunkPlan = { count: 0, how: CHUNK_COPY, low: 0, high: 0 };
  /** @internal The rulesets in linear memory now (src/engine/residency.ts). */
  readonly residents: Residents;

  /** Encodes URLs into linear memory: the platform's fastest way (src/engine/utf8-writer.ts). */
  private write: Utf8Writer;

  constructor(instance: WebAssembly.Instance, utf8Writer: Utf8WriterFactory = handWrittenUtf8) {
    if (!isMatcherExports(instance.exports)) throw new TypeError('not a robotstxt-wasm matcher module');
    checkLayout(instance.exports);
    this.exports = instance.exports;
    const memory = this.exports.memory;
    this.bytes = new Uint8Array(memory.buffer);
    this.words = new Uint32Array(memory.buffer);
    this.write = utf8Writer(memory.buffer);
    this.allocator = new LinearAllocator(memory, this.exports.heapBase(), () => {
      this.bytes = new Uint8Array(memory.buffer);
      this.words = new Uint32Array(memory.buffer);
      this.write = utf8Writer(memory.buffer);
    });
    this.tablePointer = this.allocator.allocate((BATCH_URLS + 1) * 4, 'the batch table');
    this.outPointer = this.allocator.allocate(BATCH_URLS, 'the batch verdicts');
    this.inputPointer = this.allocator.allocate(regionBytes(INPUT_BYTES), 'the URL input region');
    this.scratchPointer = this.inputPointer + scratchOffset(INPUT_BYTES);
    this.lexer = new WasmLexer(
      this.exports,
      this.allocator,
      () => this.words,
      () => this.bytes,
    );
    this.residents = new Residents({
      place: (bytecode) => this.place(bytecode),
      copyOut: (pointer, bytes) => this.bytes.slice(pointer, pointer + bytes),
      holds: (pointer, bytecode) => {
        const bytes = this.bytes;
        for (let i = 0; i < bytecode.length; i++) if (bytes[pointer + i] !== bytecode[i]) return false;
        return true;
      },
      takeUseMark: (pointer) => {
        const mark = (pointer - USE_MARK) >>> 2;
        const used = this.words[mark] !== 0;
        this.words[mark] = 0;
        return used;
      },
      release: (pointer) => {
        this.allocator.release(pointer - RULESET_RESERVE);
        this.releaseWorkArea(pointer);
      },
      moved: () => {
        this.epoch++;
      },
    });
  }

  /** The WebAssembly lexer as a RecordReader (src/parse/records.ts). */
  readonly readRecords = (body: Uint8Array, handler: RecordHandler): void => this.lexer.read(body, handler);

  /** @internal The backend's linear memory, for the CLI's line scanner (src/cli/filter/line-scanner.ts). */
  linearMemory(): WasmMemory {
    return {
      exports: this.exports,
      allocator: this.allocator,
      words: () => this.words,
      bytes: () => this.bytes,
      evictions: () => this.residents.evictions,
      addressOf: (ruleset) => this.addressOf(ruleset),
    };
  }

  /**
   * @internal Where `ruleset` is in linear memory (made resident, which may evict others: see
   * `residents.evictions`), or 0 when it is not this backend's.
   */
  addressOf(ruleset: LoadedRuleset): number {
    return ruleset instanceof WasmRuleset && ruleset.backend === this ? ruleset.handOut() : 0;
  }

  /** Bytes of linear memory held by rulesets and buffers. */
  get bytesInUse(): number {
    return this.allocator.bytesInUse;
  }

  load(bytecode: Uint8Array): LoadedRuleset {
    checkBytecode(bytecode);
    return new WasmRuleset(this, bytecode);
  }

  /**
   * A resident's place: its use mark (set: a block just placed gets a round of the clock), its bytes, and the
   * work area grown to what they need (residency.ts, ResidentMemory).
   */
  private place(bytecode: Uint8Array): number {
    // VECTOR_SLACK past the bytecode: the matcher reads a pattern 16 bytes at a time.
    const start = this.allocator.allocate(RULESET_RESERVE + bytecode.byteLength + VECTOR_SLACK, 'a compiled ruleset');
    const pointer = start + RULESET_RESERVE;
    // The ruleset first, then the work area: if the work area cannot grow, the ruleset is given back and
    // the failed load leaves nothing behind (reserveWorkArea keeps the old area until the new one exists).
    try {
      this.reserveWorkArea(bytecode);
    } catch (error) {
      this.allocator.release(start);
      throw error;
    }
    this.words[(pointer - USE_MARK) >>> 2] = 1;
    this.bytes.set(bytecode, pointer);
    if (automatonWorkNeeds(bytecode) !== undefined) this.automatonRulesets.add(pointer);
    return pointer;
  }

  // ---- The piece automaton's work area (src/compile/bytecode.ts, "Work area"): one for every ruleset,
  // grown at load time to the largest any loaded ruleset needs, zeroed when allocated, kept zeroed by the
  // matcher between checks, and given back once no loaded ruleset has an automaton. Most rulesets have none.
  private workArea = 0;
  private workMemoNodes = 0;
  private workBytes = 0;
  private readonly automatonRulesets = new Set<number>();

  private reserveWorkArea(bytecode: Uint8Array): void {
    const needs = automatonWorkNeeds(bytecode);
    if (needs === undefined || (needs.memoNodes <= this.workMemoNodes && needs.bytes <= this.workBytes)) return;
    const memoNodes = Math.max(needs.memoNodes, this.workMemoNodes);
    const bytes = Math.max(needs.bytes, this.workBytes);
    const pointer = this.allocator.allocate(memoNodes * 4 + bytes, 'the piece automaton work area');
    if (this.workArea !== 0) this.allocator.release(this.workArea);
    this.bytes.fill(0, pointer, pointer + memoNodes * 4 + bytes);
    this.exports.setWorkArea(pointer, memoNodes, bytes);
    this.workArea = pointer;
    this.workMemoNodes = memoNodes;
    this.workBytes = bytes;
  }

  private releaseWorkArea(pointer: number): void {
    if (!this.automatonRulesets.delete(pointer) || this.automatonRulesets.size > 0 || this.workArea === 0) return;
    this.exports.setWorkArea(0, 0, 0);
    this.allocator.release(this.workArea);
    this.workArea = 0;
    this.workMemoNodes = 0;
    this.workBytes = 0;
  }
  // ---- end of the work area

  /**
   * The input the standing region holds as the last query() wrote it, and its length in bytes: what
   * queryAgain() asks without writing it again. Undefined once a batch wrote over the region.
   */
  private written: string | undefined;
  private writtenLength = 0;

  /** MatcherBackend.epoch: how many blocks moved out of linear memory so far. */
  epoch = 0;

  /**
   * MatcherBackend.verdictAt: query(address, input, QUERY_VERDICT_ONLY) without the checks an object's query
   * makes (the caller read the address under the current epoch): AgentRules' single check.
   */
  verdictAt(ruleset: number, input: string): number {
    if (input.length * 3 > INPUT_BYTES) return this.queryLong(ruleset, input, QUERY_VERDICT_ONLY);
    return this.exports.isAllowed(ruleset, this.inputPointer, this.writeInput(input), this.scratchPointer);
  }

  /** @internal One URL (or path, with QUERY_PATH) asked of the matcher: LoadedRuleset.query. */
  query(ruleset: number, input: string, flags: QueryFlags): number {
    checkLive(ruleset);
    if (input.length * 3 > INPUT_BYTES) return this.queryLong(ruleset, input, flags);
    return this.ask(ruleset, this.inputPointer, this.writeInput(input), this.scratchPointer, flags);
  }

  /** Writes `input` (at most INPUT_BYTES / 3 units) into the standing region, as queryAgain() finds it; its length in bytes. */
  private writeInput(input: string): number {
    const length = this.write(input, this.inputPointer, INPUT_BYTES);
    this.written = input;
    this.writtenLength = length;
    return length;
  }

  /**
   * @internal LoadedRuleset.queryAgain: query() of the input the last query() asked, read where that wrote
   * it. The same string is the same reference (the caller passes it on), so the check costs no comparison of
   * characters; anything else is written as query() writes it.
   */
  queryAgain(ruleset: number, input: string, flags: QueryFlags): number {
    if (input !== this.written) return this.query(ruleset, input, flags);
    checkLive(ruleset);
    return this.ask(ruleset, this.inputPointer, this.writtenLength, this.scratchPointer, flags);
  }

  /**
   * The matcher's entry for `flags` on a URL written at `input`. The exports stay four functions rather
   * than one with flags: a branch here is paid once per call, not inside the matcher's loops, and each
   * call site below stays monomorphic.
   */
  private ask(ruleset: number, input: number, length: number, scratch: number, flags: QueryFlags): number {
    const exports = this.exports;
    switch (flags) {
      case QUERY_VERDICT_ONLY:
        return exports.isAllowed(ruleset, input, length, scratch);
      case QUERY_PATH | QUERY_VERDICT_ONLY:
        return exports.isAllowedPath(ruleset, input, length, scratch);
      case QUERY_PATH:
        return exports.decidePath(ruleset, input, length, scratch);
      default:
        return exports.decide(ruleset, input, length, scratch);
    }
  }

  /** One URL that may not fit the standing region, in a region of its own. */
  private queryLong(ruleset: number, url: string, flags: QueryFlags): number {
    const bytes = utf8Length(url);
    const what = `a URL of ${url.length.toLocaleString('en-US')} characters`;
    return this.withRegion(bytes, what, (input, scratch) => this.ask(ruleset, input, this.writeUrl(url, input), scratch, flags));
  }

  /**
   * Runs `use` on a region for `bytes` input bytes, allocated for the call and given back when it returns
   * or throws, so that bytesInUse is back where it was. An allocation that fails throws the allocator's
   * RangeError before anything was written, and the backend is as it was.
   */
  private withRegion<T>(bytes: number, what: string, use: (input: number, scratch: number) => T): T {
    const region = this.allocator.allocate(regionBytes(bytes), `the input of ${what}`);
    try {
      return use(region, region + scratchOffset(bytes));
    } finally {
      this.allocator.release(region);
    }
  }

  /** @internal */
  decideMany(ruleset: number, urls: readonly string[], out: Uint8Array): void {
    checkLive(ruleset);
    const table = this.tablePointer >>> 2;
    let first = 0;
    while (first < urls.length) {
      const length = (urls[first] as string).length;
      if (length * 3 > INPUT_BYTES) {
        // A URL that does not fit the standing region is a chunk of its own, in a region of its own.
        out[first] = this.queryLong(ruleset, urls[first] as string, QUERY_VERDICT_ONLY);
        first++;
        continue;
      }
      // A chunk: as many URLs as fit at 3 bytes per UTF-16 unit (the worst case), at most BATCH_URLS.
      let count = 0;
      let units = 0;
      this.words[table] = 0;
      while (first + count < urls.length && count < BATCH_URLS) {
        const next = (urls[first + count] as string).length;
        if ((units + next) * 3 > INPUT_BYTES) break;
        units += next;
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
   * @internal Writes into out[i] the verdict for the UTF-8 text in bytes[ranges[2i], ranges[2i + 1]), for i
   * below `count`, read as `new TextDecoder().decode()` reads it. The caller checked the ranges.
   */
  decideBytes(ruleset: number, bytes: Uint8Array, ranges: Uint32Array, count: number, out: Uint8Array): void {
    checkLive(ruleset);
    this.written = undefined;
    const table = this.tablePointer >>> 2;
    const plan = this.plan;
    let first = 0;
    while (first < count) {
      const { count: n, how, low, high } = planChunk(ranges, first, count, INPUT_BYTES, BATCH_RANGES, plan);
      if (how === CHUNK_LONG) {
        out[first] = this.decideLongRange(ruleset, bytes, low, high);
        first++;
        continue;
      }
      const words = this.words;
      if (how === CHUNK_COPY) {
        this.bytes.set(bytes.subarray(low, high), this.inputPointer);
        for (let i = 0; i < n * RANGE_ENTRY_WORDS; i++) words[table + i] = (ranges[first * 2 + i] as number) - low;
      } else {
        const input = this.bytes;
        let at = 0;
        for (let i = 0; i < n; i++) {
          const from = ranges[(first + i) * 2] as number;
          const to = ranges[(first + i) * 2 + 1] as number;
          words[table + i * RANGE_ENTRY_WORDS + RANGE_START_WORD] = at;
          if (to - from > GATHER_BY_HAND) input.set(bytes.subarray(from, to), this.inputPointer + at);
          else for (let k = from, into = this.inputPointer + at; k < to; k++, into++) input[into] = bytes[k] as number;
          at += to - from;
          words[table + i * RANGE_ENTRY_WORDS + RANGE_END_WORD] = at;
        }
      }
      const invalid = this.exports.decideRanges(ruleset, this.inputPointer, this.tablePointer, n, this.scratchPointer, this.outPointer);
      out.set(this.bytes.subarray(this.outPointer, this.outPointer + n), first);
      if (invalid > 0) {
        for (let i = first; i < first + n; i++) {
          if (out[i] === RANGE_NOT_UTF8) out[i] = this.decideText(ruleset, bytes, ranges[i * 2] as number, ranges[i * 2 + 1] as number);
        }
        // decideText() asked through query(), and the next chunk writes over what it wrote.
        this.written = undefined;
      }
      first += n;
    }
  }

  /**
   * The verdict for bytes[start, end) that are not UTF-8: that of the string a TextDecoder makes of them (from
   * a copy: a decoder may refuse a view of shared memory).
   */
  private decideText(ruleset: number, bytes: Uint8Array, start: number, end: number): number {
    return this.query(ruleset, this.decoder.decode(bytes.slice(start, end)), QUERY_VERDICT_ONLY);
  }

  /** One range too long for the standing region, in a region of its own (like queryLong). */
  private decideLongRange(ruleset: number, bytes: Uint8Array, start: number, end: number): number {
    const length = end - start;
    const verdict = this.withRegion(length, `a URL of ${length.toLocaleString('en-US')} bytes`, (input, scratch) => {
      this.bytes.set(bytes.subarray(start, end), input);
      return this.exports.decideRange(ruleset, input, length, scratch);
    });
    // Not UTF-8: decided as its text, once the region above is given back.
    return verdict === RANGE_NOT_UTF8 ? this.decideText(ruleset, bytes, start, end) : verdict;
  }

  /**
   * @internal LoadedRuleset.decideUtf8: one range, copied into the standing region with nothing allocated for
   * a URL: the whole array with one set() when the range is all of it, else (a view for set() costs more than a
   * URL's bytes, and is garbage) by hand.
   */
  decideUtf8(ruleset: number, bytes: Uint8Array, start: number, end: number): number {
    checkLive(ruleset);
    return this.verdictUtf8At(ruleset, bytes, start, end);
  }

  /** MatcherBackend.verdictUtf8At: decideUtf8() without the check of the address (AgentRules' fast path). */
  verdictUtf8At(ruleset: number, bytes: Uint8Array, start: number, end: number): number {
    const length = end - start;
    if (length > INPUT_BYTES) return this.decideLongRange(ruleset, bytes, start, end);
    this.written = undefined;
    const at = this.inputPointer;
    if (start === 0 && end === bytes.length) this.bytes.set(bytes, at);
    else if (length > COPY_BY_HAND) this.bytes.set(bytes.subarray(start, end), at);
    else this.copyByHand(bytes, start, end, at);
    const verdict = this.exports.decideRange(ruleset, at, length, this.scratchPointer);
    return verdict === RANGE_NOT_UTF8 ? this.decideText(ruleset, bytes, start, end) : verdict;
  }

  /**
   * Copies bytes[start, end) to `at`, 4-byte aligned as the allocator aligns, four bytes to a store: half the time of
   * a store per byte for a URL (measured on Node 20). Little-endian, as WebAssembly memory is, like every word
   * this backend writes through `words`.
   */
  private copyByHand(bytes: Uint8Array, start: number, end: number, at: number): void {
    const words = this.words;
    let k = start;
    let word = at >>> 2;
    for (; k + 4 <= end; k += 4, word++) {
      words[word] =
        (bytes[k] as number) | ((bytes[k + 1] as number) << 8) | ((bytes[k + 2] as number) << 16) | ((bytes[k + 3] as number) << 24);
    }
    const input = this.bytes;
    for (let into = word << 2; k < end; k++, into++) input[into] = bytes[k] as number;
  }

  /**
   * Writes urls[first, first + count) one after another into the input region. An ASCII chunk is one
   * native encode of the joined URLs, whose offsets are then the UTF-16 ones already in the table; a chunk
   * with any other character is written URL by URL, and the table rewritten in bytes.
   */
  private writeChunk(urls: readonly string[], first: number, count: number): void {
    this.written = undefined;
    const joined = (first === 0 && count === urls.length ? urls : urls.slice(first, first + count)).join('');
    const input = this.bytes.subarray(this.inputPointer, this.inputPointer + INPUT_BYTES);
    if (this.encoder.encodeInto(joined, input).written === joined.length) return;
    const table = this.tablePointer >>> 2;
    let used = 0;
    for (let i = 0; i < count; i++) {
      used += this.writeUrl(urls[first + i] as string, this.inputPointer + used);
      this.words[table + i + 1] = used;
    }
  }

  /** Writes `url` as UTF-8 at `at` (the caller reserved 3 bytes per UTF-16 unit, or utf8Length(url)); returns its byte length. */
  private writeUrl(url: string, at: number): number {
    return this.write(url, at, this.bytes.length - at);
  }
}

function checkLive(ruleset: number): void {
  if (ruleset === 0) throw new Error('this ruleset was disposed; compile it again with forAgent()');
}

/** One compiled ruleset: its share of a block (src/engine/residency.ts) and its queries, asked of its backend. */
class WasmRuleset extends ResidentRuleset implements LoadedRuleset {
  constructor(
    readonly backend: WasmBackend,
    bytecode: Uint8Array,
  ) {
    super(backend.residents, bytecode);
  }

  address(): number {
    return this.handOut();
  }

  query(input: string, flags: QueryFlags): number {
    return this.backend.query(this.pointer(), input, flags);
  }

  queryAgain(input: string, flags: QueryFlags): number {
    return this.backend.queryAgain(this.pointer(), input, flags);
  }

  decideMany(urls: readonly string[], out: Uint8Array): void {
    this.backend.decideMany(this.pointer(), urls, out);
  }

  decideBytes(bytes: Uint8Array, ranges: Uint32Array, count: number, out: Uint8Array): void {
    this.backend.decideBytes(this.pointer(), bytes, ranges, count, out);
  }

  decideUtf8(bytes: Uint8Array, start: number, end: number): number {
    return this.backend.decideUtf8(this.pointer(), bytes, start, end);
  }
}

/** Instantiates the matcher from its compiled module (zero imports). */
export function createWasmBackend(module: WebAssembly.Module, utf8Writer?: Utf8WriterFactory): WasmBackend {
  return new WasmBackend(new WebAssembly.Instance(module, {}), utf8Writer);
}
