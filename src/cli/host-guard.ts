/**
 * Where the command's fetches may not go. Its hosts come from its input (a log line, a URL argument, a
 * redirect), not from the person running it, so by default it refuses what the library's publicHostsOnly
 * refuses (its own machine and network, the cloud's metadata endpoints) and, since it owns its fetch
 * (src/cli/http-fetch.ts), also a name that resolves to such an address, checked on the address the
 * socket connects to. `--allow-internal-hosts` lifts the guard; `--allow-network CIDR` lets addresses in
 * one range through, for people who crawl their own network.
 */
import dns from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { literalAddress, networkContains, parseAddress, parseNetwork, type Network } from '../fetch/host-policy.js';
import { httpFetch, type HttpFetch } from './http-fetch.js';
import { HostRefusedError, isPublicAddress, publicHostsOnly, type URLInput } from './library.js';
import { UsageError } from './usage.js';

/** The flags (parseArgs configuration) of every command that fetches. */
export const HOST_OPTIONS = {
  'allow-internal-hosts': { type: 'boolean' },
  'allow-network': { type: 'string', multiple: true },
} as const;

export const HOST_OPTIONS_HELP = `  --allow-internal-hosts   fetch from internal hosts too: by default localhost, addresses in loopback,
                           private, link-local, CGNAT and unique-local ranges (IPv4, IPv6, IPv4-mapped),
                           names only a private resolver answers and cloud metadata endpoints are refused,
                           as written and as resolved, at the first request and at every redirect
  --allow-network CIDR     addresses in CIDR (e.g. 10.20.0.0/16, fd12::/16) may be fetched, written as
                           such or resolved from a name (repeatable); a private name (intranet, *.internal)
                           is then judged by its addresses`;

/** What the flags allow besides public hosts. */
export interface HostPolicy {
  readonly allowInternalHosts: boolean;
  readonly allowedNetworks: readonly Network[];
}

/** The policy of `--allow-internal-hosts` and the `--allow-network` values. */
export function readHostPolicy(allowInternalHosts: boolean | undefined, networks: readonly string[] | undefined): HostPolicy {
  const allowedNetworks = (networks ?? []).map((cidr) => {
    const network = parseNetwork(cidr);
    if (network === undefined) {
      throw new UsageError(
        `--allow-network takes an IP address or a range in CIDR notation (10.20.0.0/16, fd12::/16), got ${JSON.stringify(cidr)}`,
      );
    }
    return network;
  });
  return { allowInternalHosts: allowInternalHosts === true, allowedNetworks };
}

/** A dns.lookup-like function: what the guard asks to resolve a name. */
export type Resolve = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (error: Error | null, addresses: LookupAddress[]) => void,
) => void;

// Read at call time: tests answer from a table by replacing dns.lookup (test/support/cli-network-preload.mjs).
const systemResolve: Resolve = (hostname, options, callback) => dns.lookup(hostname, options, callback);

/** Why a host was refused, for the note the commands print. */
export interface Refusal {
  readonly host: string;
  /** What the name resolved to, when that was the reason. */
  readonly address: string | undefined;
}

export function refusalText(refusal: Refusal): string {
  const why = refusal.address === undefined ? 'is an internal host' : `resolves to ${refusal.address}, an internal address`;
  return `${refusal.host} ${why}: not fetched (--allow-internal-hosts or --allow-network CIDR allows it)`;
}

export class HostGuard {
  /** The last host refused, for the note of a command that made one fetch. */
  lastRefusal: Refusal | undefined;
  /** The fetch the commands pass to the library: its lookup refuses names with internal addresses. */
  readonly fetch: HttpFetch;

  constructor(
    private readonly policy: HostPolicy,
    private readonly resolve: Resolve = systemResolve,
  ) {
    const fetch = httpFetch(this.lookup);
    this.fetch = (url, init) => {
      // The library asks allowHost first; checked again here, so this fetch holds the line on its own.
      if (!this.allowHost(url)) return Promise.reject(new HostRefusedError(new URL(url).hostname));
      return fetch(url, init);
    };
  }

  /**
   * The library's allowHost: a URL whose host, as written, is public or allowed. With allowed networks, a
   * name refused for its form (`intranet`, `*.internal`) is judged by what it resolves to instead, in the lookup.
   */
  readonly allowHost = (url: string | URLInput): boolean => {
    if (this.policy.allowInternalHosts || publicHostsOnly(url)) return true;
    const hostname = typeof url === 'string' ? new URL(url).hostname : url.hostname;
    const address = literalAddress(hostname);
    if (address === undefined ? this.policy.allowedNetworks.length > 0 : this.inAllowedNetwork(address)) return true;
    this.lastRefusal = { host: hostname, address: undefined };
    return false;
  };

  /**
   * Whether this policy lets through what an earlier run refused (a host as written, and the address it
   * resolved to when that was the reason), judged without a lookup: `filter --robots-dir` on a saved folder
   * decides recorded refusals anew. A host that does not read back as itself stays refused.
   */
  allows(refusal: Refusal): boolean {
    let url: URL;
    try {
      url = new URL(`http://${refusal.host}/`);
    } catch {
      return false;
    }
    if (url.hostname !== refusal.host) return false;
    const lastRefusal = this.lastRefusal;
    const allowed = this.allowHost(url.href) && (refusal.address === undefined || this.allowsAddress(refusal.address));
    this.lastRefusal = lastRefusal;
    return allowed;
  }

  private inAllowedNetwork(address: Uint8Array): boolean {
    return this.policy.allowedNetworks.some((network) => networkContains(network, address));
  }

  private allowsAddress(address: string): boolean {
    if (this.policy.allowInternalHosts || isPublicAddress(address)) return true;
    const bytes = parseAddress(address);
    return bytes !== undefined && this.inAllowedNetwork(bytes);
  }

  /**
   * The sockets' lookup: every address of the name is resolved, and one internal address refuses the name
   * (an answer that mixes public and internal addresses is how rebinding is tried). Called by the socket
   * that connects, so what it checks is what is connected to.
   */
  private readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) return callback(error, '', 0);
      const internal = addresses.find(({ address }) => !this.allowsAddress(address));
      if (internal !== undefined) {
        this.lastRefusal = { host: hostname, address: internal.address };
        return callback(new HostRefusedError(hostname, internal.address), '', 0);
      }
      if (options.all === true) return callback(null, addresses);
      const first = addresses[0];
      if (first === undefined) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}
