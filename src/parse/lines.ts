/**
 * Bytes → lines, the way Google's reference parser reads a robots.txt file:
 * - a leading UTF-8 byte order mark is skipped, whole or partial (`EF`, `EF BB`); elsewhere it is content;
 * - CR, LF and CRLF each end a line (LF then CR is two line ends);
 * - a line keeps at most its first MAX_LINE_BYTES bytes; the rest of it is dropped;
 * - a NUL byte ends the line's content (the reference reads lines as C strings).
 */

import { MAX_LINE_BYTES } from '../layout.js';
import { BYTE_ORDER_MARK, CR, LF } from '../bytes.js';

export { MAX_LINE_BYTES };

/**
 * Receives each line: its 1-based number and where its content lies in the body (`start` to `end`),
 * and whether the line was longer than MAX_LINE_BYTES. Positions, not copies, keep reading cheap.
 */
export type LineHandler = (lineNumber: number, start: number, end: number, cut: boolean) => void;

/** Length of the byte order mark (or of its leading part) that `body` starts with. */
function byteOrderMarkLength(body: Uint8Array): number {
  let length = 0;
  while (length < BYTE_ORDER_MARK.length && body[length] === BYTE_ORDER_MARK[length]) length++;
  return length;
}

/** Calls `onLine` for every line of `body`, the last (possibly empty) line included. */
export function forEachLine(body: Uint8Array, onLine: LineHandler): void {
  let lineNumber = 0;
  let start = byteOrderMarkLength(body);
  const length = body.length;
  let nul = -1;
  for (let i = start; i <= length; i++) {
    const byte = i < length ? (body[i] as number) : LF;
    // Most bytes are printable: one comparison lets them through.
    if (byte > CR) continue;
    if (byte === 0) {
      if (nul < 0) nul = i;
      continue;
    }
    if (byte !== LF && byte !== CR) continue;
    let end = nul >= 0 ? nul : i;
    if (end - start > MAX_LINE_BYTES) end = start + MAX_LINE_BYTES;
    onLine(++lineNumber, start, end, i - start > MAX_LINE_BYTES);
    // The LF of a CRLF ends the same line.
    if (byte === CR && body[i + 1] === LF) i++;
    start = i + 1;
    nul = -1;
  }
}
