/**
 * Sites on 127.0.0.1 whose robots.txt fetches come to every outcome `filter --fetch` tells apart, for the
 * tests of those outcomes (test/e2e/cli/cli-filter-outcomes.test.ts) and of saving and replaying them
 * (test/e2e/cli/cli-filter-replay.test.ts). Run the command on the test network (runOnTestNetwork) with `dns`.
 */
import { readFileSync } from 'node:fs';
import { closedPort, hang, redirect, startServer, status, text, type TestServer } from './http-server.js';

export const RULES = 'User-agent: *\nDisallow: /private/\n';

/** A robots.txt of `size` bytes or more whose last group, past the first `cut` bytes, disallows /late/. */
export function longFile(cut: number): string {
  const padding = `# ${'x'.repeat(cut)}\n`;
  return `User-agent: *\nDisallow: /early/\n${padding}Disallow: /late/\n`;
}

/** The sites of every outcome, and a log with two lines for each (one under /private/, one not). */
export interface Sites {
  readonly servers: TestServer[];
  readonly origins: Record<string, string>;
  readonly log: string;
  readonly dns: Record<string, string[]>;
}

/**
 * One site per outcome: 200, 301 → 200, 404, 503, a timeout (never answers), a closed
 * port, a host refused at its lookup (a name that resolves to 10.0.0.1), a redirect to a refused host, and a
 * file longer than --max-bytes 1000.
 */
export async function outcomeSites(): Promise<Sites> {
  const ok = await startServer({ '/robots.txt': text(RULES) });
  const moved = await startServer({ '/robots.txt': redirect('/real-robots.txt'), '/real-robots.txt': text(RULES) });
  const missing = await startServer();
  const down = await startServer({ '/robots.txt': status(503) });
  const slow = await startServer({ '/robots.txt': hang });
  const refusedHop = await startServer({ '/robots.txt': redirect('http://10.0.0.1/robots.txt') });
  // With its length: the note says the real size of a file cut (a chunked body's is not known).
  const long = await startServer({
    '/robots.txt': text(longFile(1000), 200, { 'content-length': String(Buffer.byteLength(longFile(1000))) }),
  });
  const origins: Record<string, string> = {
    ok: ok.origin,
    moved: moved.origin,
    missing: missing.origin,
    down: down.origin,
    slow: slow.origin,
    closed: `http://127.0.0.1:${await closedPort()}`,
    refused: 'http://intranet.example.com',
    refusedHop: refusedHop.origin,
    long: long.origin,
  };
  const log = Object.values(origins)
    .flatMap((origin) => [`${origin}/private/a`, `${origin}/late/b`])
    .join('\n');
  return {
    servers: [ok, moved, missing, down, slow, refusedHop, long],
    origins,
    log: `${log}\n`,
    dns: { 'intranet.example.com': ['10.0.0.1'] },
  };
}

/** --timeout long enough for a loaded machine's first fetches (the matcher is compiled meanwhile), short for the one that hangs. */
export const FETCH_FLAGS = ['--fetch', '--allow-network', '127.0.0.1/32', '--timeout', '2000', '--max-bytes', '1000'];

/** What --summary-json writes (src/cli/filter/summary.ts). */
export interface Summary {
  lines: { total: number; allowed: number; disallowed: number; malformed: number; byReason: Record<string, number> | null };
  hosts: {
    total: number;
    withoutRobots: number;
    cut: number;
    unreadable: number;
    fetch: null | {
      ok: number;
      redirected: number;
      clientError: number;
      serverError: number;
      timeout: number;
      networkError: { total: number; causes: Record<string, number> };
      refused: number;
      redirectRefused: number;
    };
  };
  saved: null | { saved: number; linksReplaced: number; failed: number };
  bytes: { read: number };
  seconds: number;
  linesPerSecond: number;
  bytesPerSecond: number;
  complete: boolean;
  exitCode: number;
}

export function summaryAt(path: string): Summary {
  return JSON.parse(readFileSync(path, 'utf8')) as Summary;
}
