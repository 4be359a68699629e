/**
 * What a documentation example imports once instrumented (test/support/docs/doc-examples.ts writes the calls):
 * `check` compares a statement's value with the value its result comment shows, and the process fails
 * when a comparison fails or never runs.
 *
 * This file is transpiled to an ES module next to the examples (it is run by plain `node`, without
 * vitest), so it imports nothing but Node's own modules.
 *
 * Comparison (`compare`), as documented in doc-examples.ts:
 * - primitives: the same value (`NaN` equals `NaN`, `0` equals `-0`);
 * - an array literal: an array (or a typed array such as Uint8Array) of the same length, element by element;
 * - an object literal: any object with the same own enumerable keys, value by value; a key whose value is
 *   `undefined` counts as absent (so `{ rule: undefined }` equals `{}`);
 * - `some({ … })` (an object literal written with `…`): at least these keys, value by value;
 * - `someItems([head], [tail])` (an array literal written with `…` between head and tail): at least
 *   head.length + tail.length elements, starting with `head` and ending with `tail`.
 */
import { inspect } from 'node:util';

const PARTIAL = Symbol('doc-example partial value');

/** An object literal written with `…`: `actual` needs at least these keys. */
interface SomeKeys {
  readonly [PARTIAL]: 'keys';
  readonly keys: Record<string, unknown>;
}
/** An array literal written with `…`: `actual` starts with `head` and ends with `tail`. */
interface SomeItems {
  readonly [PARTIAL]: 'items';
  readonly head: readonly unknown[];
  readonly tail: readonly unknown[];
}
type PartialValue = SomeKeys | SomeItems;

export function some(keys: Record<string, unknown>): SomeKeys {
  return { [PARTIAL]: 'keys', keys };
}

export function someItems(head: readonly unknown[], tail: readonly unknown[]): SomeItems {
  return { [PARTIAL]: 'items', head, tail };
}

function isPartial(value: unknown): value is PartialValue {
  return typeof value === 'object' && value !== null && PARTIAL in value;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function asItems(value: unknown): readonly unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) return Array.from(value as unknown as ArrayLike<unknown>);
  return undefined;
}

function show(value: unknown): string {
  if (isPartial(value)) {
    if (value[PARTIAL] === 'keys') return `${show(value.keys).replace(/ ?}$/, '')}, … }`;
    return `[${[...value.head.map(show), '…', ...value.tail.map(show)].join(', ')}]`;
  }
  return inspect(value, { depth: 8, breakLength: 120 });
}

function key(path: string, name: string | number): string {
  return typeof name === 'number'
    ? `${path}[${name}]`
    : /^[A-Za-z_$][\w$]*$/.test(name)
      ? `${path}.${name}`
      : `${path}[${JSON.stringify(name)}]`;
}

/**
 * Where `actual` first differs from `expected` and how, or undefined when it matches.
 * `path` names the place: `value`, `value.source.status`, `value[2]`.
 */
export function compare(expected: unknown, actual: unknown, path = 'value'): string | undefined {
  const differ = (): string => `${path}: expected ${show(expected)}, got ${show(actual)}`;
  if (isPartial(expected)) {
    if (expected[PARTIAL] === 'keys') {
      if (!isPlainRecord(actual)) return differ();
      for (const [name, value] of Object.entries(expected.keys)) {
        const found = compare(value, (actual as Record<string, unknown>)[name], key(path, name));
        if (found !== undefined) return found;
      }
      return undefined;
    }
    const items = asItems(actual);
    const { head, tail } = expected;
    if (items === undefined || items.length < head.length + tail.length) return differ();
    for (let i = 0; i < head.length; i++) {
      const found = compare(head[i], items[i], key(path, i));
      if (found !== undefined) return found;
    }
    for (let i = 0; i < tail.length; i++) {
      const at = items.length - tail.length + i;
      const found = compare(tail[i], items[at], key(path, at));
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (Array.isArray(expected)) {
    const items = asItems(actual);
    if (items === undefined || items.length !== expected.length) return differ();
    for (let i = 0; i < expected.length; i++) {
      const found = compare(expected[i], items[i], key(path, i));
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (isPlainRecord(expected)) {
    if (!isPlainRecord(actual) || asItems(actual) !== undefined) return differ();
    const names = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    for (const name of names) {
      const found = compare(expected[name], (actual as Record<string, unknown>)[name], key(path, name));
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return Object.is(expected, actual) || expected === actual ? undefined : differ();
}

/** One result comment: where it is, the statement it belongs to, the value as written. */
export interface ResultEntry {
  readonly where: string;
  readonly statement: string;
  readonly value: string;
}

let table: readonly ResultEntry[] = [];
const ran = new Set<number>();
const failures: string[] = [];

/** Records the example's result comments; the instrumented module calls it first. */
export function results(entries: readonly ResultEntry[]): void {
  table = entries;
  process.on('exit', report);
}

/** Compares result `id` with `actual`; returns `actual` so that `const x = check(…)` keeps its value. */
export function check<T>(id: number, actual: T, expected: unknown): T {
  ran.add(id);
  const mismatch = compare(expected, actual);
  if (mismatch === undefined) return actual;
  const entry = table[id];
  const hint =
    typeof (actual as { then?: unknown } | null)?.then === 'function'
      ? '\n  (the value is a Promise: does the statement need `await`?)'
      : '';
  const message = [
    `result comment does not match at ${entry?.where ?? `#${id}`}`,
    `  statement: ${entry?.statement ?? '?'}`,
    `  comment:   ${entry?.value.replace(/\n/g, '\n             ') ?? '?'}`,
    `  actual:    ${show(actual).replace(/\n/g, '\n             ')}`,
    `  first difference: ${mismatch}${hint}`,
  ].join('\n');
  failures.push(message);
  const error = new Error(message);
  error.name = 'DocExampleAssertionError';
  Error.captureStackTrace(error, check); // the stack starts at the example's line
  throw error;
}

function report(code: number): void {
  // After a crash the crash says what went wrong; statements after it not running is no news.
  const unrun = code !== 0 ? [] : table.flatMap((entry, id) => (ran.has(id) ? [] : [`  ${entry.where}: ${entry.statement}`]));
  const lines: string[] = [];
  if (unrun.length > 0) lines.push(`result comments whose statement never ran:\n${unrun.join('\n')}`);
  // A failure the example itself caught (try/catch) must still fail the run.
  if (failures.length > 0 && code === 0) lines.push(...failures);
  if (lines.length > 0) {
    process.stderr.write(`${lines.join('\n')}\n`);
    process.exitCode = 1;
  }
  process.stdout.write(`doc-example: ${ran.size} of ${table.length} result comments checked\n`);
}
