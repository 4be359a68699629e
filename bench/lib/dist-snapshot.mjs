/**
 * A snapshot of the build a benchmark measures: dist/ may be rebuilt while a run goes on, and a run must measure
 * one build. Copied into a temporary folder of its own, and named by the first 12 hex digits of the SHA-256 of its
 * dist/index.js (the report's "build").
 */
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * @param {string} root the repository, whose dist/ is copied
 * @param {string} prefix the temporary folder's name prefix
 * @returns {{ dir: string, build: string }} the folder holding the copy as dist/ (the caller removes it), and the build's name
 */
export function snapshotDist(root, prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(join(root, 'dist'), join(dir, 'dist'), { recursive: true });
  const build = createHash('sha256')
    .update(readFileSync(join(dir, 'dist', 'index.js')))
    .digest('hex')
    .slice(0, 12);
  return { dir, build };
}
