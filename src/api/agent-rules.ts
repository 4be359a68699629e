/** One agent's compiled rules: built once by RobotsTxt.forAgent(), asked many times. */
import { disposeKey } from './disposable.js';
import { indexBytecode, tierOf, writeBytecode, type BytecodeTier } from '../compile/bytecode.js';
import { RuleTable, type RuleInfo } from '../compile/rule-table.js';
import { compileRules } from '../compile/rules.js';
import { QUERY_PATH, QUERY_URL, QUERY_VERDICT_ONLY, type LoadedRuleset, type MatcherBackend } from '../engine/backend.js';
import type { RequestRate, VisitTime } from '../parse/group-directives.js';
import { SCAN_WORK_LIMIT, type RuleRecords } from '../parse/rule-records.js';
import type { Selection } from '../parse/select.js';
import type { Profile } from '../profile.js';
import { weakRef, type WeakHold } from '../engine/weak-ref.js';
import { isUrlObject, type URLInput } from './web-types.js';
import { recordsAllow } from '../engine/record-matcher.js';
import type { UsageRecord } from '../usage/usage-record.js';
import { NO_PREFERENCES, UsageRules, type UsagePreferences } from '../usage/usage-rules.js';

/** Why a URL is allowed or not. */
export interface Explanation {
  /** The verdict: what isAllowed() answers. */
  readonly allowed: boolean;
  /** 1-based line of the deciding rule in robots.txt; 0 when no rule decided. */
  readonly line: number;
  /** The deciding rule, as written in the file; absent when no rule decided. */
  readonly rule?: {
    /** `Allow:` or `Disallow:`. */
    readonly kind: 'allow' | 'disallow';
    /** The pattern as written. */
    readonly pattern: string;
  };
}

export type { RuleInfo };

/** Thrown when a disposed AgentRules is asked again. */
export class RulesDisposedError extends Error {
  /** Made by the library; its message says how to get rules again. */
  constructor() {
    super('these AgentRules were disposed; call robots.forAgent(agent) again to compile them anew');
    this.name = 'RulesDisposedError';
  }
}

/** What `value` is, for an error message: `null`, `number`, `Array`, `Uint16Array`, … */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return typeof value === 'object' ? Object.prototype.toString.call(value).slice(8, -1) : typeof value;
}

/**
 * What a URL object is decided on: the path and query that fetching it requests, exactly. Reading its
 * href again the way strings are read could find another path (`https://a.com//b.com/x` has the path
 * `//b.com/x`, which as a string reads as host b.com and path `/x`).
 */
function requestPath(url: unknown): string {
  if (!isUrlObject(url)) throw new TypeError(`Expected the URL as a string or a URL object, got ${kindOf(url)}`);
  return url.pathname + url.search;
}

/** Reads the uncompiled tier's bytes (isAllowedUtf8) as the compiled tiers do: a TextDecoder's string. */
const utf8Decoder = new TextDecoder();

/** isAllowedUtf8's arguments: bytes, and a range [start, end) of them. */
function checkUtf8Range(bytes: unknown, start: unknown, end: unknown): asserts end is number {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`bytes must be a Uint8Array (UTF-8 text), got ${kindOf(bytes)}`);
  if (typeof start !== 'number') throw new TypeError(`start must be a number (a byte offset into bytes), got ${kindOf(start)}`);
  if (typeof end !== 'number') throw new TypeError(`end must be a number (a byte offset into bytes), got ${kindOf(end)}`);
  if (Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end <= bytes.length) return;
  const length = bytes.length;
  if (!Number.isInteger(start) || start < 0 || start > length) {
    throw new RangeError(`start must be a whole number from 0 to ${length} (a byte offset into bytes), got ${start}`);
  }
  if (!Number.isInteger(end) || end > length) {
    throw new RangeError(`end must be a whole number from ${start} to ${length} (a byte offset into bytes), got ${end}`);
  }
  throw new RangeError(`the range starts after it ends: [${start}, ${end})`);
}

function checkBatchUrl(url: unknown): asserts url is string {
  if (typeof url === 'string') return;
  const hint = isUrlObject(url) ? ' (a batch takes strings only: ask isAllowed(url) for a URL object)' : '';
  throw new TypeError(`Expected the URL as a string, got ${kindOf(url)}${hint}`);
}

/**
 * Rules up to this many start in the scan tier (src/compile/bytecode.ts, "The scan tier"): the matcher
 * tries them in priority order, with no index written. Measured over the bench corpus (Googlebot, CPU time,
 * a loaded 2-core machine): under 16 rules a scanned check costs no more than an indexed one (0.3–0.4 µs)
 * and the scan saves 2–13 µs of compile; at 16–31 rules the indexes pay back after ~33 checks, at 32–63
 * after ~7, from 64 after 2–3. So past 32 rules the rules are indexed at once.
 */
export const SCAN_MAX_RULES = 32;

/**
 * Checks the scan tier answers before the indexed tier is written (from the scan block: no parse again).
 * By the measurements above, 16 checks cost a ruleset of up to SCAN_MAX_RULES rules less scanned than
 * indexing it first; a ruleset asked more is indexed, which costs only its indexes (indexBytecode).
 */
export const SCAN_TIER_CHECKS = 16;

/**
 * Verdicts a ruleset answers from its rules as written (src/engine/record-matcher.ts), before anything is
 * compiled. An uncompiled verdict tries every rule, so it costs about as much as a tenth of compiling them
 * (bench corpus, Googlebot, URLs drawn from each host's rules: ≈ 2 µs against ≈ 10 for a file ≤ 1 KB, ≈ 13
 * against ≈ 120 for 4–16 KB), where a compiled check costs 0.3–0.4 µs. Answering the first 8 uncompiled
 * (bench/cold/ab.mjs against answering 1): a host asked once costs the same, a host asked 8 times costs the
 * same on files ≤ 1 KB and 10–26 % less on larger ones, which compile indexed. A host asked more pays at most
 * about one compile more than if it had compiled at once: the ski rental's bound.
 */
export const RECORD_CHECKS = 8;

/** Which tier answers a ruleset's checks (AgentRules.tier). */
export type RulesTier = 'uncompiled' | BytecodeTier;

/** What AgentRules takes besides the rules: `indexed` writes the indexed tier at once. */
export interface AgentRulesOptions {
  readonly indexed?: boolean;
}

/**
 * One agent's rules, compiled once and asked many times: what {@link RobotsTxt.forAgent} returns. Its memory
 * (in the matcher) is given back by dispose(), or when it is garbage-collected.
 *
 * @example
 * import { parseRobotsTxt } from 'robotstxt-wasm';
 * const robots = parseRobotsTxt('User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n');
 * const rules = robots.forAgent('ExampleBot');
 * rules.isAllowed('https://example.com/private/x'); // false
 * rules.crawlDelay; // 2
 * rules.matched; // 'global'
 * rules.dispose();
 */
export class AgentRules {
  /** Which groups applied: the agent's own, the `*` groups, or none (everything allowed). */
  readonly matched: Selection['matched'];
  /** Crawl-delay in seconds from the applicable groups (the first valid one), if any. */
  readonly crawlDelay: number | undefined;
  /** Request-rate from the applicable groups, if any. */
  readonly requestRate: RequestRate | undefined;
  /** Visit-time (UTC) from the applicable groups, if any. */
  readonly visitTime: VisitTime | undefined;
  private readonly profile: Profile;
  private readonly backend: MatcherBackend;
  /**
   * The applicable rules as the file wrote them, in file order, their patterns packed in a buffer of their
   * own (no view of the body): what the first verdicts are read from, what the rules are compiled from, and
   * what the table of explain() and `rules` is built from when first needed. Dropped once both the
   * ruleset and the table are built, or given up for a source that builds the table again (tableSource).
   */
  private records: RuleRecords | undefined;
  /** What explain() and `rules` show, packed; built on first use. */
  private table: RuleTable | undefined;
  /** Builds the table again, once it was given up; what it built is kept only while in use. */
  private tableSource: (() => RuleTable) | undefined;
  private tableInUse: WeakHold<RuleTable> | undefined;
  /** The compiled rules in the matcher; undefined until first needed (and once disposed). */
  private ruleset: LoadedRuleset | undefined;
  private wasDisposed = false;
  /** Verdicts the records still answer before the rules are compiled; 0 once they are. */
  private recordChecksLeft: number;
  /** Checks the scan tier still answers before the indexes are written; -1 once indexed. */
  private scanChecksLeft = -1;
  /**
   * The single check's fast path, for the indexed tier: the ruleset's address in the matcher, good while the
   * backend's epoch is `fastEpoch` (-1: no fast path, until the next slow check sets it). One object read
   * per check, this one: the ruleset, its block and the clock are not touched (the matcher marks use itself).
   */
  private fastAddress = 0;
  private fastEpoch = -1;
  /** The groups' Content-Usage and Content-Signal lines, in file order; undefined when they have none. */
  private readonly usageRecords: readonly UsageRecord[] | undefined;
  /**
   * The usage lines compiled, on the first usage() (a crawler that never asks pays nothing for them), or when
   * a RobotsCache takes the rules, so that the bytes it charges for them are all they hold.
   */
  private usageRules: UsageRules | undefined;

  /**
   * @internal Use RobotsTxt.forAgent(). `records` holds the rules of the selection's groups alone, in
   * order (RuleRecords.select()): they are kept for explain().
   */
  constructor(selection: Selection, records: RuleRecords, profile: Profile, backend: MatcherBackend, options: AgentRulesOptions = {}) {
    this.matched = selection.matched;
    this.crawlDelay = selection.groups.find((group) => group.crawlDelay !== undefined)?.crawlDelay;
    this.requestRate = selection.groups.find((group) => group.requestRate !== undefined)?.requestRate;
    this.visitTime = selection.groups.find((group) => group.visitTime !== undefined)?.visitTime;
    this.profile = profile;
    this.backend = backend;
    this.records = records;
    const usage = selection.groups.flatMap((group) => group.usage ?? []);
    this.usageRecords = usage.length > 0 ? usage : undefined;
    this.recordChecksLeft = RECORD_CHECKS;
    if (options.indexed === true) this.compileAll();
  }

  /** Compiles the records into the matcher: the scan tier for a small ruleset unless `indexed`. */
  private compile(indexed: boolean): LoadedRuleset {
    const records = this.records as RuleRecords;
    const compiled = compileRules(records, records.all(), this.profile);
    const bytecode = writeBytecode(compiled, {
      normalizeUrl: this.profile.normalizeUrl,
      robotsTxtAllowed: this.profile.robotsTxtAlwaysAllowed,
      pathEndsAtNul: this.profile.pathEndsAtNul,
      tier: indexed || compiled.count > SCAN_MAX_RULES ? 'indexed' : 'scan',
    });
    this.scanChecksLeft = tierOf(bytecode) === 'scan' ? SCAN_TIER_CHECKS : -1;
    this.recordChecksLeft = 0;
    const ruleset = this.backend.load(bytecode);
    this.ruleset = ruleset;
    if (this.table !== undefined) this.records = undefined;
    return ruleset;
  }

  /**
   * How the rules answer: `'uncompiled'`, from the rules as written, with nothing compiled (the first
   * RECORD_CHECKS verdicts of isAllowed()); `'scan'`, trying the compiled rules one by one (the next checks
   * of small rulesets); or `'indexed'`, through the indexes written once the rules have been asked
   * SCAN_TIER_CHECKS times, or hold more than SCAN_MAX_RULES rules, or were compiled with `{ indexed: true }`.
   * All give the same verdicts, and the switches happen inside this object.
   */
  get tier(): RulesTier {
    if (this.uncompiled) return 'uncompiled';
    return this.scanChecksLeft < 0 ? 'indexed' : 'scan';
  }

  /** Whether the rules are not compiled yet (and not disposed). */
  private get uncompiled(): boolean {
    return this.ruleset === undefined && !this.wasDisposed;
  }

  /** @internal Writes the indexed tier now, if not yet (RobotsTxt.forAgent(agent, { indexed: true })). */
  index(): void {
    if (this.uncompiled) {
      this.compile(true);
      return;
    }
    const scan = this.live();
    if (this.scanChecksLeft < 0) return;
    const indexed = this.backend.load(indexBytecode(scan.bytecode()));
    scan.free();
    this.ruleset = indexed;
    this.scanChecksLeft = -1;
  }

  /** The ruleset to answer `checks` checks with: the indexed tier once the scan has answered its share. */
  private forChecks(checks: number): LoadedRuleset {
    const ruleset = this.live();
    if (this.scanChecksLeft < 0) return ruleset;
    if (checks <= this.scanChecksLeft) {
      this.scanChecksLeft -= checks;
      return ruleset;
    }
    this.index();
    return this.live();
  }

  /**
   * @internal Compiles everything now: the indexed tier and the usage lines (forAgent(agent, { indexed: true })),
   * so that what the rules hold is known from here on (a cache of compiled rules counts it once).
   */
  compileAll(): void {
    this.index();
    if (this.usageRecords !== undefined) this.compiledUsage();
  }

  /**
   * Whether the applicable groups hold any Content-Usage or Content-Signal line. Without one, usage() answers
   * every purpose `'unknown'` (or `null`, where isAllowed() is false) for every URL.
   */
  get hasUsageLines(): boolean {
    return this.usageRecords !== undefined;
  }

  /** The compiled rules in the order they are tried (the first match decides). */
  get rules(): readonly RuleInfo[] {
    const table = this.ruleTable();
    return Array.from({ length: table.length }, (_, index) => table.describe(index));
  }

  /**
   * @internal For RobotsCache, which keeps the body: gives the table (and the records it is built from)
   * up, so that a cached origin holds its body and its bytecode only. `source` builds the same table again
   * (the same file, the same agent) when explain() or `rules` needs it.
   */
  rebuildTableFrom(source: () => RuleTable): void {
    this.live();
    if (this.usageRecords !== undefined) this.compiledUsage();
    this.table = undefined;
    this.records = undefined;
    this.tableSource = source;
  }

  private ruleTable(): RuleTable {
    if (this.table !== undefined) return this.table;
    const records = this.records;
    if (records !== undefined) {
      this.table = new RuleTable(records, compileRules(records, records.all(), this.profile));
      // Kept until compiled: the rules are compiled from them.
      if (this.ruleset !== undefined) this.records = undefined;
      return this.table;
    }
    let table = this.tableInUse?.deref();
    if (table === undefined) {
      table = (this.tableSource as () => RuleTable)();
      this.tableInUse = weakRef?.(table);
    }
    return table;
  }

  /**
   * @internal The rulesets the rules are compiled to now, in the matcher: what a cache charges its budget for
   * once however many origins share them (rules compiled to the same bytes share one block).
   */
  compiledRulesets(): readonly LoadedRuleset[] {
    const rulesets = this.usageRules?.loaded ?? [];
    return this.ruleset === undefined ? rulesets : [this.ruleset, ...rulesets];
  }

  /**
   * Bytes the compiled rules occupy in the matcher's memory: 0 while they are not compiled (tier
   * `'uncompiled'`). Rules compiled to the same bytes as others (another host's identical robots.txt) share
   * one copy, which each counts here whole.
   */
  get byteLength(): number {
    this.checkLive();
    return (this.ruleset?.byteLength ?? 0) + (this.usageRules?.byteLength ?? 0);
  }

  /**
   * Bytes the rules keep alive: the matcher's ruleset, and the rules as written (for explain() and `rules`:
   * their records, and once built the table made of them), which are copies of their own.
   */
  get bytesHeld(): number {
    return this.byteLength + (this.table?.bytesHeld ?? 0) + (this.records?.bytesHeld ?? 0);
  }

  /** Whether the rules were disposed. */
  get disposed(): boolean {
    return this.wasDisposed;
  }

  /**
   * May this agent fetch `url`? A string is an absolute URL or a path with query (`/a/b?c`), read the way
   * Google's reference reads it. Every string is accepted; one with no path (`""`, `"example.com"`) is
   * asked as `/`. A URL object is decided on its `pathname + search` as they stand: the path a fetch of
   * it requests.
   *
   * @example
   * const rules = parseRobotsTxt('User-agent: *\nDisallow: /private/\n').forAgent('ExampleBot');
   * rules.isAllowed('https://example.com/private/x'); // false
   * rules.isAllowed(new URL('https://example.com/private/x?page=2')); // false
   */
  isAllowed(url: string | URLInput): boolean {
    // Strings on indexed rules are the hot path: straight to the matcher at the address kept here.
    if (this.fastEpoch === this.backend.epoch && typeof url === 'string') return this.backend.verdictAt(this.fastAddress, url) === 1;
    return this.isAllowedSlowly(url);
  }

  /** isAllowed() through the tiers: a first verdict, a scan, a tier switch, a URL object, or a stale address. */
  private isAllowedSlowly(url: string | URLInput): boolean {
    if (this.recordChecksLeft > 0) return this.recordVerdict(url);
    const ruleset = this.forSingleCheck();
    if (typeof url === 'string') return ruleset.query(url, QUERY_VERDICT_ONLY) === 1;
    return ruleset.query(requestPath(url), QUERY_PATH | QUERY_VERDICT_ONLY) === 1;
  }

  /** The ruleset for one check (forChecks(1)); once it is indexed, the next single check goes the fast path. */
  private forSingleCheck(): LoadedRuleset {
    const ruleset = this.forChecks(1);
    if (this.scanChecksLeft < 0) {
      const address = ruleset.address();
      this.fastAddress = address;
      // The epoch read after the address: making it resident may have moved others out.
      this.fastEpoch = address === 0 ? -1 : this.backend.epoch;
    }
    return ruleset;
  }

  /** A first verdict: from the rules as written (tier `'uncompiled'`), unless that could cost more than SCAN_WORK_LIMIT. */
  private recordVerdict(url: string | URLInput): boolean {
    this.recordChecksLeft--;
    const isPath = typeof url !== 'string';
    const input = isPath ? requestPath(url) : url;
    const records = this.records as RuleRecords;
    if (records.scanWork(input.length) <= SCAN_WORK_LIMIT) return recordsAllow(records, this.profile, input, isPath);
    this.recordChecksLeft = 0;
    return this.forChecks(1).query(input, (isPath ? QUERY_PATH : QUERY_URL) | QUERY_VERDICT_ONLY) === 1;
  }

  /**
   * The verdict with the rule that decided it; `url` as for isAllowed().
   *
   * @example
   * const rules = parseRobotsTxt('User-agent: *\nDisallow: /private/\n').forAgent('ExampleBot');
   * rules.explain('/private/x'); // { allowed: false, line: 2, rule: { kind: 'disallow', pattern: '/private/' } }
   * // A URL object is decided on its pathname, here "//private/x", which no rule matches:
   * rules.explain(new URL('https://example.com//private/x')); // { allowed: true, line: 0 }
   */
  explain(url: string | URLInput): Explanation {
    const index = typeof url === 'string' ? this.forChecks(1).query(url, QUERY_URL) : this.forChecks(1).query(requestPath(url), QUERY_PATH);
    if (index < 0) return { allowed: true, line: 0 };
    const { kind, pattern, line } = this.ruleTable().describe(index);
    return { allowed: kind === 'allow', line, rule: { kind, pattern } };
  }

  /**
   * What the site says the content at `url` may be used for, once fetched: `null` when the URL may not be
   * crawled (isAllowed() is false: a disallowed path has no preferences, draft-ietf-aipref-attach-05
   * §3.1), else a preference per purpose, each `'allow'`, `'disallow'` or `'unknown'`, and the lines that
   * decided. `'train-ai'` combines Content-Usage `train-ai` and Content-Signal `ai-train`, `search` both
   * sources' `search`, `'ai-input'` is Content-Signal's `ai-input`; a disallow anywhere wins, then an allow
   * (draft-ietf-aipref-vocab-07 §5.1). Within each source the longest matching path decides, as for Allow
   * and Disallow; a line without a path applies to every path. `url` as for isAllowed(). The answer is
   * frozen, and the same object for every URL the same lines decide.
   *
   * @example
   * const rules = parseRobotsTxt(
   *   'User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n\nContent-Usage: /open/ train-ai=y\nContent-Signal: search=yes\n',
   * ).forAgent('ExampleBot');
   * rules.usage('/page')?.['train-ai']; // 'disallow'
   * rules.usage('/open/page')?.['train-ai']; // 'allow'
   * rules.usage('/page')?.search; // 'allow'
   * rules.usage('/page')?.['ai-input']; // 'unknown'
   * rules.usage('/private/x'); // null
   */
  usage(url: string | URLInput): UsagePreferences | null {
    // Files without usage lines (almost all) pay one verdict, through every tier.
    if (this.usageRecords === undefined) return this.isAllowed(url) ? NO_PREFERENCES : null;
    const isPath = typeof url !== 'string';
    const input = isPath ? requestPath(url) : url;
    const flags = isPath ? QUERY_PATH : QUERY_URL;
    if (this.forChecks(1).query(input, flags | QUERY_VERDICT_ONLY) !== 1) return null;
    return this.compiledUsage().answer(input, flags);
  }

  /** The usage lines compiled (into the same matcher as the rules), compiled now if they were not yet. */
  private compiledUsage(): UsageRules {
    this.usageRules ??= new UsageRules(this.usageRecords ?? [], this.profile, this.backend);
    return this.usageRules;
  }

  /**
   * @internal For the robots-parser drop-in: the line of the rule that decides `input`, 0 when none does,
   * negated for a disallow. `input` is a URL read as isAllowed() reads a string, or with QUERY_PATH a path
   * and query read just as they stand (the drop-in prepares its own).
   */
  signedLineOf(input: string, flags: typeof QUERY_URL | typeof QUERY_PATH = QUERY_URL): number {
    const index = this.forChecks(1).query(input, flags);
    if (index < 0) return 0;
    const table = this.ruleTable();
    return table.kind(index) === 'allow' ? table.line(index) : -table.line(index);
  }

  /**
   * Many verdicts in one crossing into the matcher; URL strings only.
   *
   * @example
   * const rules = parseRobotsTxt('User-agent: *\nDisallow: /private/\n').forAgent('ExampleBot');
   * rules.isAllowedMany(['/a', '/private/b']); // [true, false]
   */
  isAllowedMany(urls: readonly string[]): boolean[] {
    return Array.from(this.isAllowedManyInto(urls), (verdict) => verdict === 1);
  }

  /**
   * Like isAllowedMany, written into `out` (1 allowed, 0 disallowed), which is returned; allocates
   * nothing per URL. `out`, when given, must be a Uint8Array of at least `urls.length` bytes.
   */
  isAllowedManyInto(urls: readonly string[], out?: Uint8Array): Uint8Array {
    if (!Array.isArray(urls)) throw new TypeError(`Expected an array of URL strings, got ${urls === null ? 'null' : typeof urls}`);
    // Anything else would be written through a matcher that expects bytes, or not written at all.
    if (out !== undefined && !(out instanceof Uint8Array)) {
      throw new TypeError(`out must be a Uint8Array (one verdict byte per URL), got ${kindOf(out)}`);
    }
    out ??= new Uint8Array(urls.length);
    if (out.length < urls.length) throw new RangeError(`out holds ${out.length} verdicts; ${urls.length} are needed`);
    for (const url of urls) checkBatchUrl(url);
    this.forChecks(urls.length).decideMany(urls, out);
    return out;
  }

  /**
   * Verdicts for URLs held as UTF-8 bytes, many in one crossing into the matcher, with no string made per
   * URL: lines of a file or a pipe, read in big chunks. `ranges` holds pairs `[start0, end0, start1, end1, …]`
   * of byte offsets into `bytes`; the first `count` pairs (default `ranges.length >> 1`) are decided, and
   * out[i] is 1 when the URL in bytes[start_i, end_i) is allowed, 0 when not. `out` is returned, allocated
   * when not given. Each range is decided exactly as isAllowed() decides the string that
   * `new TextDecoder().decode()` makes of those bytes (a leading byte order mark dropped, bytes that are not
   * UTF-8 read as U+FFFD). Ranges may overlap, be empty and come in any order; ranges in ascending order
   * close together, as the lines of a buffer are, go fastest.
   *
   * @example
   * const rules = parseRobotsTxt('User-agent: *\nDisallow: /private/\n').forAgent('ExampleBot');
   * const bytes = new TextEncoder().encode('/a\nhttps://example.com/private/b\n');
   * rules.isAllowedBytes(bytes, new Uint32Array([0, 2, 3, 32])); // [1, 0]
   */
  isAllowedBytes(bytes: Uint8Array, ranges: Uint32Array, out?: Uint8Array, count?: number): Uint8Array {
    if (!(bytes instanceof Uint8Array)) throw new TypeError(`bytes must be a Uint8Array (UTF-8 text), got ${kindOf(bytes)}`);
    if (!(ranges instanceof Uint32Array)) {
      throw new TypeError(`ranges must be a Uint32Array of [start, end] byte offsets into bytes, got ${kindOf(ranges)}`);
    }
    if (out !== undefined && !(out instanceof Uint8Array)) {
      throw new TypeError(`out must be a Uint8Array (one verdict byte per range), got ${kindOf(out)}`);
    }
    const pairs = ranges.length >>> 1;
    if (count === undefined) {
      count = pairs;
    } else if (typeof count !== 'number') {
      throw new TypeError(`count must be a number (how many ranges to decide), got ${kindOf(count)}`);
    } else if (!Number.isInteger(count) || count < 0 || count > pairs) {
      throw new RangeError(`count must be a whole number from 0 to ${pairs} (the [start, end] pairs in ranges), got ${count}`);
    }
    out ??= new Uint8Array(count);
    if (out.length < count) throw new RangeError(`out holds ${out.length} verdicts; ${count} are needed`);
    const length = bytes.length;
    for (let i = 0; i < count; i++) {
      const start = ranges[2 * i] as number;
      const end = ranges[2 * i + 1] as number;
      if (start > end) throw new RangeError(`range ${i} starts after it ends: [${start}, ${end})`);
      if (end > length) throw new RangeError(`range ${i}, [${start}, ${end}), ends past the ${length} bytes given`);
    }
    this.forChecks(count).decideBytes(bytes, ranges, count, out);
    return out;
  }

  /**
   * May this agent fetch the URL held as UTF-8 in bytes[start, end)? `start` defaults to 0 and `end` to
   * `bytes.length`. Decided exactly as isAllowed() decides the string `new TextDecoder().decode(bytes.subarray(start,
   * end))` (a leading byte order mark dropped, bytes that are not UTF-8 read as U+FFFD), with no string made:
   * for a URL the caller holds as bytes already, a log line or a buffer of URLs. With the WebAssembly matcher
   * a check of compiled rules allocates nothing.
   *
   * @example
   * const rules = parseRobotsTxt('User-agent: *\nDisallow: /private/\n').forAgent('ExampleBot');
   * const line = new TextEncoder().encode('GET https://example.com/private/b HTTP/1.1');
   * rules.isAllowedUtf8(line, 4, 33); // false
   * rules.isAllowedUtf8(new TextEncoder().encode('/a')); // true
   */
  isAllowedUtf8(bytes: Uint8Array, start = 0, end?: number): boolean {
    const last = end === undefined && bytes instanceof Uint8Array ? bytes.length : end;
    checkUtf8Range(bytes, start, last);
    if (this.fastEpoch === this.backend.epoch) return this.backend.verdictUtf8At(this.fastAddress, bytes, start, last) === 1;
    if (this.recordChecksLeft > 0) return this.recordVerdict(utf8Decoder.decode(bytes.slice(start, last)));
    return this.forSingleCheck().decideUtf8(bytes, start, last) === 1;
  }

  /** Gives the compiled rules' memory back. Later calls throw RulesDisposedError. Idempotent. */
  dispose(): void {
    if (this.wasDisposed) return;
    this.wasDisposed = true;
    this.fastEpoch = -1;
    this.recordChecksLeft = 0;
    this.ruleset?.free();
    this.ruleset = undefined;
    this.usageRules?.free();
    this.usageRules = undefined;
  }
  /** dispose(), for `using`: `using rules = robots.forAgent('ExampleBot');` frees them at the end of the block. */
  [disposeKey](): void {
    this.dispose();
  }

  /**
   * @internal The compiled rules as the matcher holds them (the line scanner finds their address), indexed:
   * the scanner asks them many times, and keeps their address.
   */
  loadedRuleset(): LoadedRuleset {
    this.index();
    return this.live();
  }

  /** The compiled rules, compiled now if they were not yet. */
  private live(): LoadedRuleset {
    this.checkLive();
    return this.ruleset ?? this.compile(false);
  }

  private checkLive(): void {
    if (this.wasDisposed) throw new RulesDisposedError();
  }
}
