/**
 * The host policy (src/fetch/host-policy.ts): which hosts publicHostsOnly refuses as written, which
 * addresses isPublicAddress refuses as resolved, and the CIDR ranges the command's --allow-network reads.
 * Ranges: the IANA IPv4 and IPv6 special-purpose address registries; URL forms: the WHATWG URL parser.
 */
import { parse as legacyParse } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { networkContains, parseAddress, parseNetwork } from '../../../src/fetch/host-policy.js';
import { HostRefusedError, isPublicAddress, publicHostsOnly, type URLInput } from '../../../src/platform/inline.js';

describe('publicHostsOnly: IPv4 literals', () => {
  it.each([
    ['http://127.0.0.1/', 'loopback'],
    ['http://127.255.0.9:8080/', 'loopback, any address of 127/8'],
    ['http://0.0.0.0/', '"this network": reaches the local host on Linux'],
    ['http://10.0.0.1/', 'private 10/8'],
    ['http://172.16.0.1/', 'private 172.16/12, first block'],
    ['http://172.31.255.254/', 'private 172.16/12, last block'],
    ['http://192.168.1.1/', 'private 192.168/16'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local: the metadata endpoint'],
    ['http://169.254.170.2/v2/credentials', 'link-local: ECS task credentials'],
    ['http://100.64.0.1/', 'CGNAT 100.64/10'],
    ['http://100.100.100.200/', "CGNAT: Alibaba Cloud's metadata"],
    ['http://192.0.0.192/', "IETF protocol assignments: Oracle Cloud's metadata"],
    ['http://168.63.129.16/', "Azure's platform address"],
    ['http://224.0.0.1/', 'multicast'],
    ['http://255.255.255.255/', 'broadcast'],
    ['http://240.0.0.1/', 'reserved'],
    ['http://198.18.0.1/', 'benchmarking'],
    ['http://192.0.2.1/', 'documentation'],
  ])('%s is refused (%s)', (url) => {
    expect(publicHostsOnly(url)).toBe(false);
    expect(publicHostsOnly(new URL(url))).toBe(false);
  });

  it.each([
    ['http://93.184.215.14/', 'a public address'],
    ['http://8.8.8.8/', 'a public address'],
    ['http://172.15.255.255/', 'just below 172.16/12'],
    ['http://172.32.0.1/', 'just above 172.16/12'],
    ['http://100.63.255.255/', 'just below 100.64/10'],
    ['http://100.128.0.1/', 'just above 100.64/10'],
    ['http://169.253.255.255/', 'just below 169.254/16'],
    ['http://11.0.0.1/', 'just above 10/8'],
    ['http://168.63.129.17/', "next to Azure's platform address"],
  ])('%s is allowed (%s)', (url) => {
    expect(publicHostsOnly(url)).toBe(true);
  });

  // The WHATWG URL parser reads these as IPv4 addresses, as fetch() connects to them.
  it.each([
    ['http://2130706433/', '127.0.0.1 in decimal'],
    ['http://0x7f000001/', '127.0.0.1 in hex'],
    ['http://0177.0.0.1/', '127.0.0.1 with an octal part'],
    ['http://0x7f.1/', '127.0.0.1 with two parts'],
    ['http://127.1/', '127.0.0.1 with two parts'],
    ['http://2852039166/', '169.254.169.254 in decimal'],
    ['http://0251.0376.0251.0376/', '169.254.169.254 in octal'],
    ['http://0xa9.0xfe.0xa9.0xfe/', '169.254.169.254 in hex parts'],
    ['http://012.0.0.1/', '10.0.0.1 with an octal part'],
    ['http://0/', '0.0.0.0'],
  ])('%s is refused (%s)', (url) => {
    expect(publicHostsOnly(url)).toBe(false);
  });
});

describe('publicHostsOnly: IPv6 literals', () => {
  it.each([
    ['http://[::1]/', 'loopback'],
    ['http://[::]/', 'unspecified'],
    ['http://[0:0:0:0:0:0:0:1]:8080/', 'loopback, written in full'],
    ['http://[fc00::1]/', 'unique local fc00::/7'],
    ['http://[fd00:ec2::254]/', "unique local: AWS's IPv6 metadata endpoint"],
    ['http://[fe80::1]/', 'link-local'],
    ['http://[febf::1]/', 'link-local, last block of fe80::/10'],
    ['http://[fec0::1]/', 'site-local'],
    ['http://[ff02::1]/', 'multicast'],
    ['http://[2001:db8::1]/', 'documentation'],
    ['http://[100::1]/', 'discard-only'],
    ['http://[2001::1]/', 'Teredo, in the IETF protocol assignments'],
    ['http://[::ffff:127.0.0.1]/', 'IPv4-mapped loopback (the parser writes [::ffff:7f00:1])'],
    ['http://[::ffff:7f00:1]/', 'IPv4-mapped loopback, hex form'],
    ['http://[::ffff:169.254.169.254]/', 'IPv4-mapped metadata endpoint'],
    ['http://[::ffff:a9fe:a9fe]/', 'IPv4-mapped metadata endpoint, hex form'],
    ['http://[::ffff:10.0.0.1]/', 'IPv4-mapped private'],
    ['http://[::127.0.0.1]/', 'IPv4-compatible (deprecated)'],
    ['http://[::a00:1]/', 'IPv4-compatible 10.0.0.1'],
    ['http://[64:ff9b::a9fe:a9fe]/', 'NAT64 to the metadata endpoint'],
    ['http://[64:ff9b::10.0.0.1]/', 'NAT64 to a private address'],
    ['http://[64:ff9b:1::1]/', 'local-use NAT64'],
    ['http://[2002:7f00:1::]/', '6to4 of 127.0.0.1'],
    ['http://[2002:a9fe:a9fe::1]/', '6to4 of the metadata endpoint'],
    ['http://[::ffff:0:a00:1]/', 'IPv4-translated 10.0.0.1'],
  ])('%s is refused (%s)', (url) => {
    expect(publicHostsOnly(url)).toBe(false);
  });

  it('the URL parser writes IPv4-mapped addresses in hex: both forms are one host', () => {
    expect(new URL('http://[::ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]');
  });

  it.each([
    ['http://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/', 'a public address'],
    ['http://[2001:4860:4860::8888]/', 'a public address outside 2001::/23'],
    ['http://[::ffff:93.184.215.14]/', 'IPv4-mapped public'],
    ['http://[64:ff9b::5db8:d70e]/', 'NAT64 to a public address'],
    ['http://[2002:5db8:d70e::1]/', '6to4 of a public address'],
    ['http://[fbff::1]/', 'just below fc00::/7'],
  ])('%s is allowed (%s)', (url) => {
    expect(publicHostsOnly(url)).toBe(true);
  });
});

describe('publicHostsOnly: names', () => {
  it.each([
    ['http://localhost/', 'localhost'],
    ['http://LOCALHOST:8080/', 'localhost in capitals'],
    ['http://localhost./', 'localhost with the root dot'],
    ['http://app.localhost/', '.localhost (RFC 6761)'],
    ['http://metadata.google.internal/computeMetadata/v1/', "Google Cloud's metadata"],
    ['http://metadata.google.internal./', "Google Cloud's metadata with the root dot"],
    ['http://metadata/computeMetadata/v1/', "Google Cloud's metadata, short name"],
    ['http://instance-data/latest/meta-data/', "AWS's metadata, short name"],
    ['http://instance-data.ec2.internal/latest/', "AWS's metadata"],
    ['http://metadata.tencentyun.com/latest/meta-data/', "Tencent Cloud's metadata"],
    ['http://printer.local/', 'multicast DNS'],
    ['http://nas.home.arpa/', 'residential networks (RFC 8375)'],
    ['http://intranet/', 'one label: only the search domains complete it'],
    ['http://redis:6379/', 'one label: a service name'],
  ])('%s is refused (%s)', (url) => {
    expect(publicHostsOnly(url)).toBe(false);
  });

  it.each([
    'https://example.com/',
    'https://www.example.co.uk/page',
    'https://localhost.example.com/',
    'https://internal.example.com/',
    'https://metadata.example.com/',
    'https://xn--mnchen-3ya.de/',
    'https://example.com./',
  ])('%s is allowed', (url) => {
    expect(publicHostsOnly(url)).toBe(true);
  });

  it('refuses what it cannot read: a string that is no URL, a URL without a host, a value that is no URL', () => {
    expect(publicHostsOnly('not a url')).toBe(false);
    expect(publicHostsOnly('file:///etc/passwd')).toBe(false);
    // @ts-expect-error: a JavaScript caller may pass anything
    expect(publicHostsOnly(42)).toBe(false);
  });
});

describe('publicHostsOnly: names only a private resolver answers', () => {
  it.each([
    ['http://localhost.localdomain/', '/etc/hosts of RHEL, Fedora and Amazon Linux: 127.0.0.1 and ::1'],
    ['http://localhost4.localdomain4/', '/etc/hosts of RHEL, Fedora and Amazon Linux: 127.0.0.1'],
    ['http://localhost6.localdomain6/', '/etc/hosts of RHEL, Fedora and Amazon Linux: ::1'],
    ['http://localhost.localdomain./', 'the same with the root dot'],
    ['http://kubernetes.default.svc/', "Kubernetes' API server: a pod's search domains complete .svc"],
    ['http://redis.cache.svc./', 'a Kubernetes service, with the root dot'],
    ['http://app.test/', 'RFC 6761 §6.2: development resolvers point .test at the machine'],
    ['http://router.lan/', 'RFC 6762 Appendix G: in use on private networks'],
    ['http://nas.home/', 'RFC 6762 Appendix G'],
    ['http://mail.corp/', 'RFC 6762 Appendix G'],
    ['http://wiki.intranet/', 'RFC 6762 Appendix G'],
    ['http://db.private/', 'RFC 6762 Appendix G'],
  ])('%s is refused (%s)', (url) => {
    expect(publicHostsOnly(url)).toBe(false);
    expect(publicHostsOnly(new URL(url))).toBe(false);
  });

  // The URL parser keeps every dot; a resolver may answer such a name from /etc/hosts (RHEL answered localhost..).
  it.each([
    ['http://localhost../', 'localhost..'],
    ['http://a../', 'a..'],
    ['http://metadata.google.internal../', 'metadata.google.internal..'],
    ['http://example.com../', 'example.com..'],
    ['http://a..b/', 'a..b'],
    ['http://..example.com/', '..example.com'],
    ['http://.example.com/', '.example.com'],
    ['http://127.0.0.1../', '127.0.0.1..'],
    ['http://169.254.169.254../', '169.254.169.254..'],
  ])('%s, host %j, has an empty label: refused', (url, hostname) => {
    expect(new URL(url).hostname).toBe(hostname);
    expect(publicHostsOnly(url)).toBe(false);
  });

  // UTS #46 maps full-width and ideographic full stops to '.', full-width letters to ASCII, and drops soft hyphens.
  it.each([
    ['http://LOCALHOST.LOCALDOMAIN/', 'localhost.localdomain'],
    ['http://localhost%2Elocaldomain/', 'localhost.localdomain'],
    ['http://localhost\uFF0Elocaldomain/', 'localhost.localdomain'],
    ['http://localhost\u3002localdomain/', 'localhost.localdomain'],
    ['http://kubernetes\uFF61default\uFF61svc/', 'kubernetes.default.svc'],
    [
      'http://\uFF4C\uFF4F\uFF43\uFF41\uFF4C\uFF48\uFF4F\uFF53\uFF54\uFF0E\uFF4C\uFF4F\uFF43\uFF41\uFF4C\uFF44\uFF4F\uFF4D\uFF41\uFF49\uFF4E/',
      'localhost.localdomain',
    ],
    ['http://%6C%6F%63%61%6C%68%6F%73%74%2E%2E/', 'localhost..'],
    ['http://local\u00ADhost.localdomain/', 'localhost.localdomain'],
    ['http://Kubernetes.Default.SVC%2E/', 'kubernetes.default.svc.'],
  ])('%s is the host %j: refused', (url, hostname) => {
    expect(new URL(url).hostname).toBe(hostname);
    expect(publicHostsOnly(url)).toBe(false);
    expect(publicHostsOnly(new URL(url))).toBe(false);
  });

  it.each([
    'https://localdomain.example.com/',
    'https://svc.example.com/',
    'https://test.example.com/',
    'https://home.example.com/',
    'https://localhost4.example.com/',
    'https://example.com./',
  ])('%s is allowed: the private name is not its top-level one', (url) => {
    expect(publicHostsOnly(url)).toBe(true);
  });

  it('reads a URL object of another implementation by its href, as fetch() would', () => {
    // Node's legacy url.parse() leaves the host as written: 0x7f.1 is 127.0.0.1 to fetch().
    const legacy = legacyParse('http://0x7f.1/robots.txt?x=1');
    expect(legacy.hostname).toBe('0x7f.1');
    expect(publicHostsOnly(legacy as unknown as URLInput)).toBe(false);
    expect(publicHostsOnly(legacyParse('https://example.com/robots.txt?x=1') as unknown as URLInput)).toBe(true);
  });

  it('any spelling of a refused name the URL parser reads back to it is refused (seeded)', () => {
    const names = [
      'localhost',
      'localhost.localdomain',
      'localhost4.localdomain4',
      'localhost6.localdomain6',
      'metadata.google.internal',
      'instance-data.ec2.internal',
      'metadata.tencentyun.com',
      'kubernetes.default.svc',
      'kubernetes.default.svc.cluster.local',
      'printer.local',
      'nas.home.arpa',
      'metadata',
    ];
    // Ways to write a dot that the URL parser reads as one: percent-encoded, full-width, ideographic, half-width.
    const dot = fc.constantFrom('.', '%2e', '%2E', '\uFF0E', '\u3002', '\uFF61');
    const letter = (character: string): fc.Arbitrary<string> =>
      fc.constantFrom(
        character,
        character.toUpperCase(),
        `%${character.charCodeAt(0).toString(16)}`,
        // Full-width forms of ASCII letters and digits, which UTS #46 maps back.
        /[a-z0-9]/.test(character) ? String.fromCharCode(character.charCodeAt(0) + 0xfee0) : character,
      );
    const spelling = fc
      .constantFrom(...names)
      .chain((name) =>
        fc.tuple(
          fc.constant(name),
          fc.tuple(...[...name].map((character) => (character === '.' ? dot : letter(character)))),
          fc.array(dot, { maxLength: 3 }),
          fc.constantFrom('', ':8080'),
        ),
      );
    fc.assert(
      fc.property(spelling, ([name, characters, trailing, port]) => {
        const url = `http://${characters.join('')}${trailing.join('')}${port}/robots.txt`;
        expect(new URL(url).hostname).toBe(name + '.'.repeat(trailing.length));
        expect(publicHostsOnly(url)).toBe(false);
        expect(publicHostsOnly(new URL(url))).toBe(false);
      }),
      { numRuns: 2_000, seed: 0x5eed },
    );
  });
});

describe('isPublicAddress: resolved addresses', () => {
  it.each(['93.184.215.14', '8.8.8.8', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '::ffff:93.184.215.14', '2001:4860:4860::8888'])(
    '%s is public',
    (address) => expect(isPublicAddress(address)).toBe(true),
  );

  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.20.1.1',
    '192.168.0.10',
    '169.254.169.254',
    '100.100.100.200',
    '0.0.0.0',
    '::1',
    '::',
    'fd00:ec2::254',
    'fe80::1',
    'fe80::1%eth0',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::FFFF:A9FE:A9FE',
    '64:ff9b::a00:1',
  ])('%s is internal', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each([
    ['example.com', 'a name'],
    ['010.0.0.1', 'a leading zero (inet_aton would read it as octal)'],
    ['1.2.3', 'three parts'],
    ['256.1.1.1', 'a part over 255'],
    ['[::1]', 'brackets'],
    ['1::2::3', 'two ::'],
    ['1:2:3:4:5:6:7:8:9', 'nine groups'],
    ['12345::1', 'a group of five digits'],
    ['', 'nothing'],
  ])('%j is not an address, so not a public one (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe('addresses and ranges', () => {
  it('reads IPv6 in its text forms: compressed, full, with an IPv4 tail', () => {
    expect(parseAddress('::1')).toEqual(parseAddress('0:0:0:0:0:0:0:1'));
    expect(parseAddress('::ffff:10.0.0.1')).toEqual(parseAddress('10.0.0.1'));
    expect(parseAddress('1:2:3:4:5:6:7::')).toEqual(Uint8Array.of(0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 0));
    expect(parseAddress('1.2.3.4::')).toBeUndefined();
  });

  it('a range contains the addresses that share its leading bits', () => {
    const range = parseNetwork('10.20.0.0/16');
    expect(range).toBeDefined();
    const contains = (address: string): boolean => networkContains(range!, parseAddress(address)!);
    expect(contains('10.20.255.1')).toBe(true);
    expect(contains('::ffff:10.20.0.1')).toBe(true);
    expect(contains('10.21.0.1')).toBe(false);
    const odd = parseNetwork('172.16.0.0/12')!;
    expect(networkContains(odd, parseAddress('172.31.0.1')!)).toBe(true);
    expect(networkContains(odd, parseAddress('172.32.0.1')!)).toBe(false);
    expect(networkContains(parseNetwork('fd12::/16')!, parseAddress('fd12:3::1')!)).toBe(true);
    expect(parseNetwork('127.0.0.1')).toEqual({ prefix: parseAddress('127.0.0.1'), bits: 128 });
  });

  it.each(['10.0.0.0/33', '::/129', '10.0.0.0/', '10.0.0.0/08', 'example.com/8', '10.0.0.0/8/8', 'fe80::1%eth0/64'])(
    '%j is not a range',
    (cidr) => expect(parseNetwork(cidr)).toBeUndefined(),
  );
});

describe('HostRefusedError', () => {
  it('names the host, and the address when that was the reason', () => {
    expect(new HostRefusedError('10.0.0.1').message).toBe('10.0.0.1 is an internal host: refused');
    const error = new HostRefusedError('intranet.example.com', '10.0.0.7');
    expect(error).toMatchObject({ name: 'HostRefusedError', code: 'ERR_HOST_REFUSED', host: 'intranet.example.com', address: '10.0.0.7' });
    expect(error).toBeInstanceOf(Error);
  });
});
