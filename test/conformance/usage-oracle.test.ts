/**
 * usage() held to an oracle written straight from the drafts, sharing nothing with the library: files are
 * generated in a plain shape (one `Key: value` per line, ASCII paths that percent-normalisation leaves
 * alone), the oracle groups and selects them itself, matches each path with a regular expression built
 * from the pattern's definition, and reads each preference from a table of known statements.
 *
 * - draft-ietf-aipref-attach-05 §3.1: Allow/Disallow decide crawling (longest match, allow wins a tie); a
 *   disallowed path has no preferences; per source the longest matching path decides (a line without a path
 *   has length 0); the lines of that length that match combine;
 * - draft-ietf-aipref-vocab-07 §5.1: combining is per purpose, a disallow first, then an allow;
 * - both matchers (WebAssembly and TypeScript) and every tier answer the same.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../harness/random.mjs';
import { parseRobotsTxt, setMatcher } from '../../src/platform/inline.js';

type Preference = 'allow' | 'disallow' | 'unknown';
type Reading = readonly [trainAi: Preference, search: Preference, aiInput: Preference];

/** Statements and what they say, [train-ai, search, ai-input], read from vocab-07 §6.5 and the policy by hand. */
const CONTENT_USAGE: ReadonlyArray<readonly [string, Reading]> = [
  ['train-ai=n', ['disallow', 'unknown', 'unknown']],
  ['train-ai=y', ['allow', 'unknown', 'unknown']],
  ['search=n', ['unknown', 'disallow', 'unknown']],
  ['search=y, train-ai=n', ['disallow', 'allow', 'unknown']],
  ['train-ai=y, search=y', ['allow', 'allow', 'unknown']],
  ['train-ai', ['unknown', 'unknown', 'unknown']],
  ['train-ai=n, train-ai=y', ['allow', 'unknown', 'unknown']],
  ['Train-ai=n', ['unknown', 'unknown', 'unknown']],
  ['search=n;x=1, other=y', ['unknown', 'disallow', 'unknown']],
];
const CONTENT_SIGNAL: ReadonlyArray<readonly [string, Reading]> = [
  ['search=yes, ai-train=no', ['disallow', 'allow', 'unknown']],
  ['ai-input=no', ['unknown', 'unknown', 'disallow']],
  ['ai-train=yes, ai-input=yes', ['allow', 'unknown', 'allow']],
  ['Search=No', ['unknown', 'disallow', 'unknown']],
  ['search=y', ['unknown', 'unknown', 'unknown']],
];

const AGENTS = ['*', 'examplebot', 'otherbot'];
const PIECES = ['a', 'b', 'ab', '/', '*', 'a*b'];

interface Line {
  readonly line: number;
  readonly kind: 'allow' | 'disallow' | 'content-usage' | 'content-signal';
  /** The path; '' for a usage line without one. */
  readonly path: string;
  readonly reading?: Reading;
}

interface Group {
  readonly agents: string[];
  readonly lines: Line[];
}

function generated(random: () => number): { text: string; groups: Group[] } {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const path = (): string => {
    let out = '/';
    for (let n = Math.floor(random() * 3); n > 0; n--) out += pick(PIECES);
    return random() < 0.15 ? `${out}$` : out;
  };
  const text: string[] = [];
  const groups: Group[] = [];
  for (let g = 1 + Math.floor(random() * 3); g > 0; g--) {
    const group: Group = { agents: [], lines: [] };
    for (let a = 1 + Math.floor(random() * 2); a > 0; a--) {
      const agent = pick(AGENTS);
      group.agents.push(agent);
      text.push(`User-agent: ${agent}`);
    }
    for (let r = 1 + Math.floor(random() * 7); r > 0; r--) {
      const line = text.length + 1;
      const roll = random();
      if (roll < 0.35) {
        const kind = roll < 0.15 ? 'allow' : 'disallow';
        const value = path();
        group.lines.push({ line, kind, path: value });
        text.push(`${kind === 'allow' ? 'Allow' : 'Disallow'}: ${value}`);
      } else {
        const kind = roll < 0.75 ? 'content-usage' : 'content-signal';
        const [statement, reading] = pick(kind === 'content-usage' ? CONTENT_USAGE : CONTENT_SIGNAL);
        const value = random() < 0.3 ? '' : path();
        group.lines.push({ line, kind, path: value, reading });
        text.push(`${kind === 'content-usage' ? 'Content-Usage' : 'Content-Signal'}: ${value === '' ? '' : `${value} `}${statement}`);
      }
    }
    groups.push(group);
    text.push('');
  }
  return { text: text.join('\n'), groups };
}

/** Whether `pattern` matches `path`: RFC 9309 §2.2.2, `*` any run of characters, a final `$` the end. */
function matches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const source = body.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${source}${anchored ? '$' : ''}`, 's').test(path);
}

function combine(a: Preference, b: Preference): Preference {
  return a === 'disallow' || b === 'disallow' ? 'disallow' : a === 'allow' || b === 'allow' ? 'allow' : 'unknown';
}

const NOTHING: Reading = ['unknown', 'unknown', 'unknown'];

function combineReadings(a: Reading, b: Reading): Reading {
  return [combine(a[0], b[0]), combine(a[1], b[1]), combine(a[2], b[2])];
}

/** The oracle's answer: null when not crawlable, else the reading and the deciding lines. */
function oracle(groups: readonly Group[], agent: string, path: string): { reading: Reading; lines: number[] } | null {
  const named = groups.filter((group) => group.agents.includes(agent));
  const selected = named.length > 0 ? named : groups.filter((group) => group.agents.includes('*'));
  const lines = selected.flatMap((group) => group.lines);
  let best: Line | undefined;
  for (const line of lines) {
    if ((line.kind !== 'allow' && line.kind !== 'disallow') || !matches(line.path, path)) continue;
    if (best === undefined || line.path.length > best.path.length || (line.path.length === best.path.length && line.kind === 'allow'))
      best = line;
  }
  if (best?.kind === 'disallow') return null;
  let reading = NOTHING;
  const deciding: number[] = [];
  for (const source of ['content-usage', 'content-signal'] as const) {
    const candidates = lines.filter((line) => line.kind === source && (line.path === '' || matches(line.path, path)));
    const longest = Math.max(-1, ...candidates.map((line) => line.path.length));
    const atLongest = candidates.filter((candidate) => candidate.path.length === longest);
    for (const line of atLongest) reading = combineReadings(reading, line.reading as Reading);
    // The deciding lines: one path matches at that length, all its lines; where several do (through `*`),
    // for each purpose the source speaks of, the lines of the path that decided it: the most restrictive,
    // then the one written first.
    const byPath = new Map<string, Line[]>();
    for (const line of atLongest) byPath.set(line.path, [...(byPath.get(line.path) ?? []), line]);
    const samePath = [...byPath.values()];
    if (samePath.length <= 1) {
      for (const line of atLongest) deciding.push(line.line);
      continue;
    }
    const rank = { disallow: 0, allow: 1, unknown: 2 };
    const purposes = source === 'content-usage' ? [0, 1] : [0, 1, 2];
    for (const purpose of purposes) {
      const said = (group: Line[]) =>
        group.reduce<Preference>((p, line) => combine(p, (line.reading as Reading)[purpose] as Preference), 'unknown');
      const first = (group: Line[]) => Math.min(...group.map((line) => line.line));
      const decided = [...samePath].sort((a, b) => rank[said(a)] - rank[said(b)] || first(a) - first(b))[0] as Line[];
      for (const line of decided) if (!deciding.includes(line.line)) deciding.push(line.line);
    }
  }
  return { reading, lines: deciding.sort((a, b) => a - b) };
}

describe('usage() against an oracle from the drafts', () => {
  for (const matcher of ['wasm', 'typescript'] as const) {
    it(`${matcher} matcher: 1,000 generated files, every agent, paths drawn from the patterns`, () => {
      setMatcher(matcher);
      try {
        const random = mulberry32(matcher === 'wasm' ? 9309 : 2025);
        for (let file = 0; file < 1000; file++) {
          const { text, groups } = generated(random);
          const robots = parseRobotsTxt(text);
          const paths = ['/', '/a', '/ab', '/abab', '/a/b', '/b/a', '/bab', '/a$', '/aab/', '/ba/b'];
          for (const agent of AGENTS.slice(1)) {
            const rules = robots.forAgent(agent);
            // Twice over, so that the answers come from more than one tier.
            for (const path of [...paths, ...paths, ...paths]) {
              const answer = rules.usage(path);
              const expected = oracle(groups, agent, path);
              const context = `${text}\n-- ${agent} ${path}`;
              if (expected === null) {
                expect(answer, context).toBeNull();
                continue;
              }
              expect(answer && [answer['train-ai'], answer.search, answer['ai-input']], context).toEqual(expected.reading);
              expect(
                answer?.statements.map((statement) => statement.line),
                context,
              ).toEqual(expected.lines);
            }
          }
          robots.dispose();
        }
      } finally {
        setMatcher('wasm');
      }
    });
  }
});
