/**
 * What a line's verdict is, and what deciding a batch yields: shared by decideBatch (./decide.ts) and its
 * WebAssembly fast path (./scanned.ts), which must agree byte for byte.
 */
import type { FilterSettings } from './options.js';
import { asksEachLine, preferenceOf } from './purpose.js';
import { droppedBy, type UsagePreference, type UsageReason } from './usage-filter.js';
import type { ReasonCounts } from './reason.js';
import type { RuleFacts, Verdict } from './record.js';
import { isRules, rulesKey, type FileEvent, type HostRules, type RobotsSource } from './robots-source.js';
import type { UrlField } from './url-field.js';

export interface BatchResult {
  readonly output: Uint8Array;
  readonly lines: number;
  readonly allowed: number;
  readonly disallowed: number;
  readonly malformed: number;
  /** Lines counted by why they got their verdict. */
  readonly reasons: ReasonCounts;
  /** The batch's first malformed line (0-based within it), or -1. */
  readonly firstMalformed: number;
  /** Hosts this batch named, each once, and those with no robots.txt known. */
  readonly hosts: readonly string[];
  readonly hostsWithoutRobots: readonly string[];
  /** What the source met reading the hosts' files (RobotsSource.takeEvents). */
  readonly fileEvents: readonly FileEvent[];
}

export type { Verdict } from './record.js';

export interface Decision {
  verdict: Verdict;
  /** The rule that decided, when the output shows it and one matched. */
  rule: RuleFacts | null;
  /** With --purpose: the preference for it of a URL that may be crawled; null when it may not (or no --purpose). */
  usage: UsagePreference | null;
  /** With --purpose: why a URL that may be crawled is not kept (its verdict is then `disallowed`). */
  dropped: UsageReason | undefined;
}

/** A decision to fill in. */
export function noDecision(): Decision {
  return { verdict: 'malformed', rule: null, usage: null, dropped: undefined };
}

/**
 * Decides the URL of one line for a host's rules (explained only when the output shows the rule), and with
 * --purpose keeps it only as its preference says (./purpose.ts).
 */
export function decideLine(rules: HostRules, url: string, settings: FilterSettings, explain: boolean, decision: Decision): void {
  decision.rule = null;
  decision.usage = null;
  decision.dropped = undefined;
  const filter = settings.usage;
  if (!isRules(rules)) {
    const allowed = rules === null ? settings.missing === 'allow' : rules.allowed;
    decision.verdict = allowed ? 'allowed' : 'disallowed';
  } else if (!explain && filter !== undefined && asksEachLine(rules, filter)) {
    // One question answers both: usage() is null exactly when the URL may not be crawled.
    const answer = rules.usage(url);
    decision.verdict = answer === null ? 'disallowed' : 'allowed';
    if (answer !== null) decision.usage = answer[filter.purpose];
  } else if (!explain) {
    decision.verdict = rules.isAllowed(url) ? 'allowed' : 'disallowed';
  } else {
    const explanation = rules.explain(url);
    decision.verdict = explanation.allowed ? 'allowed' : 'disallowed';
    const { rule } = explanation;
    decision.rule = rule === undefined ? null : { kind: rule.kind, pattern: rule.pattern, line: explanation.line };
  }
  if (filter === undefined || decision.verdict !== 'allowed') return;
  decision.usage ??= preferenceOf(rules, url, filter);
  decision.dropped = decision.usage === null ? undefined : droppedBy(decision.usage, filter);
  if (decision.dropped !== undefined) decision.verdict = 'disallowed';
}

/**
 * The rules that decide a line's URL (read into `field`), looked up once per host and batch in `hostRules`
 * (whose keys are then the hosts the batch names): the source's LRU is touched once, not once a line.
 */
export function rulesOfField(field: UrlField, source: RobotsSource, hostRules: Map<string, HostRules>): HostRules {
  const key = field.host === undefined ? undefined : rulesKey(field.host, field.defaultPort);
  let rules = key === undefined ? undefined : hostRules.get(key);
  if (rules === undefined) {
    rules = source.rulesFor(field.host, field.defaultPort);
    if (key !== undefined) hostRules.set(key, rules);
  }
  return rules;
}

/** The host a rulesKey() names. */
function hostOfKey(key: string): string {
  const space = key.indexOf(' ');
  return space < 0 ? key : key.slice(0, space);
}

/**
 * What a batch's hosts were: each once, and those with no robots.txt (none known, or a fetch that found none).
 * `withRules`: hosts decided by rules that are not in `hostRules` (another thread compiled them).
 */
export function hostsOf(
  hostRules: ReadonlyMap<string, HostRules>,
  withRules: Iterable<string> = [],
): Pick<BatchResult, 'hosts' | 'hostsWithoutRobots'> {
  return {
    hosts: [...new Set([...[...hostRules.keys()].map(hostOfKey), ...withRules])],
    hostsWithoutRobots: [
      ...new Set(
        [...hostRules]
          .filter(([, rules]) => rules === null || (!isRules(rules) && rules.reason === 'missing'))
          .map(([key]) => hostOfKey(key)),
      ),
    ],
  };
}
