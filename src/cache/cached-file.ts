/**
 * A fetched robots.txt as RobotsCache keeps it: the bytes and the compiled rules of the cache's agent,
 * not the parse tree. A parse tree can cost many times its body (a file of 23,800 tiny groups: about
 * 16 MB of objects for 500 KB), while the questions a cache answers need only the compiled rules; the
 * rest (`get().robots`: sitemaps, other agents, diagnostics) is parsed again from the bytes on demand,
 * and kept only while someone holds it.
 */
import type { AgentRules } from '../api/agent-rules.js';
import type { ProfileName } from '../profile.js';
import { parseFetchedRobotsTxt, type RobotsTxt } from '../api/robots-txt.js';
import { weakRef, type WeakHold } from '../engine/weak-ref.js';
import { bytesOf, sharesOf, type Share } from './lru-budget.js';

export class CachedFile {
  /** The parse, while someone uses it; without WeakRef, every get() parses again. */
  private parsed: WeakHold<RobotsTxt> | undefined;
  /**
   * Bytes held for this file alone: its body, and what its compiled rules hold beside their rulesets (a parse
   * in use is the user's). The rulesets are `shares`: other files compiled to the same bytes hold them too.
   */
  readonly bytesHeld: number;
  /** The compiled rulesets, each counted once by the cache's budget however many files hold it. */
  readonly shares: readonly Share[];

  /**
   * `body` is what the fetch read (the first maxBytes bytes, and the one after them when there were more),
   * `parsed` its parse, which compiled `rules` for `agent`.
   */
  constructor(
    /** What the fetch read: what the cache parses again, and what a shared store keeps. */
    readonly body: Uint8Array,
    private readonly parse: { readonly profile: ProfileName; readonly maxBytes: number; readonly bytesIgnored: number | undefined },
    parsed: RobotsTxt,
    agent: string,
    readonly rules: AgentRules,
  ) {
    this.parsed = weakRef?.(parsed);
    // explain() is rare next to isAllowed(): its table is parsed again from the body when asked for.
    rules.rebuildTableFrom(() => this.robots().ruleTableFor(agent));
    this.shares = sharesOf(rules.compiledRulesets());
    this.bytesHeld = body.byteLength + rules.bytesHeld - bytesOf(this.shares);
  }

  /** Whether `bytes` is this file's body (a record of the copy already compiled here). */
  holdsBody(bytes: Uint8Array): boolean {
    const { body } = this;
    if (bytes.length !== body.length) return false;
    for (let i = 0; i < body.length; i++) if (bytes[i] !== body[i]) return false;
    return true;
  }

  /** The parsed file: the one still in use if there is one, else parsed again from the bytes. */
  robots(): RobotsTxt {
    const alive = this.parsed?.deref();
    if (alive !== undefined) return alive;
    const robots = parseFetchedRobotsTxt(this.body, this.parse, this.parse.bytesIgnored);
    this.parsed = weakRef?.(robots);
    return robots;
  }

  dispose(): void {
    this.rules.dispose();
    this.parsed?.deref()?.dispose();
    this.parsed = undefined;
  }
}
