/**
 * Checks of each line that states usage preferences: Content-Usage (draft-ietf-aipref-attach-05 §3, its
 * preference a Dictionary in the vocabulary of draft-ietf-aipref-vocab-07 §6) and Content-Signal (Cloudflare's
 * Content Signals Policy, https://contentsignals.org/, read as the same Dictionary once lower-cased). The
 * preference is parsed with the library's own Dictionary parser (src/usage/), exactly as the parser reads it, so
 * a line the linter calls unreadable is one the library reads as stating nothing.
 */
import { isAsciiUpper, lowerCasedAscii } from '../parse/ascii.js';
import { parseDictionary, type DictionaryMember } from '../usage/structured-dictionary.js';
import { BACKSLASH, CLOSE_PAREN, COMMA, OPEN_PAREN, QUOTE, SEMICOLON, SPACE, TAB } from '../bytes.js';
import type { LintCode } from './codes.js';
import { quote, shorten, type LintContext } from './context.js';
import { linePrefix, usageLine, VOCABULARIES, type UsageLine, type Vocabulary } from './usage-lines.js';

/**
 * Hints that rewrite a preference are worked out for short ones only: real preferences are a few dozen bytes,
 * and each rewrite is a few passes over the text, which a hostile 16 KB line should not be given.
 */
const REWRITE_LIMIT = 512;

const EQUALS = 0x3d;
const ascii = new TextDecoder();

/** Each vocabulary's keys that belong to the other one → what to write instead (undefined: it has no such purpose). */
const OTHER_VOCABULARY: Readonly<Record<UsageLine['source'], ReadonlyMap<string, string | undefined>>> = {
  'content-usage': new Map([
    ['ai-train', 'train-ai'],
    ['ai-input', undefined],
  ]),
  'content-signal': new Map([['train-ai', 'ai-train']]),
};

/** Values people write for yes and no: what a hint offers instead of a value that states nothing. */
const ALLOWING: ReadonlySet<string> = new Set(['y', 'yes', 'true', 'allow', 'allowed', '1', 'on']);
const DISALLOWING: ReadonlySet<string> = new Set(['n', 'no', 'false', 'disallow', 'disallowed', '0', 'off', 'none']);

function lowerText(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** The preference's bytes as the line's vocabulary parses them. */
function preferenceBytes(context: LintContext, line: UsageLine): Uint8Array {
  const bytes = context.source.bytes.subarray(line.preferenceStart, line.preferenceEnd);
  return line.source === 'content-signal' ? lowerCasedAscii(bytes) : bytes;
}

interface MemberKey {
  readonly key: string;
  /** Where the key starts, in the preference's bytes. */
  readonly offset: number;
}

/**
 * The keys of a Dictionary's members in order, each with where it starts, in one pass: past each key, to the
 * next comma outside strings and inner lists. Only for bytes that parsed: the parse already holds the syntax.
 */
function memberKeys(bytes: Uint8Array): MemberKey[] {
  const keys: MemberKey[] = [];
  let i = 0;
  while (i < bytes.length && bytes[i] === SPACE) i++;
  while (i < bytes.length) {
    const start = i;
    while (
      i < bytes.length &&
      bytes[i] !== EQUALS &&
      bytes[i] !== SEMICOLON &&
      bytes[i] !== COMMA &&
      bytes[i] !== SPACE &&
      bytes[i] !== TAB
    ) {
      i++;
    }
    keys.push({ key: ascii.decode(bytes.subarray(start, i)), offset: start });
    let inString = false;
    let depth = 0;
    for (; i < bytes.length; i++) {
      const byte = bytes[i];
      if (inString) {
        if (byte === BACKSLASH) i++;
        else if (byte === QUOTE) inString = false;
      } else if (byte === QUOTE) inString = true;
      else if (byte === OPEN_PAREN) depth++;
      else if (byte === CLOSE_PAREN) depth--;
      else if (byte === COMMA && depth === 0) break;
    }
    i++;
    while (i < bytes.length && (bytes[i] === SPACE || bytes[i] === TAB)) i++;
  }
  return keys;
}

/** What a member's value is, in words, for a message. */
function describe(member: DictionaryMember): string {
  if (!('item' in member)) return 'an inner list';
  const { item } = member;
  switch (item.type) {
    case 'token':
      return `the Token ${shorten(item.value, 20)}`;
    case 'string':
      return `the String ${quote(item.value, 20)} (a quoted value)`;
    case 'boolean':
      return item.value ? 'no value (a bare key is the Boolean true)' : 'the Boolean false';
    case 'integer':
    case 'decimal':
      return `the number ${item.value}`;
    case 'byte-sequence':
      return 'a Byte Sequence';
    case 'date':
      return 'a Date';
    case 'display-string':
      return 'a Display String';
  }
}

/** What the writer most likely meant by a value that states nothing, when it can be told. */
function meant(member: DictionaryMember): 'allow' | 'disallow' | undefined {
  if (!('item' in member)) return undefined;
  const { item } = member;
  let word: string;
  if (item.type === 'token' || item.type === 'string') word = item.value.toLowerCase();
  else if (item.type === 'integer') word = String(item.value);
  else if (item.type === 'boolean' && !item.value) return 'disallow';
  else return undefined;
  if (ALLOWING.has(word)) return 'allow';
  return DISALLOWING.has(word) ? 'disallow' : undefined;
}

/** `key=n` (or `key=y or key=n` when the meaning cannot be told) in `vocabulary`'s spelling. */
function written(vocabulary: Vocabulary, key: string, member: DictionaryMember): string {
  const meaning = meant(member);
  if (meaning === undefined) return `${key}=${vocabulary.allow} or ${key}=${vocabulary.disallow}`;
  return `${key}=${meaning === 'allow' ? vocabulary.allow : vocabulary.disallow}`;
}

function isAcceptedValue(member: DictionaryMember, vocabulary: Vocabulary): boolean {
  return (
    'item' in member &&
    member.item.type === 'token' &&
    (member.item.value === vocabulary.allow || member.item.value === vocabulary.disallow)
  );
}

function checkValue(context: LintContext, line: UsageLine, key: string, member: DictionaryMember, offset: number): void {
  const vocabulary = VOCABULARIES[line.source];
  if (isAcceptedValue(member, vocabulary)) return;
  const accepted =
    line.source === 'content-usage'
      ? 'only the Token y or n states a preference (draft-ietf-aipref-vocab-07 §6.5)'
      : 'only yes or no states a preference';
  context.at(
    'usage-value-invalid',
    line.record.line,
    offset,
    `${vocabulary.name} gives ${key} ${describe(member)}: ${accepted}, so ${key} is left unknown`,
    `write ${written(vocabulary, key, member)}`,
  );
}

function checkOtherVocabulary(context: LintContext, line: UsageLine, key: string, member: DictionaryMember, offset: number): void {
  const own = VOCABULARIES[line.source];
  const other = VOCABULARIES[line.source === 'content-usage' ? 'content-signal' : 'content-usage'];
  const instead = OTHER_VOCABULARY[line.source].get(key);
  const ignored = line.source === 'content-usage' ? 'ignores a key it does not define (draft-ietf-aipref-vocab-07 §6.4)' : 'ignores it';
  context.at(
    'usage-key-wrong-vocabulary',
    line.record.line,
    offset,
    instead === undefined
      ? `"${key}" is ${other.name}'s key: ${own.name} has no such purpose, and ${ignored}`
      : `"${key}" is ${other.name}'s key: ${own.name} reads ${instead}, and ${ignored}, so ${instead} is left unknown`,
    instead === undefined
      ? `state it on a ${other.name} line: ${other.name}: ${line.path === undefined ? '' : `${shorten(line.path)} `}${written(other, key, member)}`
      : `write ${written(own, instead, member)}`,
  );
}

function checkUnknownKeys(context: LintContext, line: UsageLine, unknown: readonly MemberKey[]): void {
  const [first] = unknown;
  if (first === undefined) return;
  const names = unknown.slice(0, 3).map(({ key }) => quote(key, 20));
  const list = `${names.join(', ')}${unknown.length > 3 ? ` and ${unknown.length - 3} more` : ''}`;
  context.at(
    'content-signal-unknown-key',
    line.record.line,
    line.preferenceStart + first.offset,
    `Content-Signal ${unknown.length === 1 ? 'key' : 'keys'} ${list} ${unknown.length === 1 ? 'is' : 'are'} not in the Content Signals Policy: readers ignore ${unknown.length === 1 ? 'it' : 'them'}`,
    `use the policy's keys: search, ai-input and ai-train (${linePrefix(line)}${VOCABULARIES['content-signal'].example})`,
  );
}

function checkCase(context: LintContext, line: UsageLine, text: string): void {
  const { bytes } = context.source;
  let first = line.preferenceStart;
  while (first < line.preferenceEnd && !isAsciiUpper(bytes[first])) first++;
  if (first === line.preferenceEnd) return;
  context.at(
    'content-signal-case',
    line.record.line,
    first,
    `Content-Signal ${quote(text)} has capitals: this library reads its keys and values in any case, but a reader that compares them as the policy writes them (lower case) ignores them`,
    `write ${linePrefix(line)}${shorten(lowerText(text))}`,
  );
}

/** A purpose key written twice: RFC 9651 keeps the last value, where two lines would combine to the most restrictive. */
function checkRepeated(context: LintContext, line: UsageLine, members: readonly MemberKey[]): void {
  const vocabulary = VOCABULARIES[line.source];
  const seen = new Set<string>();
  const reported = new Set<string>();
  for (const { key, offset } of members) {
    if (!vocabulary.keys.has(key)) continue;
    if (!seen.has(key)) {
      seen.add(key);
      continue;
    }
    if (reported.has(key)) continue;
    reported.add(key);
    context.at(
      'usage-key-repeated',
      line.record.line,
      line.preferenceStart + offset,
      `${key} is written more than once: only its last value counts (RFC 9651 §4.2.2, draft-ietf-aipref-vocab-07 §6.5.1), not the most restrictive as between two lines`,
      `keep one ${key}`,
    );
  }
}

/** `a=n; search=n`: a purpose after ";" is a parameter of the member before it, which readers ignore. */
function checkParameters(context: LintContext, line: UsageLine, dictionary: ReadonlyMap<string, DictionaryMember>, text: string): boolean {
  const vocabulary = VOCABULARIES[line.source];
  for (const [key, member] of dictionary) {
    for (const parameter of member.params.keys()) {
      if (!vocabulary.keys.has(parameter) || dictionary.has(parameter)) continue;
      const rewritten = text.length <= REWRITE_LIMIT && !text.includes('"') ? text.replace(/[ \t]*;[ \t]*/g, ', ') : undefined;
      const readable = rewritten !== undefined && parses(line, rewritten);
      context.at(
        'usage-purpose-in-parameters',
        line.record.line,
        line.preferenceStart,
        `${parameter} follows ";": it is a parameter of ${quote(key, 20)}, which readers ignore (draft-ietf-aipref-vocab-07 §6.5.2), so ${parameter} is left unknown`,
        readable ? `separate purposes with ",": ${linePrefix(line)}${shorten(rewritten)}` : 'separate purposes with ",", not ";"',
      );
      return true;
    }
  }
  return false;
}

function parses(line: UsageLine, text: string): boolean {
  const bytes = new TextEncoder().encode(line.source === 'content-signal' ? lowerText(text) : text);
  return parseDictionary(bytes) !== undefined;
}

/** `*.pdf` as a path from the root, as checkRules() writes one: `/*.pdf`; a full URL's path. */
function asPath(word: string): string {
  const url = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/.*)?$/i.exec(word);
  if (url !== null) return url[1] ?? '/';
  return word.startsWith('/') ? word : `/${word}`;
}

/**
 * A preference that does not parse because a path came first: with no "/" at its start (attach-05 §3.2 then reads
 * the whole value as the preference), or a second path after the line's own. True when it said so.
 */
function pathBeforePreference(context: LintContext, line: UsageLine, bytes: Uint8Array): boolean {
  let wordEnd = 0;
  while (wordEnd < bytes.length && bytes[wordEnd] !== SPACE && bytes[wordEnd] !== TAB) wordEnd++;
  let restStart = wordEnd;
  while (restStart < bytes.length && (bytes[restStart] === SPACE || bytes[restStart] === TAB)) restStart++;
  if (restStart === bytes.length || parseDictionary(bytes, restStart) === undefined) return false;
  const word = context.source.text(line.preferenceStart, line.preferenceStart + wordEnd);
  const rest = shorten(context.source.text(line.preferenceStart + restStart, line.preferenceEnd));
  const { name } = VOCABULARIES[line.source];
  if (line.path === undefined && /[/*.$]/.test(word)) {
    context.at(
      'usage-preference-invalid',
      line.record.line,
      line.preferenceStart,
      `${name} value ${quote(context.value(line.record))} does not start with "/": it has no path, so all of it is read as the preference, which does not parse (RFC 9651 §4.2.2) and leaves every purpose unknown (draft-ietf-aipref-attach-05 §3.2)`,
      `write the path from the root: ${name}: ${shorten(asPath(word))} ${rest}`,
    );
    return true;
  }
  if (line.path !== undefined && /^[/*]/.test(word)) {
    context.at(
      'usage-preference-invalid',
      line.record.line,
      line.preferenceStart,
      `several paths on one ${name} line: its path is ${quote(line.path)}, and ${quote(word)} begins the preference, which then does not parse (RFC 9651 §4.2.2) and leaves every purpose unknown`,
      `one path per line: ${name}: ${shorten(line.path)} ${rest}, then ${name}: ${shorten(asPath(word))} ${rest}`,
    );
    return true;
  }
  return false;
}

/** Common slips, mended: spaces around "=", ":" for "=", a trailing "," or ";", capitals in keys. */
function mended(line: UsageLine, text: string): string | undefined {
  if (text.length > REWRITE_LIMIT) return undefined;
  let fixed = text.replace(/[ \t]*=[ \t]*/g, '=');
  fixed = fixed.replace(/([A-Za-z*][A-Za-z0-9_.*-]*)[ \t]*:[ \t]*(?=[A-Za-z?"(0-9-])/g, '$1=');
  fixed = fixed.replace(/[ \t,;]+$/, '');
  if (!parses(line, fixed)) fixed = lowerText(fixed);
  return fixed !== text && parses(line, fixed) ? fixed : undefined;
}

function invalidPreference(context: LintContext, line: UsageLine, bytes: Uint8Array, text: string): void {
  if (pathBeforePreference(context, line, bytes)) return;
  const { name, example } = VOCABULARIES[line.source];
  const prefix = linePrefix(line);
  const lowered = line.source === 'content-usage' && bytes.some(isAsciiUpper) ? lowerCasedAscii(bytes) : undefined;
  if (lowered !== undefined && parseDictionary(lowered) !== undefined) {
    context.at(
      'usage-preference-invalid',
      line.record.line,
      line.preferenceStart,
      `${name} preference ${quote(text)} has capitals: keys are lower case (RFC 9651 §3.2; draft-ietf-aipref-vocab-07 §6.1), so it does not parse and every purpose is left unknown (draft-ietf-aipref-vocab-07 §6.5.1)`,
      `write ${prefix}${shorten(lowerText(text))}`,
    );
    return;
  }
  const nonAscii = bytes.findIndex((byte) => byte >= 0x80);
  const fixed = mended(line, text);
  context.at(
    'usage-preference-invalid',
    line.record.line,
    line.preferenceStart + Math.max(0, nonAscii),
    `${name} preference ${quote(text)} does not parse as a Structured Fields Dictionary (RFC 9651 §4.2.2)${nonAscii >= 0 ? ', which is ASCII only' : ''}: every purpose is left unknown (draft-ietf-aipref-vocab-07 §6.5.1)`,
    fixed === undefined ? `write comma-separated key=value pairs: ${prefix}${example}` : `write ${prefix}${shorten(fixed)}`,
  );
}

function statesNothing(context: LintContext, line: UsageLine, text: string): void {
  const { name, example, keys } = VOCABULARIES[line.source];
  const purposes = [...keys.keys()].join(line.source === 'content-usage' ? ' or ' : ', ');
  context.at(
    'usage-preference-empty',
    line.record.line,
    text === '' ? (line.path === undefined ? line.record.keyStart : line.record.valueStart) : line.preferenceStart,
    text === ''
      ? `${name} ${line.path === undefined ? '' : `for ${quote(line.path)} `}states no preference: the line says nothing`
      : `${name} ${quote(text)} states nothing for ${purposes}: keys the vocabulary does not define are ignored (draft-ietf-aipref-vocab-07 §6.4)`,
    `write what is preferred: ${linePrefix(line)}${example}`,
  );
}

function checkPreference(context: LintContext, line: UsageLine): void {
  const text = context.source.text(line.preferenceStart, line.preferenceEnd);
  if (text === '') return statesNothing(context, line, text);
  const bytes = preferenceBytes(context, line);
  const dictionary = parseDictionary(bytes);
  if (dictionary === undefined) return invalidPreference(context, line, bytes, text);
  const vocabulary = VOCABULARIES[line.source];
  const members = memberKeys(bytes);
  // A repeated key's value is its last one (RFC 9651 §4.2.2): the offset kept for each key is its last.
  const offsets = new Map(members.map(({ key, offset }) => [key, line.preferenceStart + offset]));
  if (line.source === 'content-signal') checkCase(context, line, text);
  checkRepeated(context, line, members);
  let states = false;
  const unknown: MemberKey[] = [];
  for (const [key, member] of dictionary) {
    const offset = offsets.get(key) ?? line.preferenceStart;
    if (vocabulary.keys.has(key)) {
      states = true;
      checkValue(context, line, key, member, offset);
    } else if (OTHER_VOCABULARY[line.source].has(key)) {
      states = true;
      checkOtherVocabulary(context, line, key, member, offset);
    } else if (line.source === 'content-signal') unknown.push({ key, offset: offset - line.preferenceStart });
  }
  checkUnknownKeys(context, line, unknown);
  if (checkParameters(context, line, dictionary, text)) states = true;
  if (!states && unknown.length === 0) statesNothing(context, line, text);
}

/** Every code checkUsageLines() reports. */
export const USAGE_LINE_CODES = [
  'usage-preference-invalid',
  'usage-preference-empty',
  'usage-value-invalid',
  'usage-key-wrong-vocabulary',
  'usage-key-repeated',
  'usage-purpose-in-parameters',
  'content-signal-unknown-key',
  'content-signal-case',
] as const satisfies readonly LintCode[];

/** Each Content-Usage and Content-Signal line of each group (those before any group are rule-before-user-agent's). */
export function checkUsageLines(context: LintContext): void {
  for (const group of context.grouping.groups) for (const record of group.usage) checkPreference(context, usageLine(context, record));
}
