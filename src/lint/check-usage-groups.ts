/**
 * Checks of a group's usage lines together with its other lines: a path its own rules disallow, where no
 * preference ever applies (draft-ietf-aipref-attach-05 §3.1), and lines that state opposite preferences for one
 * path, where the most restrictive wins (draft-ietf-aipref-vocab-07 §5.1).
 */
import { readStatement, USAGE_PURPOSES, type UsagePreference, type UsagePurpose } from '../usage/statement.js';
import { DOLLAR, STAR } from '../bytes.js';
import type { LintCode } from './codes.js';
import { quote, shorten, type LintContext } from './context.js';
import type { LintGroup } from './groups.js';
import type { LintRecord } from './records.js';
import { usageLine, VOCABULARIES, type UsageLine } from './usage-lines.js';

/** `pattern` less its trailing `*`s (they add length, not paths: RFC 9309 §2.2.2), in one pass from the end. */
function withoutTrailingStars(pattern: string): string {
  let end = pattern.length;
  while (end > 0 && pattern.charCodeAt(end - 1) === STAR) end--;
  return pattern.slice(0, end);
}

function hasWildcard(text: string): boolean {
  return text.includes('*') || text.includes('$');
}

/**
 * One line of the sweep: a plain prefix, what it is, and the pattern's length (the longest match wins,
 * RFC 9309 §2.2.2, and Allow wins a tie).
 */
interface Entry {
  readonly prefix: string;
  /** Of equal prefixes, disallows and allows come first, so that they are below the usage line on the stack. */
  readonly order: 0 | 1 | 2;
  readonly length: number;
  readonly rule?: LintRecord;
  readonly line?: UsageLine;
}

interface Frame {
  readonly entry: Entry;
  /** The longest Disallow whose prefix is a prefix of this entry's (this one's included). */
  readonly disallow: Entry | undefined;
  /** The longest Allow pattern whose literal start is a prefix of this entry's. */
  readonly allowBelow: number;
  /** The longest Allow pattern whose literal start extends this entry's prefix. */
  allowWithin: number;
}

/**
 * The group's rules and usage paths as plain prefixes. A Disallow counts only when it is a plain prefix (trailing
 * `*`s aside) that does not end inside a percent-escape; an Allow by its literal start, up to any wildcard, so that
 * every Allow that could match a URL under a usage path is seen. A usage path with a wildcard is left alone.
 */
function entries(context: LintContext, group: LintGroup, lines: readonly UsageLine[]): Entry[] {
  const found: Entry[] = [];
  for (const rule of group.rules) {
    if (rule.valueStart === rule.valueEnd) continue;
    const pattern = context.value(rule);
    if (rule.kind === 'allow') {
      const wildcard = pattern.search(/[*$]/);
      found.push({ prefix: wildcard < 0 ? pattern : pattern.slice(0, wildcard), order: 1, length: pattern.length, rule });
      continue;
    }
    const prefix = withoutTrailingStars(pattern);
    if (hasWildcard(prefix) || prefix.slice(-2).includes('%')) continue;
    found.push({ prefix, order: 0, length: pattern.length, rule });
  }
  for (const line of lines) {
    if (line.path === undefined) continue;
    const prefix = withoutTrailingStars(line.path);
    if (!hasWildcard(prefix)) found.push({ prefix, order: 2, length: line.path.length, line });
  }
  return found.sort((a, b) => (a.prefix < b.prefix ? -1 : a.prefix > b.prefix ? 1 : a.order - b.order));
}

function reportDisallowed(context: LintContext, frame: Frame): void {
  const { line } = frame.entry;
  const { disallow } = frame;
  if (line === undefined || disallow?.rule === undefined) return;
  if (Math.max(frame.allowBelow, frame.allowWithin) >= disallow.length) return;
  const path = line.path ?? '';
  context.at(
    'usage-path-disallowed',
    line.record.line,
    line.record.valueStart,
    `${VOCABULARIES[line.source].name} for ${quote(path)} never applies: Disallow: ${shorten(context.value(disallow.rule))} (line ${disallow.rule.line}) disallows those paths, and a path that may not be crawled has no usage preferences (draft-ietf-aipref-attach-05 §3.1)`,
    `remove the line, or let crawlers fetch the path (Allow: ${shorten(path)}) if the preference is meant to apply`,
  );
}

/**
 * Usage paths the group disallows whole: a Disallow whose prefix covers the path, and no Allow as long or longer
 * that could match a URL under it. One sweep over the prefixes sorted: the entries that extend a prefix follow it,
 * so a stack holds, at each entry, exactly the entries that are its prefixes (linear but for the sort).
 */
function checkDisallowedPaths(context: LintContext, group: LintGroup, lines: readonly UsageLine[]): void {
  const stack: Frame[] = [];
  const pop = (): void => {
    const frame = stack.pop() as Frame;
    reportDisallowed(context, frame);
    const below = stack[stack.length - 1];
    if (below !== undefined)
      below.allowWithin = Math.max(below.allowWithin, frame.allowWithin, frame.entry.order === 1 ? frame.entry.length : 0);
  };
  for (const entry of entries(context, group, lines)) {
    while (stack.length > 0 && !entry.prefix.startsWith((stack[stack.length - 1] as Frame).entry.prefix)) pop();
    const below = stack[stack.length - 1];
    let disallow = below?.disallow;
    if (entry.order === 0 && (disallow === undefined || entry.length > disallow.length)) disallow = entry;
    const allowBelow = Math.max(below?.allowBelow ?? 0, below?.entry.order === 1 ? below.entry.length : 0);
    stack.push({ entry, disallow, allowBelow, allowWithin: 0 });
  }
  while (stack.length > 0) pop();
}

/** How a purpose is named on a line of `line`'s kind: Content-Signal writes AI training as ai-train. */
function purposeName(line: UsageLine, purpose: UsagePurpose): string {
  return line.source === 'content-signal' && purpose === 'train-ai' ? 'ai-train' : purpose;
}

interface PathStatements {
  readonly allow: Map<UsagePurpose, UsageLine>;
  readonly disallow: Map<UsagePurpose, UsageLine>;
}

/** Lines of one group, one path (or none), one purpose allowed by one and disallowed by another: the most restrictive wins. */
function checkConflicts(context: LintContext, lines: readonly UsageLine[]): void {
  const byPath = new Map<string, PathStatements>();
  for (const line of lines) {
    const reading = readStatement(line.source, context.source.bytes, line.preferenceStart, line.preferenceEnd);
    // Paths start with "/": the empty string stands for the lines without one.
    const key = line.path ?? '';
    let statements = byPath.get(key);
    if (statements === undefined) {
      statements = { allow: new Map(), disallow: new Map() };
      byPath.set(key, statements);
    }
    const conflicts: [UsagePurpose, UsageLine][] = [];
    for (const purpose of USAGE_PURPOSES) {
      const preference: UsagePreference = reading[purpose];
      if (preference === 'unknown') continue;
      const opposite = (preference === 'allow' ? statements.disallow : statements.allow).get(purpose);
      if (opposite !== undefined) conflicts.push([purpose, opposite]);
      const own = preference === 'allow' ? statements.allow : statements.disallow;
      if (!own.has(purpose)) own.set(purpose, line);
    }
    const [first] = conflicts;
    if (first === undefined) continue;
    const purposes = conflicts.map(([purpose]) => purposeName(line, purpose)).join(' and ');
    const other = first[1];
    const target = line.path === undefined ? 'every path (neither line has one)' : `the path ${quote(line.path)}`;
    context.at(
      'usage-conflict',
      line.record.line,
      line.record.keyStart,
      `this line and ${VOCABULARIES[other.source].name} on line ${other.record.line} state opposite preferences for ${purposes} on ${target}: the most restrictive wins, so ${purposes} ${conflicts.length === 1 ? 'is' : 'are'} disallowed there (draft-ietf-aipref-vocab-07 §5.1)`,
      'keep one preference per purpose for a path; for an exception, give the narrower part a longer path of its own',
    );
  }
}

const PATH_CODES = ['usage-path-disallowed'] as const satisfies readonly LintCode[];
const CONFLICT_CODES = ['usage-conflict'] as const satisfies readonly LintCode[];
/** Every code checkUsageGroups() reports. */
export const USAGE_GROUP_CODES: readonly LintCode[] = [...PATH_CODES, ...CONFLICT_CODES];

/** Each group's usage lines against its rules, and against each other; a part none of whose codes is wanted is skipped. */
export function checkUsageGroups(context: LintContext): void {
  const paths = context.wants(PATH_CODES);
  const conflicts = context.wants(CONFLICT_CODES);
  for (const group of context.grouping.groups) {
    if (group.usage.length === 0) continue;
    const lines = group.usage.map((record) => usageLine(context, record));
    if (paths) checkDisallowedPaths(context, group, lines);
    if (conflicts) checkConflicts(context, lines);
  }
}
