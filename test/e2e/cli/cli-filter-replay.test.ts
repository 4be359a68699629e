/**
 * Save and replay give the same bytes: `filter --fetch --save-dir saved` records every
 * host's fetch beside its file (src/cli/filter/fetch-record.ts), a 5xx, a timeout, a refused host included,
 * and `filter --robots-dir saved` reads each host as the fetching run did, without the network: the same
 * stdout byte for byte and the same counts in the summary. The host policy of the replay decides recorded
 * refusals anew; a record the command did not write is ignored with a note.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { run, runOnTestNetwork, type Run } from '../../support/cli.js';
import { closeServers } from '../../support/http-server.js';
import { FETCH_FLAGS, outcomeSites, RULES, summaryAt, type Sites, type Summary } from '../../support/outcome-sites.js';

const work = mkdtempSync(join(tmpdir(), 'robotstxt-replay-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(closeServers);

const AGENT = ['filter', '--agent', 'ExampleBot'];
let runs = 0;

/** A run's stdout and its summary. */
async function filterRun(args: readonly string[], sites: Sites): Promise<{ result: Run; summary: Summary }> {
  const summaryPath = join(work, `summary-${runs++}.json`);
  const result = await runOnTestNetwork([...AGENT, ...args, '--summary-json', summaryPath], sites.dns, sites.log);
  expect(result.code, result.stderr).toBe(0);
  return { result, summary: summaryAt(summaryPath) };
}

/** What a replay must give as the fetching run did: the summary but for time, throughput and what was saved. */
function counts(summary: Summary): Omit<Summary, 'seconds' | 'linesPerSecond' | 'bytesPerSecond' | 'saved'> {
  const { seconds: _s, linesPerSecond: _l, bytesPerSecond: _b, saved: _saved, ...rest } = summary;
  return rest;
}

function connections(result: Run): string[] {
  return [...result.stderr.matchAll(/^\[test-network\] (.*)$/gm)].map((match) => match[1] as string);
}

describe('filter --robots-dir on a --save-dir folder replays the fetching run', () => {
  it('every outcome (200, 301, 404, 503, timeout, closed port, refused host, refused redirect, cut file): same stdout, same counts, no network', async () => {
    const sites = await outcomeSites();
    for (const format of [[], ['--format', 'tsv', '--no-header'], ['--format', 'jsonl'], ['--format', 'csv']]) {
      const saved = mkdtempSync(join(work, 'saved-'));
      const output = [...format, '--emit', 'all', '--max-bytes', '1000'];
      const fetched = await filterRun([...FETCH_FLAGS, '--save-dir', saved, ...output], sites);
      // One record per host, a 5xx, a timeout and the refused ones included.
      expect(readdirSync(saved).filter((name) => name.endsWith('%outcome.json'))).toHaveLength(9);
      expect(fetched.summary.saved).toEqual({ saved: 9, linksReplaced: 0, failed: 0 });
      const replayed = await filterRun(['--robots-dir', saved, ...output], sites);
      expect(replayed.result.stdout).toBe(fetched.result.stdout);
      expect(counts(replayed.summary)).toEqual(counts(fetched.summary));
      expect(replayed.summary.saved).toBeNull();
      // No connection, no lookup: the refused name is never asked for.
      expect(connections(replayed.result)).toEqual([]);
      expect(replayed.result.stderr).toMatch(/^recorded fetches: 2xx 2, 2xx after redirects 1, 4xx 1 \(allow all\)/m);
    }
  });

  it('a record holds the outcome, status, cause, final URL, redirects, bytes, cut and when', async () => {
    const sites = await outcomeSites();
    const saved = mkdtempSync(join(work, 'saved-'));
    await filterRun([...FETCH_FLAGS, '--save-dir', saved], sites);
    const record = (origin: string): Record<string, unknown> => {
      const host = new URL(origin).host.replace(':', '_');
      return JSON.parse(readFileSync(join(saved, `${host}%outcome.json`), 'utf8')) as Record<string, unknown>;
    };
    const { origins } = sites;
    const moved = origins.moved as string;
    expect(record(moved)).toMatchObject({
      robotstxtFetchRecord: 1,
      url: `${moved}/robots.txt`,
      reason: 'ok',
      status: 200,
      cause: null,
      finalUrl: `${moved}/real-robots.txt`,
      redirects: 1,
      bytes: RULES.length,
      size: RULES.length,
      cut: false,
      refused: null,
    });
    expect(Date.parse(record(moved).fetchedAt as string)).not.toBeNaN();
    expect(record(origins.down as string)).toMatchObject({ reason: 'server-error', status: 503 });
    expect(record(origins.slow as string)).toMatchObject({ reason: 'timeout', status: 0 });
    expect(record(origins.closed as string)).toMatchObject({ reason: 'network-error', cause: 'ECONNREFUSED' });
    expect(record(origins.refused as string)).toMatchObject({
      reason: 'host-refused',
      refused: { host: 'intranet.example.com', address: '10.0.0.1' },
    });
    expect(record(origins.refusedHop as string)).toMatchObject({
      reason: 'redirect-refused',
      refused: { host: '10.0.0.1', address: null },
    });
    expect(record(origins.long as string)).toMatchObject({ reason: 'ok', bytes: 1000, cut: true });
    // The hosts with no file to read have none saved (a 4xx's empty file allows all, as the 4xx did).
    const files = readdirSync(saved).filter((name) => !name.includes('%'));
    expect(files.sort()).toEqual(
      [origins.ok, origins.moved, origins.missing, origins.long].map((origin) => new URL(origin as string).host.replace(':', '_')).sort(),
    );
  });

  it('the replay’s host policy decides recorded refusals anew: one it allows reads as no file fetched (--missing), noted', async () => {
    const sites = await outcomeSites();
    const saved = mkdtempSync(join(work, 'saved-'));
    await filterRun([...FETCH_FLAGS, '--save-dir', saved, '--emit', 'all', '--format', 'tsv', '--no-header'], sites);
    const { origins } = sites;
    const lines = [`${origins.refused}/private/a`, `${origins.refusedHop}/private/a`].join('\n');
    const replay = async (flags: readonly string[]): Promise<Run> =>
      run(
        [...AGENT, '--robots-dir', saved, '--missing', 'disallow', '--emit', 'all', '--format', 'tsv', '--no-header', ...flags],
        `${lines}\n`,
      );
    const same = await replay([]);
    expect(same.stdout.split('\n').map((line) => line.split('\t')[2])).toEqual(['disallowed', 'allowed', undefined]);
    expect(same.stderr).not.toMatch(/this run's host policy allows it/);
    const allowed = await replay(['--allow-network', '10.0.0.0/8']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout.split('\n').map((line) => line.split('\t')[2])).toEqual(['disallowed', 'disallowed', undefined]);
    expect(allowed.stderr).toContain(
      "robotstxt: note: intranet.example.com was refused when it was fetched, and this run's host policy allows it: no file was fetched, its lines follow --missing",
    );
    expect(allowed.stderr).toMatch(/hosts: 2, without robots\.txt: 2/);
    const everything = await replay(['--allow-internal-hosts']);
    expect(everything.stderr.match(/this run's host policy allows it/g)).toHaveLength(2);
    // --robots FILE has no hosts to decide.
    const file = await run([...AGENT, '--robots', join(saved, readdirSync(saved)[0] as string), '--allow-internal-hosts'], '/x\n');
    expect(file.code).toBe(2);
    expect(file.stderr).toMatch(/--allow-internal-hosts goes with --fetch or --robots-dir/);
  });
});

describe('a record the command did not write is ignored with a note, never believed', () => {
  const HOSTILE: readonly [string, string, string][] = [
    ['huge', `{"robotstxtFetchRecord":1,"pad":"${'x'.repeat(20_000)}"}`, 'longer than 16384 bytes'],
    ['not JSON', '{"robotstxtFetchRecord":1,', 'not JSON'],
    ['an array', '[1,2]', 'not a JSON object'],
    ['no version', '{"host":"example.com"}', 'no "robotstxtFetchRecord": 1'],
    ['another host', record({ host: 'other.example' }), 'the record of another host'],
    ['a status that is a string', record({ status: '503' }), '"status" is not an HTTP status'],
    ['an unknown reason', record({ reason: 'pwned' }), 'an unknown "reason"'],
    ['a refused host with no refusal', record({ reason: 'host-refused' }), 'a refused host without what was refused'],
    ['a count that is negative', record({ redirects: -1 }), 'a count that is not a whole number'],
  ];

  function record(fields: Record<string, unknown>): string {
    return JSON.stringify({
      robotstxtFetchRecord: 1,
      host: 'example.com',
      url: 'https://example.com/robots.txt',
      fetchedAt: '2026-01-01T00:00:00.000Z',
      reason: 'server-error',
      status: 503,
      cause: null,
      finalUrl: 'https://example.com/robots.txt',
      redirects: 0,
      bytes: 0,
      size: 0,
      cut: false,
      refused: null,
      ...fields,
    });
  }

  it.each(HOSTILE)('%s: the host’s file decides, as if there were no record', async (_name, text, problem) => {
    const dir = mkdtempSync(join(work, 'hostile-'));
    writeFileSync(join(dir, 'example.com'), RULES);
    writeFileSync(join(dir, 'example.com%outcome.json'), text);
    const result = await run(
      [...AGENT, '--robots-dir', dir, '--emit', 'all', '--format', 'tsv', '--no-header'],
      'https://example.com/a\nhttps://example.com/private/b\n',
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split('\n').map((line) => line.split('\t')[2])).toEqual(['allowed', 'disallowed', undefined]);
    expect(result.stderr).toContain(
      `robotstxt: note: ${join(dir, 'example.com%outcome.json')} is not a fetch record this command wrote (${problem}): ignored`,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('a record that says rules were fetched, with no file beside it, is ignored: no robots.txt known', async () => {
    const dir = mkdtempSync(join(work, 'hostile-'));
    writeFileSync(join(dir, 'example.com%outcome.json'), record({ reason: 'ok', status: 200 }));
    const result = await run(
      [...AGENT, '--robots-dir', dir, '--missing', 'disallow', '--emit', 'all', '--format', 'tsv', '--no-header'],
      'https://example.com/a\n',
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('1\thttps://example.com/a\tdisallowed\tmissing\t\t\t\t\n');
    expect(result.stderr).toContain('(it says a file was fetched, and there is none): ignored');
    expect(result.stderr).toMatch(/hosts: 1, without robots\.txt: 1/);
  });

  it('a valid record outweighs a stale file: a 503 recorded after a file was saved disallows all', async () => {
    const dir = mkdtempSync(join(work, 'stale-'));
    writeFileSync(join(dir, 'example.com'), 'User-agent: *\nAllow: /\n');
    writeFileSync(join(dir, 'example.com%outcome.json'), record({}));
    const result = await run([...AGENT, '--robots-dir', dir, '--emit', 'all', '--format', 'tsv', '--no-header'], 'https://example.com/a\n');
    expect(result.stdout).toBe('1\thttps://example.com/a\tdisallowed\tserver-error\t\t\t\t\n');
    expect(result.stderr).toMatch(/^recorded fetches: .*5xx or 429 1 \(disallow all\)/m);
  });
});
