/**
 * Reads package-lock.json the way a clean `npm ci` needs it, offline, and lists what would break it or leave a
 * contributor on another platform without a package (it happened: hand-added entries without a version made
 * every `npm ci` fail with "Invalid Version"; a lock written on one platform drops the others' optional
 * packages, which `npm ci` there then refuses as out of sync).
 */

export interface LockEntry {
  readonly version?: string;
  readonly integrity?: string;
  readonly resolved?: string;
  readonly link?: boolean;
  readonly optional?: boolean;
  readonly dev?: boolean;
  readonly hasInstallScript?: boolean;
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  readonly name?: string;
}

export interface Lock {
  readonly name?: string;
  readonly version?: string;
  readonly lockfileVersion?: number;
  readonly packages?: Record<string, LockEntry>;
}

export interface Manifest {
  readonly name?: string;
  readonly version?: string;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly allowScripts?: Record<string, boolean>;
}

const DEPENDENCY_KINDS = ['dependencies', 'devDependencies', 'optionalDependencies'] as const;

/** The entry Node would load `name` from, for the package at `from` (its own node_modules, then its parents'). */
export function resolveEntry(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (candidate in packages) return candidate;
    if (base === '') return undefined;
    const parent = base.lastIndexOf('/node_modules/');
    base = parent < 0 ? '' : base.slice(0, parent);
  }
}

type Version = readonly [number, number, number];

function parseVersion(text: string): Version | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(text);
  return match === null ? undefined : [Number(match[1]), Number(match[2]), Number(match[3])];
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/**
 * Whether `version` is in `range`, for the forms package.json uses here: `1.2.3`, `1.2` / `1` (any patch /
 * minor), `^1.2.3`, `~1.2.3`. Anything else is reported as unreadable rather than guessed.
 */
export function satisfies(version: string, range: string): boolean | 'unreadable' {
  const have = parseVersion(version);
  const match = /^([\^~]?)(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  if (have === undefined || match === null) return 'unreadable';
  const [, operator, major, minor, patch] = match;
  const floor: Version = [Number(major), Number(minor ?? 0), Number(patch ?? 0)];
  if (compare(have, floor) < 0) return false;
  if (operator === '' && patch !== undefined) return compare(have, floor) === 0;
  if (operator === '' || operator === '~') {
    // 1.2 and ~1.2.3: the same minor; 1 and ~1: the same major.
    return have[0] === floor[0] && (minor === undefined || have[1] === floor[1]);
  }
  // Caret: the left-most non-zero part stays.
  if (floor[0] !== 0) return have[0] === floor[0];
  if (floor[1] !== 0 || patch === undefined) return have[0] === 0 && have[1] === floor[1];
  return compare(have, floor) === 0;
}

/** Every problem found, one sentence each; none for a sound lock file. */
export function lockProblems(lock: Lock, manifest: Manifest): string[] {
  const problems: string[] = [];
  const packages = lock.packages ?? {};
  if (lock.lockfileVersion === undefined || lock.lockfileVersion < 2)
    problems.push(`lockfileVersion ${lock.lockfileVersion}: npm 7 or later writes 2 or 3`);
  if (lock.name !== manifest.name || lock.version !== manifest.version)
    problems.push('the lock file names another package or version than package.json');

  const root = packages[''] ?? {};
  for (const kind of DEPENDENCY_KINDS) {
    const wanted = manifest[kind] ?? {};
    const locked = root[kind] ?? {};
    for (const name of new Set([...Object.keys(wanted), ...Object.keys(locked)])) {
      if (wanted[name] !== locked[name])
        problems.push(
          `${kind}.${name}: package.json asks ${wanted[name] ?? 'nothing'}, the lock file records ${locked[name] ?? 'nothing'}`,
        );
      const path = resolveEntry(packages, '', name);
      const version = path === undefined ? undefined : packages[path]?.version;
      if (wanted[name] === undefined) continue;
      if (version === undefined) {
        problems.push(`${name}: asked by package.json, not locked`);
        continue;
      }
      // An alias (`"redis-4": "npm:redis@^4.7.1"`, to test two majors of one package): the locked entry must be
      // that package, in that range.
      const alias = /^npm:((?:@[^/@]+\/)?[^@]+)@(.+)$/.exec(wanted[name]);
      if (alias !== null && packages[path as string]?.name !== alias[1])
        problems.push(
          `${name}: package.json asks for ${alias[1]}, the lock file holds ${packages[path as string]?.name ?? 'another package'}`,
        );
      const inRange = satisfies(version, alias?.[2] ?? wanted[name]);
      if (inRange === 'unreadable')
        problems.push(
          `${name}: the guard cannot read the range ${wanted[name]}; use x.y.z, x.y, ^x.y.z or ~x.y.z (or npm:name@ one of them)`,
        );
      else if (!inRange) problems.push(`${name}: locked at ${version}, outside package.json's ${wanted[name]}`);
    }
  }

  for (const [path, entry] of Object.entries(packages)) {
    if (path === '' || entry.link === true) continue;
    if (!path.startsWith('node_modules/') && !path.includes('/node_modules/')) continue;
    if (typeof entry.version !== 'string' || parseVersion(entry.version) === undefined) problems.push(`${path}: no version`);
    if (typeof entry.integrity !== 'string' || !/^sha(256|384|512)-/.test(entry.integrity)) problems.push(`${path}: no integrity`);
    if (entry.resolved !== undefined && /^[a-z]+:\/\//i.test(entry.resolved))
      problems.push(`${path}: resolved names a registry host (${new URL(entry.resolved).host}); the lock file names none`);
    for (const kind of ['dependencies', 'optionalDependencies'] as const) {
      for (const name of Object.keys(entry[kind] ?? {})) {
        if (resolveEntry(packages, path, name) === undefined) {
          problems.push(
            `${path}: its ${kind === 'optionalDependencies' ? 'optional dependency' : 'dependency'} ${name} has no entry (a lock written on one platform drops the others' packages)`,
          );
        }
      }
    }
  }
  return problems;
}

/** Locked packages with install scripts that package.json's allowScripts decides nothing about. */
export function undecidedInstallScripts(lock: Lock, manifest: Manifest): string[] {
  const decided = manifest.allowScripts ?? {};
  const undecided = new Set<string>();
  for (const [path, entry] of Object.entries(lock.packages ?? {})) {
    if (entry.hasInstallScript !== true || path === '') continue;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (!(name in decided)) undecided.add(name);
  }
  return [...undecided];
}
