/**
 * When a site that sheds load (429, 503) asks to be asked again: its `Retry-After` header, RFC 9110 §10.2.3.
 */
import type { HeaderSource } from './cache-control.js';
import { deltaSeconds } from './cache-control.js';

/**
 * Seconds from `now` (ms) until the time `Retry-After` names, either as delay-seconds or as an HTTP-date;
 * undefined when the header is absent or unreadable, 0 for a date in the past.
 */
export function retryAfterSeconds(headers: HeaderSource, now: number): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  const delay = deltaSeconds(value);
  if (delay !== undefined) return delay;
  // An HTTP-date ("Wed, 21 Oct 2026 07:28:00 GMT"); Date.parse reads IMF-fixdate and the obsolete forms.
  if (!/^[A-Za-z]{3}/.test(value)) return undefined;
  const at = Date.parse(value);
  if (!Number.isFinite(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}
