/**
 * The file's records under two readings, side by side: Google's (keys by prefix, its accepted
 * misspellings, a missing colon tolerated) and an exact one (the key's name alone, colon required), as
 * stricter crawlers and the 1994 readers read. Both come from the library's record reader; where they
 * part, some crawler reads a line that another ignores.
 */
import { readRecords, type RecordHandler } from '../parse/records.js';
import type { LintSource } from './source.js';
import { COLON } from '../bytes.js';

export type RecordKind = 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'other';

export interface LintRecord {
  readonly line: number;
  /** What Google reads. */
  readonly kind: RecordKind;
  /** What an exact reader reads; `malformed` when the line has no colon. */
  readonly exactKind: RecordKind | 'malformed';
  /** The key as written: body[keyStart, keyEnd). */
  readonly keyStart: number;
  readonly keyEnd: number;
  /** The value, trimmed, comment removed: body[valueStart, valueEnd). */
  readonly valueStart: number;
  readonly valueEnd: number;
}

export interface ReadFile {
  /** Records in file order (Google's reading decides which lines are records). */
  readonly records: LintRecord[];
  /** Lines that are neither blank, nor a comment, nor a record, for Google too. */
  readonly malformed: number[];
  /** Lines longer than the line limit. */
  readonly cut: number[];
}

type Reading = { kind: RecordKind; valueStart: number; valueEnd: number; keyEnd?: number };

/** Collects one reading, by line. */
class ReadingCollector implements RecordHandler {
  readonly byLine = new Map<number, Reading>();
  readonly malformedLines: number[] = [];
  readonly cutLines: number[] = [];

  userAgent(line: number, start: number, end: number): void {
    this.byLine.set(line, { kind: 'user-agent', valueStart: start, valueEnd: end });
  }
  rule(line: number, allow: boolean, start: number, end: number): void {
    this.byLine.set(line, { kind: allow ? 'allow' : 'disallow', valueStart: start, valueEnd: end });
  }
  sitemap(line: number, start: number, end: number): void {
    this.byLine.set(line, { kind: 'sitemap', valueStart: start, valueEnd: end });
  }
  other(line: number, _keyStart: number, keyEnd: number, start: number, end: number): void {
    this.byLine.set(line, { kind: 'other', valueStart: start, valueEnd: end, keyEnd });
  }
  malformed(line: number): void {
    this.malformedLines.push(line);
  }
  lineCut(line: number): void {
    this.cutLines.push(line);
  }
}

/** Where the key written before `valueStart` ends: at the colon, or (no colon) at the first space or tab. */
function keyEnd(bytes: Uint8Array, keyStart: number, valueStart: number): number {
  let end = keyStart;
  while (end < valueStart && bytes[end] !== COLON && bytes[end] !== 0x20 && bytes[end] !== 0x09) end++;
  return end;
}

export function readFile(source: LintSource): ReadFile {
  const google = new ReadingCollector();
  const exact = new ReadingCollector();
  readRecords(source.bytes, google, 'google');
  readRecords(source.bytes, exact, 'exact');
  const records: LintRecord[] = [];
  for (const [line, reading] of google.byLine) {
    const keyStart = source.contentStart(line);
    records.push({
      line,
      kind: reading.kind,
      exactKind: exact.byLine.get(line)?.kind ?? 'malformed',
      keyStart,
      keyEnd: reading.keyEnd ?? keyEnd(source.bytes, keyStart, reading.valueStart),
      valueStart: reading.valueStart,
      valueEnd: reading.valueEnd,
    });
  }
  return { records, malformed: google.malformedLines, cut: google.cutLines };
}

/** The key, lower-cased (ASCII only: no other letter folds to a known key). */
export function keyName(source: LintSource, record: LintRecord): string {
  return source.text(record.keyStart, record.keyEnd).replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}
