/**
 * What `filter` says on stderr: a progress line while it runs (only when stderr is a terminal), and a summary
 * at the end; `--quiet` silences both. stdout carries results only.
 */
import type { BatchResult } from './decide.js';
import { printable } from '../report.js';
import type { RefusedHosts, SaveCounts } from './fetch-source.js';

/** Distinct hosts counted exactly up to this many; past it, the summary says "more than". */
const MAX_HOSTS_COUNTED = 1_000_000;
const REDRAW_MS = 200;

function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
}

/** `refused hosts: 2 (169.254.169.254, 10.0.0.1): internal, not fetched; …` */
function refusedLine(refused: RefusedHosts): string {
  const more = refused.count > refused.named.length ? ', …' : '';
  const names = refused.count === 0 ? '' : ` (${refused.named.map(printable).join(', ')}${more})`;
  return (
    `refused hosts: ${formatCount(refused.count)}${names}` +
    (refused.count === 0 ? '' : ': internal, not fetched; their lines follow --missing (--allow-internal-hosts fetches them)')
  );
}

/** `saved: 12, symbolic links replaced: 1, could not be saved: 0` */
function savesLine(saves: SaveCounts): string {
  return `saved: ${formatCount(saves.saved)}, symbolic links replaced: ${formatCount(saves.linksReplaced)}, could not be saved: ${formatCount(saves.failed)}`;
}

export class Tally {
  lines = 0;
  allowed = 0;
  disallowed = 0;
  malformed = 0;
  bytesRead = 0;
  private readonly hosts = new Set<string>();
  private readonly hostsWithoutRobots = new Set<string>();
  private readonly started = performance.now();
  // The first batch draws at once; later ones at most every REDRAW_MS.
  private lastDrawn = -Infinity;

  constructor(
    private readonly show: boolean,
    private readonly totalBytes: number | undefined,
  ) {}

  /** A batch decided; `readTo`: the input bytes read when it was cut (progress reads it once H4's lands). */
  add(result: BatchResult, readTo?: number): void {
    void readTo;
    this.lines += result.lines;
    this.allowed += result.allowed;
    this.disallowed += result.disallowed;
    this.malformed += result.malformed;
    for (const host of result.hosts) if (this.hosts.size < MAX_HOSTS_COUNTED) this.hosts.add(host);
    for (const host of result.hostsWithoutRobots) if (this.hostsWithoutRobots.size < MAX_HOSTS_COUNTED) this.hostsWithoutRobots.add(host);
    this.draw();
  }

  /** One malformed line too long to hold (src/cli/filter/input.ts). */
  addOverlong(): void {
    this.lines++;
    this.malformed++;
  }

  private hostCount(set: Set<string>): string {
    return set.size >= MAX_HOSTS_COUNTED ? `more than ${formatCount(MAX_HOSTS_COUNTED)}` : formatCount(set.size);
  }

  private draw(): void {
    if (!this.show || !process.stderr.isTTY) return;
    const now = performance.now();
    if (now - this.lastDrawn < REDRAW_MS) return;
    this.lastDrawn = now;
    const seconds = (now - this.started) / 1000;
    const rate = this.lines / seconds;
    let eta = '';
    if (this.totalBytes !== undefined && this.bytesRead > 0 && this.bytesRead < this.totalBytes) {
      eta = `, ETA ${formatDuration(((this.totalBytes - this.bytesRead) * seconds) / this.bytesRead)}`;
    }
    const share =
      this.totalBytes === undefined || this.totalBytes === 0
        ? ''
        : ` (${Math.min(100, (100 * this.bytesRead) / this.totalBytes).toFixed(0)} %)`;
    process.stderr.write(
      `\r\x1b[K${formatCount(this.lines)} lines, ${formatCount(Math.round(rate))} lines/s, ${formatBytes(this.bytesRead)}${share}, ${this.hostCount(this.hosts)} hosts${eta}`,
    );
  }

  /** The summary; with --fetch, the hosts the guard refused and, with --save-dir, what was saved. */
  summary(fetched?: { readonly refused: RefusedHosts; readonly saves: SaveCounts | undefined }): void {
    if (!this.show) return;
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
    const seconds = (performance.now() - this.started) / 1000;
    const rate = seconds > 0 ? Math.round(this.lines / seconds) : 0;
    process.stderr.write(
      [
        `lines: ${formatCount(this.lines)}`,
        `allowed: ${formatCount(this.allowed)}`,
        `disallowed: ${formatCount(this.disallowed)}`,
        `malformed: ${formatCount(this.malformed)}`,
        `hosts: ${this.hostCount(this.hosts)}, without robots.txt: ${this.hostCount(this.hostsWithoutRobots)}`,
        ...(fetched === undefined ? [] : [refusedLine(fetched.refused)]),
        ...(fetched?.saves === undefined ? [] : [savesLine(fetched.saves)]),
        `elapsed: ${formatDuration(seconds)}, ${formatCount(rate)} lines/s, ${formatBytes(seconds > 0 ? this.bytesRead / seconds : 0)}/s`,
      ].join('\n') + '\n',
    );
  }
}
