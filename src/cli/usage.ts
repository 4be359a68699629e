/**
 * What every subcommand shares: usage errors (exit 2, a message that says what was wrong and what to pass),
 * and reading options with node:util's parseArgs.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * Exit codes: 0 success; 1 a verdict a script branches on (`check`: something is disallowed; `lint`: an
 * error was found); 2 usage or input errors.
 */
export const EXIT_OK = 0;
export const EXIT_DISALLOWED = 1;
export const EXIT_LINT_ERRORS = 1;
/** `filter`: a run that found problems (--strict's malformed line, or mostly malformed lines). */
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

/** parseArgs, with its errors turned into UsageErrors that name the command's --help. */
export function readArguments<T extends OptionsConfig>(command: string, args: readonly string[], options: T) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)} (see robotstxt ${command} --help)`);
  }
}

/** A whole number ≥ `min` from option `name`, or a UsageError. */
export function wholeNumber(name: string, value: string | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < min || !/^\d+$/.test(value)) {
    throw new UsageError(`--${name} takes a whole number ≥ ${min}, got ${JSON.stringify(value)}`);
  }
  return number;
}

/** One of `choices` from option `name`, or a UsageError that lists them. */
export function oneOf<T extends string>(name: string, value: string | undefined, choices: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`--${name} takes ${choices.map((choice) => JSON.stringify(choice)).join(' or ')}, got ${JSON.stringify(value)}`);
}
