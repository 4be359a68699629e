/**
 * How `robotstxt filter` reads a host's robots.txt from --robots-dir (src/cli/filter/robots-source.ts): at
 * most the parse limit and one byte more, into an array of exactly that size. The rules a host keeps in the
 * command's cache hold the file's bytes, so a view into a larger read buffer would keep the whole buffer
 * alive behind a file the cache counts as small (this once held 239 MB behind an LRU that counted 10.7 MB).
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readBounded } from '../../../src/cli/filter/robots-source.js';

const directory = mkdtempSync(join(tmpdir(), 'robots-source-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function file(name: string, body: string | Uint8Array): string {
  const path = join(directory, name);
  writeFileSync(path, body);
  return path;
}

describe('reading a robots.txt file for the filter', () => {
  it('gives the whole file, in an array of exactly its size that shares no buffer', () => {
    const body = readBounded(file('small.example', 'User-agent: *\nDisallow: /private\n'), 512_000);
    expect(new TextDecoder().decode(body!)).toBe('User-agent: *\nDisallow: /private\n');
    expect(body!.buffer.byteLength).toBe(body!.length);
    expect(body!.byteOffset).toBe(0);
  });

  it('reads one byte past the limit (so the parser reports the cut) and no more', () => {
    const bytes = new Uint8Array(10_000).fill(0x61);
    const body = readBounded(file('large.example', bytes), 4_096);
    expect(body!.length).toBe(4_097);
    expect(body!.buffer.byteLength).toBe(4_097);
  });

  it('keeps each file apart: a later, shorter read changes nothing in an earlier one', () => {
    const first = readBounded(file('first.example', 'Disallow: /first-file-is-longer\n'), 512_000)!;
    const second = readBounded(file('second.example', 'Allow: /\n'), 512_000)!;
    expect(new TextDecoder().decode(first)).toBe('Disallow: /first-file-is-longer\n');
    expect(new TextDecoder().decode(second)).toBe('Allow: /\n');
  });

  it('reads an empty file as empty, and a missing file or a directory as no file', () => {
    expect(readBounded(file('empty.example', ''), 512_000)).toEqual(new Uint8Array(0));
    expect(readBounded(join(directory, 'missing.example'), 512_000)).toBeNull();
    mkdirSync(join(directory, 'dir.example'));
    expect(readBounded(join(directory, 'dir.example'), 512_000)).toBeNull();
  });
});
