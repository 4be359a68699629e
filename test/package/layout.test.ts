/**
 * The layouts shared by the host and the WebAssembly module (docs/design.md#bytecode-and-layouts: one source, and a test that
 * compares both sides): the module exports its constants (assembly/layout.ts) as globals, and each must be
 * the one of src/layout.ts that the bytecode writer, the executor and the backends use; the backend checks
 * the same at load and refuses a module that differs. The work area is laid out by code on both sides (its
 * parts' sizes depend on the automaton), so the module's size of it is compared with the writer's.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { workAreaLayout } from '../../src/compile/bytecode.js';
import * as layout from '../../src/layout.js';
import { WasmBackend } from '../../src/engine/wasm-backend.js';
import { checkLayout, LayoutMismatchError, layoutMismatches } from '../../src/engine/wasm-layout.js';

const wasmModule = new WebAssembly.Module(readFileSync(new URL('../../build/matcher.wasm', import.meta.url)));

function instantiate(): WebAssembly.Instance {
  return new WebAssembly.Instance(wasmModule, {});
}

/** The module's exports with `name` replaced (or removed, for undefined): a module built from drifted sources. */
function drifted(name: string, value: number | undefined): WebAssembly.Exports {
  const exports: WebAssembly.Exports = { ...instantiate().exports };
  if (value === undefined) delete exports[name];
  else exports[name] = new WebAssembly.Global({ value: 'i32', mutable: false }, value);
  return exports;
}

describe('the layout the host and the WebAssembly module share', () => {
  it('is exported by the module constant for constant, with the values src/layout.ts holds', () => {
    const { exports } = instantiate();
    const exportedGlobals = Object.keys(exports)
      .filter((name) => exports[name] instanceof WebAssembly.Global)
      .sort();
    // Every constant of either side has its counterpart: none was added to one file only.
    expect(exportedGlobals).toEqual(Object.keys(layout).sort());
    expect(layoutMismatches(exports)).toEqual([]);
    expect(() => checkLayout(exports)).not.toThrow();
  });

  it('reads a word with its top bit set the same on both sides (a wasm i32 reads back signed)', () => {
    const { exports } = instantiate();
    const noVerdict = exports.NO_VERDICT;
    expect(noVerdict).toBeInstanceOf(WebAssembly.Global);
    expect(layout.NO_VERDICT).toBe(0xffffffff);
    expect(layoutMismatches(exports).some((mismatch) => mismatch.startsWith('NO_VERDICT'))).toBe(false);
  });

  it('catches a constant that drifted on one side, naming it', () => {
    expect(layoutMismatches(drifted('HEADER_SIZE', layout.HEADER_SIZE + 4))).toEqual([
      `HEADER_SIZE is ${layout.HEADER_SIZE + 4}, expected ${layout.HEADER_SIZE}`,
    ]);
    expect(layoutMismatches(drifted('RULE_ALLOW', 2))).toEqual(['RULE_ALLOW is 2, expected 1']);
    expect(layoutMismatches(drifted('STATE_SIZE', undefined))).toEqual(['STATE_SIZE is not exported']);
    expect(() => checkLayout(drifted('RECORD_SIZE', 28))).toThrow(LayoutMismatchError);
  });

  it('names the first few differences of a module that shares none of the layout, and counts the rest', () => {
    const names = Object.keys(layout);
    expect(layoutMismatches({})).toHaveLength(names.length);
    expect(() => checkLayout({})).toThrow(`${names[4]} is not exported; and ${names.length - 5} more)`);
  });

  it('is checked when the backend loads a module: a drifted one is refused with what differs and what to do', () => {
    const olderMagic = 0x32425452; // "RTB2"
    const instance = { exports: drifted('BYTECODE_MAGIC', olderMagic) } as WebAssembly.Instance;
    expect(() => new WasmBackend(instance)).toThrow(LayoutMismatchError);
    expect(() => new WasmBackend(instance)).toThrow(`(BYTECODE_MAGIC is ${olderMagic}, expected ${layout.BYTECODE_MAGIC}): rebuild it`);
    expect(() => new WasmBackend(instantiate())).not.toThrow();
  });

  it('sizes the work area of an automaton as the bytecode writer does (AUTOMATON_WORK_BYTES is what the module uses)', () => {
    const { exports } = instantiate();
    const workAreaBytes = exports.workAreaBytes;
    if (typeof workAreaBytes !== 'function') throw new TypeError('the matcher exports no workAreaBytes');
    const counts = [0, 1, 2, 3, 7, 100, 4095, 65_534];
    for (const ruleCount of counts) {
      for (const pieceCount of counts) {
        for (const deepCount of counts) {
          for (const wheelSize of [1, 16, 1024]) {
            const expected = workAreaLayout(ruleCount, pieceCount, wheelSize, deepCount).bytes;
            expect(
              workAreaBytes(ruleCount, pieceCount, wheelSize, deepCount),
              `${ruleCount}, ${pieceCount}, ${wheelSize}, ${deepCount}`,
            ).toBe(expected);
          }
        }
      }
    }
  });
});
