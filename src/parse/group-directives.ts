/**
 * Values of the non-standard directives that belong to a user-agent group: `Crawl-delay`,
 * `Request-rate` and `Visit-time`. Each parser takes the value already trimmed of whitespace and
 * comments and returns `undefined` for anything it does not recognise, so the caller can report
 * the line and otherwise ignore it.
 */

/** `requests` fetches per `seconds` seconds. */
export interface RequestRate {
  /** Fetches allowed per period. */
  readonly requests: number;
  /** The period, in seconds. */
  readonly seconds: number;
}

/** A daily window in UTC, as `"HH:MM"`; `from` later than `to` means the window wraps past midnight. */
export interface VisitTime {
  /** Start of the window, `"HH:MM"` (UTC). */
  readonly from: string;
  /** End of the window, `"HH:MM"` (UTC). */
  readonly to: string;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/**
 * Whether the `length` characters that `codeAt` gives are a plain decimal (`10`, `0.5`, `5.`, `.5`): signs,
 * exponents, units and commas are rejected rather than guessed at, because `Number()` would silently
 * accept forms ("1e3", "0x10", " 5") that no crawler documents. Reads a string or a value's bytes alike,
 * so that a group's repeated Crawl-delay lines are checked without being decoded.
 */
export function isPlainDecimal(length: number, codeAt: (index: number) => number): boolean {
  let digits = 0;
  let i = 0;
  while (i < length && isDigit(codeAt(i))) i++;
  digits += i;
  if (i < length && codeAt(i) === 0x2e) {
    const fraction = ++i;
    while (i < length && isDigit(codeAt(i))) i++;
    digits += i - fraction;
  }
  return i === length && digits > 0;
}

/**
 * Seconds to wait between fetches; fractional values are allowed, as Yandex documents.
 *
 * @example parseCrawlDelay('0.5') // 0.5
 * @example parseCrawlDelay('10s') // undefined
 */
export function parseCrawlDelay(value: string): number | undefined {
  if (!isPlainDecimal(value.length, (i) => value.charCodeAt(i))) return undefined;
  const seconds = Number(value);
  // A long enough run of digits overflows to Infinity, which is no delay a crawler can honour.
  return Number.isFinite(seconds) ? seconds : undefined;
}

const RATE = /^(\d+)\/(\d+)([smh]?)$/i;
const UNIT_SECONDS: Readonly<Record<string, number>> = { '': 1, s: 1, m: 60, h: 3600 };

function positiveInteger(digits: string): number | undefined {
  const n = Number(digits);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/**
 * `n/T`: at most `n` requests every `T` seconds, where `T` may carry a unit `s`, `m` or `h`.
 *
 * @example parseRequestRate('3/1m') // { requests: 3, seconds: 60 }
 * @example parseRequestRate('1/0')  // undefined
 */
export function parseRequestRate(value: string): RequestRate | undefined {
  const match = RATE.exec(value);
  if (match === null) return undefined;
  const [, requestDigits = '', periodDigits = '', unit = ''] = match;
  const requests = positiveInteger(requestDigits);
  const period = positiveInteger(periodDigits);
  const unitSeconds = UNIT_SECONDS[unit.toLowerCase()];
  if (requests === undefined || period === undefined || unitSeconds === undefined) return undefined;
  const seconds = period * unitSeconds;
  // Checked after scaling: a period that fits before the unit is applied may not fit after.
  return Number.isSafeInteger(seconds) ? { requests, seconds } : undefined;
}

// Each side may be written `HHMM` or `HH:MM` on its own; mixing them costs nothing to accept.
const WINDOW = /^(\d\d):?(\d\d)-(\d\d):?(\d\d)$/;

function clockTime(hours: string, minutes: string): string | undefined {
  if (Number(hours) > 23 || Number(minutes) > 59) return undefined;
  return `${hours}:${minutes}`;
}

/**
 * A daily window `HHMM-HHMM` (or `HH:MM-HH:MM`), in UTC.
 *
 * @example parseVisitTime('0600-0845') // { from: '06:00', to: '08:45' }
 * @example parseVisitTime('2400-0100') // undefined
 */
export function parseVisitTime(value: string): VisitTime | undefined {
  const match = WINDOW.exec(value);
  if (match === null) return undefined;
  const [, fromHours = '', fromMinutes = '', toHours = '', toMinutes = ''] = match;
  const from = clockTime(fromHours, fromMinutes);
  const to = clockTime(toHours, toMinutes);
  return from === undefined || to === undefined ? undefined : { from, to };
}
