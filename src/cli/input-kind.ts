/**
 * What an input is, told from its first bytes: text the commands read, gzip they decompress, or something
 * they refuse whole rather than read as lines of garbage (a `.bz2` log read as 25 malformed lines, a PNG
 * linted into warnings). Used for robots.txt files (`check`, `lint`) and URL logs (`filter`).
 *
 * sniff(head) names the kind; refusalText(kind, name, command) is the one-line message for a kind the
 * command does not read, saying what the input is and how to feed it. A UTF-8 byte-order mark is text: the
 * parser strips it.
 */
import { printable } from './printable.js';

export type InputKind = 'text' | 'gzip' | 'bzip2' | 'xz' | 'zstd' | 'utf16' | 'binary';

/** Bytes of the input's start to pass to sniff(): a NUL byte anywhere in them makes it binary. */
export const SNIFF_BYTES = 64 * 1024;

/** Signatures at the start of the input. Checked in order; the first that matches names the kind. */
const SIGNATURES: readonly (readonly [InputKind, readonly number[]])[] = [
  ['gzip', [0x1f, 0x8b]],
  ['xz', [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]],
  ['zstd', [0x28, 0xb5, 0x2f, 0xfd]],
  ['utf16', [0xff, 0xfe]],
  ['utf16', [0xfe, 0xff]],
  // PNG, JPEG, GIF, PDF and ZIP (also .docx, .xlsx, .jar): files people have at hand that are never text to read.
  ['binary', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['binary', [0xff, 0xd8, 0xff]],
  ['binary', [0x47, 0x49, 0x46, 0x38]],
  ['binary', [0x25, 0x50, 0x44, 0x46, 0x2d]],
  ['binary', [0x50, 0x4b, 0x03, 0x04]],
];

function startsWith(head: Uint8Array, signature: readonly number[]): boolean {
  return head.length >= signature.length && signature.every((byte, index) => head[index] === byte);
}

/**
 * The kind of an input from its first bytes (up to SNIFF_BYTES; fewer for a shorter input, and an empty one
 * is text). bzip2 is `BZh` and a block size digit, so that a text starting with "BZh" stays text.
 */
export function sniff(head: Uint8Array): InputKind {
  for (const [kind, signature] of SIGNATURES) if (startsWith(head, signature)) return kind;
  if (startsWith(head, [0x42, 0x5a, 0x68]) && (head[3] ?? 0) >= 0x31 && (head[3] ?? 0) <= 0x39) return 'bzip2';
  return head.subarray(0, SNIFF_BYTES).includes(0) ? 'binary' : 'text';
}

/** What each refused kind is, and the command that turns it into text (none for binary). */
const REFUSED: Readonly<Record<Exclude<InputKind, 'text'>, { readonly is: string; readonly tool: string | undefined }>> = {
  gzip: { is: 'gzip-compressed', tool: 'zcat' },
  bzip2: { is: 'bzip2-compressed', tool: 'bzcat' },
  xz: { is: 'xz-compressed', tool: 'xzcat' },
  zstd: { is: 'zstd-compressed', tool: 'zstdcat' },
  utf16: { is: 'UTF-16 text (it starts with a byte-order mark)', tool: 'iconv -f UTF-16 -t UTF-8' },
  binary: { is: 'binary, not text (a NUL byte in its first 64 KiB, or an image, PDF or ZIP signature)', tool: undefined },
};

/** `name` as a word of a shell command: as it is when safe, else in single quotes. */
function shellWord(name: string): string {
  return /^[\w@%+=:,./-]+$/.test(name) ? name : `'${printable(name).replace(/'/g, "'\\''")}'`;
}

/**
 * The message for input of a kind the command does not read, one line: what it is and how to feed it.
 * `name` is the input as given ("-" for stdin); `command` is how the command reads stdin, as written after
 * `robotstxt ` (`check - AGENT URL…`, `lint -`, `filter … -`):
 * `logs.bz2 is bzip2-compressed, which robotstxt does not read: bzcat logs.bz2 | robotstxt filter … -`.
 */
export function refusalText(kind: Exclude<InputKind, 'text'>, name: string, command: string): string {
  const { is, tool } = REFUSED[kind];
  const subject = name === '-' ? 'the input on stdin' : printable(name);
  if (tool === undefined) return `${subject} is ${is}: there are no lines to read in it; pass a text file`;
  const feed = name === '-' ? `… | ${tool} | robotstxt ${command}` : `${tool} ${shellWord(name)} | robotstxt ${command}`;
  return `${subject} is ${is}, which robotstxt does not read: ${feed}`;
}
