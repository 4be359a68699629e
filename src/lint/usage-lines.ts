/**
 * The lines that state usage preferences, as the linter's checks of them see each one: which vocabulary it
 * speaks (Content-Usage, draft-ietf-aipref-attach-05 §3; Content-Signal, Cloudflare's Content Signals Policy),
 * its path and its preference, split as the parser splits them (src/usage/rule-value.ts).
 */
import { splitRuleValue } from '../usage/rule-value.js';
import type { UsageSource } from '../usage/statement.js';
import { shorten, type LintContext } from './context.js';
import type { LintRecord } from './records.js';

export interface UsageLine {
  readonly record: LintRecord;
  readonly source: UsageSource;
  /** The key as written, for messages (`Content-Usage`, `content-signal`). */
  readonly key: string;
  /** The path as written; undefined when the value does not start with "/" (attach-05 §3.2: the path is absent). */
  readonly path: string | undefined;
  /** The statement of preference: body[preferenceStart, preferenceEnd). */
  readonly preferenceStart: number;
  readonly preferenceEnd: number;
}

/** The vocabulary of each line kind: its purposes' keys, and the values that allow and disallow. */
export interface Vocabulary {
  /** The line's name as the vocabulary's documents write it. */
  readonly name: string;
  /** Each key the line reads → the purpose it states. */
  readonly keys: ReadonlyMap<string, string>;
  readonly allow: string;
  readonly disallow: string;
  /** An example of a whole preference, for hints. */
  readonly example: string;
}

export const VOCABULARIES: Readonly<Record<UsageSource, Vocabulary>> = {
  'content-usage': {
    name: 'Content-Usage',
    keys: new Map([
      ['train-ai', 'train-ai'],
      ['search', 'search'],
    ]),
    allow: 'y',
    disallow: 'n',
    example: 'train-ai=n, search=y',
  },
  'content-signal': {
    name: 'Content-Signal',
    keys: new Map([
      ['search', 'search'],
      ['ai-input', 'ai-input'],
      ['ai-train', 'train-ai'],
    ]),
    allow: 'yes',
    disallow: 'no',
    example: 'search=yes, ai-train=no',
  },
};

/** The line as the usage checks read it. */
export function usageLine(context: LintContext, record: LintRecord): UsageLine {
  const { source } = context;
  const { pathEnd, preferenceStart } = splitRuleValue(source.bytes, record.valueStart, record.valueEnd);
  return {
    record,
    // The record is one of the two keys (src/lint/groups.ts put it in the group's usage lines): their lengths differ.
    source: record.keyEnd - record.keyStart === 'content-signal'.length ? 'content-signal' : 'content-usage',
    key: source.text(record.keyStart, record.keyEnd),
    path: pathEnd === record.valueStart ? undefined : source.text(record.valueStart, pathEnd),
    preferenceStart,
    preferenceEnd: record.valueEnd,
  };
}

/** The line's key and path as a hint writes them before a preference: `Content-Usage: /docs/ `. */
export function linePrefix(line: UsageLine): string {
  return `${VOCABULARIES[line.source].name}: ${line.path === undefined ? '' : `${shorten(line.path)} `}`;
}
