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

function isTokenByte(byte: number): boolean {
  const folded = byte | 0x20;
  return (folded >= 0x61 && folded <= 0x7a) || byte === 0x5f || byte === 0x2d;
}

/** Bytes of the leading run of `[A-Za-z_-]` of a user-agent value (the product token, RFC 9309 §2.2.1). */
function productTokenLength(raw: Uint8Array): number {
  let length = 0;
  while (length < raw.length && isTokenByte(raw[length] as number)) length++;
  return length;
}

function isGlobalAgent(raw: Uint8Array): boolean {
  // Google's tolerance: "* something" is still the global group.
  const next = raw[1];
  return raw[0] === 0x2a && (next === undefined || next === 0x20 || (next >= 0x09 && next <= 0x0d));
}

/** Whether `raw` is `key` (lower-case ASCII) in any ASCII case; no other character folds to ASCII here. */
function keyIs(raw: Uint8Array, key: string): boolean {
  if (raw.length !== key.length) return false;
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i] as number;
    if ((byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte) !== key.charCodeAt(i)) return false;
  }
  return true;
}

/** Diagnostics kept per file. */
const MAX_DIAGNOSTICS = 1000;

/** The extensions that belong to a group (the first valid value of each counts). */
type GroupDirective = 'crawl-delay' | 'request-rate' | 'visit-time';

type ExtensionKey = GroupDirective | 'host' | 'clean-param';

/** The extension `raw` names, if any: by its length first, so that most keys cost one comparison. */
function extensionNamed(raw: Uint8Array): ExtensionKey | undefined {
  switch (raw.length) {
    case 4:
      return keyIs(raw, 'host') ? 'host' : undefined;
    case 10:
      return keyIs(raw, 'visit-time') ? 'visit-time' : undefined;
    case 11:
      return keyIs(raw, 'crawl-delay') ? 'crawl-delay' : keyIs(raw, 'clean-param') ? 'clean-param' : undefined;
    case 12:
      return keyIs(raw, 'request-rate') ? 'request-rate' : undefined;
    default:
      return undefined;
  }
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

  /** Whether diagnostics are still kept: past the cap, work that only produces them is skipped. */
  private get reporting(): boolean {
    return this.diagnostics.length <= MAX_DIAGNOSTICS;
  }

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
    // The token is ASCII, so its bytes are the value's first characters.
    const token = value.slice(0, productTokenLength(raw)).toLowerCase();
    this.current.agents.push({ line, value, token, global: isGlobalAgent(raw) });
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
    // Most such lines are junk (HTML served as robots.txt): the key is compared as bytes, and the value
    // decoded only for a known one.
    const key = extensionNamed(rawKey);
    if (key === undefined) this.unknownDirective(line, rawKey);
    else if (key === 'host') this.hostDirective(line, raw);
    else if (key === 'clean-param') this.cleanParamDirective(line, decodeUtf8(raw));
    else this.groupDirective(line, key, raw);
  }

  private unknownDirective(line: number, rawKey: Uint8Array): void {
    if (!this.reporting) return;
    this.report(line, 'unknown-directive', `unknown directive "${decodeUtf8(rawKey.subarray(0, 100))}" is ignored`);
  }

  malformed(line: number): void {
    this.report(line, 'malformed-line', 'line is neither a comment nor a "key: value" record');
  }

  lineCut(line: number): void {
    this.report(line, 'line-too-long', 'line is longer than 16,663 bytes; the rest of it is ignored');
  }

  private groupDirective(line: number, key: GroupDirective, raw: Uint8Array): void {
    const group = this.current;
    if (group === undefined) {
      if (this.reporting) this.report(line, 'outside-group', `${key} before any User-agent line is ignored`);
      return;
    }
    // The first valid value counts; past it, a line could only add a diagnostic.
    const field = key === 'crawl-delay' ? 'crawlDelay' : key === 'request-rate' ? 'requestRate' : 'visitTime';
    if (group[field] !== undefined && !this.reporting) return;
    const value = decodeUtf8(raw);
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

  private hostDirective(line: number, raw: Uint8Array): void {
    // Only the first valid Host counts; past it, a line could only add a diagnostic.
    if (this.host !== undefined && !this.reporting) return;
    const value = decodeUtf8(raw);
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

/** A key that tells apart every pattern of up to 6 bytes (their bytes and their length), for sharing views. */
function shortKey(pattern: Uint8Array): number {
  let key = pattern.length;
  for (let i = 0; i < pattern.length; i++) key = key * 256 + (pattern[i] as number);
  return key;
}

const SHORT_PATTERN = 6;

/**
 * Copies the patterns out of the body into one buffer of their own. A pattern is a view of the body, so
 * a file that is mostly something else (an HTML page with one rule) would otherwise keep all of it
 * alive for as long as one rule is kept; when the patterns are most of the body, the views are cheaper.
 * Short patterns that repeat (`/`, `/*`) share one view: a file of thousands of tiny groups makes one.
 */
function packPatterns(groups: readonly Group[], patternBytes: number): void {
  const packed = new Uint8Array(patternBytes);
  const shared = new Map<number, Uint8Array>();
  let at = 0;
  for (const group of groups) {
    for (const rule of group.rules as { pattern: Uint8Array }[]) {
      const key = rule.pattern.length <= SHORT_PATTERN ? shortKey(rule.pattern) : -1;
      const known = shared.get(key);
      if (known !== undefined) {
        rule.pattern = known;
        continue;
      }
      packed.set(rule.pattern, at);
      rule.pattern = packed.subarray(at, at + rule.pattern.length);
      if (key >= 0) shared.set(key, rule.pattern);
      at += rule.pattern.length;
    }
  }
}

/** Position of the last CR or LF in `body`, or -1. */
function lastLineEnd(body: Uint8Array): number {
  return Math.max(body.lastIndexOf(0x0a), body.lastIndexOf(0x0d));
}
