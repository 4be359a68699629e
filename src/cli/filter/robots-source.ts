/**
 * The compiled rules for a URL's host, from wherever `filter` was told robots.txt files are: a directory
 * of one file per host, one file for every URL, or files fetched from the sites (handed over by the main
 * thread, src/cli/filter/fetch-source.ts). Each thread compiles a host's file once and keeps its rules in an
 * LRU bounded in bytes, so that memory stays flat however many hosts a log names. What an entry counts is
 * what it keeps alive (test/cli-memory.test.ts): the compiled rules as AgentRules.bytesHeld counts them (the
 * file is read into a reused buffer and kept, where the rules keep any of it, as an exact-size copy), and
 * the objects around them.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { LruBudget } from '../../fetch/lru-budget.js';
import { parseRobotsTxt, type AgentRules } from '../library.js';
import { UsageError } from '../usage.js';
import type { FilterSettings } from './options.js';
import { robotsFileName } from './robots-file-name.js';

/**
 * What a host's lookup found: its rules; an answer with no file to apply (a 4xx allows everything, an
 * unreachable site disallows everything, RFC 9309 §2.3.1; a host the policy refused); or null when no
 * robots.txt is known for it (`--missing` decides).
 */
export type HostRules = AgentRules | HostOutcome | null;

/** Why a host has no rules to apply: the reason its lines carry in the output and the summary. */
export type HostReason = 'missing' | 'server-error' | 'unreachable' | 'refused' | 'redirect-refused';

/** Whether a lookup found rules to compile URLs against (not an outcome, nor nothing). */
export function isRules(rules: HostRules): rules is AgentRules {
  return rules !== null && !('reason' in rules);
}

/** A host's verdict for every URL, and why. */
export interface HostOutcome {
  readonly allowed: boolean;
  readonly reason: HostReason;
}

export interface RobotsSource {
  /**
   * The rules for a host (or for every URL, for a single file); `defaultPort`, when the URL uses its scheme's
   * default port, names the host's other possible file (`host_443`).
   */
  rulesFor(host: string | undefined, defaultPort: string | undefined): HostRules;
  /** Whether a URL must name a host to be decided. */
  readonly needsHost: boolean;
}

/** Bytes counted for a host known to have no file: the map entry and the key. */
const MISSING_ENTRY_BYTES = 128;
/**
 * Bytes counted besides bytesHeld for a host's compiled rules: the objects that hold them (AgentRules, the
 * matcher's ruleset, their residency, the entry) and their block's overhead in WebAssembly memory. Measured
 * (test/cli-memory.test.ts): for a typical file they are most of what a host costs, about 1.5 KB in all.
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

/** Rules compiled from a file longer than --max-bytes: their lines' reason is `cut`. */
const cutRules = new WeakSet<AgentRules>();

export function isCut(rules: AgentRules): boolean {
  return cutRules.has(rules);
}

/** Compiles `body` for the agent. */
function compile(body: Uint8Array, settings: FilterSettings): AgentRules {
  const robots = parseRobotsTxt(body, { profile: settings.profile, maxBytes: settings.maxRobotsBytes });
  // Indexed at once: the line scanner keeps the ruleset's address (a tier switch would move it), and the
  // rules LRU counts an entry's bytes once, when it is stored.
  const rules = robots.forAgent(settings.agent, { indexed: true });
  if (robots.truncated) cutRules.add(rules);
  return rules;
}

/**
 * Each host's rules in least-recently-used order, bounded in bytes. Evicted rules are not disposed (the batch
 * being decided, or the line scanner's table, may still use them): garbage collection frees them, and their
 * WebAssembly memory, once nothing does.
 */
class RulesLru {
  private readonly lru: LruBudget<string, { readonly rules: HostRules; readonly bytes: number }>;

  constructor(budget: number) {
    this.lru = new LruBudget(Number.POSITIVE_INFINITY, budget, (entry) => entry.bytes);
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
    const compiled = isRules(rules);
    this.lru.set(key, { rules, bytes: (compiled ? rules.bytesHeld + RULES_ENTRY_BYTES : 0) + MISSING_ENTRY_BYTES + 2 * key.length });
  }
}

export class DirectorySource implements RobotsSource {
  readonly needsHost = true;
  private readonly cache: RulesLru;

  /** @internal What the cached rules keep alive, by the LRU's count (test/cli-memory.test.ts holds it to what the process holds). */
  get bytesHeld(): number {
    return this.cache.bytesHeld;
  }

  constructor(
    private readonly dir: string,
    private readonly settings: FilterSettings,
  ) {
    this.cache = new RulesLru(settings.cacheBytes);
  }

  rulesFor(host: string | undefined, defaultPort: string | undefined): HostRules {
    if (host === undefined) return null;
    const alternative = defaultPort === undefined ? undefined : `${host}_${defaultPort}`;
    const key = rulesKey(host, defaultPort);
    const known = this.cache.get(key);
    if (known !== undefined) return known;
    let body = readBounded(join(this.dir, robotsFileName(host)), this.settings.maxRobotsBytes);
    if (body === null && alternative !== undefined)
      body = readBounded(join(this.dir, robotsFileName(alternative)), this.settings.maxRobotsBytes);
    const rules = body === null ? null : compile(body, this.settings);
    this.cache.set(key, rules);
    return rules;
  }
}

export class SingleFileSource implements RobotsSource {
  readonly needsHost = false;
  private readonly rules: AgentRules;

  constructor(file: string, settings: FilterSettings) {
    const body = readBounded(file, settings.maxRobotsBytes);
    if (body === null) throw new UsageError(`--robots ${file}: no such file`);
    this.rules = compile(body, settings);
  }

  rulesFor(): HostRules {
    return this.rules;
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
