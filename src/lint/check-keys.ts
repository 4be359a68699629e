/**
 * Checks of each line's key: lines no crawler reads (no colon, unknown key), and lines Google reads but
 * exact readers do not (its tolerated misspellings, a missing colon).
 */
import { quote, type LintContext } from './context.js';
import { keyName, type LintRecord, type RecordKind } from './records.js';

/**
 * Extensions some crawler reads (Yandex, Bing, the 1996 draft), and the lines that state usage preferences
 * (Content-Usage, draft-ietf-aipref-attach-05 §3; Content-Signal, Cloudflare's Content Signals Policy; License,
 * RSL 1.0): not unknown, even though Google ignores them.
 */
const KNOWN_EXTENSIONS: ReadonlySet<string> = new Set([
  'crawl-delay',
  'host',
  'clean-param',
  'request-rate',
  'visit-time',
  'content-usage',
  'content-signal',
  'license',
]);

/** Page-level directives people put in robots.txt, which no major crawler reads there. */
const PAGE_DIRECTIVES: ReadonlySet<string> = new Set(['noindex', 'nofollow', 'noarchive', 'nosnippet', 'noimageindex']);

const KEY_NAMES: Readonly<Record<RecordKind, string>> = {
  'user-agent': 'User-agent',
  allow: 'Allow',
  disallow: 'Disallow',
  sitemap: 'Sitemap',
  other: '',
};

function checkRecordKey(context: LintContext, record: LintRecord): void {
  const key = context.source.text(record.keyStart, record.keyEnd);
  const name = keyName(context.source, record);
  const value = context.value(record);
  if (record.kind === 'other') {
    const known = KNOWN_EXTENSIONS.has(name);
    if (record.exactKind === 'malformed') {
      if (known) missingColon(context, record, key, value);
      else malformedLine(context, record.line);
    } else if (PAGE_DIRECTIVES.has(name)) {
      context.at(
        'unsupported-directive',
        record.line,
        record.keyStart,
        `${quote(key)} is a page-level directive that no major crawler reads in robots.txt (Google dropped it in 2019)`,
        `use <meta name="robots" content="${name}"> or an X-Robots-Tag: ${name} header on the pages; Disallow only stops crawling`,
      );
    } else if (!known) {
      context.at('unknown-directive', record.line, record.keyStart, `unknown directive ${quote(key)}: no crawler reads this line`);
    }
    return;
  }
  const proper = KEY_NAMES[record.kind];
  if (record.exactKind === 'malformed') missingColon(context, record, proper, value);
  else if (record.exactKind !== record.kind) {
    context.at(
      'google-only-spelling',
      record.line,
      record.keyStart,
      `${quote(key)} is read as ${proper} by Google only: crawlers that read keys exactly ignore this line`,
      `write ${proper}: ${value}`,
    );
  }
}

function missingColon(context: LintContext, record: LintRecord, key: string, value: string): void {
  context.at(
    'missing-colon',
    record.line,
    record.keyStart,
    'the line has no colon: Google reads it as a record, crawlers that require "key: value" ignore it',
    `write ${key}: ${value}`,
  );
}

function malformedLine(context: LintContext, line: number): void {
  context.at(
    'malformed-line',
    line,
    context.source.contentStart(line),
    'the line is neither a "key: value" record nor a comment: every crawler ignores it',
    'start comments with "#"; write records as key: value',
  );
}

/** `skip`: lines another check already explained (a byte order mark before the key). */
export function checkKeys(context: LintContext, skip: ReadonlyMap<number, number>): void {
  for (const record of context.records) if (!skip.has(record.line)) checkRecordKey(context, record);
  for (const line of context.file.malformed) if (!skip.has(line)) malformedLine(context, line);
  for (const line of context.file.cut) {
    context.at(
      'line-too-long',
      line,
      context.source.contentStart(line),
      'the line is longer than 16,663 bytes: Google ignores the rest of it',
    );
  }
}
