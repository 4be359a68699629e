/**
 * A verdict depends on the file and the question, never on what the process did before (docs/design.md#testing). Crawlee's
 * differential found CommonJS answers of the robots-parser drop-in that changed once another file had been
 * checked: a build step had turned a class field into an assignment to the module's exported record reader.
 *
 * For each entry users call (the native `parseRobotsTxt` + `forAgent`, the drop-in, lint), in each build
 * (ESM, CommonJS, loaded through the package's exports) and with each matcher, every file is answered alone in
 * a fresh process, and again in one process that asks every entry about every file in a random order, twice
 * over (so that in the second round each answer comes after every other file and entry): every answer must be
 * the same. The files are
 * crafted (Google-only spellings, unknown keys, rules before any group, empty groups, …), drawn at random from
 * lines of those kinds, and taken from the corpus where it is present. The `robotstxt filter` command is held
 * to the same on a mixed log: each host's lines alone, and all hosts' lines shuffled, with one and two workers.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { pathsForPattern } from '../../harness/paths.mjs';
import { run } from '../support/cli.js';
import { corpusDirectory, loadCorpus } from '../support/corpus.js';

const execFileAsync = promisify(execFile);
const PROBE = fileURLToPath(new URL('../support/order-probe.mjs', import.meta.url));
const FILE_COUNT = 50;

/** Files that each hold one of the readings that differ between entries or profiles. */
const CRAFTED: readonly string[] = [
  'User Agent: *\nDisallow: /a\n',
  'useragent: bot\nDisallow: /a\nuser agent: Googlebot\nAllow: /a\nDisallow: /\n',
  'User-agent: *\nDissallow: /a\ndisalow: /b\nDisallaw: /c\nAllow: /a/open\n',
  'Disallow: /before-any-group\nAllow: /x\nUser-agent: *\nDisallow: /a\n',
  'User-agent: bot\n\nUser-agent: Googlebot\nDisallow: /g\n',
  'User-agent: bot\nUser-agent: *\n',
  'User-agent: *\nNoindex: /n\nFoo: bar\nRequest-rate: 1/5\nVisit-time: 0600-0845\nDisallow: /a\n',
  'Site-map: https://h.example/m.xml\nSitemap: https://h.example/s.xml\nHost: mirror.example\nUser-agent: *\nCrawl-delay: 2.5\nDisallow: /p\n',
  'User-agent *\nDisallow /nocolon\nUser-agent: bot\nDisallow: /*.php$\nAllow: /index.html\n',
  '\ufeffUser-agent: Googlebot/2.1\r\nDisallow: /crlf\r\nUser-agent: *\rDisallow: /cr\r',
  'User-agent: *\nDisallow: /café\nAllow: /%7Efoo\nDisallow: /a%2fb\nClean-param: ref /a\n',
  'User-agent: bot\nAllow:\nDisallow:\nUser-agent: *\nDisallow: /\nAllow: /$\n',
  'user-AGENT: BOT\nDISALLOW: /UPPER\nallow: /upper\n',
  '# only a comment\n\n',
];

/** Lines of the kinds the crafted files hold, from which random files are drawn. */
const LINES: readonly string[] = [
  'User-agent: *',
  'User Agent: *',
  'useragent: bot',
  'User-agent: Googlebot',
  'user-agent: bot/1.0',
  'User-agent: Other',
  'Disallow: /a',
  'Dissallow: /b',
  'disalow: /c*',
  'Diasllow: /d',
  'Allow: /a/b$',
  'Allow:',
  'Disallow:',
  'Disallow /x',
  'Crawl-delay: 2',
  'Crawl-delay: x',
  'Sitemap: https://h.example/s.xml',
  'Site-map: https://h.example/m.xml',
  'Host: mirror.example',
  'Clean-param: ref /a',
  'Noindex: /n',
  'Foo: bar',
  '# comment',
  '',
  'Disallow: /*.php$',
  'Allow: /index.html',
  'Disallow: /%7E*',
];

interface ProbeFile {
  readonly name: string;
  readonly body: string;
  readonly agents: string[];
  readonly urls: string[];
}

function randomFiles(count: number): string[] {
  const file = fc
    .tuple(fc.array(fc.constantFrom(...LINES), { minLength: 1, maxLength: 24 }), fc.constantFrom('\n', '\r\n', '\r'))
    .map(([lines, end]) => lines.join(end) + end);
  return fc.sample(file, { numRuns: count, seed: 18 });
}

/** Up to 12 corpus files, chosen for the readings above, when the corpus is present. */
function corpusFiles(): string[] {
  if (corpusDirectory() === undefined) {
    console.warn(
      'order independence: robots corpus not found; the files are crafted and drawn at random only (set ROBOTS_CORPUS to add corpus files)',
    );
    return [];
  }
  const decoder = new TextDecoder();
  const odd =
    /^\s*(?:user agent|useragent|dissallow|disalow|diasllow|disallaw|site-map)\s*:|^\s*(?:dis)?allow\s*:[^\n]*\n(?:[^\n]*\n)*?\s*user-agent/im;
  const chosen: string[] = [];
  for (const { body } of loadCorpus()) {
    if (body.length > 20_000) continue;
    const text = decoder.decode(body);
    if (odd.test(text) || chosen.length < 4) chosen.push(text);
    if (chosen.length === 12) break;
  }
  return chosen;
}

/** The questions asked of a file: agents it names and a few more; paths made from its own patterns. */
function probeFile(body: string, index: number): ProbeFile {
  const agents = new Set(['bot', 'Googlebot']);
  const paths = new Set(['/', '/robots.txt', '/a%2fb', '/x?y']);
  for (const line of body.split(/\r\n|\r|\n/)) {
    const agent = /^\s*user-?\s?agent\s*:?\s*([A-Za-z_-]+)/i.exec(line)?.[1];
    if (agent !== undefined && agents.size < 4) agents.add(agent);
    const pattern = /^\s*(?:dis)?allow\s*:\s*([^#\s]*)/i.exec(line)?.[1];
    if (pattern !== undefined && paths.size < 16) for (const path of pathsForPattern(pattern)) paths.add(path);
  }
  return { name: `h${String(index).padStart(2, '0')}.example`, body, agents: [...agents], urls: [...paths] };
}

const corpus = corpusFiles();
const bodies = [...CRAFTED, ...corpus];
bodies.push(...randomFiles(FILE_COUNT - bodies.length));
const FILES: readonly ProbeFile[] = bodies.map(probeFile);

const directory = mkdtempSync(join(tmpdir(), 'robots-order-'));
const filesPath = join(directory, 'files.json');
writeFileSync(filesPath, JSON.stringify(FILES));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Runs jobs a few at a time (one per core): each is a whole Node process. */
async function pooled<T>(jobs: readonly (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await jobs[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.max(2, availableParallelism()) }, worker));
  return results;
}

type Answer = [entry: string, index: number, answers: unknown];

async function probe(
  build: string,
  matcher: string,
  questions: readonly string[],
  rounds = 1,
): Promise<{ matcher: string; rounds: Answer[][] }> {
  const { stdout } = await execFileAsync(process.execPath, [PROBE, build, matcher, filesPath, questions.join(','), String(rounds)], {
    maxBuffer: 256 * 1024 * 1024,
  });
  return JSON.parse(stdout) as { matcher: string; rounds: Answer[][] };
}

/** A random order of `items`, fixed by the seed so that a failure can be run again. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  return fc.sample(fc.shuffledSubarray([...items], { minLength: items.length, maxLength: items.length }), { numRuns: 1, seed })[0]!;
}

const ENTRIES = ['native', 'drop-in', 'lint'] as const;

describe('every answer is the same whatever was answered before it in the process', () => {
  // Hundreds of processes: minutes on a loaded 2-core machine, well past the suite's default timeout.
  it(`holds ${FILE_COUNT} files (crafted, random${corpus.length > 0 ? ', corpus' : ''})`, { timeout: 240_000 }, () => {
    expect(FILES.length).toBeGreaterThanOrEqual(FILE_COUNT);
  });

  const cases = ['esm', 'cjs'].flatMap((build) => ['wasm', 'typescript'].map((matcher) => ({ build, matcher })));

  // Alone: one process per entry and file. Together: one process asks every entry about every file, in a
  // random order, twice, so that each answer also comes after the other entries' (lint after a native check).
  it.each(cases)(
    '$build build, $matcher matcher: each entry and file alone in a fresh process = after all the others',
    async ({ build, matcher }) => {
      const questions = ENTRIES.flatMap((entry) => FILES.map((_, index) => `${entry}:${index}`));
      const [together, ...alone] = await pooled([
        () => probe(build, matcher, shuffled(questions, build.length * 7 + matcher.length), 2),
        ...questions.map((question) => () => probe(build, matcher, [question])),
      ]);
      expect(together!.matcher).toBe(matcher);
      const expected = new Map(alone.map((result, i) => [questions[i]!, JSON.stringify(result.rounds[0]![0]![2])]));
      const differences: string[] = [];
      for (const [round, answers] of together!.rounds.entries()) {
        for (const [entry, index, answer] of answers) {
          const wanted = expected.get(`${entry}:${index}`)!;
          if (JSON.stringify(answer) === wanted) continue;
          const file = FILES[index]!;
          differences.push(
            `${entry}, round ${round + 1}, ${file.name} ${JSON.stringify(file.body.slice(0, 60))}: alone ${wanted.slice(0, 160)}, after others ${JSON.stringify(answer).slice(0, 160)}`,
          );
        }
      }
      expect(differences).toEqual([]);
    },
    // Hundreds of processes each, as above (one took 60 s on a machine running other suites beside it).
    240_000,
  );
});

describe('robotstxt filter decides each line the same, alone or amid other hosts', () => {
  /** Each host's URL lines: its paths, over both schemes. */
  const hostLines = FILES.map((file) => file.urls.flatMap((path, i) => [`${i % 2 === 0 ? 'https' : 'http'}://${file.name}${path}`]));

  /** A record by its line (the URL, or the text of a malformed line), without its line number, which differs by log. */
  const keyed = (record: string): [string, string] => {
    const fields = record.split('\t');
    return [fields[1] || (fields[7] as string), fields.slice(1).join('\t')];
  };

  it('per host alone, and all hosts shuffled together with one and with two workers', { timeout: 240_000 }, async () => {
    const robotsDir = join(directory, 'robots');
    mkdirSync(robotsDir, { recursive: true });
    for (const file of FILES) writeFileSync(join(robotsDir, file.name), file.body);
    const all = hostLines.flat();
    const mixedPath = join(directory, 'mixed.txt');
    writeFileSync(mixedPath, shuffled(all, 1809).join('\n') + '\n');
    const args = (log: string, workers: number): string[] => [
      'filter',
      '--agent',
      'bot',
      '--robots-dir',
      robotsDir,
      '--emit',
      'all',
      '--format',
      'tsv',
      '--no-header',
      '--quiet',
      '--workers',
      String(workers),
      log,
    ];

    const alone = new Map<string, string>();
    await pooled(
      hostLines.map((lines, host) => async () => {
        const log = join(directory, `host-${host}.txt`);
        writeFileSync(log, lines.join('\n') + '\n');
        const result = await run(args(log, 1));
        expect(result.code, result.stderr).toBe(0);
        for (const line of result.stdout.split('\n').filter((text) => text !== '')) alone.set(...keyed(line));
      }),
    );
    expect(alone.size).toBe(new Set(all).size);

    for (const workers of [1, 2]) {
      const result = await run(args(mixedPath, workers));
      expect(result.code, result.stderr).toBe(0);
      const lines = result.stdout.split('\n').filter((text) => text !== '');
      expect(lines).toHaveLength(all.length);
      expect(lines.filter((line) => alone.get(keyed(line)[0]) !== keyed(line)[1])).toEqual([]);
    }
  });
});
