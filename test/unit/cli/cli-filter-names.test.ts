/**
 * How `robotstxt filter` reads a URL's host (src/cli/filter/host-name.ts) and names its robots.txt in a
 * --robots-dir / --save-dir folder (src/cli/filter/robots-file-name.ts), in this process. The host is read
 * as the WHATWG URL parser reads it (https://url.spec.whatwg.org/#host-parsing): the shortcut for plain
 * names must agree with the parser on every authority. The file name must be one every file system takes
 * (https://learn.microsoft.com/en-us/windows/win32/fileio/naming-a-file) and never the same for two hosts.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readAuthority, readVhost } from '../../../src/cli/filter/host-name.js';
import { robotsFileName } from '../../../src/cli/filter/robots-file-name.js';

/** The reading the URL parser alone gives an authority: what readAuthority must give, shortcut or not. */
function parsed(authority: string, secure: boolean): { key: string; defaultPort: string | undefined; origin: string } | undefined {
  if (/[\u0000-\u0020\u007f/?#\\@]/.test(authority)) return undefined;
  let url: URL;
  try {
    url = new URL(`${secure ? 'https' : 'http'}://${authority}/`);
  } catch {
    return undefined;
  }
  if (url.hostname === '.') return undefined;
  const host = url.hostname.replace(/(?<=[^.])\.$/, '');
  return {
    key: url.port === '' ? host : `${host}_${url.port}`,
    defaultPort: url.port === '' ? (secure ? '443' : '80') : undefined,
    origin: `${url.protocol}//${host}${url.port === '' ? '' : `:${url.port}`}`,
  };
}

describe('a host is read as the URL parser reads it', () => {
  it.each([
    ['Example.COM:8080', false, 'example.com_8080', undefined, 'http://example.com:8080'],
    ['example.com.', false, 'example.com', '80', 'http://example.com'],
    ['a.9..', false, 'a.9..', '80', 'http://a.9..'],
    ['..', false, '..', '80', 'http://..'],
    ['example.com:443', true, 'example.com', '443', 'https://example.com'],
    ['example.com:443', false, 'example.com_443', undefined, 'http://example.com:443'],
    ['h:000080', false, 'h', '80', 'http://h'],
    ['%65xample.com', false, 'example.com', '80', 'http://example.com'],
    ['bücher.de', true, 'xn--bcher-kva.de', '443', 'https://xn--bcher-kva.de'],
    ['XN--BCHER-KVA.de', false, 'xn--bcher-kva.de', '80', 'http://xn--bcher-kva.de'],
    ['\u212aelvin.example', false, 'kelvin.example', '80', 'http://kelvin.example'],
    ['0x7f.1', false, '127.0.0.1', '80', 'http://127.0.0.1'],
    ['[::1]:8443', true, '[::1]_8443', undefined, 'https://[::1]:8443'],
    ['a*b', false, 'a*b', '80', 'http://a*b'],
  ])('%s (https: %s) is %s', (authority, secure, key, defaultPort, origin) => {
    expect(readAuthority(authority, secure)).toEqual({ key, defaultPort, origin });
  });

  it.each([
    'a%2Fb',
    '256.1.1.1',
    'a<b',
    '[::1',
    'xn--a',
    'h:65536',
    'h:8080:90',
    'a.1',
    'a.9.',
    '',
    '.',
    '%2e',
    '[fe80::1%25eth0]',
    'a b',
    'a/b',
  ])('%j is no host', (authority) => {
    expect(readAuthority(authority, false)).toBeUndefined();
  });

  it('agrees with the URL parser on every authority, plain names (the shortcut) and others alike', () => {
    const unit = fc.constantFrom(
      ...'abzAZ09-_.'.split(''),
      '.',
      '-',
      'xn--',
      'XN--',
      '0x',
      ':',
      ':80',
      ':443',
      '%',
      '%41',
      'é',
      '\u212a',
      '[',
      ']',
      '::1',
      '*',
      '~',
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 12 }), fc.boolean(), (authority, secure) => {
        const reading = readAuthority(authority, secure);
        expect(reading).toEqual(parsed(authority, secure));
        // What is fetched is that host: the origin reads back as itself.
        if (reading !== undefined) expect(new URL(reading.origin).origin).toBe(reading.origin);
      }),
      { seed: 0x6f5e, numRuns: 20_000 },
    );
  });

  it('an access log vhost names its server port: 443 is https, any other port http', () => {
    expect(readVhost('Example.com:443')).toEqual({ key: 'example.com', defaultPort: '443', origin: 'https://example.com' });
    expect(readVhost('example.com:80')).toEqual({ key: 'example.com', defaultPort: '80', origin: 'http://example.com' });
    expect(readVhost('example.com:8443')).toEqual({ key: 'example.com_8443', defaultPort: undefined, origin: 'http://example.com:8443' });
    expect(readVhost('a/b')).toBeUndefined();
  });
});

describe('a host’s file name', () => {
  it.each(['example.com', 'example.com_8080', 'xn--bcher-kva.de', '127.0.0.1', 'a_b-c.d', 'console.example', 'com10', 'x'.repeat(200)])(
    '%s, already safe, is its own name',
    (key) => {
      expect(robotsFileName(key)).toBe(key);
    },
  );

  it.each([
    ['[::1]_8080', '%5b%3a%3a1%5d_8080'],
    ['a*b', 'a%2ab'],
    ['a"b<c>d|e?f\\g/h', 'a%22b%3cc%3ed%7ce%3ff%5cg%2fh'],
    ['nul.example', '%6eul.example'],
    ['con', '%63on'],
    ['aux_8080', 'aux_8080'],
    ['com1.example_80', '%63om1.example_80'],
    ['lpt9', '%6cpt9'],
    ['example.com.', 'example.com%2e'],
    ['.', '%2e'],
    ['..', '.%2e'],
    ['a%41', 'a%2541'],
    ['Ab', '%41b'],
    ['é\u0001', '%c3%a9%01'],
  ])('%j is named %j', (key, name) => {
    expect(robotsFileName(key)).toBe(name);
  });

  it('past 200 bytes: the first 182 (never half an escape), `%%` and 16 hex digits of the SHA-256 of the key', () => {
    const key = `${'a'.repeat(250)}_8080`;
    expect(robotsFileName(key)).toBe(`${'a'.repeat(182)}%%${createHash('sha256').update(key).digest('hex').slice(0, 16)}`);
    // An escape that would be cut is left out whole.
    expect(robotsFileName(`${'a'.repeat(181)}:${'b'.repeat(30)}`)).toMatch(/^a{181}%%[0-9a-f]{16}$/);
    expect(robotsFileName(`${'a'.repeat(180)}:${'b'.repeat(30)}`)).toMatch(/^a{180}%%[0-9a-f]{16}$/);
  });

  it('is one every file system takes, and never the same for two hosts', () => {
    const unit = fc.constantFrom(
      'a',
      'b',
      '0',
      '.',
      '-',
      '_',
      ':',
      '[',
      ']',
      '*',
      '%',
      'é',
      'A',
      '\u0000',
      ' ',
      'con',
      'nul.',
      'com1',
      'x'.repeat(40),
    );
    const keys = fc.sample(fc.string({ unit, maxLength: 14 }), { seed: 0x5afe, numRuns: 20_000 });
    const named = new Map<string, string>();
    for (const key of keys) {
      const name = robotsFileName(key);
      expect(name.length, key).toBeLessThanOrEqual(200);
      expect(name, key).toMatch(/^[a-z0-9._%-]*$/);
      expect(name, key).not.toMatch(/^(?:con|prn|aux|nul|com\d|lpt\d)(?:\.|$)|\.$/i);
      if (key !== '') expect(name).not.toBe('');
      const before = named.get(name);
      if (before !== undefined) expect(before).toBe(key);
      named.set(name, key);
    }
  });
});
