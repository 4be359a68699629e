/**
 * What an input is, told by its first bytes: text, or something the CLI does not read as text (a
 * compression it does not decode, UTF-16, binary), which it refuses whole, with a message that says how to
 * feed it. Shared by every subcommand that reads files or stdin, so that they refuse the same inputs alike.
 *
 * The signatures: gzip 1F 8B (RFC 1952 §2.3.1), bzip2 `BZh` and a block size digit, xz FD 37 7A 58 5A 00,
 * zstd 28 B5 2F FD (RFC 8878 §3.1.1), a UTF-16 byte order mark (FF FE or FE FF); binary is a NUL byte in the
 * head, which no text log or robots.txt holds. Brotli has no signature: it is known by a name ending `.br`.
 */

export type InputKind = 'text' | 'gzip' | 'bzip2' | 'xz' | 'zstd' | 'utf16' | 'binary';

/** How much of an input's head is sniffed for a NUL byte. */
export const SNIFF_BYTES = 64 * 1024;

function startsWith(head: Uint8Array, signature: readonly number[]): boolean {
  return head.length >= signature.length && signature.every((byte, i) => head[i] === byte);
}

/** The kind of an input whose first bytes (up to SNIFF_BYTES, as read) are `head`. */
export function sniff(head: Uint8Array): InputKind {
  if (startsWith(head, [0x1f, 0x8b])) return 'gzip';
  // "BZh" and the block size, '1' to '9': a text line may well start with "BZh" alone.
  if (startsWith(head, [0x42, 0x5a, 0x68]) && head.length > 3 && (head[3] as number) >= 0x31 && (head[3] as number) <= 0x39) return 'bzip2';
  if (startsWith(head, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])) return 'xz';
  if (startsWith(head, [0x28, 0xb5, 0x2f, 0xfd])) return 'zstd';
  if (startsWith(head, [0xff, 0xfe]) || startsWith(head, [0xfe, 0xff])) return 'utf16';
  const end = Math.min(head.length, SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (head[i] === 0) return 'binary';
  return 'text';
}

/** The program that writes each compression's content to stdout. */
const DECOMPRESSORS = { gzip: 'zcat', bzip2: 'bzcat', xz: 'xzcat', zstd: 'zstdcat' } as const;

/**
 * The one-line message that refuses an input of `kind` (not 'text'): what it is, and how to feed it to
 * `robotstxt COMMAND` (`command`: the subcommand, `filter`). `name` is the input as given, `-` for stdin.
 */
export function refusalText(kind: InputKind, name: string, command: string): string {
  const stdin = name === '-';
  const what = stdin ? 'stdin' : name;
  const fed = `robotstxt ${command} … -`;
  /** `tool NAME | robotstxt COMMAND … -`, or `… | tool | robotstxt COMMAND … -` for stdin. */
  const through = (tool: string): string => (stdin ? `… | ${tool} | ${fed}` : `${tool} ${name} | ${fed}`);
  switch (kind) {
    case 'gzip':
    case 'bzip2':
    case 'xz':
    case 'zstd':
      return `${what} is ${kind}-compressed: decompress it and pipe it in: ${through(DECOMPRESSORS[kind])}`;
    case 'utf16':
      return `${what} is UTF-16 text: convert it to UTF-8 and pipe it in: ${through('iconv -f UTF-16 -t UTF-8')}`;
    case 'binary':
      return `${what} is not text (a NUL byte in its first 64 KiB): robotstxt ${command} reads UTF-8 text lines; decompress or convert it and pipe it in: … | ${fed}`;
    case 'text':
      return `${what} is text`;
  }
}
