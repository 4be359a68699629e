/**
 * A program of the system that a suite runs (GNU parallel, redis-server, a browser, another JavaScript runtime),
 * found on PATH, or first in the directories a spec names (.ci/run installs Bun and Deno into one). Where it is
 * missing the suite is skipped with a note that says how to install it, so that `npm test` passes on a machine
 * without it; under CI=true a missing program fails the suite instead, since CI installs every one of them
 * (.ci/run) and a skip there would hide a broken install step.
 *
 *     const parallel = systemTool({ name: 'parallel', install: 'apt-get install -y parallel' });
 *     describe.skipIf(!parallel.found)('…', () => { … });
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

export interface SystemToolSpec {
  /** The command, as looked up on PATH: `parallel`. */
  readonly name: string;
  /** The command line that installs it, shown in the note: `apt-get install -y parallel`. */
  readonly install: string;
  /**
   * What `NAME --version` prints when NAME is the program meant, for a name that another program shares
   * (moreutils has a `parallel` too). Without it, any executable of that name is the program.
   */
  readonly version?: RegExp;
  /** Absolute directories looked in before PATH, for a program installed beside the project rather than system-wide. */
  readonly directories?: readonly string[];
}

export type SystemTool = { readonly found: true; readonly path: string } | { readonly found: false; readonly note: string };

/** A program that a suite needs is missing where it must be there (CI=true). */
export class MissingSystemToolError extends Error {
  override name = 'MissingSystemToolError';
}

/** The first executable file called `name` in the directories of `pathVariable` (a PATH value), if any. */
export function findOnPath(name: string, pathVariable: string | undefined): string | undefined {
  // Relative entries (an empty one means the working directory) would make the answer depend on where the tests run.
  const directories = (pathVariable ?? '').split(delimiter).filter((directory) => isAbsolute(directory));
  for (const directory of directories) {
    const candidate = join(directory, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here, or not executable: the next directory.
    }
  }
  return undefined;
}

/**
 * What a suite does about `spec`, given where it was found (`undefined`: nowhere) and the environment: run it,
 * or skip with a note; throws MissingSystemToolError when it is missing and env.CI is `true`.
 */
export function decide(spec: SystemToolSpec, path: string | undefined, env: NodeJS.ProcessEnv): SystemTool {
  if (path !== undefined) return { found: true, path };
  const places = [...(spec.directories ?? []).map((directory) => `in ${directory}`), 'on PATH'].join(' or ');
  const missing = `\`${spec.name}\` is not ${places}${spec.version ? ` (or is not the program whose --version matches ${spec.version})` : ''}`;
  if (env.CI === 'true') throw new MissingSystemToolError(`${missing}, and CI=true needs it: ${spec.install} (.ci/run does)`);
  return { found: false, note: `skipped: ${missing}; to run these tests: ${spec.install}` };
}

/** Looks `spec` up on this process's PATH and decides; a skip's note goes to the console, where the run shows it. */
export function systemTool(spec: SystemToolSpec, env: NodeJS.ProcessEnv = process.env): SystemTool {
  const decision = decide(spec, locate(spec, env.PATH), env);
  if (!decision.found) console.warn(decision.note);
  return decision;
}

function locate(spec: SystemToolSpec, pathVariable: string | undefined): string | undefined {
  const searched = [...(spec.directories ?? []), ...(pathVariable === undefined ? [] : [pathVariable])].join(delimiter);
  const path = findOnPath(spec.name, searched);
  if (path === undefined || spec.version === undefined) return path;
  const reply = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return spec.version.test(`${reply.stdout ?? ''}${reply.stderr ?? ''}`) ? path : undefined;
}
