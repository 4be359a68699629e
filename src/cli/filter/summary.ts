/**
 * The end of a `filter` run as a monitor reads it: `--summary-json FILE`, one JSON object written whole
 * (a temporary file renamed into place, so that a reader never sees half of it), and the same facts in
 * words on stderr, one line each.
 */
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { printable } from '../printable.js';
import { UsageError } from '../usage.js';
import type { FetchClass } from './fetch-record.js';
import type { RefusedHosts, SaveCounts } from './fetch-source.js';
import { REASONS, type Reason } from './reason.js';

/** How the hosts' fetches went (with --fetch, or as the records of a saved folder say on replay). */
export interface FetchCounts extends Record<Exclude<FetchClass, 'networkError'>, number> {
  readonly networkError: { total: number; readonly causes: Record<string, number> };
}

export interface RunSummary {
  readonly lines: {
    readonly total: number;
    readonly allowed: number;
    readonly disallowed: number;
    readonly malformed: number;
    /** Lines by reason (the usage reasons with --purpose only). */
    readonly byReason: Readonly<Partial<Record<Reason, number>>>;
  };
  readonly hosts: {
    readonly total: number;
    readonly withoutRobots: number;
    readonly cut: number;
    readonly unreadable: number;
    readonly fetch: FetchCounts | null;
  };
  readonly saved: SaveCounts | null;
  readonly bytes: { readonly read: number };
  readonly seconds: number;
  readonly linesPerSecond: number;
  readonly bytesPerSecond: number;
  readonly complete: boolean;
  readonly exitCode: number;
}

export function noFetches(): FetchCounts {
  return {
    ok: 0,
    redirected: 0,
    clientError: 0,
    serverError: 0,
    timeout: 0,
    networkError: { total: 0, causes: {} },
    refused: 0,
    redirectRefused: 0,
  };
}

/**
 * `--summary-json FILE` checked before any work: not stdout (it holds the lines), not a folder, in a folder
 * that is there.
 */
export function checkSummaryTarget(path: string | undefined): void {
  if (path === undefined) return;
  if (path === '-' || path === '')
    throw new UsageError('--summary-json takes a file name: stdout holds the lines (use /dev/stderr to read it there)');
  const folder = statSync(dirname(path), { throwIfNoEntry: false });
  if (folder === undefined || !folder.isDirectory()) throw new UsageError(`--summary-json ${path}: no such directory ${dirname(path)}`);
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory() === true) throw new UsageError(`--summary-json ${path}: a directory`);
}

/**
 * Writes the summary to `path` whole: to a temporary file beside it, renamed over it. A character device
 * (/dev/stderr) is written directly. False, with a note, when it cannot be written.
 */
export function writeSummaryJson(path: string, summary: RunSummary): boolean {
  const text = `${JSON.stringify(summary, null, 2)}\n`;
  let temporary: string | undefined;
  try {
    if (statSync(path, { throwIfNoEntry: false })?.isFile() === false) {
      writeFileSync(path, text);
      return true;
    }
    temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
    writeFileSync(temporary, text, { flag: 'wx' });
    renameSync(temporary, path);
    return true;
  } catch (error) {
    if (temporary !== undefined) rmSync(temporary, { force: true });
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    process.stderr.write(`robotstxt: --summary-json ${printable(path)}: cannot be written (${code})\n`);
    return false;
  }
}

/** `1,234,567`: a count as the summary writes it. */
export function count(value: number): string {
  return value.toLocaleString('en-US');
}

/** `rule 5, missing 2, server-error 1`: the reasons that decided lines. */
export function reasonsLine(byReason: Readonly<Partial<Record<Reason, number>>>): string {
  const counted = REASONS.filter((reason) => (byReason[reason] ?? 0) > 0).map((reason) => `${reason} ${count(byReason[reason] ?? 0)}`);
  return `by reason: ${counted.length === 0 ? 'none' : counted.join(', ')}`;
}

/** `robots files: 1 cut at --max-bytes, 0 unreadable (their lines disallowed)` */
export function filesLine(cut: number, unreadable: number, maxBytes: number): string {
  return (
    `robots files: ${count(cut)} cut at --max-bytes ${count(maxBytes)} (their first bytes decide), ` +
    `${count(unreadable)} unreadable (their lines disallowed, reason unreachable)`
  );
}

/** One line: how the hosts' fetches went, in words, with each outcome's reading. */
export function fetchLine(fetch: FetchCounts, recorded: boolean): string {
  const causes = Object.entries(fetch.networkError.causes)
    .sort(([, a], [, b]) => b - a)
    .map(([cause, n]) => `${printable(cause)} ${count(n)}`);
  const parts = [
    `2xx ${count(fetch.ok)}`,
    `2xx after redirects ${count(fetch.redirected)}`,
    `4xx ${count(fetch.clientError)} (allow all)`,
    `5xx or 429 ${count(fetch.serverError)} (disallow all)`,
    `timeouts ${count(fetch.timeout)} (disallow all)`,
    `network errors ${count(fetch.networkError.total)}${causes.length === 0 ? '' : ` [${causes.join(', ')}]`} (disallow all)`,
    `refused ${count(fetch.refused)} (disallow all)`,
    `redirects refused ${count(fetch.redirectRefused)} (allow all)`,
  ];
  return `${recorded ? 'recorded fetches' : 'fetches'}: ${parts.join(', ')}`;
}

function named(refused: RefusedHosts, total: number): string {
  const more = total > refused.named.length ? ', …' : '';
  return total === 0 ? '' : ` (${refused.named.map(printable).join(', ')}${more})`;
}

/**
 * `refused hosts: 2 (169.254.169.254, 10.0.0.1): internal, not fetched; their lines are disallowed, …` and,
 * when a redirect went to such a host, the line for those.
 */
export function refusedLines(refused: RefusedHosts, redirectRefused: RefusedHosts, fetch: FetchCounts): string[] {
  const lines = [
    `refused hosts: ${count(fetch.refused)}${named(refused, fetch.refused)}` +
      (fetch.refused === 0
        ? ''
        : ': internal, not fetched; their lines are disallowed, as the library reads a refused host (--allow-internal-hosts fetches them)'),
  ];
  if (fetch.redirectRefused > 0) {
    lines.push(
      `redirects to refused hosts: ${count(fetch.redirectRefused)}${named(redirectRefused, fetch.redirectRefused)}: not followed; ` +
        'their lines are allowed, as after a redirect that leads nowhere',
    );
  }
  return lines;
}

/** `saved: 12, symbolic links replaced: 1, could not be saved: 0` */
export function savesLine(saves: SaveCounts): string {
  return `saved: ${count(saves.saved)}, symbolic links replaced: ${count(saves.linksReplaced)}, could not be saved: ${count(saves.failed)}`;
}
