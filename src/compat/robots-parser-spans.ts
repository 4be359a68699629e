/**
 * robots-parser's reading of a file (./robots-parser-groups.ts says what it reads differently from RFC 9309
 * and Google), the fast way: over the records of the record reader that goes with the matcher (the
 * WebAssembly lexer), which reads keys Google's way, classified again robots-parser's way; and lazily:
 * per agent only where its rules lie in the body, their patterns decoded and normalised when that agent
 * is first asked, sitemaps and hosts when they are asked.
 *
 * Google's reading and robots-parser's agree on lines, comments and values (for a well-formed text
 * without NUL: the caller reads any other the reference way), but for a line past the reader's length
 * limit, which this handler reads again whole from the body; and they differ on keys, which it reads again:
 * - a line without a colon (which Google reads as `key value`) is no record: skipped, as robots-parser skips it;
 * - a key is its name alone, trimmed as String.prototype.trim() trims: `Disallowed`, `User agent` and
 *   other spellings Google accepts are unknown keys here, and `\u00a0Disallow` is a disallow.
 */
import type { RecordHandler, RecordReader } from '../parse/records.js';
import { startsWithIgnoringAsciiCase } from '../parse/ascii.js';
import type { RuleRecords } from '../parse/rule-records.js';
import { formatAgent, NormalizedRules, type CompatAgent, type CompatReading } from './robots-parser-reading.js';
import { BYTE_ORDER_MARK, COLON, CR, HASH, LF } from '../bytes.js';

type Key = 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'crawl-delay' | 'host';
const KEYS: readonly Key[] = ['user-agent', 'allow', 'disallow', 'sitemap', 'crawl-delay', 'host'];
/** A key robots-parser does not know (it still ends a run of user-agent lines). */
const UNKNOWN = 'unknown';
/** A key that trims to nothing: robots-parser skips the line. */
const EMPTY = 'empty';

const decoder = new TextDecoder();

function isAsciiWhitespace(byte: number | undefined): boolean {
  return byte === 0x20 || (byte !== undefined && byte >= 0x09 && byte <= 0x0d);
}

/** The first position of `byte` in body from `from` on, or the body's length. */
function indexOrEnd(body: Uint8Array, byte: number, from: number): number {
  const at = body.indexOf(byte, from);
  return at < 0 ? body.length : at;
}

class SpanAgent implements CompatAgent {
  crawlDelay: number | undefined;
  /** The sections (runs of user-agent lines and the records after them) that named it, in file order. */
  readonly sections: number[] = [];
  private compiled: RuleRecords | undefined;

  constructor(private readonly reading: SpanReading) {}

  rules(): RuleRecords {
    return (this.compiled ??= this.reading.rulesOf(this.sections));
  }
}

export class SpanReading implements RecordHandler, CompatReading {
  private readonly agents = new Map<string, SpanAgent>();
  /** Per rule with a value, in file order: its 1-based line doubled plus 1 for an allow, its value's start and end. */
  private readonly ruleSpans: number[] = [];
  /** Per section: its first rule's index into ruleSpans (in rules), then the index past its last. */
  private readonly sectionRules: number[] = [];
  private readonly sitemapSpans: number[] = [];
  private readonly hostSpans: number[] = [];
  /** The agents the records being read apply to. */
  private current: string[] = [];
  /** The section of `current` once a rule or Crawl-delay line made them known, else -1. */
  private section = -1;
  /** Whether the last record was a user-agent line. */
  private inAgentRun = false;
  /** Bytes before this are a byte order mark, skipped as the record reader skips it. */
  private readonly floor: number;
  /** A line longer than the record reader's limit, read here whole: what the reader hands on of it is ignored. */
  private cutLine = 0;
  /** A position on the line of the last record, where a search for a cut line starts. */
  private lastLine = 1;
  private lastPosition: number;
  /** The next LF and CR found by lineEnd() (-1: not searched yet). */
  private nextLf = -1;
  private nextCr = -1;

  private constructor(private readonly body: Uint8Array) {
    let floor = 0;
    while (floor < BYTE_ORDER_MARK.length && body[floor] === BYTE_ORDER_MARK[floor]) floor++;
    this.floor = floor;
    this.lastPosition = floor;
  }

  /** The reading of `body`, a well-formed text without NUL as UTF-8. */
  static read(body: Uint8Array, reader: RecordReader): SpanReading {
    const reading = new SpanReading(body);
    reader(body, reading);
    return reading;
  }

  agent(name: string): CompatAgent | undefined {
    return this.agents.get(name);
  }

  sitemaps(): string[] {
    const sitemaps: string[] = [];
    for (let i = 0; i < this.sitemapSpans.length; i += 2) {
      const url = this.value(this.sitemapSpans[i] as number, this.sitemapSpans[i + 1] as number);
      if (url !== '') sitemaps.push(url);
    }
    return sitemaps;
  }

  host(): string | null {
    for (let i = this.hostSpans.length - 2; i >= 0; i -= 2) {
      const host = this.value(this.hostSpans[i] as number, this.hostSpans[i + 1] as number);
      if (host !== '') return host.toLowerCase();
    }
    return null;
  }

  /** The rules of these sections, normalised. */
  rulesOf(sections: readonly number[]): RuleRecords {
    const spans = this.ruleSpans;
    const ranges = this.sectionRules;
    let bytes = 0;
    for (const section of sections) {
      for (let rule = ranges[section * 2] as number; rule < (ranges[section * 2 + 1] as number); rule++) {
        bytes += (spans[rule * 3 + 2] as number) - (spans[rule * 3 + 1] as number);
      }
    }
    const rules = new NormalizedRules(bytes);
    for (const section of sections) {
      for (let rule = ranges[section * 2] as number; rule < (ranges[section * 2 + 1] as number); rule++) {
        const lineAndKind = spans[rule * 3] as number;
        this.addRule(rules, lineAndKind >>> 1, (lineAndKind & 1) === 1, spans[rule * 3 + 1] as number, spans[rule * 3 + 2] as number);
      }
    }
    return rules.records();
  }

  userAgent(line: number, start: number, end: number): void {
    this.keyed(line, start, end);
  }

  rule(line: number, _allow: boolean, start: number, end: number): void {
    this.keyed(line, start, end);
  }

  sitemap(line: number, start: number, end: number): void {
    this.keyed(line, start, end);
  }

  other(line: number, keyStart: number, keyEnd: number, start: number, end: number): void {
    if (line === this.cutLine) return;
    this.lastLine = line;
    this.lastPosition = start;
    for (let i = keyEnd; i < start; i++) if (this.body[i] === COLON) return this.record(this.keyOf(keyStart, keyEnd), line, start, end);
    // `key value` without a colon: no record for robots-parser.
  }

  malformed(): void {
    // A line without a key or a colon, which robots-parser skips too.
  }

  /** Reads the whole line robots-parser's way: its content up to a `#`, a key before the first colon, the value after it. */
  lineCut(line: number): void {
    this.cutLine = line;
    const body = this.body;
    const start = this.lineStart(line);
    // Native searches: a cut line is long (often a whole HTML page on one line).
    const content = body.subarray(start, this.lineEnd(start));
    const hash = content.indexOf(HASH);
    const colon = content.subarray(0, hash < 0 ? content.length : hash).indexOf(COLON);
    if (colon < 0) return;
    let end = start + (hash < 0 ? content.length : hash);
    let keyStart = start;
    while (keyStart < start + colon && isAsciiWhitespace(body[keyStart])) keyStart++;
    let keyEnd = start + colon;
    while (keyEnd > keyStart && isAsciiWhitespace(body[keyEnd - 1])) keyEnd--;
    let valueStart = start + colon + 1;
    while (valueStart < end && isAsciiWhitespace(body[valueStart])) valueStart++;
    while (end > valueStart && isAsciiWhitespace(body[end - 1])) end--;
    this.record(this.keyOf(keyStart, keyEnd), line, valueStart, end);
  }

  /** Where the line that holds `at` ends: its CR or LF, or the body's end. */
  private lineEnd(at: number): number {
    const body = this.body;
    // Each search remembers what it found, so that finding many line ends costs one pass over the body.
    if (this.nextLf < at) this.nextLf = indexOrEnd(body, LF, at);
    if (this.nextCr < at) this.nextCr = indexOrEnd(body, CR, at);
    return Math.min(this.nextLf, this.nextCr);
  }

  /** Where line `line` starts: found from the last record's line on (lines end at CR, LF or CRLF). */
  private lineStart(line: number): number {
    const body = this.body;
    let at = this.lastPosition;
    for (let current = this.lastLine; current < line; current++) {
      at = this.lineEnd(at);
      at += body[at] === CR && body[at + 1] === LF ? 2 : 1;
    }
    this.lastLine = line;
    this.lastPosition = at;
    return at;
  }

  /**
   * A record the reader classified by its key, which it does not hand on: the key is found again before
   * the value (a colon, then the key back to the line's start), and read robots-parser's way.
   */
  private keyed(line: number, start: number, end: number): void {
    if (line === this.cutLine) return;
    this.lastLine = line;
    this.lastPosition = start;
    const body = this.body;
    let colon = start - 1;
    while (colon >= this.floor && isAsciiWhitespace(body[colon])) colon--;
    // Two tokens without a colon (`Disallow /x`): no record for robots-parser.
    if (colon < this.floor || body[colon] !== COLON) return;
    let keyEnd = colon;
    while (keyEnd > this.floor && isAsciiWhitespace(body[keyEnd - 1])) keyEnd--;
    let keyStart = keyEnd;
    while (keyStart > this.floor && body[keyStart - 1] !== LF && body[keyStart - 1] !== CR) keyStart--;
    while (keyStart < keyEnd && isAsciiWhitespace(body[keyStart])) keyStart++;
    this.record(this.keyOf(keyStart, keyEnd), line, start, end);
  }

  /** The key body[start, end) (trimmed of ASCII whitespace) as robots-parser reads it. */
  private keyOf(start: number, end: number): Key | typeof UNKNOWN | typeof EMPTY {
    const body = this.body;
    for (const key of KEYS) if (end - start === key.length && startsWithIgnoringAsciiCase(body, start, end, key)) return key;
    for (let i = start; i < end; i++) {
      // Only a non-ASCII key can be a name once trimmed of Unicode spaces.
      if ((body[i] as number) >= 0x80) {
        const key = decoder.decode(body.subarray(start, end)).trim().toLowerCase();
        return key === '' ? EMPTY : (KEYS as readonly string[]).includes(key) ? (key as Key) : UNKNOWN;
      }
    }
    return start === end ? EMPTY : UNKNOWN;
  }

  private record(key: Key | typeof UNKNOWN | typeof EMPTY, line: number, start: number, end: number): void {
    if (key === EMPTY) return;
    if (key === 'user-agent') return this.userAgentLine(start, end);
    this.inAgentRun = false;
    switch (key) {
      case 'allow':
      case 'disallow':
        return this.ruleLine(line, key === 'allow', start, end);
      case 'sitemap':
        return void this.sitemapSpans.push(start, end);
      case 'host':
        return void this.hostSpans.push(start, end);
      case 'crawl-delay': {
        this.name();
        const delay = Number(decoder.decode(this.body.subarray(start, end)));
        if (Number.isNaN(delay)) return;
        for (const name of this.current) (this.agents.get(name) as SpanAgent).crawlDelay = delay;
        return;
      }
    }
  }

  private userAgentLine(start: number, end: number): void {
    if (!this.inAgentRun) {
      this.current = [];
      this.section = -1;
    }
    this.inAgentRun = true;
    const value = this.value(start, end);
    if (value !== '') this.current.push(formatAgent(value));
  }

  private ruleLine(line: number, allow: boolean, start: number, end: number): void {
    this.name();
    if (this.section < 0 || start === end) return;
    this.ruleSpans.push(line * 2 + (allow ? 1 : 0), start, end);
    this.sectionRules[this.section * 2 + 1] = this.ruleSpans.length / 3;
  }

  /** Makes the current agents known, from their first rule or Crawl-delay line on, in a section of their own. */
  private name(): void {
    if (this.section >= 0 || this.current.length === 0) return;
    this.section = this.sectionRules.length / 2;
    const rules = this.ruleSpans.length / 3;
    this.sectionRules.push(rules, rules);
    for (const name of this.current) {
      let agent = this.agents.get(name);
      if (agent === undefined) this.agents.set(name, (agent = new SpanAgent(this)));
      // An agent named twice in one run gets its rules once: the same rules twice decide nothing differently.
      if (agent.sections[agent.sections.length - 1] !== this.section) agent.sections.push(this.section);
    }
  }

  /** A value as robots-parser reads it: trimmed as String.prototype.trim() trims. */
  private value(start: number, end: number): string {
    return decoder.decode(this.body.subarray(start, end)).trim();
  }

  private addRule(rules: NormalizedRules, line: number, allow: boolean, start: number, end: number): void {
    const body = this.body;
    // The reader trimmed ASCII whitespace; only a value with a non-ASCII end can hold more to trim.
    if ((body[start] as number) < 0x80 && (body[end - 1] as number) < 0x80) return rules.add(line, allow, body, start, end);
    const trimmed = this.value(start, end);
    if (trimmed === '') return;
    const bytes = encoder.encode(trimmed);
    rules.add(line, allow, bytes, 0, bytes.length);
  }
}

const encoder = new TextEncoder();
