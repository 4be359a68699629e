/**
 * How `robotstxt filter` reads a URL's host (src/cli/filter/host-name.ts) and names its robots.txt in a
 * --robots-dir / --save-dir folder, in this process. The host is read
 * as the WHATWG URL parser reads it (https://url.spec.whatwg.org/#host-parsing): the shortcut for plain
 * names must agree with the parser on every authority.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readAuthority, readVhost } from '../src/cli/filter/host-name.js';

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
