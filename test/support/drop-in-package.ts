/**
 * robots-parser-wasm (packages/robots-parser-wasm/) as users get it: packed by npm from what `npm run build` left
 * there, then unpacked into a folder's node_modules under the name a user's install gives it (its own, or
 * `robots-parser` where an override put it there). Nothing here reaches a registry.
 */
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DROP_IN_PACKAGE = join(ROOT, 'packages/robots-parser-wasm');

export interface PackedDropIn {
  /** The tarball's path. */
  readonly tarball: string;
  /** The paths it holds, as npm lists them (`package/` left out). */
  readonly files: readonly string[];
}

/**
 * Packs the package in `folder` (robotstxt-wasm at ROOT, or robots-parser-wasm) into `destination`.
 * --ignore-scripts: its prepack would rebuild dist/ under the feet of the other tests; `npm test` has built it.
 */
export async function packPackage(folder: string, destination: string): Promise<PackedDropIn> {
  const { stdout } = await execFileAsync('npm', ['pack', folder, '--pack-destination', destination, '--json', '--ignore-scripts'], {
    cwd: ROOT,
  });
  const [packed] = JSON.parse(stdout) as [{ filename: string; files: { path: string }[] }];
  return { tarball: join(destination, packed.filename), files: packed.files.map((file) => file.path) };
}

/** Packs robots-parser-wasm into `destination` (packPackage). */
export function packDropIn(destination: string): Promise<PackedDropIn> {
  return packPackage(DROP_IN_PACKAGE, destination);
}

/** Unpacks `tarball` as `<folder>/node_modules/<name>`, and returns that path. */
export async function unpackAs(tarball: string, folder: string, name: string): Promise<string> {
  const target = join(folder, 'node_modules', name);
  await mkdir(target, { recursive: true });
  // npm's tarballs hold one folder, package/.
  await execFileAsync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
  return target;
}
