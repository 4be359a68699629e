/**
 * `robotstxt filter`'s fast path (src/cli/filter/scanned.ts over src/cli/filter/line-scanner.ts and
 * assembly/filter/line-scanner.ts): the WebAssembly line scanner reads, decides and writes the lines whose hosts it has
 * been taught, and leaves every other line to the command's line-by-line reading. Its contract is that
 * reading: for any batch, its output and counts are byte for byte those of decideBatch with the TypeScript
 * executor (which never scans), whose verdicts are the string API's (test/e2e/cli/cli-filter.test.ts holds those to
 * `rules.isAllowed`). Lines are random: http and https in any case, userinfo, ports (the `host_PORT` files),
 * paths and queries built from the rules' own pieces, percent escapes, non-ASCII and bytes that are not
 * UTF-8, spaces and control characters in the authority, path-only lines, blank lines, CR LF, a last line
 * without its newline, lines past the 64 KiB a URL may have, fields split by tabs or runs of spaces.
 * Rulesets moving in WebAssembly memory mid-batch (the backend's eviction beyond its budget) must not leave
 * the scanner deciding with stale addresses.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { decideBatch } from '../../../src/cli/filter/decide.js';
import { readFilterOptions, type FilterSettings } from '../../../src/cli/filter/options.js';
import { openSource } from '../../../src/cli/filter/robots-source.js';
import { lineScannerOf } from '../../../src/cli/filter/line-scanner.js';
import { lineScannerFor } from '../../../src/cli/filter/scanned.js';
import { currentBackend } from '../../../src/engine/active-backend.js';
import { WasmBackend } from '../../../src/engine/wasm-backend.js';
import { setMatcher } from '../../../src/platform/inline.js';

const work = mkdtempSync(join(tmpdir(), 'robotstxt-scanner-'));
afterAll(() => {
  setMatcher('wasm');
  rmSync(work, { recursive: true, force: true });
});

const encoder = new TextEncoder();
const ROBOTS_DIR = join(work, 'robots');
mkdirSync(ROBOTS_DIR);
const PIECES = [
  '/private',
  '/a',
  '/shop/',
  '/x*',
  '*.pdf',
  '/%E4%B8%AD',
  '/中',
  '/search?q=',
  '/p$',
  '/$',
  '/*/edit',
  '/A',
  '?',
  ';',
  '/%2F',
];
/** The last is longer than the scanner keeps in a table entry (48 bytes): its key lives apart. */
const LONG_HOST = 'a-host-name-longer-than-a-table-entry-holds.subdomain.example.com';
const HOSTS = ['example.com', 'shop.example', 'ported.net', 'secure.io', 'blocked.org', 'xn--bcher-kva.example', LONG_HOST];
writeFileSync(
  join(ROBOTS_DIR, 'example.com'),
  'User-agent: *\nDisallow: /private\nAllow: /private/open\nDisallow: /*.pdf$\n\nUser-agent: ExampleBot\nDisallow: /a\nAllow: /a/b\nDisallow: /*/edit\n',
);
writeFileSync(
  join(ROBOTS_DIR, 'shop.example'),
  'User-agent: *\nDisallow: /shop/\nDisallow: /search?q=\nAllow: /shop/$\nDisallow: /%E4%B8%AD\n',
);
writeFileSync(join(ROBOTS_DIR, 'ported.net_8080'), 'User-agent: *\nDisallow: /p\n');
writeFileSync(join(ROBOTS_DIR, 'secure.io_443'), 'User-agent: *\nDisallow: /x*y\nDisallow: /A\n');
writeFileSync(join(ROBOTS_DIR, 'blocked.org'), 'User-agent: *\nDisallow: /\n');
writeFileSync(join(ROBOTS_DIR, LONG_HOST), 'User-agent: *\nDisallow: /private\nAllow: /a\n');
const SINGLE = join(work, 'single.txt');
writeFileSync(SINGLE, 'User-agent: ExampleBot\nDisallow: /private\nDisallow: /*.pdf\nAllow: /private/ok$\n');

/** One random line's bytes (without its line ending). */
const lineArbitrary: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 8, arbitrary: urlLine() },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('', ' ', '/private/x', '/ok', 'example.com/a', 'ftp://example.com/a', 'http://', 'https:///a', 'http://:80/')
      .map((text) => encoder.encode(text)),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 40 }).map((bytes) => bytes.map((byte) => (byte === 0x0a ? 0x41 : byte))) },
  { weight: 1, arbitrary: urlLine().map((bytes) => withByte(bytes, 0xff)) },
  { weight: 1, arbitrary: fc.constant(encoder.encode(`https://example.com/${'a'.repeat(70_000)}`)) },
);

function withByte(bytes: Uint8Array, byte: number): Uint8Array {
  const out = new Uint8Array(bytes.length + 1);
  out.set(bytes);
  out[bytes.length] = byte;
  return out;
}

function urlLine(): fc.Arbitrary<Uint8Array> {
  const scheme = fc.constantFrom('http://', 'https://', 'HTTPS://', 'Http://');
  const userinfo = fc.constantFrom('', '', '', 'user@', 'a:b@', 'x@y@');
  const host = fc.constantFrom(
    ...HOSTS,
    LONG_HOST.toUpperCase(),
    `${LONG_HOST}x`,
    'EXAMPLE.com',
    'Shop.Example',
    'unknown.test',
    'bücher.example',
    'exa mple.com',
    'ex\tample.com',
    '[::1]',
    '',
  );
  const port = fc.constantFrom('', '', '', ':8080', ':443', ':80', ':0443', ':x', ':99999');
  const path = fc
    .array(fc.constantFrom(...PIECES, 'b', '/open', '#frag', '%41', '%zz', 'é', '\\'), { maxLength: 5 })
    .map((parts) => parts.join(''));
  return fc.tuple(scheme, userinfo, host, port, path).map(([s, u, h, p, rest]) => encoder.encode(`${s}${u}${h}${p}${rest}`));
}

/** Lines joined into a batch: LF or CR LF endings, and maybe no newline after the last. */
const batchArbitrary = fc
  .tuple(
    fc.array(fc.tuple(lineArbitrary, fc.boolean()), { minLength: 1, maxLength: 60 }),
    fc.boolean(),
    fc.integer({ min: 1, max: 3 }),
    fc.constantFrom<'tab' | 'spaces'>('tab', 'spaces'),
  )
  .map(([lines, finalNewline, field, delimiter]) => ({ lines, finalNewline, field, delimiter }));

function batchOf(
  lines: readonly (readonly [Uint8Array, boolean])[],
  finalNewline: boolean,
  prefix: (index: number) => string = () => '',
): Uint8Array {
  const parts: Uint8Array[] = [];
  lines.forEach(([line, crlf], index) => {
    parts.push(encoder.encode(prefix(index)), line);
    if (index < lines.length - 1 || finalNewline) parts.push(encoder.encode(crlf ? '\r\n' : '\n'));
  });
  return Buffer.concat(parts);
}

function settingsOf(args: readonly string[]): FilterSettings {
  return readFilterOptions(['--agent', 'ExampleBot', ...args]);
}

/** decideBatch with the WebAssembly matcher (scanning) and with the TypeScript executor (line by line). */
function bothWays(
  batch: Uint8Array,
  args: readonly string[],
): { scanned: ReturnType<typeof decideBatch>; lineByLine: ReturnType<typeof decideBatch> } {
  const settings = settingsOf(args);
  setMatcher('wasm');
  expect(lineScannerFor(settings)).toBeDefined();
  const scanned = decideBatch(batch, settings, openSource(settings), 1);
  setMatcher('typescript');
  expect(lineScannerFor(settings)).toBeUndefined();
  const lineByLine = decideBatch(batch, settings, openSource(settings), 1);
  setMatcher('wasm');
  return { scanned, lineByLine };
}

function expectSame({ scanned, lineByLine }: ReturnType<typeof bothWays>): void {
  expect(Buffer.from(scanned.output).toString('latin1')).toBe(Buffer.from(lineByLine.output).toString('latin1'));
  // reasons: counted by the line-by-line reading only, for now.
  expect({ ...scanned, output: undefined }).toEqual({ ...lineByLine, output: undefined });
}

describe('the line scanner writes what the line-by-line reading writes', () => {
  it.each([
    ['--emit allowed', ['--emit', 'allowed']],
    ['--emit disallowed', ['--emit', 'disallowed']],
    ['--emit all --missing disallow', ['--emit', 'all', '--missing', 'disallow']],
    ['--profile google', ['--profile', 'google', '--emit', 'all']],
  ])('whole lines, --robots-dir, %s', (_, extra) => {
    fc.assert(
      fc.property(batchArbitrary, ({ lines, finalNewline }) => {
        expectSame(bothWays(batchOf(lines, finalNewline), ['--robots-dir', ROBOTS_DIR, ...extra]));
      }),
      { numRuns: 150 },
    );
  });

  it('whole lines, one --robots file for every URL (paths included)', () => {
    fc.assert(
      fc.property(batchArbitrary, ({ lines, finalNewline }) => {
        expectSame(bothWays(batchOf(lines, finalNewline), ['--robots', SINGLE, '--emit', 'all']));
      }),
      { numRuns: 150 },
    );
  });

  it('a field of tab- or space-separated lines', () => {
    fc.assert(
      fc.property(batchArbitrary, ({ lines, finalNewline, field, delimiter }) => {
        const separator = delimiter === 'tab' ? '\t' : '  ';
        // Fields before the URL: some lines have too few.
        const prefix = (index: number): string => (index % 5 === 4 ? '' : `id${index}${separator}`.repeat(field - 1));
        const args = [
          '--robots-dir',
          ROBOTS_DIR,
          '--emit',
          'all',
          '--field',
          String(field),
          '--delimiter',
          delimiter === 'tab' ? '\t' : ' ',
        ];
        expectSame(bothWays(batchOf(lines, finalNewline, prefix), args));
      }),
      { numRuns: 150 },
    );
  });

  it('decides every line when a batch names more hosts than its table holds (2,048) or long names fill its key space', () => {
    const long = 'h'.repeat(60);
    const urls = Array.from({ length: 3_000 }, (_, i) => `https://host-${i}.example/private/${i}`);
    urls.push(...Array.from({ length: 1_500 }, (_, i) => `https://${long}-${i}.example/ok/${i}`));
    const batch = encoder.encode(`${urls.join('\n')}\n`);
    const result = bothWays(batch, ['--robots', SINGLE, '--emit', 'all']);
    expectSame(result);
    expect(result.scanned).toMatchObject({ lines: urls.length, disallowed: 3_000, allowed: 1_500 });
  });

  it('counts what it decided and names the hosts it saw', () => {
    const batch = encoder.encode(
      'https://example.com/a\nhttps://example.com/ok\nhttp://unknown.test/x\nnot a url\r\nhttps://EXAMPLE.com/a/b',
    );
    const { scanned } = bothWays(batch, ['--robots-dir', ROBOTS_DIR]);
    expect(Buffer.from(scanned.output).toString()).toBe('https://example.com/ok\nhttp://unknown.test/x\nhttps://EXAMPLE.com/a/b\n');
    expect(scanned).toMatchObject({ lines: 5, allowed: 3, disallowed: 1, malformed: 1, firstMalformed: 3 });
    expect([...scanned.hosts].sort()).toEqual(['example.com', 'unknown.test']);
    expect(scanned.hostsWithoutRobots).toEqual(['unknown.test']);
  });
});

describe('hosts taught once, for every batch after', () => {
  it('decides batch after batch of one source as the line-by-line reading decides each batch alone', () => {
    fc.assert(
      fc.property(fc.array(batchArbitrary, { minLength: 2, maxLength: 4 }), fc.boolean(), (batches, disallowMissing) => {
        const settings = settingsOf(['--robots-dir', ROBOTS_DIR, '--emit', 'all', ...(disallowMissing ? ['--missing', 'disallow'] : [])]);
        setMatcher('wasm');
        // One source for the whole run, as a thread of the command has: its scanner keeps what it was taught.
        const source = openSource(settings);
        const hostsNamed = new Set<string>();
        const seen = new Set<string>();
        for (const { lines, finalNewline } of batches) {
          const batch = batchOf(lines, finalNewline);
          setMatcher('wasm');
          const scanned = decideBatch(batch, settings, source, 1);
          setMatcher('typescript');
          const lineByLine = decideBatch(batch, settings, openSource(settings), 1);
          setMatcher('wasm');
          expect(Buffer.from(scanned.output).toString('latin1')).toBe(Buffer.from(lineByLine.output).toString('latin1'));
          expect({ ...scanned, output: undefined, hosts: undefined, hostsWithoutRobots: undefined }).toEqual({
            ...lineByLine,
            output: undefined,
            hosts: undefined,
            hostsWithoutRobots: undefined,
          });
          // A batch names the hosts it looked up: those it names and no earlier batch taught.
          for (const host of scanned.hosts) expect(lineByLine.hosts).toContain(host);
          for (const host of scanned.hosts) hostsNamed.add(host);
          for (const host of lineByLine.hosts) seen.add(host);
        }
        // Over the run, every host is named (the summary counts them).
        expect([...hostsNamed].sort()).toEqual([...seen].sort());
      }),
      { numRuns: 100 },
    );
  });

  it('keeps http://h, https://h and http://h:443 apart across batches: each finds its own file', () => {
    // secure.io has only secure.io_443: its http URLs have no file (here: disallowed), its https URLs its rules.
    const settings = settingsOf(['--robots-dir', ROBOTS_DIR, '--emit', 'all', '--missing', 'disallow']);
    for (const matcher of ['wasm', 'typescript'] as const) {
      setMatcher(matcher);
      const source = openSource(settings);
      expect(decideBatch(encoder.encode('http://secure.io/\n'), settings, source, 1)).toMatchObject({ allowed: 0, disallowed: 1 });
      expect(decideBatch(encoder.encode('HTTPS://secure.io/\n'), settings, source, 1)).toMatchObject({ allowed: 1, disallowed: 0 });
      expect(decideBatch(encoder.encode('http://secure.io/\n'), settings, source, 1)).toMatchObject({ allowed: 0, disallowed: 1 });
      // http://h:443 names the file h_443 alone; https://h names h, else h_443: one must not answer for the other.
      expect(decideBatch(encoder.encode('http://example.com:0443/\n'), settings, source, 1)).toMatchObject({ allowed: 0, disallowed: 1 });
      expect(decideBatch(encoder.encode('https://example.com/\n'), settings, source, 1)).toMatchObject({ allowed: 1, disallowed: 0 });
      // And within one batch, through both the scanner and the per-batch map of the line-by-line reading.
      const mixed = decideBatch(encoder.encode('https://secure.io/\nhttp://secure.io/\n'), settings, openSource(settings), 1);
      expect(mixed).toMatchObject({ allowed: 1, disallowed: 1, hosts: ['secure.io'], hostsWithoutRobots: ['secure.io'] });
    }
    setMatcher('wasm');
  });

  it('asks for a host once per source: the next batch naming it does not look it up again', () => {
    const settings = settingsOf(['--robots-dir', ROBOTS_DIR]);
    setMatcher('wasm');
    const source = openSource(settings);
    const batch = encoder.encode('https://example.com/private\nhttps://shop.example/ok\nhttp://unknown.test/x\n');
    const first = decideBatch(batch, settings, source, 1);
    const second = decideBatch(batch, settings, source, 1);
    expect([...first.hosts].sort()).toEqual(['example.com', 'shop.example', 'unknown.test']);
    expect(second.hosts).toEqual([]);
    expect(Buffer.from(second.output).toString()).toBe(Buffer.from(first.output).toString());
    // Another source (its own rules, its own settings) starts from an empty table.
    const other = decideBatch(batch, settings, openSource(settings), 1);
    expect([...other.hosts].sort()).toEqual(['example.com', 'shop.example', 'unknown.test']);
  });
});

describe('rulesets that move in WebAssembly memory', () => {
  it('decides with their new addresses when the backend evicts them mid-batch', () => {
    // Hosts whose compiled rules together pass the backend's resident budget, their lines interleaved, so
    // that looking up one host's rules evicts others the scanner was taught.
    const dir = join(work, 'big');
    mkdirSync(dir);
    const hosts = 120;
    const rulesPerHost = 18_000;
    for (let h = 0; h < hosts; h++) {
      const lines = ['User-agent: *'];
      for (let r = 0; r < rulesPerHost; r++) lines.push(`${r % 3 === 0 ? 'Allow' : 'Disallow'}: /h${h}/r${r}/`);
      writeFileSync(join(dir, `host${h}.test`), `${lines.join('\n')}\n`);
    }
    const urls: string[] = [];
    for (let round = 0; round < 3; round++) {
      for (let h = 0; h < hosts; h++) for (const r of [0, 1, 2, rulesPerHost - 1]) urls.push(`https://host${h}.test/h${h}/r${r}/page`);
    }
    const batch = encoder.encode(`${urls.join('\n')}\n`);
    const settings = settingsOf(['--robots-dir', dir, '--emit', 'all', '--format', 'tsv', '--no-header']);
    const plain = settingsOf(['--robots-dir', dir, '--emit', 'disallowed']);
    setMatcher('wasm');
    const backend = currentBackend();
    expect(backend).toBeInstanceOf(WasmBackend);
    const source = openSource(plain);
    const scanner = lineScannerOf(backend as WasmBackend);
    const before = scanner.evictions;
    const scanned = decideBatch(batch, plain, source, 1);
    // The premise: the rules did not all fit, and rulesets were moved while the batch was decided.
    expect(scanner.evictions).toBeGreaterThan(before);
    const expected = urls.filter((url) => !/\/r0\//.test(url)).join('\n');
    expect(Buffer.from(scanned.output).toString()).toBe(`${expected}\n`);
    expect(scanned).toMatchObject({ lines: urls.length, allowed: urls.length / 4, disallowed: (urls.length * 3) / 4 });
    // And the annotated reading (line by line) agrees.
    const annotated = Buffer.from(decideBatch(batch, settings, openSource(settings), 1).output).toString();
    expect(annotated.split('\n').filter((line) => line.includes('\tdisallowed\t')).length).toBe((urls.length * 3) / 4);
  }, 120_000);
});
