/**
 * The package in a browser: headless Chromium loads a small app (test/e2e/browser/app.js) three ways a
 * page does — the built ESM files of dist/ through a plain `<script type="module">` and an import map, an
 * esbuild bundle, and a Vite production build — and each must answer with the WebAssembly matcher. Every file
 * comes from a server on 127.0.0.1 that the test starts, and every request the browser makes is recorded: each
 * must be that server's. Each page's JavaScript is weighed (bytes and gzipped) and held to the bounds that the
 * README states.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_SOURCE, appProject, bundleWithEsbuild, bundleWithVite, pageHtml, type AppProject } from '../../support/browser-bundles.js';
import { chromiumTool, launchChromium } from '../../support/chromium.js';
import { closeServers, startServer, type TestServer } from '../../support/http-server.js';
import { filesUnder, serveFiles } from '../../support/static-files.js';

const chromium = chromiumTool();
const DIST = fileURLToPath(new URL('../../../dist/', import.meta.url));

/** What the app finds in every page: the README's example, by the native API and by the robots-parser drop-in. */
const EXPECTED_REPORT = {
  verdicts: [true, false, true],
  explained: { allowed: false, line: 2, rule: { kind: 'disallow', pattern: '/private/' } },
  crawlDelay: 2,
  dropIn: { verdicts: [true, false, true], sitemaps: ['https://example.com/sitemap.xml'] },
  matcher: 'wasm',
};

type PageName = 'plain' | 'esbuild' | 'vite';

/**
 * The most JavaScript each page may load, gzipped (README.md, "In a web page", states them): a little over what
 * it weighs now, so that a change which pulls much more of the library (or a second copy of it) into a page fails.
 * The page without a bundler loads dist/ as published: not minified.
 */
const GZIP_BOUND: Record<PageName, number> = { plain: 125 * 1024, esbuild: 65 * 1024, vite: 55 * 1024 };

/** The module import map of the page without a bundler: the package's names mapped to dist/'s files. */
const IMPORT_MAP = JSON.stringify({
  imports: { 'robotstxt-wasm': '/dist/index.js', 'robotstxt-wasm/compat/robots-parser': '/dist/robots-parser.js' },
});

describe.skipIf(!chromium.found)('the package in Chromium', () => {
  let project: AppProject;
  let server: TestServer;
  let browser: Browser;
  /** Every file the server holds, by path. */
  let served: Map<string, Uint8Array>;

  beforeAll(async () => {
    if (!chromium.found) return;
    project = appProject();
    const plainPage = pageHtml('./app.js', `<script type="importmap">${IMPORT_MAP}</script>\n`);
    served = new Map([
      ...filesUnder('/dist/', DIST),
      ['/plain/index.html', new TextEncoder().encode(plainPage)],
      ['/plain/app.js', readFileSync(APP_SOURCE)],
      ...filesUnder('/esbuild/', await bundleWithEsbuild(project)),
      ...filesUnder('/vite/', await bundleWithVite(project, '/vite/')),
    ]);
    server = await startServer();
    serveFiles(server, served);
    browser = await launchChromium(chromium.path);
  });

  afterAll(async () => {
    await browser?.close();
    await closeServers();
    project?.rm();
  });

  it.each<PageName>(['plain', 'esbuild', 'vite'])(
    '%s: answers with the WebAssembly matcher, asking nothing of any other host',
    async (name) => {
      const context = await browser.newContext();
      const requested: string[] = [];
      context.on('request', (request) => requested.push(request.url()));
      const page = await context.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      try {
        await page.goto(`${server.origin}/${name}/index.html`);
        const report = await (await page.waitForFunction(() => (window as { robotstxtReport?: unknown }).robotstxtReport)).jsonValue();
        expect(pageErrors).toEqual([]);
        expect(report).toEqual(EXPECTED_REPORT);
      } finally {
        await context.close();
      }

      for (const url of requested) expect(new URL(url).origin, url).toBe(server.origin);
      const scripts = requested.map((url) => new URL(url).pathname).filter((path) => path.endsWith('.js'));
      expect(scripts.filter((path) => !served.has(path))).toEqual([]);
      // Each file gzipped on its own, as a server sends it.
      const files = scripts.map((path) => served.get(path) ?? new Uint8Array());
      const bytes = files.reduce((sum, file) => sum + file.length, 0);
      const gzipped = files.reduce((sum, file) => sum + gzipSync(file).length, 0);
      console.log(`${name}: ${scripts.length} scripts, ${bytes} bytes, ${gzipped} gzipped (${scripts.join(', ')})`);
      expect(gzipped).toBeLessThanOrEqual(GZIP_BOUND[name]);
    },
  );
});
