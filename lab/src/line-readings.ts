/**
 * Which readings read a line differently, shown on the line itself beside the lint diagnostics: for every URL and
 * crawler on which the readings disagree, the deciding line of each reading is one that the others do not apply
 * there (Google matches `/café/` as written, RFC 9309 encoded; Yandex gives YandexBot the `Yandex` group).
 */
import type { Matrix } from './matrix.js';
import { READING_TITLE, type Crawler } from './readings.js';

/** Examples named per line; past them, the count. */
const EXAMPLES = 2;

/** `readings` as a sentence's subject, with the verb that agrees with it. */
function subject(readings: readonly string[], plural: string, singular: string): string {
  return `${readings.join(' and ')} ${readings.length === 1 ? singular : plural}`;
}

/** For each line (1-based) that decides a verdict for some readings and not for others: what they do, in words. */
export function linesReadDifferently(matrix: Matrix): Map<number, string> {
  const cases = new Map<number, string[]>();
  const title = (index: number): string => READING_TITLE[matrix.columns[index]?.reading ?? 'rfc9309'];
  matrix.cells.forEach((row, r) => {
    const url = matrix.urls[r] ?? '';
    // By crawler as given: a token and a header that names it are columns of their own.
    const byCrawler = new Map<Crawler, number[]>();
    row.forEach((cell, index) => {
      const crawler = matrix.columns[index]?.crawler;
      if (!cell.disagree || crawler === undefined) return;
      byCrawler.set(crawler, [...(byCrawler.get(crawler) ?? []), index]);
    });
    for (const [crawler, indexes] of byCrawler) {
      const lines = new Set(indexes.map((index) => row[index]?.explanation.line ?? 0));
      for (const line of lines) {
        if (line === 0) continue;
        const applying = indexes.filter((index) => row[index]?.explanation.line === line).map(title);
        const others = indexes.filter((index) => row[index]?.explanation.line !== line).map(title);
        const list = cases.get(line) ?? [];
        list.push(`${subject(applying, 'apply', 'applies')} it to ${url} for ${crawler.name}, ${subject(others, 'do', 'does')} not`);
        cases.set(line, list);
      }
    }
  });
  const described = new Map<number, string>();
  for (const [line, list] of cases) {
    const more = list.length > EXAMPLES ? ` (and ${list.length - EXAMPLES} more)` : '';
    described.set(line, `The readings differ on this line: ${list.slice(0, EXAMPLES).join('; ')}${more}`);
  }
  return described;
}
