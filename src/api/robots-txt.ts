/** A parsed robots.txt file: its groups, its file-wide directives, and compiled rules per agent. */
import { disposeKey } from './disposable.js';
import { AgentRules } from './agent-rules.js';
import { RuleTable } from '../compile/rule-table.js';
import { compileRules } from '../compile/rules.js';
import { completeLines, limitBody } from '../parse/body.js';
import { selectAgent } from '../parse/agent-selector.js';
import { currentBackend, currentRecordReader } from '../engine/active-backend.js';
import { cleanUrl, type CleanParam } from '../parse/clean-param.js';
import { parseRobotsBody } from '../parse/groups.js';
import type { Diagnostic, Group, ParsedRobots } from '../parse/model.js';
import type { RecordReader } from '../parse/records.js';
import type { RuleRecords } from '../parse/rule-records.js';
import { selectGroups, type Selection } from '../parse/select.js';
import { profileNamed, type Profile, type ProfileName, type PublicProfile } from '../profile.js';
import type { URLInput } from './web-types.js';
import type { UsagePreferences } from '../usage/usage-rules.js';

/** Options of parseRobotsTxt(). */
export interface ParseOptions {
  /** `'rfc9309'` (default), `'google'` or `'yandex'`; docs/decisions.md says exactly where they differ. */
  readonly profile?: ProfileName;
  /** Bytes of the body that are parsed; the rest is ignored and reported. Default 512,000 (500 KiB). */
  readonly maxBytes?: number;
}

/** Bytes of a body that parseRobotsTxt() parses unless told otherwise (`maxBytes`): 512,000 (500 KiB, Google's limit). */
export const DEFAULT_MAX_BYTES = 512_000;

/** The compile every agent that no group names shares: the `*` groups' rules, or none. */
const ANY_OTHER_AGENT = '\u0000';
/** Before a family's key, the compile every agent of that family that no group names shares (keys are letters, `_`, `-`). */
const FAMILY = '\u0001';

/** Options of forAgent(). */
export interface ForAgentOptions {
  /**
   * Compile to the indexed tier at once, and the usage lines if there are any, for rules you will ask many
   * times (a crawler's own site, a server's policy). By default the first checks are answered by a direct scan of the rules, and the
   * indexes are built once the rules have been asked enough times to pay for them (see `AgentRules.tier`).
   */
  readonly indexed?: boolean;
}

/** The body as parseRobotsTxt() read it, kept so that each part of the parse is made when first asked for. */
interface Body {
  /** The bytes within maxBytes (a last line the limit cut is dropped when read: completeLines()). */
  readonly bytes: Uint8Array;
  readonly bytesIgnored: number | undefined;
  readonly maxBytes: number;
  readonly endsMidLine: boolean;
  readonly read: RecordReader;
  /** The body is larger than the profile's allowAllOverBytes: it is set aside, and everything allowed. */
  readonly overProfileLimit: boolean;
}

/** `rules`, indexed first when the options ask for it. */
function indexedIf(rules: AgentRules, options: ForAgentOptions): AgentRules {
  if (options.indexed === true) rules.compileAll();
  return rules;
}

/**
 * A parsed robots.txt file, what {@link parseRobotsTxt} returns: its groups and file-wide directives, and its
 * rules compiled per agent (forAgent(), kept for the next call with the same agent). dispose() gives the
 * compiled rules' memory back at once; otherwise the garbage collector does.
 *
 * @example
 * import { parseRobotsTxt } from 'robotstxt-wasm';
 * const robots = parseRobotsTxt('User-agent: *\nDisallow: /private/\n\nSitemap: https://example.com/sitemap.xml\n');
 * robots.isAllowed('https://example.com/private/x', 'ExampleBot'); // false
 * robots.sitemaps; // ['https://example.com/sitemap.xml']
 * robots.groups.length; // 1
 * robots.dispose();
 */
export class RobotsTxt {
  /** The profile the file was parsed with. */
  readonly profile: ProfileName;
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
  /**
   * The body, parsed in full only when something needs every group or a file-wide value (`groups`,
   * `sitemaps`, …): forAgent() reads only the asked agent's rules from it.
   */
  private readonly body: Body;
  private parse: ParsedRobots | undefined;
  /** The groups with their rules as objects, made when first asked for: compiling reads the packed records. */
  private groupObjects: readonly Group[] | undefined;
  /** By the agent's key, or ANY_OTHER_AGENT: at most one per name the file has, plus one. */
  private readonly compiled = new Map<string, AgentRules>();
  /** The agent names the groups have (lower case), built on first use of the full parse. */
  private namedAgents: ReadonlySet<string> | undefined;

  /** @internal Use parseRobotsTxt(). */
  constructor(body: Body, bytesParsed: number, profile: PublicProfile) {
    this.profileRules = profile;
    this.profile = profile.name;
    this.body = body;
    this.bytesParsed = bytesParsed;
    this.bytesIgnored = body.bytesIgnored;
    this.truncated = body.bytesIgnored !== 0;
  }

  /** The whole parse, made on first use. */
  private parsed(): ParsedRobots {
    const { bytes, bytesIgnored, maxBytes, endsMidLine, read, overProfileLimit } = this.body;
    if (this.parse !== undefined) return this.parse;
    if (!overProfileLimit) {
      this.parse = parseRobotsBody(bytes, bytesIgnored, maxBytes, endsMidLine, read);
      return this.parse;
    }
    const limit = this.profileRules.allowAllOverBytes;
    this.parse = { ...parseRobotsBody(bytes, 0, maxBytes, false, read), bytesIgnored, truncated: true };
    this.parse.diagnostics.unshift({
      line: 0,
      code: 'over-profile-limit',
      message: `the file is ${bytesIgnored ?? 'over'} bytes, over the ${this.profile} profile's ${limit}: read as allowing everything`,
    });
    return this.parse;
  }

  /** Every valid `Sitemap:` URL, in file order, without duplicates. */
  get sitemaps(): readonly string[] {
    return this.parsed().sitemaps;
  }

  /**
   * Every `License:` URL (a machine-readable licence for the site's content, RSL 1.0), absolute, in file
   * order, without duplicates; a relative or invalid one is left out and reported in `diagnostics`.
   */
  get licenses(): readonly string[] {
    return this.parsed().licenses;
  }

  /** Yandex `Host:` (the first valid one), if any. */
  get host(): string | undefined {
    return this.parsed().host;
  }

  /** Yandex `Clean-param:` directives, in file order. */
  get cleanParams(): readonly CleanParam[] {
    return this.parsed().cleanParams;
  }

  /** What a site owner may want to know: cut lines, unknown keys, invalid values, truncation. */
  get diagnostics(): readonly Diagnostic[] {
    return this.parsed().diagnostics;
  }

  /** The user-agent groups as parsed. */
  get groups(): readonly Group[] {
    const { groups, rules } = this.parsed();
    this.groupObjects ??= groups.map(({ agents, firstRule, endRule, usage, ...extensions }) => ({
      agents,
      rules: rules.ruleLines(firstRule, endRule),
      ...extensions,
      ...(usage === undefined ? {} : { usage: usage.map((record) => record.statement) }),
    }));
    return this.groupObjects;
  }

  /**
   * The rules for one agent, compiled once: keep the result and ask it many times. Asking again for the
   * same agent returns the same object (until it is disposed), and so does asking for any agent that no
   * group names (they all get the `*` groups' rules): a server that compiles for whatever name a request
   * gives compiles at most once per name the file has, plus once. With `{ indexed: true }`, the rules are
   * indexed at once (see ForAgentOptions).
   *
   * @example
   * const robots = parseRobotsTxt('User-agent: *\nDisallow: /private/\n');
   * const rules = robots.forAgent('ExampleBot');
   * rules.isAllowed('https://example.com/private/x'); // false
   * robots.forAgent('ExampleBot') === rules; // true
   */
  forAgent(agent: string, options: ForAgentOptions = {}): AgentRules {
    const key = this.profileRules.agentKey(agent);
    const named = this.compiledFor(key);
    if (named !== undefined) return indexedIf(named, options);
    // The first agent asked of a file is read from the body alone (whether a group names it is known once
    // its rules are); any other from the full parse, which knows every name at once, so that asking again
    // for an agent no group names finds the shared compile without reading the body again.
    if (this.parse === undefined && this.compiled.size === 0) {
      const family = this.familyOf(key);
      const { bytes, endsMidLine, read } = this.body;
      const selected = selectAgent(completeLines(bytes, endsMidLine), key, family, read);
      const shared = selected.matched === 'family' ? FAMILY + (family as string) : ANY_OTHER_AGENT;
      return this.compile(selected.matched === 'agent' ? (key as string) : shared, selected, selected.rules, options);
    }
    const compileKey = this.compileKey(key);
    const known = this.compiledFor(compileKey);
    if (known !== undefined) return indexedIf(known, options);
    const { selection, records } = this.selectionFor(compileKey);
    return this.compile(compileKey, selection, records, options);
  }

  /** From the full parse: the groups that apply for a compile key, and their rules alone (RuleRecords.select()). */
  private selectionFor(compileKey: string): { readonly selection: Selection; readonly records: RuleRecords } {
    const { groups, rules } = this.parsed();
    const selection =
      compileKey === ANY_OTHER_AGENT
        ? selectGroups(groups, undefined)
        : compileKey.startsWith(FAMILY)
          ? selectGroups(groups, undefined, compileKey.slice(FAMILY.length))
          : selectGroups(groups, compileKey);
    return { selection, records: rules.select(selection.groups) };
  }

  /** Compiles `selection` (its rules `records`) under a compile key (compileKey()). */
  private compile(compileKey: string, selection: Selection, records: RuleRecords, options: ForAgentOptions): AgentRules {
    const rules = new AgentRules(selection, records, this.profileRules, currentBackend(), options);
    this.compiled.set(compileKey, rules);
    return rules;
  }

  /** The rules compiled for `key`, unless there are none or they were disposed. */
  private compiledFor(key: string | undefined): AgentRules | undefined {
    const rules = key === undefined ? undefined : this.compiled.get(key);
    return rules === undefined || rules.disposed ? undefined : rules;
  }

  /** @internal What forAgent(agent)'s rules show in explain(), built without compiling them (RobotsCache). */
  ruleTableFor(agent: string): RuleTable {
    const key = this.profileRules.agentKey(agent);
    const { records } = this.selectionFor(this.compileKey(key));
    return new RuleTable(records, compileRules(records, records.all(), this.profileRules));
  }

  /**
   * The agent's key when a group names it, else its family's (after FAMILY) when a group names that, else
   * ANY_OTHER_AGENT (from the full parse).
   */
  private compileKey(key: string | undefined): string {
    this.namedAgents ??= new Set(
      this.parsed().groups.flatMap((group) => group.agents.filter((line) => !line.global).map((line) => line.token)),
    );
    if (key !== undefined && this.namedAgents.has(key)) return key;
    const family = this.familyOf(key);
    return family !== undefined && this.namedAgents.has(family) ? FAMILY + family : ANY_OTHER_AGENT;
  }

  /** The key of the family the agent of `key` belongs to in this profile (Profile.agentFamily()), if any. */
  private familyOf(key: string | undefined): string | undefined {
    return key === undefined ? undefined : this.profileRules.agentFamily(key);
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
   * What `agent` may do with the content at `url`, besides fetching it: AgentRules.usage() of the agent's
   * rules, compiled on first use and kept.
   *
   * @example
   * const robots = parseRobotsTxt('User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n\n');
   * robots.usage('https://example.com/page', 'ExampleBot')?.['train-ai']; // 'disallow'
   * robots.usage('https://example.com/private/x', 'ExampleBot'); // null
   */
  usage(url: string | URLInput, agent: string): UsagePreferences | null {
    return this.forAgent(agent).usage(url);
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
 * Parses a robots.txt body (text or raw bytes; bytes need not be valid UTF-8). Only what is asked for is
 * read: forAgent() reads the asked agent's rules, and the groups and file-wide values (`sitemaps`, …) are
 * parsed when first used.
 *
 * @example
 * const robots = parseRobotsTxt('User-agent: *\nDisallow: /private/\nSitemap: https://example.com/sitemap.xml');
 * robots.isAllowed('https://example.com/private/x', 'ExampleBot'); // false
 * robots.sitemaps; // ['https://example.com/sitemap.xml']
 */
export function parseRobotsTxt(body: string | Uint8Array, options: ParseOptions = {}): RobotsTxt {
  const profile = profileNamed(options.profile);
  const maxBytes = checkMaxBytes(options.maxBytes ?? DEFAULT_MAX_BYTES);
  const { bytes, totalBytes, endsMidLine, owned } = limitBody(body, maxBytes);
  const read = currentRecordReader();
  if (totalBytes > profile.allowAllOverBytes) return setAside(totalBytes, maxBytes, read, profile);
  // Kept for the parts parsed later: a copy of exactly what is read, which the caller can neither change
  // nor pin more of (a plain Uint8Array: a Node Buffer's slice() would be a view).
  const kept = owned ? bytes : new Uint8Array(bytes);
  const bytesIgnored = totalBytes - bytes.length;
  return new RobotsTxt({ bytes: kept, bytesIgnored, maxBytes, endsMidLine, read, overProfileLimit: false }, bytes.length, profile);
}

/**
 * A file of `totalBytes` (undefined: more than were read, how many unknown) over the profile's
 * allowAllOverBytes: read as an empty file, which allows everything, and every byte reported ignored.
 */
function setAside(totalBytes: number | undefined, maxBytes: number, read: RecordReader, profile: PublicProfile): RobotsTxt {
  const body = { bytes: new Uint8Array(0), bytesIgnored: totalBytes, maxBytes, endsMidLine: false, read, overProfileLimit: true };
  return new RobotsTxt(body, 0, profile);
}

/**
 * @internal A body read from the network up to one byte past maxBytes (so that a line cut by the limit
 * is recognised); `bytesIgnored` is what the response said lay beyond, when it said so. The body is the
 * fetch's own: kept as it is.
 */
export function parseFetchedRobotsTxt(body: Uint8Array, options: Required<ParseOptions>, bytesIgnored: number | undefined): RobotsTxt {
  const { bytes, totalBytes, endsMidLine } = limitBody(body, options.maxBytes);
  const ignored = totalBytes > bytes.length ? bytesIgnored : 0;
  const read = currentRecordReader();
  const profile = profileNamed(options.profile);
  // Past maxBytes the size is known only when the response said it; what was read is a lower bound.
  if (bytes.length + (ignored ?? 0) > profile.allowAllOverBytes) {
    return setAside(ignored === undefined ? undefined : bytes.length + ignored, options.maxBytes, read, profile);
  }
  return new RobotsTxt(
    { bytes, bytesIgnored: ignored, maxBytes: options.maxBytes, endsMidLine, read, overProfileLimit: false },
    bytes.length,
    profile,
  );
}
