/**
 * The lab as users get it: robotstxt-wasm packed by npm and unpacked into a project's node_modules, then its
 * installed command's `robotstxt lab` started there. The page it serves is the one the package carries (its
 * dist/lab/), in live mode, with every file the page names; and `isUserAgentHeader`, which the page and the command
 * read crawler names with, loads from the installed package in ESM and CommonJS. Nothing reaches a registry.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packPackage, ROOT, unpackAs } from '../support/drop-in-package.js';
import { startLab, stopLabs } from '../support/lab-command.js';

const execFileAsync = promisify(execFile);

/** A GET of `url` on 127.0.0.1, as a browser's navigation sends it (no Origin). */
function fetchText(url: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, type: response.headers['content-type'] ?? '', body }));
    }).on('error', reject);
  });
}

describe('the lab in the packed package', () => {
  let project: string;
  let installed: string;

  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), 'robotstxt-lab-package-'));
    const { tarball } = await packPackage(ROOT, project);
    installed = await unpackAs(tarball, project, 'robotstxt-wasm');
  }, 120_000);

  afterAll(async () => {
    await stopLabs();
    if (project !== undefined) rmSync(project, { recursive: true, force: true });
  });

  it("serves the package's own page, live, with every file it names", async () => {
    const lab = await startLab([], undefined, join(installed, 'dist/cli.js'));
    const page = await fetchText(lab.address);
    expect([page.status, page.type]).toEqual([200, 'text/html; charset=utf-8']);
    expect(page.body).toContain('data-lab-mode="live"');
    const named = [...page.body.matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map((match) => match[1] as string);
    expect(named.some((file) => file.endsWith('.js'))).toBe(true);
    for (const file of [...named, 'sw.js']) expect((await fetchText(`${lab.address}${file}`)).status, file).toBe(200);
  });

  it('gives isUserAgentHeader in ESM and CommonJS', async () => {
    const header = JSON.stringify('Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)');
    const esm = await execFileAsync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { isUserAgentHeader } from 'robotstxt-wasm'; console.log(isUserAgentHeader(${header}), isUserAgentHeader('ExampleBot/2.1'))`,
      ],
      { cwd: project },
    );
    const cjs = await execFileAsync(
      process.execPath,
      [
        '-e',
        `const { isUserAgentHeader } = require('robotstxt-wasm'); console.log(isUserAgentHeader(${header}), isUserAgentHeader('ExampleBot/2.1'))`,
      ],
      { cwd: project },
    );
    expect([esm.stdout, cjs.stdout]).toEqual(['true false\n', 'true false\n']);
  });
});
