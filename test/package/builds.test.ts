/**
 * The ESM and CommonJS builds are one library (docs/design.md#testing): the same exported names, and the same answers,
 * before the WebAssembly matcher has loaded and after. Each check runs in a fresh Node process that loads the
 * package through its exports, as users do (`import` / `require('robotstxt-wasm…')`), since what is at stake
 * is state a process keeps. The behaviour suites also run against both builds (vitest.config.ts).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const execFileAsync = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

type Build = 'esm' | 'cjs';

/**
 * Runs `body` in a fresh process with `lib` (the main entry), `robotsParser` (the drop-in) and `redis` (the
 * Redis store adapter) loaded from `build`, and returns what it prints as JSON.
 */
async function inFreshProcess(build: Build, body: string): Promise<unknown> {
  const load =
    build === 'cjs'
      ? "const lib = require('robotstxt-wasm'); const robotsParser = require('robotstxt-wasm/compat/robots-parser'); const redis = require('robotstxt-wasm/redis');"
      : "const lib = await import('robotstxt-wasm'); const robotsParser = (await import('robotstxt-wasm/compat/robots-parser')).default; const redis = await import('robotstxt-wasm/redis');";
  const script = build === 'cjs' ? `${load}\n(async () => {\n${body}\n})();` : `${load}\n${body}`;
  const { stdout } = await execFileAsync(process.execPath, ['--input-type', build === 'cjs' ? 'commonjs' : 'module', '-e', script], {
    cwd: ROOT,
  });
  return JSON.parse(stdout) as unknown;
}

/** Questions whose answers depend on how keys are read (Google's spellings, two tokens without a colon). */
const ASK = `
const files = [
  'User-agent: *\\nAllow: /\\n',
  'User Agent: *\\nDisallow: /a\\n',
  'useragent: bot\\nDissallow: /a\\nUser-agent *\\nDisallow /b\\n',
  'Disallow: /before\\nUser-agent: bot\\n\\nUser-agent: other\\nDisallow: /o\\nSite-map: https://y.com/m.xml\\nNoindex: /n\\n',
];
const paths = ['/', '/a', '/b', '/o', '/before'];
function ask() {
  const answers = [];
  for (const [i, body] of files.entries()) {
    const host = 'https://h' + i + '.example';
    const dropIn = robotsParser(host + '/robots.txt', body);
    for (const path of paths) answers.push(['drop-in', i, path, dropIn.isAllowed(host + path, 'bot'), dropIn.getMatchingLineNumber(host + path, 'bot')]);
    answers.push(['drop-in sitemaps', i, dropIn.getSitemaps()]);
    answers.push(['lint', i, lib.lintRobotsTxt(body).map((d) => d.code + '@' + d.line)]);
    for (const profile of ['rfc9309', 'google']) {
      const robots = lib.parseRobotsTxt(body, { profile });
      const rules = robots.forAgent('bot');
      for (const path of paths) answers.push(['native', profile, i, path, rules.isAllowed(path), rules.explain(path).line]);
      // The same paths as UTF-8 lines of one buffer, through both entries on bytes.
      const lines = new TextEncoder().encode(paths.join('\\n'));
      const ranges = new Uint32Array(paths.length * 2);
      let at = 0;
      for (const [p, path] of paths.entries()) {
        ranges[2 * p] = at;
        ranges[2 * p + 1] = at + path.length;
        answers.push(['utf8', profile, i, path, rules.isAllowedUtf8(lines, at, at + path.length)]);
        at += path.length + 1;
      }
      answers.push(['bytes', profile, i, Array.from(rules.isAllowedBytes(lines, ranges))]);
      robots.dispose();
    }
  }
  return answers;
}
`;

const builds: Build[] = ['esm', 'cjs'];

describe('the ESM and CommonJS builds', () => {
  it('export the same names from each entry', async () => {
    const names = async (build: Build): Promise<unknown> =>
      inFreshProcess(
        build,
        `console.log(JSON.stringify({ main: Object.keys(lib).sort(), dropIn: typeof robotsParser, redis: Object.keys(redis).sort() }));`,
      );
    const [esm, cjs] = await Promise.all(builds.map(names));
    expect(cjs).toEqual(esm);
    expect((esm as { main: string[] }).main).toEqual(
      expect.arrayContaining(['parseRobotsTxt', 'RobotsCache', 'lintRobotsTxt', 'productToken', 'setMatcher']),
    );
    expect((esm as { dropIn: string }).dropIn).toBe('function');
    expect((esm as { redis: string[] }).redis).toEqual(['redisStore']);
  });

  it('give the same answers in a fresh process, once the WebAssembly matcher has loaded, and with the TypeScript executor', async () => {
    const run = (build: Build): Promise<unknown> =>
      inFreshProcess(
        build,
        `${ASK}
const beforeLoad = ask();
lib.parseRobotsTxt('User-agent: *\\nDisallow: /x\\n').forAgent('bot').isAllowed('/x');
const kind = lib.matcherInfo().kind;
const afterLoad = ask();
lib.setMatcher('typescript');
console.log(JSON.stringify({ kind, beforeLoad, afterLoad, typescript: ask() }));`,
      );
    const [esm, cjs] = (await Promise.all(builds.map(run))) as {
      kind: string;
      beforeLoad: unknown[];
      afterLoad: unknown[];
      typescript: unknown[];
    }[];
    expect(esm!.kind).toBe('wasm');
    expect(esm!.beforeLoad.length).toBeGreaterThan(50);
    expect(esm!.afterLoad).toEqual(esm!.beforeLoad);
    expect(esm!.typescript).toEqual(esm!.beforeLoad);
    expect(cjs).toEqual(esm);
  });
});

describe("the CommonJS transform's case: CommonJS answers do not change after a native check", () => {
  // The drop-in reads keys as robots-parser does: `User Agent` is no user-agent line, so the Disallow
  // belongs to no group (-1: no rule). Lint reports the spelling that only Google reads.
  const CASE = `
const y = () => robotsParser('https://y.com/robots.txt', 'User Agent: *\\nDisallow: /a\\n');
const ask = () => [y().isAllowed('https://y.com/a', 'bot'), y().getMatchingLineNumber('https://y.com/a', 'bot'), lib.lintRobotsTxt('User Agent: *\\nDisallow: /a\\n').map((d) => d.code)];
const before = ask();
robotsParser('https://x.com/robots.txt', 'User-agent: *\\nAllow: /\\n').isAllowed('https://x.com/', 'bot');
const afterDropIn = ask();
lib.parseRobotsTxt('User-agent: *\\nDisallow: /x\\n').forAgent('bot').isAllowed('/x');
const afterNative = ask();
console.log(JSON.stringify({ before, afterDropIn, afterNative, kind: lib.matcherInfo().kind }));`;

  it.each(builds)('%s: the drop-in answers true / -1 and lint names the spelling, before and after', async (build) => {
    const expected = [true, -1, expect.arrayContaining(['google-only-spelling'])];
    expect(await inFreshProcess(build, CASE)).toEqual({ before: expected, afterDropIn: expected, afterNative: expected, kind: 'wasm' });
  });
});
