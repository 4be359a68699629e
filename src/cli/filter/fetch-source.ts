/**
 * `filter --fetch`: the robots.txt of every host a batch names, fetched from the site the RFC 9309 way
 * (fetchRobotsTxt: redirects, status rules, size limit, timeout) before the batch is decided, at most
 * `--concurrency` at a time, each host once per run, from the origin its host reading gives (./host-name.ts:
 * a host the URL parser refuses is never fetched; its line is malformed). Each fetch becomes a record
 * (./fetch-record.ts: status, reason, a network failure's cause, redirects, bytes, cut or not, when), and the
 * host's lines are read from it as the library's outcome table says: the file's rules for a 2xx; allow all for
 * a 4xx and for a redirect hop the guard refused (src/cli/host-guard.ts); disallow all for a 5xx or 429, a
 * timeout, a network failure, and a host the guard refused at the first request. With `--save-dir`, the file
 * (a 2xx as it came, cut one byte past --max-bytes; a 4xx as an empty file) and the record are written in the
 * `--robots-dir` layout (./robots-file-name.ts), so that `--robots-dir` on the folder reads every host as this
 * run did. A file that cannot be saved is said on stderr and counted, and the run goes on.
 */
import { randomBytes } from 'node:crypto';
import { lstatSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isHostRefusal } from '../../fetch/host-policy.js';
import { HostGuard, type Refusal } from '../host-guard.js';
import { fetchRobotsTxt, type FetchLike, type RobotsFetchResult, type URLInput } from '../library.js';
import { note, printable } from '../printable.js';
import { withBody } from '../response-body.js';
import { causeOf, fetchClassOf, outcomeOfReason, recordFileName, recordText, type FetchRecord } from './fetch-record.js';
import type { FilterSettings, RobotsSourceSetting } from './options.js';
import { robotsFileName } from './robots-file-name.js';
import type { FileEvent, HostOutcome } from './robots-source.js';
import { emptyField, readUrlField } from './url-field.js';

type FetchSetting = Extract<RobotsSourceSetting, { kind: 'fetch' }>;

/** What one host's fetch met on the way that the library's result does not tell. */
interface FetchTrace {
  /** The code of the last failure of a request or a body (ECONNREFUSED, ENOTFOUND, ECONNRESET, a TLS code). */
  cause: string | undefined;
  /** What the guard refused, at the first request or at a redirect hop. */
  refusal: Refusal | undefined;
}

/** A failure's code, from the error or the errors it was caused by (fetch wraps the socket's). */
function codeOf(error: unknown): string | undefined {
  for (let depth = 0; depth < 8 && typeof error === 'object' && error !== null; depth++) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Za-z0-9_]{1,64}$/.test(code)) return code;
    error = (error as { cause?: unknown }).cause;
  }
  return undefined;
}

function hostnameOf(url: string | URLInput): string {
  return typeof url === 'string' ? new URL(url).hostname : url.hostname;
}

/** Reads at most `limit` bytes of a body stream, then cancels the rest. */
async function readAtMost(body: ReadableStream<Uint8Array>, limit: number, trace: FetchTrace): Promise<Uint8Array> {
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
  } catch (error) {
    // The library's own read of the other branch reports the failure; its cause is kept here.
    trace.cause = codeOf(error) ?? trace.cause;
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

/** The hosts the guard refused (at the first request, or at a redirect hop): the first few, for the summary. */
export interface RefusedHosts {
  readonly named: string[];
}

/** What --save-dir did: files written, planted symbolic links replaced, files that could not be written. */
export interface SaveCounts {
  saved: number;
  linksReplaced: number;
  failed: number;
}

/**
 * Writes `body` as the host's file in `dir`: to a temporary file of its own in the same folder (created, never
 * opened through a link), then renamed over the host's name, which replaces whatever is there, a symbolic
 * link included, rather than writing through it. True when it replaced a symbolic link.
 */
function saveFile(dir: string, name: string, body: Uint8Array | string): boolean {
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
  /** The hosts refused at the first request, and those whose redirect went to a refused host. */
  readonly refused: RefusedHosts = { named: [] };
  readonly redirectRefused: RefusedHosts = { named: [] };
  /** With --save-dir. */
  readonly saves: SaveCounts | undefined;
  /** Hosts whose fetch has ended, and fetches under way: for the progress line. */
  fetched = 0;
  inFlight = 0;
  private readonly settled = new Set<string>();
  private readonly setting: FetchSetting;
  private readonly guard: HostGuard;
  private events: FileEvent[] = [];

  /** `hand` gets each host's file (or the verdict that stands for one), for the threads that decide. */
  constructor(
    private readonly settings: FilterSettings,
    private readonly hand: (host: string, body: Uint8Array | HostOutcome) => void,
  ) {
    this.setting = settings.robots as FetchSetting;
    this.guard = new HostGuard(this.setting.hosts);
    if (this.setting.saveDir !== undefined) this.saves = { saved: 0, linksReplaced: 0, failed: 0 };
  }

  /** What the fetches met since the last call: each host's fetch (`recorded`) and each file cut at --max-bytes. */
  takeEvents(): FileEvent[] {
    const events = this.events;
    this.events = [];
    return events;
  }

  /**
   * The guard's fetch, with a copy of each 2xx body kept in `bodies` (by URL) for compiling and saving, and the
   * cause of a failure or what the guard refused kept in `trace`. Each host's fetch has a map of its own: what
   * one host's redirects fetched is never another host's, nor kept past its fetch.
   */
  private fetchKeeping(bodies: Map<string, Promise<Uint8Array>>, trace: FetchTrace): FetchLike {
    return async (url, init) => {
      let response;
      try {
        response = await this.guard.fetch(url, init);
      } catch (error) {
        if (isHostRefusal(error)) {
          const refused = error as { host?: unknown; address?: unknown };
          trace.refusal = {
            host: typeof refused.host === 'string' ? refused.host : hostnameOf(url),
            address: typeof refused.address === 'string' ? refused.address : undefined,
          };
        } else {
          trace.cause = codeOf(error) ?? trace.cause;
        }
        throw error;
      }
      if (response.status < 200 || response.status > 299 || response.body === null) return response;
      const [ours, theirs] = response.body.tee();
      bodies.set(url, readAtMost(ours, this.settings.maxRobotsBytes + 1, trace));
      return withBody(response, theirs);
    };
  }

  /** The guard's allowHost, with what it refused kept in `trace`. */
  private allowHostTracing(trace: FetchTrace): (url: URLInput) => boolean {
    return (url) => {
      const allowed = this.guard.allowHost(url);
      if (!allowed) trace.refusal = { host: hostnameOf(url), address: undefined };
      return allowed;
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
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
        this.inFlight++;
        try {
          await this.resolve(item[0], item[1]);
        } finally {
          this.inFlight--;
          this.fetched++;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.setting.concurrency, queue.length) }, next));
  }

  private async resolve(host: string, origin: string): Promise<void> {
    this.settled.add(host);
    const bodies = new Map<string, Promise<Uint8Array>>();
    const trace: FetchTrace = { cause: undefined, refusal: undefined };
    const fetchedAt = new Date().toISOString();
    let result: RobotsFetchResult;
    try {
      result = await fetchRobotsTxt(origin, {
        userAgent: this.setting.userAgent,
        timeoutMs: this.setting.timeoutMs,
        profile: this.settings.profile,
        maxBytes: this.settings.maxRobotsBytes,
        fetch: this.fetchKeeping(bodies, trace),
        allowHost: this.allowHostTracing(trace),
      });
    } catch (error) {
      // It throws only for a URL or an option it refuses, which the host reading and the options rule out; should
      // one still come, the host is one that could not be fetched (RFC 9309 §2.3.1.4), not the end of the run.
      note(`${origin}/robots.txt could not be fetched (${(error as Error).message}): its lines are disallowed, as an unreachable site's`);
      const url = `${origin}/robots.txt`;
      this.settle(
        {
          host,
          url,
          fetchedAt,
          reason: 'network-error',
          status: 0,
          cause: null,
          finalUrl: url,
          redirects: 0,
          bytes: 0,
          size: null,
          cut: false,
          refused: null,
        },
        undefined,
      );
      return;
    }
    const copy = result.outcome === 'rules' ? await bodies.get(result.finalUrl) : undefined;
    result.robots?.dispose();
    this.settle(this.recordOf(host, result, fetchedAt, trace, copy), copy);
  }

  /** What is recorded of a fetch. A 2xx whose copy could not be read is one whose body broke off: it has no rules. */
  private recordOf(
    host: string,
    result: RobotsFetchResult,
    fetchedAt: string,
    trace: FetchTrace,
    copy: Uint8Array | undefined,
  ): FetchRecord {
    const reason = result.outcome === 'rules' && copy === undefined ? 'body-interrupted' : result.reason;
    const refusedHere = reason === 'host-refused' || reason === 'redirect-refused';
    const failed = fetchClassOf({ reason, status: result.status, redirects: result.redirects }) === 'networkError';
    return {
      host,
      url: result.robotsUrl,
      fetchedAt,
      reason,
      status: result.status,
      cause: failed ? (trace.cause ?? null) : null,
      finalUrl: result.finalUrl,
      redirects: result.redirects,
      bytes: result.bytes,
      size: !result.truncated ? result.bytes : result.bytesIgnored === undefined ? null : result.bytes + result.bytesIgnored,
      cut: result.truncated,
      refused: refusedHere ? (trace.refusal ?? { host: new URL(result.finalUrl).hostname, address: undefined }) : null,
    };
  }

  /** Hands the host's file or outcome to the deciding threads, says what the fetch met, and saves both. */
  private settle(record: FetchRecord, copy: Uint8Array | undefined): void {
    const { host } = record;
    const outcome = outcomeOfReason(record.reason);
    this.hand(host, outcome ?? (copy as Uint8Array));
    const fetch = fetchClassOf(record);
    this.events.push({ host, kind: 'recorded', fetch, cause: fetch === 'networkError' ? causeOf(record) : undefined });
    if (record.cut) this.events.push({ host, kind: 'cut', file: record.url, size: record.size ?? undefined });
    const named = fetch === 'refused' ? this.refused.named : fetch === 'redirectRefused' ? this.redirectRefused.named : undefined;
    if (named !== undefined && named.length < REFUSED_NAMED) named.push(host);
    if (this.saves === undefined) return;
    // A file only where there is one to read (a 4xx's is empty: it allows everything); the record always.
    const file = outcome === undefined ? copy : outcome.reason === 'missing' ? new Uint8Array(0) : undefined;
    this.save(host, file, recordText(record));
  }

  /** Writes a host's file and its record in the --save-dir folder; a failure is said and counted, and the run goes on. */
  private save(host: string, body: Uint8Array | undefined, record: string): void {
    const saves = this.saves as SaveCounts;
    const dir = this.setting.saveDir as string;
    try {
      // The file first: a record is only ever beside the file it describes.
      for (const [name, bytes, what] of [
        [robotsFileName(host), body, 'robots.txt'],
        [recordFileName(host), record, 'fetch record'],
      ] as const) {
        if (bytes === undefined) continue;
        if (saveFile(dir, name, bytes)) {
          saves.linksReplaced++;
          note(`${join(dir, name)} was a symbolic link: replaced by ${host}'s ${what}, its target left as it was`);
        }
      }
      saves.saved++;
    } catch (error) {
      saves.failed++;
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      note(`${host}'s robots.txt could not be saved in ${dir} (${reason})`);
    }
  }
}
