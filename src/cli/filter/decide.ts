/**
 * One batch of whole lines → the bytes `filter` writes for it, and what it counted. The same code runs in
 * the main thread (`--workers 1`) and in each worker thread, so that the output is byte-identical whatever
 * the number of workers: a batch's output depends on its lines, its first line's number and the robots files
 * alone.
 *
 * A line is decided as written, exactly as `rules.isAllowed(url)` reads a string (the URL read as UTF-8).
 * `--format text` writes the chosen lines unchanged (their line ending included; a last line without one gets
 * `\n`); tsv, jsonl and csv write one record per line instead (./record.ts). With --purpose, a line whose URL
 * may be crawled is kept as its usage preference says (./purpose.ts).
 */
import type { AgentRules } from '../library.js';
import type { FilterSettings } from './options.js';
import { isRules, type HostRules, type RobotsSource } from './robots-source.js';
import { joined } from './joined.js';
import { emptyField, readUrlField } from './url-field.js';
import { decideLine, hostsOf, noDecision, rulesOfField, type BatchResult, type Decision, type Verdict } from './line-verdict.js';
import { asksEachLine } from './purpose.js';
import { droppedBy } from './usage-filter.js';
import { noReasons, reasonOf, type Reason } from './reason.js';
import { writeRecord, type LineRecord, type RecordFormat } from './record.js';
import { lineScannerFor, scanBatch } from './scanned.js';
import type { SharedRulesetCache } from './shared-rulesets.js';
import { CR, LF } from '../../bytes.js';
import { VERDICT_ALLOWED, VERDICT_DISALLOWED, VERDICT_MALFORMED } from '../../layout.js';

export type { BatchResult } from './line-verdict.js';

const utf8 = new TextDecoder();
const encoder = new TextEncoder();

function wanted(verdict: Verdict, settings: FilterSettings): boolean {
  return settings.emit === 'all' || verdict === settings.emit;
}

/** Verdict codes of a batch's lines, before they are written: the line scanner's (VERDICT_*), by name. */
const VERDICT_NAMES = ['disallowed', 'allowed', 'malformed'] as const;

/** Lines of one host's rules whose URLs are byte ranges of the batch: decided together, in one crossing. */
interface RangeGroup {
  readonly rules: AgentRules;
  readonly lines: number[];
  readonly ranges: number[];
}

/**
 * Decides every line of `batch` (whole lines; the last may lack its newline only at the end of input), whose
 * first line is input line `firstLine` (1-based; what records number their lines from), in two passes: the
 * lines are read and grouped by their host's rules, each group decided through the bytes entry
 * (rules.isAllowedBytes), and then written in order. A line whose URL had to be decoded (a JSON field), or
 * whose rule is shown (tsv, jsonl, csv), is decided on its own through the string API. `shared`: the rulesets
 * the threads of --workers N share (./shared-rulesets.ts), which the line scanner's path uses.
 */
export function decideBatch(
  batch: Uint8Array,
  settings: FilterSettings,
  source: RobotsSource,
  firstLine: number,
  shared?: SharedRulesetCache,
): BatchResult {
  const scanner = lineScannerFor(settings);
  return scanner === undefined ? decideLineByLine(batch, settings, source, firstLine) : scanBatch(batch, settings, source, scanner, shared);
}

/** What a line of the batch came to: its bytes, its verdict and, for records, what it shows. */
interface LineOutcome {
  /** Where it starts, where its content ends (before CR LF), where the next starts. */
  readonly start: number;
  readonly end: number;
  readonly next: number;
  verdict: number;
  reason: Reason;
  shown: (Decision & { url: string; urlBytes: Uint8Array }) | undefined;
}

/** decideBatch where the line scanner does not serve: records, JSON or access log lines, no WebAssembly. */
function decideLineByLine(batch: Uint8Array, settings: FilterSettings, source: RobotsSource, firstLine: number): BatchResult {
  const field = emptyField();
  const decision = noDecision();
  const explain = settings.output !== 'text';
  // With --purpose, a line of rules without usage lines that may be crawled has an unknown preference.
  const unknownDropped = settings.usage === undefined ? undefined : droppedBy('unknown', settings.usage);
  const groups = new Map<AgentRules, RangeGroup>();
  /** Each host's rules, looked up once per batch; its keys are the hosts the batch names. */
  const hostRules = new Map<string, HostRules>();
  const lines: LineOutcome[] = [];

  for (let start = 0; start < batch.length;) {
    const newline = batch.indexOf(LF, start);
    const next = newline < 0 ? batch.length : newline + 1;
    let end = newline < 0 ? batch.length : newline;
    if (end > start && batch[end - 1] === CR) end--;
    const line: LineOutcome = { start, end, next, verdict: VERDICT_MALFORMED, reason: 'malformed', shown: undefined };
    lines.push(line);
    start = next;
    if (!readUrlField(batch, line.start, end, settings.shape, source.needsHost, field)) continue;
    const rules = rulesOfField(field, source, hostRules);
    line.reason = reasonOf(rules);
    if (!explain && field.text === undefined && isRules(rules) && !asksEachLine(rules, settings.usage)) {
      let group = groups.get(rules);
      if (group === undefined) groups.set(rules, (group = { rules, lines: [], ranges: [] }));
      group.lines.push(lines.length - 1);
      group.ranges.push(field.start, field.end);
      continue;
    }
    const urlBytes = field.text === undefined ? batch.subarray(field.start, field.end) : encoder.encode(field.text);
    const url = field.text ?? utf8.decode(urlBytes);
    decideLine(rules, url, settings, explain, decision);
    line.verdict = decision.verdict === 'allowed' ? VERDICT_ALLOWED : VERDICT_DISALLOWED;
    if (decision.dropped !== undefined) line.reason = decision.dropped;
    if (explain) line.shown = { ...decision, url, urlBytes };
  }

  for (const group of groups.values()) {
    const out = group.rules.isAllowedBytes(batch, Uint32Array.from(group.ranges));
    for (let i = 0; i < group.lines.length; i++) {
      const line = lines[group.lines[i] as number] as LineOutcome;
      line.verdict = out[i] as number;
      if (line.verdict === VERDICT_ALLOWED && unknownDropped !== undefined) {
        line.verdict = VERDICT_DISALLOWED;
        line.reason = unknownDropped;
      }
    }
  }

  const parts: Uint8Array[] = [];
  const reasons = noReasons();
  let allowed = 0;
  let disallowed = 0;
  let malformed = 0;
  let firstMalformed = -1;
  // A run of lines copied as they are: one part instead of one per line.
  let runStart = -1;
  let runEnd = -1;
  const flushRun = (): void => {
    if (runStart >= 0) parts.push(batch.subarray(runStart, runEnd));
    runStart = -1;
  };
  lines.forEach((line, index) => {
    const { verdict, start, end, next } = line;
    if (verdict === VERDICT_ALLOWED) allowed++;
    else if (verdict === VERDICT_DISALLOWED) disallowed++;
    else {
      malformed++;
      if (firstMalformed < 0) firstMalformed = index;
    }
    reasons[line.reason]++;
    const name = VERDICT_NAMES[verdict] as Verdict;
    if (!wanted(name, settings)) {
      flushRun();
      return;
    }
    if (settings.output !== 'text') {
      flushRun();
      writeRecord(settings.output, recordOf(line, name, firstLine + index, batch.subarray(start, end), settings), parts);
    } else if (batch[next - 1] !== LF) {
      flushRun();
      parts.push(batch.subarray(start, end), Uint8Array.of(LF));
    } else {
      if (runStart < 0) runStart = start;
      runEnd = next;
    }
  });
  flushRun();
  return {
    output: joined(parts),
    lines: lines.length,
    allowed,
    disallowed,
    malformed,
    reasons,
    firstMalformed,
    ...hostsOf(hostRules),
    fileEvents: source.takeEvents(),
  };
}

/** A line's record: `text` is the raw line when it is malformed or the URL is one part of it. */
function recordOf(line: LineOutcome, verdict: Verdict, n: number, raw: Uint8Array, settings: FilterSettings): LineRecord {
  const { shown } = line;
  const whole = settings.shape.kind === 'line';
  return {
    n,
    url: shown?.url ?? null,
    urlBytes: shown?.urlBytes ?? null,
    verdict,
    reason: line.reason,
    rule: shown?.rule ?? null,
    text: shown === undefined || !whole ? raw : null,
    usage: settings.usage === undefined ? undefined : (shown?.usage ?? null),
  };
}
