/**
 * Which matcher answers: the WebAssembly one when the platform entry provided its module and the platform
 * can run it, else the TypeScript executor. Chosen on first use, synchronously; where synchronous
 * compilation is refused (browsers' main threads refuse modules over 4 KB), init() compiles
 * asynchronously, and until it has, the TypeScript executor answers.
 *
 * Never silently: where the WebAssembly matcher cannot load, matcherInfo() says why, and one console.warn
 * names the error once per process (a caller that chose the TypeScript executor is never warned).
 */
import { describeValue } from '../api/describe-value.js';
import { readRecords, type RecordReader } from '../parse/records.js';
import type { BackendKind, MatcherBackend } from './backend.js';
import { typescriptBackend } from './typescript-backend.js';
import type { Utf8WriterFactory } from './utf8-writer.js';
import { createWasmBackend, WasmBackend } from './wasm-backend.js';

let wasmSource: Uint8Array<ArrayBuffer> | WebAssembly.Module | undefined;
let utf8Writer: Utf8WriterFactory | undefined;
let wasmBackend: WasmBackend | undefined;
let wasmFailure: unknown;
let preferred: BackendKind = 'wasm';

/** Called by a platform entry (src/platform/) with the matcher's bytes or compiled module. */
export function provideWasm(source: Uint8Array<ArrayBuffer> | WebAssembly.Module): void {
  wasmSource = source;
}

/**
 * Called by a platform entry whose runtime has a faster way than the hand-written loop to put a URL into
 * WebAssembly memory (src/engine/utf8-writer.ts); before the matcher loads.
 */
export function provideUtf8Writer(factory: Utf8WriterFactory): void {
  utf8Writer = factory;
}

function loadWasm(): WasmBackend | undefined {
  if (wasmBackend !== undefined || wasmFailure !== undefined || wasmSource === undefined) return wasmBackend;
  try {
    if (typeof WebAssembly === 'undefined') throw new Error('WebAssembly is not available');
    const module = wasmSource instanceof WebAssembly.Module ? wasmSource : new WebAssembly.Module(wasmSource);
    wasmBackend = createWasmBackend(module, utf8Writer);
  } catch (error) {
    failed(error);
  }
  return wasmBackend;
}

let warned = false;

function messageOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Records why the WebAssembly matcher did not load, and says so once per process. */
function failed(error: unknown): void {
  wasmFailure = error;
  if (warned) return;
  warned = true;
  console.warn(
    `robotstxt-wasm: the WebAssembly matcher could not load (${messageOf(error)}); the TypeScript executor answers ` +
      "instead, with the same verdicts, several times slower. In a browser's main thread, await init() before the " +
      'first parse; in Cloudflare Workers, import the package by its name so that the "workerd" export condition ' +
      "picks its Workers entry. setMatcher('typescript') chooses the TypeScript executor without this warning.",
  );
}

/**
 * Compiles and instantiates the WebAssembly module asynchronously. Optional in Node and Workers (the
 * module loads on first use there); in a browser's main thread, await it once before parsing.
 * Resolves to the matcher kind in use.
 *
 * @example
 * await init(); // 'wasm'
 */
export async function init(): Promise<BackendKind> {
  if (wasmBackend === undefined && wasmSource !== undefined && typeof WebAssembly !== 'undefined') {
    try {
      const module = wasmSource instanceof WebAssembly.Module ? wasmSource : await WebAssembly.compile(wasmSource);
      wasmBackend ??= new WasmBackend(await WebAssembly.instantiate(module, {}), utf8Writer);
      wasmFailure = undefined;
    } catch (error) {
      failed(error);
    }
  }
  return currentBackend().kind;
}

/** The matcher that compiles from now on. */
export function currentBackend(): MatcherBackend {
  return (preferred === 'wasm' ? loadWasm() : undefined) ?? typescriptBackend;
}

/**
 * Chooses the matcher for rulesets compiled from now on; already compiled ones keep theirs.
 * Returns the kind now in use: asking for 'wasm' where it cannot run gives 'typescript'.
 * Anything but 'wasm' or 'typescript' is a RangeError and changes nothing: a typo must not fall silently to
 * the slower executor.
 *
 * @example
 * setMatcher('typescript'); // the reference executor, e.g. to compare verdicts
 */
export function setMatcher(kind: BackendKind): BackendKind {
  if (kind !== 'wasm' && kind !== 'typescript') {
    throw new RangeError(`setMatcher takes 'wasm' or 'typescript', got ${describeValue(kind, 40)}`);
  }
  preferred = kind;
  return currentBackend().kind;
}

/** The record reader that goes with the current matcher: the WebAssembly lexer, or the TypeScript one. */
export function currentRecordReader(): RecordReader {
  return (preferred === 'wasm' ? loadWasm()?.readRecords : undefined) ?? readRecords;
}

/** Which matcher compiles now, and how many bytes of WebAssembly memory compiled rules and buffers hold. */
export interface MatcherInfo {
  /** The matcher that answers: `'wasm'` or `'typescript'`. */
  readonly kind: BackendKind;
  /** 0 while WebAssembly is unused. */
  readonly wasmBytesInUse: number;
  /** Why the TypeScript executor answers, when it does: chosen, or what kept WebAssembly from loading. */
  readonly reason?: string;
  /** The error that kept the WebAssembly matcher from loading, if one did. */
  readonly error?: unknown;
}

function fallbackReason(): string {
  if (preferred === 'typescript') return "chosen with setMatcher('typescript')";
  if (wasmFailure !== undefined) return `the WebAssembly matcher could not load: ${messageOf(wasmFailure)}`;
  return 'no WebAssembly matcher was provided: import the package by its name, not a file inside it';
}

/**
 * Which matcher compiles rules now (`kind`), why the TypeScript executor does when it does, and the bytes of
 * WebAssembly memory in use: for a health check, or a log line at start.
 *
 * @example
 * matcherInfo(); // { kind: 'wasm', … }
 * // wasmBytesInUse: the matcher's buffers, plus any compiled rules
 * matcherInfo().wasmBytesInUse > 0; // true
 */
export function matcherInfo(): MatcherInfo {
  const kind = currentBackend().kind;
  const wasmBytesInUse = wasmBackend?.bytesInUse ?? 0;
  if (kind === 'wasm') return { kind, wasmBytesInUse };
  return { kind, wasmBytesInUse, reason: fallbackReason(), ...(wasmFailure === undefined ? {} : { error: wasmFailure }) };
}
