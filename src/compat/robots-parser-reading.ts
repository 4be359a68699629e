/**
 * What the drop-in asks of a file once it is read robots-parser's way, whichever reader read it
 * (./robots-parser-spans.ts, the fast one, or ./robots-parser-groups.ts, the reference).
 */
import { RuleRecords } from '../parse/rule-records.js';
import { normalizedBound, writeNormalized } from './robots-parser-pattern.js';

/** What robots-parser knows of one agent. */
export interface CompatAgent {
  /** The last valid Crawl-delay of its groups, as Number() reads it. */
  readonly crawlDelay: number | undefined;
  /** Its rules in file order, patterns normalised as robots-parser normalises them; made when first asked. */
  rules(): RuleRecords;
}

export interface CompatReading {
  /** By name as formatAgent() makes it (`*` for the star group); undefined when no rule or Crawl-delay line named it. */
  agent(name: string): CompatAgent | undefined;
  /** Every non-empty Sitemap value, trimmed, in file order. */
  sitemaps(): string[];
  /** The last non-empty Host value, lower-cased, or null. */
  host(): string | null;
}

/** An agent as robots-parser compares it: lower case, the version cut off, trimmed. */
export function formatAgent(agent: string): string {
  const lower = agent.toLowerCase();
  const slash = lower.indexOf('/');
  return (slash < 0 ? lower : lower.slice(0, slash)).trim();
}

/** Patterns are normalised here first, so that a compiled agent keeps an exact-size copy and no larger buffer. */
let scratch = new Uint8Array(4096);
/** A larger scratch buffer than this is not kept past the call that needed it. */
const KEPT_SCRATCH = 64 * 1024;

/**
 * Collects one agent's rules, each pattern's UTF-8 bytes normalised on the way in (robots-parser's
 * normaliseEncoding, ./robots-parser-pattern.ts), then packs them into RuleRecords.
 */
export class NormalizedRules {
  private buffer: Uint8Array;
  private at = 0;
  private readonly spans: number[] = [];

  /** `bytes`: at most how many pattern bytes will be added (before normalisation). */
  constructor(bytes: number) {
    const bound = normalizedBound(bytes);
    if (bound > scratch.length && bound <= KEPT_SCRATCH) scratch = new Uint8Array(KEPT_SCRATCH);
    this.buffer = bound <= scratch.length ? scratch : new Uint8Array(bound);
  }

  /** Adds a rule whose pattern is source[start, end): non-empty, trimmed, well-formed UTF-8. */
  add(line: number, allow: boolean, source: Uint8Array, start: number, end: number): void {
    const from = this.at;
    this.at = writeNormalized(source, start, end, this.buffer, from);
    this.spans.push(line * 2 + (allow ? 1 : 0), from, this.at);
  }

  records(): RuleRecords {
    const records = new RuleRecords(this.buffer.slice(0, this.at));
    const spans = this.spans;
    for (let i = 0; i < spans.length; i += 3) {
      const lineAndKind = spans[i] as number;
      records.add(lineAndKind >>> 1, (lineAndKind & 1) === 1, spans[i + 1] as number, spans[i + 2] as number);
    }
    return records;
  }
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether `text` has no lone surrogate: String.prototype.isWellFormed() where the runtime has it (ES2024). */
export function isWellFormed(text: string): boolean {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return native === undefined ? !LONE_SURROGATE.test(text) : native.call(text);
}
