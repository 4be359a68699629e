/**
 * The compiled rules as the file wrote them, for explain() and `rules`: what a rule index of the bytecode
 * stands for. Kept packed (one byte buffer of the written patterns, one word of offset and one of line and
 * flags per rule) so that compiled rules hold neither the parse tree nor the body it was read from.
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

export class RuleTable {
  /** The written patterns, one after another; rule i's are bytes starts[i] to starts[i + 1]. */
  private readonly written: Uint8Array;
  private readonly starts: Uint32Array;
  /** Per rule: its line, with ALLOW and DERIVED in the top bits. */
  private readonly linesAndFlags: Uint32Array;

  /** `rules` in the bytecode's order: index i here is rule i there. */
  constructor(rules: readonly CompiledRule[]) {
    this.starts = new Uint32Array(rules.length + 1);
    this.linesAndFlags = new Uint32Array(rules.length);
    let total = 0;
    for (const rule of rules) total += rule.written.length;
    this.written = new Uint8Array(total);
    let at = 0;
    rules.forEach((rule, index) => {
      this.written.set(rule.written, at);
      at += rule.written.length;
      this.starts[index + 1] = at;
      // Line numbers stay far below 2^30: a 500 KiB body has at most 512,000 lines.
      this.linesAndFlags[index] = (rule.line & LINE) | (rule.allow ? ALLOW : 0) | (rule.derived ? DERIVED : 0);
    });
  }

  get length(): number {
    return this.linesAndFlags.length;
  }

  /** Bytes this table holds. */
  get byteLength(): number {
    return this.written.byteLength + this.starts.byteLength + this.linesAndFlags.byteLength;
  }

  /** Rule `index` as written; a rule derived by the index.html rule shows as `…/$`. */
  describe(index: number): RuleInfo {
    const flags = this.linesAndFlags[index] as number;
    // decodeUtf8 keeps a U+FEFF the pattern starts with: the text is the pattern as written.
    let pattern = decodeUtf8(this.written.subarray(this.starts[index], this.starts[index + 1]));
    if (flags & DERIVED) pattern = `${pattern.slice(0, pattern.lastIndexOf('/') + 1)}$`;
    return { kind: flags & ALLOW ? 'allow' : 'disallow', pattern, line: flags & LINE };
  }
}
