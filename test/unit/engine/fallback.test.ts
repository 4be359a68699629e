/**
 * No silent fallback (docs/design.md#platforms): where the WebAssembly matcher cannot load, the TypeScript executor answers
 * with the same verdicts, matcherInfo() says why, and one console.warn names the error once per process,
 * unless the caller chose the TypeScript executor. Each case loads the library afresh (its choice of
 * matcher is process state). The real case, Workers refusing to compile bytes, runs in workerd in
 * test/e2e/workers/workers.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Library = typeof import('../../../src/index.js') & typeof import('../../../src/engine/active-backend.js');

/** The platform-neutral library, given matcher bytes that are not WebAssembly. */
async function libraryWithBrokenMatcher(): Promise<Library> {
  vi.resetModules();
  const backend = await import('../../../src/engine/active-backend.js');
  backend.provideWasm(Uint8Array.of(0x00, 0x61, 0x73, 0x6d, 0xff, 0xff, 0xff, 0xff));
  return { ...(await import('../../../src/index.js')), ...backend };
}

let warn: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  warn.mockRestore();
});

describe('a WebAssembly matcher that cannot load', () => {
  it('leaves the TypeScript executor answering, says why in matcherInfo(), and warns once', async () => {
    const library = await libraryWithBrokenMatcher();
    for (let i = 0; i < 3; i++) {
      const robots = library.parseRobotsTxt('User-agent: *\nDisallow: /private/\n');
      expect(robots.isAllowed('/private/x', 'ExampleBot')).toBe(false);
      expect(robots.isAllowed('/public', 'ExampleBot')).toBe(true);
    }
    const info = library.matcherInfo();
    expect(info.kind).toBe('typescript');
    expect(info.reason).toMatch(/^the WebAssembly matcher could not load: CompileError: /);
    expect(info.error).toBeInstanceOf(WebAssembly.CompileError);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/could not load \(CompileError: .*\); the TypeScript executor answers instead/);
  });

  it('init() resolves to the matcher in use, and warns no more than once', async () => {
    const library = await libraryWithBrokenMatcher();
    await expect(library.init()).resolves.toBe('typescript');
    library.parseRobotsTxt('User-agent: *\nDisallow: /\n').forAgent('ExampleBot');
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('does not warn a caller who chose the TypeScript executor', async () => {
    const library = await libraryWithBrokenMatcher();
    expect(library.setMatcher('typescript')).toBe('typescript');
    library.parseRobotsTxt('User-agent: *\nDisallow: /\n').forAgent('ExampleBot').isAllowed('/x');
    expect(library.matcherInfo()).toEqual({ kind: 'typescript', wasmBytesInUse: 0, reason: "chosen with setMatcher('typescript')" });
    expect(warn).not.toHaveBeenCalled();
  });

  it('gives no reason while the WebAssembly matcher answers', async () => {
    vi.resetModules();
    const { matcherInfo } = await import('../../../src/platform/inline.js');
    expect(matcherInfo()).toEqual({ kind: 'wasm', wasmBytesInUse: expect.any(Number) });
    expect(warn).not.toHaveBeenCalled();
  });
});
