/**
 * The driver of the WebAssembly line scanner (assembly/filter/line-scanner.ts) for `robotstxt filter`, built
 * from what the WebAssembly backend exposes of its linear memory (lineScannerOf). A batch of URL lines is copied
 * into linear memory once, and the scanner reads, decides, counts and writes the lines whose hosts it knows
 * in one crossing; at a line it does not know it stops, and the caller decides that line (and may teach the
 * scanner its host) before scanning on. The state block's layout and the stops are defined in
 * src/layout.ts (assembly/layout.ts in the module, checked against it at load).
 *
 * The authority table lives across batches: a host is taught once, and its lines are decided in
 * WebAssembly from then on. It holds compiled rulesets' addresses in linear memory, which move when the
 * backend evicts a ruleset to stay within its budget (or frees one garbage collection reclaimed): `stale`
 * says so, and the caller must then forget() the table before scanning on. The values hold for one source
 * of rules (`begin`'s owner): another owner starts from an empty table. The table grows (its hosts moved,
 * not taught again) up to MAX_HOST_SLOTS; full at that size, it is emptied and taught again, so that a log
 * of millions of hosts holds at most that much.
 */
import type { LoadedRuleset } from '../../engine/backend.js';
import type { LinearAllocator } from '../../engine/linear-allocator.js';
import type { LineScannerExports, WasmBackend, WasmMemory } from '../../engine/wasm-backend.js';
import {
  HOST_ENTRY_SIZE,
  NO_LINE,
  NO_VERDICT,
  SCAN_ASK_HOST,
  SCAN_ASK_LINE,
  SCAN_DONE,
  STATE_ALLOWED,
  STATE_DELIMITER,
  STATE_DISALLOWED,
  STATE_EMIT,
  STATE_FIELD,
  STATE_FIRST_MALFORMED,
  STATE_FORCED,
  STATE_HOST_SLOTS,
  STATE_HOSTS,
  STATE_INPUT,
  STATE_KEYS,
  STATE_KEYS_CAPACITY,
  STATE_LENGTH,
  STATE_LINE,
  STATE_MALFORMED,
  STATE_MAX_LINE,
  STATE_OUTPUT,
  STATE_OUTPUT_LENGTH,
  STATE_PATH_VALUE,
  STATE_POSITION,
  STATE_SCRATCH,
  STATE_SIZE,
  STATE_STOP_END,
  STATE_VALUE_COUNTS,
  VALUE_LIMIT,
  VECTOR_SLACK,
  VERDICT_ALLOWED,
  VERDICT_DISALLOWED,
  VERDICT_MALFORMED,
} from '../../layout.js';

/** One scanner per backend (its state and authority table live in that backend's linear memory), made on first use. */
const scanners = new WeakMap<WasmBackend, LineScanner>();

/** The line scanner of `backend`, made on first use. */
export function lineScannerOf(backend: WasmBackend): LineScanner {
  let scanner = scanners.get(backend);
  if (scanner === undefined) {
    scanner = new LineScanner(backend.linearMemory());
    scanners.set(backend, scanner);
  }
  return scanner;
}

/**
 * What scan() stopped at: SCAN_DONE; SCAN_ASK_LINE, the caller decides the line at `position` and passes its
 * verdict to force(); SCAN_ASK_HOST, the same, and remember() may teach the scanner the value of that line's
 * authority (scheme, host, port). The verdicts the caller counts and forces (VERDICT_*). What decides an
 * authority's URLs: VALUE_*, or a ruleset's address from addressOf. A line's URL is its `field`th field split
 * at `delimiter`, or at runs of spaces (DELIMITER_SPACES).
 */
export {
  DELIMITER_SPACES,
  SCAN_ASK_HOST,
  SCAN_ASK_LINE,
  SCAN_DONE,
  VALUE_ALLOWED,
  VALUE_DISALLOWED,
  VALUE_LIMIT,
  VALUE_MALFORMED,
  VERDICT_ALLOWED,
  VERDICT_DISALLOWED,
  VERDICT_MALFORMED,
} from '../../layout.js';
export type ScanStop = typeof SCAN_DONE | typeof SCAN_ASK_LINE | typeof SCAN_ASK_HOST;
export type LineVerdict = typeof VERDICT_DISALLOWED | typeof VERDICT_ALLOWED | typeof VERDICT_MALFORMED;

/** The authority table's first size (256 KiB: 2,048 authorities) and its largest (8 MiB: 65,536). */
const FIRST_HOST_SLOTS = 4096;
const MAX_HOST_SLOTS = 1 << 17;
/** Bytes for authorities longer than an entry holds (rare), per slot: grown with the table. */
const KEY_BYTES_PER_SLOT = 16;

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
  /** Lines decided by each constant value (index: the value, below VALUE_LIMIT), not by a ruleset or the caller. */
  readonly byValue: Uint32Array;
}

export class LineScanner {
  private readonly state: number;
  /** The authority table's allocation (its entries start at the next multiple of HOST_ENTRY_SIZE) and its key bytes. */
  private hostsBlock = 0;
  private keys = 0;
  private slots = 0;
  /** The backend's evictions when the table was last emptied: its addresses were all good then. */
  private goodAt = 0;
  /** Whose rules the table's values are (begin's owner). */
  private owner: object | undefined;
  /** The batch's region (and, after it, the output's), grown to the largest batch and kept. */
  private readonly regionBlock: GrowingBlock;
  private readonly scratchBlock: GrowingBlock;

  private readonly exports: LineScannerExports;
  private readonly allocator: LinearAllocator;
  private readonly words: () => Uint32Array;
  private readonly bytes: () => Uint8Array;
  /** How many rulesets the backend has moved out of linear memory so far. */
  private readonly evictionCount: () => number;
  /** A ruleset's address in linear memory (made resident), or 0 when it is another backend's. */
  private readonly address: (ruleset: LoadedRuleset) => number;

  constructor(memory: WasmMemory) {
    const { exports, allocator, words, bytes, evictions, addressOf } = memory;
    this.exports = exports;
    this.allocator = allocator;
    this.words = words;
    this.bytes = bytes;
    this.evictionCount = evictions;
    this.address = addressOf;
    this.state = allocator.allocate(STATE_SIZE, 'the line scanner state');
    this.bytes().fill(0, this.state, this.state + STATE_SIZE);
    this.regionBlock = new GrowingBlock(allocator, 'a batch of lines to filter');
    this.scratchBlock = new GrowingBlock(allocator, 'the line scanner scratch');
    this.useTable(FIRST_HOST_SLOTS);
    this.forget();
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

  /** Whether a ruleset moved since the table was emptied: its addresses may be wrong, forget() it. */
  get stale(): boolean {
    return this.evictionCount() !== this.goodAt;
  }

  /** The value (above) of a compiled ruleset: its address, which stays good until `evictions` changes; 0 if it cannot be scanned. */
  addressOf(ruleset: LoadedRuleset): number {
    return this.address(ruleset);
  }

  /**
   * Copies `batch` in, sets the counts to zero and asks of every path. The authorities taught stay, unless
   * `owner` (whose rules the values are: the caller's source of them, opened for one set of settings) is not
   * the last batch's.
   */
  begin(batch: Uint8Array, options: LineScanOptions, owner: object): void {
    this.reserve(batch.length, options.maxLineBytes);
    this.bytes().set(batch, this.region);
    if (owner !== this.owner) this.forget();
    this.owner = owner;
    this.setWord(STATE_INPUT, this.region);
    this.setWord(STATE_LENGTH, batch.length);
    this.setWord(STATE_POSITION, 0);
    this.setWord(STATE_LINE, 0);
    this.setWord(STATE_OUTPUT, this.outputAddress(batch.length));
    this.setWord(STATE_OUTPUT_LENGTH, 0);
    this.setWord(STATE_EMIT, options.emit);
    this.setWord(STATE_FIELD, options.field);
    this.setWord(STATE_DELIMITER, options.delimiter);
    this.setWord(STATE_PATH_VALUE, 0);
    this.setWord(STATE_SCRATCH, this.scratch);
    this.setWord(STATE_MAX_LINE, options.maxLineBytes);
    this.setWord(STATE_FORCED, NO_VERDICT);
    this.setWord(STATE_ALLOWED, 0);
    this.setWord(STATE_DISALLOWED, 0);
    this.setWord(STATE_MALFORMED, 0);
    this.setWord(STATE_FIRST_MALFORMED, NO_LINE);
    this.words().fill(0, (this.state + STATE_VALUE_COUNTS) >>> 2, ((this.state + STATE_VALUE_COUNTS) >>> 2) + VALUE_LIMIT);
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
    this.setWord(STATE_FORCED, verdict);
  }

  /**
   * Teaches the scanner the value of the authority of the line it stopped at (SCAN_ASK_HOST), making room
   * when the table is full; false only for a key longer than the table's key bytes.
   */
  remember(value: number): boolean {
    if (this.exports.rememberHost(this.state, value) === 1) return true;
    if (this.slots < MAX_HOST_SLOTS) this.grow();
    else this.forget();
    return this.exports.rememberHost(this.state, value) === 1;
  }

  /** Sets the value (above) that decides a line that is a path, with no scheme and host; 0 (as begin() sets it) asks the caller. */
  setPathValue(value: number): void {
    this.setWord(STATE_PATH_VALUE, value);
  }

  /** Forgets every authority (a ruleset moved: see `stale`). */
  forget(): void {
    this.exports.forgetHosts(this.state);
    this.goodAt = this.evictionCount();
  }

  /** A table of twice the slots, with the entries of the old one moved in. */
  private grow(): void {
    const { hostsBlock, keys, slots } = this;
    const from = this.hostsAt();
    this.useTable(2 * slots);
    this.exports.forgetHosts(this.state);
    this.exports.moveHosts(this.state, from, slots, keys);
    this.allocator.release(hostsBlock);
    this.allocator.release(keys);
  }

  /** Allocates a table of `slots` entries and its key bytes, and names them in the state block. */
  private useTable(slots: number): void {
    // Entries aligned to their size: each is one cache line.
    this.hostsBlock = this.allocator.allocate(slots * HOST_ENTRY_SIZE + HOST_ENTRY_SIZE, 'the line scanner host table');
    this.keys = this.allocator.allocate(slots * KEY_BYTES_PER_SLOT, 'the line scanner host names');
    this.slots = slots;
    this.setWord(STATE_HOSTS, this.hostsAt());
    this.setWord(STATE_HOST_SLOTS, slots);
    this.setWord(STATE_KEYS, this.keys);
    this.setWord(STATE_KEYS_CAPACITY, slots * KEY_BYTES_PER_SLOT);
  }

  private hostsAt(): number {
    return Math.ceil(this.hostsBlock / HOST_ENTRY_SIZE) * HOST_ENTRY_SIZE;
  }

  counts(): LineScanCounts {
    const first = this.word(STATE_FIRST_MALFORMED);
    return {
      lines: this.word(STATE_LINE),
      allowed: this.word(STATE_ALLOWED),
      disallowed: this.word(STATE_DISALLOWED),
      malformed: this.word(STATE_MALFORMED),
      firstMalformed: first === NO_LINE ? -1 : first,
      byValue: this.words().slice((this.state + STATE_VALUE_COUNTS) >>> 2, ((this.state + STATE_VALUE_COUNTS) >>> 2) + VALUE_LIMIT),
    };
  }

  /** A copy of the lines written so far. */
  output(): Uint8Array {
    const start = this.word(STATE_OUTPUT);
    return this.bytes().slice(start, start + this.word(STATE_OUTPUT_LENGTH));
  }

  /** The state block's u32 at byte offset `field` (STATE_*). */
  private word(field: number): number {
    return this.words()[(this.state + field) >>> 2] as number;
  }

  private setWord(field: number, value: number): void {
    this.words()[(this.state + field) >>> 2] = value;
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
