/**
 * A Content-Usage (or Content-Signal) rule's value split into its path and its statement of preference, as
 * draft-ietf-aipref-attach-05 §3.2 processes it: a path is present only when the value starts with "/", and then
 * it runs to the first SP or HTAB; the rest is the preference. Bytes, not text: the preference is a Structured
 * Fields Dictionary, read as bytes (draft-ietf-aipref-vocab-07 §6.3).
 */
import { SLASH, SPACE, TAB } from '../bytes.js';

/**
 * The value bytes[start, end) split: the path is bytes[start, pathEnd) (empty, pathEnd === start, when the value
 * does not start with "/"), the preference bytes[preferenceStart, end). The SP/HTAB run between the two belongs to
 * neither (draft-ietf-aipref-attach-05 §3: `[ path-pattern 1*WS ] usage-pref`).
 */
export function splitRuleValue(bytes: Uint8Array, start: number, end: number): { pathEnd: number; preferenceStart: number } {
  // A value that does not start with "/" has no path: all of it is the preference (attach-05 §3.2).
  if (start >= end || bytes[start] !== SLASH) return { pathEnd: start, preferenceStart: start };
  let pathEnd = start + 1;
  while (pathEnd < end && bytes[pathEnd] !== SPACE && bytes[pathEnd] !== TAB) pathEnd++;
  let preferenceStart = pathEnd;
  while (preferenceStart < end && (bytes[preferenceStart] === SPACE || bytes[preferenceStart] === TAB)) preferenceStart++;
  return { pathEnd, preferenceStart };
}
