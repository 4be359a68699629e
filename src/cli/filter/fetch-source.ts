/**
 * `filter --fetch`: the robots.txt of every host a batch names, fetched from the site the RFC 9309 way
 * (fetchRobotsTxt: redirects, status rules, size limit, timeout) before the batch is decided, at most
 * `--concurrency` at a time, each host once per run, from the origin its host reading gives (./host-name.ts:
 * a host the URL parser refuses is never fetched; its line is malformed). The bytes are kept for compiling
 * (HandedSource) and, with `--save-dir`, written in the `--robots-dir` layout (./robots-file-name.ts) for the
 * next run: a 2xx file as it came, a 4xx as an empty file (which allows everything, as the 4xx did); an
 * unreachable site is not saved, since its disallow-all is meant to last only until it answers again. A file
 * that cannot be saved is said on stderr and counted, and the run goes on. A host the guard refuses
 * (src/cli/host-guard.ts), at the first request or at a redirect, is counted, handed nothing (its lines follow
 * --missing, as those of a host with no robots.txt known) and never saved.
 */
import { randomBytes } from 'node:crypto';
import { lstatSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HostGuard } from '../host-guard.js';
import { fetchRobotsTxt, type FetchLike, type RobotsFetchResult } from '../library.js';
import { printable } from '../report.js';
import { withBody } from '../response-body.js';
import type { FilterSettings, RobotsSourceSetting } from './options.js';
import { robotsFileName } from './robots-file-name.js';
import type { HostOutcome } from './robots-source.js';
import { emptyField, readUrlField } from './url-field.js';

type FetchSetting = Extract<RobotsSourceSetting, { kind: 'fetch' }>;

/** Reads at most `limit` bytes of a body stream, then cancels the rest. */
async function readAtMost(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let length = 0;
  try {
    while (length < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      length += value.length;
    }
  } catch {
    // The library's own read of the other branch reports the failure.
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  const bytes = new Uint8Array(Math.min(length, limit));
  let at = 0;
  for (const part of parts) {
    const take = Math.min(part.length, bytes.length - at);
    bytes.set(part.subarray(0, take), at);
    at += take;
  }
  return bytes;
}

/** Refused hosts named in the summary; past them, only counted. */
const REFUSED_NAMED = 5;

/** The hosts the guard refused: how many, and the first few. */
export interface RefusedHosts {
  count: number;
  readonly named: string[];
}

/** What --save-dir did: files written, planted symbolic links replaced, files that could not be written. */
export interface SaveCounts {
  saved: number;
  linksReplaced: number;
  failed: number;
}

/** One line on stderr (no stack): the run goes on. */
function note(text: string): void {
  process.stderr.write(`robotstxt: note: ${printable(text)}\n`);
}

/**
 * Writes `body` as the host's file in `dir`: to a temporary file of its own in the same folder (created, never
 * opened through a link), then renamed over the host's name, which replaces whatever is there, a symbolic
 * link included, rather than writing through it. True when it replaced a symbolic link.
 */
function saveFile(dir: string, key: string, body: Uint8Array): boolean {
  const name = robotsFileName(key);
  const target = join(dir, name);
  // `%t` is no escape (robots-file-name.ts): no host's file is ever named so.
  const temporary = join(dir, `${name}%tmp-${randomBytes(8).toString('hex')}`);
  writeFileSync(temporary, body, { flag: 'wx' });
  try {
    const wasLink = lstatSync(target, { throwIfNoEntry: false })?.isSymbolicLink() === true;
    renameSync(temporary, target);
    return wasLink;
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

export class FetchResolver {
  readonly refused: RefusedHosts = { count: 0, named: [] };
  /** With --save-dir. */
  readonly saves: SaveCounts | undefined;
  private readonly settled = new Set<string>();
  private readonly setting: FetchSetting;
  private readonly guard: HostGuard;

  /** `hand` gets each host's file (or the verdict that stands for one), for the threads that decide. */
  constructor(
    private readonly settings: FilterSettings,
    private readonly hand: (host: string, body: Uint8Array | HostOutcome) => void,
  ) {
    this.setting = settings.robots as FetchSetting;
    this.guard = new HostGuard(this.setting.hosts);
    if (this.setting.saveDir !== undefined) this.saves = { saved: 0, linksReplaced: 0, failed: 0 };
  }

  /**
   * The guard's fetch, with a copy of each 2xx body kept in `bodies` (by URL) for compiling and saving. Each
   * host's fetch has a map of its own: what one host's redirects fetched is never another host's, nor kept
   * past its fetch.
   */
  private fetchKeeping(bodies: Map<string, Promise<Uint8Array>>): FetchLike {
    return async (url, init) => {
      const response = await this.guard.fetch(url, init);
      if (response.status < 200 || response.status > 299 || response.body === null) return response;
      const [ours, theirs] = response.body.tee();
      bodies.set(url, readAtMost(ours, this.settings.maxRobotsBytes + 1));
      return withBody(response, theirs);
    };
  }

  /** Fetches the robots.txt of every host of `batch` not fetched yet. */
  async prepare(batch: Uint8Array): Promise<void> {
    const field = emptyField();
    const wanted = new Map<string, string>();
    for (let start = 0; start < batch.length;) {
      const newline = batch.indexOf(0x0a, start);
      const end = newline < 0 ? batch.length : newline;
      const lineEnd = end > start && batch[end - 1] === 0x0d ? end - 1 : end;
      if (
        readUrlField(batch, start, lineEnd, this.settings.shape, true, field) &&
        field.host !== undefined &&
        field.origin !== undefined &&
        !this.settled.has(field.host)
      ) {
        wanted.set(field.host, field.origin);
      }
      start = newline < 0 ? batch.length : newline + 1;
    }
    const queue = [...wanted];
    const next = async (): Promise<void> => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await this.resolve(item[0], item[1]);
    };
    await Promise.all(Array.from({ length: Math.min(this.setting.concurrency, queue.length) }, next));
  }

  private async resolve(host: string, origin: string): Promise<void> {
    this.settled.add(host);
    const bodies = new Map<string, Promise<Uint8Array>>();
    let result: RobotsFetchResult;
    try {
      result = await fetchRobotsTxt(origin, {
        userAgent: this.setting.userAgent,
        timeoutMs: this.setting.timeoutMs,
        profile: this.settings.profile,
        maxBytes: this.settings.maxRobotsBytes,
        fetch: this.fetchKeeping(bodies),
        allowHost: this.guard.allowHost,
      });
    } catch (error) {
      // It throws only for a URL or an option it refuses, which the host reading and the options rule out; should
      // one still come, the host is one that could not be fetched (RFC 9309 §2.3.1.4), not the end of the run.
      note(`${origin}/robots.txt could not be fetched (${(error as Error).message}): its lines are disallowed, as an unreachable site's`);
      this.hand(host, { allowed: false, reason: 'unreachable' });
      return;
    }
    // The only refusals here are the guard's: allowRedirect is not set.
    if (result.reason === 'host-refused' || result.reason === 'redirect-refused') {
      this.refused.count++;
      if (this.refused.named.length < REFUSED_NAMED) this.refused.named.push(host);
      return;
    }
    const body = result.outcome === 'rules' ? await bodies.get(result.finalUrl) : undefined;
    result.robots?.dispose();
    // A 2xx whose copy could not be read is one whose body the library could not read either: it has no rules.
    const handed: Uint8Array | HostOutcome =
      result.outcome === 'rules'
        ? (body ?? { allowed: false, reason: 'unreachable' })
        : result.outcome === 'allow-all'
          ? { allowed: true, reason: 'missing' }
          : { allowed: false, reason: result.reason === 'server-error' ? 'server-error' : 'unreachable' };
    this.hand(host, handed);
    if (this.saves !== undefined && (handed instanceof Uint8Array || handed.allowed))
      this.save(host, handed instanceof Uint8Array ? handed : new Uint8Array(0));
  }

  /** Writes a host's file in the --save-dir folder; a failure is said and counted, and the run goes on. */
  private save(host: string, body: Uint8Array): void {
    const saves = this.saves as SaveCounts;
    const dir = this.setting.saveDir as string;
    try {
      if (saveFile(dir, host, body)) {
        saves.linksReplaced++;
        note(`${join(dir, robotsFileName(host))} was a symbolic link: replaced by ${host}'s robots.txt, its target left as it was`);
      }
      saves.saved++;
    } catch (error) {
      saves.failed++;
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      note(`${host}'s robots.txt could not be saved in ${dir} (${reason})`);
    }
  }
}
