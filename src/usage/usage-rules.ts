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
 * length holds two paths and one has a `*` (both could match), one ordering cannot combine them, so the
 * source is compiled once per purpose, each ordered most restrictive first within a length: the first
 * match is then that purpose's combined preference, still in linear time on hostile files.
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

/** The paths in the order a ruleset lists them: longest first, then (for `purpose`) most restrictive, then first line. */
function ordered(paths: readonly SourcePath[], purpose: UsagePurpose | undefined): SourcePath[] {
  return [...paths].sort(
    (a, b) =>
      b.bytes.length - a.bytes.length ||
      (purpose === undefined ? 0 : RESTRICTION[a.decision.reading[purpose]] - RESTRICTION[b.decision.reading[purpose]]) ||
      (a.decision.statements[0] as UsageStatement).line - (b.decision.statements[0] as UsageStatement).line,
  );
}

/** Whether two paths of one length could both match a path: only through a `*`. */
function hasAmbiguousLength(paths: readonly SourcePath[]): boolean {
  const byLength = new Map<number, boolean>();
  for (const path of paths) {
    const length = path.bytes.length;
    const seen = byLength.get(length);
    if (seen !== undefined && (seen || path.wildcard)) return true;
    byLength.set(length, path.wildcard || (seen ?? false));
  }
  return false;
}

/** One source's lines, compiled. */
class SourceRules {
  /** The answer where no path matches: the path-less lines combined, or nothing. */
  private readonly fallback: Decision;
  /** One ruleset whose match is the decision, or (ambiguous lengths) one per purpose, in `purposes` order. */
  private readonly rulesets: LoadedRuleset[] = [];
  /** Per ruleset, its paths in table order. */
  private readonly tables: SourcePath[][] = [];
  private readonly purposes: readonly UsagePurpose[] | undefined;
  /** Decisions per-purpose matches made, by the matches' key. */
  private readonly combined = new Map<number, Decision>();

  constructor(
    private readonly source: UsageSource,
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
    this.purposes = hasAmbiguousLength(paths) ? PURPOSES_OF[source] : undefined;
    const options = {
      normalizeUrl: profile.normalizeUrl,
      robotsTxtAllowed: false,
      pathEndsAtNul: profile.pathEndsAtNul,
      tier: paths.length > SCAN_MAX_PATHS ? ('indexed' as const) : ('scan' as const),
    };
    for (const purpose of this.purposes ?? [undefined]) {
      const table = ordered(paths, purpose);
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
    this.rulesets.forEach((ruleset, p) => {
      const index = ruleset.queryAgain(input, flags);
      const decision = index < 0 ? this.fallback : this.pathAt(p, index).decision;
      const purpose = (this.purposes as readonly UsagePurpose[])[p] as UsagePurpose;
      reading[purpose] = decision.reading[purpose];
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

  free(): void {
    this.contentUsage.free();
    this.contentSignal.free();
  }
}
