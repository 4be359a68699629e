/**
 * Hostile robots.txt files (docs/design.md#hostile-input): a site controls both its robots.txt and the URLs it links to, so it can
 * write a 500 KiB file of wildcard rules built to be slow and link to URLs built against them. docs/design.md#hostile-input:
 * "Every robots.txt and URL may be hostile: … CPU per check [is] bounded".
 *
 * The files are generated here, each as large as the parse limit allows, in the shapes bench/hostile/run.mjs
 * times (that script measures the CPU; no test asserts a time). These tests pin what the bound must not
 * change: that the piece automaton (src/compile/bytecode.ts) picks the very rule that trying the rules one by
 * one picks, in both matchers, on every shape; that identical rules are kept once with the verdicts and
 * explain() lines of before; that the automaton is built only for files that need it, within 4× the text of
 * its rules; and that its work area, shared by every ruleset, stays right across rulesets and checks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { automatonWorkNeeds, BytecodeVersionError, writeBytecode, type BytecodeOptions } from '../../src/compile/bytecode.js';
import type { CompiledRules } from '../../src/compile/rules.js';
import { QUERY_URL, QUERY_VERDICT_ONLY, type LoadedRuleset } from '../../src/engine/backend.js';
import { decide, decideRuleByRule, verdictOf } from '../../src/engine/matcher.js';
import { typescriptBackend } from '../../src/engine/typescript-backend.js';
import { createWasmBackend } from '../../src/engine/wasm-backend.js';
import { BYTECODE_MAGIC, HEADER_SIZE, RULE_ENTRY_SIZE, RULE_FLAGS, RULE_HAS_WILDCARD, RULE_IN_AUTOMATON } from '../../src/layout.js';
import { profileNamed } from '../../src/profile.js';
import { parseRobotsTxt, setMatcher, type RobotsTxt } from '../../src/platform/inline.js';
import { compileRuleLines, patternList, patternsOf } from '../support/pattern-list.js';
import { mulberry32 as random } from '../../harness/random.mjs';

const wasmModule = new WebAssembly.Module(readFileSync(new URL('../../build/matcher.wasm', import.meta.url)));
const encoder = new TextEncoder();
const TIMEOUT = { timeout: 30_000 };
/** The parse limit: the largest file a site can make a crawler read. */
const FILE_LIMIT = 512_000;
const RFC9309 = profileNamed('rfc9309');
const RFC9309_OPTIONS: BytecodeOptions = { normalizeUrl: true, robotsTxtAllowed: true, pathEndsAtNul: false };

// ---------------------------------------------------------------------------------------------------------
// The shapes (as in bench/hostile/run.mjs): a file, and URLs of a given byte length chosen against it.

interface Shape {
  readonly name: string;
  readonly body: string;
  /** URLs of `length` bytes: the ones that cost most, and ones that match. */
  urls(length: number): string[];
}

/** `User-agent: *` and the lines `next(i)` gives, as many as fit in the parse limit. */
function fileOf(next: (i: number) => string | undefined): string {
  let body = 'User-agent: *\n';
  for (let i = 0; ; i++) {
    const line = next(i);
    if (line === undefined || body.length + line.length + 1 > FILE_LIMIT) return body;
    body += `${line}\n`;
  }
}

/** `/`, then `fill` repeated and cut so that, with `tail` at the end, the URL has `length` bytes. */
function url(length: number, fill: string, tail = ''): string {
  return `/${fill.repeat(Math.ceil(length / fill.length)).slice(0, length - 1 - tail.length)}${tail}`;
}

/** Distinct five-byte tokens for the out-of-order shape. */
function token(i: number): string {
  return `x${i.toString(36).padStart(3, '0')}-`;
}

function sharedPiecesShape(): Shape {
  const pool = ['aaaaaaaaaaaaaab', 'aaaaaaa', 'aab', 'ab', 'aaaa', 'b', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaab', 'ba', 'aaab', 'a'];
  const patterns: string[] = [];
  for (let pieces = 2; pieces <= 5 && patterns.length < 40_000; pieces++) {
    for (let n = 0; n < pool.length ** pieces && patterns.length < 40_000; n++) {
      let rest = n;
      let pattern = '/';
      for (let k = 0; k < pieces; k++) {
        pattern += `*${pool[rest % pool.length] as string}`;
        rest = Math.floor(rest / pool.length);
      }
      patterns.push(`${n % 2 === 0 ? 'Disallow' : 'Allow'}: ${pattern}${n % 3 === 0 ? '$' : ''}`);
    }
  }
  return {
    name: 'shared pieces: every combination of 2 to 5 pieces from a pool of 10, some ending in `$`',
    body: fileOf((i) => patterns[i]),
    urls: (length) => [
      url(length, 'a'),
      url(length, 'a', 'b'),
      url(length, 'aaaaaaab'),
      url(length, 'ab', 'ba'),
      url(length, 'baa', 'aaab'),
    ],
  };
}

function outOfOrderShape(): Shape {
  const next = random(0x0dd);
  const patterns: string[] = [];
  for (let i = 0; i < 60_000; i++) {
    const [high, middle, low] = [next(), next(), next()].map((x) => Math.floor(x * 3_300)).sort((a, b) => b - a) as [
      number,
      number,
      number,
    ];
    patterns.push(i % 2 === 0 ? `Disallow: /*${token(high)}*${token(low)}` : `Allow: /*${token(high)}*${token(middle)}*${token(low)}$`);
  }
  const inOrder = (length: number, from: number, step: number): string => {
    let tokens = '';
    for (let i = from; tokens.length < length; i += step) tokens += token(((i % 3_300) + 3_300) % 3_300);
    return `/${tokens.slice(0, length - 1)}`;
  };
  return {
    name: 'pieces out of order: /*t(j)*t(i) and /*t(k)*t(j)*t(i)$ with k > j > i, against t0 t1 t2 … in order',
    body: fileOf((i) => patterns[i]),
    // In order (nothing matches but rules run long), backwards (many match), and in steps of 7.
    urls: (length) => [inOrder(length, 0, 1), inOrder(length, 3_299, -1), inOrder(length, 5, 7)],
  };
}

const SHAPES: readonly Shape[] = [
  {
    name: 'the reported file: 17,654 × Disallow: /*aaaaaaaaaaaaaaab',
    body: fileOf((i) => (i < 17_654 ? 'Disallow: /*aaaaaaaaaaaaaaab' : undefined)),
    urls: (length) => [url(length, 'a'), url(length, 'a', 'b')],
  },
  sharedPiecesShape(),
  {
    name: 'varying lengths: Disallow: /*a{k}b and Allow: /*a{k}b$ for k = 1, 2, 3, …',
    body: fileOf((i) => `${i % 2 === 0 ? 'Disallow' : 'Allow'}: /*${'a'.repeat(1 + (i >> 1))}b${i % 2 === 0 ? '' : '$'}`),
    urls: (length) => [url(length, 'a'), url(length, 'a', 'b'), url(length, 'a', 'bc'), url(length, 'aaab')],
  },
  outOfOrderShape(),
  {
    name: '`$` endings: Disallow: /*a{k}c*a{j}$',
    body: fileOf((i) => `Disallow: /*${'a'.repeat(1 + (i % 97))}c*${'a'.repeat(1 + Math.floor(i / 97))}$`),
    urls: (length) => [url(length, 'a'), url(length, 'a', 'ca'), `${url(length / 2, 'a')}c${url(length / 2, 'a').slice(1)}`],
  },
  {
    name: 'suffix chains: /*c*a{k} and /*a{k}*c (pieces a, aa, aaa, … all end wherever a run of a does)',
    body: fileOf((i) => (i % 2 === 0 ? `Disallow: /*c*${'a'.repeat(1 + i / 2)}` : `Allow: /*${'a'.repeat(1 + (i - 1) / 2)}*c`)),
    urls: (length) => [
      url(length, 'a'),
      `${url(length / 2, 'a')}c${url(length / 2, 'a').slice(1)}`,
      url(length, 'a', 'c'),
      url(length, 'aaaaaaaaac'),
    ],
  },
  {
    name: 'many stars: Disallow: /*a*a*…*a*b with 1, 2, 3, … pieces of a',
    body: fileOf((i) => `Disallow: /${'*a'.repeat(i + 1)}*b`),
    urls: (length) => [url(length, 'a'), url(length, 'ab'), url(length, 'a', 'b')],
  },
];

/** The rules a file's one `*` group compiles to (priority order, repeats kept once), as AgentRules has them. */
function compiledRulesOf(robots: RobotsTxt): CompiledRules {
  return compileRuleLines(
    robots.groups.flatMap((group) => group.rules),
    RFC9309,
  );
}

function bytecodeOf(rules: CompiledRules, options: Partial<BytecodeOptions> = {}): Uint8Array {
  return writeBytecode(rules, { ...RFC9309_OPTIONS, ...options });
}

// ---------------------------------------------------------------------------------------------------------

describe('hostile files: the piece automaton picks the rule that trying the rules one by one picks', TIMEOUT, () => {
  const backend = createWasmBackend(wasmModule);

  // spec: Google's robots.txt spec (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt), "URL matching based on path values" and "Order of precedence for rules"
  // (the most specific match decides; `*` any run, `$` the end), on files of 500 KiB (RFC 9309 §2.5).
  it.each(SHAPES)('$name: both matchers, URLs of 2 KiB', (shape) => {
    const robots = parseRobotsTxt(shape.body);
    expect(robots.truncated).toBe(false);
    const rules = compiledRulesOf(robots);
    const automaton = bytecodeOf(rules);
    const ruleByRule = bytecodeOf(rules, { automaton: 'never' });
    const fast = backend.load(automaton);
    const slow = backend.load(ruleByRule);
    try {
      for (const target of shape.urls(2048)) {
        expect(encoder.encode(target).length).toBe(2048);
        // The rule-by-rule answer, from the WebAssembly matcher (the TypeScript one takes seconds here).
        const expected = slow.query(target, QUERY_URL);
        expect(fast.query(target, QUERY_URL), target.slice(0, 40)).toBe(expected);
        expect(decide(automaton, encoder.encode(target)), target.slice(0, 40)).toBe(expected);
      }
    } finally {
      fast.free();
      slow.free();
    }
  });

  // The same, through the public API with each matcher, on 16 KiB URLs: the verdict and the line explain() gives.
  it.each(SHAPES)('$name: both matchers agree through the API, URLs of 16 KiB', (shape) => {
    const explanations = (['wasm', 'typescript'] as const).map((matcher) => {
      setMatcher(matcher);
      const robots = parseRobotsTxt(shape.body);
      const agent = robots.forAgent('ExampleBot');
      const answers = shape.urls(16_384).map((target) => agent.explain(target));
      robots.dispose();
      return answers;
    });
    setMatcher('wasm');
    expect(explanations[1]).toEqual(explanations[0]);
  });

  it('gives the rules of every shape but the deduplicated one an automaton', () => {
    const built = SHAPES.map((shape) => automatonWorkNeeds(bytecodeOf(compiledRulesOf(parseRobotsTxt(shape.body)))) !== undefined);
    expect(built).toEqual(SHAPES.map((_, i) => i !== 0));
  });
});

describe('identical rules are kept once', TIMEOUT, () => {
  // spec: Google's robots.txt spec, "Order of precedence for rules": a rule that repeats another can never be
  // the most specific match on its own, so keeping it once changes no verdict.
  it('compiles the reported 17,654 identical wildcard lines to one rule, which its first line decides', () => {
    const body = fileOf((i) => (i < 17_654 ? 'Disallow: /*aaaaaaaaaaaaaaab' : undefined));
    for (const matcher of ['wasm', 'typescript'] as const) {
      setMatcher(matcher);
      const rules = parseRobotsTxt(body).forAgent('ExampleBot');
      expect(rules.rules).toEqual([{ kind: 'disallow', pattern: '/*aaaaaaaaaaaaaaab', line: 2 }]);
      expect(rules.explain(url(16_384, 'a', 'b'))).toEqual({
        allowed: false,
        line: 2,
        rule: { kind: 'disallow', pattern: '/*aaaaaaaaaaaaaaab' },
      });
      expect(rules.isAllowed(url(16_384, 'a'))).toBe(true);
    }
    setMatcher('wasm');
  });

  // The deciding rule of identical ones was always the first in priority order, the earliest line: it stays.
  it('reports the earliest of identical rules in explain(), and keeps rules of the other kind', () => {
    const body = ['User-agent: *', 'Disallow: /x*y', 'Disallow: /a', 'Disallow: /x*y', 'Allow: /x*y', 'Allow: /x*y', 'Disallow: /a'].join(
      '\n',
    );
    const rules = parseRobotsTxt(body).forAgent('ExampleBot');
    expect(rules.rules).toEqual([
      { kind: 'allow', pattern: '/x*y', line: 5 },
      { kind: 'disallow', pattern: '/x*y', line: 2 },
      { kind: 'disallow', pattern: '/a', line: 3 },
    ]);
    expect(rules.explain('/x1y')).toEqual({ allowed: true, line: 5, rule: { kind: 'allow', pattern: '/x*y' } });
    expect(rules.explain('/a')).toEqual({ allowed: false, line: 3, rule: { kind: 'disallow', pattern: '/a' } });
  });

  // RFC 9309 §2.2.2: patterns are compared after normalization, so `/%7Ea` and `/~a` are the same rule there;
  // the google profile keeps the escape, and the two rules.
  it('counts rules as identical after normalization, as the profile normalizes', () => {
    const body = 'User-agent: *\nDisallow: /%7Ea*b\nDisallow: /~a*b\n';
    expect(parseRobotsTxt(body).forAgent('ExampleBot').rules).toEqual([{ kind: 'disallow', pattern: '/%7Ea*b', line: 2 }]);
    expect(
      parseRobotsTxt(body, { profile: 'google' })
        .forAgent('ExampleBot')
        .rules.map((rule) => rule.line),
    ).toEqual([2, 3]);
  });

  // Google's index.html rule derives `Allow: /d/$` from `Allow: /d/index.html`: with a written `Allow: /d/$` too,
  // the two are one rule, and the earlier line explains, as it did.
  it('keeps a rule derived from index.html and the same written rule once, at the earlier line', () => {
    const derivedFirst = parseRobotsTxt('User-agent: *\nAllow: /d/index.html\nAllow: /d/$\nDisallow: /d/\n').forAgent('ExampleBot');
    expect(derivedFirst.explain('/d/')).toEqual({ allowed: true, line: 2, rule: { kind: 'allow', pattern: '/d/$' } });
    expect(derivedFirst.rules.filter((rule) => rule.pattern === '/d/$')).toEqual([{ kind: 'allow', pattern: '/d/$', line: 2 }]);
    const writtenFirst = parseRobotsTxt('User-agent: *\nAllow: /d/$\nAllow: /d/index.html\nDisallow: /d/\n').forAgent('ExampleBot');
    expect(writtenFirst.explain('/d/')).toEqual({ allowed: true, line: 2, rule: { kind: 'allow', pattern: '/d/$' } });
  });
});

describe('where the automaton is built, and what it costs', TIMEOUT, () => {
  // bench/RESULTS.md measures ordinary files: those with a few wildcard rules keep the plain layout and its speed.
  it('leaves small ordinary files without an automaton', () => {
    const directory = new URL('../../examples/sites/', import.meta.url);
    const bodies = readdirSync(directory).map((name) => readFileSync(new URL(name, directory), 'utf8'));
    bodies.push('User-agent: *\nDisallow: /*?sessionid=\nDisallow: /*.pdf$\nDisallow: /search*q=\nAllow: /search/about\n');
    for (const body of bodies) {
      const robots = parseRobotsTxt(body);
      for (const group of robots.groups) {
        expect(automatonWorkNeeds(bytecodeOf(compileRuleLines(group.rules, RFC9309)))).toBeUndefined();
      }
    }
  });

  // The budget: what bounds the CPU may add up to 4× the text of the rules it serves.
  it.each(SHAPES.slice(1))('adds at most 4× the patterns of the rules it decides: $name', (shape) => {
    const rules = compiledRulesOf(parseRobotsTxt(shape.body));
    const added = bytecodeOf(rules).byteLength - bytecodeOf(rules, { automaton: 'never' }).byteLength;
    const wildcardText = patternsOf(rules)
      .filter((pattern) => pattern.includes(0x2a))
      .reduce((total, pattern) => total + pattern.length, 0);
    expect(added).toBeGreaterThan(0);
    expect(added).toBeLessThanOrEqual(4 * wildcardText);
  });

  it('marks exactly the wildcard rules with a piece to search for as decided by the automaton', () => {
    const rules = compiledRulesOf(
      parseRobotsTxt('User-agent: *\nDisallow: /a*b\nDisallow: /a*b$\nDisallow: /c$\nDisallow: /d*\nDisallow: /*x*y$\n'),
    );
    const view = new DataView(bytecodeOf(rules, { automaton: 'always' }).buffer);
    const ruleFlags = (index: number): number => view.getUint16(HEADER_SIZE + index * RULE_ENTRY_SIZE + RULE_FLAGS, true);
    const inAutomaton = patternsOf(rules).map((_, index) => (ruleFlags(index) & RULE_IN_AUTOMATON) !== 0);
    const wildcard = patternsOf(rules).map((_, index) => (ruleFlags(index) & RULE_HAS_WILDCARD) !== 0);
    // `/a*b$` has no piece to search for (p0 a prefix test, b a suffix test); `/d*` is the plain prefix `/d`.
    expect(patternsOf(rules).map((pattern) => new TextDecoder().decode(pattern))).toEqual(['/*x*y$', '/a*b$', '/a*b', '/c$', '/d*']);
    expect(inAutomaton).toEqual([true, false, true, false, false]);
    expect(wildcard).toEqual([true, true, true, false, false]);
  });
});

describe('the work area that every ruleset shares', TIMEOUT, () => {
  /** A ruleset with an automaton: `count` rules of the shared pieces a, aa, ab, b, ba, aab. */
  function smallAutomaton(seed: number, count = 40): Uint8Array {
    const next = random(seed);
    const pieces = ['a', 'aa', 'ab', 'b', 'ba', 'aab'];
    const rules = Array.from({ length: count }, (_, i) => {
      const count = 1 + Math.floor(next() * 4);
      const pattern = `/${Array.from({ length: count }, () => `*${pieces[Math.floor(next() * pieces.length)] as string}`).join('')}${next() < 0.3 ? '$' : ''}`;
      return { allow: i % 3 === 0, pattern: encoder.encode(pattern) };
    });
    return writeBytecode(patternList(rules), { ...RFC9309_OPTIONS, automaton: 'always', deepPieceDepth: seed % 3 });
  }

  // The memo's tags count checks modulo 1,024; the state a check leaves must be all the next one (on any
  // ruleset) finds. Three rulesets of different sizes take turns, over more than two wrap-arounds.
  it('keeps every verdict right over 2,500 checks that take turns between rulesets', () => {
    const fresh = createWasmBackend(wasmModule);
    const blocks = [smallAutomaton(1), smallAutomaton(2, 400), smallAutomaton(3, 5)];
    const loaded: LoadedRuleset[] = blocks.map((block) => fresh.load(block));
    const next = random(7);
    const paths = Array.from({ length: 64 }, () => {
      let path = '/';
      const length = Math.floor(next() * 80);
      for (let i = 0; i < length; i++) path += 'aab/c'[Math.floor(next() * 5)] as string;
      return path;
    });
    for (let check = 0; check < 2_500; check++) {
      const which = check % 3;
      const path = paths[(check * 7) % paths.length] as string;
      const block = blocks[which] as Uint8Array;
      expect((loaded[which] as LoadedRuleset).query(path, QUERY_URL), `check ${String(check)}`).toBe(
        decideRuleByRule(block, encoder.encode(path)),
      );
    }
    for (const ruleset of loaded) ruleset.free();
  });

  // docs/design.md#memory: a ruleset that is dropped gives its memory back; the work area goes with the last ruleset
  // that needed one.
  it('gives the work area back once no loaded ruleset has an automaton', () => {
    const fresh = createWasmBackend(wasmModule);
    const baseline = fresh.bytesInUse;
    const plain = fresh.load(bytecodeOf(compiledRulesOf(parseRobotsTxt('User-agent: *\nDisallow: /a*b\n'))));
    const withPlain = fresh.bytesInUse;
    const first = fresh.load(smallAutomaton(5));
    const second = fresh.load(smallAutomaton(6, 200));
    first.free();
    expect(second.query('/aab', QUERY_URL)).toBe(decideRuleByRule(smallAutomaton(6, 200), encoder.encode('/aab')));
    second.free();
    expect(fresh.bytesInUse).toBe(withPlain);
    plain.free();
    expect(fresh.bytesInUse).toBe(baseline);
  });

  it('grows the work area for a larger automaton and still decides the smaller one', () => {
    const fresh = createWasmBackend(wasmModule);
    const small = smallAutomaton(4);
    const smallLoaded = fresh.load(small);
    const large = bytecodeOf(compiledRulesOf(parseRobotsTxt(SHAPES[1]?.body ?? '')));
    const largeLoaded = fresh.load(large);
    for (const path of ['/aab', '/ba', '/aaaaaaab', url(2048, 'aaaaaaab'), url(300, 'ab', 'ba')]) {
      expect(smallLoaded.query(path, QUERY_URL)).toBe(decideRuleByRule(small, encoder.encode(path)));
      expect(largeLoaded.query(path, QUERY_URL)).toBe(decideRuleByRule(large, encoder.encode(path)));
      expect(verdictOf(large, largeLoaded.query(path, QUERY_URL))).toBe(largeLoaded.query(path, QUERY_VERDICT_ONLY) === 1);
    }
    smallLoaded.free();
    largeLoaded.free();
  });
});

describe('the bytecode version', () => {
  // src/compile/bytecode.ts: the magic is the format version, checked when a block is loaded.
  it('refuses a block of another format version with a BytecodeVersionError, in both matchers', () => {
    const block = bytecodeOf(compiledRulesOf(parseRobotsTxt('User-agent: *\nDisallow: /*a\n')));
    const older = block.slice();
    new DataView(older.buffer).setUint32(0, 0x32425452, true); // "RTB2", the format before the automaton
    expect(new DataView(block.buffer).getUint32(0, true)).toBe(BYTECODE_MAGIC);
    for (const backend of [createWasmBackend(wasmModule), typescriptBackend]) {
      expect(() => backend.load(older)).toThrow(BytecodeVersionError);
      expect(() => backend.load(older)).toThrow(/compile the rules again/);
      expect(() => backend.load(block.subarray(0, 20))).toThrow(BytecodeVersionError);
      backend.load(block).free();
    }
  });
});
