/**
 * The real-world corpus (4,231 robots.txt files as sites served them; harness/corpus.mjs finds it): every file parses, and what comes out obeys the
 * invariants that hold for any input. Failures are collected per file and reported together, naming the
 * file, so one odd site does not hide the others.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  DEFAULT_MAX_BYTES,
  parseRobotsTxt,
  setMatcher,
  type AgentRules,
  type ProfileName,
  type RobotsTxt,
} from '../../src/platform/inline.js';
import { describeCorpus, loadCorpus, type CorpusFile } from '../support/corpus.js';

const PROFILES: readonly ProfileName[] = ['rfc9309', 'google'];
/** One agent that real files name, and one that none does (it gets the `*` groups). */
const AGENTS = ['Googlebot', 'SomeUnknownCrawler'] as const;
/**
 * Rules per file and agent that URLs are derived from (spread over the priority order): enough to reach
 * rules of every length, few enough to keep the suite fast, the TypeScript executor being written to be
 * obviously right rather than fast.
 */
const SAMPLED_RULES = 8;

const LF = 0x0a;
const CR = 0x0d;

/** Start and end offsets of each line, the way the parser splits them: CR, LF and CRLF each end a line. */
function lineSpans(bytes: Uint8Array): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte !== LF && byte !== CR) continue;
    spans.push([start, i]);
    if (byte === CR && bytes[i + 1] === LF) i++;
    start = i + 1;
  }
  spans.push([start, bytes.length]); // the last line, even when empty
  return spans;
}

const ASCII = new TextDecoder('latin1');
// The allow/disallow spellings Google's parser accepts, matched as a prefix of the key.
const RULE_KEY = /^(?:allow|disallow|dissallow|dissalow|disalow|diasllow|disallaw)/i;

/** Space, tab, LF, VT, FF, CR: the whitespace the parser trims (and no other). */
function isAsciiWhitespace(byte: number | undefined): boolean {
  return byte === 0x20 || (byte !== undefined && byte >= 0x09 && byte <= 0x0d);
}

/** Whether line `content` starts like an allow/disallow record, after a byte order mark and whitespace. */
function startsWithRuleKey(content: Uint8Array, isFirstLine: boolean): boolean {
  let i = 0;
  if (isFirstLine) {
    for (const byte of [0xef, 0xbb, 0xbf]) {
      if (content[i] === byte) i++;
      else break;
    }
  }
  while (isAsciiWhitespace(content[i])) i++;
  return RULE_KEY.test(ASCII.decode(content.subarray(i, i + 16)));
}

/**
 * URLs that reach the rules themselves: each pattern with `*` as `x` and without a final `$`, asked as an
 * absolute URL, and as a bare path one byte longer (a prefix match, and one an end anchor refuses).
 */
function urlsFromRules(rules: AgentRules, limit: number): string[] {
  const all = rules.rules;
  const step = Math.max(1, Math.ceil(all.length / limit));
  const urls = ['/', '/robots.txt', 'https://example.com/'];
  for (const rule of all.filter((_, index) => index % step === 0)) {
    const path = rule.pattern.replaceAll('*', 'x').replace(/\$$/, '');
    urls.push(`https://example.com${path}`, `${path}x`);
  }
  return urls;
}

/** Fails with the first few problems listed, and how many there were. */
function expectNone(problems: readonly string[]): void {
  expect(problems.length, `${problems.length} problem(s):\n${problems.slice(0, 20).join('\n')}`).toBe(0);
}

describeCorpus('the real-world corpus', () => {
  let corpus: CorpusFile[] = [];
  const parsed = new Map<ProfileName, RobotsTxt[]>();

  /** Every file parsed with `profile` (parsed once, by the first test that needs it). */
  function parsedWith(profile: ProfileName): RobotsTxt[] {
    let results = parsed.get(profile);
    if (results === undefined) {
      results = corpus.map(({ body }) => parseRobotsTxt(body, { profile }));
      parsed.set(profile, results);
    }
    return results;
  }

  /** Calls `check` with each file and its parse, for each profile. */
  function forEachParsed(check: (file: CorpusFile, robots: RobotsTxt, profile: ProfileName) => void): void {
    for (const profile of PROFILES) {
      const results = parsedWith(profile);
      corpus.forEach((file, i) => check(file, results[i] as RobotsTxt, profile));
    }
  }

  beforeAll(() => {
    corpus = loadCorpus();
    // The comparisons below are only worth something if WebAssembly really runs here.
    expect(setMatcher('wasm')).toBe('wasm');
  });

  afterAll(() => {
    setMatcher('wasm');
    for (const results of parsed.values()) for (const robots of results) robots.dispose();
  });

  // The corpus is there for tests that parse every file and must never throw.
  it('holds every file of the corpus', () => {
    // The shared corpus has 4,231 files; a corpus named by ROBOTS_CORPUS may have any number.
    if (process.env.ROBOTS_CORPUS === undefined || process.env.ROBOTS_CORPUS === '') expect(corpus.length).toBe(4231);
    else expect(corpus.length).toBeGreaterThan(0);
    expect(corpus.map((file) => file.name)).toEqual(corpus.map((file) => file.name).sort());
  });

  // spec: Google's robots.txt spec (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt), "File format" (invalid lines are ignored; the file is still used)
  it('parses every file without throwing, in both profiles', () => {
    const failures: string[] = [];
    for (const profile of PROFILES) {
      const results: RobotsTxt[] = [];
      for (const { name, body } of corpus) {
        try {
          results.push(parseRobotsTxt(body, { profile }));
        } catch (error) {
          failures.push(`${name} (${profile}): ${String(error)}`);
        }
      }
      if (failures.length === 0) parsed.set(profile, results);
    }
    expectNone(failures);
  });

  // spec: Google's robots.txt spec, "File format" ("a maximum file size of 500 kibibytes ... Content which is
  // after the maximum file size is ignored")
  it('counts every byte as parsed or ignored, and parses at most 500 KiB', () => {
    const problems: string[] = [];
    forEachParsed(({ name, body }, robots, profile) => {
      const where = `${name} (${profile})`;
      if (robots.bytesParsed + (robots.bytesIgnored ?? NaN) !== body.length) {
        problems.push(`${where}: ${robots.bytesParsed} parsed + ${robots.bytesIgnored} ignored ≠ ${body.length}`);
      }
      if (robots.bytesParsed !== Math.min(body.length, DEFAULT_MAX_BYTES)) problems.push(`${where}: parsed ${robots.bytesParsed}`);
      const reported = robots.diagnostics.some((diagnostic) => diagnostic.code === 'body-truncated');
      if (robots.truncated !== body.length > DEFAULT_MAX_BYTES || reported !== robots.truncated) {
        problems.push(`${where}: truncated ${String(robots.truncated)}, reported ${String(reported)}`);
      }
    });
    expectNone(problems);
  });

  // spec: Google's robots.txt spec, "Grouping of lines and rules" (a group is one or more user-agent lines
  // followed by one or more rules); "File format" (CR, LF and CR/LF end lines)
  it('gives every group an agent, with its rules after its agents and inside the parsed lines', () => {
    const problems: string[] = [];
    forEachParsed(({ name, body }, robots, profile) => {
      const lineCount = lineSpans(body.subarray(0, robots.bytesParsed)).length;
      robots.groups.forEach((group, index) => {
        const where = `${name} (${profile}) group ${index}`;
        if (group.agents.length === 0) problems.push(`${where}: no agent`);
        const agentLines = group.agents.map((agent) => agent.line);
        const ruleLines = group.rules.map((rule) => rule.line);
        for (const line of [...agentLines, ...ruleLines]) {
          if (!Number.isInteger(line) || line < 1 || line > lineCount) problems.push(`${where}: line ${line} of ${lineCount}`);
        }
        if (ruleLines.length > 0 && Math.max(...agentLines) >= Math.min(...ruleLines)) {
          problems.push(`${where}: a rule precedes an agent line`);
        }
        if (ruleLines.some((line, i) => i > 0 && line <= (ruleLines[i - 1] as number))) problems.push(`${where}: rules out of order`);
      });
    });
    expectNone(problems);
  });

  // spec: Google's robots.txt spec, "allow" / "disallow" (and the misspellings Google accepts, e.g. "dissallow")
  it('points every compiled rule at an allow or disallow line of the file', () => {
    const problems: string[] = [];
    forEachParsed(({ name, body }, robots, profile) => {
      const spans = lineSpans(body.subarray(0, robots.bytesParsed));
      for (const agent of AGENTS) {
        const rules = robots.forAgent(agent);
        for (const { line, kind, pattern } of rules.rules) {
          const span = spans[line - 1];
          const content = span === undefined ? undefined : body.subarray(span[0], span[1]);
          if (content === undefined || !startsWithRuleKey(content, line === 1)) {
            problems.push(`${name} (${profile}, ${agent}): ${kind} ${JSON.stringify(pattern.slice(0, 60))} at line ${line}`);
          }
        }
      }
    });
    expectNone(problems);
  });

  // spec: Google's robots.txt spec, "Order of precedence for rules" (the most specific rule decides)
  it('explains each verdict with the rule that gave it', () => {
    const problems: string[] = [];
    forEachParsed(({ name }, robots, profile) => {
      for (const agent of AGENTS) {
        const rules = robots.forAgent(agent);
        const compiled = rules.rules;
        for (const url of urlsFromRules(rules, SAMPLED_RULES)) {
          const explanation = rules.explain(url);
          const where = `${name} (${profile}, ${agent}) ${JSON.stringify(url.slice(0, 80))}`;
          if (explanation.allowed !== rules.isAllowed(url)) problems.push(`${where}: explain says ${String(explanation.allowed)}`);
          if (explanation.rule === undefined) {
            if (explanation.line !== 0 || !explanation.allowed) problems.push(`${where}: no rule, yet ${JSON.stringify(explanation)}`);
            continue;
          }
          const { kind, pattern } = explanation.rule;
          const known = compiled.some((rule) => rule.line === explanation.line && rule.kind === kind && rule.pattern === pattern);
          if (!known || explanation.allowed !== (kind === 'allow')) problems.push(`${where}: unknown rule ${JSON.stringify(explanation)}`);
        }
      }
    });
    expectNone(problems);
  });

  // docs/design.md#the-flow: the TypeScript executor is the reference the WebAssembly matcher must agree with.
  // spec: Google's robots.txt spec, "URL matching based on path values"
  it('gives the same verdicts with the WebAssembly matcher and the TypeScript executor', () => {
    const problems: string[] = [];
    try {
      forEachParsed(({ name }, robots, profile) => {
        for (const agent of AGENTS) {
          setMatcher('wasm');
          const wasm = robots.forAgent(agent);
          const urls = urlsFromRules(wasm, SAMPLED_RULES);
          // The batch entry and the single one, both against the reference.
          const wasmVerdicts = wasm.isAllowedMany(urls);
          const wasmLines = urls.map((url) => wasm.explain(url).line);
          // forAgent() hands back the compiled rules until they are disposed: dispose to compile anew.
          wasm.dispose();
          setMatcher('typescript');
          const typescript = robots.forAgent(agent);
          urls.forEach((url, i) => {
            // The executor is slow on purpose (obviously right, not fast): ask it once per URL.
            const reference = typescript.explain(url);
            if (wasmVerdicts[i] !== reference.allowed || wasmLines[i] !== reference.line) {
              problems.push(
                `${name} (${profile}, ${agent}) ${JSON.stringify(url.slice(0, 80))}: wasm ${String(wasmVerdicts[i])} ` +
                  `(line ${String(wasmLines[i])}), typescript ${String(reference.allowed)} (line ${reference.line})`,
              );
            }
          });
          typescript.dispose();
        }
      });
    } finally {
      setMatcher('wasm');
    }
    expectNone(problems);
  });
});
