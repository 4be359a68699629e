/**
 * The browser suite's app (test/e2e/browser/app.js) bundled as a user's project bundles it: a folder holding the
 * app, an index.html and `node_modules/robotstxt-wasm` (a link to this package, so the bundlers resolve it by
 * its name and its "exports", from the built dist/), then esbuild through its JS API and a Vite production
 * build, each into a folder of its own.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import { build as viteBuild } from 'vite';

const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const APP_SOURCE = fileURLToPath(new URL('../e2e/browser/app.js', import.meta.url));

/** A page that runs the module at `src`, after `head` (an import map, for the page without a bundler). */
export function pageHtml(src: string, head = ''): string {
  return `<!doctype html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>robotstxt-wasm</title>\n${head}</head>\n<body>\n<script type="module" src="${src}"></script>\n</body>\n</html>\n`;
}

/** A user's project: the app, its page, and the package installed; rm() removes it. */
export interface AppProject {
  readonly dir: string;
  rm(): void;
}

export function appProject(): AppProject {
  const dir = mkdtempSync(join(tmpdir(), 'robotstxt-browser-'));
  copyFileSync(APP_SOURCE, join(dir, 'app.js'));
  writeFileSync(join(dir, 'index.html'), pageHtml('./app.js'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(PACKAGE_ROOT, join(dir, 'node_modules', 'robotstxt-wasm'), 'dir');
  return { dir, rm: () => rmSync(dir, { recursive: true, force: true }) };
}

/** esbuild's bundle of the app, minified as for production: `<dir>/esbuild/app.js` beside its page. */
export async function bundleWithEsbuild(project: AppProject): Promise<string> {
  const outdir = join(project.dir, 'esbuild');
  await esbuild({
    entryPoints: [join(project.dir, 'app.js')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    outdir,
    logLevel: 'silent',
  });
  writeFileSync(join(outdir, 'index.html'), pageHtml('./app.js'));
  return outdir;
}

/** `vite build` of the project (its index.html and what it imports), for pages served under `base`. */
export async function bundleWithVite(project: AppProject, base: string): Promise<string> {
  const outDir = join(project.dir, 'vite');
  // No config file, as a project without one: Vite's defaults for a production build.
  await viteBuild({ root: project.dir, base, configFile: false, logLevel: 'silent', build: { outDir, emptyOutDir: true } });
  return outDir;
}
