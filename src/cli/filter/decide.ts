/**
 * One batch of whole lines → the bytes `filter` writes for it, and what it counted. The same code runs in
 * the main thread (`--workers 1`) and in each worker thread, so that the output is byte-identical whatever
 * the number of workers: a batch's output depends on its lines and the robots files alone.
 *
 * A line is decided as written, exactly as `rules.isAllowed(url)` reads a string (the URL read as UTF-8).
 * Lines are written unchanged (their line ending included; a last line without one gets `\n`); `--annotate`
 * writes each line's fields escaped (./tsv.ts) and appends TAB verdict TAB rule line TAB rule (escaped too);
 * `--output-format jsonl` writes one object per line instead, whose strings JSON escapes.
 */
import type { AgentRules } from '../library.js';
import type { FilterSettings } from './options.js';
import { isRules, type HostRules, type RobotsSource } from './robots-source.js';
import { joined } from './joined.js';
import { emptyField, readUrlField } from './url-field.js';
import { decideLine, hostsOf, rulesOfField, type BatchResult, type Decision, type Verdict } from './line-verdict.js';
import { noReasons, reasonOf } from './reason.js';
import { lineScannerFor, scanBatch } from './scanned.js';
import { keepsTabs, tsvField } from './tsv.js';

export type { BatchResult } from './line-verdict.js';

const NEWLINE = 0x0a;
const CR = 0x0d;
const utf8 = new TextDecoder();
const encoder = new TextEncoder();
const LINE_END = Uint8Array.of(NEWLINE);

function wanted(verdict: Verdict, settings: FilterSettings): boolean {
  return settings.emit === 'all' || verdict === settings.emit;
}

/** Verdict codes of a batch's lines, before they are written. */
const ALLOWED = 1;
const DISALLOWED = 0;
const MALFORMED = 2;
const VERDICT_NAMES = ['disallowed', 'allowed', 'malformed'] as const;

/** Lines of one host's rules whose URLs are byte ranges of the batch: decided together, in one crossing. */
interface RangeGroup {
  readonly rules: AgentRules;
  readonly lines: number[];
  readonly ranges: number[];
}

/**
 * Decides every line of `batch` (whole lines; the last may lack its newline only at the end of input), in
 * two passes: the lines are read and grouped by their host's rules, each group decided through the bytes
 * entry (rules.isAllowedBytes), and then written in order. A line whose URL had to be decoded (a JSON
 * field), or whose rule is shown (--annotate, jsonl), is decided on its own through the string API.
 */
export function decideBatch(batch: Uint8Array, settings: FilterSettings, source: RobotsSource): BatchResult {
  const scanner = lineScannerFor(settings);
  return scanner === undefined ? decideLineByLine(batch, settings, source) : scanBatch(batch, settings, source, scanner);
}

/** decideBatch where the line scanner does not serve: rules shown, JSON or access log lines, no WebAssembly. */
function decideLineByLine(batch: Uint8Array, settings: FilterSettings, source: RobotsSource): BatchResult {
  const field = emptyField();
  const decision: Decision = { verdict: 'malformed', ruleLine: 0, rule: '' };
  const explain = settings.output !== 'text';
  const groups = new Map<AgentRules, RangeGroup>();
  /** Each host's rules, looked up once per batch; its keys are the hosts the batch names. */
  const hostRules = new Map<string, HostRules>();
  // Per line: where it starts, where its content ends (before CR LF), where the next starts; its verdict.
  const starts: number[] = [];
  const ends: number[] = [];
  const nexts: number[] = [];
  const verdicts: number[] = [];
  const explained: (Decision & { url: string })[] = [];
  const reasons = noReasons();

  for (let start = 0; start < batch.length;) {
    const line = starts.length;
    const newline = batch.indexOf(NEWLINE, start);
    const next = newline < 0 ? batch.length : newline + 1;
    let end = newline < 0 ? batch.length : newline;
    if (end > start && batch[end - 1] === CR) end--;
    starts.push(start);
    ends.push(end);
    nexts.push(next);
    verdicts.push(MALFORMED);
    const lineStart = start;
    start = next;
    if (!readUrlField(batch, lineStart, end, settings.shape, source.needsHost, field)) continue;
    const rules = rulesOfField(field, source, hostRules);
    reasons[reasonOf(rules)]++;
    if (!explain && field.text === undefined && isRules(rules)) {
      let group = groups.get(rules);
      if (group === undefined) groups.set(rules, (group = { rules, lines: [], ranges: [] }));
      group.lines.push(line);
      group.ranges.push(field.start, field.end);
      continue;
    }
    const url = field.text ?? utf8.decode(batch.subarray(field.start, field.end));
    decideLine(rules, url, settings, explain, decision);
    verdicts[line] = decision.verdict === 'allowed' ? ALLOWED : DISALLOWED;
    if (explain) explained[line] = { ...decision, url };
  }

  for (const group of groups.values()) {
    const out = group.rules.isAllowedBytes(batch, Uint32Array.from(group.ranges));
    for (let i = 0; i < group.lines.length; i++) verdicts[group.lines[i] as number] = out[i] as number;
  }

  const parts: Uint8Array[] = [];
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
  for (let line = 0; line < starts.length; line++) {
    const verdict = verdicts[line] as number;
    if (verdict === ALLOWED) allowed++;
    else if (verdict === DISALLOWED) disallowed++;
    else {
      malformed++;
      if (firstMalformed < 0) firstMalformed = line;
    }
    const name = VERDICT_NAMES[verdict] as Verdict;
    const start = starts[line] as number;
    const end = ends[line] as number;
    const next = nexts[line] as number;
    if (!wanted(name, settings)) {
      flushRun();
      continue;
    }
    const shown = explained[line];
    if (settings.output === 'jsonl') {
      flushRun();
      const object =
        shown === undefined
          ? { url: null, malformed: true }
          : { url: shown.url, allowed: name === 'allowed', line: shown.ruleLine, rule: shown.rule === '' ? null : shown.rule };
      parts.push(encoder.encode(`${JSON.stringify(object)}\n`));
    } else if (settings.output === 'tsv') {
      flushRun();
      parts.push(
        tsvField(batch.subarray(start, end), keepsTabs(settings.shape)),
        encoder.encode(`\t${name}\t${shown?.ruleLine ?? 0}\t`),
        tsvField(encoder.encode(shown?.rule ?? '')),
        LINE_END,
      );
    } else if (batch[next - 1] !== NEWLINE) {
      flushRun();
      parts.push(batch.subarray(start, end), Uint8Array.of(NEWLINE));
    } else {
      if (runStart < 0) runStart = start;
      runEnd = next;
    }
  }
  flushRun();
  return {
    output: joined(parts),
    lines: starts.length,
    allowed,
    disallowed,
    malformed,
    firstMalformed,
    ...hostsOf(hostRules),
    reasons: { ...reasons, malformed },
    fileEvents: source.takeEvents(),
  };
}
