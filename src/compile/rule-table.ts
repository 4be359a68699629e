/**
 * The compiled rules as the file wrote them, for explain() and `rules`: what a rule index of the bytecode
 * stands for. Packed (a word of start, one of length, one of line and flags per rule) so that compiled
 * rules hold neither the parse tree nor more of the body than their own patterns.
 *
 * The written patterns are usually most of the buffer they are spans of (the packed patterns of the agent's
 * own records, RuleRecords.select()): then the table keeps a view of the span they cover instead of a copy,
 * and counts that buffer as what it holds.
 */
import { decodeUtf8 } from '../parse/utf8.js';
import type { RuleRecords } from '../parse/rule-records.js';
import { DERIVED as DERIVED_SOURCE, type CompiledRules } from './rules.js';

/** A compiled rule, in the order the matcher tries them. */
export interface RuleInfo {
  /** `Allow:` or `Disallow:`. */
  readonly kind: 'allow' | 'disallow';
  /** The pattern as written in the file. */
  readonly pattern: string;
  /** 1-based line of the rule in the file. */
  readonly line: number;
}

const ALLOW = 0x8000_0000;
const DERIVED = 0x4000_0000;
const LINE = 0x3fff_ffff;

/**
 * Where the written patterns of the records of `sources` lie in `records.patterns`: the span they cover and
 * their bytes together.
 */
function coveredSpan(records: RuleRecords, sources: Uint32Array, count: number): { start: number; end: number; total: number } {
  let start = Infinity;
  let end = 0;
  let total = 0;
  for (let index = 0; index < count; index++) {
    const record = (sources[index] as number) & ~DERIVED_SOURCE;
    start = Math.min(start, records.start(record));
    end = Math.max(end, records.end(record));
    total += records.end(record) - records.start(record);
  }
  return { start, end, total };
}

export class RuleTable {
  /** The written patterns: rule i's are bytes starts[i] to starts[i] + lengths[i]. */
  private readonly written: Uint8Array;
  /**
   * Whether `written` is a span of the buffer the patterns came from (when it is mostly their patterns: at
   * most half again as long as they are together), not a copy; a copy keeps none of the rest of the span
   * alive.
   */
  private readonly shared: boolean;
  private readonly starts: Uint32Array;
  /** A written pattern is one line's value: at most 16,663 bytes (MAX_LINE_BYTES), so 16 bits hold it. */
  private readonly lengths: Uint16Array;
  /** Per rule: its line, with ALLOW and DERIVED in the top bits. */
  private readonly linesAndFlags: Uint32Array;

  /** The rules `compiled` holds, in its order (the bytecode's: index i here is rule i there), as `records` wrote them. */
  constructor(records: RuleRecords, compiled: CompiledRules) {
    const { sources, count } = compiled;
    const span = coveredSpan(records, sources, count);
    this.shared = count > 0 && span.end - span.start <= span.total * 1.5;
    this.starts = new Uint32Array(count);
    this.lengths = new Uint16Array(count);
    this.linesAndFlags = new Uint32Array(count);
    const patterns = records.patterns;
    this.written = this.shared ? patterns.subarray(span.start, span.end) : new Uint8Array(span.total);
    let at = 0;
    for (let index = 0; index < count; index++) {
      const source = sources[index] as number;
      const record = source & ~DERIVED_SOURCE;
      const start = records.start(record);
      const length = records.end(record) - start;
      if (this.shared) {
        this.starts[index] = start - span.start;
      } else {
        this.starts[index] = at;
        for (let k = start; k < start + length; k++) this.written[at++] = patterns[k] as number;
      }
      this.lengths[index] = length;
      // Line numbers stay far below 2^30: a 500 KiB body has at most 512,000 lines.
      this.linesAndFlags[index] =
        (records.line(record) & LINE) | ((compiled.allows[index] as number) === 1 ? ALLOW : 0) | (source & DERIVED_SOURCE ? DERIVED : 0);
    }
  }

  get length(): number {
    return this.linesAndFlags.length;
  }

  /** Bytes this table keeps alive: its arrays, and the buffer its patterns are (a view of, or a copy). */
  get bytesHeld(): number {
    const own = this.starts.byteLength + this.lengths.byteLength + this.linesAndFlags.byteLength;
    return own + (this.shared ? this.written.buffer.byteLength : this.written.byteLength);
  }

  /** Rule `index`'s kind, without describing it. */
  kind(index: number): 'allow' | 'disallow' {
    return (this.linesAndFlags[index] as number) & ALLOW ? 'allow' : 'disallow';
  }

  /** Rule `index`'s 1-based line, without describing it. */
  line(index: number): number {
    return (this.linesAndFlags[index] as number) & LINE;
  }

  /** Rule `index` as written; a rule derived by the index.html rule shows as `…/$`. */
  describe(index: number): RuleInfo {
    const flags = this.linesAndFlags[index] as number;
    const start = this.starts[index] as number;
    // decodeUtf8 keeps a U+FEFF the pattern starts with: the text is the pattern as written.
    let pattern = decodeUtf8(this.written.subarray(start, start + (this.lengths[index] as number)));
    if (flags & DERIVED) pattern = `${pattern.slice(0, pattern.lastIndexOf('/') + 1)}$`;
    return { kind: flags & ALLOW ? 'allow' : 'disallow', pattern, line: flags & LINE };
  }
}
