/** What parsing a robots.txt file yields: the groups, the file-wide directives, and what was odd. */
import type { CleanParam } from './clean-param.js';
import type { RequestRate, VisitTime } from './group-directives.js';
import type { RuleLine, RuleRecords } from './rule-records.js';
import type { UsageRecord, UsageStatement } from '../usage/usage-record.js';

// A group's rules as objects are made by RuleRecords, which defines them.
export type { RuleLine } from './rule-records.js';

/** One `User-agent:` line of a group. */
export interface AgentLine {
  /** 1-based line in the file. */
  readonly line: number;
  /** The value as written. */
  readonly value: string;
  /** The value cut to its leading run of `[A-Za-z_-]`, lower-cased: what callers' agents are compared to. */
  readonly token: string;
  /** `*` alone, or followed by whitespace. */
  readonly global: boolean;
}

/** The first valid value of each extension in a group. */
export interface GroupExtensions {
  /** `Crawl-delay`, in seconds. */
  crawlDelay?: number;
  /** `Request-rate`. */
  requestRate?: RequestRate;
  /** `Visit-time`. */
  visitTime?: VisitTime;
}

/** A group's Content-Usage and Content-Signal lines, in file order (none: undefined). */
export interface GroupUsage {
  usage?: UsageRecord[];
}

/** Consecutive user-agent lines and the lines up to the next group. */
export interface Group extends GroupExtensions {
  /** Its `User-agent:` lines, in file order. */
  readonly agents: AgentLine[];
  /** Its `Allow:` and `Disallow:` lines, in file order. */
  readonly rules: RuleLine[];
  /** Its `Content-Usage:` and `Content-Signal:` lines, in file order; absent when it has none. */
  readonly usage?: readonly UsageStatement[];
}

/** A group as the parser keeps it: its rules are a range of the file's RuleRecords, not objects. */
export interface GroupRecord extends GroupExtensions, GroupUsage {
  readonly agents: AgentLine[];
  /** The group's rules are rules firstRule to endRule - 1 of the file's RuleRecords. */
  readonly firstRule: number;
  endRule: number;
}

/**
 * What a {@link Diagnostic} is about:
 *
 * | code | meaning |
 * | --- | --- |
 * | `'body-truncated'` | the file was longer than `maxBytes`: the rest was not read (line 0) |
 * | `'over-profile-limit'` | the file is over the profile's size limit (yandex: 32 KiB), so it allows everything (line 0) |
 * | `'line-too-long'` | a line over 16,663 bytes: the rest of it is ignored |
 * | `'malformed-line'` | neither a comment nor a `key: value` record |
 * | `'unknown-directive'` | a key the profile does not read |
 * | `'invalid-value'` | a value that does not parse (a relative Sitemap or License, a bad Crawl-delay or Host …): ignored |
 * | `'outside-group'` | a rule or group directive (Content-Usage and Content-Signal too) before any `User-agent:` line: ignored |
 * | `'duplicate-host'` | a second valid `Host:`: only the first counts |
 * | `'too-many-diagnostics'` | over 1,000 diagnostics: the rest are left out |
 */
export type DiagnosticCode =
  | 'body-truncated'
  | 'over-profile-limit'
  | 'line-too-long'
  | 'malformed-line'
  | 'unknown-directive'
  | 'invalid-value'
  | 'outside-group'
  | 'duplicate-host'
  | 'too-many-diagnostics';

/** Something a site owner may want to know; never an error for the caller. */
export interface Diagnostic {
  /** 1-based line, or 0 for the file as a whole. */
  readonly line: number;
  /** What it is about, for programs. */
  readonly code: DiagnosticCode;
  /** What it is about, for people: one sentence naming the line's problem. */
  readonly message: string;
}

export interface ParsedRobots {
  readonly groups: GroupRecord[];
  /** Every rule of the groups, in file order. */
  readonly rules: RuleRecords;
  readonly sitemaps: string[];
  /** `License:` URLs (absolute), in file order, without duplicates. */
  readonly licenses: string[];
  readonly host: string | undefined;
  readonly cleanParams: CleanParam[];
  readonly diagnostics: Diagnostic[];
  /** Bytes of the body that were read (at most maxBytes; a line the limit cut short is read, then dropped). */
  readonly bytesParsed: number;
  /** Bytes past maxBytes that were ignored; undefined when the body was cut at an unknown length. */
  readonly bytesIgnored: number | undefined;
  /** The body was longer than maxBytes. */
  readonly truncated: boolean;
}
