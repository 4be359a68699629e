/**
 * `robotstxt filter`'s options, read and checked once. What a worker thread needs of them is plain data
 * (FilterSettings), posted to each worker as it starts.
 */
import { checkDuration, checkUserAgent } from '../../fetch/options.js';
import { HOST_OPTIONS, readHostPolicy, type HostPolicy } from '../host-guard.js';
import { DEFAULT_MAX_BYTES, type ProfileName } from '../library.js';
import { DEFAULT_USER_AGENT, PROFILES } from '../report.js';
import { readAgent } from '../agent.js';
import { exclusive, libraryCheck, oneOf, readArguments, UsageError, wholeNumber } from '../usage.js';
import { readVhost } from './host-name.js';
import { UNKNOWN_POLICIES, USAGE_PURPOSES, type UsageFilter } from './usage-filter.js';
import { workerCount } from './worker-count.js';

export type Emit = 'allowed' | 'disallowed' | 'all';
export type MissingPolicy = 'allow' | 'disallow';
/** `--format`: the lines as they are, or one record per line in TSV, JSON lines or CSV. */
export const OUTPUT_FORMATS = ['text', 'tsv', 'jsonl', 'csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
/** `--input-format`: where a line's URL is, for the shapes that have a name. */
export const INPUT_FORMATS = ['line', 'combined', 'common'] as const;

/** Where a line's URL is. */
export type InputShape =
  | { readonly kind: 'line' }
  | { readonly kind: 'field'; readonly field: number; readonly delimiter: 'tab' | 'spaces' | number }
  | { readonly kind: 'json'; readonly key: readonly string[] }
  /** An access log line (combined and common read alike, vhost_combined); the host from --host, the vhost field or an absolute target. */
  | { readonly kind: 'access'; readonly host: string | undefined };

/** Where the robots.txt files come from. */
export type RobotsSourceSetting =
  /** `hosts`: the policy that decides anew the refusals a saved folder's fetch records hold. */
  | { readonly kind: 'dir'; readonly dir: string; readonly hosts: HostPolicy }
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
  readonly output: OutputFormat;
  /** A header line first (tsv and csv), unless --no-header. */
  readonly header: boolean;
  readonly missing: MissingPolicy;
  readonly strict: boolean;
  readonly robots: RobotsSourceSetting;
  /** Bytes of compiled rules (and their files) kept per thread; the least recently used host goes first. */
  readonly cacheBytes: number;
  readonly maxRobotsBytes: number;
  /** --purpose and --unknown: lines are kept by their usage preference too; undefined without --purpose. */
  readonly usage: UsageFilter | undefined;
}

export interface FilterOptions extends FilterSettings {
  /** The inputs: files, `-` for stdin (stdin alone when none is given). */
  readonly files: readonly string[];
  readonly workers: number;
  readonly quiet: boolean;
  /** --summary-json FILE: the run's summary as JSON, written when it ends. */
  readonly summaryJson: string | undefined;
  /** --first-line N: the number of the input's first line in records (a part of a split log numbers on from its start). */
  readonly firstLine: number;
  /** --allow-malformed: a run of mostly malformed lines still exits 0. */
  readonly allowMalformed: boolean;
  /** Notes for the old spellings used (`--annotate`: use --format tsv), said once on stderr. */
  readonly deprecations: readonly string[];
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
  'input-format': { type: 'string' },
  host: { type: 'string' },
  emit: { type: 'string' },
  annotate: { type: 'boolean' },
  'output-format': { type: 'string' },
  'no-header': { type: 'boolean' },
  'first-line': { type: 'string' },
  'max-bytes': { type: 'string' },
  'summary-json': { type: 'string' },
  'allow-malformed': { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  strict: { type: 'boolean' },
  workers: { type: 'string' },
  'cache-mb': { type: 'string' },
  purpose: { type: 'string' },
  unknown: { type: 'string' },
  ...HOST_OPTIONS,
} as const;

/**
 * `--format` and `--input-format`, with the old spellings read as their aliases: `--format combined` (the
 * input format, before `--format` meant the output in every subcommand), `--annotate` (`--format tsv`) and
 * `--output-format lines|jsonl`. Each old spelling used adds a note to `deprecations`.
 */
function formatsOf(values: OptionValues, deprecations: string[]): { output: OutputFormat; input: string | undefined } {
  let format = values.format as string | undefined;
  let input = values['input-format'] as string | undefined;
  if (format !== undefined && (format === 'combined' || format === 'common')) {
    if (input !== undefined)
      throw new UsageError(`--format ${format} and --input-format both name the input format: pass --input-format alone`);
    deprecations.push(`--format ${format} is the old spelling of --input-format ${format}: --format now names the output format`);
    input = format;
    format = undefined;
  }
  const old = values['output-format'] as string | undefined;
  if (old !== undefined) {
    if (format !== undefined) throw new UsageError('--output-format and --format both name the output format: pass --format alone');
    const renamed = oneOf('output-format', old, ['lines', 'jsonl'] as const, 'lines');
    format = renamed === 'lines' ? 'text' : 'jsonl';
    deprecations.push(`--output-format ${old} is the old spelling of --format ${format}`);
  }
  if (values.annotate === true) {
    if (format !== undefined) throw new UsageError('--annotate and --format both name the output format: pass --format tsv alone');
    format = 'tsv';
    deprecations.push('--annotate is the old spelling of --format tsv');
  }
  return { output: oneOf('format', format, OUTPUT_FORMATS, 'text'), input };
}

function shapeOf(values: OptionValues, inputFormat: string | undefined): InputShape {
  const field = values.field as string | undefined;
  const json = values['json-field'] as string | undefined;
  const input = inputFormat === undefined ? undefined : oneOf('input-format', inputFormat, INPUT_FORMATS, 'line');
  const named = input !== undefined && input !== 'line';
  const chosen = [field !== undefined, json !== undefined, named].filter(Boolean).length;
  if (chosen > 1) throw new UsageError('--field, --json-field and --input-format each say where the URL is: pass one of them');
  if (values.delimiter !== undefined && field === undefined) throw new UsageError('--delimiter goes with --field N');
  if (values.host !== undefined && !named)
    throw new UsageError('--host names the site of an access log: it goes with --input-format combined or common');
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
  if (input === 'combined' || input === 'common') {
    const host = values.host as string | undefined;
    if (host !== undefined && readVhost(host) === undefined)
      throw new UsageError(`--host takes a host name, with a port if the site has one (www.example.com:8080), got ${JSON.stringify(host)}`);
    return { kind: 'access', host };
  }
  return { kind: 'line' };
}

type OptionValues = Record<string, string | boolean | string[] | undefined>;

function robotsSourceOf(values: OptionValues): RobotsSourceSetting {
  const dir = values['robots-dir'] as string | undefined;
  const file = values.robots as string | undefined;
  const fetch = values.fetch === true;
  exclusive(values, ['robots-dir', 'robots', 'fetch'], 'say where the robots.txt files are');
  if (dir === undefined && file === undefined && !fetch) {
    throw new UsageError(
      'say where the robots.txt files are: --robots-dir DIR (one file per host), --robots FILE (one file for every URL) or --fetch (from the sites)',
    );
  }
  const fetchOnly = ['concurrency', 'user-agent', 'save-dir', 'timeout'].filter((name) => values[name] !== undefined);
  if (!fetch && fetchOnly.length > 0) throw new UsageError(`--${fetchOnly[0]} goes with --fetch`);
  const hostFlag = ['allow-internal-hosts', 'allow-network'].find((name) => values[name] !== undefined);
  if (file !== undefined && hostFlag !== undefined) throw new UsageError(`--${hostFlag} goes with --fetch or --robots-dir`);
  const hosts = readHostPolicy(values['allow-internal-hosts'] === true, values['allow-network'] as string[] | undefined);
  if (dir !== undefined) return { kind: 'dir', dir, hosts };
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
    hosts,
  };
}

/** `--purpose` and `--unknown keep|drop` (the default keep), which says nothing without a purpose. */
function usageFilterOf(values: OptionValues): UsageFilter | undefined {
  const purpose = values.purpose as string | undefined;
  const unknown = values.unknown as string | undefined;
  if (purpose === undefined) {
    if (unknown !== undefined)
      throw new UsageError('--unknown says what to do with lines of an unknown preference: it goes with --purpose');
    return undefined;
  }
  return {
    purpose: oneOf('purpose', purpose, USAGE_PURPOSES, 'train-ai'),
    unknown: oneOf('unknown', unknown, UNKNOWN_POLICIES, 'keep'),
  };
}

export function readFilterOptions(args: readonly string[]): FilterOptions {
  const { values, positionals } = readArguments('filter', args, OPTIONS);
  if (values.agent === undefined) throw new UsageError("--agent NAME is required: the crawler's product token, e.g. --agent ExampleBot");
  const profile = oneOf('profile', values.profile, PROFILES, 'rfc9309');
  // Checked before any input is read: a User-Agent header names its crawler, as in check.
  const agent = readAgent(values.agent, profile).name;
  const deprecations: string[] = [];
  const formats = formatsOf(values, deprecations);
  if (values['no-header'] === true && formats.output !== 'tsv' && formats.output !== 'csv')
    throw new UsageError('--no-header goes with --format tsv or csv, the formats with a header line');
  return {
    agent,
    profile,
    shape: shapeOf(values, formats.input),
    emit: oneOf('emit', values.emit, ['allowed', 'disallowed', 'all'] as const, 'allowed'),
    output: formats.output,
    header: values['no-header'] !== true,
    missing: oneOf('missing', values.missing, ['allow', 'disallow'] as const, 'allow'),
    strict: values.strict === true,
    robots: robotsSourceOf(values),
    cacheBytes: wholeNumber('cache-mb', values['cache-mb'], 256) * 1024 * 1024,
    maxRobotsBytes: wholeNumber('max-bytes', values['max-bytes'], DEFAULT_MAX_BYTES, 0),
    usage: usageFilterOf(values),
    files: positionals,
    workers: workerCount(values.workers, positionals),
    quiet: values.quiet === true,
    summaryJson: values['summary-json'],
    firstLine: wholeNumber('first-line', values['first-line'], 1),
    allowMalformed: values['allow-malformed'] === true,
    deprecations,
  };
}
