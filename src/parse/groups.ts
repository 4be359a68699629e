/**
 * Records → groups, plus the file-wide directives.
 *
 * Consecutive user-agent lines open one group; a group ends at a user-agent line that follows an allow or
 * disallow line (an empty one too). Blank lines, sitemaps and unknown lines do not end a group. Rules
 * before any user-agent line belong to no group and are ignored.
 */
import { decodeUtf8 } from '../decode-utf8.js';
import { parseCleanParam } from './clean-param.js';
import { parseCrawlDelay, parseRequestRate, parseVisitTime } from './group-directives.js';
import { parseHost } from './host.js';
import type { Diagnostic, DiagnosticCode, Group, ParsedRobots } from './model.js';
import { readRecords, type RecordHandler, type RecordReader } from './records.js';

/** The leading run of `[A-Za-z_-]` of a user-agent value, lower-cased. */
function productTokenOf(value: string): string {
  const match = /^[A-Za-z_-]*/.exec(value);
  return (match?.[0] ?? '').toLowerCase();
}

function isGlobalAgent(value: string): boolean {
  // Google's tolerance: "* something" is still the global group.
  return value[0] === '*' && (value.length === 1 || /^[\t\n\v\f\r ]/.test(value.slice(1)));
}

/** Diagnostics kept per file. */
const MAX_DIAGNOSTICS = 1000;

const GROUP_DIRECTIVES = ['crawl-delay', 'request-rate', 'visit-time'] as const;
const LONGEST_EXTENSION_KEY = 'request-rate'.length;
type GroupDirective = (typeof GROUP_DIRECTIVES)[number];

function isGroupDirective(key: string): key is GroupDirective {
  return (GROUP_DIRECTIVES as readonly string[]).includes(key);
}

class GroupBuilder implements RecordHandler {
  readonly groups: Group[] = [];
  readonly sitemaps: string[] = [];
  /** The sitemaps seen, for the duplicate check: a list search would make many sitemaps quadratic. */
  private readonly sitemapsSeen = new Set<string>();
  readonly cleanParams: ParsedRobots['cleanParams'] = [];
  readonly diagnostics: Diagnostic[] = [];
  host: string | undefined;
  private current: Group | undefined;
  private lastWasRule = false;
  /** Bytes of all patterns: whether they are worth copying out of the body (packPatterns). */
  patternBytes = 0;

  private report(line: number, code: DiagnosticCode, message: string): void {
    // Binary garbage would otherwise produce a diagnostic per line; past the cap, one says so.
    if (this.diagnostics.length < MAX_DIAGNOSTICS) this.diagnostics.push({ line, code, message });
    else if (this.diagnostics.length === MAX_DIAGNOSTICS) {
      this.diagnostics.push({ line, code: 'too-many-diagnostics', message: `more than ${MAX_DIAGNOSTICS} diagnostics; the rest are left out` });
    }
  }

  userAgent(line: number, raw: Uint8Array): void {
    if (this.current === undefined || this.lastWasRule) {
      this.current = { agents: [], rules: [] };
      this.groups.push(this.current);
      this.lastWasRule = false;
    }
    const value = decodeUtf8(raw);
    this.current.agents.push({ line, value, token: productTokenOf(value), global: isGlobalAgent(value) });
  }

  rule(line: number, allow: boolean, pattern: Uint8Array): void {
    if (this.current === undefined) {
      this.report(line, 'outside-group', `${allow ? 'Allow' : 'Disallow'} before any User-agent line is ignored`);
      return;
    }
    this.current.rules.push({ line, allow, pattern });
    this.patternBytes += pattern.length;
    this.lastWasRule = true;
  }

  sitemap(line: number, raw: Uint8Array): void {
    const value = decodeUtf8(raw);
    if (!URL.canParse(value)) {
      this.report(line, 'invalid-value', `Sitemap must be an absolute URL, got "${value}"`);
    } else if (!this.sitemapsSeen.has(value)) {
      this.sitemapsSeen.add(value);
      this.sitemaps.push(value);
    }
  }

  other(line: number, rawKey: Uint8Array, raw: Uint8Array): void {
    // Most such lines are junk (HTML served as robots.txt): decode the value only for a known key.
    if (rawKey.length > LONGEST_EXTENSION_KEY) return this.unknownDirective(line, rawKey);
    const key = decodeUtf8(rawKey).toLowerCase();
    if (isGroupDirective(key)) this.groupDirective(line, key, decodeUtf8(raw));
    else if (key === 'host') this.hostDirective(line, decodeUtf8(raw));
    else if (key === 'clean-param') this.cleanParamDirective(line, decodeUtf8(raw));
    else this.unknownDirective(line, rawKey);
  }

  private unknownDirective(line: number, rawKey: Uint8Array): void {
    if (this.diagnostics.length > MAX_DIAGNOSTICS) return;
    this.report(line, 'unknown-directive', `unknown directive "${decodeUtf8(rawKey.subarray(0, 100))}" is ignored`);
  }

  malformed(line: number): void {
    this.report(line, 'malformed-line', 'line is neither a comment nor a "key: value" record');
  }

  lineCut(line: number): void {
    this.report(line, 'line-too-long', 'line is longer than 16,663 bytes; the rest of it is ignored');
  }

  private groupDirective(line: number, key: GroupDirective, value: string): void {
    const group = this.current;
    if (group === undefined) {
      this.report(line, 'outside-group', `${key} before any User-agent line is ignored`);
      return;
    }
    const invalid = (): void => this.report(line, 'invalid-value', `invalid ${key} "${value}"`);
    if (key === 'crawl-delay') {
      const seconds = parseCrawlDelay(value);
      if (seconds === undefined) invalid();
      else group.crawlDelay ??= seconds;
    } else if (key === 'request-rate') {
      const rate = parseRequestRate(value);
      if (rate === undefined) invalid();
      else group.requestRate ??= rate;
    } else {
      const window = parseVisitTime(value);
      if (window === undefined) invalid();
      else group.visitTime ??= window;
    }
  }

  private hostDirective(line: number, value: string): void {
    const host = parseHost(value);
    if (host === undefined) this.report(line, 'invalid-value', `invalid host "${value}"`);
    else if (this.host === undefined) this.host = host;
    else this.report(line, 'duplicate-host', 'only the first valid Host counts');
  }

  private cleanParamDirective(line: number, value: string): void {
    const cleanParam = parseCleanParam(value, line);
    if (cleanParam === undefined) this.report(line, 'invalid-value', `invalid clean-param "${value}"`);
    else this.cleanParams.push(cleanParam);
  }
}

/**
 * Parses `body`, the part of a file that fits the byte limit; `bytesIgnored` bytes past `maxBytes` were
 * left out (and are reported; undefined when the body was cut at an unknown length). When the limit cut
 * a line short, that line is dropped rather than read as a shorter rule: `Disallow: /private` cut to
 * `Disallow: /` would block the whole site, where rules past the limit (RFC 9309 §2.5) are simply unread.
 */
export function parseRobotsBody(
  body: Uint8Array,
  bytesIgnored: number | undefined,
  maxBytes: number,
  endsMidLine: boolean,
  read: RecordReader = readRecords,
): ParsedRobots {
  const builder = new GroupBuilder();
  const complete = endsMidLine ? body.subarray(0, lastLineEnd(body) + 1) : body;
  read(complete, builder);
  if (builder.patternBytes * 2 < body.length) packPatterns(builder.groups, builder.patternBytes);
  const truncated = bytesIgnored !== 0;
  if (truncated) {
    const partial = endsMidLine ? `; the line it cut (${body.length - complete.length} bytes) was dropped` : '';
    const rest = bytesIgnored === undefined ? 'the rest was not read' : `${bytesIgnored} more bytes were ignored`;
    builder.diagnostics.unshift({
      line: 0,
      code: 'body-truncated',
      message: `only the first ${maxBytes} bytes were read${partial}; ${rest}`,
    });
  }
  return {
    groups: builder.groups,
    sitemaps: builder.sitemaps,
    host: builder.host,
    cleanParams: builder.cleanParams,
    diagnostics: builder.diagnostics,
    bytesParsed: body.length,
    bytesIgnored,
    truncated,
  };
}

/**
 * Copies the patterns out of the body into one buffer of their own. A pattern is a view of the body, so
 * a file that is mostly something else (an HTML page with one rule) would otherwise keep all of it
 * alive for as long as one rule is kept; when the patterns are most of the body, the views are cheaper.
 */
function packPatterns(groups: readonly Group[], patternBytes: number): void {
  const packed = new Uint8Array(patternBytes);
  let at = 0;
  for (const group of groups) {
    group.rules.forEach((rule, index) => {
      packed.set(rule.pattern, at);
      group.rules[index] = { ...rule, pattern: packed.subarray(at, at + rule.pattern.length) };
      at += rule.pattern.length;
    });
  }
}

/** Position of the last CR or LF in `body`, or -1. */
function lastLineEnd(body: Uint8Array): number {
  return Math.max(body.lastIndexOf(0x0a), body.lastIndexOf(0x0d));
}
