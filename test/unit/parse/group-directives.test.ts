import { describe, it, expect } from 'vitest';
import { parseCrawlDelay, parseRequestRate, parseVisitTime } from '../../../src/parse/group-directives.js';

const ONE_MEGABYTE_OF_DIGITS = '9'.repeat(1 << 20);
const GARBAGE = '\u0000\uFFFD';

describe('parseCrawlDelay', () => {
  // spec: Yandex's robots.txt docs (https://yandex.com/support/webmaster/controlling-robot/robots-txt.html), "The Crawl-delay directive" ("the minimum interval (in seconds)")
  it('reads a whole number of seconds', () => {
    expect(parseCrawlDelay('10')).toBe(10);
    expect(parseCrawlDelay('2')).toBe(2);
    expect(parseCrawlDelay('0')).toBe(0);
  });

  // spec: Yandex's robots.txt docs, "The Crawl-delay directive" ("supports fractional values ... such as "0.5"")
  it('reads a fractional crawl-delay', () => {
    expect(parseCrawlDelay('0.5')).toBe(0.5);
    expect(parseCrawlDelay('4.5')).toBe(4.5);
    expect(parseCrawlDelay('1.5')).toBe(1.5);
  });

  // spec: Yandex's robots.txt docs, "The Crawl-delay directive" (fractional values)
  it('reads a fraction written without its leading zero or with a trailing dot', () => {
    expect(parseCrawlDelay('.5')).toBe(0.5);
    expect(parseCrawlDelay('5.')).toBe(5);
  });

  // spec: Yandex's robots.txt docs, "The Crawl-delay directive" (a number of seconds)
  it('rejects anything that is not a plain decimal number', () => {
    for (const value of ['-1', '+1', '10s', '1e3', '0x10', 'NaN', 'Infinity', '1,5', '1.2.3', '.', '1 2', 'abc']) {
      expect(parseCrawlDelay(value), value).toBeUndefined();
    }
  });

  // spec: Yandex's robots.txt docs, "The Crawl-delay directive" ("the minimum interval (in seconds)")
  it('rejects empty, binary and oversized values without throwing', () => {
    expect(parseCrawlDelay('')).toBeUndefined();
    expect(parseCrawlDelay(GARBAGE)).toBeUndefined();
    expect(parseCrawlDelay(ONE_MEGABYTE_OF_DIGITS)).toBeUndefined();
    expect(parseCrawlDelay(`1${'x'.repeat(1 << 20)}`)).toBeUndefined();
  });
});

describe('parseRequestRate', () => {
  // spec: none (Request-rate is in no spec text); the project's own "n/T[s|m|h]" form
  it('reads requests per seconds', () => {
    expect(parseRequestRate('1/5')).toEqual({ requests: 1, seconds: 5 });
    expect(parseRequestRate('1/10s')).toEqual({ requests: 1, seconds: 10 });
  });

  // spec: none (Request-rate is in no spec text); the project's own "n/T[s|m|h]" form
  it('scales minutes and hours to seconds, whatever the case of the unit', () => {
    expect(parseRequestRate('3/1m')).toEqual({ requests: 3, seconds: 60 });
    expect(parseRequestRate('1/1h')).toEqual({ requests: 1, seconds: 3600 });
    expect(parseRequestRate('2/3M')).toEqual({ requests: 2, seconds: 180 });
    expect(parseRequestRate('1/5S')).toEqual({ requests: 1, seconds: 5 });
  });

  // spec: none (Request-rate is in no spec text); the project's own "n/T[s|m|h]" form
  it('rejects zero, fractions, signs, other units and other shapes', () => {
    for (const value of [
      '0/5',
      '1/0',
      '1/0m',
      '1.5/5',
      '1/2.5',
      '-1/5',
      '1/-5',
      '1/5d',
      '1/5ms',
      '1/',
      '/5',
      '5',
      '1 / 5',
      '1/5/5',
      'a/b',
    ]) {
      expect(parseRequestRate(value), value).toBeUndefined();
    }
  });

  // spec: none (Request-rate is in no spec text); the project's own "n/T[s|m|h]" form
  it('rejects numbers too large to hold exactly, before or after scaling', () => {
    expect(parseRequestRate(`${'9'.repeat(20)}/1`)).toBeUndefined();
    expect(parseRequestRate(`1/${Number.MAX_SAFE_INTEGER}h`)).toBeUndefined();
  });

  // spec: none (Request-rate is in no spec text); the project's own "n/T[s|m|h]" form
  it('rejects empty, binary and oversized values without throwing', () => {
    expect(parseRequestRate('')).toBeUndefined();
    expect(parseRequestRate(GARBAGE)).toBeUndefined();
    expect(parseRequestRate(`1/${ONE_MEGABYTE_OF_DIGITS}`)).toBeUndefined();
    expect(parseRequestRate(ONE_MEGABYTE_OF_DIGITS)).toBeUndefined();
  });
});

describe('parseVisitTime', () => {
  // spec: none (Visit-time is in no spec text); the project's own "HHMM-HHMM" UTC form
  it('reads an HHMM-HHMM window', () => {
    expect(parseVisitTime('0600-0845')).toEqual({ from: '06:00', to: '08:45' });
    expect(parseVisitTime('0000-2359')).toEqual({ from: '00:00', to: '23:59' });
  });

  // spec: none (Visit-time is in no spec text); the project's own "HHMM-HHMM" UTC form
  it('reads a window written with colons, on either side', () => {
    expect(parseVisitTime('06:00-08:45')).toEqual({ from: '06:00', to: '08:45' });
    expect(parseVisitTime('06:00-0845')).toEqual({ from: '06:00', to: '08:45' });
  });

  // spec: none (Visit-time is in no spec text); the project's own "HHMM-HHMM" UTC form
  it('keeps a window that wraps past midnight', () => {
    expect(parseVisitTime('2200-0600')).toEqual({ from: '22:00', to: '06:00' });
  });

  // spec: none (Visit-time is in no spec text); the project's own "HHMM-HHMM" UTC form
  it('rejects hours past 23 and minutes past 59', () => {
    expect(parseVisitTime('2400-0100')).toBeUndefined();
    expect(parseVisitTime('0100-2400')).toBeUndefined();
    expect(parseVisitTime('0060-0100')).toBeUndefined();
    expect(parseVisitTime('0100-0199')).toBeUndefined();
  });

  // spec: none (Visit-time is in no spec text); the project's own "HHMM-HHMM" UTC form
  it('rejects other shapes', () => {
    for (const value of [
      '600-845',
      '0600',
      '0600-',
      '06-08',
      '0600 - 0845',
      '06000-0845',
      '0600–0845',
      '6:00-8:45',
      '0600-0845Z',
      '06:0-08:45',
    ]) {
      expect(parseVisitTime(value), value).toBeUndefined();
    }
  });

  // spec: none (Visit-time is in no spec text); the project's own "HHMM-HHMM" UTC form
  it('rejects empty, binary and oversized values without throwing', () => {
    expect(parseVisitTime('')).toBeUndefined();
    expect(parseVisitTime(GARBAGE)).toBeUndefined();
    expect(parseVisitTime(ONE_MEGABYTE_OF_DIGITS)).toBeUndefined();
    expect(parseVisitTime(`0600-0845${'0'.repeat(1 << 20)}`)).toBeUndefined();
  });
});
