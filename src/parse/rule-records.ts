/**
 * Every allow and disallow line of a file, packed: a line number, a kind and a pattern span per rule, in
 * file order. The compiler reads them where they are (no object per rule on the way from the lexer to the
 * bytecode); RuleLine objects are made only when someone asks for the groups.
 */

/** One `Allow:` or `Disallow:` line. */
export interface RuleLine {
  readonly line: number;
  readonly allow: boolean;
  /** The pattern's raw bytes as written (trimmed), before any percent-encoding. */
  readonly pattern: Uint8Array;
}

/** Patterns up to this long are copied byte by byte: a loop costs less than the view a native copy needs. */
const SHORT_COPY = 32;

/** Rules a RuleRecords has room for before it first grows. */
const INITIAL_CAPACITY = 16;

/** A rule's span of records: rules firstRule to endRule - 1 (a group's rules). */
export interface RuleRange {
  readonly firstRule: number;
  readonly endRule: number;
}

/** Copies from[start, end) into `to` at `at`; returns where the copy ends. */
function copyPattern(from: Uint8Array, start: number, end: number, to: Uint8Array, at: number): number {
  if (end - start <= SHORT_COPY) {
    for (let k = start; k < end; k++) to[at++] = from[k] as number;
    return at;
  }
  to.set(from.subarray(start, end), at);
  return at + end - start;
}

export class RuleRecords {
  /** The buffer the patterns are spans of: the body, or a packed copy of the patterns (see place()). */
  private buffer: Uint8Array;
  // Typed arrays, grown by doubling: the records of a ruleset's rules are kept with it (explain()), and
  // their bytes are counted exactly (bytesHeld).
  private starts: Uint32Array;
  private ends: Uint32Array;
  /** Per rule: its 1-based line, doubled, plus 1 for an allow. */
  private linesAndKinds: Uint32Array;
  private patternBytes = 0;
  /** Rules so far. */
  count = 0;

  constructor(body: Uint8Array, capacity = INITIAL_CAPACITY) {
    this.buffer = body;
    this.starts = new Uint32Array(capacity);
    this.ends = new Uint32Array(capacity);
    this.linesAndKinds = new Uint32Array(capacity);
  }

  add(line: number, allow: boolean, start: number, end: number): void {
    const at = this.count;
    if (at === this.starts.length) this.grow();
    this.starts[at] = start;
    this.ends[at] = end;
    // Lines stay below 2^31: a body of at most maxBytes has fewer lines than bytes, and 16 bits of
    // headroom are left even for an unlimited one of 2 GB.
    this.linesAndKinds[at] = line * 2 + (allow ? 1 : 0);
    this.patternBytes += end - start;
    this.count = at + 1;
  }

  private grow(): void {
    const capacity = Math.max(INITIAL_CAPACITY, this.starts.length * 2);
    const larger = (old: Uint32Array): Uint32Array => {
      const array = new Uint32Array(capacity);
      array.set(old);
      return array;
    };
    this.starts = larger(this.starts);
    this.ends = larger(this.ends);
    this.linesAndKinds = larger(this.linesAndKinds);
  }

  /**
   * The records of `ranges` alone, in their order (then one after another: rules 0 to count - 1), their
   * patterns packed into an exact-size buffer of their own and their arrays exact-size: what a ruleset
   * keeps, which pins neither the body nor the rules of other groups.
   */
  select(ranges: readonly RuleRange[]): RuleRecords {
    let count = 0;
    let bytes = 0;
    for (const { firstRule, endRule } of ranges) {
      count += endRule - firstRule;
      for (let rule = firstRule; rule < endRule; rule++) bytes += (this.ends[rule] as number) - (this.starts[rule] as number);
    }
    const packed = new Uint8Array(bytes);
    const records = new RuleRecords(packed, count);
    let at = 0;
    for (const { firstRule, endRule } of ranges) {
      for (let rule = firstRule; rule < endRule; rule++) {
        const i = records.count++;
        records.starts[i] = at;
        at = copyPattern(this.buffer, this.starts[rule] as number, this.ends[rule] as number, packed, at);
        records.ends[i] = at;
        records.linesAndKinds[i] = this.linesAndKinds[rule] as number;
      }
    }
    records.patternBytes = bytes;
    return records;
  }

  /** Every rule, as one range (what compiling the records select() made reads). */
  all(): RuleRange[] {
    return [{ firstRule: 0, endRule: this.count }];
  }

  /** Bytes these records keep alive: their arrays and the buffer the patterns are spans of. */
  get bytesHeld(): number {
    return this.buffer.byteLength + this.starts.byteLength + this.ends.byteLength + this.linesAndKinds.byteLength;
  }

  /**
   * Once the body is read: keeps the body when patterns are most of it; else copies the patterns, packed,
   * so that a file that is mostly something else (an HTML page with one rule) is not kept alive by them.
   */
  place(): void {
    const body = this.buffer;
    if (this.patternBytes * 2 >= body.length) return;
    const packed = new Uint8Array(this.patternBytes);
    const { starts, ends } = this;
    let at = 0;
    for (let i = 0; i < this.count; i++) {
      const start = starts[i] as number;
      const end = ends[i] as number;
      starts[i] = at;
      at = copyPattern(body, start, end, packed, at);
      ends[i] = at;
    }
    this.buffer = packed;
  }

  /** What the pattern spans index: rule i's pattern as written is patterns[start(i), end(i)). */
  get patterns(): Uint8Array {
    return this.buffer;
  }

  start(rule: number): number {
    return this.starts[rule] as number;
  }

  end(rule: number): number {
    return this.ends[rule] as number;
  }

  line(rule: number): number {
    return (this.linesAndKinds[rule] as number) >>> 1;
  }

  isAllow(rule: number): boolean {
    return ((this.linesAndKinds[rule] as number) & 1) === 1;
  }

  /** Rules first to end - 1 as RuleLine objects, their patterns views of `patterns`. */
  ruleLines(first: number, end: number): RuleLine[] {
    const lines: RuleLine[] = [];
    for (let rule = first; rule < end; rule++) {
      lines.push({ line: this.line(rule), allow: this.isAllow(rule), pattern: this.buffer.subarray(this.start(rule), this.end(rule)) });
    }
    return lines;
  }
}
