/**
 * `robotstxt filter`'s options, read and checked once. What a worker thread needs of them is plain data
 * (FilterSettings), posted to each worker as it starts.
 */
import { checkDuration, checkUserAgent } from '../../fetch/options.js';
import { HOST_OPTIONS, readHostPolicy, type HostPolicy } from '../host-guard.js';
import type { ProfileName } from '../library.js';
import { PROFILES } from '../report.js';
import { oneOf, readArguments, UsageError, wholeNumber } from '../usage.js';
import { readVhost } from './host-name.js';
import { workerCount } from './worker-count.js';

export type Emit = 'allowed' | 'disallowed' | 'all';
export type MissingPolicy = 'allow' | 'disallow';
export type OutputFormat = 'lines' | 'jsonl';

/** Where a line's URL is. */
export type InputShape =
  | { readonly kind: 'line' }
  | { readonly kind: 'field'; readonly field: number; readonly delimiter: 'tab' | 'spaces' | number }
  | { readonly kind: 'json'; readonly key: readonly string[] }
  | { readonly kind: 'combined'; readonly host: string | undefined };

/** Where the robots.txt files come from. */
export type RobotsSourceSetting =
  | { readonly kind: 'dir'; readonly dir: string }
  | { readonly kind: 'file'; readonly file: string }
  | {
      readonly kind: 'fetch';
      readonly userAgent: string;
      readonly concurrency: number;
      readonly saveDir: string | undefined;
      readonly timeoutMs: number;
      /** The internal hosts that may be fetched too (none by default). */
      readonly hosts: HostPolicy;
    };

/** What deciding a batch of lines needs: the same in the main thread and in every worker. */
export interface FilterSettings {
  readonly agent: string;
  readonly profile: ProfileName;
  readonly shape: InputShape;
  readonly emit: Emit;
  readonly annotate: boolean;
  readonly output: OutputFormat;
  readonly missing: MissingPolicy;
  readonly strict: boolean;
  readonly robots: RobotsSourceSetting;
  /** Bytes of compiled rules (and their files) kept per thread; the least recently used host goes first. */
  readonly cacheBytes: number;
  readonly maxRobotsBytes: number;
}

export interface FilterOptions extends FilterSettings {
  readonly files: readonly string[];
  readonly workers: number;
  readonly quiet: boolean;
}

const OPTIONS = {
  agent: { type: 'string' },
  'robots-dir': { type: 'string' },
  robots: { type: 'string' },
  fetch: { type: 'boolean' },
  concurrency: { type: 'string' },
  'user-agent': { type: 'string' },
  'save-dir': { type: 'string' },
  timeout: { type: 'string' },
  missing: { type: 'string' },
  profile: { type: 'string' },
  field: { type: 'string' },
  delimiter: { type: 'string' },
  'json-field': { type: 'string' },
  format: { type: 'string' },
  host: { type: 'string' },
  emit: { type: 'string' },
  annotate: { type: 'boolean' },
  'output-format': { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  strict: { type: 'boolean' },
  workers: { type: 'string' },
  'cache-mb': { type: 'string' },
  ...HOST_OPTIONS,
} as const;

const DEFAULT_USER_AGENT = 'robotstxt-cli/0.1 (+https://www.npmjs.com/package/robotstxt-wasm)';

function shapeOf(values: OptionValues): InputShape {
  const field = values.field as string | undefined;
  const json = values['json-field'] as string | undefined;
  const format = values.format as string | undefined;
  const chosen = [field !== undefined, json !== undefined, format !== undefined].filter(Boolean).length;
  if (chosen > 1) throw new UsageError('--field, --json-field and --format each say where the URL is: pass one of them');
  if (values.delimiter !== undefined && field === undefined) throw new UsageError('--delimiter goes with --field N');
  if (values.host !== undefined && format === undefined)
    throw new UsageError('--host names the site of an access log: it goes with --format combined');
  if (field !== undefined) {
    const delimiter = (values.delimiter as string | undefined) ?? '\t';
    if ([...delimiter].length !== 1)
      throw new UsageError(`--delimiter takes one character ('\\t' by default, ' ' for runs of spaces), got ${JSON.stringify(delimiter)}`);
    const code = delimiter.codePointAt(0) as number;
    if (code > 0x7f) throw new UsageError(`--delimiter must be an ASCII character, got ${JSON.stringify(delimiter)}`);
    return {
      kind: 'field',
      field: wholeNumber('field', field, 1),
      delimiter: delimiter === '\t' ? 'tab' : delimiter === ' ' ? 'spaces' : code,
    };
  }
  if (json !== undefined) {
    if (json === '') throw new UsageError('--json-field takes a key (a.b for a nested one)');
    return { kind: 'json', key: json.split('.') };
  }
  if (format !== undefined) {
    if (format !== 'combined') throw new UsageError(`--format takes "combined" (Apache/nginx access logs), got ${JSON.stringify(format)}`);
    const host = values.host as string | undefined;
    if (host !== undefined && readVhost(host) === undefined)
      throw new UsageError(`--host takes a host name, with a port if the site has one (www.example.com:8080), got ${JSON.stringify(host)}`);
    return { kind: 'combined', host };
  }
  return { kind: 'line' };
}

type OptionValues = Record<string, string | boolean | string[] | undefined>;

function robotsSourceOf(values: OptionValues): RobotsSourceSetting {
  const dir = values['robots-dir'] as string | undefined;
  const file = values.robots as string | undefined;
  const fetch = values.fetch === true;
  const chosen = [dir !== undefined, file !== undefined, fetch].filter(Boolean).length;
  if (chosen !== 1) {
    throw new UsageError(
      'say where the robots.txt files are: --robots-dir DIR (one file per host), --robots FILE (one file for every URL) or --fetch (from the sites)',
    );
  }
  const fetchOnly = ['concurrency', 'user-agent', 'save-dir', 'timeout', 'allow-internal-hosts', 'allow-network'].filter(
    (name) => values[name] !== undefined,
  );
  if (!fetch && fetchOnly.length > 0) throw new UsageError(`--${fetchOnly[0]} goes with --fetch`);
  if (dir !== undefined) return { kind: 'dir', dir };
  if (file !== undefined) return { kind: 'file', file };
  const userAgent = (values['user-agent'] as string | undefined) ?? DEFAULT_USER_AGENT;
  const timeoutMs = wholeNumber('timeout', values.timeout as string | undefined, 10_000);
  // Checked as the library checks them, before any fetch: not at the first host, once lines are being decided.
  libraryCheck('user-agent', () => checkUserAgent(userAgent));
  libraryCheck('timeout', () => checkDuration('timeoutMs', timeoutMs));
  return {
    kind: 'fetch',
    userAgent,
    concurrency: wholeNumber('concurrency', values.concurrency as string | undefined, 16),
    saveDir: values['save-dir'] as string | undefined,
    timeoutMs,
    hosts: readHostPolicy(values['allow-internal-hosts'] === true, values['allow-network'] as string[] | undefined),
  };
}

/** A check of the library's options, whose error is a usage error of the flag. */
function libraryCheck(flag: string, check: () => unknown): void {
  try {
    check();
  } catch (error) {
    throw new UsageError(`--${flag}: ${(error as Error).message}`);
  }
}

export function readFilterOptions(args: readonly string[]): FilterOptions {
  const { values, positionals } = readArguments('filter', args, OPTIONS);
  const agent = values.agent;
  if (agent === undefined || agent === '')
    throw new UsageError("--agent NAME is required: the crawler's product token, e.g. --agent ExampleBot");
  const output = oneOf('output-format', values['output-format'], ['lines', 'jsonl'] as const, 'lines');
  if (values.annotate === true && output === 'jsonl')
    throw new UsageError('--annotate adds columns to lines; --output-format jsonl already has them: pass one');
  return {
    agent,
    profile: oneOf('profile', values.profile, PROFILES, 'rfc9309'),
    shape: shapeOf(values),
    emit: oneOf('emit', values.emit, ['allowed', 'disallowed', 'all'] as const, 'allowed'),
    annotate: values.annotate === true,
    output,
    missing: oneOf('missing', values.missing, ['allow', 'disallow'] as const, 'allow'),
    strict: values.strict === true,
    robots: robotsSourceOf(values),
    cacheBytes: wholeNumber('cache-mb', values['cache-mb'], 256) * 1024 * 1024,
    maxRobotsBytes: 512_000,
    files: positionals,
    workers: workerCount(values.workers, positionals),
    quiet: values.quiet === true,
  };
}
