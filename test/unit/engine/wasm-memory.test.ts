/**
 * WebAssembly memory under hostile input (docs/design.md#hostile-input and #memory: "memory per
 * cached origin and CPU per check are bounded, and a failed allocation leaves the engine as it was").
 *
 * - Long input borrows memory only for the call: after a 10 MB URL or a 5 MB body, the memory counted in
 *   use (matcherInfo().wasmBytesInUse) is back where it was.
 * - Running out: in a child `node --wasm-max-mem-pages=512` (32 MiB), each way of asking for more than
 *   that throws a RangeError that says what could not be allocated; afterwards the rules compiled before
 *   still answer, and new parses, compiles and checks work. The child loads the built package
 *   (dist/index.js, which `npm test` builds first) and runs test/support/memory-cap-child.mjs.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { utf8Length } from '../../../src/parse/utf8.js';
import type { AgentRules } from '../../../src/platform/inline.js';

const execFileAsync = promisify(execFile);
const MEGABYTE = 1 << 20;
const SITE = 'User-agent: *\nDisallow: /private\nAllow: /private/open\n';

type Engine = typeof import('../../../src/platform/inline.js');

/**
 * A fresh copy of the library, with a WebAssembly instance of its own, so that no test sees the buffers
 * another one left; its rules compiled with the WebAssembly matcher; and the bytes in use once they (and
 * the standing buffers) exist.
 */
async function freshEngine(): Promise<{ engine: Engine; rules: AgentRules; before: number }> {
  vi.resetModules();
  const engine = (await import('../../../src/platform/inline.js')) as Engine;
  engine.setMatcher('wasm');
  // Compiled at once: by default the first verdict is read with nothing compiled, and a 10 MB URL compiles them.
  const rules = engine.parseRobotsTxt(SITE).forAgent('ExampleBot', { indexed: true });
  expect(engine.matcherInfo().kind).toBe('wasm');
  return { engine, rules, before: engine.matcherInfo().wasmBytesInUse };
}

describe('memory in use after long input', () => {
  it('is back where it was after a 10 MB URL, asked as a string, a URL object and for an explanation', async () => {
    const {
      engine: { matcherInfo },
      rules,
      before,
    } = await freshEngine();
    const tail = 'a'.repeat(10 * MEGABYTE);
    expect(rules.isAllowed(`/private/${tail}`)).toBe(false);
    expect(matcherInfo().wasmBytesInUse).toBe(before);
    expect(rules.isAllowed(`https://example.com/private/open/${tail}`)).toBe(true);
    expect(rules.isAllowed(new URL(`https://example.com/private/${tail}`))).toBe(false);
    expect(rules.explain(`/private/${tail}`)).toMatchObject({ allowed: false, line: 2 });
    expect(matcherInfo().wasmBytesInUse).toBe(before);
    // Short URLs still answer from the standing buffers afterwards.
    expect([rules.isAllowed('/private/x'), rules.isAllowed('/public')]).toEqual([false, true]);
    expect(matcherInfo().wasmBytesInUse).toBe(before);
    rules.dispose();
  });

  it('is back where it was after a 10 MB URL of multi-byte characters', async () => {
    const {
      engine: { matcherInfo },
      rules,
      before,
    } = await freshEngine();
    expect(rules.isAllowed(`/private/${'é'.repeat(5 * MEGABYTE)}`)).toBe(false);
    expect(rules.isAllowed(`/public/${'😀'.repeat(MEGABYTE)}\uD800`)).toBe(true);
    expect(matcherInfo().wasmBytesInUse).toBe(before);
    rules.dispose();
  });

  it('is back where it was after a batch with a 10 MB URL among short ones', async () => {
    const {
      engine: { matcherInfo },
      rules,
      before,
    } = await freshEngine();
    const long = `/private/${'a'.repeat(10 * MEGABYTE)}`;
    const urls = ['/private/x', long, '/public', `/public/${'b'.repeat(10 * MEGABYTE)}`, '/private/open/y'];
    expect(rules.isAllowedMany(urls)).toEqual([false, false, true, true, true]);
    expect(Array.from(rules.isAllowedManyInto([long, '/public']))).toEqual([0, 1]);
    expect(matcherInfo().wasmBytesInUse).toBe(before);
    rules.dispose();
  });

  it('is back where it was after a 5 MB body is parsed', async () => {
    const {
      engine: { matcherInfo, parseRobotsTxt },
      rules,
      before,
    } = await freshEngine();
    const body = `User-agent: *\nDisallow: /early\n${'# filler\n'.repeat((5 * MEGABYTE) / 9)}Disallow: /late\n`;
    const robots = parseRobotsTxt(body, { maxBytes: Infinity });
    expect(matcherInfo().wasmBytesInUse).toBe(before);
    expect([robots.isAllowed('/early', 'ExampleBot'), robots.isAllowed('/late', 'ExampleBot')]).toEqual([false, false]);
    robots.dispose();
    expect(matcherInfo().wasmBytesInUse).toBe(before);
    rules.dispose();
  });

  it('gives the same verdicts as the TypeScript matcher for URLs just under and over the standing buffer', async () => {
    const {
      engine: { parseRobotsTxt, setMatcher },
    } = await freshEngine();
    const body = 'User-agent: *\nDisallow: /*%C3%A9$\nDisallow: /*x$\nAllow: /*%F0%9F%98%80\nDisallow: /p\n';
    const robots = parseRobotsTxt(body);
    const fill = ['a', 'é', '😀', '\uD800', '%41', '€'];
    const urls: string[] = [];
    // The standing buffer takes URLs of up to 65,536 / 3 = 21,845 UTF-16 units; longer ones get their own.
    for (const units of [21_844, 21_845, 21_846, 30_000])
      for (const piece of fill)
        for (const end of ['', 'x', 'é'])
          urls.push(`/p${piece.repeat(Math.ceil(units / piece.length)).slice(0, units - 2 - end.length)}${end}`);
    const verdicts = (['wasm', 'typescript'] as const).map((matcher) => {
      setMatcher(matcher);
      robots.dispose();
      const rules = robots.forAgent('ExampleBot');
      return { single: urls.map((url) => rules.isAllowed(url)), batch: rules.isAllowedMany(urls) };
    });
    setMatcher('wasm');
    expect(verdicts[0]).toEqual(verdicts[1]);
    expect(verdicts[0]?.single).toEqual(verdicts[0]?.batch);
    robots.dispose();
  });

  it('sizes a long URL on its exact UTF-8 length, lone surrogates counted as U+FFFD', () => {
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 0x7f }),
      fc.integer({ min: 0x80, max: 0x7ff }),
      fc.integer({ min: 0x800, max: 0xffff }), // surrogates included, alone or paired by chance
      fc.integer({ min: 0x10000, max: 0x10ffff }),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), (codes) => {
        const text = codes.map((code) => (code > 0xffff ? String.fromCodePoint(code) : String.fromCharCode(code))).join('');
        expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
      }),
      { numRuns: 500 },
    );
  });
});

/** What the child reports (test/support/memory-cap-child.mjs). */
interface Failure {
  readonly name: string;
  readonly message: string;
  readonly rangeError: boolean;
}
interface Verdicts {
  readonly single: boolean[];
  readonly batch: boolean[];
}
interface ChildReport {
  readonly kind: string;
  readonly error: Failure | null;
  readonly bytesAfterFailure: number;
  readonly earlier: Verdicts;
  readonly earlierGoogle: Verdicts;
  readonly newWork: { readonly ok?: { bodyBytes: number; verdicts: Verdicts; longUrl: boolean[] }; readonly threw?: Failure };
  readonly earlierAfterNewWork: Verdicts;
  readonly bytesAtEnd: number;
  readonly [more: string]: unknown;
}

const CHILD = fileURLToPath(new URL('../../support/memory-cap-child.mjs', import.meta.url));
const DIST = fileURLToPath(new URL('../../../dist/index.js', import.meta.url));
/** 512 pages of 64 KiB: 32 MiB of WebAssembly memory at most. */
const CAP = '--wasm-max-mem-pages=512';
const RIGHT: Verdicts = { single: [false, true, true, false], batch: [false, true, true, false] };

async function runCapped(scenario: string): Promise<ChildReport> {
  const { stdout } = await execFileAsync(process.execPath, [CAP, CHILD, DIST, scenario], { timeout: 50_000, maxBuffer: 4 * MEGABYTE });
  return JSON.parse(stdout) as ChildReport;
}

/** What holds after any failure: the error is clear, nothing stayed allocated, old and new work answers. */
function expectRecovered(report: ChildReport, what: RegExp): void {
  expect(report.kind).toBe('wasm');
  expect(report.error).toMatchObject({ name: 'RangeError', rangeError: true });
  const message = report.error?.message ?? '';
  expect(message).toMatch(what);
  expect(message).toMatch(/\([\d,]+ bytes of WebAssembly memory\)/);
  expect(message).toMatch(/Nothing was changed: rules compiled before keep answering, and later calls work/);
  expect(report.bytesAfterFailure).toBe(0);
  expect(report.earlier).toEqual(RIGHT);
  expect(report.earlierGoogle).toEqual(RIGHT);
  // A parse of more than 300 KB, a compile, a check and a batch with 1 MB URLs: all work, and answer right.
  expect(report.newWork).toEqual({ ok: { bodyBytes: expect.any(Number), verdicts: RIGHT, longUrl: [false, true] } });
  expect(report.newWork.ok?.bodyBytes).toBeGreaterThan(300_000);
  expect(report.earlierAfterNewWork).toEqual(RIGHT);
  expect(report.bytesAtEnd).toBe(0);
}

describe('running out of WebAssembly memory (a child node capped at 32 MiB)', () => {
  it('refuses a 12-million-character URL with a RangeError, and keeps working', async () => {
    expectRecovered(await runCapped('url'), /could not allocate the input of a URL of 12,000,001 characters/);
  });

  it('refuses a 12-million-character URL object with a RangeError, and keeps working', async () => {
    expectRecovered(await runCapped('url-object'), /could not allocate the input of a URL of 12,000,001 characters/);
  });

  it('refuses a 12-million-character URL in a batch with a RangeError, and keeps working', async () => {
    expectRecovered(await runCapped('batch'), /could not allocate the input of a URL of 12,000,001 characters/);
  });

  it('refuses a 36 MB string body with a RangeError, and keeps working', async () => {
    expectRecovered(await runCapped('body'), /could not allocate a copy of the robots.txt body/);
  });

  it('refuses a 36 MB byte body with a RangeError, and keeps working', async () => {
    expectRecovered(await runCapped('bytes'), /could not allocate a copy of the robots.txt body/);
  });

  it('refuses the compile that does not fit, keeps every ruleset compiled before, and compiles again once some are disposed', async () => {
    const report = await runCapped('compiles');
    // forAgent() reads the agent's groups from the body (copied in) and then compiles: either runs out.
    expectRecovered(report, /could not allocate (a compiled ruleset|a copy of the robots.txt body)/);
    const probe = [false, true, false];
    // Hundreds of rulesets of 90 KB filled the 32 MiB before the refusal; all answer as before.
    expect(report.compiled).toBeGreaterThan(300);
    expect(report.fullVerdicts).toEqual([probe, probe, probe]);
    // While full, a small compile either fits in what is left or is refused the same way.
    if (report.whileFull !== null) expect(report.whileFull).toMatchObject({ name: 'RangeError', rangeError: true });
    else expect(report.whileFullVerdicts).toEqual(RIGHT);
    // Half of them disposed: a big compile and a small parse fit in the holes, and the rest still answer.
    expect(report.afterHalfDisposed).toBeNull();
    expect(report.anotherVerdicts).toEqual(probe);
    expect(report.smallVerdicts).toEqual(RIGHT);
    expect(report.keptVerdicts).toEqual([probe, probe, probe]);
    expect(report.lastVerdicts).toEqual(probe);
  });
});

describe('rules nobody disposes', () => {
  // FinalizationRegistry callbacks cannot run inside a synchronous loop: linear memory must stay bounded
  // by the residency budget there, and an evicted ruleset must answer as before when asked again.
  it('a synchronous loop of parses without dispose() stays within the resident budget, and every ruleset still answers', async () => {
    const { parseRobotsTxt, matcherInfo } = await import('../../../src/platform/inline.js');
    const { RESIDENT_BUDGET } = await import('../../../src/engine/residency.js');
    const body = `User-agent: *\n${Array.from({ length: 3_000 }, (_, i) => `Disallow: /section-${i}/page-*.html$\n`).join('')}Allow: /section-7/page-1.html$\n`;
    // Indexed, and asked twice: its single checks go the fast path, to the address it keeps.
    const first = parseRobotsTxt(body).forAgent('ExampleBot', { indexed: true });
    expect(first.isAllowed('/section-7/page-2.html')).toBe(false);
    expect(first.isAllowed('/section-7/page-2.html')).toBe(false);
    const perRuleset = first.byteLength;
    const loops = Math.ceil((1.25 * RESIDENT_BUDGET) / perRuleset);
    let highest = 0;
    for (let i = 0; i < loops; i++) {
      // A rule of its own in each: rulesets compiled to the same bytes would share one block.
      const own = `${body}Disallow: /copy-${i}/\n`;
      expect(parseRobotsTxt(own).isAllowed(`/section-${i % 3000}/page-3.html`, 'ExampleBot')).toBe(false);
      highest = Math.max(highest, matcherInfo().wasmBytesInUse);
    }
    expect(loops * perRuleset).toBeGreaterThan(RESIDENT_BUDGET);
    expect(highest).toBeLessThanOrEqual(RESIDENT_BUDGET + 2 * 1024 * 1024);
    // The first ruleset was evicted long ago: it is copied in again and decides as before, never through
    // the address it kept (another ruleset may be there now, which disallows its own /copy-i/).
    expect(first.isAllowed('/section-7/page-1.html')).toBe(true);
    const copies = Array.from({ length: loops }, (_, i) => `/copy-${i}/`);
    expect(copies.filter((url) => !first.isAllowed(url))).toEqual([]);
    expect(first.explain('/section-9/page-2.html')).toMatchObject({ allowed: false, rule: { pattern: '/section-9/page-*.html$' } });
  });
});
