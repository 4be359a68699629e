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

export class RuleRecords {
  /** The buffer the patterns are spans of: the body, or a packed copy of the patterns (see place()). */
  private buffer: Uint8Array;
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  /** Per rule: its 1-based line, doubled, plus 1 for an allow. */
  private readonly linesAndKinds: number[] = [];
  private patternBytes = 0;

  constructor(body: Uint8Array) {
    this.buffer = body;
  }

  /** Rules so far. */
  get count(): number {
    return this.starts.length;
  }

  add(line: number, allow: boolean, start: number, end: number): void {
    this.starts.push(start);
    this.ends.push(end);
    this.linesAndKinds.push(line * 2 + (allow ? 1 : 0));
    this.patternBytes += end - start;
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
    for (let i = 0; i < starts.length; i++) {
      const start = starts[i] as number;
      const end = ends[i] as number;
      starts[i] = at;
      if (end - start <= SHORT_COPY) for (let k = start; k < end; k++) packed[at++] = body[k] as number;
      else {
        packed.set(body.subarray(start, end), at);
        at += end - start;
      }
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
