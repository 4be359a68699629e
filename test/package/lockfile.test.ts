/**
 * The lock file a fresh clone installs from: `npm ci` with the npm of Node 20 (10.8) and of today
 * (11) must accept it, on any platform. Checked offline, on every `npm test`: each locked package has its
 * version and integrity, each optional dependency (the other platforms' binaries) has an entry of its own,
 * the lock agrees with package.json's ranges, and every install script has a decision in `allowScripts`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lockProblems, satisfies, undecidedInstallScripts, type Lock, type LockEntry, type Manifest } from '../support/lockfile-check.js';

const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as Lock;
const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as Manifest;

/** A copy of the lock file with `change` made to its packages. */
function changed(change: (packages: Record<string, LockEntry>) => void): Lock {
  const copy = structuredClone(lock) as Lock & { packages: Record<string, LockEntry> };
  change(copy.packages);
  return copy;
}

describe('package-lock.json', () => {
  it('has a version and an integrity for every package, an entry for every optional one, and agrees with package.json', () => {
    expect(lockProblems(lock, manifest)).toEqual([]);
  });

  it("locks every platform's build of the packages that ship binaries (not only this machine's)", () => {
    const locked = Object.keys(lock.packages ?? {});
    for (const platform of ['darwin-arm64', 'win32-x64', 'linux-arm64']) {
      expect(locked, platform).toContain(`node_modules/@esbuild/${platform}`);
      expect(
        locked.some((path) => path.startsWith(`node_modules/@rollup/rollup-${platform}`)),
        platform,
      ).toBe(true);
    }
  });

  describe('the guard finds each way the lock file broke or can break', () => {
    it('an entry without a version (the hand-added rollup entries that made `npm ci` fail with "Invalid Version")', () => {
      const broken = changed((packages) => {
        packages['node_modules/rollup/node_modules/@rollup/rollup-android-arm64'] = { optional: true, dev: true };
      });
      expect(lockProblems(broken, manifest)).toEqual([
        'node_modules/rollup/node_modules/@rollup/rollup-android-arm64: no version',
        'node_modules/rollup/node_modules/@rollup/rollup-android-arm64: no integrity',
      ]);
    });

    it("another platform's optional package dropped (a lock written on one platform)", () => {
      const broken = changed((packages) => {
        delete packages['node_modules/@esbuild/darwin-arm64'];
      });
      expect(lockProblems(broken, manifest)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^node_modules\/esbuild: its optional dependency @esbuild\/darwin-arm64 has no entry/),
        ]),
      );
    });

    it('an integrity missing, and a registry host in resolved', () => {
      const broken = changed((packages) => {
        const { integrity: _, ...rest } = packages['node_modules/fast-check']!;
        packages['node_modules/fast-check'] = { ...rest, resolved: 'https://registry.example/fast-check/-/fast-check-4.0.0.tgz' };
      });
      expect(lockProblems(broken, manifest)).toEqual([
        'node_modules/fast-check: no integrity',
        'node_modules/fast-check: resolved names a registry host (registry.example); the lock file names none',
      ]);
    });

    it('a range in package.json that the lock file does not record, or that its locked version is outside of', () => {
      const asked = { ...manifest, devDependencies: { ...manifest.devDependencies, typescript: '4.9' } };
      expect(lockProblems(lock, asked)).toEqual([
        `devDependencies.typescript: package.json asks 4.9, the lock file records ${manifest.devDependencies?.typescript}`,
        expect.stringMatching(/^typescript: locked at 5\.9\.\d+, outside package\.json's 4\.9$/),
      ]);
      const added = { ...manifest, devDependencies: { ...manifest.devDependencies, 'left-pad': '^1.3.0' } };
      expect(lockProblems(lock, added)).toEqual([
        'devDependencies.left-pad: package.json asks ^1.3.0, the lock file records nothing',
        'left-pad: asked by package.json, not locked',
      ]);
    });

    it('an alias (a second major of a client, for its tests) locked as another package, or outside its range', () => {
      const asked = { ...manifest, devDependencies: { ...manifest.devDependencies, 'redis-4': 'npm:ioredis@^4.0.0' } };
      expect(lockProblems(lock, asked)).toEqual([
        `devDependencies.redis-4: package.json asks npm:ioredis@^4.0.0, the lock file records ${manifest.devDependencies?.['redis-4']}`,
        'redis-4: package.json asks for ioredis, the lock file holds redis',
      ]);
      const outside = { ...manifest, devDependencies: { ...manifest.devDependencies, 'redis-4': 'npm:redis@^5.0.0' } };
      expect(lockProblems(lock, outside)).toEqual([
        `devDependencies.redis-4: package.json asks npm:redis@^5.0.0, the lock file records ${manifest.devDependencies?.['redis-4']}`,
        expect.stringMatching(/^redis-4: locked at 4\.\d+\.\d+, outside package\.json's npm:redis@\^5\.0\.0$/),
      ]);
    });
  });

  it('reads the ranges package.json uses as npm does', () => {
    expect(satisfies('5.9.3', '5.9')).toBe(true);
    expect(satisfies('5.10.0', '5.9')).toBe(false);
    expect(satisfies('20.19.43', '^20.19.43')).toBe(true);
    expect(satisfies('20.30.1', '^20.19.43')).toBe(true);
    expect(satisfies('21.0.0', '^20.19.43')).toBe(false);
    expect(satisfies('20.19.42', '^20.19.43')).toBe(false);
    expect(satisfies('0.28.25', '^0.28.20')).toBe(true);
    expect(satisfies('0.29.0', '^0.28.20')).toBe(false);
    expect(satisfies('0.0.4', '^0.0.3')).toBe(false);
    expect(satisfies('1.2.9', '~1.2.3')).toBe(true);
    expect(satisfies('1.3.0', '~1.2.3')).toBe(false);
    expect(satisfies('4.20260426.0', '4.20260426.0')).toBe(true);
    expect(satisfies('4.20260426.1', '4.20260426.0')).toBe(false);
    expect(satisfies('1.0.0', '>=1 <2')).toBe('unreadable');
  });
});

describe("package.json's allowScripts", () => {
  it('decides about every locked package that has an install script, so installs are quiet now and work when npm skips unreviewed scripts', () => {
    expect(undecidedInstallScripts(lock, manifest)).toEqual([]);
  });

  it('holds name-only decisions, each about a locked package with an install script', () => {
    const withScripts = new Set(
      Object.entries(lock.packages ?? {})
        .filter(([, entry]) => entry.hasInstallScript === true)
        .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)),
    );
    for (const [name, allowed] of Object.entries(manifest.allowScripts ?? {})) {
      expect(name, 'a pinned entry is matched through `resolved`, which this lock file does not carry').not.toMatch(/.@/);
      expect(typeof allowed).toBe('boolean');
      expect(withScripts.has(name), `${name} has no install script in the lock file: remove its entry`).toBe(true);
    }
    const undecided = undecidedInstallScripts(
      changed((packages) => {
        packages['node_modules/fast-check'] = { ...packages['node_modules/fast-check']!, hasInstallScript: true };
      }),
      manifest,
    );
    expect(undecided).toEqual(['fast-check']);
  });
});
