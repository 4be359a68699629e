/**
 * `robotstxt filter --purpose`'s two readings agree: the WebAssembly line scanner (which decides the hosts whose
 * files have no usage line, and hands every other line back) and the line-by-line reading (the TypeScript
 * executor, which never scans) write the same bytes and count the same lines by reason, for every purpose, with
 * --unknown keep and drop, whole lines, fields and one --robots file. And each line's fate is what the library
 * says: a line is kept exactly when `rules.usage(url)` is not null and its preference for the purpose is not
 * `disallow` (nor `unknown` with --unknown drop); a host with no file states no preference.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { decideBatch } from '../../../src/cli/filter/decide.js';
import { readFilterOptions, type FilterSettings } from '../../../src/cli/filter/options.js';
import { openSource } from '../../../src/cli/filter/robots-source.js';
import { lineScannerFor } from '../../../src/cli/filter/scanned.js';
import { setMatcher } from '../../../src/platform/inline.js';
import { parseRobotsTxt } from '../../support/library.js';

const work = mkdtempSync(join(tmpdir(), 'robotstxt-purpose-'));
afterAll(() => {
  setMatcher('wasm');
  rmSync(work, { recursive: true, force: true });
});

const encoder = new TextEncoder();
const ROBOTS_DIR = join(work, 'robots');
mkdirSync(ROBOTS_DIR);
/** Files with usage lines (in the agent's group, in another, by path, with `*`), one without, one blocking all. */
const FILES: Record<string, string> = {
  'ai.example': [
    'User-agent: *',
    'Disallow: /',
    '',
    'User-agent: ExampleBot',
    'Disallow: /private/',
    'Allow: /',
    'Content-Usage: train-ai=n',
    'Content-Usage: /open/ train-ai=y',
    'Content-Usage: /news/ search=n',
    'Content-Signal: search=yes, ai-input=no',
    'Content-Signal: /open/ ai-input=yes',
    'Content-Usage: /*.pdf train-ai=y, search=y',
  ].join('\n'),
  'signal.example': 'User-agent: *\nAllow: /\nContent-Signal: search=yes, ai-train=no\nContent-Signal: /blog/ ai-input=yes\n',
  'mixed.example': 'User-agent: *\nDisallow: /tmp/\ncontent-signal: Search=Yes, AI-Input=No\n',
  'other.example': 'User-agent: OtherBot\nDisallow: /\nContent-Usage: train-ai=n\n\nUser-agent: *\nDisallow: /x\n',
  'plain.example': 'User-agent: *\nDisallow: /x/\n# Content-Usage is only named in a comment here\n',
  'blocked.example': 'User-agent: *\nDisallow: /\n',
};
for (const [name, body] of Object.entries(FILES)) writeFileSync(join(ROBOTS_DIR, name), body);
const SINGLE = join(work, 'single.txt');
writeFileSync(SINGLE, FILES['ai.example'] as string);

const HOSTS = [...Object.keys(FILES), 'none.example'];
const PATHS = ['/', '/page', '/open/a', '/news/today', '/private/x', '/blog/post', '/tmp/z', '/x/1', '/doc.pdf', '/open/b.pdf'];

/** Lines: URLs of every host and path, some in capitals, paths alone (for --robots), and no URL at all. */
const lineArbitrary: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(fc.constantFrom('http://', 'https://', 'HTTPS://'), fc.constantFrom(...HOSTS), fc.constantFrom(...PATHS))
      .map((parts) => parts.join('')),
  },
  { weight: 1, arbitrary: fc.constantFrom(...PATHS) },
  { weight: 1, arbitrary: fc.constantFrom('', 'not a url', 'ftp://ai.example/a') },
);
const batchArbitrary = fc.array(fc.tuple(lineArbitrary, fc.boolean()), { minLength: 1, maxLength: 50 });

function batchOf(lines: readonly (readonly [string, boolean])[], prefix = ''): Uint8Array {
  return encoder.encode(lines.map(([line, crlf]) => `${prefix}${line}${crlf ? '\r\n' : '\n'}`).join(''));
}

function settingsOf(args: readonly string[]): FilterSettings {
  return readFilterOptions(['--agent', 'ExampleBot', ...args]);
}

/** decideBatch with the matcher in use, for the settings of `args` and a source opened for them. */
function decided(batch: Uint8Array, args: readonly string[]) {
  const settings = settingsOf(args);
  return decideBatch(batch, settings, openSource(settings), 1);
}

/** decideBatch with the WebAssembly matcher (scanning) and with the TypeScript executor (line by line). */
function bothWays(batch: Uint8Array, args: readonly string[]) {
  const settings = settingsOf(args);
  setMatcher('wasm');
  expect(lineScannerFor(settings)).toBeDefined();
  const scanned = decideBatch(batch, settings, openSource(settings), 1);
  setMatcher('typescript');
  const lineByLine = decideBatch(batch, settings, openSource(settings), 1);
  setMatcher('wasm');
  expect(Buffer.from(scanned.output).toString('latin1')).toBe(Buffer.from(lineByLine.output).toString('latin1'));
  expect({ ...scanned, output: undefined }).toEqual({ ...lineByLine, output: undefined });
  return scanned;
}

const PURPOSES = ['train-ai', 'search', 'ai-input'] as const;
const VARIANTS = PURPOSES.flatMap((purpose) => (['keep', 'drop'] as const).map((unknown) => [purpose, unknown] as const));

describe('the line scanner and the line-by-line reading agree with --purpose', () => {
  it.each(VARIANTS)('--purpose %s --unknown %s, whole lines, every --emit', (purpose, unknown) => {
    fc.assert(
      fc.property(batchArbitrary, fc.constantFrom('allowed', 'disallowed', 'all'), (lines, emit) => {
        bothWays(batchOf(lines), ['--robots-dir', ROBOTS_DIR, '--purpose', purpose, '--unknown', unknown, '--emit', emit]);
      }),
      { numRuns: 60 },
    );
  });

  it.each(VARIANTS)('--purpose %s --unknown %s, the second tab-separated field', (purpose, unknown) => {
    fc.assert(
      fc.property(batchArbitrary, (lines) => {
        bothWays(batchOf(lines, 'id\t'), [
          '--robots-dir',
          ROBOTS_DIR,
          '--field',
          '2',
          '--purpose',
          purpose,
          '--unknown',
          unknown,
          '--emit',
          'all',
        ]);
      }),
      { numRuns: 40 },
    );
  });

  it.each(VARIANTS)('--purpose %s --unknown %s, one --robots file for every line (paths included)', (purpose, unknown) => {
    fc.assert(
      fc.property(batchArbitrary, (lines) => {
        bothWays(batchOf(lines), ['--robots', SINGLE, '--purpose', purpose, '--unknown', unknown, '--emit', 'all']);
      }),
      { numRuns: 40 },
    );
  });

  it('--missing disallow: a host with no file has no preference, its lines stay disallowed with reason missing', () => {
    const batch = encoder.encode('https://none.example/a\nhttps://plain.example/a\n');
    const result = bothWays(batch, ['--robots-dir', ROBOTS_DIR, '--missing', 'disallow', '--purpose', 'train-ai', '--unknown', 'drop']);
    expect(result.reasons).toMatchObject({ missing: 1, 'usage-unknown': 1 });
  });
});

/** Which lines the library keeps: crawlable, and a preference that --unknown does not drop. */
function keptByLibrary(urls: readonly string[], purpose: (typeof PURPOSES)[number], unknown: 'keep' | 'drop'): string[] {
  return urls.filter((url) => {
    const host = new URL(url).hostname;
    const body = Object.hasOwn(FILES, host) ? readFileSync(join(ROBOTS_DIR, host), 'utf8') : undefined;
    const robots = body === undefined ? undefined : parseRobotsTxt(body);
    // No file: allowed (--missing allow), no preference stated.
    const usage = robots === undefined ? { [purpose]: 'unknown' } : robots.forAgent('ExampleBot').usage(url);
    robots?.dispose();
    if (usage === null) return false;
    const preference = usage[purpose];
    return preference === 'allow' || (preference === 'unknown' && unknown === 'keep');
  });
}

describe("the lines kept are the library's answer", () => {
  const urls = HOSTS.flatMap((host) => PATHS.map((path) => `https://${host}${path}`));
  const batch = encoder.encode(`${urls.join('\n')}\n`);

  it.each(VARIANTS)('--purpose %s --unknown %s', (purpose, unknown) => {
    const result = bothWays(batch, ['--robots-dir', ROBOTS_DIR, '--purpose', purpose, '--unknown', unknown]);
    const kept = keptByLibrary(urls, purpose, unknown);
    expect(Buffer.from(result.output).toString()).toBe(kept.map((url) => `${url}\n`).join(''));
    // Records: the same lines allowed, whatever the format.
    const records = decided(batch, ['--robots-dir', ROBOTS_DIR, '--purpose', purpose, '--unknown', unknown, '--format', 'jsonl']);
    const shown = Buffer.from(records.output)
      .toString()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { url: string });
    expect(shown.map((record) => record.url)).toEqual(kept);
    expect({ ...records, output: undefined }).toEqual({ ...result, output: undefined });
  });

  it('without --purpose nothing is asked of the usage lines: the same bytes as a file where they are comments', () => {
    const twin = join(work, 'twin');
    mkdirSync(twin);
    for (const [name, body] of Object.entries(FILES)) writeFileSync(join(twin, name), body.replace(/^content-(usage|signal):/gim, '# $&'));
    for (const format of ['text', 'tsv', 'jsonl', 'csv']) {
      const args = ['--emit', 'all', '--format', format];
      const withLines = decided(batch, ['--robots-dir', ROBOTS_DIR, ...args]);
      const withComments = decided(batch, ['--robots-dir', twin, ...args]);
      expect(Buffer.from(withLines.output).toString()).toBe(Buffer.from(withComments.output).toString());
      expect(Buffer.from(withLines.output).toString()).not.toContain('usage');
    }
  });
});
