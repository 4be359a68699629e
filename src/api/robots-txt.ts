/** A parsed robots.txt file: its groups, its file-wide directives, and compiled rules per agent. */
import { disposeKey } from './disposable.js';
import { AgentRules } from './agent-rules.js';
import { RuleTable } from '../compile/rule-table.js';
import { compileRules } from '../compile/rules.js';
import { limitBody } from '../parse/body.js';
import { currentBackend, currentRecordReader } from '../engine/active-backend.js';
import { cleanUrl, type CleanParam } from '../parse/clean-param.js';
import { parseRobotsBody } from '../parse/groups.js';
import type { Diagnostic, Group, GroupRecord, ParsedRobots } from '../parse/model.js';
import type { RuleRecords } from '../parse/rule-records.js';
import { selectGroups, type Selection } from '../parse/select.js';
import { profileNamed, type Profile, type ProfileName, type PublicProfile } from '../profile.js';
import type { URLInput } from './web-types.js';

/** Options of parseRobotsTxt(). */
export interface ParseOptions {
  /** `'rfc9309'` (default) or `'google'`; see the README for exactly where they differ. */
  readonly profile?: ProfileName;
  /** Bytes of the body that are parsed; the rest is ignored and reported. Default 512,000 (500 KiB). */
  readonly maxBytes?: number;
}

export const DEFAULT_MAX_BYTES = 512_000;

/** The compile every agent that no group names shares: the `*` groups' rules, or none. */
const ANY_OTHER_AGENT = '\u0000';

export class RobotsTxt {
  /** The profile the file was parsed with. */
  readonly profile: ProfileName;
  /** Every valid `Sitemap:` URL, in file order, without duplicates. */
  readonly sitemaps: readonly string[];
  /** Yandex `Host:` (the first valid one), if any. */
  readonly host: string | undefined;
  /** Yandex `Clean-param:` directives, in file order. */
  readonly cleanParams: readonly CleanParam[];
  /** What a site owner may want to know: cut lines, unknown keys, invalid values, truncation. */
  readonly diagnostics: readonly Diagnostic[];
  /** Bytes of the body that were parsed (at most maxBytes). */
  readonly bytesParsed: number;
  /**
   * Bytes past maxBytes that were ignored: 0 when the whole body was parsed. A body fetched by
   * fetchRobotsTxt or RobotsCache stops downloading at the limit, so there it is known only from an
   * uncompressed body's Content-Length, and undefined otherwise.
   */
  readonly bytesIgnored: number | undefined;
  /** Whether the body was longer than maxBytes, its end ignored. */
  readonly truncated: boolean;
  private readonly profileRules: Profile;
  /** The groups as the parser keeps them, their rules packed in `ruleRecords`. */
  private readonly groupRecords: readonly GroupRecord[];
  private readonly ruleRecords: RuleRecords;
  /** The groups with their rules as objects, made when first asked for: compiling reads the packed records. */
  private groupObjects: readonly Group[] | undefined;
  /** By the agent's key, or ANY_OTHER_AGENT: at most one per name the file has, plus one. */
  private readonly compiled = new Map<string, AgentRules>();
  /** The agent names the groups have (lower case), built on first use. */
  private namedAgents: ReadonlySet<string> | undefined;

  /** @internal Use parseRobotsTxt(). */
  constructor(parsed: ParsedRobots, profile: PublicProfile) {
    this.profileRules = profile;
    this.profile = profile.name;
    this.sitemaps = parsed.sitemaps;
    this.host = parsed.host;
    this.cleanParams = parsed.cleanParams;
    this.diagnostics = parsed.diagnostics;
    this.groupRecords = parsed.groups;
    this.ruleRecords = parsed.rules;
    this.bytesParsed = parsed.bytesParsed;
    this.bytesIgnored = parsed.bytesIgnored;
    this.truncated = parsed.truncated;
  }

  /** The user-agent groups as parsed. */
  get groups(): readonly Group[] {
    this.groupObjects ??= this.groupRecords.map(({ agents, firstRule, endRule, ...extensions }) => ({
      agents,
      rules: this.ruleRecords.ruleLines(firstRule, endRule),
      ...extensions,
    }));
    return this.groupObjects;
  }

  /**
   * The rules for one agent, compiled once: keep the result and ask it many times. Asking again for the
   * same agent returns the same object (until it is disposed), and so does asking for any agent that no
   * group names (they all get the `*` groups' rules): a server that compiles for whatever name a request
   * gives compiles at most once per name the file has, plus once.
   *
   * @example
   * const robots = parseRobotsTxt('User-agent: *\nDisallow: /private/\n');
   * const rules = robots.forAgent('ExampleBot');
   * rules.isAllowed('https://example.com/private/x'); // false
   * robots.forAgent('ExampleBot') === rules; // true
   */
  forAgent(agent: string): AgentRules {
    const key = this.compileKey(agent);
    const cached = this.compiled.get(key);
    if (cached !== undefined && !cached.disposed) return cached;
    const rules = new AgentRules(this.selectionFor(key), this.ruleRecords, this.profileRules, currentBackend());
    this.compiled.set(key, rules);
    return rules;
  }

  /** @internal What forAgent(agent)'s rules show in explain(), built without compiling them (RobotsCache). */
  ruleTableFor(agent: string): RuleTable {
    const compiled = compileRules(this.ruleRecords, this.selectionFor(this.compileKey(agent)).groups, this.profileRules);
    return new RuleTable(this.ruleRecords, compiled);
  }

  /** The agent's key when a group names it, else ANY_OTHER_AGENT (throws for a name the profile refuses). */
  private compileKey(agent: string): string {
    const key = this.profileRules.agentKey(agent);
    this.namedAgents ??= new Set(
      this.groupRecords.flatMap((group) => group.agents.filter((line) => !line.global).map((line) => line.token)),
    );
    return key !== undefined && this.namedAgents.has(key) ? key : ANY_OTHER_AGENT;
  }

  private selectionFor(key: string): Selection {
    return selectGroups(this.groupRecords, key === ANY_OTHER_AGENT ? undefined : key);
  }

  /**
   * May `agent` fetch `url` (a string, or a URL object: see AgentRules.isAllowed)? Compiles the agent's
   * rules on first use and keeps them.
   *
   * @example
   * parseRobotsTxt('User-agent: *\nDisallow: /private/').isAllowed('https://example.com/private/x', 'ExampleBot'); // false
   */
  isAllowed(url: string | URLInput, agent: string): boolean {
    return this.forAgent(agent).isAllowed(url);
  }

  /**
   * The URL without the query parameters that Yandex `Clean-param` lines declare meaningless for its path.
   *
   * @example
   * const robots = parseRobotsTxt('Clean-param: ref /books/\n');
   * robots.cleanUrl('https://example.com/books/1?ref=home&page=2'); // 'https://example.com/books/1?page=2'
   */
  cleanUrl(url: string): string {
    if (typeof url !== 'string') throw new TypeError(`Expected the URL as a string, got ${typeof url}`);
    return cleanUrl(url, this.cleanParams);
  }

  /** Disposes every AgentRules this object compiled. */
  dispose(): void {
    for (const rules of this.compiled.values()) rules.dispose();
    this.compiled.clear();
  }
  /** dispose(), for `using`: `using robots = parseRobotsTxt(body);` frees every AgentRules it compiled at the end of the block. */
  [disposeKey](): void {
    this.dispose();
  }
}

function checkMaxBytes(maxBytes: number): number {
  if (maxBytes === Infinity || (Number.isSafeInteger(maxBytes) && maxBytes >= 0)) return maxBytes;
  throw new RangeError(`maxBytes must be a whole number of bytes ≥ 0 (or Infinity), got ${String(maxBytes)}`);
}

/**
 * Parses a robots.txt body (text or raw bytes; bytes need not be valid UTF-8).
 *
 * @example
 * const robots = parseRobotsTxt('User-agent: *\nDisallow: /private/\nSitemap: https://example.com/sitemap.xml');
 * robots.isAllowed('https://example.com/private/x', 'ExampleBot'); // false
 * robots.sitemaps; // ['https://example.com/sitemap.xml']
 */
export function parseRobotsTxt(body: string | Uint8Array, options: ParseOptions = {}): RobotsTxt {
  const profile = profileNamed(options.profile);
  const maxBytes = checkMaxBytes(options.maxBytes ?? DEFAULT_MAX_BYTES);
  const { bytes, totalBytes, endsMidLine } = limitBody(body, maxBytes);
  const parsed = parseRobotsBody(bytes, totalBytes - bytes.length, maxBytes, endsMidLine, currentRecordReader());
  return new RobotsTxt(parsed, profile);
}

/**
 * @internal A body read from the network up to one byte past maxBytes (so that a line cut by the limit
 * is recognised); `bytesIgnored` is what the response said lay beyond, when it said so.
 */
export function parseFetchedRobotsTxt(body: Uint8Array, options: Required<ParseOptions>, bytesIgnored: number | undefined): RobotsTxt {
  const { bytes, totalBytes, endsMidLine } = limitBody(body, options.maxBytes);
  const ignored = totalBytes > bytes.length ? bytesIgnored : 0;
  const parsed = parseRobotsBody(bytes, ignored, options.maxBytes, endsMidLine, currentRecordReader());
  return new RobotsTxt(parsed, profileNamed(options.profile));
}
