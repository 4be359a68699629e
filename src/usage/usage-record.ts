/**
 * One Content-Usage or Content-Signal line as the parser keeps it: what it says (a frozen UsageStatement,
 * what usage() answers show) and its path's bytes as written, which the usage rules are compiled from
 * (percent-normalised as Allow and Disallow patterns are, so that raw bytes are kept, not a decoded string).
 */
import { decodeUtf8 } from '../parse/utf8.js';
import { splitRuleValue } from './rule-value.js';
import { readStatement, type UsageReading, type UsageSource } from './statement.js';

/** One Content-Usage or Content-Signal line: what usage() answers name as deciding. */
export interface UsageStatement {
  /** The kind of line: `Content-Usage` (draft-ietf-aipref-attach-05) or `Content-Signal` (Cloudflare's policy). */
  readonly source: UsageSource;
  /** 1-based line in robots.txt. */
  readonly line: number;
  /** The path as written; undefined when the line has none (it then applies to every path). */
  readonly path: string | undefined;
  /** The statement of preference as written. */
  readonly preference: string;
  /** What this line alone says for each purpose. */
  readonly reading: UsageReading;
}

export interface UsageRecord {
  readonly statement: UsageStatement;
  /** The path's bytes as written (a copy); empty when the line has none. */
  readonly path: Uint8Array;
}

/** The line `line`, of kind `source`, whose value is body[start, end). */
export function readUsageRecord(source: UsageSource, line: number, body: Uint8Array, start: number, end: number): UsageRecord {
  const { pathEnd, preferenceStart } = splitRuleValue(body, start, end);
  const path = body.slice(start, pathEnd);
  const statement: UsageStatement = Object.freeze({
    source,
    line,
    path: path.length === 0 ? undefined : decodeUtf8(path),
    preference: decodeUtf8(body.subarray(preferenceStart, end)),
    reading: readStatement(source, body, preferenceStart, end),
  });
  return { statement, path };
}
