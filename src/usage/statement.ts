/**
 * One line's statement of preference read for the three purposes this library answers for.
 *
 * Content-Usage (draft-ietf-aipref-attach-05 §3) is read as draft-ietf-aipref-vocab-07 §6.5 says: the bytes
 * parsed as a Dictionary exactly (labels are case-sensitive, §6.1), `train-ai` and `search` looked up, a Token
 * `y` allows and a Token `n` disallows, and everything else (a missing key, a Boolean, a String, another Token,
 * an Inner List, a Dictionary that does not parse) leaves the purpose unknown. Parameters are ignored (§6.5.2).
 *
 * Content-Signal (Cloudflare's Content Signals Policy, https://contentsignals.org/) is written by hand in
 * robots.txt files, often with capitals (`Search=Yes`), and its policy does not say it is case-sensitive. Our
 * choice: its ASCII letters are lower-cased first, then it is parsed as the same Dictionary, with `search`,
 * `ai-input` and `ai-train` as keys and the Tokens `yes` and `no` as values.
 */
import { lowerCasedAscii } from '../parse/ascii.js';
import { parseDictionary, type DictionaryMember } from './structured-dictionary.js';

/**
 * What content may be used for: `'train-ai'`, training AI models (draft-ietf-aipref-vocab-07 §4.1; Content-Signal's
 * `ai-train`); `search`, search applications that link to the source (§4.2; Content-Signal's `search`);
 * `'ai-input'`, using the content as input to an AI answer (Content-Signal's `ai-input`; the vocabulary has none).
 */
export type UsagePurpose = 'train-ai' | 'search' | 'ai-input';
/** A purpose's preference (draft-ietf-aipref-vocab-07 §3): allowed, disallowed, or not stated. */
export type UsagePreference = 'allow' | 'disallow' | 'unknown';
/** The kind of line a preference comes from: `Content-Usage:` (draft-ietf-aipref-attach-05 §3) or `Content-Signal:` (https://contentsignals.org/). */
export type UsageSource = 'content-usage' | 'content-signal';

export const USAGE_PURPOSES: readonly UsagePurpose[] = Object.freeze(['train-ai', 'search', 'ai-input'] as const);

/** A preference for each purpose. */
export interface UsageReading {
  /** Training AI models. */
  readonly 'train-ai': UsagePreference;
  /** Search applications that link to the source. */
  readonly search: UsagePreference;
  /** Input to an AI answer (Content-Signal only). */
  readonly 'ai-input': UsagePreference;
}

const PREFERENCES: readonly UsagePreference[] = ['allow', 'disallow', 'unknown'];

/**
 * The 27 readings there are, each frozen once: every reading this module answers is one of them, so the same
 * reading is the same object (callers that intern answers can compare readings by identity).
 */
const READINGS: readonly UsageReading[] = PREFERENCES.flatMap((trainAi) =>
  PREFERENCES.flatMap((search) =>
    PREFERENCES.map((aiInput): UsageReading => Object.freeze({ 'train-ai': trainAi, search, 'ai-input': aiInput })),
  ),
);

function reading(trainAi: UsagePreference, search: UsagePreference, aiInput: UsagePreference): UsageReading {
  const index = PREFERENCES.indexOf(trainAi) * 9 + PREFERENCES.indexOf(search) * 3 + PREFERENCES.indexOf(aiInput);
  return READINGS[index] as UsageReading;
}

/** Nothing said for any purpose: a line whose preference does not parse, or names none of the purposes. */
export const ALL_UNKNOWN: UsageReading = reading('unknown', 'unknown', 'unknown');

/** A member's preference: its value a Token, `allow` or `disallow` as spelled for the source; else unknown. */
function tokenPreference(member: DictionaryMember | undefined, allow: string, disallow: string): UsagePreference {
  if (member === undefined || !('item' in member) || member.item.type !== 'token') return 'unknown';
  if (member.item.value === allow) return 'allow';
  return member.item.value === disallow ? 'disallow' : 'unknown';
}

/** The preference bytes[start, end) of one line read for the three purposes. */
export function readStatement(source: UsageSource, bytes: Uint8Array, start: number, end: number): UsageReading {
  if (source === 'content-usage') {
    const dictionary = parseDictionary(bytes, start, end);
    if (dictionary === undefined) return ALL_UNKNOWN;
    // draft-ietf-aipref-vocab-07 has no ai-input category: a Content-Usage line never speaks for it.
    return reading(tokenPreference(dictionary.get('train-ai'), 'y', 'n'), tokenPreference(dictionary.get('search'), 'y', 'n'), 'unknown');
  }
  const dictionary = parseDictionary(lowerCasedAscii(bytes, start, end));
  if (dictionary === undefined) return ALL_UNKNOWN;
  return reading(
    tokenPreference(dictionary.get('ai-train'), 'yes', 'no'),
    tokenPreference(dictionary.get('search'), 'yes', 'no'),
    tokenPreference(dictionary.get('ai-input'), 'yes', 'no'),
  );
}

/** draft-ietf-aipref-vocab-07 §5.1: the most restrictive wins (disallow, then allow, then unknown). */
function combine(a: UsagePreference, b: UsagePreference): UsagePreference {
  if (a === 'disallow' || b === 'disallow') return 'disallow';
  return a === 'allow' || b === 'allow' ? 'allow' : 'unknown';
}

/** vocab-07 §5.1 Combining Preferences, per purpose: a disallow wins; else an allow; else unknown. */
export function combineReadings(a: UsageReading, b: UsageReading): UsageReading {
  return reading(combine(a['train-ai'], b['train-ai']), combine(a.search, b.search), combine(a['ai-input'], b['ai-input']));
}
