/**
 * One dialect across the `robotstxt` command: `--version` everywhere, one default User-Agent
 * shown by every --help that sends requests, and every usage error, in every subcommand, one line on stderr
 * that starts `robotstxt: `, exit 2, nothing on stdout, never a stack trace. The built dist/cli.js is run as
 * users run it (`npm test` builds it first).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { version } from '../../../package.json';
import { run, type Run } from '../../support/cli.js';

const work = mkdtempSync(join(tmpdir(), 'robotstxt-usage-'));
const robots = join(work, 'robots.txt');
const robotsDir = join(work, 'robots');
const urls = join(work, 'urls.txt');
const png = join(work, 'image.png');
const bzip2 = join(work, 'robots.txt.bz2');
writeFileSync(robots, 'User-agent: *\nDisallow: /private/\n');
mkdirSync(robotsDir);
writeFileSync(join(robotsDir, 'example.com'), 'User-agent: *\nDisallow: /private/\n');
writeFileSync(urls, 'https://example.com/\nhttps://example.com/private/x\n');
writeFileSync(png, Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
writeFileSync(bzip2, Buffer.concat([Buffer.from('BZh91AY&SY'), Buffer.alloc(16, 7)]));

afterAll(() => rmSync(work, { recursive: true, force: true }));

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FILTER = ['filter', '--agent', 'ExampleBot'];

/** One line on stderr, starting `robotstxt: `; exit 2; nothing on stdout; no stack trace, no parseArgs text. */
function expectOneLineUsageError(result: Run): void {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(/^robotstxt: [^\n]+\n$/);
  expect(result.stderr).not.toMatch(/ {4}at /);
  expect(result.stderr).not.toMatch(/'--|To specify a positional argument/);
}

describe('--version', () => {
  it.each([
    [['--version']],
    [['-V']],
    [['filter', '--version']],
    [['check', '-V']],
    [['fetch', '--version']],
    [['lint', '-V']],
    [['lab', '--version']],
    // Asked for, it wins over what else is wrong: the answer costs nothing.
    [['check', '--frob', '--version']],
  ])('%j prints "robotstxt <version>" and exits 0', async (args) => {
    expect(await run(args)).toEqual({ code: 0, stdout: `robotstxt ${version}\n`, stderr: '' });
  });

  it('after "--" it is an operand: check reads it as a URL', async () => {
    const result = await run(['check', robots, 'ExampleBot', '--', '--version']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^allowed {5}--version/);
  });
});

describe('one default User-Agent', () => {
  // robotstxt-cli/<version> (+<the package's npm page>): a site's owner who looks it up finds the package.
  const header = `robotstxt-cli/${version} (+https://www.npmjs.com/package/robotstxt-wasm)`;

  it.each(['filter', 'check', 'fetch', 'lint', 'lab'])('robotstxt %s --help shows it', async (command) => {
    const help = await run([command, '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(`(default "${header}")`);
  });
});

describe('option errors say what was wrong in their own words', () => {
  it.each([
    [['check', '--frob', robots, 'ExampleBot', '/'], 'robotstxt: unknown option --frob (see robotstxt check --help)\n'],
    [[...FILTER, '--robot', robots], 'robotstxt: unknown option --robot (did you mean --robots?) (see robotstxt filter --help)\n'],
    [[...FILTER, '-qx', '--robots', robots], 'robotstxt: unknown option -x (in "-qx") (see robotstxt filter --help)\n'],
    [['check', robots, 'ExampleBot', '/', '--timeout'], 'robotstxt: --timeout needs a value (see robotstxt check --help)\n'],
    [[...FILTER, '--robots', robots, '--quiet=yes'], 'robotstxt: --quiet takes no value, got "yes" (see robotstxt filter --help)\n'],
    [
      ['lint', '--max-bytes', '-1', robots],
      'robotstxt: --max-bytes needs a value: "-1" reads as an option (write --max-bytes=VALUE for a value starting with "-") ' +
        '(see robotstxt lint --help)\n',
    ],
    [['frob'], 'robotstxt: unknown command "frob": use filter, check, fetch, lint or lab (see robotstxt --help)\n'],
    [[], 'robotstxt: no command: use filter, check, fetch, lint or lab (see robotstxt --help)\n'],
  ])('%j', async (args, stderr) => {
    const result = await run(args);
    expect(result).toEqual({ code: 2, stdout: '', stderr });
  });

  it('an unreadable file reads the same in check and lint', async () => {
    const missing = join(work, 'nope.txt');
    for (const args of [
      ['check', missing, 'ExampleBot', '/'],
      ['lint', missing],
    ]) {
      expect((await run(args)).stderr).toBe(`robotstxt: cannot read ${missing}: no such file\n`);
    }
    for (const args of [
      ['check', robotsDir, 'ExampleBot', '/'],
      ['lint', robotsDir],
    ]) {
      expect((await run(args)).stderr).toBe(`robotstxt: cannot read ${robotsDir}: is a directory\n`);
    }
  });
});

describe('every usage error, in every subcommand: one line, exit 2, no stack trace', () => {
  it.each([
    // filter
    [[...FILTER, '--frob', '--robots', robots, urls]],
    [['filter', '--robots', robots, urls]],
    [['filter', '--agent', 'not a token!', '--robots', robots, urls]],
    [['filter', '--agent', BROWSER, '--robots', robots, urls]],
    [[...FILTER, '--robots', robots, '--workers', '0', urls]],
    [[...FILTER, '--robots', join(work, 'nope.txt'), urls]],
    [[...FILTER, '--robots-dir', join(work, 'missing') + '/', urls]],
    [[...FILTER, '--robots', robots, '--robots-dir', robotsDir, urls]],
    [[...FILTER, '--robots', robots, '--quiet=yes', urls]],
    [[...FILTER, '--robots', robots, urls, '--timeout']],
    // check
    [['check']],
    [['check', robots, 'ExampleBot']],
    [['check', '--frob', robots, 'ExampleBot', '/']],
    [['check', '--format', 'xml', robots, 'ExampleBot', '/']],
    [['check', join(work, 'nope.txt'), 'ExampleBot', '/']],
    [['check', robotsDir, 'ExampleBot', '/']],
    [['check', robots, 'not a token!', '/']],
    [['check', robots, BROWSER, '/']],
    [['check', bzip2, 'ExampleBot', '/']],
    [['check', png, 'ExampleBot', '/']],
    [['check', '--max-bytes', '-1', robots, 'ExampleBot', '/']],
    // fetch
    [['fetch']],
    [['fetch', 'https://example.com/', 'https://example.org/']],
    [['fetch', '--frob', 'https://example.com/']],
    [['fetch', '--format', 'xml', 'https://example.com/']],
    [['fetch', '--timeout', '0', 'https://example.com/']],
    [['fetch', 'ftp://example.com/']],
    // lint
    [['lint']],
    [['lint', '--format', 'xml', robots]],
    [['lint', join(work, 'nope.txt')]],
    [['lint', png]],
    [['lint', bzip2]],
    [['lint', '--disable', 'nope', robots]],
    [['lint', '--max-bytes', 'lots', robots]],
    [['lint', '--quiet', robots]],
    // no subcommand
    [[]],
    [['frob']],
    [['--frob']],
    [['-x']],
  ])('%j', async (args) => {
    expectOneLineUsageError(await run(args));
  });
});
