/**
 * A drop-in replacement for robots-parser 3.x (`robotsParser(url, contents)`), backed by this library's
 * record reader and compiled matcher. robots-parser's documented behaviour is the contract: its reading of
 * the file (./robots-parser-groups.ts), its origin check (the URL must have the robots.txt URL's protocol,
 * host name and port, relative URLs read against a placeholder host), its agents (lower case, the version
 * cut off, `*` as the fallback) and its precedence (the longest matching pattern; an allow wins a tie).
 * Each agent's rules are compiled once, when first asked, and matched by the WebAssembly matcher on the
 * URL's path and query with `%xx` upper-cased, as robots-parser matches them.
 *
 * Where this answers differently from robots-parser, on purpose, is listed in docs/migrating.md.
 */
import { currentRecordReader } from '../engine/active-backend.js';
import { readRecords } from '../parse/records.js';
import { RobotsParserGrouping } from './robots-parser-groups.js';
import { formatAgent, isWellFormed, type CompatAgent, type CompatReading } from './robots-parser-reading.js';
import { SpanReading } from './robots-parser-spans.js';
import { TieredRules } from './robots-parser-tiers.js';
import { DOT, PERCENT, QUESTION, SLASH } from '../bytes.js';

/** What robotsParser() returns: robots-parser 3.x's interface, plus isExplicitlyDisallowed from its repository. */
export interface Robot {
  /** Whether `url` may be fetched by `ua` (`*` when omitted); undefined when `url` is not of this robots.txt's origin. */
  isAllowed(url: string, ua?: string): boolean | undefined;
  /** !isAllowed(url, ua): true for a URL of another origin. */
  isDisallowed(url: string, ua?: string): boolean;
  /**
   * Whether a rule of `ua`'s own group disallows `url`, the `*` group left out; undefined when `url` is not
   * of this robots.txt's origin.
   */
  isExplicitlyDisallowed(url: string, ua: string): boolean | undefined;
  /** The 1-based line of the rule that decides `url` for `ua`, or -1 when none does (or another origin). */
  getMatchingLineNumber(url: string, ua?: string): number;
  /** The last valid Crawl-delay of `ua`'s group (or of `*`), as Number() reads it. */
  getCrawlDelay(ua?: string): number | undefined;
  /** Every Sitemap value, as written, in file order. */
  getSitemaps(): string[];
  /** The last Host value, lower-cased, or null. */
  getPreferredHost(): string | null;
}

/** Relative URLs are read against this host, as robots-parser does: never one that is crawled. */
const RELATIVE_BASE = 'http://robots-relative.samclarke.com/';

/** The parts of a URL that robots-parser compares and matches; all undefined for a URL it cannot parse. */
interface UrlParts {
  readonly protocol: string | undefined;
  readonly hostname: string | undefined;
  readonly port: string | undefined;
  /** Path and query as matched: `%xx` upper-cased. */
  readonly path: string;
}

const AGENT_MEMO = 16;

/** `%xx` with upper-case hex digits, as robots-parser compares paths. */
function upperCaseEscapes(text: string): string {
  return text.replace(/%[0-9a-fA-F]{2}/g, (escape) => escape.toUpperCase());
}

const encoder = new TextEncoder();

/**
 * `text` read robots-parser's way: the fast way (./robots-parser-spans.ts) when the bytes carry all of it,
 * which a text with no lone surrogate (UTF-8 has none) and no NUL (where Google's reading ends a line)
 * ensures; else the reference way, which reads such lines from the text itself.
 */
function readCompat(text: string): CompatReading {
  const body = encoder.encode(text);
  if (!text.includes('\0') && isWellFormed(text)) return SpanReading.read(body, currentRecordReader());
  const grouping = new RobotsParserGrouping(body, text);
  readRecords(body, grouping, 'exact');
  return grouping;
}

const UNPARSED: UrlParts = { protocol: undefined, hostname: undefined, port: undefined, path: '' };

/**
 * What the URL parser leaves as it is after an origin, by character code: path and query characters it
 * neither encodes nor rewrites (no `\\`, no `'`, no `#`, nothing below `!` or above `~`, none of `"<>^`{|}`).
 */
const PLAIN = new Uint8Array(128);
for (const char of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&()*+,;=:@/%?') PLAIN[char.charCodeAt(0)] = 1;
/** How a URL is read: through the URL parser, or as the parser would write it, with or without a `%` in it. */
const PARSED = 0;
const PLAIN_URL = 1;
const PLAIN_WITH_ESCAPES = 2;

function urlParts(url: unknown): UrlParts {
  let parsed: URL;
  try {
    parsed = new URL(url as string, RELATIVE_BASE);
  } catch {
    // robots-parser reads the parts of a URL it cannot parse as undefined.
    return UNPARSED;
  }
  return {
    protocol: parsed.protocol,
    hostname: parsed.hostname,
    port: parsed.port,
    path: upperCaseEscapes(parsed.pathname + parsed.search),
  };
}

class CompatRobots implements Robot {
  private readonly origin: UrlParts;
  /** `protocol//host[:port]` as the URL parser writes this origin: a URL that starts with it and then `/` may skip the parser. */
  private readonly originPrefix: string | undefined;
  /**
   * The rules of the agents callers named (a crawler names one or two), null for an agent with none: one
   * lookup per check. Reset past AGENT_MEMO entries.
   */
  private readonly rulesMemo = new Map<string | undefined, TieredRules | null>();
  private readonly reading: CompatReading;
  /** Each agent's rules, made when the agent is first asked. */
  private readonly tiers = new Map<CompatAgent, TieredRules>();

  constructor(url: unknown, contents: unknown) {
    this.origin = urlParts(url);
    const { protocol, hostname, port } = this.origin;
    this.originPrefix = protocol === undefined ? undefined : `${protocol}//${hostname}${port === '' ? '' : `:${port}`}`;
    const text = typeof contents === 'string' ? contents : contents ? String(contents) : '';
    this.reading = readCompat(text);
  }

  isAllowed(url: string, ua?: string): boolean | undefined {
    const line = this.signedLine(url, this.rulesFor(ua));
    return line === undefined ? undefined : line >= 0;
  }

  isDisallowed(url: string, ua?: string): boolean {
    return !this.isAllowed(url, ua);
  }

  isExplicitlyDisallowed(url: string, ua: string): boolean | undefined {
    const agent = this.reading.agent(formatAgent(ua ?? '*'));
    const line = this.signedLine(url, agent === undefined ? null : this.tiersOf(agent));
    return line === undefined ? undefined : line < 0;
  }

  getMatchingLineNumber(url: string, ua?: string): number {
    const line = this.signedLine(url, this.rulesFor(ua));
    return line === undefined || line === 0 ? -1 : Math.abs(line);
  }

  getCrawlDelay(ua?: string): number | undefined {
    return this.agentFor(ua)?.crawlDelay;
  }

  getSitemaps(): string[] {
    return this.reading.sitemaps();
  }

  getPreferredHost(): string | null {
    return this.reading.host();
  }

  /** The agent's own list, else `*`'s, else none. */
  private agentFor(ua: string | undefined): CompatAgent | undefined {
    const reading = this.reading;
    return reading.agent(formatAgent(ua || '*')) ?? reading.agent('*');
  }

  /** agentFor(ua)'s rules, or null. */
  private rulesFor(ua: string | undefined): TieredRules | null {
    const memo = this.rulesMemo;
    let rules = memo.get(ua);
    if (rules !== undefined) return rules;
    const agent = this.agentFor(ua);
    rules = agent === undefined ? null : this.tiersOf(agent);
    if (memo.size >= AGENT_MEMO) memo.clear();
    memo.set(ua, rules);
    return rules;
  }

  /** An agent's rules, made when it is first asked (agents of several names share them). */
  private tiersOf(agent: CompatAgent): TieredRules {
    let rules = this.tiers.get(agent);
    if (rules === undefined) this.tiers.set(agent, (rules = new TieredRules(agent.rules())));
    return rules;
  }

  /**
   * PLAIN_URL (or PLAIN_WITH_ESCAPES, when it holds a `%`) for a URL of this origin written as the URL parser
   * writes it (the common case: a crawler's URLs come from links it resolved), which is read without a URL
   * object; PARSED for any other. Dot segments (`/.`, `%2e`), which the parser rewrites, and a `?` with
   * nothing after it, which it drops, go through the parser.
   */
  private plainness(url: string): number {
    const prefix = this.originPrefix;
    if (prefix === undefined || typeof url !== 'string' || !url.startsWith(prefix) || url.charCodeAt(prefix.length) !== SLASH)
      return PARSED;
    let escapes = false;
    let query = false;
    for (let i = prefix.length; i < url.length; i++) {
      const code = url.charCodeAt(i);
      if (code >= 0x80 || PLAIN[code] === 0) return PARSED;
      if (code === DOT && url.charCodeAt(i - 1) === SLASH) return PARSED;
      if (code === PERCENT) escapes = true;
      else if (code === QUESTION && !query) {
        if (i === url.length - 1) return PARSED;
        query = true;
      }
    }
    if (escapes && /%2e/i.test(url)) return PARSED;
    return escapes ? PLAIN_WITH_ESCAPES : PLAIN_URL;
  }

  /**
   * The line of the rule that decides `url` (0 when none does), negated for a disallow; undefined for a URL
   * of another origin. A number, so that a check allocates no verdict object.
   */
  private signedLine(url: string, rules: TieredRules | null): number | undefined {
    const plainness = this.plainness(url);
    let path: string | undefined;
    if (plainness === PARSED) {
      const parts = urlParts(url);
      const origin = this.origin;
      // A URL that cannot be parsed is of no origin. (robots-parser finds it of the origin of a robots.txt
      // URL that cannot be parsed either, and then throws a TypeError of its own: see docs/migrating.md.)
      if (parts === UNPARSED) return undefined;
      if (parts.protocol !== origin.protocol || parts.hostname !== origin.hostname || parts.port !== origin.port) return undefined;
      path = parts.path;
    } else if (plainness === PLAIN_WITH_ESCAPES) {
      path = upperCaseEscapes(url.slice((this.originPrefix as string).length));
    }
    // A plain URL is decided as written: the matcher finds the same path and query in it as the parser.
    return rules === null || rules.empty ? 0 : rules.signedLine(url, this.originPrefix?.length ?? 0, path);
  }
}

/**
 * robots-parser's entry: the robots.txt's own URL (relative URLs are allowed) and its contents.
 *
 * @example
 * import robotsParser from 'robotstxt-wasm/compat/robots-parser';
 * const robots = robotsParser('https://example.com/robots.txt', 'User-agent: *\nDisallow: /private/\n');
 * robots.isAllowed('https://example.com/private/x', 'ExampleBot'); // false
 * robots.isAllowed('https://other.example/private/x', 'ExampleBot'); // undefined: another origin
 */
export default function robotsParser(url: string, contents?: string | null): Robot {
  return new CompatRobots(url, contents);
}
