/**
 * The compiled rules as the file wrote them, for explain() and `rules`: what a rule index of the bytecode
 * stands for. Packed (a word of start, one of length, one of line and flags per rule) so that compiled
 * rules hold neither the parse tree nor more of the body than their own patterns.
 *
 * The written patterns are usually views of one buffer (the body, or the packed patterns of a body that
 * was mostly something else, src/parse/groups.ts): then the table keeps a view of the span they cover
 * instead of a copy, so that a cache that keeps the body anyway does not hold the patterns twice.
 */
import { decodeUtf8 } from '../decode-utf8.js';
import type { CompiledRule } from './rules.js';

/** A compiled rule, in the order the matcher tries them. */
export interface RuleInfo {
  readonly kind: 'allow' | 'disallow';
  readonly pattern: string;
  readonly line: number;
}

const ALLOW = 0x8000_0000;
const DERIVED = 0x4000_0000;
const LINE = 0x3fff_ffff;

/**
 * The span of one buffer all `rules` are views of, when it is mostly their patterns (at most half again
 * as long as they are together); else undefined, and the patterns are copied rather than keep the rest
 * of the span (comments, sitemaps, other agents' rules) alive.
 */
function sharedSpan(rules: readonly CompiledRule[]): Uint8Array | undefined {
  const buffer = rules[0]?.written.buffer;
  let start = Infinity;
  let end = 0;
  let total = 0;
  for (const { written } of rules) {
    if (written.buffer !== buffer) return undefined;
    start = Math.min(start, written.byteOffset);
    end = Math.max(end, written.byteOffset + written.length);
    total += written.length;
  }
  if (buffer === undefined || end - start > total * 1.5) return undefined;
  return new Uint8Array(buffer, start, end - start);
}

export class RuleTable {
  /** The written patterns: rule i's are bytes starts[i] to starts[i] + lengths[i]. */
  private readonly written: Uint8Array;
  /** Whether `written` is a span of the buffer the patterns came from, not a copy of its own. */
  private readonly shared: boolean;
  private readonly starts: Uint32Array;
  /** A written pattern is one line's value: at most 16,663 bytes (MAX_LINE_BYTES), so 16 bits hold it. */
  private readonly lengths: Uint16Array;
  /** Per rule: its line, with ALLOW and DERIVED in the top bits. */
  private readonly linesAndFlags: Uint32Array;

  /** `rules` in the bytecode's order: index i here is rule i there. */
  constructor(rules: readonly CompiledRule[]) {
    this.starts = new Uint32Array(rules.length);
    this.lengths = new Uint16Array(rules.length);
    this.linesAndFlags = new Uint32Array(rules.length);
    const shared = sharedSpan(rules);
    let total = 0;
    if (shared === undefined) for (const rule of rules) total += rule.written.length;
    this.written = shared ?? new Uint8Array(total);
    this.shared = shared !== undefined;
    let at = 0;
    rules.forEach((rule, index) => {
      const { written } = rule;
      if (shared === undefined) {
        this.written.set(written, at);
        this.starts[index] = at;
        at += written.length;
      } else {
        this.starts[index] = written.byteOffset - shared.byteOffset;
      }
      this.lengths[index] = written.length;
      // Line numbers stay far below 2^30: a 500 KiB body has at most 512,000 lines.
      this.linesAndFlags[index] = (rule.line & LINE) | (rule.allow ? ALLOW : 0) | (rule.derived ? DERIVED : 0);
    });
  }

  get length(): number {
    return this.linesAndFlags.length;
  }

  /**
   * Bytes this table keeps alive: its arrays and the patterns, unless they are a span of `besides` (a
   * body its holder counts already, as a RobotsCache entry does).
   */
  bytesHeldBesides(besides: ArrayBufferLike | undefined): number {
    const own = this.starts.byteLength + this.lengths.byteLength + this.linesAndFlags.byteLength;
    return this.shared && this.written.buffer === besides ? own : own + this.written.byteLength;
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
