/**
 * Which hosts a crawler must not fetch from: its own machine, its private network and its cloud's metadata
 * endpoints. A crawler's hosts come from the web, so a link, a log line or a redirect can name
 * `http://169.254.169.254/` and have the crawler fetch its cloud credentials (server-side request forgery).
 *
 * Two checks, for two moments:
 * - publicHostsOnly(url): the URL's host as written, before anything is sent: `localhost`, names that only
 *   a private resolver answers (one label, an empty label, `.internal`, `.local`, `.localdomain`, `.svc`, …),
 *   metadata names, and IP literals in internal ranges. The WHATWG URL parser has already turned `http://2130706433/`,
 *   `http://0x7f.1/` and `http://0177.0.0.1/` into `127.0.0.1`, and `[::ffff:127.0.0.1]` into
 *   `[::ffff:7f00:1]`: both are read here as the addresses they are.
 * - isPublicAddress(address): an address a name resolved to, for a crawler's own DNS lookup, since a public
 *   name can resolve to `10.0.0.1` (or to one address when checked and another when connected).
 *
 * Internal ranges: those the IANA special-purpose registries mark as not globally reachable
 * (https://www.iana.org/assignments/iana-ipv4-special-registry/, .../iana-ipv6-special-registry/), with
 * multicast, and IPv6 forms that carry an IPv4 address read as that address.
 */
import { isUrlObject, type URLInput } from '../api/web-types.js';

/** An address as 16 bytes; an IPv4 address as its IPv4-mapped IPv6 form, `::ffff:a.b.c.d`. */
type Address = Uint8Array;

/** An address range: its first address and the number of leading bits every address in it shares. */
export interface Network {
  readonly prefix: Address;
  readonly bits: number;
}

const IPV4_PART = /^(?:0|[1-9]\d{0,2})$/;
const IPV6_GROUP = /^[0-9a-f]{1,4}$/i;

function ipv4Bytes(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const bytes: number[] = [];
  for (const part of parts) {
    // No leading zeros: inet_aton reads `010` as octal 8, so such text names no one address.
    if (!IPV4_PART.test(part) || Number(part) > 255) return undefined;
    bytes.push(Number(part));
  }
  return bytes;
}

function ipv6Bytes(text: string): number[] | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (half: string): number[] | undefined => {
    if (half === '') return [];
    const bytes: number[] = [];
    const groups = half.split(':');
    for (const [index, group] of groups.entries()) {
      if (index === groups.length - 1 && group.includes('.')) {
        const tail = ipv4Bytes(group);
        if (tail === undefined) return undefined;
        bytes.push(...tail);
      } else {
        if (!IPV6_GROUP.test(group)) return undefined;
        const value = parseInt(group, 16);
        bytes.push(value >> 8, value & 0xff);
      }
    }
    return bytes;
  };
  const head = groupsOf(halves[0] as string);
  const tail = halves.length === 2 ? groupsOf(halves[1] as string) : [];
  if (head === undefined || tail === undefined) return undefined;
  // An IPv4 tail only ends the address.
  if (halves.length === 2 && head.length > 0 && (halves[0] as string).includes('.')) return undefined;
  const missing = 16 - head.length - tail.length;
  if (halves.length === 2 ? missing < 2 : missing !== 0) return undefined;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

/**
 * `address` (IPv4 in dotted decimal, or IPv6 in any of its text forms, with an optional `%zone`) as 16
 * bytes, or undefined when it is not an IP address.
 */
export function parseAddress(address: string): Address | undefined {
  const v4 = ipv4Bytes(address);
  if (v4 !== undefined) return Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4);
  if (!address.includes(':')) return undefined;
  const zone = address.indexOf('%');
  const v6 = ipv6Bytes(zone < 0 ? address : address.slice(0, zone));
  return v6 === undefined ? undefined : Uint8Array.from(v6);
}

/**
 * `cidr` (`10.0.0.0/8`, `fd00::/8`, or one address) as a range; an IPv4 range counts its bits within the
 * IPv4-mapped space. Undefined when it is not one.
 */
export function parseNetwork(cidr: string): Network | undefined {
  const slash = cidr.indexOf('/');
  const text = slash < 0 ? cidr : cidr.slice(0, slash);
  const prefix = parseAddress(text);
  if (prefix === undefined || text.includes('%')) return undefined;
  const width = ipv4Bytes(text) === undefined ? 128 : 32;
  const lengthText = slash < 0 ? String(width) : cidr.slice(slash + 1);
  if (!/^(?:0|[1-9]\d{0,2})$/.test(lengthText) || Number(lengthText) > width) return undefined;
  return { prefix, bits: 128 - width + Number(lengthText) };
}

export function networkContains(network: Network, address: Address): boolean {
  const whole = network.bits >> 3;
  for (let index = 0; index < whole; index++) if (network.prefix[index] !== address[index]) return false;
  const rest = network.bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((network.prefix[whole] as number) & mask) === ((address[whole] as number) & mask);
}

function network(cidr: string): Network {
  return parseNetwork(cidr) as Network;
}

/** Not globally reachable, or a cloud platform's own service: never a crawler's target. */
const INTERNAL_NETWORKS: readonly Network[] = [
  // IPv4, as the IPv4-mapped IPv6 addresses every IPv4 address is read as here.
  '0.0.0.0/8', // "this network": 0.0.0.0 reaches the local host on Linux
  '10.0.0.0/8', // private (RFC 1918)
  '100.64.0.0/10', // shared address space, carrier-grade NAT (RFC 6598); Alibaba Cloud's metadata, 100.100.100.200
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local (RFC 3927): the metadata endpoint 169.254.169.254 of AWS, Google Cloud, Azure, …
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments (RFC 6890); Oracle Cloud's 192.0.0.192
  '192.0.2.0/24', // documentation (RFC 5737)
  '192.168.0.0/16', // private
  '198.18.0.0/15', // benchmarking (RFC 2544)
  '198.51.100.0/24', // documentation
  '203.0.113.0/24', // documentation
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, the broadcast address 255.255.255.255 included
  // A public address that Azure serves from inside each host (DNS, the VM agent's wire server):
  // https://learn.microsoft.com/en-us/azure/virtual-network/what-is-ip-address-168-63-129-16
  '168.63.129.16/32',
  // IPv6
  '::/96', // unspecified (::), loopback (::1), and the deprecated IPv4-compatible ::a.b.c.d (RFC 4291 §2.5.5.1)
  '64:ff9b:1::/48', // local-use IPv4/IPv6 translation (RFC 8215)
  '100::/64', // discard-only (RFC 6666)
  '2001::/23', // IETF protocol assignments (RFC 2928): Teredo, benchmarking, ORCHID
  '2001:db8::/32', // documentation (RFC 3849)
  '3fff::/20', // documentation (RFC 9637)
  '5f00::/16', // segment routing (SRv6) identifiers (RFC 9602)
  'fc00::/7', // unique local (RFC 4193); AWS's IPv6 metadata endpoint fd00:ec2::254
  'fe80::/10', // link-local
  'fec0::/10', // site-local, deprecated (RFC 3879) but still routed by some networks
  'ff00::/8', // multicast
].map(network);

/**
 * IPv6 ranges whose addresses carry an IPv4 address that a gateway or the host's own stack connects to:
 * the range, and the byte the IPv4 address starts at. (The IPv4-mapped ::ffff:0:0/96 is how IPv4 is
 * held here already.)
 */
const CARRIERS_OF_IPV4: readonly (readonly [Network, number])[] = [
  [network('64:ff9b::/96'), 12], // NAT64's well-known prefix (RFC 6052)
  [network('::ffff:0:0:0/96'), 12], // IPv4-translated (RFC 2765)
  [network('2002::/16'), 2], // 6to4 (RFC 3056)
];

function isInternal(address: Address): boolean {
  if (INTERNAL_NETWORKS.some((range) => networkContains(range, address))) return true;
  for (const [carrier, start] of CARRIERS_OF_IPV4) {
    if (!networkContains(carrier, address)) continue;
    return isInternal(Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...address.subarray(start, start + 4)));
  }
  return false;
}

/**
 * Names of cloud metadata services, which resolve to them from inside the cloud. The others named in
 * the providers' documentation are caught by their form: `metadata` and `instance-data` (one label),
 * `metadata.google.internal` and `instance-data.ec2.internal` (`.internal`).
 */
const METADATA_NAMES: ReadonlySet<string> = new Set([
  // Tencent Cloud: https://www.tencentcloud.com/document/product/213/4934
  'metadata.tencentyun.com',
]);

/**
 * Top-level names no public DNS answers, which a crawler's own resolver (its `/etc/hosts`, its network's
 * DNS, a development tool's) may point inward:
 * - `localhost` (RFC 6761 §6.3), `local` (multicast DNS, RFC 6762, and Kubernetes' `.svc.cluster.local`),
 *   `test` (RFC 6761 §6.2, which tools such as Laravel Valet resolve to the machine itself);
 * - `internal`, which ICANN reserved for private networks in 2024
 *   (https://www.icann.org/en/board-activities-and-meetings/materials/approved-resolutions-special-meeting-of-the-icann-board-29-07-2024-en):
 *   `metadata.google.internal`, `instance-data.ec2.internal`;
 * - `localdomain`, `localdomain4`, `localdomain6`: the loopback names of the `/etc/hosts` that RHEL, Fedora
 *   and Amazon Linux install (`localhost.localdomain`, `localhost4.localdomain4`, `localhost6.localdomain6`);
 * - `svc`: Kubernetes service names (`kubernetes.default.svc`), completed to the cluster's addresses by a
 *   pod's search domains (https://kubernetes.io/docs/concepts/services-networking/dns-pod-service/);
 * - `intranet`, `private`, `corp`, `home`, `lan`: those RFC 6762 Appendix G finds used on private networks.
 */
const PRIVATE_TOP_LEVEL_NAMES: ReadonlySet<string> = new Set([
  'localhost',
  'local',
  'test',
  'internal',
  'localdomain',
  'localdomain4',
  'localdomain6',
  'svc',
  'intranet',
  'private',
  'corp',
  'home',
  'lan',
]);

/** Residential networks' own domain (RFC 8375), of two labels. */
const HOME_ARPA = '.home.arpa';

/**
 * Whether a host name (lower case, as the URL parser leaves it) is one only the crawler's own network
 * answers. One final dot is the DNS root (`localhost.` is `localhost`). A single label (`localhost`,
 * `metadata`, `intranet`, a Kubernetes service) is completed by the resolver's search domains, never by
 * the public DNS. An empty label (`localhost..`, `.internal`) makes no DNS name at all, and resolvers that
 * answer one anyway read it their own way: RHEL's answers `localhost..` from `/etc/hosts`.
 */
function isInternalName(hostname: string): boolean {
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  const labels = name.split('.');
  if (labels.length === 1 || labels.includes('')) return true;
  const topLevel = labels[labels.length - 1] as string;
  return PRIVATE_TOP_LEVEL_NAMES.has(topLevel) || name.endsWith(HOME_ARPA) || METADATA_NAMES.has(name);
}

/** The address a URL's host is written as (`127.0.0.1`, `[::1]`), or undefined when it is a name. */
export function literalAddress(hostname: string): Address | undefined {
  if (hostname.startsWith('[') && hostname.endsWith(']')) return parseAddress(hostname.slice(1, -1));
  return ipv4Bytes(hostname) === undefined ? undefined : parseAddress(hostname);
}

/**
 * The host of `url` (a URL, or an absolute URL as a string), or undefined when it has none that parses.
 * A URL object is read again from its `href`, so that one of another implementation is judged by the
 * host fetch() would connect to.
 */
function hostnameOf(url: string | URLInput): string | undefined {
  const href = typeof url === 'string' ? url : isUrlObject(url) ? url.href : undefined;
  return href !== undefined && URL.canParse(href) ? new URL(href).hostname : undefined;
}

/**
 * True when `address`, an IP address as a DNS lookup gives it (`93.184.215.14`, `2606:2800:21f::1`), is
 * one a crawler may connect to; false for loopback, private, link-local, carrier-grade NAT, unique-local,
 * multicast, reserved and documentation addresses, for cloud metadata addresses, for IPv6 forms that carry
 * such an IPv4 address (`::ffff:10.0.0.1`, `64:ff9b::a00:1`, `2002:a00:1::`), and for anything that is not
 * an IP address: a check that cannot read its input refuses it.
 *
 * Use it in the DNS lookup of a crawler's own fetch, where it sees the address the socket connects to
 * (docs/crawling.md, "Hosts a crawler must not reach").
 *
 * @example
 * import { isPublicAddress } from 'robotstxt-wasm';
 * isPublicAddress('93.184.215.14'); // true
 * isPublicAddress('10.0.0.1'); // false
 * isPublicAddress('::ffff:169.254.169.254'); // false
 * isPublicAddress('fd00:ec2::254'); // false
 * isPublicAddress('example.com'); // false
 */
export function isPublicAddress(address: string): boolean {
  if (typeof address !== 'string') return false;
  const bytes = parseAddress(address);
  return bytes !== undefined && !isInternal(bytes);
}

/**
 * True when the host of `url` may be fetched from as it is written: false for `localhost` and
 * `*.localhost`, names only a private resolver answers (one label such as `metadata` or `intranet`; an
 * empty label, as in `localhost..`; `*.internal` such as `metadata.google.internal`, `*.local`,
 * `*.localdomain` such as `localhost.localdomain`, Kubernetes' `*.svc`, `*.home.arpa`, `*.test`, …), cloud
 * metadata names, and IP literals that isPublicAddress() refuses, whichever way the URL writes them
 * (`http://2130706433/` and `http://0x7f.1/` are `127.0.0.1`; `http://[::ffff:7f00:1]/` too;
 * `http://LOCALHOST%2E/` and `http://localhost。localdomain/` are `localhost.` and `localhost.localdomain`).
 * A URL that does not parse is refused.
 *
 * Ready to pass as `allowHost` and `allowRedirect` (fetchRobotsTxt, RobotsCache). A name can still
 * resolve to an internal address (a public one pointed inward, or a Kubernetes `service.namespace` that a
 * pod's search domains complete): only a DNS lookup that checks what it resolved closes that
 * (isPublicAddress()).
 *
 * @example
 * import { fetchRobotsTxt, publicHostsOnly } from 'robotstxt-wasm';
 * publicHostsOnly('https://example.com/'); // true
 * publicHostsOnly('http://169.254.169.254/latest/meta-data/'); // false
 * publicHostsOnly('http://2130706433/'); // false
 * publicHostsOnly('http://metadata.google.internal/'); // false
 * publicHostsOnly('http://localhost.localdomain/'); // false
 * publicHostsOnly('http://kubernetes.default.svc/'); // false
 * const result = await fetchRobotsTxt('http://127.0.0.1:8080/', {
 *   userAgent: 'ExampleBot/1.2',
 *   allowHost: publicHostsOnly,
 *   allowRedirect: publicHostsOnly,
 * });
 * result.reason; // 'host-refused'
 */
export function publicHostsOnly(url: string | URLInput): boolean {
  const hostname = hostnameOf(url);
  if (hostname === undefined || hostname === '') return false;
  const address = literalAddress(hostname);
  if (address !== undefined) return !isInternal(address);
  return !isInternalName(hostname.toLowerCase());
}

/** The code of a HostRefusedError, how a refusal is recognised after a fetch wrapped it (`fetch failed`, `cause`). */
export const HOST_REFUSED = 'ERR_HOST_REFUSED';

/**
 * What a crawler's own fetch (or the DNS lookup under it) throws for a host it refuses, such as a name
 * that resolved to an internal address. fetchRobotsTxt and RobotsCache recognise it, also as the `cause`
 * of the error a fetch wraps it in, by its `code`: the first request refused ends as `disallow-all` with
 * reason `'host-refused'`, a redirect hop refused as `allow-all` with `'redirect-refused'`.
 *
 * @example
 * import { HostRefusedError } from 'robotstxt-wasm';
 * const error = new HostRefusedError('intranet.example.com', '10.0.0.7');
 * error.code; // 'ERR_HOST_REFUSED'
 * error.message; // 'intranet.example.com resolves to 10.0.0.7, an internal address: refused'
 */
export class HostRefusedError extends Error {
  /** Always `'ERR_HOST_REFUSED'`: how the library recognises this error, from any copy of it, through `cause` chains too. */
  readonly code = HOST_REFUSED;

  /** `host`: the name or address refused; `address`: what the name resolved to, when that was the reason. */
  constructor(
    /** The name or address refused. */
    readonly host: string,
    /** What `host` resolved to, when that address was the reason; undefined when the name itself was refused. */
    readonly address?: string,
  ) {
    super(address === undefined ? `${host} is an internal host: refused` : `${host} resolves to ${address}, an internal address: refused`);
    this.name = 'HostRefusedError';
  }
}

/** Whether `error`, or one of the errors it was caused by, is a HostRefusedError (of any copy of this library). */
export function isHostRefusal(error: unknown): boolean {
  for (let depth = 0; depth < 8 && typeof error === 'object' && error !== null; depth++) {
    if ((error as { code?: unknown }).code === HOST_REFUSED) return true;
    error = (error as { cause?: unknown }).cause;
  }
  return false;
}
