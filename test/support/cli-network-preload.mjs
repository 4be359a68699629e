/**
 * Preloaded (`node --import`) into the command by test/support/cli.ts's runOnTestNetwork(), for the tests of
 * where the command's fetches may go (test/e2e/cli/cli-hosts.test.ts), and into the Crawlee crawlers of
 * test/e2e/crawlee/crawlee-robots-parser.test.ts and test/e2e/crawlee/crawlee-example.test.ts (an empty table: they use IP addresses):
 * - DNS answers from a table: ROBOTSTXT_TEST_DNS, `name=address[,address…]` entries separated by spaces.
 *   dns.lookup answers from it (a name not in it fails as ENOTFOUND; an IP address answers as itself), so
 *   no query ever leaves the process.
 * - Every socket stays on the loopback interface (loopback-sockets.mjs), and every attempt is written to
 *   stderr as `[test-network] connect TARGET` or `[test-network] refused TARGET`, for the tests to read.
 */
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { keepSocketsOnLoopback } from './loopback-sockets.mjs';

const table = new Map(
  (process.env.ROBOTSTXT_TEST_DNS ?? '')
    .split(' ')
    .filter((entry) => entry !== '')
    .map((entry) => {
      const [name, addresses] = entry.split('=');
      return [name, addresses.split(',').map((address) => ({ address, family: net.isIP(address) }))];
    }),
);

dns.lookup = function tableLookup(hostname, options, callback) {
  const done = typeof options === 'function' ? options : callback;
  const settings = typeof options === 'object' && options !== null ? options : { family: typeof options === 'number' ? options : 0 };
  // An IP address answers as itself, as getaddrinfo does (net.Server#listen looks its host up even so).
  const known = net.isIP(hostname) === 0 ? table.get(hostname) : [{ address: hostname, family: net.isIP(hostname) }];
  const answers = (known ?? []).filter(({ family }) => !settings.family || family === settings.family);
  process.nextTick(() => {
    if (answers.length === 0) {
      return done(
        Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname} (not in the test's DNS table)`), { code: 'ENOTFOUND', hostname }),
      );
    }
    if (settings.all) return done(null, answers);
    done(null, answers[0].address, answers[0].family);
  });
};
syncBuiltinESMExports();

keepSocketsOnLoopback((target, allowed) => process.stderr.write(`[test-network] ${allowed ? 'connect' : 'refused'} ${target}\n`), {
  ownLookups: true,
});
