/**
 * The compiled rules for a URL's host, from wherever `filter` was told robots.txt files are: a directory
 * of one file per host, one file for every URL, or files fetched from the sites (handed over by the main
 * thread, src/cli/filter/fetch-source.ts). Each thread compiles a host's file once and keeps its rules in an
 * LRU bounded in bytes, so that memory stays flat however many hosts a log names. What an entry counts is
 * what it keeps alive (test/unit/cli/cli-memory.test.ts): the compiled rules as AgentRules.bytesHeld counts them (the
 * file is read into a reused buffer and kept, where the rules keep any of it, as an exact-size copy), and
 * the objects around them.
 *
 * What a thread meets when it first reads a host's file, a file cut at --max-bytes or one it cannot read, is
 * kept as a FileEvent until takeEvents() drains it: the main thread says each once and counts it. In a
 * folder saved by `--fetch --save-dir`, a host's fetch record (./fetch-record.ts) says what its fetch came to,
 * and the host policy of this run decides a recorded refusal anew.
 */
import { closeSync, existsSync, openSync, opendirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { bytesOf, LruBudget, sharesOf, type Share } from '../../cache/lru-budget.js';
import { HostGuard } from '../host-guard.js';
import { parseRobotsTxt, type AgentRules } from '../library.js';
import { UsageError } from '../usage.js';
import {
  causeOf,
  fetchClassOf,
  MAX_RECORD_BYTES,
  outcomeOfReason,
  parseRecord,
  recordFileName,
  RECORD_SUFFIX,
  type FetchClass,
  type FetchRecord,
} from './fetch-record.js';
import type { HostOutcome } from './host-outcome.js';
import type { FilterSettings } from './options.js';
import { robotsFileName } from './robots-file-name.js';

export type { HostOutcome, HostReason } from './host-outcome.js';

/**
 * What a host's lookup found: its rules; an answer with no file to apply (a 4xx allows everything, an
 * unreachable site disallows everything, RFC 9309 §2.3.1; a host the policy refused); or null when no
 * robots.txt is known for it (`--missing` decides).
 */
export type HostRules = AgentRules | HostOutcome | null;

/** Whether a lookup found rules to compile URLs against (not an outcome, nor nothing). */
export function isRules(rules: HostRules): rules is AgentRules {
  return rules !== null && !('reason' in rules);
}

/**
 * What a thread met when it first read a host's file (`host`: the host's key, or the --robots FILE; `file`:
 * the path or URL to name in a note):
 * - `cut`: the file is longer than --max-bytes (`size`: its real length, when known); its first bytes decide;
 * - `unreadable`: a file in --robots-dir that could not be read (`code`: EACCES, ELOOP, …); the host's lines
 *   are disallowed, reason `unreachable`, as a site whose file cannot be had;
 * - `recorded`: a saved fetch record was read, and how that fetch is counted (`cause`: a network failure's);
 * - `record-ignored`: a fetch record that is not one this command wrote (`problem`), read as if absent;
 * - `refusal-lifted`: a recorded refusal this run's host policy allows: no file was fetched, --missing decides.
 */
export type FileEvent =
  | { readonly host: string; readonly kind: 'cut'; readonly file: string; readonly size: number | undefined }
  | { readonly host: string; readonly kind: 'unreadable'; readonly file: string; readonly code: string }
  | { readonly host: string; readonly kind: 'recorded'; readonly fetch: FetchClass; readonly cause: string | undefined }
  | { readonly host: string; readonly kind: 'record-ignored'; readonly file: string; readonly problem: string }
  | { readonly host: string; readonly kind: 'refusal-lifted'; readonly file: string };

export interface RobotsSource {
  /**
   * The rules for a host (or for every URL, for a single file); `defaultPort`, when the URL uses its scheme's
   * default port, names the host's other possible file (`host_443`).
   */
  rulesFor(host: string | undefined, defaultPort: string | undefined): HostRules;
  /** Whether a URL must name a host to be decided. */
  readonly needsHost: boolean;
  /** The events met since the last call. */
  takeEvents(): FileEvent[];
}

/** What a host whose file in --robots-dir cannot be read reads as: an unreachable site's (RFC 9309 §2.3.1.4). */
const UNREADABLE: HostOutcome = { allowed: false, reason: 'unreachable' };

/** Rules compiled from a file longer than --max-bytes: only its first bytes were parsed. */
const cutRules = new WeakSet<AgentRules>();

/** Whether `rules` were compiled from a file longer than --max-bytes (the lines they decide carry reason `cut`). */
export function isCut(rules: AgentRules): boolean {
  return cutRules.has(rules);
}

/** Bytes counted for a host known to have no file: the map entry and the key. */
const MISSING_ENTRY_BYTES = 128;
/**
 * Bytes counted besides bytesHeld for a host's compiled rules: the objects that hold them (AgentRules, the
 * matcher's ruleset, their residency, the entry) and their block's overhead in WebAssembly memory. Measured
 * (test/unit/cli/cli-memory.test.ts): for a typical file they are most of what a host costs, about 1.5 KB in all.
 */
const RULES_ENTRY_BYTES = 950;

/**
 * The buffer files are read into, one per thread, grown to the largest limit asked: a fresh zero-filled
 * buffer per file cost more than parsing a typical one, and a view into it kept the whole buffer alive
 * for as long as the file's rules were cached.
 */
let readBuffer = Buffer.allocUnsafe(0);

/**
 * The first `maxBytes` + 1 bytes of a file (one more than is parsed, so that the parser reports the cut),
 * in an array of exactly their size that shares nothing, or null when the file does not exist.
 *
 * @internal Exported for its tests.
 */
export function readBounded(path: string, maxBytes: number): Uint8Array | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR' || code === 'ENAMETOOLONG') return null;
    throw error;
  }
  try {
    if (readBuffer.length < maxBytes + 1) readBuffer = Buffer.allocUnsafe(maxBytes + 1);
    const limit = maxBytes + 1;
    let length = 0;
    while (length < limit) {
      const read = readSync(fd, readBuffer, length, limit - length, null);
      if (read === 0) break;
      length += read;
    }
    // A copy of exactly the bytes read: what the rules keep is what the cache counts.
    return new Uint8Array(readBuffer.subarray(0, length));
  } catch (error) {
    // A directory named like a host, a file that cannot be read: no robots.txt for this host.
    if ((error as NodeJS.ErrnoException).code === 'EISDIR') return null;
    throw error;
  } finally {
    closeSync(fd);
  }
}

/**
 * What a host's rules are kept by. Which file answers depends on the scheme's default port (`host_443` for
 * https only), so the rules are kept by both: http://h and https://h must not share what one of them found,
 * nor https://h (file h, else h_443) with http://h:443 (the host h_443: file h_443 alone). A space is in no
 * host, so the host is the key up to its first space.
 */
export function rulesKey(host: string, defaultPort: string | undefined): string {
  return defaultPort === undefined ? host : `${host} ${defaultPort}`;
}

/** Compiles `body` (read up to one byte past --max-bytes) for the agent. */
function compile(body: Uint8Array, settings: FilterSettings): AgentRules {
  const robots = parseRobotsTxt(body, { profile: settings.profile, maxBytes: settings.maxRobotsBytes });
  // Indexed at once: the line scanner keeps the ruleset's address (a tier switch would move it), and the
  // rules LRU counts an entry's bytes once, when it is stored.
  const rules = robots.forAgent(settings.agent, { indexed: true });
  if (body.length > settings.maxRobotsBytes) cutRules.add(rules);
  return rules;
}

/** A file's length, when it can still be had (it is asked only for a file that was cut). */
function sizeOf(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

/**
 * Each host's rules in least-recently-used order, bounded in bytes. Evicted rules are not disposed (the batch
 * being decided, or the line scanner's table, may still use them): garbage collection frees them, and their
 * WebAssembly memory, once nothing does.
 */
class RulesLru {
  private readonly lru: LruBudget<string, { readonly rules: HostRules; readonly bytes: number; readonly shares: readonly Share[] }>;

  constructor(budget: number) {
    this.lru = new LruBudget(
      Number.POSITIVE_INFINITY,
      budget,
      (entry) => entry.bytes,
      (entry) => entry.shares,
    );
  }

  /** What the rules stored keep alive, as their entries count it. */
  get bytesHeld(): number {
    return this.lru.bytesHeld;
  }

  get(key: string): HostRules | undefined {
    const entry = this.lru.peek(key);
    this.lru.touch(key);
    return entry?.rules;
  }

  set(key: string, rules: HostRules): void {
    const entryBytes = MISSING_ENTRY_BYTES + 2 * key.length;
    if (!isRules(rules)) {
      this.lru.set(key, { rules, bytes: entryBytes, shares: [] });
      return;
    }
    // The compiled rulesets are shares: hosts whose files compile to the same bytes hold one block.
    const shares = sharesOf(rules.compiledRulesets());
    const own = rules.bytesHeld - bytesOf(shares);
    this.lru.set(key, { rules, bytes: own + RULES_ENTRY_BYTES + entryBytes, shares });
  }
}

/**
 * Whether `dir` holds a fetch record: read once per thread, up to the first record, so that a folder of robots
 * files alone (most are) costs one directory read rather than a look for a record per host. A folder that
 * cannot be listed is taken to hold records: each host's is then looked for, as before.
 */
function holdsRecords(dir: string): boolean {
  let folder;
  try {
    folder = opendirSync(dir, { bufferSize: 1024 });
  } catch {
    return true;
  }
  try {
    for (let entry = folder.readSync(); entry !== null; entry = folder.readSync()) {
      if (entry.name.endsWith(RECORD_SUFFIX)) return true;
    }
    return false;
  } catch {
    return true;
  } finally {
    folder.closeSync();
  }
}

export class DirectorySource implements RobotsSource {
  readonly needsHost = true;
  private readonly cache: RulesLru;
  private events: FileEvent[] = [];
  /** This run's host policy, for recorded refusals. */
  private readonly guard: HostGuard;
  /** Whether the folder holds any fetch record (a --save-dir folder): if not, no host's is looked for. */
  private readonly hasRecords: boolean;

  /** @internal What the cached rules keep alive, by the LRU's count (test/unit/cli/cli-memory.test.ts holds it to what the process holds). */
  get bytesHeld(): number {
    return this.cache.bytesHeld;
  }

  constructor(
    private readonly dir: string,
    private readonly settings: FilterSettings,
  ) {
    this.cache = new RulesLru(settings.cacheBytes);
    this.guard = new HostGuard(settings.robots.kind === 'dir' ? settings.robots.hosts : { allowInternalHosts: false, allowedNetworks: [] });
    this.hasRecords = holdsRecords(dir);
  }

  takeEvents(): FileEvent[] {
    const events = this.events;
    this.events = [];
    return events;
  }

  rulesFor(host: string | undefined, defaultPort: string | undefined): HostRules {
    if (host === undefined) return null;
    const key = rulesKey(host, defaultPort);
    const known = this.cache.get(key);
    if (known !== undefined) return known;
    let rules = this.lookUp(host);
    if (rules === undefined && defaultPort !== undefined) rules = this.lookUp(`${host}_${defaultPort}`);
    this.cache.set(key, rules ?? null);
    return rules ?? null;
  }

  /** What the folder says of the host key `name`: its record's outcome, else its file's rules; undefined when it holds neither. */
  private lookUp(name: string): HostRules | undefined {
    // The file another key read already (http://h and https://h, keys `h 80` and `h 443`, both read file h):
    // its rules as compiled then, kept under the key `name`, whose own lookup is this one.
    const compiled = this.cache.get(name);
    if (compiled !== undefined && isRules(compiled)) return compiled;
    const path = join(this.dir, robotsFileName(name));
    const record = this.record(name);
    const outcome = record === undefined ? undefined : outcomeOfReason(record.reason);
    if (record !== undefined && outcome !== undefined) {
      this.events.push({ host: name, kind: 'recorded', fetch: fetchClassOf(record), cause: this.causeIfFailed(record) });
      if (
        (outcome.reason === 'refused' || outcome.reason === 'redirect-refused') &&
        record.refused !== null &&
        this.guard.allows(record.refused)
      ) {
        this.events.push({ host: name, kind: 'refusal-lifted', file: path });
        return null;
      }
      return outcome;
    }
    const body = this.read(name, path);
    if (record !== undefined) {
      if (body === null) {
        this.events.push({
          host: name,
          kind: 'record-ignored',
          file: join(this.dir, recordFileName(name)),
          problem: 'it says a file was fetched, and there is none',
        });
        return undefined;
      }
      this.events.push({ host: name, kind: 'recorded', fetch: fetchClassOf(record), cause: undefined });
    }
    if (body === null) return undefined;
    if (!(body instanceof Uint8Array)) return body;
    const rules = compile(body, this.settings);
    // A saved file was cut one byte past the limit: its real size is the record's, when the fetch knew it.
    if (isCut(rules))
      this.events.push({ host: name, kind: 'cut', file: path, size: record === undefined ? sizeOf(path) : (record.size ?? undefined) });
    // Kept for the file's other keys, when reading it met nothing to say (said once, by this lookup).
    else if (record === undefined) this.cache.set(name, rules);
    return rules;
  }

  private causeIfFailed(record: FetchRecord): string | undefined {
    return fetchClassOf(record) === 'networkError' ? causeOf(record) : undefined;
  }

  /** The host's fetch record, if the folder holds one this command wrote (one it did not is said and ignored). */
  private record(name: string): FetchRecord | undefined {
    if (!this.hasRecords) return undefined;
    const path = join(this.dir, recordFileName(name));
    // Asked without the cost of an exception, once per host and thread.
    if (!existsSync(path)) return undefined;
    let bytes: Uint8Array | null;
    try {
      bytes = readBounded(path, MAX_RECORD_BYTES);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'an error';
      this.events.push({ host: name, kind: 'record-ignored', file: path, problem: `it cannot be read (${code})` });
      return undefined;
    }
    if (bytes === null) return undefined;
    const record = parseRecord(bytes, name);
    if (typeof record !== 'string') return record;
    this.events.push({ host: name, kind: 'record-ignored', file: path, problem: record });
    return undefined;
  }

  /** The host's file, null when there is none, or the outcome of one that cannot be read (said as an event). */
  private read(name: string, path: string): Uint8Array | null | HostOutcome {
    try {
      return readBounded(path, this.settings.maxRobotsBytes);
    } catch (error) {
      this.events.push({ host: name, kind: 'unreadable', file: path, code: (error as NodeJS.ErrnoException).code ?? 'an error' });
      return UNREADABLE;
    }
  }
}

export class SingleFileSource implements RobotsSource {
  readonly needsHost = false;
  private readonly rules: AgentRules;
  private events: FileEvent[] = [];

  constructor(file: string, settings: FilterSettings) {
    let body: Uint8Array | null;
    try {
      body = readBounded(file, settings.maxRobotsBytes);
    } catch (error) {
      throw new UsageError(`--robots ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    if (body === null) throw new UsageError(`--robots ${file}: no such file`);
    this.rules = compile(body, settings);
    if (isCut(this.rules)) this.events.push({ host: file, kind: 'cut', file, size: sizeOf(file) });
  }

  rulesFor(): HostRules {
    return this.rules;
  }

  takeEvents(): FileEvent[] {
    const events = this.events;
    this.events = [];
    return events;
  }
}

/**
 * The rules of hosts whose files the main thread fetched and handed over. Their bytes are kept for the run
 * (each file at most its size limit), their compiled rules in the LRU: a log that names millions of hosts is
 * better fetched once with --save-dir and then filtered with --robots-dir.
 */
export class HandedSource implements RobotsSource {
  readonly needsHost = true;
  private readonly cache: RulesLru;
  private readonly bodies = new Map<string, Uint8Array | HostOutcome>();

  constructor(private readonly settings: FilterSettings) {
    this.cache = new RulesLru(settings.cacheBytes);
  }

  /** None: the main thread, which fetched the files, says what it met (./fetch-source.ts). */
  takeEvents(): FileEvent[] {
    return [];
  }

  /** A fetched file, or the verdict that stands for one. */
  hand(host: string, body: Uint8Array | HostOutcome): void {
    this.bodies.set(host, body);
  }

  rulesFor(host: string | undefined): HostRules {
    if (host === undefined) return null;
    const known = this.cache.get(host);
    if (known !== undefined) return known;
    // The bytes stay for the run: the LRU may evict the compiled rules, and the host is not fetched twice.
    const body = this.bodies.get(host);
    const rules = body === undefined ? null : !(body instanceof Uint8Array) ? body : compile(body, this.settings);
    this.cache.set(host, rules);
    return rules;
  }
}

export function openSource(settings: FilterSettings): RobotsSource {
  switch (settings.robots.kind) {
    case 'dir':
      return new DirectorySource(settings.robots.dir, settings);
    case 'file':
      return new SingleFileSource(settings.robots.file, settings);
    case 'fetch':
      return new HandedSource(settings);
  }
}
