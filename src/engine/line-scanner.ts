/**
 * The WebAssembly line scanner (assembly/lines.ts) for `robotstxt filter`: a batch of URL lines is copied
 * into linear memory once, and the scanner reads, decides, counts and writes the lines whose hosts it knows
 * in one crossing; at a line it does not know it stops, and the caller decides that line (and may teach the
 * scanner its host) before scanning on. The state block's layout and the stops are defined in
 * assembly/lines.ts; the constants below name the same words.
 *
 * The authority table holds compiled rulesets' addresses in linear memory, which move when the backend
 * evicts a ruleset to stay within its budget: `evictions` counts those, and a caller that sees it change
 * must forget() the table before scanning on.
 */
import type { LoadedRuleset } from './backend.js';
import type { LinearAllocator } from './linear-allocator.js';

export interface LineScannerExports {
  scanLines(state: number): number;
  rememberHost(state: number, value: number): number;
  forgetHosts(state: number): void;
}

export function isLineScannerExports(exports: WebAssembly.Exports): boolean {
  return ['scanLines', 'rememberHost', 'forgetHosts'].every((name) => typeof exports[name] === 'function');
}

// The state block, in u32 words (assembly/lines.ts: STATE_*, there in bytes).
const STATE_INPUT = 0;
const STATE_LENGTH = 1;
const STATE_POSITION = 2;
const STATE_LINE = 3;
const STATE_OUTPUT = 4;
const STATE_OUTPUT_LENGTH = 5;
const STATE_EMIT = 6;
const STATE_FIELD = 7;
const STATE_DELIMITER = 8;
const STATE_PATH_VALUE = 9;
const STATE_SCRATCH = 10;
const STATE_MAX_LINE = 11;
const STATE_FORCED = 12;
const STATE_ALLOWED = 13;
const STATE_DISALLOWED = 14;
const STATE_MALFORMED = 15;
const STATE_FIRST_MALFORMED = 16;
const STATE_STOP_END = 17;
const STATE_HOSTS = 18;
const STATE_HOST_SLOTS = 19;
const STATE_HOST_COUNT = 20;
const STATE_KEYS = 21;
const STATE_KEYS_CAPACITY = 22;
const STATE_KEYS_USED = 23;
const STATE_WORDS = 28;

/** What scan() stopped at (assembly/lines.ts: SCAN_*). */
export const SCAN_DONE = 0;
/** The caller decides the line at `position` and passes its verdict to force(). */
export const SCAN_ASK_LINE = 1;
/** The same, and remember() may teach the scanner the value of that line's authority (scheme, host, port). */
export const SCAN_ASK_HOST = 2;
export type ScanStop = typeof SCAN_DONE | typeof SCAN_ASK_LINE | typeof SCAN_ASK_HOST;

/** Verdicts, as the caller counts and forces them (assembly/lines.ts: VERDICT_*). */
export const VERDICT_DISALLOWED = 0;
export const VERDICT_ALLOWED = 1;
export const VERDICT_MALFORMED = 2;
export type LineVerdict = typeof VERDICT_DISALLOWED | typeof VERDICT_ALLOWED | typeof VERDICT_MALFORMED;
const NO_VERDICT = 0xffffffff;
const NO_LINE = 0xffffffff;

/** What decides an authority's URLs: one of these, or a ruleset's address from addressOf (assembly/lines.ts: VALUE_*). */
export const VALUE_ALLOWED = 1;
export const VALUE_DISALLOWED = 2;
export const VALUE_MALFORMED = 3;
/** A line's URL is its `field`th field split at runs of spaces (DELIMITER_SPACES). */
export const DELIMITER_SPACES = 0x100;

const HOST_SLOTS = 4096;
const HOST_ENTRY_BYTES = 64;
const KEY_BYTES = 64 * 1024;
/** Bytes past the batch that the scanner's 16-byte scans may read. */
const VECTOR_SLACK = 16;

export interface LineScanOptions {
  /** 0: the URL is the whole line; else its field (1-based), split at `delimiter` (a byte, or DELIMITER_SPACES). */
  readonly field: number;
  readonly delimiter: number;
  /** Which verdicts' lines are written: `1 << verdict` each. */
  readonly emit: number;
  /** Lines longer than this are asked of the caller. */
  readonly maxLineBytes: number;
}

export interface LineScanCounts {
  readonly lines: number;
  readonly allowed: number;
  readonly disallowed: number;
  readonly malformed: number;
  /** The first malformed line's index in the batch, or -1. */
  readonly firstMalformed: number;
}

export class LineScanner {
  private readonly state: number;
  private readonly hosts: number;
  private readonly keys: number;
  /** The batch's region (and, after it, the output's), grown to the largest batch and kept. */
  private readonly regionBlock: GrowingBlock;
  private readonly scratchBlock: GrowingBlock;

  constructor(
    private readonly exports: LineScannerExports,
    private readonly allocator: LinearAllocator,
    private readonly words: () => Uint32Array,
    private readonly bytes: () => Uint8Array,
    /** How many rulesets the backend has moved out of linear memory so far. */
    private readonly evictionCount: () => number,
    /** A ruleset's address in linear memory (made resident), or 0 when it is another backend's. */
    private readonly address: (ruleset: LoadedRuleset) => number,
  ) {
    this.state = allocator.allocate(STATE_WORDS * 4, 'the line scanner state');
    // Entries aligned to their size: each is one cache line.
    const hosts = allocator.allocate(HOST_SLOTS * HOST_ENTRY_BYTES + HOST_ENTRY_BYTES, 'the line scanner host table');
    this.hosts = Math.ceil(hosts / HOST_ENTRY_BYTES) * HOST_ENTRY_BYTES;
    this.keys = allocator.allocate(KEY_BYTES, 'the line scanner host names');
    this.regionBlock = new GrowingBlock(allocator, 'a batch of lines to filter');
    this.scratchBlock = new GrowingBlock(allocator, 'the line scanner scratch');
  }

  private get region(): number {
    return this.regionBlock.address;
  }

  private get scratch(): number {
    return this.scratchBlock.address;
  }

  get evictions(): number {
    return this.evictionCount();
  }

  /** The value (above) of a compiled ruleset: its address, which stays good until `evictions` changes; 0 if it cannot be scanned. */
  addressOf(ruleset: LoadedRuleset): number {
    return this.address(ruleset);
  }

  /** Copies `batch` in, sets the counts to zero, forgets every authority and asks of every path. */
  begin(batch: Uint8Array, options: LineScanOptions): void {
    this.reserve(batch.length, options.maxLineBytes);
    this.bytes().set(batch, this.region);
    const words = this.words();
    const state = this.state >>> 2;
    words.fill(0, state, state + STATE_WORDS);
    words[state + STATE_INPUT] = this.region;
    words[state + STATE_LENGTH] = batch.length;
    words[state + STATE_OUTPUT] = this.outputAddress(batch.length);
    words[state + STATE_EMIT] = options.emit;
    words[state + STATE_FIELD] = options.field;
    words[state + STATE_DELIMITER] = options.delimiter;
    words[state + STATE_SCRATCH] = this.scratch;
    words[state + STATE_MAX_LINE] = options.maxLineBytes;
    words[state + STATE_FORCED] = NO_VERDICT;
    words[state + STATE_FIRST_MALFORMED] = NO_LINE;
    words[state + STATE_HOSTS] = this.hosts;
    words[state + STATE_HOST_SLOTS] = HOST_SLOTS;
    words[state + STATE_KEYS] = this.keys;
    words[state + STATE_KEYS_CAPACITY] = KEY_BYTES;
    this.exports.forgetHosts(this.state);
  }

  /** Scans on from `position`; see the stops above. */
  scan(): ScanStop {
    return this.exports.scanLines(this.state) as ScanStop;
  }

  /** Where the line a scan stopped at starts, in the batch. */
  get position(): number {
    return this.word(STATE_POSITION);
  }

  /** Where it ends, before its CR LF. */
  get stopEnd(): number {
    return this.word(STATE_STOP_END);
  }

  /** The verdict of the line a scan stopped at, which the next scan counts and writes. */
  force(verdict: LineVerdict): void {
    this.words()[(this.state >>> 2) + STATE_FORCED] = verdict;
  }

  /** Teaches the scanner the value of the authority of the line it stopped at (SCAN_ASK_HOST); false when its table is full. */
  remember(value: number): boolean {
    return this.exports.rememberHost(this.state, value) === 1;
  }

  /** Sets the value (above) that decides a line that is a path, with no scheme and host; 0 (as begin() sets it) asks the caller. */
  setPathValue(value: number): void {
    this.words()[(this.state >>> 2) + STATE_PATH_VALUE] = value;
  }

  /** Forgets every authority (a ruleset moved: see `evictions`). */
  forget(): void {
    this.exports.forgetHosts(this.state);
  }

  counts(): LineScanCounts {
    const first = this.word(STATE_FIRST_MALFORMED);
    return {
      lines: this.word(STATE_LINE),
      allowed: this.word(STATE_ALLOWED),
      disallowed: this.word(STATE_DISALLOWED),
      malformed: this.word(STATE_MALFORMED),
      firstMalformed: first === NO_LINE ? -1 : first,
    };
  }

  /** A copy of the lines written so far. */
  output(): Uint8Array {
    const start = this.word(STATE_OUTPUT);
    return this.bytes().slice(start, start + this.word(STATE_OUTPUT_LENGTH));
  }

  private word(index: number): number {
    return this.words()[(this.state >>> 2) + index] as number;
  }

  /** The output follows the batch in its region: the batch's bytes and one newline, at most. */
  private outputAddress(batchBytes: number): number {
    return this.region + batchBytes + VECTOR_SLACK;
  }

  private reserve(batchBytes: number, maxLineBytes: number): void {
    this.regionBlock.reserve(2 * batchBytes + 1 + VECTOR_SLACK);
    // The matcher rewrites a path of up to maxLineBytes bytes into 3 bytes each, a slash, and its slack.
    this.scratchBlock.reserve(3 * maxLineBytes + 1 + VECTOR_SLACK);
  }
}

/** A block of linear memory that grows to the largest size asked of it and is kept. */
class GrowingBlock {
  address = 0;
  private bytes = 0;

  constructor(
    private readonly allocator: LinearAllocator,
    private readonly what: string,
  ) {}

  reserve(bytes: number): void {
    if (bytes <= this.bytes) return;
    const address = this.allocator.allocate(bytes, this.what);
    if (this.address !== 0) this.allocator.release(this.address);
    this.address = address;
    this.bytes = bytes;
  }
}
