/**
 * `robotstxt lab` started as users start it (the built dist/cli.js, as a process that serves until it is stopped),
 * for the command's own suite (test/e2e/cli/cli-lab.test.ts) and the page's live mode in Chromium
 * (test/e2e/lab/lab-live.test.ts).
 */
import { CLI, startCommand } from './cli.js';

const ADDRESS = /^http:\/\/127\.0\.0\.1:(\d+)\/([A-Za-z0-9_-]{32})\/$/;

export interface Lab {
  readonly address: string;
  readonly port: number;
  readonly token: string;
  /** What the command printed: the address, then how to stop it. */
  readonly stdout: string;
  stderr(): string;
  /** Sends `signal` and resolves to the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const running = new Set<Lab>();

/** Stops every lab still running (an afterEach's work). */
export function stopLabs(): Promise<unknown> {
  return Promise.all([...running].map((lab) => lab.stop()));
}

/**
 * Starts `robotstxt lab` with `args` (on the test network with `dns`) and waits for its address; `cli` is another
 * copy of the command (an installed package's), dist/cli.js by default.
 */
export async function startLab(
  args: readonly string[] = [],
  dns?: Readonly<Record<string, readonly string[]>>,
  cli: string = CLI,
): Promise<Lab> {
  const child = startCommand(['lab', ...args], dns, cli);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.split('\n').length > 2) resolve();
    });
    void exited.then((code) => reject(new Error(`robotstxt lab exited with ${code}: ${stderr}`)));
  });
  const [, port, token] = ADDRESS.exec(stdout.split('\n')[0] as string) ?? [];
  const lab: Lab = {
    address: stdout.split('\n')[0] as string,
    port: Number(port),
    token: token as string,
    stdout,
    stderr: () => stderr,
    stop: (signal = 'SIGTERM') => {
      running.delete(lab);
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  running.add(lab);
  return lab;
}
