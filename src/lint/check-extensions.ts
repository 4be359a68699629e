/**
 * Checks of the directives beyond the rules: Sitemap (Google, Bing, Yandex), Yandex's Host and
 * Clean-param, Crawl-delay (Bing, Yandex), and License (RSL 1.0), each validated as the library's parser
 * validates it, so the linter and the parser never disagree on what is valid.
 */
import { parseCleanParam } from '../parse/clean-param.js';
import { parseCrawlDelay } from '../parse/group-directives.js';
import { parseHost } from '../parse/host.js';
import { quote, shorten, type LintContext } from './context.js';
import { keyName, type LintRecord } from './records.js';

function checkSitemap(context: LintContext, record: LintRecord): void {
  const value = context.value(record);
  if (/^https?:\/\//i.test(value) && URL.canParse(value)) return;
  context.at(
    'sitemap-not-absolute',
    record.line,
    record.valueStart === record.valueEnd ? record.keyStart : record.valueStart,
    `Sitemap ${quote(value)} is not an absolute http(s) URL: crawlers ignore it`,
    value.startsWith('/')
      ? `write the full URL: Sitemap: https://example.com${value}`
      : 'write the full URL: Sitemap: https://example.com/sitemap.xml',
  );
}

function checkHost(context: LintContext, record: LintRecord, first: LintRecord | undefined): boolean {
  const value = context.value(record);
  if (parseHost(value) === undefined) {
    context.at(
      'host-invalid',
      record.line,
      record.valueEnd === record.valueStart ? record.keyStart : record.valueStart,
      `Host ${quote(value)} is not one domain name with an optional port: Yandex ignores it (no IP address, path or "_")`,
      'write the main mirror: Host: https://www.example.com (only Yandex reads Host)',
    );
    return false;
  }
  if (first !== undefined) {
    context.at(
      'host-repeated',
      record.line,
      record.keyStart,
      `another Host: only the first valid one (line ${first.line}) counts`,
      'keep one Host line',
    );
  }
  return true;
}

function checkCrawlDelay(context: LintContext, record: LintRecord): void {
  const value = context.value(record);
  if (parseCrawlDelay(value) !== undefined) return;
  context.at(
    'crawl-delay-invalid',
    record.line,
    record.valueEnd === record.valueStart ? record.keyStart : record.valueStart,
    `Crawl-delay ${quote(value)} is not a number of seconds: crawlers ignore it`,
    'write seconds as a plain number: Crawl-delay: 10 (Yandex also takes 0.5)',
  );
}

const CLEAN_PARAM_PREFIX = /^[A-Za-z0-9.\-/*_]*$/;

function cleanParamProblem(value: string): string {
  if (value.length > 500) return `is ${value.length} characters long; Yandex takes at most 500`;
  const fields = value.split(/[ \t]+/);
  if (fields.length > 2) return 'has more than two fields (parameters, then one path prefix)';
  const prefix = fields[1] ?? '';
  if (!CLEAN_PARAM_PREFIX.test(prefix)) return `has a path prefix ${quote(prefix)} with characters outside A-Za-z0-9.-/*_`;
  if (prefix !== '' && !/^[/*]/.test(prefix)) return `has a path prefix ${quote(prefix)} that does not start with "/"`;
  return 'lists no valid parameter names (names joined by "&", no "=" or "#")';
}

function checkCleanParam(context: LintContext, record: LintRecord): void {
  const value = context.value(record);
  if (parseCleanParam(value, record.line) !== undefined) return;
  context.at(
    'clean-param-invalid',
    record.line,
    record.valueEnd === record.valueStart ? record.keyStart : record.valueStart,
    `Clean-param ${quote(value)} ${cleanParamProblem(value)}: Yandex ignores it`,
    'write Clean-param: name1&name2 /path/prefix',
  );
}

/** RSL 1.0: `License:` names the site's machine-readable licence by an absolute URL, file-wide like Sitemap. */
function checkLicense(context: LintContext, record: LintRecord): void {
  const value = context.value(record);
  if (URL.canParse(value)) return;
  context.at(
    'license-invalid',
    record.line,
    record.valueStart === record.valueEnd ? record.keyStart : record.valueStart,
    value === ''
      ? 'License has no value: readers of RSL find no licence'
      : `License ${quote(value)} is not an absolute URL: readers of RSL ignore it`,
    value.startsWith('/')
      ? `write the full URL: License: https://example.com${shorten(value)}`
      : 'write the full URL: License: https://example.com/license.xml',
  );
}

export function checkExtensions(context: LintContext): void {
  let firstHost: LintRecord | undefined;
  for (const record of context.records) {
    if (record.kind === 'sitemap') {
      if (record.exactKind !== 'malformed') checkSitemap(context, record);
      continue;
    }
    if (record.kind !== 'other' || record.exactKind === 'malformed') continue;
    const key = keyName(context.source, record);
    if (key === 'host') {
      if (checkHost(context, record, firstHost)) firstHost ??= record;
    } else if (key === 'crawl-delay') checkCrawlDelay(context, record);
    else if (key === 'clean-param') checkCleanParam(context, record);
    else if (key === 'license') checkLicense(context, record);
  }
}
