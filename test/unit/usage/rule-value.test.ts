import { describe, expect, it } from 'vitest';
import { splitRuleValue } from '../../../src/usage/rule-value.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array, start: number, end: number): string => new TextDecoder().decode(bytes.subarray(start, end));

/** The value of `line` after the key's colon, split: [path, preference] as text. */
function split(line: string, start = 0, end = utf8(line).length): [string, string] {
  const bytes = utf8(line);
  const { pathEnd, preferenceStart } = splitRuleValue(bytes, start, end);
  return [decode(bytes, start, pathEnd), decode(bytes, preferenceStart, end)];
}

describe('splitRuleValue', () => {
  // spec: draft-ietf-aipref-attach-05 §3.2: a value that starts with "/" has a path, ending before the first SP or HTAB.
  it('splits a path from the preference at the first SP or HTAB', () => {
    expect(split('/ai-ok/ train-ai=y')).toEqual(['/ai-ok/', 'train-ai=y']);
    expect(split('/a\ttrain-ai=n, search=y')).toEqual(['/a', 'train-ai=n, search=y']);
    expect(split('/*.pdf$ \t train-ai=n')).toEqual(['/*.pdf$', 'train-ai=n']);
  });

  // spec: draft-ietf-aipref-attach-05 §3.2: "a rule value that starts with any other character indicates that the path is absent".
  it('reads a value that does not start with "/" as all preference', () => {
    expect(split('train-ai=n')).toEqual(['', 'train-ai=n']);
    expect(split('*.pdf train-ai=n')).toEqual(['', '*.pdf train-ai=n']);
    expect(split('')).toEqual(['', '']);
  });

  // spec: draft-ietf-aipref-attach-05 §3 (ABNF: [ path-pattern 1*WS ] usage-pref): a path alone leaves an empty preference.
  it('a path with nothing after it leaves an empty preference', () => {
    expect(split('/private/')).toEqual(['/private/', '']);
    expect(split('/')).toEqual(['/', '']);
  });

  it('reads only bytes[start, end) of a larger buffer', () => {
    const line = 'Content-Usage: /a train-ai=n # note';
    const start = line.indexOf('/');
    const end = line.indexOf(' #');
    expect(split(line, start, end)).toEqual(['/a', 'train-ai=n']);
    expect(splitRuleValue(utf8(line), start, end)).toEqual({ pathEnd: start + 2, preferenceStart: start + 3 });
    expect(splitRuleValue(utf8(line), 5, 5)).toEqual({ pathEnd: 5, preferenceStart: 5 });
  });
});
