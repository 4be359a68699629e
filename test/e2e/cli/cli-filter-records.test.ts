/**
 * `robotstxt filter --format tsv|jsonl|csv`: one record per line, read back by a parser of each format (csv-parse
 * for CSV, JSON.parse and jq for JSON lines, the escapes undone for TSV), each record's fields checked against
 * the input line it names by number; the exit codes of a run of malformed lines; the old spellings.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runForBytes, runProgram } from '../../support/cli.js';
import { systemTool } from '../../support/system-tool.js';

const work = mkdtempSync(join(tmpdir(), 'robotstxt-records-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const robots = join(work, 'robots');
mkdirSync(robots);
writeFileSync(join(robots, 'example.com'), 'User-agent: *\nAllow: /private/open\nDisallow: /private/\nDisallow: /a,b\n');

const COLUMNS = ['n', 'url', 'verdict', 'reason', 'rule_kind', 'rule_pattern', 'rule_line', 'text'];

/** Each kind of line: a rule decides, none matches, no file, malformed, a comma and a quote, a CR, not UTF-8. */
const LINES: readonly Buffer[] = [
  Buffer.from('https://example.com/private/x'),
  Buffer.from('https://example.com/private/open'),
  Buffer.from('https://example.com/public'),
  Buffer.from('https://nofile.example/anything'),
  Buffer.from('not a url, "quoted"'),
  Buffer.from('https://example.com/a,b?q="x"'),
  Buffer.from('https://example.com/cr\r'),
  Buffer.from([...Buffer.from('https://example.com/private/\u00e9'), 0xff]),
  Buffer.from('\tleading tab'),
];
const INPUT = Buffer.concat(LINES.flatMap((line) => [line, Buffer.from('\n')]));

interface Expected {
  readonly url: string | null;
  readonly verdict: string;
  readonly reason: string;
  readonly rule: { kind: string; pattern: string; line: number } | null;
}

/** What each line's record must say (its raw text shows only when it is malformed). */
const EXPECTED: readonly Expected[] = [
  {
    url: 'https://example.com/private/x',
    verdict: 'disallowed',
    reason: 'rule',
    rule: { kind: 'disallow', pattern: '/private/', line: 3 },
  },
  {
    url: 'https://example.com/private/open',
    verdict: 'allowed',
    reason: 'rule',
    rule: { kind: 'allow', pattern: '/private/open', line: 2 },
  },
  { url: 'https://example.com/public', verdict: 'allowed', reason: 'rule', rule: null },
  { url: 'https://nofile.example/anything', verdict: 'allowed', reason: 'missing', rule: null },
  { url: null, verdict: 'malformed', reason: 'malformed', rule: null },
  { url: 'https://example.com/a,b?q="x"', verdict: 'disallowed', reason: 'rule', rule: { kind: 'disallow', pattern: '/a,b', line: 4 } },
  { url: 'https://example.com/cr', verdict: 'allowed', reason: 'rule', rule: null },
  {
    url: 'https://example.com/private/\u00e9\ufffd',
    verdict: 'disallowed',
    reason: 'rule',
    rule: { kind: 'disallow', pattern: '/private/', line: 3 },
  },
  { url: null, verdict: 'malformed', reason: 'malformed', rule: null },
];

/** A line's raw text without its CR, as records carry it. */
function raw(index: number): Buffer {
  const line = LINES[index] as Buffer;
  return line[line.length - 1] === 0x0d ? line.subarray(0, -1) : line;
}

function filter(args: readonly string[], input: Buffer | string = INPUT) {
  return runForBytes([process.execPath, CLI, 'filter', '--agent', 'ExampleBot', '--robots-dir', robots, ...args], input);
}

/** The bytes of a TSV field, its escapes undone. */
function unescapeTsv(field: string): Buffer {
  const bytes: number[] = [];
  const source = Buffer.from(field, 'latin1');
  for (let i = 0; i < source.length; i++) {
    const byte = source[i] as number;
    if (byte !== 0x5c) {
      bytes.push(byte);
      continue;
    }
    const next = String.fromCharCode(source[++i] as number);
    if (next === 'x') {
      bytes.push(Number.parseInt(source.subarray(i + 1, i + 3).toString('latin1'), 16));
      i += 2;
    } else bytes.push({ t: 0x09, n: 0x0a, r: 0x0d, '\\': 0x5c }[next] as number);
  }
  return Buffer.from(bytes);
}

/** Checks the records of a run (as column name → field bytes) against EXPECTED, line by line. */
function checkRecords(records: readonly Record<string, Buffer | null>[]): void {
  expect(records).toHaveLength(LINES.length);
  records.forEach((record, index) => {
    const expected = EXPECTED[index] as Expected;
    const what = `record ${index + 1}`;
    const text = (name: string): string | null => record[name]?.toString('utf8') ?? null;
    expect(text('n'), what).toBe(String(index + 1));
    expect(text('verdict'), what).toBe(expected.verdict);
    expect(text('reason'), what).toBe(expected.reason);
    expect(text('rule_kind') ?? null, what).toBe(expected.rule?.kind ?? null);
    expect(text('rule_pattern') ?? null, what).toBe(expected.rule?.pattern ?? null);
    expect(text('rule_line') ?? null, what).toBe(expected.rule === null ? null : String(expected.rule.line));
    if (expected.url === null) {
      expect(record.url, what).toBeNull();
      expect(record.text?.equals(raw(index)), what).toBe(true);
    } else {
      // TSV and CSV carry the line's own bytes; the URL is the line.
      expect(record.url?.equals(raw(index)), what).toBe(true);
      expect(record.text, what).toBeNull();
    }
  });
}

/** An empty field is null: TSV and CSV have no other way to say it. */
const orNull = (field: Buffer): Buffer | null => (field.length === 0 ? null : field);

describe('--format csv', () => {
  it('writes a header and one RFC 4180 record per line, which csv-parse reads back field for field', async () => {
    const result = await filter(['--format', 'csv', '--emit', 'all', '--allow-malformed', '-q']);
    expect(result.code, result.stderr).toBe(0);
    const rows = parse(result.stdout, { encoding: null }) as unknown as Buffer[][];
    expect(rows[0]?.map((field) => field.toString())).toEqual(COLUMNS);
    checkRecords(rows.slice(1).map((row) => Object.fromEntries(COLUMNS.map((name, i) => [name, orNull(row[i] as Buffer)]))));
    // Records end in CRLF, and a field with a comma or a quote is quoted, its quotes doubled.
    expect(result.stdout.toString('latin1')).toContain('\r\n6,"https://example.com/a,b?q=""x""",disallowed,rule,disallow,"/a,b",4,\r\n');
  });

  it('--no-header leaves the header out; --emit picks the records', async () => {
    const result = await filter(['--format', 'csv', '--no-header', '-q']);
    const rows = parse(result.stdout) as string[][];
    expect(rows.map((row) => row[0])).toEqual(['2', '3', '4', '7']);
  });
});

describe('--format tsv', () => {
  it('writes a header and one record per line whose escapes give the bytes back', async () => {
    const result = await filter(['--format', 'tsv', '--emit', 'all', '--allow-malformed', '-q']);
    const [header = '', ...lines] = result.stdout.toString('latin1').split('\n').slice(0, -1);
    expect(header.split('\t')).toEqual(COLUMNS);
    const records = lines.map((line) => {
      const fields = line.split('\t');
      expect(fields).toHaveLength(COLUMNS.length);
      return Object.fromEntries(COLUMNS.map((name, i) => [name, orNull(unescapeTsv(fields[i] as string))]));
    });
    checkRecords(records);
  });
});

describe('--format jsonl', () => {
  const jq = systemTool({ name: 'jq', install: 'apt-get install -y jq' });

  it('writes one object per line with the keys n, url, verdict, reason, rule, text', async () => {
    const result = await filter(['--format', 'jsonl', '--emit', 'all', '--allow-malformed', '-q']);
    const objects = result.stdout
      .toString()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(objects).toHaveLength(LINES.length);
    objects.forEach((object, index) => {
      const expected = EXPECTED[index] as Expected;
      expect(Object.keys(object)).toEqual(['n', 'url', 'verdict', 'reason', 'rule', 'text']);
      expect(object).toEqual({ n: index + 1, ...expected, text: expected.url === null ? raw(index).toString() : null });
    });
  });

  it.skipIf(!jq.found)('jq reads every line (jq -c "select(.verdict == \\"disallowed\\") | .n")', async () => {
    const file = join(work, 'records.jsonl');
    const result = await filter(['--format', 'jsonl', '--emit', 'all', '--allow-malformed', '-q']);
    writeFileSync(file, result.stdout);
    const picked = await runProgram(['jq', '-c', 'select(.verdict == "disallowed") | [.n, .rule.line]', file], process.env);
    expect(picked.code, picked.stderr).toBe(0);
    expect(picked.stdout).toBe('[1,3]\n[6,4]\n[8,3]\n');
  });
});

describe('line numbers', () => {
  it('count every line of every input, for any number of workers, and --first-line starts them elsewhere', async () => {
    const first = join(work, 'first.txt');
    writeFileSync(first, 'https://example.com/a\nhttps://example.com/private/b');
    const second = join(work, 'second.txt');
    writeFileSync(second, 'https://example.com/c\n');
    for (const workers of ['1', '2']) {
      const result = await filter(['--format', 'jsonl', '--emit', 'all', '-q', '--workers', workers, first, second], '');
      const numbers = result.stdout
        .toString()
        .trimEnd()
        .split('\n')
        .map((line) => (JSON.parse(line) as { n: number }).n);
      expect(numbers).toEqual([1, 2, 3]);
    }
    const offset = await filter(['--format', 'csv', '--no-header', '--first-line', '1000001', '-q'], 'https://example.com/x\n');
    expect(offset.stdout.toString()).toBe('1000001,https://example.com/x,allowed,rule,,,,\r\n');
  });

  it('a line too long to hold is one malformed record with its number and its text, in each format', async () => {
    const long = `https://example.com/${'x'.repeat(5 * 1024 * 1024)},"q"`;
    const input = `https://example.com/ok\n${long}\r\nhttps://example.com/private/z\n`;
    const csv = await filter(['--format', 'csv', '--no-header', '--emit', 'all', '--allow-malformed', '-q'], input);
    const rows = parse(csv.stdout) as string[][];
    expect(rows.map((row) => row.slice(0, 4))).toEqual([
      ['1', 'https://example.com/ok', 'allowed', 'rule'],
      ['2', '', 'malformed', 'malformed'],
      ['3', 'https://example.com/private/z', 'disallowed', 'rule'],
    ]);
    expect(rows[1]?.[7]).toBe(long);
    const jsonl = await filter(['--format', 'jsonl', '--emit', 'all', '--allow-malformed', '-q'], input);
    const objects = jsonl.stdout
      .toString()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { n: number; text: string | null });
    expect(objects.map((object) => object.n)).toEqual([1, 2, 3]);
    expect(objects[1]?.text).toBe(long);
    const tsv = await filter(['--format', 'tsv', '--no-header', '--emit', 'all', '--allow-malformed', '-q'], input);
    const fields = tsv.stdout.toString().split('\n')[1]?.split('\t');
    expect(fields?.slice(0, 4)).toEqual(['2', '', 'malformed', 'malformed']);
    expect(fields?.[7]).toBe(long);
  });
});

describe('exit codes', () => {
  const MOSTLY_MALFORMED = 'https://example.com/a\nnot a url\nneither\n';

  it('more than half of the lines malformed: a warning and exit 1, unless --allow-malformed; the output is written', async () => {
    const warned = await filter([], MOSTLY_MALFORMED);
    expect(warned.code).toBe(1);
    expect(warned.stdout.toString()).toBe('https://example.com/a\n');
    expect(warned.stderr).toMatch(/^robotstxt: warning: 2 of 3 lines \(67 %\) hold no URL to decide/m);
    const allowed = await filter(['--allow-malformed', '-q'], MOSTLY_MALFORMED);
    expect(allowed.code).toBe(0);
    expect(allowed.stderr).toBe('');
    // Half is not more than half.
    expect((await filter(['-q'], 'https://example.com/a\nnot a url\n')).code).toBe(0);
  });

  it('--strict stops at the first malformed line and exits 1; disallowed lines exit 0', async () => {
    const strict = await filter(['--strict', '-q'], 'https://example.com/a\nnot a url\nhttps://example.com/b\n');
    expect(strict.code).toBe(1);
    expect(strict.stderr).toBe('robotstxt: line 2 holds no URL to decide (--strict): the run stopped there\n');
    const disallowed = await filter(['-q'], 'https://example.com/private/x\n');
    expect(disallowed.code).toBe(0);
    expect(disallowed.stdout.length).toBe(0);
  });
});

describe('old spellings', () => {
  it.each([
    [['--annotate'], ['--format', 'tsv'], '--annotate is the old spelling of --format tsv'],
    [['--output-format', 'jsonl'], ['--format', 'jsonl'], '--output-format jsonl is the old spelling of --format jsonl'],
    [['--output-format', 'lines'], ['--format', 'text'], '--output-format lines is the old spelling of --format text'],
  ])('%j works as %j, with a one-line note', async (old, current, note) => {
    const before = await filter([...old, '--emit', 'all', '--allow-malformed', '-q']);
    const now = await filter([...current, '--emit', 'all', '--allow-malformed', '-q']);
    expect(before.code).toBe(0);
    expect(before.stdout.equals(now.stdout)).toBe(true);
    expect(before.stderr).toBe(`robotstxt: note: ${note}\n`);
  });

  it('names both when an old and a new spelling say the same thing', async () => {
    const both = await filter(['--annotate', '--format', 'csv']);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('robotstxt: --annotate and --format both name the output format: pass --format tsv alone\n');
  });
});
