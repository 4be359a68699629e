/**
 * The built lab page's files (`npm run build:lab` writes them to dist/lab/), as the lab server may give
 * them: only regular files inside that folder, by names of a known type, read from the path of a request
 * whose every segment is decoded and checked. index.html is given in live mode: the page may then call
 * the server's fetch API.
 */
import { constants } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { UsageError } from '../usage.js';

/** The types of what a Vite build of the page holds; a name of any other type is not served. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
};

const INDEX = 'index.html';
/** The built page says it is static; served by the command, it is live. */
const STATIC_MODE = 'data-lab-mode="static"';
const LIVE_MODE = 'data-lab-mode="live"';

/** Larger than anything the page's build holds: a file past it is not read into memory. */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

// O_NOFOLLOW: the file opened is the one realpath() checked, not a link put there since. O_NONBLOCK: a FIFO
// opens at once (and is then refused as no regular file) instead of waiting for a writer. Neither exists on
// Windows, where the checks before the open stand alone.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** A file to send: its bytes and its Content-Type. */
export interface LabFile {
  readonly bytes: Uint8Array;
  readonly type: string;
}

/**
 * The names of `path` (the part of a request's path after the token, starting with "/"), each decoded,
 * or undefined when one cannot name a file in the folder: an empty segment (`//`, a trailing `/`), a
 * malformed escape, a name starting with "." (`..`, `.`, hidden files), or one holding a slash, a
 * backslash, a colon (a Windows drive or stream) or a control character once decoded (`%2f`, `%5c`,
 * `%00`). "/" alone is index.html.
 */
export function fileNames(path: string): string[] | undefined {
  if (path === '/') return [INDEX];
  const names: string[] = [];
  for (const segment of path.slice(1).split('/')) {
    let name: string;
    try {
      name = decodeURIComponent(segment);
    } catch {
      return undefined;
    }
    if (name === '' || name.startsWith('.') || /[/\\:\u0000-\u001f\u007f]/.test(name)) return undefined;
    names.push(name);
  }
  return names;
}

/** The lab's folder, resolved once: every file served is checked to be inside it. */
export class LabFiles {
  private constructor(private readonly root: string) {}

  /**
   * The folder `directory` (the built page, beside the command), or a UsageError that says how to build
   * it when its index.html is missing.
   */
  static async open(directory: string): Promise<LabFiles> {
    const index = join(directory, INDEX);
    const found = await stat(index).then(
      (stats) => stats.isFile(),
      () => false,
    );
    if (!found) {
      throw new UsageError(`the lab page is not built: ${index} is missing (run npm run build:lab, or npm run build, first)`);
    }
    return new LabFiles(await realpath(directory));
  }

  /** The file `path` names (see fileNames), or undefined when there is none to serve. */
  async read(path: string): Promise<LabFile | undefined> {
    const names = fileNames(path);
    const type = names === undefined ? undefined : CONTENT_TYPES[extname(names[names.length - 1] as string).toLowerCase()];
    if (names === undefined || type === undefined) return undefined;
    const bytes = await this.bytesOf(join(this.root, ...names));
    if (bytes === undefined) return undefined;
    if (names.length === 1 && names[0] === INDEX)
      return { bytes: Buffer.from(bytes.toString('utf8').replace(STATIC_MODE, LIVE_MODE)), type };
    return { bytes, type };
  }

  /** The bytes of the regular file at `candidate`, when it resolves (links followed) to a place inside the folder. */
  private async bytesOf(candidate: string): Promise<Buffer | undefined> {
    const real = await realpath(candidate).catch(() => undefined);
    if (real === undefined || !real.startsWith(this.root + sep)) return undefined;
    const handle = await open(real, OPEN_FLAGS).catch(() => undefined);
    if (handle === undefined) return undefined;
    try {
      const stats = await handle.stat();
      if (!stats.isFile() || stats.size > MAX_FILE_BYTES) return undefined;
      return await handle.readFile();
    } catch {
      return undefined;
    } finally {
      await handle.close();
    }
  }
}
