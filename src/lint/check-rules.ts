/**
 * Checks of Allow and Disallow lines: patterns that can match no URL, patterns crawlers read differently,
 * rules that can never decide anything, and paths a robots.txt publishes to anyone who reads it.
 */
import type { LintCode } from './codes.js';
import { quote, shorten, type LintContext } from './context.js';
import type { LintGroup } from './groups.js';
import type { LintRecord } from './records.js';
import { DOLLAR, SLASH, STAR } from '../bytes.js';

function isSpaceOrTab(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09;
}

function kindName(record: LintRecord): string {
  return record.kind === 'allow' ? 'Allow' : 'Disallow';
}

/** A pattern must start with `/` or `*` (RFC 9309 §2.2.2): a URL's path always starts with `/`. */
function checkStart(context: LintContext, rule: LintRecord, value: string): boolean {
  const first = context.source.bytes[rule.valueStart];
  if (first === SLASH || first === STAR) return true;
  const url = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/.*)?$/i.exec(value);
  const path = url === null ? `/${value}` : (url[1] ?? '/');
  context.at(
    'pattern-not-path',
    rule.line,
    rule.valueStart,
    url === null
      ? `${kindName(rule)} value ${quote(value)} does not start with "/" or "*": it matches no URL`
      : `${kindName(rule)} value ${quote(value)} is a full URL: rules match paths, so it matches no URL`,
    `write the path from the root: ${kindName(rule)}: ${path}`,
  );
  return false;
}

/** Whitespace inside a value: several paths on one line (the 1994 protocol says one per line), or a stray space. */
function checkWhitespace(context: LintContext, rule: LintRecord): void {
  const { bytes } = context.source;
  let space = -1;
  for (let i = rule.valueStart; i < rule.valueEnd; i++) {
    if (!isSpaceOrTab(bytes[i])) continue;
    if (space < 0) space = i;
    let next = i;
    while (isSpaceOrTab(bytes[next])) next++;
    if (bytes[next] === SLASH || bytes[next] === STAR) {
      context.at(
        'multiple-paths',
        rule.line,
        next,
        `several paths on one ${kindName(rule)} line: crawlers read them as one pattern with a space, which matches none of them`,
        `one path per line: ${kindName(rule)}: ${shorten(context.source.text(rule.valueStart, space))}, then ${kindName(rule)}: ${shorten(context.source.text(next, rule.valueEnd).split(/[ \t]/)[0] ?? '')}`,
      );
      return;
    }
    i = next - 1;
  }
  if (space < 0) return;
  context.at(
    'whitespace-in-pattern',
    rule.line,
    space,
    `${kindName(rule)} value has whitespace inside: Google matches it as "%20", other crawlers cut the value at the space`,
    'percent-encode a space in a path as %20',
  );
}

/** `$` anchors only at the end of a pattern; elsewhere Google reads it as a literal `$`. */
function checkDollar(context: LintContext, rule: LintRecord): void {
  const { bytes } = context.source;
  for (let i = rule.valueStart; i < rule.valueEnd - 1; i++) {
    if (bytes[i] !== DOLLAR) continue;
    context.at(
      'dollar-inside-pattern',
      rule.line,
      i,
      '"$" ends a pattern only as its last character: here Google matches a literal "$", and crawlers without wildcards match the whole value literally',
      'put "$" last (Disallow: /*.pdf$), or percent-encode a literal one as %24',
    );
    return;
  }
}

// A segment that starts like an admin area, a backup or a secret: Disallow lists it for anyone to read.
const SENSITIVE = /(?:^|\/)(?:\*)?(\.git|\.svn|\.hg|\.env|\.ssh|\.aws|\.htpasswd|admin|backup|phpmyadmin|secret|credential|dump|database)/i;

function checkSensitive(context: LintContext, rule: LintRecord, value: string): void {
  if (rule.kind !== 'disallow') return;
  const match = SENSITIVE.exec(value);
  if (match === null) return;
  const at = match.index + match[0].length - (match[1] ?? '').length;
  const offset = rule.valueStart + new TextEncoder().encode(value.slice(0, at)).length;
  context.at(
    'sensitive-path',
    rule.line,
    offset,
    `${quote(value)} looks sensitive: robots.txt is public, so this line tells anyone where to look, and it stops no one`,
    'protect the path with authentication (or remove it from the server); a Disallow is a request to polite crawlers, not access control',
  );
}

function checkRule(context: LintContext, rule: LintRecord): void {
  if (rule.valueStart === rule.valueEnd) {
    if (rule.kind === 'allow') {
      context.at(
        'empty-allow',
        rule.line,
        rule.keyStart,
        'an empty Allow matches nothing (Google, RFC 9309) and Yandex ignores it: it allows nothing',
        'to allow everything, write an empty Disallow: (or Allow: /)',
      );
    }
    return;
  }
  const value = context.value(rule);
  if (!checkStart(context, rule, value)) return;
  checkWhitespace(context, rule);
  checkDollar(context, rule);
  checkSensitive(context, rule, value);
}

/** Rules of one group that can never decide anything: the same line twice, an allow and a disallow of one pattern. */
function checkGroupRules(context: LintContext, group: LintGroup): void {
  const seen = new Map<string, LintRecord>();
  for (const rule of group.rules) {
    if (rule.valueStart === rule.valueEnd) continue;
    const pattern = context.value(rule);
    const same = seen.get(`${rule.kind} ${pattern}`);
    if (same !== undefined) {
      context.at(
        'duplicate-rule',
        rule.line,
        rule.keyStart,
        `the same rule as line ${same.line}: it can never decide anything`,
        'remove one of them',
      );
      continue;
    }
    seen.set(`${rule.kind} ${pattern}`, rule);
    const other = seen.get(`${rule.kind === 'allow' ? 'disallow' : 'allow'} ${pattern}`);
    if (other === undefined) continue;
    const first = other.line < rule.line ? other : rule;
    const allow = rule.kind === 'allow' ? rule : other;
    context.at(
      'allow-disallow-same-pattern',
      rule.line,
      rule.keyStart,
      `Allow and Disallow of the same pattern ${quote(pattern)} (lines ${other.line} and ${rule.line}): Google, RFC 9309 and Yandex apply the Allow (line ${allow.line})` +
        (first === allow ? '' : `; readers that take the first matching line apply the Disallow (line ${first.line})`),
      'keep the one you mean',
    );
  }
}

/**
 * A rule that matches exactly the paths a longer rule of the group matches can never decide (the longer
 * match wins, RFC 9309 §2.2.2): `/a` beside `/a*` (trailing `*`s add nothing but length). Said of the
 * shorter, naming the one that always wins: redundant when both are of one kind, outranked when not.
 */
/**
 * `pattern` less its trailing `*`s, in one pass from the end: a regular expression for them (`/\*+$/`) retries
 * from every `*` of a long run followed by another byte, quadratic on a line a stranger wrote.
 */
function withoutTrailingStars(pattern: string): string {
  let end = pattern.length;
  while (end > 0 && pattern.charCodeAt(end - 1) === STAR) end--;
  return pattern.slice(0, end);
}

function checkOutranked(context: LintContext, group: LintGroup): void {
  const longest = new Map<string, { rule: LintRecord; pattern: string }>();
  for (const rule of group.rules) {
    if (rule.valueStart === rule.valueEnd) continue;
    const pattern = context.value(rule);
    const base = withoutTrailingStars(pattern);
    const known = longest.get(base);
    if (known === undefined) {
      longest.set(base, { rule, pattern });
      continue;
    }
    if (known.pattern.length === pattern.length) continue;
    const [loser, winner] = known.pattern.length < pattern.length ? [known, { rule, pattern }] : [{ rule, pattern }, known];
    // Of one kind, the shorter is only redundant; of the other kind, it cannot do what it was written for.
    context.at(
      winner.rule.kind === loser.rule.kind ? 'redundant-rule' : 'outranked-rule',
      loser.rule.line,
      loser.rule.keyStart,
      `${kindName(loser.rule)}: ${shorten(loser.pattern)} matches the same paths as the longer ${kindName(winner.rule)}: ${shorten(winner.pattern)} (line ${winner.rule.line}), which always wins: it never decides anything`,
      winner.rule.kind === loser.rule.kind ? 'remove the shorter one' : `keep the one you mean: ${kindName(winner.rule)} applies`,
    );
    longest.set(base, winner);
  }
}

const LINE_CODES = [
  'empty-allow',
  'pattern-not-path',
  'multiple-paths',
  'whitespace-in-pattern',
  'dollar-inside-pattern',
  'sensitive-path',
] as const satisfies readonly LintCode[];
const PAIR_CODES = ['duplicate-rule', 'allow-disallow-same-pattern'] as const satisfies readonly LintCode[];
const OUTRANKED_CODES = ['redundant-rule', 'outranked-rule'] as const satisfies readonly LintCode[];
/** Every code checkRules() reports. */
export const RULE_CODES: readonly LintCode[] = [...LINE_CODES, ...PAIR_CODES, ...OUTRANKED_CODES];

/** Each rule line alone, then the rules of each group together; a part none of whose codes is wanted is skipped. */
export function checkRules(context: LintContext): void {
  const lines = context.wants(LINE_CODES);
  const pairs = context.wants(PAIR_CODES);
  const outranked = context.wants(OUTRANKED_CODES);
  for (const group of context.grouping.groups) {
    if (lines) for (const rule of group.rules) checkRule(context, rule);
    if (pairs) checkGroupRules(context, group);
    if (outranked) checkOutranked(context, group);
  }
}
