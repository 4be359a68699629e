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

/** One rule as robots-parser keeps it. */
export interface CompatRule {
  readonly allow: boolean;
  /** Normalized as above; never empty. */
  readonly pattern: string;
  /** 1-based. */
  readonly line: number;
}

/** What robots-parser knows of one agent. */
export interface CompatAgent {
  readonly rules: CompatRule[];
  crawlDelay: number | undefined;
}

export interface CompatGroups {
  /** By agent name as formatAgent() makes it (`*` for the star group). */
  readonly agents: ReadonlyMap<string, CompatAgent>;
  readonly sitemaps: readonly string[];
  readonly host: string | null;
}

/** An agent as robots-parser compares it: lower case, the version cut off, trimmed. */
export function formatAgent(agent: string): string {
  const lower = agent.toLowerCase();
  const slash = lower.indexOf('/');
  return (slash < 0 ? lower : lower.slice(0, slash)).trim();
}

/** `%xx` with upper-case hex digits, as robots-parser compares both patterns and paths. */
export function upperCaseEscapes(text: string): string {
  return text.replace(/%[0-9a-fA-F]{2}/g, (escape) => escape.toUpperCase());
}

/**
 * A pattern as robots-parser matches it (see above), or undefined for one encodeURI refuses (a lone
 * surrogate): robots-parser keeps that one as written, and it never matches, a URL's path being ASCII.
 */
function normalizePattern(pattern: string): string | undefined {
  try {
    return upperCaseEscapes(encodeURI(pattern).replace(/%25/g, '%'));
  } catch {
    return undefined;
  }
}

const decoder = new TextDecoder();

/** The grouping step as a RecordHandler: hand it to a record reader, then take groups(). */
export class RobotsParserGrouping implements RecordHandler {
  private readonly agents = new Map<string, CompatAgent>();
  private readonly sitemaps: string[] = [];
  private host: string | null = null;
  /** The agents the rules being read apply to. */
  private current: string[] = [];
  /** Whether the last record was a user-agent line (blank, comment and malformed lines do not count). */
  private inAgentRun = false;

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

  groups(): CompatGroups {
    return { agents: this.agents, sitemaps: this.sitemaps, host: this.host };
  }

  userAgent(line: number, start: number, end: number): void {
    if (!this.inAgentRun) this.current = [];
    this.inAgentRun = true;
    const value = this.value(start, end, line);
    if (value !== '') this.current.push(formatAgent(value));
  }

  rule(line: number, allow: boolean, start: number, end: number): void {
    this.inAgentRun = false;
    const value = this.value(start, end, line);
    const pattern = value === '' ? undefined : normalizePattern(value);
    for (const agent of this.current) {
      const known = this.agent(agent);
      if (pattern !== undefined) known.rules.push({ allow, pattern, line });
    }
  }

  sitemap(line: number, start: number, end: number): void {
    this.inAgentRun = false;
    const url = this.value(start, end, line);
    if (url !== '') this.sitemaps.push(url);
  }

  other(line: number, keyStart: number, keyEnd: number, start: number, end: number): void {
    // robots-parser trims keys as String.prototype.trim() does: `\u00a0Disallow` is a disallow there.
    const key = decoder.decode(this.body.subarray(keyStart, keyEnd)).trim().toLowerCase();
    if (key === 'user-agent') return this.userAgent(line, start, end);
    if (key === 'allow' || key === 'disallow') return this.rule(line, key === 'allow', start, end);
    if (key === 'sitemap') return this.sitemap(line, start, end);
    this.inAgentRun = false;
    const value = this.value(start, end, line);
    if (key === 'crawl-delay') {
      const delay = Number(value);
      for (const agent of this.current) {
        const known = this.agent(agent);
        if (!Number.isNaN(delay)) known.crawlDelay = delay;
      }
    } else if (key === 'host' && value !== '') {
      this.host = value.toLowerCase();
    }
  }

  malformed(): void {
    // robots-parser skips a line without a key, and it does not end a run of user-agent lines.
  }

  lineCut(line: number): void {
    this.fromText.add(line);
  }

  private agent(name: string): CompatAgent {
    let known = this.agents.get(name);
    if (known === undefined) this.agents.set(name, (known = { rules: [], crawlDelay: undefined }));
    return known;
  }

  /** A record's value as robots-parser reads it: trimmed as String.prototype.trim() trims. */
  private value(start: number, end: number, line: number): string {
    if (this.fromText.has(line)) {
      this.lines ??= this.text.split(/\r\n|\r|\n/);
      return valueOfLine(this.lines[line - 1] ?? '');
    }
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
