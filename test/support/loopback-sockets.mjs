/**
 * The backstop that keeps a test process's sockets on the loopback interface, whatever the code under test
 * does: a connection to an address elsewhere fails with ECONNREFUSED before any packet. A name other than
 * `localhost` is refused outright, before any DNS query; with `ownLookups`, for a process whose lookups
 * answer from a table, a name whose socket carries its own `lookup` (the CLI's guarded fetch) is let
 * through to that lookup, and what it answers must be loopback too.
 *
 * Used by the documentation examples' preload (example-fetch-preload.mjs), the CLI's network preload
 * (cli-network-preload.mjs) and in-process tests of the CLI's fetch.
 */
import net from 'node:net';

/**
 * Whether `address`, an IP address, is on the loopback interface.
 * @param {string} address
 */
export function isLoopbackAddress(address) {
  return address === '::1' || /^(?:::ffff:)?127\.\d+\.\d+\.\d+$/i.test(address);
}

/**
 * Installs the backstop. `record(target, allowed)` hears of every connection attempt (`host:port`, and
 * `name (address):port` for a resolved name) and whether it was let through.
 * @param {(target: string, allowed: boolean) => void} [record]
 * @param {{ ownLookups?: boolean }} [options]
 */
export function keepSocketsOnLoopback(record = () => undefined, { ownLookups = false } = {}) {
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function connectLoopbackOnly(...args) {
    // Socket#connect(options[, cb]), (port[, host][, cb]), (path[, cb]), or node's internal normalized [options, cb].
    const first = Array.isArray(args[0]) ? args[0][0] : args[0];
    const options =
      typeof first === 'object' && first !== null
        ? first
        : typeof first === 'string' && !/^\d+$/.test(first)
          ? { path: first }
          : { port: first, host: typeof args[1] === 'string' ? args[1] : undefined };
    if (typeof options.path === 'string' && options.path !== '') return connect.apply(this, args);
    const host = options.host ?? 'localhost';
    const refuse = (target) => {
      record(target, false);
      return Object.assign(new Error(`tests may only connect to the loopback interface (refused ${target})`), { code: 'ECONNREFUSED' });
    };
    const ownLookup =
      ownLookups && typeof first === 'object' && first !== null && typeof first.lookup === 'function' ? first.lookup : undefined;
    if (net.isIP(host) === 0 && host !== 'localhost' && ownLookup !== undefined) {
      // Checked on what the socket's own lookup answers, which is what it connects to.
      first.lookup = (hostname, lookupOptions, callback) =>
        ownLookup(hostname, lookupOptions, (error, address, family) => {
          if (error) return callback(error, address, family);
          const addresses = Array.isArray(address) ? address.map((entry) => entry.address) : [address];
          const outside = addresses.find((candidate) => !isLoopbackAddress(candidate));
          if (outside !== undefined) return callback(refuse(`${hostname} (${outside}):${options.port}`));
          record(`${hostname} (${addresses.join(', ')}):${options.port}`, true);
          callback(null, address, family);
        });
      return connect.apply(this, args);
    }
    if (host === 'localhost' || (net.isIP(host) !== 0 && isLoopbackAddress(host))) {
      record(`${host}:${options.port}`, true);
      return connect.apply(this, args);
    }
    const error = refuse(`${host}:${options.port}`);
    process.nextTick(() => this.destroy(error));
    return this;
  };
}
