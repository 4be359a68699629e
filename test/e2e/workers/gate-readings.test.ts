/**
 * The example gate's path readings (examples/worker/src/readings.js), in Node: the other paths an origin
 * server may read for a request path, which the gate checks besides the WHATWG path itself. The gate
 * runs them inside workerd in test/e2e/workers/workers.test.ts; here each reading, its order and its switch are pinned.
 * The readings are those of common servers, not of RFC 9309, which matches the path as requested
 * (RFC 9309 §2.2.2); a path segment's `;` parameters are RFC 3986 §3.3's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_READINGS, pathReadings, readingsFromEnv } from '../../../examples/worker/src/readings.js';

const ALL_OFF = { decodeEncodedSlash: false, dropPathParameters: false, mergeSlashes: false, caseInsensitive: false };

describe('pathReadings: the paths an origin may read besides the one the URL standard reads', () => {
  it('a path that no reading changes has none', () => {
    for (const path of ['/', '/private/x', '/a/b.html', '/%C3%A9t%C3%A9', '/a%3Bb', '/a%2Eb']) {
      expect(pathReadings(path, DEFAULT_READINGS)).toEqual([]);
    }
  });

  it('an encoded slash or backslash, in either case, is read as a slash (and merged after)', () => {
    expect(pathReadings('/%2Fprivate', DEFAULT_READINGS)).toEqual(['//private', '/private']);
    expect(pathReadings('/a%2fb', DEFAULT_READINGS)).toEqual(['/a/b']);
    expect(pathReadings('/a%5Cb', DEFAULT_READINGS)).toEqual(['/a/b']);
    expect(pathReadings('/a%5cb', DEFAULT_READINGS)).toEqual(['/a/b']);
  });

  it('path parameters are dropped from every segment', () => {
    expect(pathReadings('/a;x=1/b;y', DEFAULT_READINGS)).toEqual(['/a/b']);
    expect(pathReadings('/private;jsessionid=1', DEFAULT_READINGS)).toEqual(['/private']);
    expect(pathReadings('/;x/private', DEFAULT_READINGS)).toEqual(['//private', '/private']);
  });

  it('runs of slashes are merged into one', () => {
    expect(pathReadings('//private/x', DEFAULT_READINGS)).toEqual(['/private/x']);
    expect(pathReadings('/a///b//c', DEFAULT_READINGS)).toEqual(['/a/b/c']);
  });

  it('the readings apply in order, each on top of the ones before, and each result is listed', () => {
    expect(pathReadings('//%2F;a/private', DEFAULT_READINGS)).toEqual(['///;a/private', '////private', '/private']);
  });

  it('dot segments a reading makes are resolved as the URL parser resolves them', () => {
    expect(pathReadings('/public/..%2Fprivate', DEFAULT_READINGS)).toEqual(['/private']);
    expect(pathReadings('/public/..;x/private', DEFAULT_READINGS)).toEqual(['/private']);
    expect(pathReadings('/robots.txt%2F..%2Fprivate', DEFAULT_READINGS)).toEqual(['/private']);
    expect(pathReadings('/public/%2E%2E%2Fprivate', DEFAULT_READINGS)).toEqual(['/private']);
  });

  it('each reading is switched off on its own', () => {
    expect(pathReadings('//%2F;a/private', { ...DEFAULT_READINGS, decodeEncodedSlash: false })).toEqual(['//%2F/private', '/%2F/private']);
    expect(pathReadings('//%2F;a/private', { ...DEFAULT_READINGS, dropPathParameters: false })).toEqual(['///;a/private', '/;a/private']);
    expect(pathReadings('//%2F;a/private', { ...DEFAULT_READINGS, mergeSlashes: false })).toEqual(['///;a/private', '////private']);
    expect(pathReadings('//%2F;a/private', ALL_OFF)).toEqual([]);
  });

  it('case-insensitive paths are read in lower case, every reading too', () => {
    const insensitive = { ...DEFAULT_READINGS, caseInsensitive: true };
    expect(pathReadings('/PRIVATE', insensitive)).toEqual([]);
    expect(pathReadings('//PRIVATE/X', insensitive)).toEqual(['/private/x']);
    expect(pathReadings('/%2FPrivate', insensitive)).toEqual(['//private', '/private']);
  });

  it('after every reading, reading again changes nothing (property)', () => {
    const pieces = ['/', '//', '%2F', '%2f', '%5C', '%5c', ';', ';x=1', '.', '..', '%2E', 'private', 'A', '%41', '%3B', '?'];
    const path = fc.array(fc.constantFrom(...pieces), { maxLength: 12 }).map((parts) => new URL(`http://h/${parts.join('')}`).pathname);
    fc.assert(
      fc.property(path, (pathname) => {
        const readings = pathReadings(pathname, DEFAULT_READINGS);
        const last = readings.at(-1) ?? pathname;
        expect(pathReadings(last, DEFAULT_READINGS)).toEqual([]);
        expect(last).not.toMatch(/\/\/|%2f|%5c|;/i);
        // Consecutive readings differ: nothing is asked twice in a row.
        [pathname, ...readings].forEach((reading, i, all) => i > 0 && expect(reading).not.toBe(all[i - 1]));
      }),
      { numRuns: 500 },
    );
  });
});

describe('readingsFromEnv: the switches in wrangler.toml', () => {
  it('every reading is on and case-insensitivity off when nothing is set', () => {
    expect(readingsFromEnv({})).toEqual(DEFAULT_READINGS);
    expect(DEFAULT_READINGS).toEqual({ decodeEncodedSlash: true, dropPathParameters: true, mergeSlashes: true, caseInsensitive: false });
    expect(readingsFromEnv({ MERGE_SLASHES: '' })).toEqual(DEFAULT_READINGS);
  });

  it('takes TOML booleans and the strings true and false in any case', () => {
    expect(
      readingsFromEnv({
        DECODE_ENCODED_SLASH: false,
        DROP_PATH_PARAMETERS: 'FALSE',
        MERGE_SLASHES: ' false ',
        CASE_INSENSITIVE_PATHS: 'True',
      }),
    ).toEqual({
      decodeEncodedSlash: false,
      dropPathParameters: false,
      mergeSlashes: false,
      caseInsensitive: true,
    });
  });

  it('refuses anything else, naming the variable, so that a typo switches nothing off', () => {
    expect(() => readingsFromEnv({ MERGE_SLASHES: 'no' })).toThrow(new TypeError('MERGE_SLASHES must be true or false'));
    expect(() => readingsFromEnv({ CASE_INSENSITIVE_PATHS: 1 })).toThrow(/CASE_INSENSITIVE_PATHS/);
  });
});
