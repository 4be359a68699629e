/**
 * What `filter` says on stderr: a progress line while it runs (only when stderr is a terminal, and not with
 * --quiet), notes for the robots files it meets cut or unreadable (./robots-source.ts FileEvent), and a summary
 * at the end, also written as JSON with --summary-json (./summary.ts). stdout carries results only.
 */
import type { BatchResult } from './decide.js';
import { note, printable } from '../printable.js';
import type { FetchClass } from './fetch-record.js';
import type { FetchResolver } from './fetch-source.js';
import type { FilterOptions } from './options.js';
import { noReasons, REASONS, reportedReasons, type ReasonCounts } from './reason.js';
import type { FileEvent } from './robots-source.js';
import {
  count,
  fetchLine,
  filesLine,
  noFetches,
  reasonsLine,
  refusedLines,
  savesLine,
  writeSummaryJson,
  type FetchCounts,
  type RunSummary,
} from './summary.js';

/** Distinct hosts counted exactly up to this many; past it, the summary says "more than". */
const MAX_HOSTS_COUNTED = 1_000_000;
const REDRAW_MS = 200;
/** Notes of each kind said one by one; past them, one note says how to see the count. */
const NOTES_PER_KIND = 10;

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

/** A set that stops growing at MAX_HOSTS_COUNTED; true when `host` is new to it. */
function addCapped(set: Set<string>, host: string): boolean {
  if (set.size >= MAX_HOSTS_COUNTED || set.has(host)) return false;
  set.add(host);
  return true;
}

export class Tally {
  lines = 0;
  allowed = 0;
  disallowed = 0;
  malformed = 0;
  /** Input bytes read (compressed or not, as in the files), ahead of what is decided. */
  bytesRead = 0;
  /** Input bytes of the lines decided so far. */
  private bytesDecided = 0;
  /** Lines by reason; null once a batch came without them. */
  private readonly byReason: ReasonCounts = noReasons();
  private readonly hosts = new Set<string>();
  private readonly hostsWithoutRobots = new Set<string>();
  private readonly cut = new Set<string>();
  private readonly unreadable = new Set<string>();
  /** Hosts whose fetch is counted in `fetch`: fetched in this run, or recorded in a saved folder. */
  private readonly fetchedHosts = new Set<string>();
  private readonly fetch: FetchCounts = noFetches();
  /** Notes said of each kind, for NOTES_PER_KIND. */
  private readonly notes = new Map<string, number>();
  private resolver: FetchResolver | undefined;
  private readonly started = performance.now();
  private lastDrawn = -Infinity;
  private readonly show: boolean;
  private readonly timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly options: FilterOptions,
    private readonly totalBytes: number | undefined,
  ) {
    this.show = !options.quiet;
    // Redrawn on a clock, not only as batches end: a batch waiting on fetches that time out still shows them.
    if (this.show && process.stderr.isTTY) this.timer = setInterval(() => this.draw(), REDRAW_MS).unref();
  }

  /** Whether the progress line is shown: on a terminal, without --quiet. */
  private get drawing(): boolean {
    return this.timer !== undefined;
  }

  /** With --fetch: the resolver whose fetches the progress line shows and whose events are said and counted. */
  follow(resolver: FetchResolver | undefined): void {
    this.resolver = resolver;
  }

  /** A batch decided; `readTo`: the input bytes read up to the end of that batch. */
  add(result: BatchResult, readTo: number): void {
    const first = this.lines === 0;
    this.lines += result.lines;
    this.allowed += result.allowed;
    this.disallowed += result.disallowed;
    this.malformed += result.malformed;
    this.bytesDecided = Math.max(this.bytesDecided, readTo);
    for (const reason of REASONS) this.byReason[reason] += result.reasons[reason];
    for (const host of result.hosts) addCapped(this.hosts, host);
    for (const host of result.hostsWithoutRobots) addCapped(this.hostsWithoutRobots, host);
    this.takeEvents(result.fileEvents);
    this.draw(first);
  }

  /** One malformed line too long to hold (src/cli/filter/input.ts). */
  addOverlong(): void {
    this.lines++;
    this.malformed++;
    this.byReason.malformed++;
  }

  /** Counts the events of the deciding threads and of the fetches, and says each cut or unreadable file once. */
  private takeEvents(events: readonly FileEvent[]): void {
    for (const event of [...events, ...(this.resolver?.takeEvents() ?? [])]) {
      switch (event.kind) {
        case 'cut':
          if (addCapped(this.cut, event.host)) {
            const size = event.size === undefined ? 'longer than' : `${count(event.size)} bytes, longer than`;
            const max = this.options.maxRobotsBytes;
            this.say('cut', `${event.file} is ${size} --max-bytes ${max}: only its first ${max} bytes were read`);
          }
          break;
        case 'unreadable':
          if (addCapped(this.unreadable, event.host))
            this.say(
              'unreadable',
              `${event.file} cannot be read (${event.code}): ${event.host}'s lines are disallowed, as an unreachable site's`,
            );
          break;
        case 'record-ignored':
          this.say('record-ignored', `${event.file} is not a fetch record this command wrote (${event.problem}): ignored`);
          break;
        case 'refusal-lifted':
          this.say(
            'refusal-lifted',
            `${event.host} was refused when it was fetched, and this run's host policy allows it: no file was fetched, its lines follow --missing`,
          );
          break;
        case 'recorded':
          if (addCapped(this.fetchedHosts, event.host)) this.countFetch(event.fetch, event.cause);
          break;
      }
    }
  }

  private countFetch(fetch: FetchClass, cause: string | undefined): void {
    if (fetch !== 'networkError') {
      this.fetch[fetch]++;
      return;
    }
    this.fetch.networkError.total++;
    const key = cause ?? 'network-error';
    this.fetch.networkError.causes[key] = (this.fetch.networkError.causes[key] ?? 0) + 1;
  }

  /** A note of `kind`, unless NOTES_PER_KIND were said: then one last note says the summary counts the rest. */
  private say(kind: string, text: string): void {
    const said = this.notes.get(kind) ?? 0;
    this.notes.set(kind, said + 1);
    if (said < NOTES_PER_KIND) note(text);
    else if (said === NOTES_PER_KIND) note(`more of these (${kind}) are not said one by one; the summary counts them`);
  }

  private hostCount(size: number): string {
    return size >= MAX_HOSTS_COUNTED ? `more than ${count(MAX_HOSTS_COUNTED)}` : count(size);
  }

  /** `1,234 lines decided, 300,000 lines/s, 12.0 MiB of 38.2 MiB (31 %), 120 hosts, 50 fetched (16 in flight), ETA 3.1 s` */
  /** Draws the progress line, at most every REDRAW_MS unless `force` (the first lines decided are shown at once). */
  private draw(force = false): void {
    if (!this.drawing) return;
    const now = performance.now();
    if (!force && now - this.lastDrawn < REDRAW_MS) return;
    this.lastDrawn = now;
    const seconds = (now - this.started) / 1000;
    const rate = seconds > 0 ? this.lines / seconds : 0;
    let bytes = formatBytes(this.bytesDecided);
    let eta = '';
    if (this.totalBytes !== undefined && this.totalBytes > 0) {
      bytes += ` of ${formatBytes(this.totalBytes)} (${Math.min(100, Math.floor((100 * this.bytesDecided) / this.totalBytes))} %)`;
      if (this.bytesDecided > 0 && this.bytesDecided < this.totalBytes)
        eta = `, ETA ${formatDuration(((this.totalBytes - this.bytesDecided) * seconds) / this.bytesDecided)}`;
    }
    const fetches = this.resolver === undefined ? '' : `, ${count(this.resolver.fetched)} fetched (${this.resolver.inFlight} in flight)`;
    process.stderr.write(
      `\r\x1b[K${count(this.lines)} lines decided, ${count(Math.round(rate))} lines/s, ${bytes}, ${this.hostCount(this.hosts.size)} hosts${fetches}${eta}`,
    );
  }

  /**
   * The end of a run that returns `exitCode`: the summary on stderr (unless --quiet) and, with --summary-json, as
   * JSON; `complete` is false when the reader of stdout went away before every line was decided. False when the
   * JSON could not be written (said on stderr).
   */
  summary(exitCode: number, complete: boolean): boolean {
    const result = this.result(exitCode, complete);
    if (this.show) process.stderr.write(`${this.summaryText(result).join('\n')}\n`);
    return this.options.summaryJson === undefined || writeSummaryJson(this.options.summaryJson, result);
  }

  /**
   * The end of a run stopped by an error (said by the caller, exit `exitCode`): with --summary-json, what was
   * decided until then, `complete: false`, when any line was.
   */
  summaryAfterError(exitCode: number): void {
    const result = this.result(exitCode, false);
    if (this.options.summaryJson !== undefined && this.lines > 0) writeSummaryJson(this.options.summaryJson, result);
  }

  /** The run's summary; the progress line is stopped and cleared. */
  private result(exitCode: number, complete: boolean): RunSummary {
    if (this.timer !== undefined) clearInterval(this.timer);
    if (this.drawing) process.stderr.write('\r\x1b[K');
    this.takeEvents([]);
    const seconds = (performance.now() - this.started) / 1000;
    const fetching = this.options.robots.kind === 'fetch';
    const saves = this.resolver?.saves;
    return {
      lines: {
        total: this.lines,
        allowed: this.allowed,
        disallowed: this.disallowed,
        malformed: this.malformed,
        byReason: reportedReasons(this.byReason, this.options.usage !== undefined),
      },
      hosts: {
        total: this.hosts.size,
        withoutRobots: this.hostsWithoutRobots.size,
        cut: this.cut.size,
        unreadable: this.unreadable.size,
        fetch: fetching || this.fetchedHosts.size > 0 ? this.fetch : null,
      },
      saved: saves === undefined ? null : { ...saves },
      bytes: { read: this.bytesRead },
      seconds: Math.round(seconds * 1000) / 1000,
      linesPerSecond: seconds > 0 ? Math.round(this.lines / seconds) : 0,
      bytesPerSecond: seconds > 0 ? Math.round(this.bytesRead / seconds) : 0,
      complete,
      exitCode,
    };
  }

  private summaryText(result: RunSummary): string[] {
    const { lines, hosts } = result;
    const text = [
      `lines: ${count(lines.total)}`,
      `allowed: ${count(lines.allowed)}`,
      `disallowed: ${count(lines.disallowed)}`,
      `malformed: ${count(lines.malformed)}`,
      `hosts: ${this.hostCount(hosts.total)}, without robots.txt: ${this.hostCount(hosts.withoutRobots)}`,
    ];
    text.push(reasonsLine(lines.byReason));
    if (hosts.cut > 0 || hosts.unreadable > 0) text.push(filesLine(hosts.cut, hosts.unreadable, this.options.maxRobotsBytes));
    if (hosts.fetch !== null) text.push(fetchLine(hosts.fetch, this.resolver === undefined));
    if (this.resolver !== undefined) text.push(...refusedLines(this.resolver.refused, this.resolver.redirectRefused, this.fetch));
    if (result.saved !== null) text.push(savesLine(result.saved));
    text.push(
      `elapsed: ${formatDuration(result.seconds)}, ${count(result.linesPerSecond)} lines/s, ${formatBytes(result.bytesPerSecond)}/s`,
    );
    return text;
  }
}
