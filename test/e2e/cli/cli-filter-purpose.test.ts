/**
 * `robotstxt filter --purpose train-ai|search|ai-input [--unknown keep|drop]` as users run it (the built
 * dist/cli.js): the lines kept are those the library's own `rules.usage(url)` (and, for fetched hosts,
 * `RobotsCache.usage(url)`) says may be crawled and are not refused that use; each record format carries the
 * preference in a last `usage` field; a line dropped by its preference has its own reason, counted in the
 * summary; worker threads write the bytes the main thread writes; a 4xx host states no preference and a 5xx host
 * is not crawlable; the flags are checked before any work. Without --purpose nothing changes, byte for byte.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BATCH_BYTES } from '../../../src/cli/filter/input.js';
import { CLI, run, runForBytes, type Run } from '../../support/cli.js';
import { closeServers, startServer, status, text } from '../../support/http-server.js';
import { parseRobotsTxt, RobotsCache } from '../../support/library.js';

const work = mkdtempSync(join(tmpdir(), 'robotstxt-purpose-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(closeServers);

type Purpose = 'train-ai' | 'search' | 'ai-input';
type Preference = 'allow' | 'disallow' | 'unknown';
const PURPOSES: readonly Purpose[] = ['train-ai', 'search', 'ai-input'];
const VARIANTS = PURPOSES.flatMap((purpose) => (['keep', 'drop'] as const).map((unknown) => [purpose, unknown] as const));

/**
 * Content-Usage (draft-ietf-aipref-attach-05) and Content-Signal (https://contentsignals.org/) lines, with
 * paths and without, in the agent's own group and in others', in capitals; usage lines follow the group's
 * Allow and Disallow lines, so that their grouping is the same however a parser groups them.
 */
const FILES: Record<string, string> = {
  'ai.example': [
    'User-agent: *',
    'Disallow: /',
    'Content-Usage: train-ai=y',
    '',
    'User-agent: ExampleBot',
    'Disallow: /private/',
    'Allow: /',
    'Content-Usage: train-ai=n',
    'Content-Usage: /open/ train-ai=y',
    'Content-Usage: /news/ search=n',
    'Content-Signal: search=yes, ai-input=no',
    'Content-Signal: /open/ ai-input=yes',
    '',
  ].join('\n'),
  'signal.example': 'User-agent: *\nAllow: /\nContent-Signal: search=yes, ai-train=no\nContent-Signal: /blog/ ai-input=yes\n',
  'mixed.example': 'User-agent: *\nDisallow: /tmp/\ncontent-signal: Search=Yes, AI-Input=No\n',
  'plain.example': 'User-agent: *\nDisallow: /x/\n',
};
const robotsDir = join(work, 'robots');
mkdirSync(robotsDir);
for (const [name, body] of Object.entries(FILES)) writeFileSync(join(robotsDir, name), body);
/** The same files with every usage line a comment: the same rules, on the same lines. */
const twinDir = join(work, 'twin');
mkdirSync(twinDir);
for (const [name, body] of Object.entries(FILES)) writeFileSync(join(twinDir, name), body.replace(/^content-(usage|signal):/gim, '# $&'));

const URLS = [
  'https://ai.example/page',
  'https://ai.example/open/page',
  'https://ai.example/news/today',
  'https://ai.example/private/x',
  'https://signal.example/',
  'https://signal.example/blog/post',
  'https://mixed.example/a',
  'https://mixed.example/tmp/z',
  'https://plain.example/a',
  'https://plain.example/x/1',
  'https://none.example/anything',
];
const LINES = [...URLS.slice(0, 6), 'not a url', ...URLS.slice(6)];
const urlsFile = join(work, 'urls.txt');
writeFileSync(urlsFile, `${LINES.join('\n')}\n`);

/** What the library says of a URL: null when it may not be crawled, else its preference for `purpose`. */
function libraryPreference(url: string, purpose: Purpose): Preference | null {
  const host = new URL(url).hostname;
  // No file known (--missing allow): crawlable, no preference stated.
  if (!Object.hasOwn(FILES, host)) return 'unknown';
  const robots = parseRobotsTxt(FILES[host] as string);
  const usage = robots.forAgent('ExampleBot').usage(url);
  robots.dispose();
  return usage === null ? null : usage[purpose];
}

function kept(preference: Preference | null, unknown: 'keep' | 'drop'): boolean {
  return preference === 'allow' || (preference === 'unknown' && unknown === 'keep');
}

const FILTER = ['filter', '--agent', 'ExampleBot', '--robots-dir', robotsDir, '-q'];

async function filter(...args: string[]): Promise<Run> {
  const result = await run([...FILTER, ...args, urlsFile]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result;
}

describe('filter --purpose keeps the lines the library says may be crawled and used so', () => {
  it.each(VARIANTS)('--purpose %s --unknown %s', async (purpose, unknown) => {
    const expected = URLS.filter((url) => kept(libraryPreference(url, purpose), unknown));
    const { stdout } = await filter('--purpose', purpose, '--unknown', unknown);
    expect(stdout).toBe(expected.map((url) => `${url}\n`).join(''));
  });

  it('the answers differ by purpose: each purpose drops a line that may be crawled, and keeps one', () => {
    for (const purpose of PURPOSES) {
      const preferences = URLS.map((url) => libraryPreference(url, purpose));
      expect(preferences, purpose).toContain('disallow');
      expect(preferences, purpose).toContain('allow');
      expect(preferences, purpose).toContain('unknown');
      expect(preferences, purpose).toContain(null);
    }
  });

  it('--unknown keep is the default', async () => {
    const asked = await filter('--purpose', 'search', '--unknown', 'keep');
    expect((await filter('--purpose', 'search')).stdout).toBe(asked.stdout);
  });

  it('--emit disallowed writes the lines not kept: a robots.txt disallow and a preference alike', async () => {
    const { stdout } = await filter('--purpose', 'ai-input', '--emit', 'disallowed');
    expect(stdout).toBe(
      URLS.filter((url) => !kept(libraryPreference(url, 'ai-input'), 'keep'))
        .map((url) => `${url}\n`)
        .join(''),
    );
  });

  it('--robots FILE: paths and URLs decided by the one file', async () => {
    const single = join(work, 'single.txt');
    writeFileSync(single, FILES['ai.example'] as string);
    const lines = ['/page', '/open/page', '/news/today', '/private/x', 'https://elsewhere.example/open/x'];
    const input = join(work, 'paths.txt');
    writeFileSync(input, `${lines.join('\n')}\n`);
    const result = await run(['filter', '--agent', 'ExampleBot', '--robots', single, '-q', '--purpose', 'train-ai', input]);
    const rules = parseRobotsTxt(FILES['ai.example'] as string).forAgent('ExampleBot');
    const expected = lines.filter((line) => kept(rules.usage(line)?.['train-ai'] ?? null, 'keep'));
    expect(expected).toEqual(['/open/page', '/news/today', 'https://elsewhere.example/open/x']);
    expect(result.stdout).toBe(expected.map((line) => `${line}\n`).join(''));
  });
});

/** The reason a line's record carries, from the library's answer. */
function expectedReason(url: string, purpose: Purpose, unknown: 'keep' | 'drop'): string {
  const preference = libraryPreference(url, purpose);
  if (preference === 'disallow') return 'usage-disallow';
  if (preference === 'unknown' && unknown === 'drop') return 'usage-unknown';
  return new URL(url).hostname === 'none.example' ? 'missing' : 'rule';
}

describe('each record format carries the preference, last', () => {
  it.each(VARIANTS)(
    'jsonl: usage is the library preference, and the reason of a line dropped by it says so (--purpose %s --unknown %s)',
    async (purpose, unknown) => {
      const { stdout } = await filter('--purpose', purpose, '--unknown', unknown, '--emit', 'all', '--format', 'jsonl');
      const records = stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(records.map((record) => Object.keys(record).at(-1))).toEqual(LINES.map(() => 'usage'));
      expect(records.map((record) => [record.url, record.usage, record.verdict, record.reason])).toEqual(
        LINES.map((line) => {
          if (line === 'not a url') return [null, null, 'malformed', 'malformed'];
          const preference = libraryPreference(line, purpose);
          return [line, preference, kept(preference, unknown) ? 'allowed' : 'disallowed', expectedReason(line, purpose, unknown)];
        }),
      );
    },
  );

  it('tsv: a usage column at the end of the header and of every record', async () => {
    const { stdout } = await filter('--purpose', 'train-ai', '--emit', 'all', '--format', 'tsv');
    const [header, ...rows] = stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));
    expect(header).toEqual(['n', 'url', 'verdict', 'reason', 'rule_kind', 'rule_pattern', 'rule_line', 'text', 'usage']);
    expect(rows.map((row) => [row[1], row[8]])).toEqual(
      LINES.map((line) => (line === 'not a url' ? ['', ''] : [line, libraryPreference(line, 'train-ai') ?? ''])),
    );
    // --annotate, the old spelling of --format tsv (said in a note), has it too.
    const annotated = await run([...FILTER, '--purpose', 'train-ai', '--emit', 'all', '--annotate', urlsFile]);
    expect(annotated.stdout).toBe(stdout);
  });

  it('csv: a usage column at the end of the header and of every record', async () => {
    const { stdout } = await filter('--purpose', 'search', '--unknown', 'drop', '--emit', 'all', '--format', 'csv');
    const [header, ...rows] = parse(stdout) as string[][];
    expect(header).toEqual(['n', 'url', 'verdict', 'reason', 'rule_kind', 'rule_pattern', 'rule_line', 'text', 'usage']);
    expect(rows.map((row) => [row[1], row[3], row[8]])).toEqual(
      LINES.map((line) =>
        line === 'not a url'
          ? ['', 'malformed', '']
          : [line, expectedReason(line, 'search', 'drop'), libraryPreference(line, 'search') ?? ''],
      ),
    );
  });

  it('a malformed line too long to hold gets an empty usage field too', async () => {
    const long = join(work, 'long.txt');
    // Longer than a batch and its whole-line limit: written segment by segment (OverlongRecord).
    writeFileSync(long, `https://ai.example/page\n${'x'.repeat(3 * BATCH_BYTES)}\nhttps://ai.example/open/page\n`);
    for (const [format, ending] of [
      ['jsonl', '","usage":null}'],
      ['tsv', '\t'],
      ['csv', '",'],
    ] as const) {
      const result = await runForBytes(
        [process.execPath, CLI, ...FILTER, '--purpose', 'train-ai', '--emit', 'all', '--format', format, '--allow-malformed', long],
        '',
      );
      expect(result.code, result.stderr).toBe(0);
      const lines = result.stdout.toString().split(/\r?\n/);
      expect(lines[format === 'jsonl' ? 1 : 2]?.endsWith(`xxx${ending}`), format).toBe(true);
      expect(lines.at(-2)?.includes('allow'), format).toBe(true);
    }
  });
});

describe('without --purpose nothing changes', () => {
  it.each(['text', 'tsv', 'jsonl', 'csv'])('--format %s: the same bytes as for files whose usage lines are comments', async (format) => {
    const args = ['--emit', 'all', '--format', format];
    const withLines = await runForBytes([process.execPath, CLI, ...FILTER, ...args, urlsFile], '');
    const withComments = await runForBytes(
      [process.execPath, CLI, 'filter', '--agent', 'ExampleBot', '--robots-dir', twinDir, '-q', ...args, urlsFile],
      '',
    );
    expect(withLines.stdout.equals(withComments.stdout)).toBe(true);
    expect(withLines.stdout.toString()).not.toMatch(/usage/);
  });

  it('the summary has the reasons it always had', async () => {
    const path = join(work, 'plain-summary.json');
    await filter('--summary-json', path);
    const summary = JSON.parse(readFileSync(path, 'utf8')) as { lines: { byReason: Record<string, number> } };
    expect(Object.keys(summary.lines.byReason)).toEqual([
      'rule',
      'cut',
      'missing',
      'server-error',
      'unreachable',
      'refused',
      'redirect-refused',
      'malformed',
    ]);
  });
});

describe('the summary counts the lines dropped by their preference', () => {
  it.each([
    ['train-ai', 'keep'],
    ['ai-input', 'drop'],
  ] as const)('--purpose %s --unknown %s: by reason, on stderr and in --summary-json', async (purpose, unknown) => {
    const path = join(work, `summary-${purpose}-${unknown}.json`);
    const result = await run([
      'filter',
      '--agent',
      'ExampleBot',
      '--robots-dir',
      robotsDir,
      '--purpose',
      purpose,
      '--unknown',
      unknown,
      '--summary-json',
      path,
      urlsFile,
    ]);
    expect(result.code).toBe(0);
    const reasons = URLS.map((url) => expectedReason(url, purpose, unknown));
    const count = (reason: string): number => reasons.filter((each) => each === reason).length;
    const summary = JSON.parse(readFileSync(path, 'utf8')) as { lines: Record<string, unknown> };
    expect(summary.lines).toMatchObject({
      total: LINES.length,
      allowed: URLS.filter((url) => kept(libraryPreference(url, purpose), unknown)).length,
      malformed: 1,
      byReason: {
        'usage-disallow': count('usage-disallow'),
        'usage-unknown': count('usage-unknown'),
        rule: count('rule'),
        missing: count('missing'),
      },
    });
    expect(count('usage-disallow')).toBeGreaterThan(0);
    const byReason = result.stderr.split('\n').find((line) => line.startsWith('by reason: '));
    expect(byReason).toContain(`usage-disallow ${count('usage-disallow')}`);
    if (unknown === 'drop') expect(byReason).toContain(`usage-unknown ${count('usage-unknown')}`);
    else expect(byReason).not.toContain('usage-unknown');
  });
});

describe('--workers', () => {
  // More than one batch: each worker decides some.
  const big = join(work, 'big.txt');
  const repeats = Math.ceil((1.5 * BATCH_BYTES) / (LINES.join('\n').length + 1));
  writeFileSync(big, `${Array.from({ length: repeats }, () => LINES.join('\n')).join('\n')}\n`);

  it.each([
    ['text', 'train-ai', 'keep'],
    ['text', 'ai-input', 'drop'],
    ['tsv', 'search', 'keep'],
    ['csv', 'train-ai', 'drop'],
    ['jsonl', 'ai-input', 'keep'],
  ] as const)(
    '--format %s --purpose %s --unknown %s: 2 workers write the bytes 1 writes',
    { timeout: 120_000 },
    async (format, purpose, unknown) => {
      const args = [
        ...FILTER,
        '--purpose',
        purpose,
        '--unknown',
        unknown,
        '--format',
        format,
        ...(format === 'text' ? [] : ['--emit', 'all']),
        big,
      ];
      const one = await runForBytes([process.execPath, CLI, ...args, '--workers', '1'], '');
      const two = await runForBytes([process.execPath, CLI, ...args, '--workers', '2'], '');
      expect({ code: one.code, stderr: one.stderr }).toEqual({ code: 0, stderr: '' });
      expect({ code: two.code, stderr: two.stderr }).toEqual({ code: 0, stderr: '' });
      expect(two.stdout.equals(one.stdout), 'other bytes with 2 workers').toBe(true);
      if (format === 'text') {
        const once = URLS.filter((url) => kept(libraryPreference(url, purpose), unknown));
        expect(one.stdout.toString()).toBe(
          once
            .map((url) => `${url}\n`)
            .join('')
            .repeat(repeats),
        );
      }
    },
  );
});

describe('hosts fetched: RobotsCache.usage() decides', () => {
  it.each([
    ['train-ai', 'keep'],
    ['search', 'drop'],
    ['ai-input', 'keep'],
  ] as const)('a file, a 4xx (no preference stated) and a 5xx (not crawlable): --purpose %s --unknown %s', async (purpose, unknown) => {
    const served = await startServer({ '/robots.txt': text(FILES['signal.example'] as string) });
    const missing = await startServer();
    const down = await startServer({ '/robots.txt': status(503) });
    const urls = [`${served.origin}/`, `${served.origin}/blog/post`, `${missing.origin}/a`, `${down.origin}/a`];
    const input = join(work, `fetched-${purpose}.txt`);
    writeFileSync(input, `${urls.join('\n')}\n`);
    const cache = new RobotsCache({ userAgent: 'ExampleBot/1.0' });
    const answers = await Promise.all(urls.map((url) => cache.usage(url)));
    cache.dispose();
    const preferences = answers.map((answer) => (answer === null ? null : answer[purpose]));
    expect(preferences.slice(2)).toEqual(['unknown', null]);

    const args = ['filter', '--agent', 'ExampleBot', '--fetch', '--allow-internal-hosts', '-q', '--purpose', purpose, '--unknown', unknown];
    const plain = await run([...args, input]);
    expect({ code: plain.code, stderr: plain.stderr }).toEqual({ code: 0, stderr: '' });
    expect(plain.stdout).toBe(
      urls
        .filter((_, index) => kept(preferences[index] as Preference | null, unknown))
        .map((url) => `${url}\n`)
        .join(''),
    );
    const records = await run([...args, '--emit', 'all', '--format', 'jsonl', input]);
    const shown = records.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { usage: unknown; reason: string });
    expect(shown.map((record) => record.usage)).toEqual(preferences);
    expect(shown[3]?.reason).toBe('server-error');
    expect(shown[2]?.reason).toBe(unknown === 'drop' ? 'usage-unknown' : 'missing');
  });
});

describe('flag errors: one line on stderr, exit 2, nothing written', () => {
  it('--purpose with no value', async () => {
    const result = await run([...FILTER, urlsFile, '--purpose']);
    expect(result).toEqual({ code: 2, stdout: '', stderr: 'robotstxt: --purpose needs a value (see robotstxt filter --help)\n' });
  });

  it.each([
    [['--purpose', 'training'], /^robotstxt: --purpose takes "train-ai" or "search" or "ai-input", got "training"\n$/],
    [['--purpose', 'Train-AI'], /^robotstxt: --purpose takes "train-ai" or "search" or "ai-input", got "Train-AI"\n$/],
    [['--unknown', 'drop'], /^robotstxt: --unknown says what to do with lines of an unknown preference: it goes with --purpose\n$/],
    [['--purpose', 'search', '--unknown', 'maybe'], /^robotstxt: --unknown takes "keep" or "drop", got "maybe"\n$/],
  ])('%j', async (args, message) => {
    const result = await run([...FILTER, ...args, urlsFile]);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(message);
  });

  it('--help tells of --purpose and --unknown', async () => {
    const help = await run(['filter', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--purpose train-ai|search|ai-input');
    expect(help.stdout).toContain('--unknown keep|drop');
    expect(help.stdout).toContain('usage-disallow');
  });
});
