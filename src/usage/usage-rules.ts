/**
 * One agent's Content-Usage and Content-Signal lines, compiled: what AgentRules.usage() answers from.
 *
 * Each source is decided on its own, then the two combine (draft-ietf-aipref-vocab-07 §5.1: statements made
 * by different methods). Within a source (draft-ietf-aipref-attach-05 §3.1):
 * - the longest matching path decides, matched as Allow and Disallow patterns are (RFC 9309 §2.2.2, the
 *   profile's percent-normalisation, `*` and `$`); a line without a path matches every path with length 0;
 * - lines with the same path (after normalisation) are one statement, their readings combined;
 * - two different paths of the same length can both match only through `*`: their readings combine too.
 *
 * The paths are compiled into a ruleset of the same bytecode the Allow and Disallow rules use, run by the
 * same matcher (a second ruleset kind, not a second matcher): the first rule in the table's order that
 * matches is the answer. Ordered longest first, the first match is in the longest matching length. Where a
 * length holds two paths that say different things and one has a `*` (both could match), one ordering cannot
 * combine them, so the source is compiled once per order its purposes need, each ordered most restrictive
 * first within such a length (purposes whose orders agree share one): the first match is then each of its
 * purposes' combined preference, still in linear time on hostile files.
 *
 * The verdict was asked just before of the same input (AgentRules.usage()), so each usage ruleset reads it
 * where that query wrote it (LoadedRuleset.queryAgain): a usage answer costs a verdict and a rule search.
 *
 * Answers are frozen and interned: every URL with the same deciding lines gets the same object, so that a
 * compiled answer allocates nothing.
 */
import { packPatterns, writeBytecode } from '../compile/bytecode.js';
import { percentNormalize } from '../compile/normalize.js';
import type { LoadedRuleset, MatcherBackend, QueryFlags } from '../engine/backend.js';
import type { Profile } from '../profile.js';
import { STAR } from '../bytes.js';
import { ALL_UNKNOWN, combineReadings, type UsagePreference, type UsagePurpose, type UsageReading, type UsageSource } from './statement.js';
import type { UsageRecord, UsageStatement } from './usage-record.js';

/** What usage() answers for a URL that may be crawled: a preference per purpose, and the lines that decided. */
export interface UsagePreferences extends UsageReading {
  /**
   * The deciding lines, in file order; empty when no line applies. Per source, every line of the longest
   * matching path (all the path-less lines when no path matches); where two different paths of that length
   * match (through `*`), the lines of the path that decided each purpose.
   */
  readonly statements: readonly UsageStatement[];
}

/** What usage() answers where no line speaks: every purpose unknown. */
export const NO_PREFERENCES: UsagePreferences = Object.freeze({ ...ALL_UNKNOWN, statements: Object.freeze([]) });

/** Rulesets of up to this many paths are scanned rule by rule; more are indexed (AgentRules.SCAN_TIER_CHECKS's measurements). */
const SCAN_MAX_PATHS = 16;

/** Distinct answers kept per agent; past it (a hostile file's combinations) answers are made afresh. */
const MAX_INTERNED = 4096;

/** Decision ids below this key answers exactly (two ids in one safe integer). */
const ID_LIMIT = 2 ** 26;

/** The purposes each source speaks of. */
const PURPOSES_OF: Readonly<Record<UsageSource, readonly UsagePurpose[]>> = {
  'content-usage': ['train-ai', 'search'],
  'content-signal': ['train-ai', 'search', 'ai-input'],
};

/** Order of restriction within a length, for a purpose's ruleset: the first match is the combined preference. */
const RESTRICTION: Readonly<Record<UsagePreference, number>> = { disallow: 0, allow: 1, unknown: 2 };

/** What one source says of a URL: a reading and the lines that made it; `id` interns the answers. */
interface Decision {
  readonly id: number;
  readonly reading: UsageReading;
  readonly statements: readonly UsageStatement[];
}

/** One normalized path of a source and every line that gave it. */
interface SourcePath {
  readonly bytes: Uint8Array;
  readonly wildcard: boolean;
  readonly decision: Decision;
}

function combineAll(statements: readonly UsageStatement[]): UsageReading {
  return statements.reduce<UsageReading>((reading, statement) => combineReadings(reading, statement.reading), ALL_UNKNOWN);
}

function byLine(a: UsageStatement, b: UsageStatement): number {
  return a.line - b.line;
}

/**
 * The lengths at which two paths could both match a path (only through a `*`) and say different things: where
 * the first match in one order is not every purpose's combined preference.
 */
function ambiguousLengths(paths: readonly SourcePath[]): Set<number> {
  const byLength = new Map<number, SourcePath[]>();
  for (const path of paths) {
    const group = byLength.get(path.bytes.length);
    if (group === undefined) byLength.set(path.bytes.length, [path]);
    else group.push(path);
  }
  const lengths = new Set<number>();
  for (const [length, group] of byLength) {
    const first = group[0] as SourcePath;
    // Readings are interned (src/usage/statement.ts): the same reading is the same object.
    if (group.some((path) => path.wildcard) && group.some((path) => path.decision.reading !== first.decision.reading)) lengths.add(length);
  }
  return lengths;
}

/**
 * The paths in the order a ruleset lists them: longest first; within an ambiguous length, most restrictive for
 * `purpose` first; then the first line.
 */
function ordered(paths: readonly SourcePath[], purpose: UsagePurpose | undefined, ambiguous: ReadonlySet<number>): SourcePath[] {
  const restriction = (path: SourcePath): number =>
    purpose === undefined || !ambiguous.has(path.bytes.length) ? 0 : RESTRICTION[path.decision.reading[purpose]];
  return [...paths].sort(
    (a, b) =>
      b.bytes.length - a.bytes.length ||
      restriction(a) - restriction(b) ||
      (a.decision.statements[0] as UsageStatement).line - (b.decision.statements[0] as UsageStatement).line,
  );
}

function sameOrder(a: readonly SourcePath[], b: readonly SourcePath[]): boolean {
  return a.every((path, i) => path === b[i]);
}

/** One source's lines, compiled. */
class SourceRules {
  /** The answer where no path matches: the path-less lines combined, or nothing. */
  private readonly fallback: Decision;
  /**
   * One ruleset whose match is the decision, or (ambiguous lengths) one per order the purposes need: each
   * answers for its `purposes`.
   */
  private readonly rulesets: LoadedRuleset[] = [];
  /** Per ruleset, its paths in table order. */
  private readonly tables: SourcePath[][] = [];
  /** Per ruleset, the purposes it answers for; undefined when one ruleset answers for all. */
  private readonly purposes: UsagePurpose[][] | undefined;
  /** Decisions per-purpose matches made, by the matches' key. */
  private readonly combined = new Map<number, Decision>();

  constructor(
    source: UsageSource,
    records: readonly UsageRecord[],
    profile: Profile,
    backend: MatcherBackend,
    private readonly ids: { next: number },
  ) {
    const pathless = records.filter((record) => record.path.length === 0).map((record) => record.statement);
    this.fallback = this.decision(pathless);
    const byPath = new Map<string, { bytes: Uint8Array; statements: UsageStatement[] }>();
    for (const record of records) {
      if (record.path.length === 0) continue;
      const bytes = percentNormalize(record.path, profile.normalizeUrl);
      const key = Array.prototype.join.call(bytes, ',');
      const entry = byPath.get(key);
      if (entry === undefined) byPath.set(key, { bytes, statements: [record.statement] });
      else entry.statements.push(record.statement);
    }
    const paths = [...byPath.values()].map(({ bytes, statements }) => ({
      bytes,
      wildcard: bytes.includes(STAR),
      decision: this.decision(statements),
    }));
    if (paths.length === 0) return;
    const ambiguous = ambiguousLengths(paths);
    const orders: { table: SourcePath[]; purposes: UsagePurpose[] }[] = [];
    for (const purpose of ambiguous.size === 0 ? [undefined] : PURPOSES_OF[source]) {
      const table = ordered(paths, purpose, ambiguous);
      const same = orders.find((order) => sameOrder(order.table, table));
      if (same !== undefined) same.purposes.push(purpose as UsagePurpose);
      else orders.push({ table, purposes: purpose === undefined ? [] : [purpose] });
    }
    // One order serves every purpose: its first match is each purpose's answer.
    this.purposes = orders.length > 1 ? orders.map((order) => order.purposes) : undefined;
    const options = {
      normalizeUrl: profile.normalizeUrl,
      robotsTxtAllowed: false,
      pathEndsAtNul: profile.pathEndsAtNul,
      tier: paths.length > SCAN_MAX_PATHS ? ('indexed' as const) : ('scan' as const),
    };
    for (const { table } of orders) {
      this.tables.push(table);
      // Every rule a disallow: the table's order alone decides, and the verdict bit is never read.
      this.rulesets.push(backend.load(writeBytecode(packPatterns(table.map((path) => ({ allow: false, pattern: path.bytes }))), options)));
    }
  }

  private decision(statements: readonly UsageStatement[]): Decision {
    const sorted = Object.freeze([...statements].sort(byLine));
    return { id: this.ids.next++, reading: combineAll(sorted), statements: sorted };
  }

  /** The path at `index` of ruleset `ruleset`'s table. */
  private pathAt(ruleset: number, index: number): SourcePath {
    return (this.tables[ruleset] as SourcePath[])[index] as SourcePath;
  }

  /** What this source says of `input` (read as `flags` say, QueryFlags). */
  decide(input: string, flags: QueryFlags): Decision {
    const { rulesets, tables, purposes } = this;
    if (purposes === undefined) {
      if (rulesets.length === 0) return this.fallback;
      const index = (rulesets[0] as LoadedRuleset).queryAgain(input, flags);
      return index < 0 ? this.fallback : this.pathAt(0, index).decision;
    }
    // One match per purpose: a key of their indexes (each < paths + 1) finds the combination made before.
    const size = (tables[0] as SourcePath[]).length + 1;
    let key = 0;
    for (let p = 0; p < rulesets.length; p++) {
      const index = (rulesets[p] as LoadedRuleset).queryAgain(input, flags);
      key = key * size + (index < 0 ? 0 : this.pathAt(p, index).decision.id - this.fallback.id);
    }
    return this.combined.get(key) ?? this.combine(input, flags, key);
  }

  /** The decision of per-purpose matches: each purpose from its own match, the deciding lines of all. */
  private combine(input: string, flags: QueryFlags, key: number): Decision {
    const reading: Record<UsagePurpose, UsagePreference> = { ...ALL_UNKNOWN };
    const statements = new Set<UsageStatement>();
    this.rulesets.forEach((ruleset, r) => {
      const index = ruleset.queryAgain(input, flags);
      const decision = index < 0 ? this.fallback : this.pathAt(r, index).decision;
      for (const purpose of (this.purposes as UsagePurpose[][])[r] as UsagePurpose[]) reading[purpose] = decision.reading[purpose];
      for (const statement of decision.statements) statements.add(statement);
    });
    const decision: Decision = {
      id: this.ids.next++,
      reading: Object.freeze(reading),
      statements: Object.freeze([...statements].sort(byLine)),
    };
    if (this.combined.size < MAX_INTERNED) this.combined.set(key, decision);
    return decision;
  }

  get byteLength(): number {
    return this.rulesets.reduce((sum, ruleset) => sum + ruleset.byteLength, 0);
  }

  /** The rulesets this source compiled to, in the matcher (a cache counts what they share once). */
  get loaded(): readonly LoadedRuleset[] {
    return this.rulesets;
  }

  free(): void {
    for (const ruleset of this.rulesets) ruleset.free();
    this.rulesets.length = 0;
  }

  /** Whether the source answers the same for every path (no line has a path). */
  get constant(): boolean {
    return this.rulesets.length === 0;
  }
}

export class UsageRules {
  private readonly contentUsage: SourceRules;
  private readonly contentSignal: SourceRules;
  /** Answers by their decisions' ids. */
  private readonly answers = new Map<number, UsagePreferences>();
  /** The one answer when neither source has a path. */
  private readonly constantAnswer: UsagePreferences | undefined;

  /** The lines of the applicable groups, in file order; compiled into `backend`'s memory. */
  constructor(records: readonly UsageRecord[], profile: Profile, backend: MatcherBackend) {
    const ids = { next: 0 };
    this.contentUsage = new SourceRules(
      'content-usage',
      records.filter((r) => r.statement.source === 'content-usage'),
      profile,
      backend,
      ids,
    );
    this.contentSignal = new SourceRules(
      'content-signal',
      records.filter((r) => r.statement.source === 'content-signal'),
      profile,
      backend,
      ids,
    );
    if (this.contentUsage.constant && this.contentSignal.constant)
      this.constantAnswer = this.answerFor(this.contentUsage.decide('', 0), this.contentSignal.decide('', 0));
  }

  /** The preferences for `input` (read as `flags` say), which the caller found may be crawled. */
  answer(input: string, flags: QueryFlags): UsagePreferences {
    return this.constantAnswer ?? this.answerFor(this.contentUsage.decide(input, flags), this.contentSignal.decide(input, flags));
  }

  private answerFor(usage: Decision, signal: Decision): UsagePreferences {
    const key = signal.id < ID_LIMIT && usage.id < ID_LIMIT ? usage.id * ID_LIMIT + signal.id : -1;
    const known = key < 0 ? undefined : this.answers.get(key);
    if (known !== undefined) return known;
    const statements =
      usage.statements.length === 0
        ? signal.statements
        : signal.statements.length === 0
          ? usage.statements
          : [...usage.statements, ...signal.statements].sort(byLine);
    const answer: UsagePreferences =
      statements.length === 0
        ? NO_PREFERENCES
        : Object.freeze({ ...combineReadings(usage.reading, signal.reading), statements: Object.freeze(statements) });
    if (key >= 0 && this.answers.size < MAX_INTERNED) this.answers.set(key, answer);
    return answer;
  }

  /** Bytes the compiled paths hold in the matcher's memory. */
  get byteLength(): number {
    return this.contentUsage.byteLength + this.contentSignal.byteLength;
  }

  /** The rulesets both sources compiled to, in the matcher. */
  get loaded(): readonly LoadedRuleset[] {
    return [...this.contentUsage.loaded, ...this.contentSignal.loaded];
  }

  free(): void {
    this.contentUsage.free();
    this.contentSignal.free();
  }
}
