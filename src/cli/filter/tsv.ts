/**
 * The fields of `--annotate`'s tab-separated output: no field holds a byte that would add a column, end a
 * line or reach a terminal as a command (a robots.txt rule or a URL may hold any of them). TAB, LF and CR
 * are written `\t`, `\n` and `\r`, the other C0 controls and DEL `\xHH` (ESC is `\x1b`), and a backslash
 * `\\`, so that undoing the escapes gives a field's bytes back exactly. Every other byte is written as it
 * came (a line that is not UTF-8 stays so).
 */
import type { InputShape } from './options.js';

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const BACKSLASH = 0x5c;
const DELETE = 0x7f;
const HEX = '0123456789abcdef';

function escapes(byte: number, keepTabs: boolean): boolean {
  return (byte < 0x20 && !(keepTabs && byte === TAB)) || byte === DELETE || byte === BACKSLASH;
}

/**
 * `bytes` as a field of annotated output (the same array when there is nothing to escape). With `keepTabs`,
 * TABs stay: the line's own columns, when the input's lines are tab-separated fields (`--field N`).
 */
export function tsvField(bytes: Uint8Array, keepTabs = false): Uint8Array {
  let at = 0;
  while (at < bytes.length && !escapes(bytes[at] as number, keepTabs)) at++;
  if (at === bytes.length) return bytes;
  // At most four bytes for one (`\xHH`).
  const out = new Uint8Array(at + 4 * (bytes.length - at));
  out.set(bytes.subarray(0, at));
  let length = at;
  for (; at < bytes.length; at++) {
    const byte = bytes[at] as number;
    if (!escapes(byte, keepTabs)) {
      out[length++] = byte;
      continue;
    }
    out[length++] = BACKSLASH;
    if (byte === TAB) out[length++] = 0x74;
    else if (byte === LF) out[length++] = 0x6e;
    else if (byte === CR) out[length++] = 0x72;
    else if (byte === BACKSLASH) out[length++] = BACKSLASH;
    else {
      out[length++] = 0x78;
      out[length++] = HEX.charCodeAt(byte >> 4);
      out[length++] = HEX.charCodeAt(byte & 0xf);
    }
  }
  return out.subarray(0, length);
}

/** Whether a line's TABs are its own columns, kept as they are in annotated output: tab-separated fields. */
export function keepsTabs(shape: InputShape): boolean {
  return shape.kind === 'field' && shape.delimiter === 'tab';
}
