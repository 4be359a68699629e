/**
 * The sites a fleet of crawlers reads in the fleet test (test/e2e/redis/redis-fleet.test.ts) and bench/fleet/run.mjs: origins
 * `https://site-<i>.test` that never resolve, all served by one HTTP server on 127.0.0.1 through fleetFetch(),
 * which sends every request there and names the origin asked in a header; the server counts the fetches of
 * each origin. Each origin has its own robots.txt (no file, everything disallowed, a group for every crawler,
 * one for FleetBot) so that every verdict can be checked against expectedVerdicts().
 *
 * @example
 * const sites = await startFleetSites(2000);
 * const robots = new RobotsCache({ userAgent: FLEET_USER_AGENT, fetch: fleetFetch(sites.port) });
 * await robots.isAllowed(originOf(7) + pathsOf(7)[0]); // expectedVerdicts(7)[0] === '1'
 * sites.fetches[7]; // 1
 */
import { createServer } from 'node:http';

export const FLEET_USER_AGENT = 'FleetBot/1.0 (+https://example.com/bot)';
const ORIGIN_HEADER = 'x-fleet-origin';

/** @param {number} index */
export function originOf(index) {
  return `https://site-${index}.test`;
}

/** The shape of origin `index`'s robots.txt: one of four, in turn. @param {number} index */
function kindOf(index) {
  return /** @type {const} */ (['none', 'disallow-all', 'everyone', 'fleetbot'])[index % 4];
}

/** What origin `index` answers for /robots.txt. @param {number} index @returns {{ status: number, body: string }} */
export function robotsOf(index) {
  const section = `/s${index % 7}/`;
  switch (kindOf(index)) {
    case 'none':
      return { status: 404, body: 'not found' };
    case 'disallow-all':
      return { status: 200, body: `# site ${index}\nUser-agent: *\nDisallow: /\n` };
    case 'everyone':
      return { status: 200, body: `# site ${index}\nUser-agent: *\nDisallow: ${section}\nAllow: ${section}open\n` };
    default:
      return {
        status: 200,
        body: `# site ${index}\nUser-agent: *\nDisallow: /\n\nUser-agent: FleetBot\nDisallow: ${section}\nAllow: ${section}open\n`,
      };
  }
}

/** The paths asked of origin `index`. @param {number} index */
export function pathsOf(index) {
  const section = `/s${index % 7}/`;
  return [`${section}x`, `${section}open`, '/public'];
}

/** FleetBot's verdicts on pathsOf(index), `1` allowed and `0` not, as the files above say. @param {number} index */
export function expectedVerdicts(index) {
  return kindOf(index) === 'none' ? '111' : kindOf(index) === 'disallow-all' ? '000' : '011';
}

/**
 * A fetch (RobotsCache's `fetch` option) that sends every request to the sites' server on 127.0.0.1 and
 * names the origin asked in a header: no name is ever resolved.
 * @param {number} port
 * @returns {(url: string, init: { readonly headers: Record<string, string> }) => Promise<Response>}
 */
export function fleetFetch(port) {
  return (url, init) => {
    const { origin, pathname } = new URL(url);
    return fetch(`http://127.0.0.1:${port}${pathname}`, { ...init, headers: { ...init.headers, [ORIGIN_HEADER]: origin } });
  };
}

/**
 * @typedef {object} FleetSites
 * @property {number} port
 * @property {Uint32Array} fetches the robots.txt requests each origin got
 * @property {() => Promise<void>} close
 */

/**
 * Serves origins 0 to count - 1 on 127.0.0.1. `hangFirst`: origins whose first request is never answered
 * (a fetch that a killed process leaves behind).
 * @param {number} count
 * @param {{ hangFirst?: readonly number[] }} [options]
 * @returns {Promise<FleetSites>}
 */
export async function startFleetSites(count, options = {}) {
  const fetches = new Uint32Array(count);
  const hanging = new Set(options.hangFirst ?? []);
  const server = createServer((request, response) => {
    const match = /^https:\/\/site-(\d+)\.test$/.exec(String(request.headers[ORIGIN_HEADER]));
    const index = match === null ? -1 : Number(match[1]);
    if (index < 0 || index >= count || request.url !== '/robots.txt') return void response.writeHead(400).end();
    fetches[index] = (fetches[index] ?? 0) + 1;
    if (hanging.delete(index)) return;
    const { status, body } = robotsOf(index);
    response.writeHead(status, { 'content-type': 'text/plain' }).end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    fetches,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
