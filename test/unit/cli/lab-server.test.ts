/**
 * The lab server's parts (src/cli/lab/), in this process, over a folder of the test's own: which paths name
 * a file (fileNames), which files LabFiles gives (regular files inside the folder, of a known type, links
 * followed only while they stay inside), and that a failure while answering one request is a 500 for it
 * alone. The built command as users run it: test/e2e/cli/cli-lab.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startLabServer, type LabApi } from '../../../src/cli/lab/server.js';
import { fileNames, LabFiles } from '../../../src/cli/lab/static-files.js';
import { newToken, tokenMatches } from '../../../src/cli/lab/request-guard.js';
import { UsageError } from '../../../src/cli/usage.js';

const work = mkdtempSync(join(tmpdir(), 'robotstxt-lab-unit-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const lab = join(work, 'lab');
mkdirSync(join(lab, 'assets', 'deep'), { recursive: true });
writeFileSync(join(lab, 'index.html'), '<html data-lab-mode="static"><p>data-lab-mode="static"</p></html>');
writeFileSync(join(lab, 'assets', 'app.js'), 'export {};');
writeFileSync(join(lab, 'assets', 'deep', 'style.CSS'), 'p{}');
writeFileSync(join(lab, 'assets', 'engine.wasm'), new Uint8Array([0, 97, 115, 109]));
writeFileSync(join(lab, 'assets', 'notes.md'), '# not served: no known type');
writeFileSync(join(lab, '.secret.txt'), 'hidden');
writeFileSync(join(work, 'outside.js'), 'the file beside the folder');
symlinkSync(join(work, 'outside.js'), join(lab, 'assets', 'out.js'));
symlinkSync(work, join(lab, 'up'));
symlinkSync(join(lab, 'assets', 'app.js'), join(lab, 'alias.js'));
mkdirSync(join(lab, 'folder.js'));
const fifo = process.platform === 'win32' ? undefined : join(lab, 'pipe.txt');
if (fifo !== undefined) execFileSync('mkfifo', [fifo]);

describe('fileNames', () => {
  it.each([
    ['/', ['index.html']],
    ['/index.html', ['index.html']],
    ['/assets/app.js', ['assets', 'app.js']],
    ['/assets/my%20file.js', ['assets', 'my file.js']],
  ])('%s names %j', (path, names) => {
    expect(fileNames(path)).toEqual(names);
  });

  it.each([
    '/..',
    '/../x.js',
    '/assets/../index.html',
    '/./index.html',
    '/%2e%2e/x.js',
    '/.%2E/x.js',
    '/..%2fx.js',
    '/assets%2fapp.js',
    '/..%5cx.js',
    '/..\\x.js',
    '/index.html%00',
    '/a%0ab.js',
    '//index.html',
    '/assets/',
    '/.hidden.js',
    '/C:%5cx.js',
    '/c:x.js',
    '/%',
    '/%e0%a4.js',
  ])('%s names no file', (path) => {
    expect(fileNames(path)).toBeUndefined();
  });
});

describe('LabFiles', () => {
  it('gives index.html in live mode (its first mark only), and the other files as they are, with their type', async () => {
    const files = await LabFiles.open(lab);
    const index = await files.read('/');
    expect(index?.type).toBe('text/html; charset=utf-8');
    expect(Buffer.from(index?.bytes ?? []).toString()).toBe('<html data-lab-mode="live"><p>data-lab-mode="static"</p></html>');
    expect(await files.read('/index.html')).toEqual(index);
    expect(await files.read('/assets/app.js')).toEqual({ bytes: Buffer.from('export {};'), type: 'text/javascript; charset=utf-8' });
    expect((await files.read('/assets/deep/style.CSS'))?.type).toBe('text/css; charset=utf-8');
    expect((await files.read('/assets/engine.wasm'))?.type).toBe('application/wasm');
  });

  it('follows a link that stays inside the folder', async () => {
    const files = await LabFiles.open(lab);
    expect((await files.read('/alias.js'))?.bytes).toEqual(Buffer.from('export {};'));
  });

  it.each([
    ['a link to a file outside', '/assets/out.js'],
    ['a path through a link to a folder outside', '/up/outside.js'],
    ['a hidden file', '/.secret.txt'],
    ['a file of no known type', '/assets/notes.md'],
    ['a folder', '/folder.js'],
    ['a missing file', '/assets/missing.js'],
    ['a name under a file', '/index.html/x.js'],
  ])('gives nothing for %s', async (_what, path) => {
    const files = await LabFiles.open(lab);
    expect(await files.read(path)).toBeUndefined();
  });

  it.skipIf(fifo === undefined)('gives nothing for a FIFO, without waiting for a writer', async () => {
    const files = await LabFiles.open(lab);
    expect(await files.read('/pipe.txt')).toBeUndefined();
  });

  it('refuses a folder without index.html, saying how to build the page', async () => {
    const empty = join(work, 'empty');
    mkdirSync(empty);
    await expect(LabFiles.open(empty)).rejects.toThrow(UsageError);
    await expect(LabFiles.open(empty)).rejects.toThrow(/the lab page is not built: .*index\.html is missing \(run npm run build:lab/);
  });
});

describe('the token', () => {
  it('is 32 base64url characters, new each time, and matches only itself', () => {
    const token = newToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(newToken()).not.toBe(token);
    expect(tokenMatches(token, token)).toBe(true);
    expect(tokenMatches(token.slice(0, -1), token)).toBe(false);
    expect(tokenMatches(`${token}x`, token)).toBe(false);
    expect(tokenMatches('', token)).toBe(false);
  });
});

function get(port: number, path: string, method = 'GET'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}`, 'content-type': 'application/json' };
    const request = httpRequest({ host: '127.0.0.1', port, path, method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    request.on('error', reject);
    request.end(method === 'POST' ? '{}' : undefined);
  });
}

describe('a failure while answering', () => {
  it('is a 500 for that request, and the server goes on serving', async () => {
    // Nothing the real API does throws (the network's troubles are outcomes): this one stands for a bug.
    const api: LabApi = { answer: () => Promise.reject(new Error('a bug')), stop: () => undefined };
    const token = newToken();
    const server = await startLabServer({ files: await LabFiles.open(lab), api, token, port: 0 });
    const port = Number(/:(\d+)\//.exec(server.address)?.[1]);
    const stderr = process.stderr.write;
    const written: string[] = [];
    process.stderr.write = ((text: string) => written.push(text) > 0) as typeof process.stderr.write;
    try {
      const failed = await get(port, `/${token}/api/fetch`, 'POST');
      expect(failed.status).toBe(500);
      expect(JSON.parse(failed.body)).toEqual({ error: 'internal error: the command says more on its stderr' });
    } finally {
      process.stderr.write = stderr;
    }
    expect(written).toEqual(['robotstxt: lab: internal error while answering a request: Error: a bug\n']);
    expect((await get(port, `/${token}/`)).status).toBe(200);
    await server.close();
  });
});
