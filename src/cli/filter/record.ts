/**
 * `filter --format tsv|jsonl|csv`: one record per input line, with the same fields in each format, so that a
 * pipeline can join the output back to its input by line number, whatever ran it:
 *
 *   n, url, verdict, reason, rule_kind, rule_pattern, rule_line, text
 *
 * `n` is the input line number (1-based, counted across every input, malformed lines included); `url` what
 * was decided (null for a malformed line); `reason` why (./reason.ts); the rule that decided and its line in
 * the robots.txt (null when none matched, or no file decided); `text` the raw line when it is malformed or
 * when the URL is one part of it (--field, --json-field, access logs), null otherwise.
 *
 * TSV escapes its fields (./tsv.ts) and CSV quotes them as RFC 4180 says (a field holding `,` `"` CR or LF is
 * quoted, its quotes doubled; records end in CRLF); both write the bytes of the line as they came. JSON lines
 * carry strings, so a line that is not UTF-8 is decoded with U+FFFD for its invalid bytes. TSV and CSV start
 * with a header line unless --no-header.
 *
 * With --purpose, a last field `usage` follows: the URL's preference for the purpose (`allow`, `disallow`,
 * `unknown`), null (empty) when the URL may not be crawled or the line is malformed. Without it the records
 * are what they were before --purpose existed, byte for byte.
 */
import type { Reason } from './reason.js';
import type { OutputFormat } from './options.js';
import type { UsagePreference } from './usage-filter.js';
import { tsvField } from './tsv.js';
import { COMMA, CR, LF, QUOTE, TAB } from '../../bytes.js';

export type RecordFormat = Exclude<OutputFormat, 'text'>;
export type Verdict = 'allowed' | 'disallowed' | 'malformed';

export interface RuleFacts {
  readonly kind: string;
  readonly pattern: string;
  readonly line: number;
}

export interface LineRecord {
  readonly n: number;
  /** The URL decided, as text (JSON) and as bytes (TSV, CSV: the line's own bytes); null when malformed. */
  readonly url: string | null;
  readonly urlBytes: Uint8Array | null;
  readonly verdict: Verdict;
  readonly reason: Reason;
  readonly rule: RuleFacts | null;
  /** The raw line (without its ending), or null. */
  readonly text: Uint8Array | null;
  /** With --purpose, the URL's preference for it (null when it may not be crawled); undefined without: no such field. */
  readonly usage: UsagePreference | null | undefined;
}

export const RECORD_COLUMNS = ['n', 'url', 'verdict', 'reason', 'rule_kind', 'rule_pattern', 'rule_line', 'text'] as const;
/** The column --purpose adds, last, so that a reader of the others finds them where they were. */
export const USAGE_COLUMN = 'usage';

const encoder = new TextEncoder();
const TAB_BYTES = Uint8Array.of(TAB);
const COMMA_BYTES = Uint8Array.of(COMMA);
const LF_BYTES = Uint8Array.of(LF);
const CRLF_BYTES = Uint8Array.of(CR, LF);
const EMPTY = new Uint8Array(0);

/** The header line of TSV and CSV output (with the `usage` column after --purpose); none for the others. */
export function headerLine(format: OutputFormat, withUsage = false): Uint8Array {
  const columns: readonly string[] = withUsage ? [...RECORD_COLUMNS, USAGE_COLUMN] : RECORD_COLUMNS;
  if (format === 'tsv') return encoder.encode(`${columns.join('\t')}\n`);
  if (format === 'csv') return encoder.encode(`${columns.join(',')}\r\n`);
  return EMPTY;
}

function needsQuotes(bytes: Uint8Array): boolean {
  for (const byte of bytes) if (byte === COMMA || byte === QUOTE || byte === LF || byte === CR) return true;
  return false;
}

/** A CSV field's bytes, quoted when RFC 4180 asks. */
export function csvField(bytes: Uint8Array): Uint8Array[] {
  if (!needsQuotes(bytes)) return [bytes];
  return [Uint8Array.of(QUOTE), doubledQuotes(bytes), Uint8Array.of(QUOTE)];
}

/** `bytes` with each `"` written twice (inside a quoted CSV field). */
export function doubledQuotes(bytes: Uint8Array): Uint8Array {
  let quotes = 0;
  for (const byte of bytes) if (byte === QUOTE) quotes++;
  if (quotes === 0) return bytes;
  const out = new Uint8Array(bytes.length + quotes);
  let at = 0;
  for (const byte of bytes) {
    out[at++] = byte;
    if (byte === QUOTE) out[at++] = QUOTE;
  }
  return out;
}

const utf8 = new TextDecoder();

/** Appends the record's line, in `format`, to `parts`. */
export function writeRecord(format: RecordFormat, record: LineRecord, parts: Uint8Array[]): void {
  if (format === 'jsonl') {
    const { n, url, verdict, reason, rule, text, usage } = record;
    const object = { n, url, verdict, reason, rule, text: text === null ? null : utf8.decode(text), usage };
    // JSON.stringify leaves an undefined field out: without --purpose, the object it always was.
    parts.push(encoder.encode(`${JSON.stringify(object)}\n`));
    return;
  }
  const fields: Uint8Array[] = [
    encoder.encode(String(record.n)),
    record.urlBytes ?? EMPTY,
    encoder.encode(record.verdict),
    encoder.encode(record.reason),
    record.rule === null ? EMPTY : encoder.encode(record.rule.kind),
    record.rule === null ? EMPTY : encoder.encode(record.rule.pattern),
    record.rule === null ? EMPTY : encoder.encode(String(record.rule.line)),
    record.text ?? EMPTY,
  ];
  if (record.usage !== undefined) fields.push(record.usage === null ? EMPTY : encoder.encode(record.usage));
  const separator = format === 'tsv' ? TAB_BYTES : COMMA_BYTES;
  fields.forEach((field, index) => {
    if (index > 0) parts.push(separator);
    if (format === 'tsv') parts.push(tsvField(field));
    else parts.push(...csvField(field));
  });
  parts.push(format === 'tsv' ? LF_BYTES : CRLF_BYTES);
}

/**
 * A malformed line too long to hold (src/cli/filter/input.ts), written as it comes, segment by segment: its
 * record's fields, then its text as the format writes a field, without its line ending. A CR that ends a
 * segment is held back until the next shows whether it ended the line (CR LF) or was part of it.
 */
export class OverlongRecord {
  private heldCr = false;
  private readonly decoder = new TextDecoder();

  /** `withUsage`: with --purpose, the record ends in an empty `usage` field, as every malformed line's does. */
  constructor(
    private readonly format: RecordFormat,
    private readonly n: number,
    private readonly withUsage = false,
  ) {}

  /** The output for one segment (`first` opens the line, `last` ends it, with its LF when it had one). */
  segment(bytes: Uint8Array, first: boolean, last: boolean): Uint8Array[] {
    const parts: Uint8Array[] = [];
    if (first) parts.push(encoder.encode(this.opening()));
    let end = bytes.length;
    if (last && end > 0 && bytes[end - 1] === 0x0a) end--;
    const content: Uint8Array[] = [];
    if (this.heldCr && (end > 0 || last)) {
      // The held CR was the line's own byte unless this is the end of the line and nothing follows it.
      if (end > 0) content.push(Uint8Array.of(0x0d));
      this.heldCr = false;
    }
    if (end > 0 && bytes[end - 1] === 0x0d && !last) {
      end--;
      this.heldCr = true;
    } else if (last && end > 0 && bytes[end - 1] === 0x0d) {
      end--;
    }
    content.push(bytes.subarray(0, end));
    for (const piece of content) parts.push(this.escaped(piece, false));
    if (last) {
      parts.push(this.escaped(EMPTY, true));
      parts.push(encoder.encode(this.closing()));
    }
    return parts;
  }

  private opening(): string {
    const n = String(this.n);
    if (this.format === 'jsonl') return `{"n":${n},"url":null,"verdict":"malformed","reason":"malformed","rule":null,"text":"`;
    if (this.format === 'tsv') return `${n}\t\tmalformed\tmalformed\t\t\t\t`;
    // CSV: the text field is always quoted, since its bytes are not all known when it starts.
    return `${n},,malformed,malformed,,,,"`;
  }

  private closing(): string {
    const { withUsage } = this;
    if (this.format === 'jsonl') return withUsage ? '","usage":null}\n' : '"}\n';
    if (this.format === 'tsv') return withUsage ? '\t\n' : '\n';
    return withUsage ? '",\r\n' : '"\r\n';
  }

  private escaped(bytes: Uint8Array, flush: boolean): Uint8Array {
    if (this.format === 'tsv') return tsvField(bytes);
    if (this.format === 'csv') return doubledQuotes(bytes);
    const text = this.decoder.decode(bytes, { stream: !flush });
    return encoder.encode(JSON.stringify(text).slice(1, -1));
  }
}
