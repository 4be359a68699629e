/**
 * Checks of groups: what comes before any group, which crawlers a User-agent line names, blank lines that
 * split a group for the readers that end a record at a blank line, and what a group as a whole says.
 */
import { isTokenByte } from '../parse/ascii.js';
import { YANDEX_FAMILY } from '../profile.js';
import { quote, type LintContext } from './context.js';
import { isGroupExtension, isRule, type LintGroup } from './groups.js';
import { keyName, type LintRecord } from './records.js';

export function checkOrphans(context: LintContext): void {
  for (const record of context.grouping.orphans) {
    const key = context.source.text(record.keyStart, record.keyEnd);
    context.at(
      'rule-before-user-agent',
      record.line,
      record.keyStart,
      `${quote(key)} comes before any User-agent line: it belongs to no group, and every crawler ignores it`,
      'put "User-agent: *" (or the crawler\'s name) on a line above it',
    );
  }
}

/** The User-agent value's product token (RFC 9309 §2.2.1: letters, "_" and "-") and what follows it. */
function checkAgent(context: LintContext, record: LintRecord): void {
  const { bytes } = context.source;
  const { valueStart: start, valueEnd: end } = record;
  if (start === end) {
    context.at(
      'empty-user-agent',
      record.line,
      record.keyStart,
      'User-agent has no value: the group names no crawler, so its rules apply to none',
      'name the crawler (User-agent: Googlebot), or write User-agent: * for all',
    );
    return;
  }
  const next = bytes[start + 1];
  // `*` alone, or followed by whitespace (Google's tolerance): the global group.
  if (bytes[start] === 0x2a && (next === undefined || start + 1 === end || next === 0x20 || next === 0x09)) return;
  let tokenEnd = start;
  while (tokenEnd < end && isTokenByte(bytes[tokenEnd] as number)) tokenEnd++;
  const value = context.value(record);
  const token = context.source.text(start, tokenEnd);
  if (bytes[start] === 0x2a) {
    context.at(
      'user-agent-wildcard',
      record.line,
      start,
      `User-agent ${quote(value)}: "*" works only alone; Google and RFC 9309 match a group by the product token at the start of the value, and this one has none, so the group applies to no crawler`,
      'name each crawler on a User-agent line of its own (User-agent: ExampleBot), or write User-agent: * for all',
    );
    return;
  }
  if (tokenEnd === start) {
    context.at(
      'user-agent-no-token',
      record.line,
      start,
      `User-agent ${quote(value)} does not start with a product token (letters, "_", "-"): Google and RFC 9309 match no crawler to it; only a crawler that compares the whole value may`,
      'name the crawler by the letters of its token; a name that starts with a digit cannot be matched the standard way',
    );
    return;
  }
  if (token.toLowerCase() === YANDEX_FAMILY) {
    context.at(
      'yandex-agent-family',
      record.line,
      start,
      'Yandex reads "User-agent: Yandex" as naming all of its robots (YandexBot, YandexImages, …) and then ignores "*"; readers that match whole product tokens (Google, RFC 9309) apply this group to a robot named exactly "Yandex" only',
      'fine for Yandex; to give one Yandex robot other rules, add a group for it by name (User-agent: YandexImages)',
    );
  }
  if (tokenEnd === end) return;
  const rest = context.source.text(tokenEnd, end);
  const wildcard = rest.includes('*');
  context.at(
    'user-agent-version',
    record.line,
    tokenEnd,
    `User-agent ${quote(value)}: Google and RFC 9309 match only its product token ${quote(token)} (every crawler whose token that is); ` +
      `crawlers that compare the whole value ${wildcard ? 'read the "*" literally' : 'may match no crawler to it'}`,
    wildcard
      ? `write User-agent: ${token} (a User-agent matches every version and variant of that token anyway)`
      : `write User-agent: ${token}`,
  );
}

export function checkAgents(context: LintContext): void {
  for (const group of context.grouping.groups) for (const agent of group.agents) checkAgent(context, agent);
}

/** `agents`: only User-agent lines so far; `extensions`: a Crawl-delay or such too, but no rule yet. */
type GroupState = 'none' | 'agents' | 'extensions' | 'rules';

/**
 * Blank lines inside a group. Google and RFC 9309 read past them; the 1994 readers end a record there. A
 * blank line between the User-agent lines and the first rule leaves those readers a group with no rules
 * (warning); one between two rules only drops the rules after it for them, and a fifth of real files have
 * one (info).
 */
export function checkBlankLines(context: LintContext): void {
  const { source } = context;
  const recordAt = new Map<number, LintRecord>();
  for (const record of context.records) recordAt.set(record.line, record);
  let state: GroupState = 'none';
  let blank: number | undefined;
  for (let line = 1; line <= source.lines.length; line++) {
    const record = recordAt.get(line);
    if (record === undefined) {
      if (state !== 'none' && blank === undefined && source.isBlank(line)) blank = line;
      continue;
    }
    const joinsGroup =
      // A User-agent after a Crawl-delay opens a new group for all but Google, which ignores Crawl-delay: no loss to report.
      record.kind === 'user-agent' ? state === 'agents' : state !== 'none' && (isRule(record) || isGroupExtension(source, record));
    if (!joinsGroup && record.kind !== 'user-agent') continue;
    if (joinsGroup && blank !== undefined) {
      if (state !== 'rules') {
        context.at(
          'blank-line-before-rules',
          blank,
          source.lines[blank - 1]?.start ?? 0,
          `blank line inside the group of line ${line}: readers that end a record at a blank line (the 1994 protocol) see User-agent lines with no rules`,
          'remove the blank line; separate groups, not the lines of one group',
        );
      } else {
        context.at(
          'blank-line-in-group',
          blank,
          source.lines[blank - 1]?.start ?? 0,
          `blank line between two rules of a group: readers that end a record at a blank line drop the rules from line ${line} on`,
          'remove the blank line, or start a comment line with "#" to separate the rules',
        );
      }
    }
    blank = undefined;
    if (record.kind === 'user-agent') state = 'agents';
    else if (isRule(record)) state = 'rules';
    else if (state === 'agents') state = 'extensions';
  }
}

/** Whether a product token is one of Google's crawlers (Googlebot, Googlebot-Image, AdsBot-Google, Mediapartners-Google, …). */
function isGoogleToken(token: string): boolean {
  return token.startsWith('google') || token.endsWith('-google');
}

function agentToken(context: LintContext, agent: LintRecord): string {
  const value = context.value(agent).toLowerCase();
  return /^[a-z_-]*/.exec(value)?.[0] ?? '';
}

/** Crawl-delay in a group only Google's crawlers read: Google ignores Crawl-delay, so it does nothing. */
export function checkGoogleCrawlDelay(context: LintContext): void {
  for (const group of context.grouping.groups) {
    const tokens = group.agents.map((agent) => agentToken(context, agent));
    if (tokens.length === 0 || !tokens.every(isGoogleToken)) continue;
    for (const extension of group.extensions) {
      if (keyName(context.source, extension) !== 'crawl-delay') continue;
      context.at(
        'crawl-delay-google',
        extension.line,
        extension.keyStart,
        "Crawl-delay in a group for Google's crawlers only: Google ignores Crawl-delay, so this line does nothing",
        "Google adjusts its crawl rate to the server's responses (slow down with 503 or 429); the line can go",
      );
    }
  }
}

function blocksEverything(context: LintContext, group: LintGroup): LintRecord | undefined {
  if (group.rules.some((rule) => rule.kind === 'allow' && rule.valueStart !== rule.valueEnd)) return undefined;
  return group.rules.find((rule) => rule.kind === 'disallow' && ['/', '/*', '*'].includes(context.value(rule)));
}

/** Every group (the `*` one among them) disallows everything: no crawler may fetch anything. */
export function checkDisallowAll(context: LintContext): void {
  const { groups } = context.grouping;
  const globalGroup = groups.find((group) => group.agents.some((agent) => /^\*(?:\s|$)/.test(context.value(agent))));
  if (globalGroup === undefined) return;
  const blocking = blocksEverything(context, globalGroup);
  if (blocking === undefined || !groups.every((group) => blocksEverything(context, group) !== undefined)) return;
  context.at(
    'disallow-all',
    blocking.line,
    blocking.valueStart,
    'every crawler is disallowed from the whole site: search engines will show its pages without descriptions, or drop them',
    'if this is a staging or private site, protect it with authentication too; robots.txt is a request, not a lock',
  );
}
