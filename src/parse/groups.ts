/**
 * Records → groups, plus the file-wide directives.
 *
 * Consecutive user-agent lines open one group; a group ends at a user-agent line that follows an allow or
 * disallow line (an empty one too). Blank lines, sitemaps and unknown lines do not end a group. Rules
 * before any user-agent line belong to no group and are ignored.
 */
import { isGlobalAgent, productTokenLength } from './agent-lines.js';
import { GroupBoundary } from './group-boundary.js';
import { applyGroupDirective, extensionNamed, type GroupDirective, type UsageKey } from './group-extensions.js';
import { decodeUtf8 } from './utf8.js';
import { parseCleanParam } from './clean-param.js';
import { parseHost } from './host.js';
import type { Diagnostic, DiagnosticCode, GroupRecord, ParsedRobots } from './model.js';
import { readRecords, type RecordHandler, type RecordReader } from './records.js';
import { RuleRecords } from './rule-records.js';
import { completeLines } from './body.js';
import { readUsageRecord } from '../usage/usage-record.js';

/** Diagnostics kept per file. */
const MAX_DIAGNOSTICS = 1000;

class GroupBuilder implements RecordHandler {
  readonly groups: GroupRecord[] = [];
  readonly rules: RuleRecords;
  readonly sitemaps: string[] = [];
  /** The sitemaps seen, for the duplicate check: a list search would make many sitemaps quadratic. */
  private readonly sitemapsSeen = new Set<string>();
  readonly licenses: string[] = [];
  private readonly licensesSeen = new Set<string>();
  readonly cleanParams: ParsedRobots['cleanParams'] = [];
  readonly diagnostics: Diagnostic[] = [];
  host: string | undefined;
  private current: GroupRecord | undefined;
  private readonly boundary = new GroupBoundary();

  constructor(private readonly body: Uint8Array) {
    this.rules = new RuleRecords(body);
  }

  /** Whether diagnostics are still kept: past the cap, work that only produces them is skipped. */
  private get reporting(): boolean {
    return this.diagnostics.length <= MAX_DIAGNOSTICS;
  }

  private report(line: number, code: DiagnosticCode, message: string): void {
    // Binary garbage would otherwise produce a diagnostic per line; past the cap, one says so.
    if (this.diagnostics.length < MAX_DIAGNOSTICS) this.diagnostics.push({ line, code, message });
    else if (this.diagnostics.length === MAX_DIAGNOSTICS) {
      this.diagnostics.push({
        line,
        code: 'too-many-diagnostics',
        message: `more than ${MAX_DIAGNOSTICS} diagnostics; the rest are left out`,
      });
    }
  }

  userAgent(line: number, start: number, end: number): void {
    const raw = this.body.subarray(start, end);
    if (this.boundary.userAgent() || this.current === undefined) {
      const next = this.rules.count;
      this.current = { agents: [], firstRule: next, endRule: next };
      this.groups.push(this.current);
    }
    const value = decodeUtf8(raw);
    // The token is ASCII, so its bytes are the value's first characters.
    const token = value.slice(0, productTokenLength(this.body, start, end)).toLowerCase();
    this.current.agents.push({ line, value, token, global: isGlobalAgent(this.body, start, end) });
  }

  rule(line: number, allow: boolean, start: number, end: number): void {
    if (!this.boundary.rule() || this.current === undefined) {
      this.report(line, 'outside-group', `${allow ? 'Allow' : 'Disallow'} before any User-agent line is ignored`);
      return;
    }
    this.rules.add(line, allow, start, end);
    this.current.endRule = this.rules.count;
  }

  sitemap(line: number, start: number, end: number): void {
    this.fileUrl(line, 'Sitemap', start, end, this.sitemaps, this.sitemapsSeen);
  }

  /** A file-wide URL line (Sitemap, License): kept when absolute, once. */
  private fileUrl(line: number, key: string, start: number, end: number, urls: string[], seen: Set<string>): void {
    const value = decodeUtf8(this.body.subarray(start, end));
    if (!URL.canParse(value)) {
      this.report(line, 'invalid-value', `${key} must be an absolute URL, got "${value}"`);
    } else if (!seen.has(value)) {
      seen.add(value);
      urls.push(value);
    }
  }

  other(line: number, keyStart: number, keyEnd: number, start: number, end: number): void {
    // Most such lines are junk (HTML served as robots.txt): the key is compared as bytes, and the value
    // decoded only for a known one.
    const key = extensionNamed(this.body, keyStart, keyEnd);
    if (key === undefined) this.unknownDirective(line, keyStart, keyEnd);
    else if (key === 'host') this.hostDirective(line, this.body.subarray(start, end));
    else if (key === 'clean-param') this.cleanParamDirective(line, decodeUtf8(this.body.subarray(start, end)));
    else if (key === 'license') this.fileUrl(line, 'License', start, end, this.licenses, this.licensesSeen);
    else if (key === 'content-usage' || key === 'content-signal') this.usageDirective(line, key, start, end);
    else this.groupDirective(line, key, this.body.subarray(start, end));
  }

  private unknownDirective(line: number, keyStart: number, keyEnd: number): void {
    if (!this.reporting) return;
    this.report(
      line,
      'unknown-directive',
      `unknown directive "${decodeUtf8(this.body.subarray(keyStart, Math.min(keyEnd, keyStart + 100)))}" is ignored`,
    );
  }

  malformed(line: number): void {
    this.report(line, 'malformed-line', 'line is neither a comment nor a "key: value" record');
  }

  lineCut(line: number): void {
    this.report(line, 'line-too-long', 'line is longer than 16,663 bytes; the rest of it is ignored');
  }

  /**
   * A Content-Usage or Content-Signal line: a rule of the group it stands in (draft-ietf-aipref-attach-05
   * §3 adds Content-Usage to RFC 9309's `rule`; Content-Signal, which no grammar defines, is read the same
   * way), so it ends the group's User-agent lines as Allow and Disallow do. Before any group, ignored.
   * Departure: Google's reference parser, older than the draft, reads both as unknown lines, which end
   * nothing; a file with a usage line between two User-agent lines groups differently there.
   */
  private usageDirective(line: number, key: UsageKey, start: number, end: number): void {
    const group = this.current;
    if (!this.boundary.rule() || group === undefined) {
      if (this.reporting)
        this.report(
          line,
          'outside-group',
          `${key === 'content-usage' ? 'Content-Usage' : 'Content-Signal'} before any User-agent line is ignored`,
        );
      return;
    }
    (group.usage ??= []).push(readUsageRecord(key, line, this.body, start, end));
  }

  private groupDirective(line: number, key: GroupDirective, raw: Uint8Array): void {
    const group = this.current;
    if (group === undefined) {
      if (this.reporting) this.report(line, 'outside-group', `${key} before any User-agent line is ignored`);
      return;
    }
    const invalid = applyGroupDirective(group, key, raw, this.reporting);
    if (invalid !== undefined) this.report(line, 'invalid-value', `invalid ${key} "${invalid}"`);
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
  const complete = completeLines(body, endsMidLine);
  const builder = new GroupBuilder(complete);
  read(complete, builder);
  builder.rules.place();
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
    rules: builder.rules,
    sitemaps: builder.sitemaps,
    licenses: builder.licenses,
    host: builder.host,
    cleanParams: builder.cleanParams,
    diagnostics: builder.diagnostics,
    bytesParsed: body.length,
    bytesIgnored,
    truncated,
  };
}
