/**
 * Files served by a test's loopback server (http-server.ts), each at its path, with the content type a browser
 * needs to run it (a module script served as text/plain is refused).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { text, type TestServer } from './http-server.js';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  // A stylesheet served as anything else is refused in a standards-mode page; an app's build emits these too.
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/** Every file under `directory`, by the path it is served at: `<prefix><path relative to directory>`. */
export function filesUnder(prefix: string, directory: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const entry of readdirSync(directory, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    files.set(`${prefix}${relative(directory, file).split(sep).join('/')}`, readFileSync(file));
  }
  return files;
}

/** Routes each of `files` (bytes by path) on `server`, typed by its extension. */
export function serveFiles(server: TestServer, files: ReadonlyMap<string, Uint8Array>): void {
  for (const [path, bytes] of files) {
    server.route(path, text(bytes, 200, { 'content-type': CONTENT_TYPES[extname(path)] ?? 'application/octet-stream' }));
  }
}
