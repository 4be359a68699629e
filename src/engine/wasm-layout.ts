/**
 * The check that the WebAssembly module reads what the host writes: the module exports its layout constants
 * (assembly/layout.ts) as globals, and each must equal the one of the same name in src/layout.ts, which the
 * bytecode writer, the executor and the backends use. Done once per instance, at load: a module built from
 * other sources would otherwise misread every ruleset, record and batch without a word.
 */
import * as layout from '../layout.js';

/** Mismatches the message names; a module of another version may differ in every constant. */
const NAMED_MISMATCHES = 5;

/** Thrown when a WebAssembly matcher module was built for another layout than this host's. */
export class LayoutMismatchError extends Error {
  constructor(readonly mismatches: readonly string[]) {
    const more = mismatches.length - NAMED_MISMATCHES;
    const named = mismatches.slice(0, NAMED_MISMATCHES).join('; ') + (more > 0 ? `; and ${more} more` : '');
    super(
      `the WebAssembly matcher was built for another layout than this library (${named}): ` +
        'rebuild it from this version (npm run build:wasm), or load the matcher.wasm shipped with this package',
    );
    this.name = 'LayoutMismatchError';
  }
}

/** Every layout constant of src/layout.ts that `exports` does not export with the same value, described. */
export function layoutMismatches(exports: WebAssembly.Exports): string[] {
  const mismatches: string[] = [];
  for (const [name, expected] of Object.entries(layout)) {
    const global = exports[name];
    if (!(global instanceof WebAssembly.Global)) {
      mismatches.push(`${name} is not exported`);
      continue;
    }
    // A wasm i32 reads back signed: 0xffffffff and -1 are the same word.
    const actual: unknown = global.value;
    if (typeof actual !== 'number' || actual >>> 0 !== expected >>> 0)
      mismatches.push(`${name} is ${String(actual)}, expected ${expected}`);
  }
  return mismatches;
}

/** Throws LayoutMismatchError unless `exports` agrees with src/layout.ts on every constant. */
export function checkLayout(exports: WebAssembly.Exports): void {
  const mismatches = layoutMismatches(exports);
  if (mismatches.length > 0) throw new LayoutMismatchError(mismatches);
}
