/**
 * readStatement and combineReadings: one line's statement of preference read for train-ai, search and
 * ai-input, from a Content-Usage line (draft-ietf-aipref-vocab-07 §6.5, exactly) and from a Content-Signal line
 * (Cloudflare's Content Signals Policy, read case-insensitively by our choice), and the most restrictive of
 * two readings (draft-ietf-aipref-vocab-07 §5.1).
 */
import { describe, expect, it } from 'vitest';
import {
  ALL_UNKNOWN,
  USAGE_PURPOSES,
  combineReadings,
  readStatement,
  type UsagePreference,
  type UsageReading,
  type UsageSource,
} from '../../../src/usage/statement.js';

const encoder = new TextEncoder();

function read(source: UsageSource, preference: string): UsageReading {
  const bytes = encoder.encode(preference);
  return readStatement(source, bytes, 0, bytes.length);
}

const usage = (preference: string): UsageReading => read('content-usage', preference);
const signal = (preference: string): UsageReading => read('content-signal', preference);

function reading(trainAi: UsagePreference, search: UsagePreference, aiInput: UsagePreference = 'unknown'): UsageReading {
  return { 'train-ai': trainAi, search, 'ai-input': aiInput };
}

describe('the purposes and the reading of nothing', () => {
  // spec: draft-ietf-aipref-vocab-07 §4.1 and §4.2 (train-ai, search); Cloudflare's Content Signals Policy (ai-input)
  it('names three purposes, and ALL_UNKNOWN (frozen) says nothing for any', () => {
    expect(USAGE_PURPOSES).toEqual(['train-ai', 'search', 'ai-input']);
    expect(ALL_UNKNOWN).toEqual(reading('unknown', 'unknown', 'unknown'));
    expect(Object.isFrozen(ALL_UNKNOWN)).toBe(true);
    expect(Object.isFrozen(USAGE_PURPOSES)).toBe(true);
  });
});

describe('readStatement for Content-Usage (draft-ietf-aipref-vocab-07 §6.5)', () => {
  // spec: draft-ietf-aipref-vocab-07 §6 ("train-ai=y, search=n") and §6.5 (Token y allows, Token n disallows)
  it('reads Token y as allow and Token n as disallow, for train-ai and search', () => {
    expect(usage('train-ai=y, search=n')).toEqual(reading('allow', 'disallow'));
    expect(usage('search=y,train-ai=n')).toEqual(reading('disallow', 'allow'));
    expect(usage('train-ai=n')).toEqual(reading('disallow', 'unknown'));
  });

  // spec: draft-ietf-aipref-vocab-07 §6.5 ("Otherwise, the preference for that category is unknown": absent, not a Token, another Token)
  it('reads anything but the Tokens y and n as unknown', () => {
    for (const preference of ['', 'train-ai', 'train-ai=?1', 'train-ai="y"', 'train-ai=yes', 'train-ai=no', 'train-ai=(y)', 'train-ai=1']) {
      expect(usage(preference), preference).toEqual(ALL_UNKNOWN);
    }
    expect(usage('train-ai=%"y", search=:bg==:')).toEqual(ALL_UNKNOWN);
  });

  // spec: draft-ietf-aipref-vocab-07 §6.1 ("These tokens are case sensitive") and §6.2 (the Tokens y and n)
  it('is case-sensitive: an uppercase key fails the parse, an uppercase Token is another Token', () => {
    expect(usage('Train-AI=n, search=n')).toEqual(ALL_UNKNOWN);
    expect(usage('train-ai=N, search=n')).toEqual(reading('unknown', 'disallow'));
    expect(usage('train-ai=Y')).toEqual(ALL_UNKNOWN);
  });

  // spec: draft-ietf-aipref-vocab-07 §6.5.1 ("results in all preferences being unknown")
  it('§6.5.1: the last value of a repeated key decides: train-ai=y, train-ai, search=n, search="n" is all unknown', () => {
    expect(usage('train-ai=y, train-ai, search=n, search="n"')).toEqual(ALL_UNKNOWN);
    expect(usage('train-ai=y, train-ai=n')).toEqual(reading('disallow', 'unknown'));
    expect(usage('train-ai=n, train-ai=y')).toEqual(reading('allow', 'unknown'));
  });

  // spec: draft-ietf-aipref-vocab-07 §6.5.1 ("If the parsing of the Dictionary fails, preferences are unknown")
  it('§6.5.1: a preference that does not parse says nothing, whatever it held', () => {
    for (const preference of [
      'train-ai=n,',
      'train-ai=n search=n',
      'train-ai = n',
      'train-ai=n;',
      'train-ai=n, search=n, ¿',
      '\ttrain-ai=n',
    ]) {
      expect(usage(preference), preference).toBe(ALL_UNKNOWN);
    }
  });

  // spec: draft-ietf-aipref-vocab-07 §6.5.2 ("the following preference carries no parameters, and a preference to allow")
  it('§6.5.2: parameters are ignored; only those of the selected value apply', () => {
    expect(usage('train-ai;allow=n, train-ai=y')).toEqual(reading('allow', 'unknown'));
    expect(usage('train-ai=n;reason="opt-out";until=@1767225600')).toEqual(reading('disallow', 'unknown'));
    expect(usage('train-ai;has;parameters="?"')).toEqual(ALL_UNKNOWN);
    // With the draft's trailing ";", RFC 9651 §4.2.3.2 fails the parse: unknown all the same.
    expect(usage('train-ai;has;parameters="?";')).toBe(ALL_UNKNOWN);
  });

  // spec: draft-ietf-aipref-vocab-07 §6.4 ("any unknown labels MUST be ignored")
  it('§6.4: ignores keys it does not know; ai-input is no category of the vocabulary, so always unknown', () => {
    expect(usage('foo=bar, train-ai=n, x.y=1')).toEqual(reading('disallow', 'unknown'));
    expect(usage('ai-input=n, ai-train=n')).toEqual(ALL_UNKNOWN);
    expect(usage('train-ai=y, search=y, ai-input=n')['ai-input']).toBe('unknown');
  });

  // spec: draft-ietf-aipref-attach-05 §3.2 (the preference is the part of the rule's value after the path)
  it('reads bytes[start, end) alone', () => {
    const text = 'Content-Usage: /a/ train-ai=n, search=y\nContent-Usage: train-ai=y';
    const line = encoder.encode(text);
    const start = text.indexOf('train-ai');
    const end = text.indexOf('\n');
    expect(readStatement('content-usage', line, start, end)).toEqual(reading('disallow', 'allow'));
    expect(readStatement('content-usage', line, start, end - 2)).toEqual(reading('disallow', 'unknown')); // search alone: true
  });
});

describe("readStatement for Content-Signal (Cloudflare's Content Signals Policy, case-insensitive by our choice)", () => {
  // spec: Cloudflare's Content Signals Policy (https://contentsignals.org/): search, ai-input, ai-train; yes or no
  it('reads search, ai-input and ai-train, yes as allow and no as disallow', () => {
    expect(signal('search=yes, ai-train=no')).toEqual(reading('disallow', 'allow', 'unknown'));
    expect(signal('search=yes, ai-input=yes, ai-train=no')).toEqual(reading('disallow', 'allow', 'allow'));
    expect(signal('ai-input=no')).toEqual(reading('unknown', 'unknown', 'disallow'));
  });

  // spec: Cloudflare's Content Signals Policy (https://contentsignals.org/); our choice: ASCII letters lower-cased first
  it('reads keys and values case-insensitively', () => {
    expect(signal('Search=Yes, AI-Train=NO, Ai-Input=nO')).toEqual(reading('disallow', 'allow', 'disallow'));
    expect(signal('SEARCH=YES')).toEqual(reading('unknown', 'allow', 'unknown'));
  });

  // spec: Cloudflare's Content Signals Policy (https://contentsignals.org/): yes and no are the values, as Tokens
  it("reads anything but the Tokens yes and no as unknown, and Content-Usage's labels as nothing", () => {
    expect(signal('search=y, ai-train=n, ai-input="yes"')).toEqual(ALL_UNKNOWN);
    expect(signal('search=?1, ai-train=(no), ai-input')).toEqual(ALL_UNKNOWN);
    expect(signal('train-ai=no, search=no')).toEqual(reading('unknown', 'disallow', 'unknown'));
  });

  // spec: RFC 9651 §4.2.2 (the preference is a Dictionary; a failed parse says nothing)
  it('says nothing for a preference that does not parse, even lower-cased', () => {
    for (const preference of ['search=yes,', 'search=yes ai-train=no', 'search = yes', 'search=yes;', 'search=sí']) {
      expect(signal(preference), preference).toBe(ALL_UNKNOWN);
    }
  });

  // spec: Cloudflare's Content Signals Policy; parameters, as for Content-Usage (draft-ietf-aipref-vocab-07 §6.5.2), ignored
  it('ignores parameters, and reads the last value of a repeated key', () => {
    expect(signal('search=yes;Note="X", search=no')).toEqual(reading('unknown', 'disallow', 'unknown'));
  });

  // spec: our choice (the robots.txt bytes are the caller's: lower-casing works on a copy)
  it('leaves the bytes it reads as they were', () => {
    const bytes = encoder.encode('X Search=Yes Y');
    const before = bytes.slice();
    expect(readStatement('content-signal', bytes, 2, 12)).toEqual(reading('unknown', 'allow', 'unknown'));
    expect(bytes).toEqual(before);
  });
});

describe('combineReadings (draft-ietf-aipref-vocab-07 §5.1)', () => {
  const PREFERENCES: readonly UsagePreference[] = ['allow', 'disallow', 'unknown'];

  // spec: draft-ietf-aipref-vocab-07 §5.1 (any disallow → disallow; otherwise any allow → allow; otherwise unknown)
  it('takes the most restrictive preference for each purpose, in either order', () => {
    const expected = (a: UsagePreference, b: UsagePreference): UsagePreference =>
      a === 'disallow' || b === 'disallow' ? 'disallow' : a === 'allow' || b === 'allow' ? 'allow' : 'unknown';
    for (const a of PREFERENCES) {
      for (const b of PREFERENCES) {
        const left = reading(a, b, a);
        const right = reading(b, a, 'unknown');
        const combined = reading(expected(a, b), expected(b, a), expected(a, 'unknown'));
        expect(combineReadings(left, right), `${a} ${b}`).toEqual(combined);
        expect(combineReadings(right, left), `${b} ${a}`).toEqual(combined);
      }
    }
  });

  // spec: draft-ietf-aipref-vocab-07 §5.1 (the purposes combine one at a time)
  it('combines Content-Usage and Content-Signal readings purpose by purpose', () => {
    const combined = combineReadings(usage('train-ai=y, search=n'), signal('search=yes, ai-input=no, ai-train=no'));
    expect(combined).toEqual(reading('disallow', 'disallow', 'disallow'));
    expect(combineReadings(ALL_UNKNOWN, usage('train-ai=y'))).toEqual(reading('allow', 'unknown'));
    expect(combineReadings(ALL_UNKNOWN, ALL_UNKNOWN)).toBe(ALL_UNKNOWN);
  });

  // spec: our choice (answers are interned: the same reading is the same frozen object)
  it('answers frozen readings, the same object for the same reading', () => {
    const first = usage('train-ai=n');
    expect(Object.isFrozen(first)).toBe(true);
    expect(usage('train-ai=n;x, foo')).toBe(first);
    expect(combineReadings(first, ALL_UNKNOWN)).toBe(first);
    expect(combineReadings(reading('disallow', 'unknown'), reading('unknown', 'unknown'))).toBe(first);
    expect(signal('ai-train=no')).toBe(first);
  });
});
