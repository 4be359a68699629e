/**
 * The verdicts of one robots.txt for URLs × crawlers × readings, as the library gives them: each reading parses the
 * file once, each crawler's rules are compiled once per reading, and each cell is `explain()` (the verdict and the
 * line that decided it) plus the usage preferences where the crawler's groups state any.
 */
import { parseRobotsTxt, type AgentRules, type Explanation, type ProfileName, type RobotsTxt, type UsagePreferences } from 'robotstxt-wasm';
import type { Crawler } from './readings.js';

/** One column: a crawler under one reading. */
export interface Column {
  readonly crawler: Crawler;
  readonly reading: ProfileName;
}

export interface Cell {
  readonly explanation: Explanation;
  /** The usage preferences, when the crawler's groups hold Content-Usage or Content-Signal lines and the URL may be crawled. */
  readonly usage: UsagePreferences | undefined;
  /** Whether the readings shown disagree on this URL for this crawler. */
  readonly disagree: boolean;
}

export interface Matrix {
  readonly columns: readonly Column[];
  readonly urls: readonly string[];
  /** `cells[row][column]`. */
  readonly cells: readonly (readonly Cell[])[];
}

/** Each reading's parse of one text, kept while a matrix is read from it; dispose() frees them. */
export class Parses implements Disposable {
  private readonly byReading = new Map<ProfileName, RobotsTxt>();

  constructor(readonly text: string) {}

  of(reading: ProfileName): RobotsTxt {
    let robots = this.byReading.get(reading);
    if (robots === undefined) {
      robots = parseRobotsTxt(this.text, { profile: reading });
      this.byReading.set(reading, robots);
    }
    return robots;
  }

  rules(column: Column): AgentRules {
    return this.of(column.reading).forAgent(column.crawler.name);
  }

  dispose(): void {
    for (const robots of this.byReading.values()) robots.dispose();
    this.byReading.clear();
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}

/** The columns for crawlers × readings, crawler-major: a crawler's readings stand side by side. */
export function columnsOf(crawlers: readonly Crawler[], readings: readonly ProfileName[]): Column[] {
  return crawlers.flatMap((crawler) => readings.map((reading) => ({ crawler, reading })));
}

export function buildMatrix(parses: Parses, urls: readonly string[], columns: readonly Column[]): Matrix {
  const rules = columns.map((column) => parses.rules(column));
  const cells = urls.map((url) => {
    const row = rules.map((agentRules) => {
      const explanation = agentRules.explain(url);
      const usage = explanation.allowed && agentRules.hasUsageLines ? (agentRules.usage(url) ?? undefined) : undefined;
      return { explanation, usage, disagree: false };
    });
    return row.map((cell, index) => ({ ...cell, disagree: readingsDisagree(row, columns, index) }));
  });
  return { columns, urls, cells };
}

/** Whether the cells of the same crawler as column `index` (its other readings) hold another verdict. */
function readingsDisagree(row: readonly { explanation: Explanation }[], columns: readonly Column[], index: number): boolean {
  const crawler = columns[index]?.crawler;
  const verdict = row[index]?.explanation.allowed;
  return columns.some((column, other) => column.crawler === crawler && row[other]?.explanation.allowed !== verdict);
}
