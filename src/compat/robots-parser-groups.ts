/**
 * robots-parser's grouping step, over this library's records (src/parse/records.ts, read with exact keys:
 * robots-parser knows no misspelling and no line without a colon). What it reads differently from RFC 9309
 * and Google, and so what this step does:
 * - A run of `User-agent` lines is ended by any other record (a `Sitemap`, a `Host`, an unknown key), not
 *   only by a rule: `User-agent: a` `Sitemap: …` `User-agent: b` names two groups.
 * - An agent is its line's value lower-cased, cut at the first `/` and trimmed (`Googlebot/2.1` is
 *   `googlebot`), compared whole: `User-agent: Googlebot-News` never applies to `Googlebot`.
 * - Every group of one agent adds to the same list; an agent is known, and hides `*`, as soon as a
 *   rule or `Crawl-delay` line names it (an empty `Disallow:` or an invalid delay included).
 * - `Crawl-delay` is the last one read, as `Number()` reads it; `Host` the last one, lower-cased; sitemaps
 *   as written, in file order.
 * - Patterns are trimmed as String.prototype.trim() trims, then run through encodeURI with `%25` put back
 *   to `%`, and `%xx` upper-cased (one encodeURI refuses, with a lone surrogate, never matches).
 */
import type { RecordHandler } from '../parse/records.js';
import type { RuleRecords } from '../parse/rule-records.js';
import { formatAgent, isWellFormed, NormalizedRules, type CompatAgent, type CompatReading } from './robots-parser-reading.js';

/** One rule as robots-parser keeps it. */
interface CompatRule {
  readonly allow: boolean;
  /** Its value, trimmed; never empty. */
  readonly pattern: string;
  /** 1-based. */
  readonly line: number;
}

const encoder = new TextEncoder();

class ListedAgent implements CompatAgent {
  readonly list: CompatRule[] = [];
  crawlDelay: number | undefined;
  private normalized: RuleRecords | undefined;

  rules(): RuleRecords {
    if (this.normalized !== undefined) return this.normalized;
    // A pattern with a lone surrogate, which encodeURI refuses, robots-parser keeps as written: it never
    // matches (a URL's path is ASCII), so it is left out.
    const patterns = this.list.map((rule) => (isWellFormed(rule.pattern) ? encoder.encode(rule.pattern) : undefined));
    const rules = new NormalizedRules(patterns.reduce((total, pattern) => total + (pattern?.length ?? 0), 0));
    this.list.forEach((rule, index) => {
      const pattern = patterns[index];
      if (pattern !== undefined) rules.add(rule.line, rule.allow, pattern, 0, pattern.length);
    });
    return (this.normalized = rules.records());
  }
}

const decoder = new TextDecoder();

/**
 * The grouping step as a RecordHandler: hand it to a record reader, then ask it. The reference, and the
 * reading of the files the fast one (./robots-parser-spans.ts) cannot read.
 */
export class RobotsParserGrouping implements RecordHandler, CompatReading {
  private readonly agents = new Map<string, ListedAgent>();
  private readonly sitemapList: string[] = [];
  private preferredHost: string | null = null;
  /** The agents the rules being read apply to. */
  private current: string[] = [];
  /** Whether the last record was a user-agent line (blank, comment and malformed lines do not count). */
  private inAgentRun = false;
  /** The line lineCut() read last: the reader's record of it is not read again. */
  private cutLine = 0;

  /**
   * Lines whose values are read from the text itself, as robots-parser reads them, because the bytes the
   * record reader sees cannot carry them: a lone surrogate (UTF-8 has none), a NUL (where Google's reading
   * ends a line) and a line past the reader's length limit. Found up front for the first two, reported by
   * lineCut() for the last; by 1-based line number.
   */
  private readonly fromText: Set<number>;
  /** The text's lines, split when first needed. */
  private lines: string[] | undefined;

  constructor(
    private readonly body: Uint8Array,
    private readonly text: string,
  ) {
    this.fromText = linesUtf8CannotCarry(text);
  }

  agent(name: string): CompatAgent | undefined {
    return this.agents.get(name);
  }

  sitemaps(): string[] {
    return [...this.sitemapList];
  }

  host(): string | null {
    return this.preferredHost;
  }

  userAgent(line: number, start: number, end: number): void {
    if (line !== this.cutLine) this.agentLine(line, start, end);
  }

  rule(line: number, allow: boolean, start: number, end: number): void {
    if (line !== this.cutLine) this.ruleLine(line, allow, start, end);
  }

  sitemap(line: number, start: number, end: number): void {
    if (line !== this.cutLine) this.sitemapLine(line, start, end);
  }

  private agentLine(line: number, start: number, end: number): void {
    if (!this.inAgentRun) this.current = [];
    this.inAgentRun = true;
    const value = this.value(start, end, line);
    if (value !== '') this.current.push(formatAgent(value));
  }

  private ruleLine(line: number, allow: boolean, start: number, end: number): void {
    this.inAgentRun = false;
    const value = this.value(start, end, line);
    for (const agent of this.current) {
      const known = this.known(agent);
      if (value !== '') known.list.push({ allow, pattern: value, line });
    }
  }

  private sitemapLine(line: number, start: number, end: number): void {
    this.inAgentRun = false;
    const url = this.value(start, end, line);
    if (url !== '') this.sitemapList.push(url);
  }

  other(line: number, keyStart: number, keyEnd: number, start: number, end: number): void {
    if (line === this.cutLine) return;
    // robots-parser trims keys as String.prototype.trim() does: `\u00a0Disallow` is a disallow there.
    this.keyed(decoder.decode(this.body.subarray(keyStart, keyEnd)).trim().toLowerCase(), line, start, end);
  }

  /**
   * A line past the reader's limit is read whole from the text, its key too (what the reader kept of it
   * can be blank, or hold no colon): what the reader hands on of it is ignored.
   */
  lineCut(line: number): void {
    this.fromText.add(line);
    this.cutLine = line;
    const content = this.textLine(line).split('#', 1)[0] as string;
    const colon = content.indexOf(':');
    if (colon >= 0) this.keyed(content.slice(0, colon).trim().toLowerCase(), line, 0, 0);
  }

  /** A record by its key, as robots-parser reads it (trimmed, lower-cased). */
  private keyed(key: string, line: number, start: number, end: number): void {
    // A key of Unicode spaces alone is none: robots-parser skips the line.
    if (key === '') return;
    if (key === 'user-agent') return this.agentLine(line, start, end);
    if (key === 'allow' || key === 'disallow') return this.ruleLine(line, key === 'allow', start, end);
    if (key === 'sitemap') return this.sitemapLine(line, start, end);
    this.inAgentRun = false;
    const value = this.value(start, end, line);
    if (key === 'crawl-delay') {
      const delay = Number(value);
      for (const agent of this.current) {
        const known = this.known(agent);
        if (!Number.isNaN(delay)) known.crawlDelay = delay;
      }
    } else if (key === 'host' && value !== '') {
      this.preferredHost = value.toLowerCase();
    }
  }

  malformed(): void {
    // robots-parser skips a line without a key, and it does not end a run of user-agent lines.
  }

  private known(name: string): ListedAgent {
    let known = this.agents.get(name);
    if (known === undefined) this.agents.set(name, (known = new ListedAgent()));
    return known;
  }

  /** The text's line `line` (1-based), split as robots-parser splits. */
  private textLine(line: number): string {
    this.lines ??= this.text.split(/\r\n|\r|\n/);
    return this.lines[line - 1] ?? '';
  }

  /** A record's value as robots-parser reads it: trimmed as String.prototype.trim() trims. */
  private value(start: number, end: number, line: number): string {
    if (this.fromText.has(line)) return valueOfLine(this.textLine(line));
    return decoder.decode(this.body.subarray(start, end)).trim();
  }
}

const LONE_SURROGATE_OR_NUL = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\0/;

/** The lines of `text` (split as robots-parser splits) that hold a lone surrogate or a NUL, by 1-based number. */
function linesUtf8CannotCarry(text: string): Set<number> {
  const lines = new Set<number>();
  if (!LONE_SURROGATE_OR_NUL.test(text)) return lines;
  text.split(/\r\n|\r|\n/).forEach((line, index) => {
    if (LONE_SURROGATE_OR_NUL.test(line)) lines.add(index + 1);
  });
  return lines;
}

/** The value of a `key: value` line, its comment cut off, trimmed: robots-parser's reading of one line. */
function valueOfLine(line: string): string {
  const content = line.split('#', 1)[0] as string;
  return content.slice(content.indexOf(':') + 1).trim();
}
