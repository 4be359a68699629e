/**
 * The lab's verdicts are the library's: the matrix cell by cell against parseRobotsTxt(…).forAgent(…).explain(),
 * crawlers read as the command reads them, disagreement marked exactly where a crawler's readings differ, and the
 * diff listing exactly the verdicts that change.
 */
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt, productToken, type ProfileName } from 'robotstxt-wasm';
import { changedVerdicts } from '../../../lab/src/diff.js';
import { linesReadDifferently } from '../../../lab/src/line-readings.js';
import { buildMatrix, columnsOf, Parses } from '../../../lab/src/matrix.js';
import { READINGS, readCrawlers } from '../../../lab/src/readings.js';

const FILE = [
  'User-agent: *',
  'Disallow: /private/',
  'Allow: /private/press/',
  'Disallow: /café/',
  'Disallow: /*.pdf$',
  'Content-Usage: train-ai=n',
  '',
  'User-agent: Yandex',
  'Disallow: /ru/',
  '',
  'User-agent: GPTBot',
  'Disallow: /',
  '',
].join('\n');
const URLS = [
  '/',
  '/private/plans',
  '/private/press/1',
  '/café/menu',
  '/caf%C3%A9/menu',
  '/a.pdf',
  '/a.pdf?x',
  '/ru/x',
  '/robots.txt',
  'https://example.com/private/q',
];
const AGENTS = ['Googlebot', 'YandexBot', 'GPTBot', 'Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)'];

describe('the lab matrix', () => {
  it('reads crawlers as tokens or headers, and says why a line names none', () => {
    const { crawlers, problems } = readCrawlers([
      'Googlebot',
      ' Googlebot ',
      'Googlebot/2.1',
      ...AGENTS.slice(3),
      'not a token!',
      'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
      '',
    ]);
    expect(crawlers.map(({ given, name }) => [given, name])).toEqual([
      ['Googlebot', 'Googlebot'],
      ['Googlebot/2.1', 'Googlebot/2.1'],
      [AGENTS[3], 'ExampleBot'],
    ]);
    expect(problems.map(({ given }) => given)).toEqual(['not a token!', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0']);
  });

  it('gives, cell by cell, what the library gives, with the deciding line and usage', () => {
    const { crawlers } = readCrawlers(AGENTS);
    const columns = columnsOf(crawlers, READINGS);
    using parses = new Parses(FILE);
    const matrix = buildMatrix(parses, URLS, columns);
    expect(columns.map(({ crawler, reading }) => `${crawler.name}/${reading}`).slice(0, 4)).toEqual([
      'Googlebot/rfc9309',
      'Googlebot/google',
      'Googlebot/yandex',
      'YandexBot/rfc9309',
    ]);
    URLS.forEach((url, row) => {
      columns.forEach((column, index) => {
        const name = column.crawler.given.includes('(') ? productToken(column.crawler.given)! : column.crawler.given;
        const robots = parseRobotsTxt(FILE, { profile: column.reading });
        const rules = robots.forAgent(name);
        const cell = matrix.cells[row]![index]!;
        expect(cell.explanation, `${url} ${name} ${column.reading}`).toEqual(rules.explain(url));
        expect(cell.explanation.allowed).toBe(rules.isAllowed(url));
        expect(cell.usage).toEqual(rules.isAllowed(url) && rules.hasUsageLines ? rules.usage(url) : undefined);
        robots.dispose();
      });
    });
  });

  it('marks disagreement exactly where a crawler’s readings give different verdicts', () => {
    const { crawlers } = readCrawlers(AGENTS);
    const columns = columnsOf(crawlers, READINGS);
    using parses = new Parses(FILE);
    const matrix = buildMatrix(parses, URLS, columns);
    let marked = 0;
    matrix.cells.forEach((row) =>
      row.forEach((cell, index) => {
        const mine = row.filter((_, other) => columns[other]!.crawler === columns[index]!.crawler);
        const differ = new Set(mine.map((c) => c.explanation.allowed)).size > 1;
        expect(cell.disagree).toBe(differ);
        if (differ) marked++;
      }),
    );
    // The file makes them differ: /café/ as given (Google) or encoded, /robots.txt, the Yandex family group.
    expect(marked).toBeGreaterThan(0);
  });

  it('lists exactly the verdicts that change between two versions, and none for the same file', () => {
    const after = FILE.replace('Disallow: /private/\n', 'Disallow: /private/\nDisallow: /ru/\n').replace(
      'User-agent: GPTBot\nDisallow: /',
      'User-agent: GPTBot\nDisallow: /a',
    );
    const { crawlers } = readCrawlers(AGENTS);
    const columns = columnsOf(crawlers, READINGS);
    using was = new Parses(FILE);
    using now = new Parses(after);
    const before = buildMatrix(was, URLS, columns);
    const current = buildMatrix(now, URLS, columns);
    const changes = changedVerdicts(before, current);
    const expected: string[] = [];
    for (const url of URLS) {
      for (const column of columns) {
        const name = column.crawler.name;
        const verdict = (text: string, profile: ProfileName) => parseRobotsTxt(text, { profile }).forAgent(name).isAllowed(url);
        const a = verdict(FILE, column.reading);
        const b = verdict(after, column.reading);
        if (a !== b) expected.push(`${url} ${name} ${column.reading} ${a} → ${b}`);
      }
    }
    expect(changes.map((c) => `${c.url} ${c.column.crawler.name} ${c.column.reading} ${c.before} → ${c.after}`)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(5);
    expect(changedVerdicts(current, current)).toEqual([]);
  });

  it('names the lines a crawler’s readings apply differently, from the verdicts that disagree', () => {
    const { crawlers } = readCrawlers(['Bingbot', 'YandexBot']);
    using parses = new Parses(FILE);
    const matrix = buildMatrix(parses, ['/café/menu', '/robots.txt', '/private/x', '/ru/x'], columnsOf(crawlers, READINGS));
    const differ = linesReadDifferently(matrix);
    // Line 4 (Disallow: /café/) decides /café/menu for RFC 9309 and Yandex, which encode the URL; Google matches it as given.
    expect(differ.get(4)).toMatch(/RFC 9309 and Yandex apply it to \/café\/menu for Bingbot, Google do(es)? not/);
    // Line 2 (Disallow: /private/) is YandexBot's under RFC 9309 and Google; Yandex gives it the Yandex group (line 9).
    expect(differ.get(2)).toMatch(/RFC 9309 and Google apply it to \/private\/x for YandexBot, Yandex do(es)? not/);
    expect(differ.get(9)).toMatch(/Yandex applies it to \/ru\/x for YandexBot/);
    // A line whose verdicts all readings share is not named.
    expect(differ.has(3)).toBe(false);
  });
});
