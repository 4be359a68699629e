/**
 * `npm start`: runs the `robotstxt filter` command on the sample crawl log and shows its first lines and its
 * summary.
 *
 *   npm start                     builds dist/, then runs this
 *   node examples/cli/start.mjs   the same, without building
 *
 * It runs, from the repository root,
 *
 *   node dist/cli.js filter --agent ExampleBot --robots-dir examples/cli/robots --emit all --format tsv examples/cli/urls.txt
 *
 * and prints the first SHOWN lines of the output, then how many more there were, then the command's summary
 * (its stderr). It reads the whole output rather than closing the pipe early (as `| head` would), so that the
 * command finishes normally and its summary is complete, on every platform, without a shell. The exit code is
 * the command's. The library's own demo, verdicts with the deciding rule for the files in examples/sites/, is
 * `node examples/demo.mjs`.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const SHOWN = 12;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
// Relative to the repository root (the child's working directory), so that the command shown is the one to type.
const ARGS = [
  'filter',
  '--agent',
  'ExampleBot',
  '--robots-dir',
  'examples/cli/robots',
  '--emit',
  'all',
  '--format',
  'tsv',
  'examples/cli/urls.txt',
];

// `npm start | head` closes our stdout early: stop quietly then, as a command-line tool would.
process.stdout.on('error', (error) => {
  if (/** @type {NodeJS.ErrnoException} */ (error).code === 'EPIPE') process.exit(0);
  throw error;
});

if (!existsSync(CLI)) {
  console.error('dist/cli.js is missing: run `npm start` (which builds first) or `npm run build`.');
  process.exit(1);
}

console.log(`$ robotstxt ${ARGS.join(' ')}\n`);
const child = spawn(process.execPath, [CLI, ...ARGS], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
/** @type {Buffer[]} */
const stderr = [];
child.stderr.on('data', (chunk) => stderr.push(chunk));

let lines = 0;
for await (const line of createInterface({ input: child.stdout, crlfDelay: Infinity })) {
  if (lines < SHOWN) console.log(line);
  lines++;
}
const [code, signal] = await new Promise((resolve) => {
  if (child.exitCode !== null || child.signalCode !== null) resolve([child.exitCode, child.signalCode]);
  else child.on('close', (exitCode, signalCode) => resolve([exitCode, signalCode]));
});

if (lines > SHOWN) console.log(`… and ${lines - SHOWN} more lines\n`);
process.stderr.write(Buffer.concat(stderr));
if (code !== 0) {
  console.error(`\nthe command failed (${code === null ? `signal ${signal}` : `exit code ${code}`})`);
  process.exitCode = code === null ? 1 : code;
} else {
  console.log('\nThe library demo (verdicts and the rules that decided them, for examples/sites/): node examples/demo.mjs');
}
