/**
 * The name of a host's robots.txt in a `--robots-dir` folder: the one function that forms it, for reading
 * (--robots-dir) and for writing (--save-dir), so that a saved folder always replays.
 *
 * The name is the host's key (./host-name.ts: `example.com`, `example.com_8080`) when that is a name every
 * file system takes as it is: ASCII lower-case letters, digits, `.`, `-` and `_`, at most 200 bytes, not a
 * name Windows reserves and not ending in a dot. Otherwise it is changed so that it is one, in a way that
 * never gives two hosts one name:
 * - any other byte is written `%xx` (lower-case hex: `[::1]_8080` is `%5b%3a%3a1%5d_8080`), which also
 *   covers what NTFS refuses (`<>:"/\|?*`, C0 controls) and `%` itself;
 * - a name Windows reserves before its first dot (CON, PRN, AUX, NUL, COM0-9, LPT0-9, any case, with or
 *   without an extension: https://learn.microsoft.com/en-us/windows/win32/fileio/naming-a-file) has its
 *   first letter written `%xx` (`nul.example` is `%6eul.example`), and a final dot is written `%2e`;
 * - a name longer than 200 bytes keeps its first 182 bytes (never half an escape), then `%%` and the first
 *   16 hex digits of the SHA-256 of the whole key: ext4 and NTFS take 255, and a temporary name is added
 *   while saving.
 * `%` followed by two hex digits, or by `%`, never stands for itself: no key needing none of this can take
 * the name of one that did.
 */
import { createHash } from 'node:crypto';

export const MAX_FILE_NAME_BYTES = 200;
const HASH_DIGITS = 16;
const KEPT = /^[a-z0-9._-]*$/;
const RESERVED = /^(?:con|prn|aux|nul|com\d|lpt\d)(?:\.|$)/;

function escaped(byte: number): string {
  return `%${byte.toString(16).padStart(2, '0')}`;
}

/** The file name of the host whose key is `key` (HostReading.key). */
export function robotsFileName(key: string): string {
  let name = key;
  if (!KEPT.test(name)) {
    name = '';
    for (const byte of new TextEncoder().encode(key)) {
      const char = String.fromCharCode(byte);
      name += KEPT.test(char) ? char : escaped(byte);
    }
  }
  if (RESERVED.test(name)) name = `${escaped(name.charCodeAt(0))}${name.slice(1)}`;
  if (name.endsWith('.')) name = `${name.slice(0, -1)}%2e`;
  if (name.length <= MAX_FILE_NAME_BYTES) return name;
  let cut = MAX_FILE_NAME_BYTES - 2 - HASH_DIGITS;
  if (name[cut - 1] === '%') cut -= 1;
  else if (name[cut - 2] === '%') cut -= 2;
  const digest = createHash('sha256').update(key).digest('hex').slice(0, HASH_DIGITS);
  return `${name.slice(0, cut)}%%${digest}`;
}
