/**
 * What `check` and `fetch` share about a robots.txt fetched from the network: the options that shape the
 * fetch, the library's option and URL errors turned into usage errors, and how a result is told (in text
 * safe for a terminal, and in JSON).
 */
import { version } from '../../package.json';
import {
  DEFAULT_MAX_BYTES,
  fetchRobotsTxt,
  type FetchLike,
  type ProfileName,
  type RobotsFetchReason,
  type RobotsFetchResult,
  type RobotsOutcome,
} from './library.js';
import { CACHE_LIMITS } from '../cache/cache-policy.js';
import { HOST_OPTIONS, HOST_OPTIONS_HELP, HostGuard, readHostPolicy, refusalText, type HostPolicy } from './host-guard.js';
import { note, printable } from './printable.js';
import { oneOf, UsageError, wholeNumber } from './usage.js';

// The filter modules import it from here, with the rest of what the commands share about reporting.

/** Where the default User-Agent sends a site's owner who wants to know who is asking: the package's npm page. */
export const ABOUT_URL = 'https://www.npmjs.com/package/robotstxt-wasm';
/** The User-Agent header every subcommand sends when none is given: who is asking, and where to read about it. */
export const DEFAULT_USER_AGENT = `robotstxt-cli/${version} (+${ABOUT_URL})`;
const DEFAULT_TIMEOUT_MS = 10_000;
/** setTimeout's longest delay, which the library's timeoutMs may not pass. */
const MAX_TIMEOUT_MS = 2_147_483_647;

export const PROFILES: readonly ProfileName[] = ['rfc9309', 'google', 'yandex'];

/** The options both commands take (parseArgs configuration). */
export const FETCH_OPTIONS = {
  profile: { type: 'string' },
  format: { type: 'string' },
  'user-agent': { type: 'string' },
  timeout: { type: 'string' },
  'max-bytes': { type: 'string' },
  ...HOST_OPTIONS,
} as const;

/** The help lines of --user-agent, --timeout, --max-bytes and the host flags, the same in both commands. */
export const FETCH_OPTIONS_HELP = `  --user-agent HEADER      the User-Agent header of the robots.txt request, redirects included
                           (default "${DEFAULT_USER_AGENT}")
  --timeout MS             one deadline for the whole fetch: redirects and body (default ${DEFAULT_TIMEOUT_MS})
  --max-bytes N            bytes of robots.txt read and parsed; the rest is ignored (default ${DEFAULT_MAX_BYTES},
                           RFC 9309's 500 KiB)
${HOST_OPTIONS_HELP}`;

export interface Settings {
  readonly profile: ProfileName;
  readonly userAgent: string;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly hosts: HostPolicy;
}

type FetchOptionValues = {
  readonly [Name in Exclude<keyof typeof FETCH_OPTIONS, keyof typeof HOST_OPTIONS | 'format'>]?: string | undefined;
} & { readonly 'allow-internal-hosts'?: boolean | undefined; readonly 'allow-network'?: string[] | undefined };

/** The shared options, checked, with their defaults (--format is each command's own: the two write different things). */
export function readSettings(values: FetchOptionValues): Settings {
  const timeoutMs = wholeNumber('timeout', values.timeout, DEFAULT_TIMEOUT_MS);
  if (timeoutMs > MAX_TIMEOUT_MS) throw new UsageError(`--timeout takes at most ${MAX_TIMEOUT_MS} ms (about 24 days), got ${timeoutMs}`);
  return {
    profile: oneOf('profile', values.profile, PROFILES, 'rfc9309'),
    userAgent: values['user-agent'] ?? DEFAULT_USER_AGENT,
    timeoutMs,
    maxBytes: wholeNumber('max-bytes', values['max-bytes'], DEFAULT_MAX_BYTES, 0),
    hosts: readHostPolicy(values['allow-internal-hosts'], values['allow-network']),
  };
}

/**
 * The fetch the library is given, made from the command's host guard: the guard's own, or one around it
 * that also keeps the body (recording-fetch.ts) or can be stopped.
 */
export type FetchThrough = (guard: HostGuard) => FetchLike;

/** Whether `url` is a host name without a scheme (`example.com`, `example.com:8080/a`), which a person means as https. */
export function isBareHost(url: string): boolean {
  return !url.includes('://') && /^[\w.-]+(?::\d+)?(?:[/?#]|$)/.test(url);
}

/**
 * fetchRobotsTxt with the command's settings, through the host guard (a refusal is noted on stderr).
 * Nothing the network does throws; what does throw is a URL or an option the library refuses, which is
 * the caller's mistake: a UsageError that says so.
 */
export async function fetchRobots(
  url: string,
  settings: Settings,
  through: FetchThrough = (guard) => guard.fetch,
): Promise<RobotsFetchResult> {
  const guard = new HostGuard(settings.hosts);
  try {
    const result = await fetchRobotsTxt(url, {
      userAgent: settings.userAgent,
      timeoutMs: settings.timeoutMs,
      maxBytes: settings.maxBytes,
      profile: settings.profile,
      fetch: through(guard),
      allowHost: guard.allowHost,
    });
    noteRefusal(result, guard);
    return result;
  } catch (error) {
    if (!(error instanceof TypeError || error instanceof RangeError)) throw error;
    if (/userAgent/.test(error.message)) throw new UsageError(`--user-agent: ${error.message}`);
    throw new UsageError(isBareHost(url) ? `${error.message} (did you mean https://${url}?)` : error.message);
  }
}

/** Says on stderr which host the guard refused, when it ended the fetch. */
export function noteRefusal(result: RobotsFetchResult, guard: HostGuard): void {
  if ((result.reason === 'host-refused' || result.reason === 'redirect-refused') && guard.lastRefusal !== undefined) {
    note(refusalText(guard.lastRefusal));
  }
}

/** One JSON line; undefined fields become null, so every object of a kind has the same keys. */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(value, (_key, field: unknown) => (field === undefined ? null : field))}\n`;
}

/** `rows` as two columns, the first padded to its widest cell. */
export function columns(rows: readonly (readonly [string, string])[], indent = ''): string[] {
  const width = Math.max(0, ...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `${indent}${left.padEnd(width)}  ${right}`.trimEnd());
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

const OUTCOME_MEANS: Readonly<Record<RobotsOutcome, string>> = {
  rules: "the file's rules decide",
  'allow-all': 'no usable robots.txt, so everything may be crawled',
  'disallow-all': 'the site counts as unreachable, so nothing may be crawled',
};

/** Reasons that mean something else than their outcome says in general. */
const REASON_MEANS: Partial<Record<RobotsFetchReason, string>> = {
  'host-refused': 'the host is internal and was not fetched, so nothing may be crawled',
};

/** `disallow-all (server-error): the site counts as unreachable, so nothing may be crawled` */
export function outcomeText(result: RobotsFetchResult): string {
  return `${result.outcome} (${result.reason}): ${REASON_MEANS[result.reason] ?? OUTCOME_MEANS[result.outcome]}`;
}

export function statusText(result: RobotsFetchResult): string {
  return result.status === 0 ? 'no response' : `status ${result.status}`;
}

/** `http://…/robots.txt: status 200, rules (ok): the file's rules decide; 57 bytes`: the first line of `check`. */
export function fetchSummary(result: RobotsFetchResult): string {
  const redirects = result.redirects === 0 ? '' : ` after ${plural(result.redirects, 'redirect')} to ${printable(result.finalUrl)}`;
  let body = '';
  if (result.outcome === 'rules') {
    body = `; ${plural(result.bytes, 'byte')}${result.truncated ? ', truncated' : ''}${result.looksLikeHtml ? ', looks like HTML' : ''}`;
  }
  return `${printable(result.robotsUrl)}${redirects}: ${statusText(result)}, ${outcomeText(result)}${body}`;
}

/**
 * How a RobotsCache with the default limits would treat this result: how long it keeps the answer (a file
 * or an allow-all), or, for an unreachable site, how soon it asks again. Milliseconds, and why.
 */
export interface CacheTerm {
  readonly lifetimeMs: number | undefined;
  readonly nextFetchAfterMs: number | undefined;
  readonly why: string;
}

export function cacheTerm(result: RobotsFetchResult): CacheTerm {
  const { minLifetime, maxLifetime, firstBackoff, maxBackoff } = CACHE_LIMITS;
  if (result.reason === 'host-refused') {
    return {
      lifetimeMs: minLifetime,
      nextFetchAfterMs: undefined,
      why: 'host refused, nothing sent: a RobotsCache asks its allowHost again after the floor',
    };
  }
  if (result.outcome === 'disallow-all') {
    const asked = (result.retryAfter ?? 0) * 1000;
    const wait = Math.min(maxBackoff, Math.max(firstBackoff, asked));
    const why =
      asked > firstBackoff
        ? `Retry-After ${result.retryAfter} s${asked > maxBackoff ? `, capped at ${duration(maxBackoff)}` : ''}`
        : `first back-off, doubling up to ${duration(maxBackoff)} while unreachable`;
    return { lifetimeMs: undefined, nextFetchAfterMs: wait, why };
  }
  if (result.maxAge === undefined) {
    return { lifetimeMs: maxLifetime, nextFetchAfterMs: undefined, why: 'no Cache-Control max-age: the ceiling, RFC 9309 §2.4' };
  }
  const lifetime = Math.min(maxLifetime, Math.max(minLifetime, result.maxAge * 1000));
  const clamp =
    lifetime > result.maxAge * 1000 ? ', raised to the floor' : lifetime < result.maxAge * 1000 ? ', lowered to the ceiling' : '';
  return { lifetimeMs: lifetime, nextFetchAfterMs: undefined, why: `Cache-Control max-age ${result.maxAge} s${clamp}` };
}

/** `24 h`, `1 h 30 min`, `90 ms`: hours at most, the unit RFC 9309's 24-hour ceiling speaks in. */
export function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const units: [number, string][] = [
    [3_600_000, 'h'],
    [60_000, 'min'],
    [1000, 's'],
  ];
  const parts: string[] = [];
  let rest = Math.round(ms / 1000) * 1000;
  for (const [size, unit] of units) {
    if (rest < size) continue;
    parts.push(`${Math.floor(rest / size)} ${unit}`);
    rest %= size;
  }
  return parts.join(' ');
}

/** What `check --format json` says about a fetched source (and `fetch` says in full). */
export function fetchFacts(result: RobotsFetchResult) {
  return {
    robotsUrl: result.robotsUrl,
    outcome: result.outcome,
    reason: result.reason,
    status: result.status,
    finalUrl: result.finalUrl,
    redirects: result.redirects,
  };
}

let pipeGuarded = false;

/** Writes to stdout; a reader that stops early (`| head`) ends the output, which is no error worth a stack trace. */
export function writeOut(text: string): void {
  if (!pipeGuarded) {
    pipeGuarded = true;
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
  process.stdout.write(text);
}
