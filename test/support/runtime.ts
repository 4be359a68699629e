/**
 * Bun and Deno for the suites that run the package under them (harness/other-runtimes.mjs: where .ci/run puts
 * them, how each runs a script). Found in .ci/tools/node_modules/.bin first, then on PATH; where one is
 * missing, the suite is skipped with a note saying how to install it, except under CI=true, where it fails
 * (system-tool.ts's rule).
 */
import { RUNTIMES_INSTALL, TOOLS_BIN, VERSION_LINE, versionOf, type RuntimeName } from '../../harness/other-runtimes.mjs';
import { systemTool } from './system-tool.js';

export type Runtime =
  | { readonly name: RuntimeName; readonly found: true; readonly path: string; readonly version: string }
  | { readonly name: RuntimeName; readonly found: false; readonly note: string };

/** Finds `name` and the version it reports. */
export function findRuntime(name: RuntimeName, env: NodeJS.ProcessEnv = process.env): Runtime {
  const tool = systemTool({ name, install: RUNTIMES_INSTALL, version: VERSION_LINE[name], directories: [TOOLS_BIN] }, env);
  if (!tool.found) return { name, ...tool };
  return { name, found: true, path: tool.path, version: versionOf(name, tool.path) ?? 'of unknown version' };
}
