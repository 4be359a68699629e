/**
 * The file as the linter sees it: its bytes, where each line lies (read by the library's own line
 * reader, so lines split exactly where the parser splits them), and byte offsets turned into the columns
 * people see in their editor (code points of the decoded line).
 */
import { decodeUtf8 } from '../parse/utf8.js';
import { forEachLine } from '../parse/lines.js';

export interface SourceLine {
  /** Content of the line: body[start, end) (a NUL or the line limit may end it early). */
  readonly start: number;
  readonly end: number;
}

const encoder = new TextEncoder();

function isAsciiWhitespace(byte: number): boolean {
  return byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);
}

export class LintSource {
  readonly bytes: Uint8Array;
  /** `lines[n - 1]` is line n. */
  readonly lines: SourceLine[] = [];

  constructor(body: string | Uint8Array) {
    // A Buffer's subarray() differs from a Uint8Array's; the parser's helpers expect the plain kind.
    this.bytes = typeof body === 'string' ? encoder.encode(body) : new Uint8Array(body.buffer, body.byteOffset, body.length);
    forEachLine(this.bytes, (_line, start, end) => void this.lines.push({ start, end }));
  }

  text(start: number, end: number): string {
    return decodeUtf8(this.bytes.subarray(start, end));
  }

  /** The 1-based column of body[offset] on `line`: code points, as editors count them. */
  column(line: number, offset: number): number {
    const start = this.lines[line - 1]?.start ?? 0;
    let count = 1;
    for (const _ of this.text(start, Math.max(start, offset))) count++;
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
