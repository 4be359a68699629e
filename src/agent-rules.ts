/** One agent's compiled rules: built once by RobotsTxt.forAgent(), asked many times. */
import { writeBytecode } from './compile/bytecode.js';
import { compileRules, type CompiledRule } from './compile/rules.js';
import type { LoadedRuleset, MatcherBackend } from './engine/backend.js';
import type { RequestRate, VisitTime } from './parse/group-directives.js';
import type { Group, RuleLine } from './parse/model.js';
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

/** The rules of the selected groups in line order (each group's are in order already). */
function mergedRules(groups: readonly Group[]): readonly RuleLine[] {
  return groups.length === 1 ? (groups[0] as Group).rules : groups.flatMap((group) => group.rules).sort((a, b) => a.line - b.line);
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
  /**
   * Only the matcher's ruleset is kept; explain() and `rules` compile the groups again (the same input
   * gives the same order) on first use, so that an agent that is only asked isAllowed stays small.
   */
  private readonly groups: readonly Group[];
  private readonly profile: Profile;
  private compiled: CompiledRule[] | undefined;
  private ruleset: LoadedRuleset | undefined;

  /** @internal Use RobotsTxt.forAgent(). */
  constructor(selection: Selection, profile: Profile, backend: MatcherBackend) {
    this.matched = selection.matched;
    this.crawlDelay = selection.groups.find((group) => group.crawlDelay !== undefined)?.crawlDelay;
    this.requestRate = selection.groups.find((group) => group.requestRate !== undefined)?.requestRate;
    this.visitTime = selection.groups.find((group) => group.visitTime !== undefined)?.visitTime;
    this.groups = selection.groups;
    this.profile = profile;
    const compiled = compileRules(mergedRules(selection.groups), profile);
    const bytecode = writeBytecode(compiled, {
      normalizeUrl: profile.normalizeUrls,
      robotsTxtAllowed: profile.robotsTxtAlwaysAllowed,
    });
    this.ruleset = backend.load(bytecode);
    unreleased.register(this, this.ruleset, this);
  }

  /** The compiled rules in the order they are tried (the first match decides). */
  get rules(): readonly RuleInfo[] {
    return this.compiledRules().map((_, index) => this.describe(index));
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

  private compiledRules(): CompiledRule[] {
    this.compiled ??= compileRules(mergedRules(this.groups), this.profile);
    return this.compiled;
  }

  private describe(index: number): RuleInfo {
    const rule = this.compiledRules()[index] as CompiledRule;
    let pattern = utf8.decode(rule.written);
    if (rule.derived) pattern = `${pattern.slice(0, pattern.lastIndexOf('/') + 1)}$`;
    return { kind: rule.allow ? 'allow' : 'disallow', pattern, line: rule.line };
  }

  private live(): LoadedRuleset {
    if (this.ruleset === undefined) throw new RulesDisposedError();
    return this.ruleset;
  }
}
