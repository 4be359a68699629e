/**
 * test/support/system-tool.ts, the rule for suites that run a program of the system: found on PATH, it runs;
 * missing, the suite is skipped with a note that says how to install it, except under CI=true, where it fails.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { decide, findOnPath, MissingSystemToolError, systemTool, type SystemToolSpec } from './system-tool.js';

const work = mkdtempSync(join(tmpdir(), 'robotstxt-system-tool-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** An executable script `name` in `directory` that prints `version`. */
function program(directory: string, name: string, version: string, mode = 0o755): string {
  mkdirSync(join(work, directory), { recursive: true });
  const path = join(work, directory, name);
  writeFileSync(path, `#!/bin/sh\necho '${version}'\n`);
  chmodSync(path, mode);
  return path;
}

const PARALLEL: SystemToolSpec = { name: 'parallel', install: 'apt-get install -y parallel', version: /^GNU parallel/ };

describe('findOnPath', () => {
  it('finds the first executable file of that name, in PATH order', () => {
    const first = program('a', 'tool', '1');
    program('b', 'tool', '2');
    expect(findOnPath('tool', [join(work, 'a'), join(work, 'b')].join(delimiter))).toBe(first);
    expect(findOnPath('tool', [join(work, 'b'), join(work, 'a')].join(delimiter))).toBe(join(work, 'b', 'tool'));
  });

  it('passes over a file that is not executable, a directory of that name and relative entries', () => {
    program('plain', 'tool', '1', 0o644);
    mkdirSync(join(work, 'folder', 'tool'), { recursive: true });
    const found = program('c', 'tool', '3');
    const path = ['', '.', 'c', join(work, 'plain'), join(work, 'folder'), join(work, 'c')].join(delimiter);
    expect(findOnPath('tool', path)).toBe(found);
    expect(findOnPath('tool', [join(work, 'plain'), join(work, 'folder')].join(delimiter))).toBeUndefined();
    expect(findOnPath('tool', undefined)).toBeUndefined();
  });
});

describe('decide', () => {
  it('runs a program that was found, under CI or not', () => {
    expect(decide(PARALLEL, '/bin/parallel', {})).toEqual({ found: true, path: '/bin/parallel' });
    expect(decide(PARALLEL, '/bin/parallel', { CI: 'true' })).toEqual({ found: true, path: '/bin/parallel' });
  });

  it('skips with a note naming the install command where CI is not true', () => {
    for (const env of [{}, { CI: 'false' }, { CI: '' }]) {
      const decision = decide(PARALLEL, undefined, env);
      expect(decision.found).toBe(false);
      expect(decision.found ? '' : decision.note).toMatch(/^skipped: `parallel` is not on PATH.*: apt-get install -y parallel$/);
    }
  });

  it('fails under CI=true, naming the install command', () => {
    expect(() => decide(PARALLEL, undefined, { CI: 'true' })).toThrow(MissingSystemToolError);
    expect(() => decide(PARALLEL, undefined, { CI: 'true' })).toThrow(/CI=true needs it: apt-get install -y parallel/);
  });
});

describe('systemTool', () => {
  it("looks in the spec's directories before PATH, and names them in the note of a skip", () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const beside = program('beside', 'runtime', '1.0.0');
      program('system', 'runtime', '0.9.0');
      const spec = { name: 'runtime', install: 'npm install --prefix tools', directories: [join(work, 'beside')] };
      expect(systemTool(spec, { PATH: join(work, 'system') })).toEqual({ found: true, path: beside });
      const missing = { ...spec, directories: [join(work, 'empty')] };
      expect(systemTool(missing, { PATH: join(work, 'nowhere') })).toMatchObject({ found: false });
      expect(warn).toHaveBeenCalledWith(
        `skipped: \`runtime\` is not in ${join(work, 'empty')} or on PATH; to run these tests: npm install --prefix tools`,
      );
      const found = systemTool(missing, { PATH: join(work, 'system') });
      expect(found).toEqual({ found: true, path: join(work, 'system', 'runtime') });
    } finally {
      warn.mockRestore();
    }
  });

  it('takes a program of that name only when its --version matches, and shows the note of a skip', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      program('other', 'parallel', 'parallel from moreutils');
      expect(systemTool(PARALLEL, { PATH: join(work, 'other') })).toMatchObject({ found: false });
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/apt-get install -y parallel/));
      expect(() => systemTool(PARALLEL, { PATH: join(work, 'other'), CI: 'true' })).toThrow(MissingSystemToolError);
      const gnu = program('gnu', 'parallel', 'GNU parallel 20221122');
      expect(systemTool(PARALLEL, { PATH: [join(work, 'other'), join(work, 'gnu')].join(delimiter) })).toMatchObject({ found: false });
      expect(systemTool(PARALLEL, { PATH: join(work, 'gnu'), CI: 'true' })).toEqual({ found: true, path: gnu });
    } finally {
      warn.mockRestore();
    }
  });
});
