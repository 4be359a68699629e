/**
 * Every allow and disallow line of a file, packed: a line number, a kind and a pattern span per rule, in
 * file order. The compiler reads them where they are (no object per rule on the way from the lexer to the
 * bytecode); RuleLine objects are made only when someone asks for the groups.
 */

/** One `Allow:` or `Disallow:` line. */
export interface RuleLine {
  /** 1-based line in the file. */
  readonly line: number;
  /** `Allow:` (true) or `Disallow:` (false). */
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

/**
 * At most this many byte comparisons (RuleRecords.scanWork()) for a check answered by trying every rule as
 * written: a file or URL that could cost more is compiled for it, the compiled matcher's automaton being
 * linear. About a millisecond at worst; a real file's check costs a small fraction of its bound.
 */
export const SCAN_WORK_LIMIT = 2 ** 20;

/**
 * The records as the uncompiled tier reads them for its verdicts (src/engine/record-matcher.ts makes it on
 * the first, for one profile's readings): each rule that can match, and each `…/$` that Google's index.html
 * rule derives from an allow, as three numbers in `entries`: the start and end of its pattern in `bytes`
 * (percent-normalized; a final `$` left out), and its priority doubled, plus 1 when a `$` anchors its end.
 */
export interface VerdictRules {
  readonly profile: object;
  readonly bytes: Uint8Array;
  readonly entries: readonly number[];
}

/** Words per rule: its pattern's start and end, then its 1-based line, doubled, plus 1 for an allow. */
const WORDS = 3;

export class RuleRecords {
  /** The buffer the patterns are spans of: the body, or a packed copy of the patterns (see place()). */
  private buffer: Uint8Array;
  /**
   * WORDS per rule, grown by doubling: one typed array, so that records cost few allocations, and the
   * records a ruleset keeps (explain()) are counted exactly (bytesHeld).
   */
  private words: Uint32Array;
  /** Bytes of the rules' patterns, as written. */
  patternBytes = 0;
  /** Rules so far. */
  count = 0;
  /** What classify() found, until a rule is added: plainPatterns and wildcardBytes. */
  private classified: { readonly plain: boolean; readonly wildcardBytes: number } | undefined;
  /** The rules prepared for the uncompiled tier's verdicts, once a second was asked (VerdictRules). */
  verdictRules: VerdictRules | undefined;
  /** Verdicts the uncompiled tier answered from the records as they are, before preparing them. */
  directVerdicts = 0;

  constructor(body: Uint8Array, words: Uint32Array = new Uint32Array(INITIAL_CAPACITY * WORDS)) {
    this.buffer = body;
    this.words = words;
  }

  /** Starts over on another body, keeping the room grown so far (records read again and again: the selector's). */
  reset(body: Uint8Array): void {
    this.buffer = body;
    this.count = 0;
    this.patternBytes = 0;
    this.classified = undefined;
    this.verdictRules = undefined;
    this.directVerdicts = 0;
  }

  add(line: number, allow: boolean, start: number, end: number): void {
    const at = this.count * WORDS;
    if (at === this.words.length) this.grow();
    const words = this.words;
    words[at] = start;
    words[at + 1] = end;
    // Lines stay below 2^31: a body of at most maxBytes has fewer lines than bytes, and 16 bits of
    // headroom are left even for an unlimited one of 2 GB.
    words[at + 2] = line * 2 + (allow ? 1 : 0);
    this.patternBytes += end - start;
    this.classified = undefined;
    this.verdictRules = undefined;
    this.count++;
  }

  private grow(): void {
    const larger = new Uint32Array(Math.max(INITIAL_CAPACITY * WORDS, this.words.length * 2));
    larger.set(this.words);
    this.words = larger;
  }

  /**
   * The records of `ranges` alone, in their order (then one after another: rules 0 to count - 1), in one
   * exact-size buffer of their own (their words, then their patterns packed): what a ruleset keeps, which
   * pins neither the body nor the rules of other groups.
   */
  select(ranges: readonly RuleRange[]): RuleRecords {
    const from = this.words;
    let count = 0;
    let bytes = 0;
    for (const { firstRule, endRule } of ranges) {
      count += endRule - firstRule;
      for (let rule = firstRule; rule < endRule; rule++) bytes += (from[rule * WORDS + 1] as number) - (from[rule * WORDS] as number);
    }
    const buffer = new ArrayBuffer(count * WORDS * 4 + bytes);
    const words = new Uint32Array(buffer, 0, count * WORDS);
    const packed = new Uint8Array(buffer, count * WORDS * 4, bytes);
    const source = this.buffer;
    let at = 0;
    let to = 0;
    // What classify() finds, found while copying: the first verdict asks for it (scanWork()), and one pass
    // over the pattern bytes costs less than two.
    let plain = true;
    let wildcardBytes = 0;
    for (const { firstRule, endRule } of ranges) {
      for (let rule = firstRule; rule < endRule; rule++, to += WORDS) {
        const start = from[rule * WORDS] as number;
        const end = from[rule * WORDS + 1] as number;
        let wildcard = false;
        words[to] = at;
        for (let i = start; i < end; i++) {
          const byte = source[i] as number;
          packed[at++] = byte;
          if (byte === 0x2a /* * */) wildcard = true;
          else if (byte === 0x25 /* % */ || byte >= 0x80) plain = false;
        }
        if (wildcard) wildcardBytes += end - start;
        words[to + 1] = at;
        words[to + 2] = from[rule * WORDS + 2] as number;
      }
    }
    const records = new RuleRecords(packed, words);
    records.count = count;
    records.patternBytes = bytes;
    records.classified = { plain, wildcardBytes };
    return records;
  }

  /**
   * Whether no pattern holds a `%` or an octet ≥ 0x80, so that each is its own percent-normalized form
   * (src/compile/normalize.ts).
   */
  get plainPatterns(): boolean {
    return this.classify().plain;
  }

  /** Bytes of the patterns that hold a `*`. */
  get wildcardBytes(): number {
    return this.classify().wildcardBytes;
  }

  /** One pass over the patterns for plainPatterns and wildcardBytes, kept until a rule is added. */
  private classify(): { readonly plain: boolean; readonly wildcardBytes: number } {
    if (this.classified !== undefined) return this.classified;
    let plain = true;
    let wildcardBytes = 0;
    for (let rule = 0; rule < this.count; rule++) {
      const start = this.start(rule);
      const end = this.end(rule);
      let wildcard = false;
      for (let i = start; i < end; i++) {
        const byte = this.buffer[i] as number;
        if (byte === 0x2a /* * */) wildcard = true;
        else if (byte === 0x25 /* % */ || byte >= 0x80) plain = false;
      }
      if (wildcard) wildcardBytes += end - start;
    }
    this.classified = { plain, wildcardBytes };
    return this.classified;
  }

  /**
   * The most byte comparisons that trying every rule as written against a path of `pathLength` bytes can
   * make: a pattern without `*` is compared once, at the path's start, at most its length; one with `*`s
   * has its pieces searched for, each search at most the path's length times the piece's. What the tiers
   * that answer first checks without compiling (AgentRules' uncompiled verdicts, the robots-parser
   * drop-in's scan) hold to SCAN_WORK_LIMIT.
   */
  scanWork(pathLength: number): number {
    return this.patternBytes + this.wildcardBytes * pathLength;
  }

  /** Every rule, as one range (what compiling the records select() made reads). */
  all(): RuleRange[] {
    return [{ firstRule: 0, endRule: this.count }];
  }

  /** Bytes these records keep alive: their words and the buffer the patterns are spans of. */
  get bytesHeld(): number {
    const own = this.words.buffer === this.buffer.buffer ? this.buffer.buffer.byteLength : this.words.byteLength + this.buffer.byteLength;
    const verdicts = this.verdictRules;
    if (verdicts === undefined) return own;
    // The prepared entries are small integers: 8 bytes each at most in a JavaScript array.
    return own + (verdicts.bytes === this.buffer ? 0 : verdicts.bytes.buffer.byteLength) + 8 * verdicts.entries.length;
  }

  /**
   * Once the body is read: keeps the body when patterns are most of it; else copies the patterns, packed,
   * so that a file that is mostly something else (an HTML page with one rule) is not kept alive by them.
   */
  place(): void {
    const body = this.buffer;
    if (this.patternBytes * 2 >= body.length) return;
    const packed = new Uint8Array(this.patternBytes);
    const words = this.words;
    let at = 0;
    for (let i = 0; i < this.count * WORDS; i += WORDS) {
      const start = words[i] as number;
      const end = words[i + 1] as number;
      words[i] = at;
      at = copyPattern(body, start, end, packed, at);
      words[i + 1] = at;
    }
    this.buffer = packed;
    this.verdictRules = undefined;
  }

  /** What the pattern spans index: rule i's pattern as written is patterns[start(i), end(i)). */
  get patterns(): Uint8Array {
    return this.buffer;
  }

  start(rule: number): number {
    return this.words[rule * WORDS] as number;
  }

  end(rule: number): number {
    return this.words[rule * WORDS + 1] as number;
  }

  line(rule: number): number {
    return (this.words[rule * WORDS + 2] as number) >>> 1;
  }

  isAllow(rule: number): boolean {
    return ((this.words[rule * WORDS + 2] as number) & 1) === 1;
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
