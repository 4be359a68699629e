/**
 * The `robotstxt` command's pipeline guide (docs/cli.md) and the README's first steps for a log run as written:
 * every block of either marked `<!-- run by cli-guide.test.ts -->` is run by bash in a folder holding the files it
 * names (robots/, urls.txt.xz, urls.txt, access.log), with `robotstxt` on PATH as the built command, and what it
 * writes is checked against one plain run (the summary's JSON is checked against a real run's). Only the part size
 * is changed (3 lines instead of 1,000,000, so that a small log makes several parts); the Hadoop line is not run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/cli.js';
import { blocksRunBy, DOCS_DIR, README } from '../support/docs/doc-examples.js';
import { systemTool } from '../support/system-tool.js';

const GUIDE = join(DOCS_DIR, 'cli.md');
const guide = blocksRunBy(readFileSync(GUIDE, 'utf8'), GUIDE, 'cli-guide.test.ts');
const readme = blocksRunBy(readFileSync(README, 'utf8'), README, 'cli-guide.test.ts');

/** The blocks of docs/cli.md under `heading` that this suite runs, in order. */
function shellBlocks(heading: string): string[] {
  const found = guide.filter((block) => block.heading === heading && block.info === 'sh').map((block) => block.source);
  expect(found.length, `docs/cli.md has blocks under "${heading}" run by cli-guide.test.ts`).toBeGreaterThan(0);
  return found;
}

describe('the blocks marked for this suite', () => {
  it('are the ones it runs, no more', () => {
    expect(guide.map((block) => `${block.heading}: ${block.info}`)).toEqual([
      '`filter` in a pipeline: sh',
      '`filter` in a pipeline: json',
      'Splitting a log across machines: sh',
      'Splitting a log across machines: sh',
      'Usage preferences: `--purpose`: text',
      'Usage preferences: `--purpose`: sh',
      'Usage preferences: `--purpose`: sh',
      'Usage preferences: `--purpose`: text',
    ]);
    expect(readme.map((block) => `${block.heading}: ${block.info}`)).toEqual(['First steps: sh']);
  });
});

const work = mkdtempSync(join(tmpdir(), 'robotstxt-guide-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// `robotstxt` on PATH, as `npm install -g` would put it.
const bin = join(work, 'bin');
mkdirSync(bin);
writeFileSync(join(bin, 'robotstxt'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"\n`);
chmodSync(join(bin, 'robotstxt'), 0o755);
const ENV = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` };

mkdirSync(join(work, 'robots'));
writeFileSync(join(work, 'robots', 'www.example.com'), 'User-agent: *\nDisallow: /private/\nDisallow: /cart\n');
writeFileSync(join(work, 'robots', 'shop.example'), 'User-agent: ExampleBot\nAllow: /cart/help\nDisallow: /cart\n');
const URLS = [
  'https://www.example.com/',
  'https://www.example.com/private/plans',
  'https://shop.example/cart',
  'https://shop.example/cart/help',
  'http://www.example.com/cart?id=7',
  'not a url',
  'https://elsewhere.example/anything',
  'https://shop.example/products',
];
writeFileSync(join(work, 'urls.txt'), `${URLS.join('\n')}\n`);
writeFileSync(
  join(work, 'access.log'),
  [
    '203.0.113.9 - - [29/Nov/2026:09:00:00 +0000] "GET /private/a HTTP/1.1" 200 512 "-" "ExampleBot/1.2"',
    '2001:db8::7 - - [29/Nov/2026:09:00:01 +0000] "GET /public HTTP/1.1" 200 80 "-" "curl/8"',
    '203.0.113.9 - - [29/Nov/2026:09:00:02 +0000] "GET http://shop.example/cart HTTP/1.1" 200 1 "-" "ExampleBot/1.2"',
  ].join('\n') + '\n',
);

/** What the guide's runs are compared with: one plain run of the command. */
function filter(...args: string[]): Buffer {
  return execFileSync(process.execPath, [CLI, 'filter', '--agent', 'ExampleBot', '--robots-dir', 'robots/', '-q', ...args], {
    cwd: work,
    env: ENV,
  });
}

function bash(script: string, cwd = work): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync('bash', ['-eo', 'pipefail', '-c', script], { cwd, env: ENV, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const xz = systemTool({ name: 'xz', install: 'apt-get install -y xz-utils' });
const jq = systemTool({ name: 'jq', install: 'apt-get install -y jq' });
const parallel = systemTool({ name: 'parallel', install: 'apt-get install -y parallel', version: /^GNU parallel/ });

describe.skipIf(!xz.found || !jq.found)('docs/cli.md: `filter` in a pipeline', () => {
  it('runs as written, and each command writes what one run of the command says', () => {
    execFileSync('xz', ['-k', '-f', 'urls.txt'], { cwd: work });
    const [block] = shellBlocks('`filter` in a pipeline');
    const run = bash(block as string);
    expect(run.code, run.stderr).toBe(0);
    // More than half of these lines are not malformed: no warning, and the summaries are off (-q) or on stderr only.
    expect(readFileSync(join(work, 'allowed.txt'), 'utf8')).toBe(filter('urls.txt').toString());
    expect(readFileSync(join(work, 'allowed.txt'), 'utf8').split('\n')).toContain('https://shop.example/cart/help');
    const rows = parse(readFileSync(join(work, 'verdicts.csv'))) as string[][];
    expect(rows[0]).toEqual(['n', 'url', 'verdict', 'reason', 'rule_kind', 'rule_pattern', 'rule_line', 'text']);
    expect(rows.slice(1).map((row) => [row[0], row[2], row[3]])).toEqual([
      ['1', 'allowed', 'rule'],
      ['2', 'disallowed', 'rule'],
      ['3', 'disallowed', 'rule'],
      ['4', 'allowed', 'rule'],
      ['5', 'disallowed', 'rule'],
      ['6', 'malformed', 'malformed'],
      ['7', 'allowed', 'missing'],
      ['8', 'allowed', 'rule'],
    ]);
    // jq's lines (n, URL, the blocking rule's pattern), then uniq -c's counts by reason.
    expect(run.stdout).toContain('1\t/private/a\t/private/\n3\thttp://shop.example/cart\t/cart\n');
    expect(run.stdout).toMatch(/^\s+1 malformed\n\s+1 missing\n\s+6 rule\n$/m);
  });
});

describe('docs/cli.md: splitting a log across machines', () => {
  it('split, filtered part by part with --first-line, and sorted by n: the records of one run', () => {
    const [block] = shellBlocks('Splitting a log across machines');
    const run = bash((block as string).replaceAll('1000000', '3'));
    expect(run.code, run.stderr).toBe(0);
    expect(readdirParts()).toEqual(['part.0000', 'part.0001', 'part.0002']);
    expect(readFileSync(join(work, 'verdicts.tsv')).equals(filter('--emit', 'all', '--format', 'tsv', '--no-header', 'urls.txt'))).toBe(
      true,
    );
  });

  it.skipIf(!parallel.found)('GNU parallel with -N and --first-line: the records of one run', () => {
    const block = shellBlocks('Splitting a log across machines')[1] as string;
    const lines = block.slice(0, block.indexOf('# Hadoop')).replaceAll('1000000', '3').replace('64M', '4k');
    const run = bash(lines);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(join(work, 'allowed.txt')).equals(filter('--workers', '1', 'urls.txt'))).toBe(true);
    expect(readFileSync(join(work, 'verdicts.csv')).equals(filter('--format', 'csv', '--no-header', 'urls.txt'))).toBe(true);
  });
});

function readdirParts(): string[] {
  return execFileSync('bash', ['-c', 'ls part.???? | sort'], { cwd: work, encoding: 'utf8' }).trim().split('\n');
}

describe('docs/cli.md: usage preferences', () => {
  // A folder of its own: robots/news.example is the guide's own block, beside a host with no file.
  const folder = join(work, 'purpose');
  const [robotsBlock, outputBlock] = guide.filter((block) => block.heading === 'Usage preferences: `--purpose`' && block.info === 'text');
  mkdirSync(join(folder, 'robots'), { recursive: true });
  writeFileSync(join(folder, 'robots', 'news.example'), `${robotsBlock?.source.trimEnd() ?? ''}\n`);
  const urls = [
    'https://news.example/articles/a',
    'https://news.example/press/b',
    'https://news.example/archive/d',
    'https://news.example/drafts/c',
    'https://elsewhere.example/x',
  ];
  writeFileSync(join(folder, 'urls.txt'), `${urls.join('\n')}\n`);
  const filterHere = (...args: string[]): Buffer =>
    execFileSync(process.execPath, [CLI, 'filter', '--agent', 'ExampleBot', '--robots-dir', 'robots/', '-q', ...args, 'urls.txt'], {
      cwd: folder,
      env: ENV,
    });

  it('the filter runs write what the text says, and what one run of the command writes', () => {
    const [block] = shellBlocks('Usage preferences: `--purpose`');
    const run = bash(block as string, folder);
    expect(run.code, run.stderr).toBe(0);
    const written = (name: string): string => readFileSync(join(folder, name), 'utf8');
    // /archive/ says search=n; /drafts/ may not be crawled; elsewhere.example has no file, so says nothing.
    expect(written('for-search.txt')).toBe(`${[urls[0], urls[1], urls[4]].join('\n')}\n`);
    expect(written('for-search.txt')).toBe(filterHere('--purpose', 'search').toString());
    expect(written('for-training.txt')).toBe(`${urls[1]}\n`);
    expect(written('for-training.txt')).toBe(filterHere('--purpose', 'train-ai', '--unknown', 'drop').toString());
    const rows = parse(readFileSync(join(folder, 'ai-input.csv'))) as string[][];
    expect(rows[0]?.at(-1)).toBe('usage');
    expect(rows.slice(1).map((row) => [row[1], row[2], row[3], row.at(-1)])).toEqual([
      [urls[0], 'disallowed', 'usage-disallow', 'disallow'],
      [urls[1], 'disallowed', 'usage-disallow', 'disallow'],
      [urls[2], 'disallowed', 'usage-disallow', 'disallow'],
      [urls[3], 'disallowed', 'rule', ''],
      [urls[4], 'allowed', 'missing', 'unknown'],
    ]);
  });

  it('check prints the output shown (exit 1: a URL is disallowed)', () => {
    const block = shellBlocks('Usage preferences: `--purpose`')[1] as string;
    const run = bash(block, folder);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toBe(`${outputBlock?.source.trimEnd() ?? ''}\n`);
  });
});

describe("docs/cli.md: the summary's JSON", () => {
  /** The keys of an object, nested ones as `a.b`, down to the counts (a map of causes is a map, not keys). */
  function keysOf(value: unknown, prefix = ''): string[] {
    if (typeof value !== 'object' || value === null || prefix.endsWith('causes.')) return [];
    return Object.entries(value).flatMap(([key, inner]) => [`${prefix}${key}`, ...keysOf(inner, `${prefix}${key}.`)]);
  }

  it('has the fields of a real run’s --summary-json, with --fetch', () => {
    const example = guide.find((block) => block.info === 'json')?.source;
    expect(example, 'a json block run by this suite').toBeDefined();
    const shown = JSON.parse(example as string) as unknown;
    // A --fetch run of one refused host: nothing is sent, and the summary has every field a fetch gives.
    const path = join(work, 'summary.json');
    execFileSync(process.execPath, [CLI, 'filter', '--agent', 'ExampleBot', '--fetch', '-q', '--summary-json', path], {
      cwd: work,
      env: ENV,
      input: 'http://127.0.0.1/x\n',
    });
    const real = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    expect(keysOf(shown).sort()).toEqual(keysOf(real).sort());
  });
});

describe('README.md: the first steps of a log', () => {
  it('runs as written: the allowed lines, then every line as CSV', () => {
    const run = bash(readme[0]!.source);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(join(work, 'allowed.txt')).equals(filter('urls.txt'))).toBe(true);
    expect(readFileSync(join(work, 'verdicts.csv')).equals(filter('--emit', 'all', '--format', 'csv', 'urls.txt'))).toBe(true);
  });
});
