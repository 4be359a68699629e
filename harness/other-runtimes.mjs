/**
 * Bun and Deno, the runtimes besides Node that the package is tested on (test/e2e/runtimes/runtimes.test.ts) and timed on
 * (bench/runtimes/run.mjs): where they are installed, how each runs a script, and what each must not do on its
 * own. Plain JavaScript typed in JSDoc, so that the benchmark runs on plain Node; test/support/runtime.ts adds
 * the tests' rule for a machine without them.
 *
 * They are large native downloads, so they are no devDependencies: .ci/run installs the versions that
 * .ci/tools/package.json pins into .ci/tools (their install scripts allowed there, by that manifest alone).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** @typedef {'bun' | 'deno'} RuntimeName */

/** @type {readonly RuntimeName[]} */
export const RUNTIME_NAMES = ['bun', 'deno'];

const TOOLS = new URL('../.ci/tools/', import.meta.url);

/** Where .ci/run puts their commands; looked in before PATH. */
export const TOOLS_BIN = fileURLToPath(new URL('node_modules/.bin', TOOLS));

/** How to install them, for the note of a run that skips (from the project's root; .ci/run does it). */
export const RUNTIMES_INSTALL = 'npm install --prefix .ci/tools --no-save';

/** What `NAME --version` prints, the version captured: `1.4.5` (Bun), `deno 2.9.6 (stable, …)` (Deno). */
/** @type {Readonly<Record<RuntimeName, RegExp>>} */
export const VERSION_LINE = {
  bun: /^(\d+\.\d+\.\d+)\s*$/m,
  deno: /^deno (\d+\.\d+\.\d+)\b/m,
};

/**
 * Added to their environment: neither asks the network anything of its own (Deno's update check, Bun's
 * telemetry), so that a test reaches nothing but loopback.
 */
export const RUNTIME_ENV = { DENO_NO_UPDATE_CHECK: '1', DO_NOT_TRACK: '1' };

/**
 * @typedef {object} Permissions What a script run by Deno may reach (Bun and Node grant everything).
 * @property {readonly string[]} [read] paths it reads besides its modules (Deno: --allow-read=…)
 * @property {readonly string[]} [net] hosts it connects to (Deno: --allow-net=…)
 */

/**
 * The command line that runs `script` with `args` under `name` at `path`: Bun never installs a missing package
 * (--no-install), Deno only uses what is cached (--cached-only), writes no lock file, and is granted no more
 * than `permissions`.
 * @param {RuntimeName} name
 * @param {string} path
 * @param {string} script
 * @param {readonly string[]} args
 * @param {Permissions} [permissions]
 * @returns {string[]}
 */
export function scriptCommand(name, path, script, args, permissions = {}) {
  if (name === 'bun') return [path, '--no-install', script, ...args];
  const grants = [];
  if (permissions.read !== undefined) grants.push(`--allow-read=${permissions.read.join(',')}`);
  if (permissions.net !== undefined) grants.push(`--allow-net=${permissions.net.join(',')}`);
  return [path, 'run', '--cached-only', '--no-lock', ...grants, script, ...args];
}

/**
 * The version of `name` that .ci/tools/package.json pins: the one .ci/run installs and docs/runtimes.md lists.
 * @param {RuntimeName} name
 * @returns {string}
 */
export function pinnedVersion(name) {
  /** @type {{ dependencies?: Record<string, string> }} */
  const manifest = JSON.parse(readFileSync(new URL('package.json', TOOLS), 'utf8'));
  const version = manifest.dependencies?.[name];
  if (version === undefined) throw new Error(`.ci/tools/package.json pins no version of ${name}`);
  return version;
}

/**
 * The version that the program at `path` reports, or undefined when it is not `name` (or does not run).
 * @param {RuntimeName} name
 * @param {string} path
 * @returns {string | undefined}
 */
export function versionOf(name, path) {
  const reply = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 10_000, env: { ...process.env, ...RUNTIME_ENV } });
  return VERSION_LINE[name].exec(reply.stdout ?? '')?.[1];
}
