/**
 * `robotstxt lab`: the lab page (an editor, the verdicts of every crawler and reading, a fetch simulation)
 * served on 127.0.0.1, with the one thing a page cannot do for itself: fetch another site's robots.txt,
 * which the command does as `robotstxt fetch` does. It opens nothing; it prints the page's address, with a
 * token of its own, and serves until it is stopped.
 */
import { fileURLToPath } from 'node:url';
import { describeValue } from '../../api/describe-value.js';
import { checkUserAgent } from '../../fetch/options.js';
import { FETCH_OPTIONS, FETCH_OPTIONS_HELP, readSettings, writeOut } from '../report.js';
import { EXIT_OK, libraryCheck, readArguments, UsageError, wholeNumber } from '../usage.js';
import { FetchApi, MAX_IN_FLIGHT } from './fetch-api.js';
import { newToken } from './request-guard.js';
import { startLabServer } from './server.js';
import { LabFiles } from './static-files.js';

/** The built page, beside the bundled command (dist/lab/ beside dist/cli.js), as `npm run build:lab` writes it. */
const LAB_DIRECTORY = new URL('./lab/', import.meta.url);

const MAX_PORT = 65_535;

export const LAB_HELP = `robotstxt lab: the robots.txt lab in a browser, served on this machine, with live fetches.

Usage:
  robotstxt lab [options]

  Serves the lab page (edit a robots.txt, see every crawler's verdict under each reading, simulate a fetch)
  on 127.0.0.1 and prints its address, http://127.0.0.1:PORT/TOKEN/: open it in a browser (the command
  opens nothing). TOKEN is new on every run; nothing is served without it. The page's "fetch" asks the
  command for a site's robots.txt, which a page cannot read across origins: it is fetched as robotstxt
  fetch fetches it (redirects, the host flags, --user-agent), at most ${MAX_IN_FLIGHT} at a time. A request whose
  Host is not 127.0.0.1:PORT or localhost:PORT, or that comes from another origin, is refused. It runs
  until Ctrl-C (or SIGTERM).

Options:
  --port N                 the port to listen on, 0 to ${MAX_PORT} (default 0: a free port the system chooses)
${FETCH_OPTIONS_HELP}

Exit codes:
  0  stopped by Ctrl-C or SIGTERM
  2  usage errors: an invalid option, a port in use, the lab page not built

Example:
  $ robotstxt lab
  http://127.0.0.1:41873/q3Xw9bVn0sLk2YdJ8tPfR1mZc6HuA4eG/
  Open it in a browser; Ctrl-C stops the server.`;

const OPTIONS = {
  port: { type: 'string' },
  'user-agent': FETCH_OPTIONS['user-agent'],
  timeout: FETCH_OPTIONS.timeout,
  'max-bytes': FETCH_OPTIONS['max-bytes'],
  'allow-internal-hosts': FETCH_OPTIONS['allow-internal-hosts'],
  'allow-network': FETCH_OPTIONS['allow-network'],
} as const;

function readPort(value: string | undefined): number {
  const port = wholeNumber('port', value, 0, 0);
  if (port > MAX_PORT) throw new UsageError(`--port takes a whole number from 0 to ${MAX_PORT}, got ${describeValue(value)}`);
  return port;
}

/** Resolves at the first SIGINT (Ctrl-C) or SIGTERM, which then no longer end the process on their own. */
function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export async function runLab(args: readonly string[]): Promise<number> {
  const { values, positionals } = readArguments('lab', args, OPTIONS);
  if (positionals.length > 0) {
    throw new UsageError(
      `lab takes no arguments, got ${positionals.map((value) => describeValue(value)).join(', ')} (see robotstxt lab --help)`,
    );
  }
  const port = readPort(values.port);
  const settings = readSettings(values);
  // Checked now: a header fetch() refuses would fail every fetch the page asks for.
  libraryCheck('user-agent', () => checkUserAgent(settings.userAgent));
  const files = await LabFiles.open(fileURLToPath(LAB_DIRECTORY));
  const server = await startLabServer({ files, api: new FetchApi(settings), token: newToken(), port });
  const stopped = stopSignal();
  writeOut(`${server.address}\nOpen it in a browser; Ctrl-C stops the server.\n`);
  await stopped;
  await server.close();
  return EXIT_OK;
}
