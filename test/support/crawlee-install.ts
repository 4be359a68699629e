/**
 * A Crawlee user's install, assembled without a registry: a folder whose node_modules holds copies of the Crawlee
 * packages installed at the root (every package they need, read from package-lock.json) and, where robots-parser
 * was, robots-parser-wasm from its packed tarball, as an override (npm `overrides`, pnpm, yarn `resolutions`)
 * installs it. Copies, not symlinks: Node resolves a symlinked package from its real path, where the root's real
 * robots-parser would be found.
 */
import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, unpackAs } from './drop-in-package.js';
import { resolveEntry, type Lock } from './lockfile-check.js';

/** The Crawlee packages a user installs; the test's scripts import these. */
const CRAWLEE = ['@crawlee/cheerio', '@crawlee/utils'];

/** The lock file's paths of `roots` and everything they depend on, at the top level of node_modules. */
async function installedClosure(roots: readonly string[]): Promise<string[]> {
  const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8')) as Lock;
  const packages = lock.packages ?? {};
  const seen = new Set<string>();
  const pending = roots.map((name) => `node_modules/${name}`);
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    if (seen.has(path)) continue;
    seen.add(path);
    const entry = packages[path] ?? {};
    for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies })) {
      const found = resolveEntry(packages, path, name);
      if (found !== undefined) pending.push(found);
    }
  }
  // A nested package (a/node_modules/b) comes along inside its parent's folder.
  return [...seen].filter((path) => path.lastIndexOf('node_modules/') === 0);
}

/**
 * Assembles the install in `folder`, robots-parser being `dropInTarball` unpacked; returns the folder's
 * node_modules/robots-parser.
 */
export async function assembleCrawleeInstall(folder: string, dropInTarball: string): Promise<string> {
  for (const path of await installedClosure(CRAWLEE)) {
    if (path === 'node_modules/robots-parser') continue;
    await cp(join(ROOT, path), join(folder, path), { recursive: true, verbatimSymlinks: true });
  }
  return unpackAs(dropInTarball, folder, 'robots-parser');
}
