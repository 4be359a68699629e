/**
 * The fields of `--format tsv`: no field holds a byte that would add a column, end a line or reach a terminal
 * as a command (a robots.txt rule or a URL may hold any of them). TAB, LF and CR are written `\t`, `\n` and
 * `\r`, the other C0 controls and DEL `\xHH` (ESC is `\x1b`), a C1 control as UTF-8 writes it (U+0080 to
 * U+009F, the two bytes C2 80 to C2 9F; U+009B is a terminal's CSI) `\xc2\xHH`, and a backslash `\\`, so
 * that undoing the escapes gives a field's bytes back exactly. Every other byte is written as it came (a line
 * that is not UTF-8 stays so).
 */
import { BACKSLASH, CR, DELETE, LF, TAB } from '../../bytes.js';

const C1_LEAD = 0xc2;
const HEX = '0123456789abcdef';

/** Whether the byte at `at` starts an escape: a C0 control, DEL, a backslash, or the lead byte of a C1 control. */
function escapes(bytes: Uint8Array, at: number): boolean {
  const byte = bytes[at] as number;
  if (byte < 0x20 || byte === DELETE || byte === BACKSLASH) return true;
  if (byte !== C1_LEAD) return false;
  const next = bytes[at + 1];
  return next !== undefined && next >= 0x80 && next <= 0x9f;
}

/** `bytes` as a field of tab-separated output (the same array when there is nothing to escape). */
export function tsvField(bytes: Uint8Array): Uint8Array {
  let at = 0;
  while (at < bytes.length && !escapes(bytes, at)) at++;
  if (at === bytes.length) return bytes;
  // At most four bytes for one (`\xHH`).
  const out = new Uint8Array(at + 4 * (bytes.length - at));
  out.set(bytes.subarray(0, at));
  let length = at;
  const hex = (byte: number): void => {
    out[length++] = BACKSLASH;
    out[length++] = 0x78;
    out[length++] = HEX.charCodeAt(byte >> 4);
    out[length++] = HEX.charCodeAt(byte & 0xf);
  };
  for (; at < bytes.length; at++) {
    const byte = bytes[at] as number;
    if (!escapes(bytes, at)) {
      out[length++] = byte;
    } else if (byte === C1_LEAD) {
      hex(byte);
      hex(bytes[++at] as number);
    } else if (byte === TAB || byte === LF || byte === CR || byte === BACKSLASH) {
      out[length++] = BACKSLASH;
      out[length++] = byte === TAB ? 0x74 : byte === LF ? 0x6e : byte === CR ? 0x72 : BACKSLASH;
    } else {
      hex(byte);
    }
  }
  return out.subarray(0, length);
}
