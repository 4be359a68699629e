/**
 * decideBatch's fast path, where the WebAssembly matcher runs and lines are written as they are (no rule
 * shown; a whole line or a field as the URL): the line scanner (src/cli/filter/line-scanner.ts) reads, decides,
 * counts and writes every line whose authority it has been taught, in one crossing per run of such lines.
 * It stops at any other line. At a host it does not know, the line is read here as decideBatch reads it
 * (readUrlField) to find the host's rules, the scanner is taught the authority, and it decides the line
 * itself; any other line is read and decided here exactly as decideBatch decides it (the string API). So
 * the scanner's verdicts are the string API's, and its output byte for byte decideBatch's
 * (test/unit/cli/line-scanner.test.ts).
 *
 * The scanner's table of hosts lives across batches (one per thread, for this thread's source of rules), so
 * a host is looked up and taught once, not once a batch: a batch names the hosts it taught. It holds
 * rulesets by address: the table is forgotten whenever the backend moved any ruleset (which happens once
 * rules the source's LRU evicted are collected), and rebuilt from the hosts met afterwards.
 */
import { currentBackend } from '../../engine/active-backend.js';
import {
  DELIMITER_SPACES,
  lineScannerOf,
  SCAN_ASK_HOST,
  SCAN_DONE,
  VALUE_DISALLOWED,
  VALUE_MALFORMED,
  VERDICT_ALLOWED,
  VERDICT_DISALLOWED,
  VERDICT_MALFORMED,
  type LineScanCounts,
  type LineScanner,
  type LineVerdict,
  type ScanStop,
} from './line-scanner.js';
import { WasmBackend } from '../../engine/wasm-backend.js';
import { decideLine, hostsOf, noDecision, rulesOfField, type BatchResult } from './line-verdict.js';
import type { FilterSettings, InputShape } from './options.js';
import { asksEachLine } from './purpose.js';
import { REASONS, noReasons, reasonOf, type ReasonCounts } from './reason.js';
import { isCut, isRules, rulesKey, type FileEvent, type HostReason, type HostRules, type RobotsSource } from './robots-source.js';
import type { SharedRulesetCache } from './shared-rulesets.js';
import { emptyField, MAX_URL_LINE_BYTES, readUrlField } from './url-field.js';
import { TAB } from '../../bytes.js';

const utf8 = new TextDecoder();

/** The scanner, when it serves these settings: the WebAssembly matcher answers, no rule is shown, a line or a field is the URL. */
export function lineScannerFor(settings: FilterSettings): LineScanner | undefined {
  if (settings.output !== 'text') return undefined;
  if (settings.shape.kind !== 'line' && settings.shape.kind !== 'field') return undefined;
  const backend = currentBackend();
  return backend instanceof WasmBackend ? lineScannerOf(backend) : undefined;
}

function fieldOf(shape: InputShape): { field: number; delimiter: number } {
  if (shape.kind !== 'field') return { field: 0, delimiter: 0 };
  const { field, delimiter } = shape;
  return { field, delimiter: delimiter === 'tab' ? TAB : delimiter === 'spaces' ? DELIMITER_SPACES : delimiter };
}

function emitMask(settings: FilterSettings): number {
  if (settings.emit === 'all') return (1 << VERDICT_ALLOWED) | (1 << VERDICT_DISALLOWED) | (1 << VERDICT_MALFORMED);
  return 1 << (settings.emit === 'allowed' ? VERDICT_ALLOWED : VERDICT_DISALLOWED);
}

/** The host outcomes' reasons, in the order of their constant values (VALUE_DISALLOWED + 2 × index, + 1 when allowed). */
const HOST_REASONS: readonly HostReason[] = ['missing', 'server-error', 'unreachable', 'refused', 'redirect-refused'];

/**
 * What the scanner is taught for a host's rules: a constant verdict that says why (which the scanner counts
 * by value), or the rules' address (0: it cannot hold them, or their lines' reason is `cut`, which the
 * scanner could not tell from `rule`: such lines are decided here). With --purpose, so are the lines whose
 * preference is asked of the rules (./purpose.ts), and, with --unknown drop, every line that may be crawled:
 * its preference (unknown, where no usage line speaks) drops it with a reason the scanner cannot count.
 */
function valueOf(rules: HostRules, settings: FilterSettings, scanner: LineScanner): number {
  const dropsUnknown = settings.usage?.unknown === 'drop';
  if (isRules(rules)) {
    if (isCut(rules) || dropsUnknown || asksEachLine(rules, settings.usage)) return 0;
    return scanner.addressOf(rules.loadedRuleset());
  }
  const allowed = rules === null ? settings.missing === 'allow' : rules.allowed;
  if (allowed && dropsUnknown) return 0;
  return VALUE_DISALLOWED + 2 * HOST_REASONS.indexOf(rules === null ? 'missing' : rules.reason) + (allowed ? 1 : 0);
}

/**
 * Lines counted by reason: those the scanner decided by a constant (counted by value), those decided here
 * (`forced`), and the rest, which a ruleset decided.
 */
function reasonsOf(counts: LineScanCounts, forced: ReasonCounts): ReasonCounts {
  const reasons = { ...forced };
  let constant = counts.byValue[VALUE_MALFORMED] as number;
  reasons.malformed += constant;
  HOST_REASONS.forEach((reason, index) => {
    const lines = (counts.byValue[VALUE_DISALLOWED + 2 * index] as number) + (counts.byValue[VALUE_DISALLOWED + 2 * index + 1] as number);
    reasons[reason] += lines;
    constant += lines;
  });
  let decidedHere = 0;
  for (const reason of REASONS) decidedHere += forced[reason];
  reasons.rule += counts.lines - constant - decidedHere;
  return reasons;
}

/**
 * Decides `batch` with the scanner. With `shared` (the threads of --workers N), a host another thread compiled is
 * taught from its published bytecode instead of being compiled again, and a host this thread compiles is
 * published, when the scanner alone decides its lines (its rules, not cut, no --purpose) and reading its file
 * met nothing to say (a fetch record, a cut): the thread that read it says that.
 */
export function scanBatch(
  batch: Uint8Array,
  settings: FilterSettings,
  source: RobotsSource,
  scanner: LineScanner,
  shared?: SharedRulesetCache,
): BatchResult {
  const sharing = shared !== undefined && source.needsHost && settings.usage === undefined ? shared : undefined;
  const backend = currentBackend();
  /** Hosts whose rules came from another thread: they have robots files, and are not in hostRules. */
  const sharedHosts = new Set<string>();
  /** The source's events, taken as each shared host is looked up, so that a lookup's own events are known. */
  const events: FileEvent[] = [];
  const field = emptyField();
  const decision = noDecision();
  const forced = noReasons();
  const hostRules = new Map<string, HostRules>();
  // A line that is a path names no host: malformed where hosts decide, else decided by the one file.
  const pathRules = source.needsHost ? undefined : source.rulesFor(undefined, undefined);
  scanner.begin(batch, { ...fieldOf(settings.shape), emit: emitMask(settings), maxLineBytes: MAX_URL_LINE_BYTES }, source);
  const setPathValue = (): void => scanner.setPathValue(pathRules === undefined ? VALUE_MALFORMED : valueOf(pathRules, settings, scanner));
  setPathValue();

  /** Whether the scanner was taught `value` for the authority it asked about (never with addresses gone stale). */
  const teach = (value: number): boolean => value !== 0 && !scanner.stale && scanner.remember(value);

  /** The verdict of the line the scanner stopped at, or undefined once its host is taught: the scanner decides it then. */
  const decideStop = (stop: ScanStop): LineVerdict | undefined => {
    const askedHost = stop === SCAN_ASK_HOST;
    if (!readUrlField(batch, scanner.position, scanner.stopEnd, settings.shape, source.needsHost, field)) {
      // Asked for a host, the line is malformed by its authority alone (readUrlField reads the rest as the scanner did).
      if (askedHost && teach(VALUE_MALFORMED)) return undefined;
      forced.malformed++;
      return VERDICT_MALFORMED;
    }
    const key = askedHost && sharing !== undefined && field.host !== undefined ? rulesKey(field.host, field.defaultPort) : undefined;
    if (sharing !== undefined && key !== undefined && !hostRules.has(key)) {
      const ruleset = sharing.rulesetFor(key, backend);
      if (ruleset !== undefined && teach(scanner.addressOf(ruleset))) {
        sharedHosts.add(field.host as string);
        return undefined;
      }
      for (const event of source.takeEvents()) events.push(event);
    }
    const rules = rulesOfField(field, source, hostRules);
    const value = askedHost ? valueOf(rules, settings, scanner) : 0;
    if (sharing !== undefined && key !== undefined && isRules(rules) && !isCut(rules)) {
      const met = source.takeEvents();
      for (const event of met) events.push(event);
      if (met.length === 0) sharing.publish(key, rules.loadedRuleset());
    }
    if (askedHost && teach(value)) return undefined;
    decideLine(rules, utf8.decode(batch.subarray(field.start, field.end)), settings, false, decision);
    forced[decision.dropped ?? reasonOf(rules)]++;
    return decision.verdict === 'allowed' ? VERDICT_ALLOWED : VERDICT_DISALLOWED;
  };

  for (;;) {
    if (scanner.stale) {
      scanner.forget();
      setPathValue();
      continue;
    }
    const stop = scanner.scan();
    if (stop === SCAN_DONE) break;
    const verdict = decideStop(stop);
    if (verdict !== undefined) scanner.force(verdict);
  }
  const counts = scanner.counts();
  const { lines, allowed, disallowed, malformed, firstMalformed } = counts;
  const reasons = reasonsOf(counts, forced);
  for (const event of source.takeEvents()) events.push(event);
  return {
    output: scanner.output(),
    lines,
    allowed,
    disallowed,
    malformed,
    firstMalformed,
    reasons,
    ...hostsOf(hostRules, sharedHosts),
    fileEvents: events,
  };
}
