/**
 * What every subcommand shares about being called wrong: usage errors (exit 2, one line that says what was
 * wrong and what to pass), reading options with node:util's parseArgs, and the one text for a file that
 * cannot be read.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { describeValue } from '../api/describe-value.js';
import { printable } from './printable.js';

/**
 * Exit codes: 0 success; 1 a verdict a script branches on (`check`: something is disallowed; `lint`: an
 * error was found); 2 usage or input errors.
 */
export const EXIT_OK = 0;
export const EXIT_DISALLOWED = 1;
export const EXIT_LINT_ERRORS = 1;
/** `filter`: a run that found problems (--strict's malformed line, mostly malformed lines, a --summary-json not written). */
export const EXIT_PROBLEMS = 1;
export const EXIT_USAGE = 2;

/** A mistake in how the command was called, or input it cannot read: exit 2 with this message. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** Longest option name an error message repeats: an argument may be megabytes long. */
const SHOWN_LENGTH = 100;

/** parseArgs, with its errors turned into one-line UsageErrors that name the command's --help. */
export function readArguments<T extends OptionsConfig>(command: string, args: readonly string[], options: T) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS_')) throw error;
    throw new UsageError(`${argumentProblem(code, args, options)} (see robotstxt ${command} --help)`);
  }
}

/**
 * What parseArgs refused, told from its error's code and the arguments as parseArgs itself splits them (its
 * tokens, read without strictness): its message quotes oddly and gives advice about `--` that does not apply.
 */
function argumentProblem(code: string, args: readonly string[], options: OptionsConfig): string {
  const { tokens } = parseArgs({ args: [...args], options, allowPositionals: true, strict: false, tokens: true });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const config = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
    const shown = optionText(token.rawName, args[token.index] ?? '');
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && config === undefined) {
      const near = token.rawName.startsWith('--') ? nearest(token.name, Object.keys(options)) : undefined;
      return `unknown option ${shown}${near === undefined ? '' : ` (did you mean --${near}?)`}`;
    }
    if (code !== 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' || config === undefined) continue;
    if (config.type === 'boolean' && token.value !== undefined) return `${shown} takes no value, got ${describeValue(token.value)}`;
    if (config.type === 'string' && token.value === undefined) return `${shown} needs a value`;
    // strict parseArgs refuses a value that looks like an option unless it is written --name=value.
    if (config.type === 'string' && token.inlineValue === false && token.value?.startsWith('-') === true) {
      return `${shown} needs a value: ${describeValue(token.value)} reads as an option (write ${token.rawName}=VALUE for a value starting with "-")`;
    }
  }
  return 'the arguments cannot be read';
}

/** `--frob`, or `-x (in -qx)` for a letter of a group of short options. */
function optionText(rawName: string, argument: string): string {
  const name = printable(rawName.slice(0, SHOWN_LENGTH));
  return argument === rawName || argument.startsWith(`${rawName}=`) ? name : `${name} (in ${describeValue(argument)})`;
}

/** The option `name` was probably meant to be: one it starts, or one at most two edits away; none when unsure. */
function nearest(name: string, names: readonly string[]): string | undefined {
  const prefixed = names.filter((candidate) => name.length >= 3 && candidate.startsWith(name));
  if (prefixed.length === 1) return prefixed[0];
  const close = names.filter((candidate) => editDistance(name, candidate, 2) <= 2);
  return close.length === 1 ? close[0] : undefined;
}

/** Levenshtein distance of `a` and `b`, or `bound + 1` once it is known to exceed `bound`. */
function editDistance(a: string, b: string, bound: number): number {
  if (Math.abs(a.length - b.length) > bound || a.length > 64) return bound + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, (previous[j - 1] as number) + cost));
    }
    if (Math.min(...row) > bound) return bound + 1;
    previous = row;
  }
  return previous[b.length] as number;
}

/**
 * Of options that each say the same thing another way (where the robots.txt files are, where the URL is),
 * the one given, or undefined for none; two or more given is a UsageError that names them:
 * `--robots and --robots-dir both say where the robots.txt files are: pass one`. An option counts as given
 * when its value is neither undefined nor false (a boolean flag left off).
 */
export function exclusive(values: Readonly<Record<string, unknown>>, names: readonly string[], what: string): string | undefined {
  const given = names.filter((name) => values[name] !== undefined && values[name] !== false);
  if (given.length > 1) {
    const flags = given.map((name) => `--${name}`);
    const list = `${flags.slice(0, -1).join(', ')} and ${flags[flags.length - 1]}`;
    throw new UsageError(`${list} ${given.length === 2 ? 'both' : 'each'} ${what}: pass one`);
  }
  return given[0];
}

/** Why a file cannot be read, by its error's code: the system's (ENOENT…) and zlib's, for gzip input. */
const READ_FAILURES: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  ENOTDIR: 'no such file (a part of its path is not a directory)',
  EISDIR: 'is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ELOOP: 'too many levels of symbolic links',
  Z_DATA_ERROR: 'its gzip data is damaged',
  Z_BUF_ERROR: 'its gzip data is cut short',
};

/**
 * The one text of every subcommand for input it cannot read (`path` "-" is stdin), as a UsageError to throw:
 * `cannot read nope.txt: no such file`; an error code without words of its own is shown as it is (`EIO`).
 */
export function readError(path: string, error: unknown): UsageError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const why = code !== undefined ? (READ_FAILURES[code] ?? code) : error instanceof Error ? error.message : String(error);
  return new UsageError(`cannot read ${path === '-' ? 'stdin' : printable(path)}: ${printable(why)}`);
}

/** A check of the library's options, whose error is a usage error of the flag. */
export function libraryCheck(flag: string, check: () => unknown): void {
  try {
    check();
  } catch (error) {
    throw new UsageError(`--${flag}: ${(error as Error).message}`);
  }
}

/** A whole number ≥ `min` from option `name`, or a UsageError. */
export function wholeNumber(name: string, value: string | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < min || !/^\d+$/.test(value)) {
    throw new UsageError(`--${name} takes a whole number ≥ ${min}, got ${describeValue(value)}`);
  }
  return number;
}

/**
 * One of `choices` from option `name` (or a synonym of one, which the message does not list), or a UsageError
 * that lists them.
 */
export function oneOf<T extends string>(
  name: string,
  value: string | undefined,
  choices: readonly T[],
  fallback: T,
  synonyms: Readonly<Record<string, T>> = {},
): T {
  if (value === undefined) return fallback;
  if ((choices as readonly string[]).includes(value)) return value as T;
  if (Object.hasOwn(synonyms, value)) return synonyms[value] as T;
  throw new UsageError(`--${name} takes ${choices.map((choice) => JSON.stringify(choice)).join(' or ')}, got ${describeValue(value)}`);
}
