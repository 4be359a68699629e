/**
 * `robotstxt check` tells, besides each URL's verdict, what the site says its content may be used for: the
 * library's `rules.usage(url)` (train-ai, search, ai-input, and the Content-Usage and Content-Signal lines that
 * decided), as an indented line under the verdict in text (only for a file that has usage lines: the lines of
 * every other file are what they always were) and as a `usage` field in JSON, null when the URL may not be
 * crawled. A fetched robots.txt reads as RobotsCache.usage() reads it: a 4xx states no preference, a 5xx leaves
 * nothing crawlable. The built dist/cli.js is run as users run it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { run } from '../../support/cli.js';
import { closeServers, startServer, status, text } from '../../support/http-server.js';
import { parseRobotsTxt, RobotsCache } from '../../support/library.js';

const work = mkdtempSync(join(tmpdir(), 'robotstxt-check-usage-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(closeServers);

const ROBOTS = [
  'User-agent: *',
  'Disallow: /private/',
  'Content-Usage: train-ai=n',
  'Content-Usage: /open/ train-ai=y',
  'Content-Signal: search=yes, ai-input=no',
  '',
  'User-agent: OtherBot',
  'Disallow: /',
  '',
].join('\n');
const robotsFile = join(work, 'robots.txt');
writeFileSync(robotsFile, ROBOTS);
/** The same rules on the same lines, without a usage line. */
const plainFile = join(work, 'plain.txt');
writeFileSync(plainFile, ROBOTS.replace(/^Content-/gm, '# Content-'));

const URLS = ['/page', 'https://example.com/open/a', '/private/x'];

/** The library's answer, as JSON writes it (a path-less line's path is null). */
function libraryUsage(body: string, url: string, agent = 'ExampleBot'): unknown {
  const robots = parseRobotsTxt(body);
  const usage = robots.forAgent(agent).usage(url);
  robots.dispose();
  return JSON.parse(JSON.stringify(usage, (_key, value: unknown) => (value === undefined ? null : value))) as unknown;
}

function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('check: usage preferences in text', () => {
  it('an indented line under each verdict: the preference per purpose and the lines that decided', async () => {
    const result = await run(['check', robotsFile, 'ExampleBot', ...URLS]);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')).toEqual([
      'allowed     /page                       (no rule)',
      '            usage: train-ai disallow, search allow, ai-input disallow (Content-Usage line 3: train-ai=n; Content-Signal line 5: search=yes, ai-input=no)',
      'allowed     https://example.com/open/a  (no rule)',
      '            usage: train-ai allow, search allow, ai-input disallow (Content-Usage line 4: /open/ train-ai=y; Content-Signal line 5: search=yes, ai-input=no)',
      'disallowed  /private/x                  disallow: /private/ (line 2)',
      '            usage: none, the URL may not be crawled',
      '',
    ]);
  });

  it("the verdict lines are the ones a file without usage lines gives, and that file's output is unchanged", async () => {
    const withUsage = await run(['check', robotsFile, 'ExampleBot', ...URLS]);
    const without = await run(['check', plainFile, 'ExampleBot', ...URLS]);
    expect(without.stdout).not.toContain('usage');
    expect(
      withUsage.stdout
        .split('\n')
        .filter((line) => !line.startsWith(' '))
        .join('\n'),
    ).toBe(without.stdout);
  });

  it('an agent whose group has no usage line: not crawlable, or every preference unknown with no line applying', async () => {
    const blocked = await run(['check', robotsFile, 'OtherBot', '/page']);
    expect(blocked.stdout).toBe('disallowed  /page  disallow: / (line 8)\n            usage: none, the URL may not be crawled\n');
    const body = 'User-agent: OtherBot\nAllow: /\n\nUser-agent: *\nDisallow: /\nContent-Usage: train-ai=n\n';
    const file = join(work, 'other.txt');
    writeFileSync(file, body);
    expect(libraryUsage(body, '/page', 'OtherBot')).toEqual({
      'train-ai': 'unknown',
      search: 'unknown',
      'ai-input': 'unknown',
      statements: [],
    });
    expect((await run(['check', file, 'OtherBot', '/page'])).stdout).toBe(
      'allowed     /page  allow: / (line 2)\n            usage: train-ai unknown, search unknown, ai-input unknown (no Content-Usage or Content-Signal line applies)\n',
    );
  });

  it('a control character in a usage line is shown escaped', async () => {
    const file = join(work, 'escape.txt');
    writeFileSync(file, 'User-agent: *\nAllow: /\nContent-Usage: train-ai=n\x1b[31m\n');
    const result = await run(['check', file, 'ExampleBot', '/']);
    expect(result.stdout).toContain('(Content-Usage line 3: train-ai=n\\x1b[31m)');
    expect(result.stdout).not.toContain('\x1b');
  });
});

describe('check: usage preferences in JSON', () => {
  it("a usage field after the others: the library's answer, null when the URL may not be crawled", async () => {
    const result = await run(['check', '--format', 'jsonl', robotsFile, 'ExampleBot', ...URLS]);
    const plain = await run(['check', '--format', 'jsonl', plainFile, 'ExampleBot', ...URLS]);
    const objects = jsonLines(result.stdout);
    expect(objects.map((object) => object.usage)).toEqual(URLS.map((url) => libraryUsage(ROBOTS, url)));
    expect(objects[2]?.usage).toBeNull();
    expect(objects[0]?.usage).toMatchObject({ 'train-ai': 'disallow', search: 'allow', 'ai-input': 'disallow' });
    // Every field it had, in its place, with usage last; the same values as for the file without usage lines.
    jsonLines(plain.stdout).forEach((old, index) => {
      const object = objects[index] as Record<string, unknown>;
      expect(Object.keys(object)).toEqual(['url', 'allowed', 'line', 'rule', 'agent', 'matched', 'profile', 'source', 'usage']);
      expect({ ...object, usage: undefined, source: undefined }).toEqual({ ...old, usage: undefined, source: undefined });
    });
  });
});

describe('check: a fetched robots.txt', () => {
  it('a file served: its preferences, as RobotsCache.usage() answers', async () => {
    const server = await startServer({ '/robots.txt': text(ROBOTS) });
    const urls = [`${server.origin}/page`, `${server.origin}/open/a`, `${server.origin}/private/x`];
    const cache = new RobotsCache({ userAgent: 'ExampleBot/1.0' });
    const expected = await Promise.all(urls.map(async (url) => JSON.parse(JSON.stringify(await cache.usage(url))) as unknown));
    cache.dispose();
    const result = await run(['check', '--allow-internal-hosts', '--format', 'jsonl', server.origin, 'ExampleBot', ...urls]);
    expect(jsonLines(result.stdout).map((object) => object.usage)).toMatchObject(expected as object[]);
    const textual = await run(['check', '--allow-internal-hosts', server.origin, 'ExampleBot', '/open/a']);
    expect(textual.stdout.split('\n').slice(1, 3)).toEqual([
      'allowed     /open/a  (no rule)',
      '            usage: train-ai allow, search allow, ai-input disallow (Content-Usage line 4: /open/ train-ai=y; Content-Signal line 5: search=yes, ai-input=no)',
    ]);
  });

  it.each([
    [404, { 'train-ai': 'unknown', search: 'unknown', 'ai-input': 'unknown', statements: [] }],
    [503, null],
  ])('a %i: usage %j, and in text no usage line (there is no file)', async (code, usage) => {
    const server = await startServer({ '/robots.txt': status(code) });
    const cache = new RobotsCache({ userAgent: 'ExampleBot/1.0' });
    expect(JSON.parse(JSON.stringify(await cache.usage(`${server.origin}/a`))) as unknown).toEqual(usage);
    cache.dispose();
    const result = await run(['check', '--allow-internal-hosts', '--format', 'jsonl', server.origin, 'ExampleBot', '/a']);
    expect(jsonLines(result.stdout)[0]?.usage).toEqual(usage);
    const textual = await run(['check', '--allow-internal-hosts', server.origin, 'ExampleBot', '/a']);
    expect(textual.stdout).not.toContain('usage');
    expect(textual.stdout.trimEnd().split('\n')).toHaveLength(2);
  });
});

describe('check --help', () => {
  it('tells of the usage line and field', async () => {
    const help = await run(['check', '--help']);
    expect(help.stdout).toContain('"usage"');
    expect(help.stdout).toContain('usage: train-ai disallow, search unknown, ai-input unknown (Content-Usage line 3: train-ai=n)');
  });
});
