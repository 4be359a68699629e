/**
 * The package on Bun and Deno, as README "Runtimes" promises: the smoke script
 * (test/e2e/runtimes/smoke.mjs: parse, check, explain, batch, bytes entries, the robots-parser drop-in, RobotsCache
 * against a loopback server, the WebAssembly matcher in use) and the `robotstxt` command (on local files, and
 * once on a robots.txt from the loopback server), run by each runtime from its npm package, must answer exactly
 * what Node answers to the same. Each runtime is
 * found in .ci/tools (where .ci/run installs the pinned versions) or on PATH; missing, its suite is skipped
 * with a note, and under CI=true it fails (test/support/runtime.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pinnedVersion, RUNTIME_ENV, RUNTIME_NAMES, scriptCommand, type Permissions } from '../../../harness/other-runtimes.mjs';
import { ROBOTS } from './smoke-robots.mjs';
import { CLI, runProgram, type Run } from '../../support/cli.js';
import { closeServers, startServer, text, type TestServer } from '../../support/http-server.js';
import { findRuntime, type Runtime } from '../../support/runtime.js';

const SMOKE = fileURLToPath(new URL('./smoke.mjs', import.meta.url));
const DIST = fileURLToPath(new URL('../../../dist/', import.meta.url));
const AGENT = 'SmokeBot';
const URLS = [
  'https://example.com/',
  'https://example.com/private/x',
  'https://example.com/no-bots/a?b=1',
  'https://example.com/café/menu',
  'https://example.com/doc.pdf',
  'http://example.com:8080/no-bots/',
];

/** A file with mistakes for lint to find. */
const FAULTY = 'Disallow: /before-any-group\nUser-agent: *\nDisalow: /typo\nCrawl-delay: soon\nAllow: private\n';

/**
 * The `robotstxt` commands each runtime runs, in a folder holding robots.txt, faulty.txt, urls.txt and robots/
 * (one file per host).
 */
const CLI_COMMANDS: readonly { readonly title: string; readonly args: readonly string[]; readonly input?: string }[] = [
  { title: 'check', args: ['check', 'robots.txt', AGENT, ...URLS] },
  {
    title: 'filter, one robots.txt, every line annotated',
    args: ['filter', '-q', '--agent', AGENT, '--robots', 'robots.txt', '--format', 'tsv', '--no-header', '--emit', 'all', 'urls.txt'],
  },
  {
    title: 'filter, a robots.txt per host, two worker threads, stdin to JSON lines',
    args: ['filter', '-q', '--agent', AGENT, '--robots-dir', 'robots', '--workers', '2', '--format', 'jsonl', '--emit', 'all'],
    input: `${URLS.join('\n')}\n`,
  },
  { title: 'lint', args: ['lint', 'faulty.txt'] },
];

const runtimes: readonly Runtime[] = RUNTIME_NAMES.map((name) => findRuntime(name));
let server: TestServer;
let work: string;

beforeAll(async () => {
  server = await startServer({ '/robots.txt': text(ROBOTS) });
  work = mkdtempSync(join(tmpdir(), 'robotstxt-runtimes-'));
  writeFileSync(join(work, 'robots.txt'), ROBOTS);
  writeFileSync(join(work, 'faulty.txt'), FAULTY);
  writeFileSync(join(work, 'urls.txt'), `${URLS.join('\n')}\n`);
  mkdirSync(join(work, 'robots'));
  writeFileSync(join(work, 'robots', 'example.com'), ROBOTS);
  writeFileSync(join(work, 'robots', 'example.com_8080'), 'User-agent: *\nDisallow: /\n');
});

afterAll(async () => {
  await closeServers();
  rmSync(work, { recursive: true, force: true });
});

const env = { ...process.env, ...RUNTIME_ENV };

/** Runs `script` with `args` under `runtime` (Node when undefined), in the work folder. */
function runScript(
  runtime: Runtime | undefined,
  script: string,
  args: readonly string[],
  permissions: Permissions,
  input?: string,
): Promise<Run> {
  const command = runtime?.found
    ? scriptCommand(runtime.name, runtime.path, script, args, permissions)
    : [process.execPath, script, ...args];
  return runProgram(command, env, input, work);
}

function smoke(runtime?: Runtime): Promise<Run> {
  return runScript(runtime, SMOKE, [server.origin], { net: ['127.0.0.1'] });
}

/** The `robotstxt` command, which reads the work folder and its own worker's module, and may ask the loopback server. */
function command(runtime: Runtime | undefined, args: readonly string[], input?: string): Promise<Run> {
  return runScript(runtime, CLI, args, { read: [work, DIST], net: ['127.0.0.1'] }, input);
}

function answers(run: Run): unknown {
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
}

describe('under Node, the answers the other runtimes are held to', () => {
  it('the smoke script: the WebAssembly matcher, and the rules of the file', async () => {
    const node = await smoke();
    expect(answers(node)).toMatchObject({
      batch: [true, true, true, true, true, false, true, false, true, true, false],
      bytes: [1, 1, 1, 1, 1, 0, 1, 0, 1, 1, 0],
      utf8: [0, 1, 2].map(() => [true, true, true, true, true, false, true, false, true, true, false]),
      cache: { agent: 'SmokeBot', verdicts: [true, true, false, true], explain: { allowed: false, line: 8 }, fetched: 1 },
      dropIn: { crawlDelay: 2, otherOrigin: 'undefined' },
      matcher: 'wasm',
    });
  });

  it('the robotstxt command', async () => {
    const check = await command(undefined, ['check', 'robots.txt', AGENT, ...URLS]);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/^disallowed +https:\/\/example\.com\/no-bots\/a\?b=1 +disallow: \/no-bots\/ \(line 8\)$/m);
  });
});

for (const runtime of runtimes) {
  const title = runtime.found ? `${runtime.name} ${runtime.version} (pinned: ${pinnedVersion(runtime.name)})` : `${runtime.name} (missing)`;
  describe.skipIf(!runtime.found)(`under ${title}`, () => {
    it('answers the smoke script as Node does, fetching robots.txt from the loopback server', async () => {
      const fetched = server.count();
      const node = answers(await smoke());
      expect(answers(await smoke(runtime))).toEqual(node);
      expect(server.count()).toBe(fetched + 2);
      expect(server.requests.at(-1)?.headers['user-agent']).toBe('SmokeBot/1.0 (+https://example.com/bot)');
    });

    it('runs `robotstxt check` on the robots.txt it fetches from the loopback server, as Node does', async () => {
      const args = ['check', '--allow-internal-hosts', server.origin, AGENT, '/', '/no-bots/a?b=1', '/caf%C3%A9/menu', '/cafés'];
      const node = await command(undefined, args);
      expect(node.stdout).toMatch(
        /^fetched http:\/\/127\.0\.0\.1:\d+\/robots\.txt: status 200.*\n.*\n.*disallow: \/no-bots\/ \(line 8\)$/m,
      );
      const fetched = server.count();
      expect(await command(runtime, args)).toEqual(node);
      expect(server.count()).toBe(fetched + 1);
    });

    it.each(CLI_COMMANDS)('runs `robotstxt $title` as Node does', async ({ args, input }) => {
      const node = await command(undefined, args, input);
      expect(node.stdout).not.toBe('');
      const other = await command(runtime, args, input);
      expect(other).toEqual(node);
    });
  });
}
