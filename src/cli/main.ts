/**
 * The `robotstxt` command (the package's bin): `filter` URL lines for a crawler, `check` URLs against a
 * robots.txt, `fetch` an origin's robots.txt the standard way, `lint` a robots.txt. Node only; the library
 * never imports it.
 */
import { runCheck, CHECK_HELP } from './check.js';
import { runFetch, FETCH_HELP } from './fetch.js';
import { runFilter, FILTER_HELP } from './filter/command.js';
import { runLint, LINT_HELP } from './lint.js';
import { EXIT_OK, EXIT_USAGE, UsageError } from './usage.js';

const HELP = `robotstxt: what a site's robots.txt allows, from the command line.

Usage:
  robotstxt filter --agent NAME (--robots-dir DIR | --robots FILE | --fetch) [FILE…]
                                 keep the URL lines a crawler may fetch (stdin when no FILE)
  robotstxt check ROBOTS AGENT URL…   the verdict, rule and line for each URL (ROBOTS: a file or an http(s) URL)
  robotstxt fetch URL                 fetch an origin's robots.txt the RFC 9309 way and report what came back
  robotstxt lint FILE|URL…            what a robots.txt gets wrong, as each crawler reads it

Each command has --help. Exit codes: 0 success; 1 when check finds a URL disallowed or lint an error; 2 usage or input errors.`;

type Command = (args: readonly string[]) => Promise<number>;

const COMMANDS: Record<string, { run: Command; help: string }> = {
  filter: { run: runFilter, help: FILTER_HELP },
  check: { run: runCheck, help: CHECK_HELP },
  fetch: { run: runFetch, help: FETCH_HELP },
  lint: { run: runLint, help: LINT_HELP },
};

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${HELP}\n`);
    return name === undefined ? EXIT_USAGE : EXIT_OK;
  }
  const command = COMMANDS[name];
  if (command === undefined)
    throw new UsageError(`unknown command ${JSON.stringify(name)}: use filter, check, fetch or lint (robotstxt --help)`);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${command.help}\n`);
    return EXIT_OK;
  }
  return command.run(args);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`robotstxt: ${error.message}\n`);
      process.exitCode = EXIT_USAGE;
    } else {
      process.stderr.write(`robotstxt: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = EXIT_USAGE;
    }
  },
);
