/** One agent's compiled rules: built once by RobotsTxt.forAgent(), asked many times. */
import { writeBytecode } from './compile/bytecode.js';
import { compileRules, type CompiledRule } from './compile/rules.js';
import type { LoadedRuleset, MatcherBackend } from './engine/backend.js';
import type { RequestRate, VisitTime } from './parse/group-directives.js';
import type { Group } from './parse/model.js';
import type { Selection } from './parse/select.js';
import type { Profile } from './profile.js';

/** Why a URL is allowed or not. */
export interface Explanation {
  readonly allowed: boolean;
  /** 1-based line of the deciding rule in robots.txt; 0 when no rule decided. */
  readonly line: number;
  /** The deciding rule, as written in the file; absent when no rule decided. */
  readonly rule?: { readonly kind: 'allow' | 'disallow'; readonly pattern: string };
}

/** A compiled rule, in the order the matcher tries them. */
export interface RuleInfo {
  readonly kind: 'allow' | 'disallow';
  readonly pattern: string;
  readonly line: number;
}

/** Thrown when a disposed AgentRules is asked again. */
export class RulesDisposedError extends Error {
  constructor() {
    super('these AgentRules were disposed; call robots.forAgent(agent) again to compile them anew');
    this.name = 'RulesDisposedError';
  }
}

// The safety net for rules that are dropped without dispose(): their matcher memory comes back on GC.
const unreleased = new FinalizationRegistry<LoadedRuleset>((ruleset) => ruleset.free());

const utf8 = new TextDecoder('utf-8');

// What AgentRules keeps of each compiled rule, packed in one number to stay small: line << 2 | bits.
const ALLOW_BIT = 1;
const DERIVED_BIT = 2;

function packRule(rule: CompiledRule): number {
  return rule.line * 4 + (rule.derived ? DERIVED_BIT : 0) + (rule.allow ? ALLOW_BIT : 0);
}

function checkUrl(url: unknown): asserts url is string {
  if (typeof url !== 'string') throw new TypeError(`Expected the URL as a string, got ${typeof url}`);
}

export class AgentRules {
  /** Which groups applied: the agent's own, the `*` groups, or none (everything allowed). */
  readonly matched: Selection['matched'];
  /** Crawl-delay in seconds from the applicable groups (the first valid one), if any. */
  readonly crawlDelay: number | undefined;
  /** Request-rate from the applicable groups, if any. */
  readonly requestRate: RequestRate | undefined;
  /** Visit-time (UTC) from the applicable groups, if any. */
  readonly visitTime: VisitTime | undefined;
  /** Per compiled rule, in priority order: packRule(). */
  private readonly packed: Uint32Array;
  /** The groups the rules came from: explain() reads the patterns as written there. */
  private readonly groups: readonly Group[];
  private writtenByLine: Map<number, Uint8Array> | undefined;
  private ruleset: LoadedRuleset | undefined;

  /** @internal Use RobotsTxt.forAgent(). */
  constructor(selection: Selection, profile: Profile, backend: MatcherBackend) {
    this.matched = selection.matched;
    this.crawlDelay = selection.groups.find((group) => group.crawlDelay !== undefined)?.crawlDelay;
    this.requestRate = selection.groups.find((group) => group.requestRate !== undefined)?.requestRate;
    this.visitTime = selection.groups.find((group) => group.visitTime !== undefined)?.visitTime;
    this.groups = selection.groups;
    // Each group's rules are in line order already; several groups need merging.
    const rules = selection.groups.length === 1 ? (selection.groups[0] as Group).rules : selection.groups.flatMap((group) => group.rules).sort((a, b) => a.line - b.line);
    const compiled = compileRules(rules, profile);
    this.packed = Uint32Array.from(compiled, packRule);
    const bytecode = writeBytecode(compiled, {
      normalizeUrl: profile.normalizeUrls,
      robotsTxtAllowed: profile.robotsTxtAlwaysAllowed,
    });
    this.ruleset = backend.load(bytecode);
    unreleased.register(this, this.ruleset, this);
  }

  /** The compiled rules in the order they are tried (the first match decides). */
  get rules(): readonly RuleInfo[] {
    return Array.from(this.packed, (_, index) => this.describe(index));
  }

  /** Bytes the compiled rules occupy in the matcher's memory. */
  get byteLength(): number {
    return this.live().byteLength;
  }

  /** Whether the rules were disposed. */
  get disposed(): boolean {
    return this.ruleset === undefined;
  }

  /**
   * May this agent fetch `url`? `url` is an absolute URL or a path with query (`/a/b?c`); any string is
   * accepted, and one with no path (`""`, `"example.com"`) is asked as `/`.
   *
   * @example
   * rules.isAllowed('https://example.com/private/x'); // false
   */
  isAllowed(url: string): boolean {
    checkUrl(url);
    return this.live().isAllowed(url);
  }

  /**
   * The verdict with the rule that decided it.
   *
   * @example
   * rules.explain('/private/x'); // { allowed: false, line: 3, rule: { kind: 'disallow', pattern: '/private/' } }
   */
  explain(url: string): Explanation {
    checkUrl(url);
    const index = this.live().decide(url);
    if (index < 0) return { allowed: true, line: 0 };
    const { kind, pattern, line } = this.describe(index);
    return { allowed: kind === 'allow', line, rule: { kind, pattern } };
  }

  /**
   * Many verdicts in one crossing into the matcher.
   *
   * @example
   * rules.isAllowedMany(['/a', '/private/b']); // [true, false]
   */
  isAllowedMany(urls: readonly string[]): boolean[] {
    return Array.from(this.isAllowedManyInto(urls), (verdict) => verdict === 1);
  }

  /**
   * Like isAllowedMany, written into `out` (1 allowed, 0 disallowed), which is returned; allocates
   * nothing per URL.
   */
  isAllowedManyInto(urls: readonly string[], out?: Uint8Array): Uint8Array {
    if (!Array.isArray(urls)) throw new TypeError(`Expected an array of URL strings, got ${urls === null ? 'null' : typeof urls}`);
    out ??= new Uint8Array(urls.length);
    if (out.length < urls.length) throw new RangeError(`out holds ${out.length} verdicts; ${urls.length} are needed`);
    for (const url of urls) checkUrl(url);
    this.live().decideMany(urls, out);
    return out;
  }

  /** Gives the compiled rules' memory back. Later calls throw RulesDisposedError. Idempotent. */
  dispose(): void {
    if (this.ruleset === undefined) return;
    unreleased.unregister(this);
    this.ruleset.free();
    this.ruleset = undefined;
  }

  private describe(index: number): RuleInfo {
    const packed = this.packed[index] as number;
    const line = packed >>> 2;
    this.writtenByLine ??= new Map(this.groups.flatMap((group) => group.rules.map((rule) => [rule.line, rule.pattern])));
    let pattern = utf8.decode(this.writtenByLine.get(line));
    if (packed & DERIVED_BIT) pattern = `${pattern.slice(0, pattern.lastIndexOf('/') + 1)}$`;
    return { kind: packed & ALLOW_BIT ? 'allow' : 'disallow', pattern, line };
  }

  private live(): LoadedRuleset {
    if (this.ruleset === undefined) throw new RulesDisposedError();
    return this.ruleset;
  }
}
