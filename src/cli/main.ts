/**
 * The `robotstxt` command (the package's bin): `filter` URL lines for a crawler, `check` URLs against a
 * robots.txt, `fetch` an origin's robots.txt the standard way, `lint` a robots.txt, serve the `lab` page on
 * this machine. Node only; the library never imports it.
 */
import { version } from '../../package.json';
import { describeValue } from '../api/describe-value.js';
import { runCheck, CHECK_HELP } from './check.js';
import { runFetch, FETCH_HELP } from './fetch.js';
import { runFilter, FILTER_HELP } from './filter/command.js';
import { runLab, LAB_HELP } from './lab/command.js';
import { runLint, LINT_HELP } from './lint.js';
import { printable } from './printable.js';
import { EXIT_OK, EXIT_USAGE, UsageError } from './usage.js';

const HELP = `robotstxt: what a site's robots.txt allows, from the command line.

Usage:
  robotstxt filter --agent NAME (--robots-dir DIR | --robots FILE | --fetch) [FILE…]
                                 keep the URL lines a crawler may fetch (stdin when no FILE)
  robotstxt check ROBOTS AGENT URL…   the verdict, rule and line for each URL (ROBOTS: a file or an http(s) URL)
  robotstxt fetch URL                 fetch an origin's robots.txt the RFC 9309 way and report what came back
  robotstxt lint FILE|URL…            what a robots.txt gets wrong, as each crawler reads it
  robotstxt lab                       serve the robots.txt lab on 127.0.0.1 and print its address

Each command has --help; --version (-V) prints the version. Exit codes: 0 success; 1 when check finds a URL disallowed or lint an error; 2 usage or input errors.`;

type Command = (args: readonly string[]) => Promise<number>;

const COMMANDS: Record<string, { run: Command; help: string }> = {
  filter: { run: runFilter, help: FILTER_HELP },
  check: { run: runCheck, help: CHECK_HELP },
  fetch: { run: runFetch, help: FETCH_HELP },
  lint: { run: runLint, help: LINT_HELP },
  lab: { run: runLab, help: LAB_HELP },
};

/** Whether `flags` are among the options of `args`: the arguments before a `--`, after which all are operands. */
function asks(args: readonly string[], ...flags: string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => flags.includes(arg));
}

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === '--version' || name === '-V' || (name !== undefined && Object.hasOwn(COMMANDS, name) && asks(args, '--version', '-V'))) {
    process.stdout.write(`robotstxt ${version}\n`);
    return EXIT_OK;
  }
  if (name === undefined) throw new UsageError('no command: use filter, check, fetch, lint or lab (see robotstxt --help)');
  if (name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${HELP}\n`);
    return EXIT_OK;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command === undefined) {
    const what = name.startsWith('-') ? 'option' : 'command';
    throw new UsageError(`unknown ${what} ${describeValue(name)}: use filter, check, fetch, lint or lab (see robotstxt --help)`);
  }
  if (asks(args, '--help', '-h')) {
    process.stdout.write(`${command.help}\n`);
    return EXIT_OK;
  }
  return command.run(args);
}

/**
 * One line on stderr and exit 2 for whatever ends the command: a usage error as it is worded, anything else
 * as an internal error, never a stack trace (a user can do nothing with one; the message is what to report).
 */
function fail(error: unknown): void {
  if (error instanceof UsageError) {
    process.stderr.write(`robotstxt: ${printable(error.message)}\n`);
  } else {
    const message = printable(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    process.stderr.write(
      `robotstxt: internal error: ${message} (a bug in robotstxt ${version}: please report it with the command that caused it)\n`,
    );
  }
  process.exitCode = EXIT_USAGE;
}

// Also what fails outside the command's promise (an event handler, a stream): one line, then the end, as the
// process's state is then unknown.
process.on('uncaughtException', (error) => {
  fail(error);
  process.exit();
});

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
}, fail);
