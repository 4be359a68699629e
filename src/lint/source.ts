/**
 * The file as the linter sees it: its bytes, where each line lies (read by the library's own line
 * reader, so lines split exactly where the parser splits them), and byte offsets turned into the columns
 * people see in their editor (code points of the decoded line).
 */
import { completeLines, limitBody } from '../parse/body.js';
import { decodeUtf8 } from '../parse/utf8.js';
import { forEachLine } from '../parse/lines.js';

export interface SourceLine {
  /** Content of the line: body[start, end) (a NUL or the line limit may end it early). */
  readonly start: number;
  readonly end: number;
}

function isAsciiWhitespace(byte: number): boolean {
  return byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);
}

export class LintSource {
  /** What is linted: the body up to `maxBytes`, less a last line the limit cut short (as the parser reads it). */
  readonly bytes: Uint8Array;
  /** The whole body's length in UTF-8 bytes, what was not linted included. */
  readonly totalBytes: number;
  /** `lines[n - 1]` is line n. */
  readonly lines: SourceLine[] = [];

  constructor(
    body: string | Uint8Array,
    /** How many bytes were to be linted at most. */
    readonly maxBytes: number,
  ) {
    const limited = limitBody(body, maxBytes);
    // completeLines() also gives a plain Uint8Array: a Buffer's subarray() differs, and the parser's helpers expect the plain kind.
    this.bytes = completeLines(limited.bytes, limited.endsMidLine);
    this.totalBytes = limited.totalBytes;
    forEachLine(this.bytes, (_line, start, end) => void this.lines.push({ start, end }));
  }

  text(start: number, end: number): string {
    return decodeUtf8(this.bytes.subarray(start, end));
  }

  /** The 1-based column of body[offset] on `line`: code points, as editors count them. */
  column(line: number, offset: number): number {
    const start = this.lines[line - 1]?.start ?? 0;
    const end = Math.min(Math.max(start, offset), this.bytes.length);
    // ASCII is one column a byte; anything else is decoded, so that invalid bytes count as the decoder reads them.
    let ascii = start;
    while (ascii < end && (this.bytes[ascii] as number) < 0x80) ascii++;
    let count = ascii - start + 1;
    if (ascii < end) for (const _ of this.text(ascii, end)) count++;
    return count;
  }

  /** Blank: nothing but ASCII whitespace (a comment line is not blank: the 1994 readers end a record only at an empty line). */
  isBlank(line: number): boolean {
    const where = this.lines[line - 1];
    if (where === undefined) return false;
    for (let i = where.start; i < where.end; i++) if (!isAsciiWhitespace(this.bytes[i] as number)) return false;
    return true;
  }

  /** Offset of the first byte of `line` that is not ASCII whitespace (the start of its key), or its end. */
  contentStart(line: number): number {
    const where = this.lines[line - 1];
    if (where === undefined) return 0;
    let i = where.start;
    while (i < where.end && isAsciiWhitespace(this.bytes[i] as number)) i++;
    return i;
  }

  /** The line that holds body[offset] (the last line when offset is past the end). */
  lineAt(offset: number): number {
    let low = 0;
    let high = this.lines.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.lines[middle] as SourceLine).start <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  }
}
