/** The built `robotstxt` command (dist/cli.js, `npm test` builds it), run as a user runs it. */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const NETWORK_PRELOAD = fileURLToPath(new URL('./cli-network-preload.mjs', import.meta.url));

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `command` (the program, then its arguments) with `input` on stdin, in `cwd` (default: this process's). */
export function runProgram(command: readonly string[], env: NodeJS.ProcessEnv, input?: string, cwd?: string): Promise<Run> {
  const [file = '', ...args] = command;
  return new Promise((resolve) => {
    const child = execFile(file, args, { timeout: 30_000, env, cwd }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
    child.stdin?.end(input ?? '');
  });
}

function runNode(nodeArgs: readonly string[], env: NodeJS.ProcessEnv, input: string | undefined): Promise<Run> {
  return runProgram([process.execPath, ...nodeArgs], env, input);
}

/** Runs the command with `args` and `input` on stdin; asynchronous, so that the servers of this process can answer it. */
export function run(args: readonly string[], input?: string): Promise<Run> {
  return runNode([CLI, ...args], process.env, input);
}

/**
 * Runs the command on the test network (cli-network-preload.mjs): names resolve from `dns` (name → its
 * addresses) and nowhere else, every socket stays on loopback, and each connection attempt is written to
 * stderr as `[test-network] connect TARGET` or `[test-network] refused TARGET`.
 */
export function runOnTestNetwork(
  args: readonly string[],
  dns: Readonly<Record<string, readonly string[]>> = {},
  input?: string,
): Promise<Run> {
  return runNode(['--import', NETWORK_PRELOAD, CLI, ...args], testNetworkEnv(dns), input);
}

/** The environment of a command on the test network: `dns` (name → its addresses) as the preload reads it. */
function testNetworkEnv(dns: Readonly<Record<string, readonly string[]>>): NodeJS.ProcessEnv {
  const table = Object.entries(dns)
    .map(([name, addresses]) => `${name}=${addresses.join(',')}`)
    .join(' ');
  return { ...process.env, ROBOTSTXT_TEST_DNS: table };
}

/**
 * Starts the command with `args` and leaves it running, for a subcommand that serves until it is stopped
 * (`lab`); on the test network (as runOnTestNetwork) when `dns` is given. `cli`: another copy of the command
 * (an installed package's), dist/cli.js by default.
 */
export function startCommand(
  args: readonly string[],
  dns?: Readonly<Record<string, readonly string[]>>,
  cli: string = CLI,
): ChildProcessWithoutNullStreams {
  if (dns === undefined) return spawn(process.execPath, [cli, ...args]);
  return spawn(process.execPath, ['--import', NETWORK_PRELOAD, cli, ...args], { env: testNetworkEnv(dns) });
}

/** A run whose output is kept as bytes, for byte-for-byte comparisons. */
export interface BytesRun {
  readonly code: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

/**
 * Runs `command` (the program, then its arguments) with `input` on stdin and its stdout kept as bytes. A
 * program that exits before reading all of its input is no error here: its exit code says what happened.
 */
export function runForBytes(
  command: readonly string[],
  input: Buffer | string,
  options: { readonly env?: NodeJS.ProcessEnv; readonly cwd?: string; readonly timeout?: number } = {},
): Promise<BytesRun> {
  const [file = '', ...args] = command;
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: options.env ?? process.env, cwd: options.cwd, timeout: options.timeout });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString() }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}
