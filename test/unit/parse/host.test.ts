import { describe, it, expect } from 'vitest';
import { parseHost } from '../../../src/parse/host.js';

describe('parseHost', () => {
  // spec: Yandex's robots.txt docs (https://yandex.com/support/webmaster/controlling-robot/robots-txt.html), "Host directive" (one domain name, as in "Host: www.example.com")
  it('reads a domain name', () => {
    expect(parseHost('www.example.com')).toBe('www.example.com');
    expect(parseHost('example.com')).toBe('example.com');
    expect(parseHost('my-host.example.co.uk')).toBe('my-host.example.co.uk');
  });

  // spec: Yandex's robots.txt docs, "Host directive" (domain names per RFC 952, which ignores case)
  it('lower-cases the host name', () => {
    expect(parseHost('WWW.Example.COM')).toBe('www.example.com');
  });

  // spec: Yandex's robots.txt docs, "Host directive" ("the domain name with the port number ..., separated by a colon")
  it('keeps a port', () => {
    expect(parseHost('Example.COM:8080')).toBe('example.com:8080');
    expect(parseHost('example.com:1')).toBe('example.com:1');
    expect(parseHost('example.com:65535')).toBe('example.com:65535');
  });

  // spec: Yandex's robots.txt docs, "Host directive" ("the port number (80 by default)")
  it('drops a default port, which says nothing', () => {
    expect(parseHost('example.com:80')).toBe('example.com');
    expect(parseHost('https://example.com:443')).toBe('https://example.com');
    expect(parseHost('https://example.com:80')).toBe('https://example.com:80');
    expect(parseHost('example.com:443')).toBe('example.com:443');
  });

  // spec: Yandex's robots.txt docs, "Host directive" ("The port number, if necessary")
  it('rejects a port out of range or not a number', () => {
    for (const value of [
      'example.com:0',
      'example.com:65536',
      'example.com:100000',
      'example.com:',
      'example.com:8o',
      'example.com:-1',
      'example.com:80:80',
    ]) {
      expect(parseHost(value), value).toBeUndefined();
    }
  });

  // spec: Yandex's robots.txt docs, "Host directive" ("The HTTPS protocol if the mirror is available only over a secure channel")
  it('keeps an https:// prefix, in lower case', () => {
    expect(parseHost('https://example.com')).toBe('https://example.com');
    expect(parseHost('HTTPS://Example.com:8443')).toBe('https://example.com:8443');
  });

  // spec: Yandex's robots.txt docs, "Host directive" ("If you use the HTTP protocol, there is no need to indicate it.")
  it('drops an http:// prefix', () => {
    expect(parseHost('http://example.com')).toBe('example.com');
    expect(parseHost('HTTP://example.com:8080')).toBe('example.com:8080');
  });

  // spec: Yandex's robots.txt docs, "Host directive" ("One valid domain name")
  it('rejects other schemes', () => {
    expect(parseHost('ftp://example.com')).toBeUndefined();
    expect(parseHost('https:/example.com')).toBeUndefined();
    expect(parseHost('//example.com')).toBeUndefined();
    expect(parseHost('https://')).toBeUndefined();
  });

  // spec: Yandex's robots.txt docs, "Host directive" ("Host: www.myhost-.comHost: www.-myhost.comHost: www.my_host.com" ignored)
  it('rejects the malformed names Yandex lists as ignored', () => {
    expect(parseHost('www.myhost-.com')).toBeUndefined();
    expect(parseHost('www.-myhost.com')).toBeUndefined();
    expect(parseHost('www.my_host.com')).toBeUndefined();
    expect(parseHost('-bad-.com')).toBeUndefined();
  });

  // spec: Yandex's robots.txt docs, "Host directive" ("An incorrectly formed Host directive is ignored.")
  it('rejects a path, a query, a fragment, credentials or a trailing slash', () => {
    for (const value of [
      'example.com/path',
      'example.com/',
      'https://example.com/',
      'example.com:8080/',
      'example.com?x=1',
      'example.com#top',
      'user@example.com',
      'example.com\\a',
    ]) {
      expect(parseHost(value), value).toBeUndefined();
    }
  });

  // spec: Yandex's robots.txt docs, "Host directive" ("One valid domain name that conforms to RFC 952")
  it('rejects spaces, lists and empty labels', () => {
    for (const value of [
      'exa mple.com',
      'a.com b.com',
      'a.com,b.com',
      '.example.com',
      'example.com.',
      'example..com',
      'exa%41mple.com',
      '*.example.com',
    ]) {
      expect(parseHost(value), value).toBeUndefined();
    }
  });

  // spec: Yandex's robots.txt docs, "Host directive" ("One valid domain name")
  it('rejects labels longer than 63 characters and names longer than 253', () => {
    const label63 = 'a'.repeat(63);
    expect(parseHost(`${label63}.com`)).toBe(`${label63}.com`);
    expect(parseHost(`${label63}a.com`)).toBeUndefined();
    const name253 = `${[label63, label63, label63].join('.')}.${'b'.repeat(61)}`;
    expect(name253).toHaveLength(253);
    expect(parseHost(name253)).toBe(name253);
    expect(parseHost(`${name253}c`)).toBeUndefined();
  });

  // spec: Yandex's robots.txt docs, "Host directive" ("One valid domain name that conforms to RFC 952 and is not an IP address")
  it('rejects IP addresses, in any of the forms URL parsers read as one', () => {
    for (const value of [
      '213.180.194.129',
      '127.0.0.1:8080',
      'https://10.0.0.1',
      '1.2.3',
      '0x7f.1',
      'example.0x10',
      'example.123',
      '[::1]',
      '[::1]:80',
    ]) {
      expect(parseHost(value), value).toBeUndefined();
    }
  });

  // spec: Yandex's robots.txt docs, "Host directive" (RFC 952 names: letters, digits and hyphens)
  it('accepts digits and inner hyphens in labels', () => {
    expect(parseHost('123.example.com')).toBe('123.example.com');
    expect(parseHost('a--b.example.com')).toBe('a--b.example.com');
    expect(parseHost('example.c0m')).toBe('example.c0m');
  });

  // spec: Yandex's robots.txt docs, "Using Cyrillic characters" ("For domain names, use Punycode", "Host: xn----8sbalhasbh9ahbi6a2ae.xn--p1ai")
  it('keeps a punycode name as written', () => {
    expect(parseHost('xn----8sbalhasbh9ahbi6a2ae.xn--p1ai')).toBe('xn----8sbalhasbh9ahbi6a2ae.xn--p1ai');
  });

  // spec: Yandex's robots.txt docs, "Using Cyrillic characters" ("For domain names, use Punycode")
  it('converts an internationalized name to punycode', () => {
    expect(parseHost('пример.рф')).toBe('xn--e1afmkfd.xn--p1ai');
    expect(parseHost('https://ПРИМЕР.РФ:8080')).toBe('https://xn--e1afmkfd.xn--p1ai:8080');
  });

  // spec: Yandex's robots.txt docs, "Using Cyrillic characters" ("For domain names, use Punycode")
  it('rejects a punycode label that does not decode', () => {
    expect(parseHost('xn--a.com')).toBeUndefined();
  });

  // spec: Yandex's robots.txt docs, "Host directive" ("An incorrectly formed Host directive is ignored.")
  it('rejects non-ASCII forms that would map to an address, a delimiter or a trailing dot', () => {
    expect(parseHost('１２７.０.０.１')).toBeUndefined();
    expect(parseHost('пример／path.рф')).toBeUndefined();
    expect(parseHost('пример.рф。')).toBeUndefined();
    expect(parseHost('пример.рф/')).toBeUndefined();
    expect(parseHost('при мер.рф')).toBeUndefined();
  });

  // spec: Yandex's robots.txt docs, "Host directive" ("An incorrectly formed Host directive is ignored.")
  it('rejects empty, binary and oversized values quickly without throwing', () => {
    expect(parseHost('')).toBeUndefined();
    expect(parseHost('\u0000\uFFFD')).toBeUndefined();
    expect(parseHost('\uFFFD')).toBeUndefined();
    expect(parseHost('\uD800.com')).toBeUndefined();
    const started = performance.now();
    expect(parseHost('a'.repeat(1 << 20))).toBeUndefined();
    expect(parseHost(`${'ж'.repeat(1 << 20)}.com`)).toBeUndefined();
    expect(parseHost(`example.com:${'1'.repeat(1 << 20)}`)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(500);
  });
});
