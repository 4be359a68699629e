/**
 * The extension lines a robots.txt may hold besides rules, by key: the ones that belong to a group
 * (Crawl-delay, Request-rate, Visit-time; the first valid value of each counts), the usage lines, which also
 * belong to a group (Content-Usage, Content-Signal: every line counts) and the file-wide ones (Host,
 * Clean-param, License). The parser (./groups.ts) and the one-agent selector (./agent-selector.ts) both read
 * group extensions through applyGroupDirective, so that they keep the same values.
 */
import { startsWithIgnoringAsciiCase } from './ascii.js';
import { isPlainDecimal, parseCrawlDelay, parseRequestRate, parseVisitTime } from './group-directives.js';
import type { GroupExtensions } from './model.js';
import { decodeUtf8 } from './utf8.js';

/** The extensions that belong to a group (the first valid value of each counts). */
export type GroupDirective = 'crawl-delay' | 'request-rate' | 'visit-time';

/** The lines of a group's usage preferences (src/usage/): kept per group, every line counts. */
export type UsageKey = 'content-usage' | 'content-signal';

export type ExtensionKey = GroupDirective | UsageKey | 'host' | 'clean-param' | 'license';

/** The extension body[start, end) names, if any: by its length first (then a prefix is the whole key), so that most keys cost one comparison. */
export function extensionNamed(body: Uint8Array, start: number, end: number): ExtensionKey | undefined {
  switch (end - start) {
    case 4:
      return startsWithIgnoringAsciiCase(body, start, end, 'host') ? 'host' : undefined;
    case 7:
      return startsWithIgnoringAsciiCase(body, start, end, 'license') ? 'license' : undefined;
    case 10:
      return startsWithIgnoringAsciiCase(body, start, end, 'visit-time') ? 'visit-time' : undefined;
    case 11:
      return startsWithIgnoringAsciiCase(body, start, end, 'crawl-delay')
        ? 'crawl-delay'
        : startsWithIgnoringAsciiCase(body, start, end, 'clean-param')
          ? 'clean-param'
          : undefined;
    case 12:
      return startsWithIgnoringAsciiCase(body, start, end, 'request-rate') ? 'request-rate' : undefined;
    case 13:
      return startsWithIgnoringAsciiCase(body, start, end, 'content-usage') ? 'content-usage' : undefined;
    case 14:
      return startsWithIgnoringAsciiCase(body, start, end, 'content-signal') ? 'content-signal' : undefined;
    default:
      return undefined;
  }
}

/**
 * Reads a group directive's value `raw` into `group` when it is the first valid one of its kind. Returns
 * the value as text when it is invalid (the parser reports it), else undefined. With `reporting` false,
 * work that could only find an invalid value is skipped: a value past the first valid one is not read.
 */
export function applyGroupDirective(group: GroupExtensions, key: GroupDirective, raw: Uint8Array, reporting: boolean): string | undefined {
  const field = key === 'crawl-delay' ? 'crawlDelay' : key === 'request-rate' ? 'requestRate' : 'visitTime';
  if (group[field] !== undefined && !reporting) return undefined;
  // A valid repeat changes nothing and reports nothing: checked on the bytes, without decoding.
  if (key === 'crawl-delay' && group.crawlDelay !== undefined && isPlainDecimal(raw.length, (i) => raw[i] as number)) return undefined;
  const value = decodeUtf8(raw);
  if (key === 'crawl-delay') {
    const seconds = parseCrawlDelay(value);
    if (seconds === undefined) return value;
    group.crawlDelay ??= seconds;
  } else if (key === 'request-rate') {
    const rate = parseRequestRate(value);
    if (rate === undefined) return value;
    group.requestRate ??= rate;
  } else {
    const window = parseVisitTime(value);
    if (window === undefined) return value;
    group.visitTime ??= window;
  }
  return undefined;
}
