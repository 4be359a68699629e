/**
 * Checks of the file as a whole: what was served (an HTML page), how big it is against each crawler's
 * limit, how it is encoded.
 */
import { profileNamed } from '../profile.js';
import { quote, type LintContext } from './context.js';
import type { LintSource, SourceLine } from './source.js';
import { firstInvalidUtf8, isUtf8 } from './utf8.js';
import { BYTE_ORDER_MARK } from '../bytes.js';

/** Google reads the first 500 KiB (RFC 9309 §2.5 asks for at least that much); the rest is ignored. */
export const GOOGLE_LIMIT_BYTES = 500 * 1024;
/** Yandex: "If the file size exceeds 32 KB, the robot assumes it allows everything": the yandex profile's limit. */
export const YANDEX_LIMIT_BYTES = profileNamed('yandex').allowAllOverBytes;

// The first tag of a page, as the fetcher recognises it (src/fetch/fetch-robots.ts), or an XML prolog: robots.txt holds no tags.
const HTML_START = /^[\t\n\f\r ]*<(?:!doctype[\t\n\f\r ]+html|html|head|body|title|meta|script|!--|\?xml)/i;

/** Whether the file is an HTML page (an error page or a site's front page served at /robots.txt). */
export function checkHtml(context: LintContext): boolean {
  const first = context.source.lines[0];
  if (first === undefined) return false;
  const head = context.source.text(first.start, Math.min(context.source.bytes.length, first.start + 256));
  if (!HTML_START.test(head)) return false;
  const offset = context.source.bytes.indexOf(0x3c, first.start);
  context.at(
    'html-served',
    context.source.lineAt(offset),
    offset,
    'the file is an HTML page, not a robots.txt: crawlers read its lines as unknown records and find no rules',
    'serve a plain-text robots.txt (Content-Type: text/plain) at /robots.txt, or a 404 when there is none',
  );
  return true;
}

const SHORTEN = 'shorten the file: merge rules with wildcards, drop rules for URLs that no longer exist';

/** The file's whole length against Google's and Yandex's limits, and against what was linted (`maxBytes`). */
export function checkSize(context: LintContext): void {
  const { source } = context;
  const size = source.totalBytes;
  const unlinted = size > source.maxBytes ? `; only its first ${source.maxBytes} bytes were linted` : '';
  if (size > GOOGLE_LIMIT_BYTES) {
    const google = `the file is ${size} bytes: Google reads the first ${GOOGLE_LIMIT_BYTES} (500 KiB) and ignores everything`;
    // Pointed at where Google stops when that was linted; said of the whole file when the cut came first.
    if (GOOGLE_LIMIT_BYTES < source.bytes.length) {
      context.at('file-too-large', source.lineAt(GOOGLE_LIMIT_BYTES), GOOGLE_LIMIT_BYTES, `${google} from here on${unlinted}`, SHORTEN);
    } else context.whole('file-too-large', `${google} past it${unlinted}`, SHORTEN);
  } else if (unlinted !== '') {
    context.whole(
      'file-too-large',
      `the file is ${size} bytes${unlinted}: the rest was not checked`,
      'lint it with a larger maxBytes (the command: --max-bytes) to check all of it',
    );
  }
  if (size > YANDEX_LIMIT_BYTES) {
    context.whole(
      'file-over-yandex-limit',
      `the file is ${size} bytes, over Yandex's 32 KB limit: Yandex then reads it as allowing everything`,
      'keep robots.txt under 32 KB if Yandex matters to the site',
    );
  }
}

/** Invalid UTF-8, once per line: Google reads the bytes as they are, other crawlers decode them (and may not). */
export function checkEncoding(context: LintContext): void {
  const { source } = context;
  if (isUtf8(source.bytes)) return;
  source.lines.forEach(({ start, end }, index) => {
    const invalid = firstInvalidUtf8(source.bytes, start, end);
    if (invalid < 0) return;
    context.at(
      'invalid-utf8',
      index + 1,
      invalid,
      `byte 0x${(source.bytes[invalid] as number).toString(16).toUpperCase()} is not valid UTF-8: crawlers that decode the file read this line differently`,
      'save the file as UTF-8 (RFC 9309 §2.2: robots.txt is UTF-8)',
    );
  });
}

function isBomAt(bytes: Uint8Array, i: number): boolean {
  return bytes[i] === BYTE_ORDER_MARK[0] && bytes[i + 1] === BYTE_ORDER_MARK[1] && bytes[i + 2] === BYTE_ORDER_MARK[2];
}

/** Each line that holds a byte order mark past the file's start → the offset of its first one. */
export function byteOrderMarks(source: LintSource): Map<number, number> {
  const lines = new Map<number, number>();
  source.lines.forEach(({ start, end }, index) => {
    for (let i = start; i + 2 < end; i++) {
      if (!isBomAt(source.bytes, i)) continue;
      lines.set(index + 1, i);
      return;
    }
  });
  return lines;
}

/**
 * A byte order mark after the start (two files pasted together, an editor's include): it is content
 * there, so a key it precedes is no key any crawler knows. The key checks leave these lines to this one.
 */
export function checkByteOrderMarks(context: LintContext, marks: ReadonlyMap<number, number>): void {
  const { source } = context;
  for (const [line, i] of marks) {
    const end = (source.lines[line - 1] as SourceLine).end;
    context.at(
      'bom-not-at-start',
      line,
      i,
      `a byte order mark (U+FEFF) ${i === source.contentStart(line) ? `starts this line: its key ${quote(source.text(i + 3, Math.min(end, i + 40)))} is read as an unknown one` : 'inside the line is read as part of it'}`,
      'remove it: a byte order mark may only start the file',
    );
  }
}
