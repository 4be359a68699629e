/**
 * One batch of whole lines → the bytes `filter` writes for it, and what it counted. The same code runs in
 * the main thread (`--workers 1`) and in each worker thread, so that the output is byte-identical whatever
 * the number of workers: a batch's output depends on its lines and the robots files alone.
 *
 * A line is decided as written, exactly as `rules.isAllowed(url)` reads a string (the URL read as UTF-8).
 * Lines are written unchanged (their line ending included; a last line without one gets `\n`); `--annotate`
 * appends TAB verdict TAB rule line TAB rule; `--output-format jsonl` writes one object per line instead.
 */
import type { AgentRules } from '../library.js';
import type { FilterSettings } from './options.js';
import type { HostRules, RobotsSource } from './robots-source.js';
import { readUrlField, type UrlField } from './url-field.js';

export interface BatchResult {
  readonly output: Uint8Array;
  readonly lines: number;
  readonly allowed: number;
  readonly disallowed: number;
  readonly malformed: number;
  /** The batch's first malformed line (0-based within it), or -1. */
  readonly firstMalformed: number;
  /** Hosts this batch named, each once, and those with no robots.txt known. */
  readonly hosts: readonly string[];
  readonly hostsWithoutRobots: readonly string[];
}

const NEWLINE = 0x0a;
const CR = 0x0d;
const utf8 = new TextDecoder();
const encoder = new TextEncoder();

type Verdict = 'allowed' | 'disallowed' | 'malformed';

interface Decision {
  verdict: Verdict;
  ruleLine: number;
  rule: string;
}

function ruleText(rule: { readonly kind: string; readonly pattern: string } | undefined): string {
  return rule === undefined ? '' : `${rule.kind}: ${rule.pattern}`;
}

/** Decides the URL of one line for a host's rules (explained only when the output shows the rule). */
function decideLine(rules: HostRules, url: string, settings: FilterSettings, explain: boolean, decision: Decision): void {
  decision.ruleLine = 0;
  decision.rule = '';
  if (rules === null || typeof rules === 'string') {
    const allowed = rules === null ? settings.missing === 'allow' : rules === 'allow-all';
    decision.verdict = allowed ? 'allowed' : 'disallowed';
    return;
  }
  if (!explain) {
    decision.verdict = (rules as AgentRules).isAllowed(url) ? 'allowed' : 'disallowed';
    return;
  }
  const explanation = rules.explain(url);
  decision.verdict = explanation.allowed ? 'allowed' : 'disallowed';
  decision.ruleLine = explanation.line;
  decision.rule = ruleText(explanation.rule);
}

function wanted(verdict: Verdict, settings: FilterSettings): boolean {
  return settings.emit === 'all' || verdict === settings.emit;
}

/**
 * The parts as one array that owns its buffer (not Buffer.concat's, which may share a pool), so that a worker
 * can transfer it; a single part is returned as it is (a view of the batch, which the worker owns).
 */
function joined(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Decides every line of `batch` (whole lines; the last may lack its newline only at the end of input). */
export function decideBatch(batch: Uint8Array, settings: FilterSettings, source: RobotsSource): BatchResult {
  const parts: Uint8Array[] = [];
  const field: UrlField = { start: 0, end: 0, text: undefined, host: undefined, hostAlternative: undefined };
  const decision: Decision = { verdict: 'malformed', ruleLine: 0, rule: '' };
  const explain = settings.annotate || settings.output === 'jsonl';
  const hosts = new Set<string>();
  const hostsWithoutRobots = new Set<string>();
  let lines = 0;
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

  for (let start = 0; start < batch.length; lines++) {
    const newline = batch.indexOf(NEWLINE, start);
    const next = newline < 0 ? batch.length : newline + 1;
    let end = newline < 0 ? batch.length : newline;
    if (end > start && batch[end - 1] === CR) end--;

    let url: string | undefined;
    if (readUrlField(batch, start, end, settings.shape, source.needsHost, field)) {
      url = field.text ?? utf8.decode(batch.subarray(field.start, field.end));
      const rules = source.rulesFor(field.host, field.hostAlternative);
      if (field.host !== undefined) {
        hosts.add(field.host);
        if (rules === null) hostsWithoutRobots.add(field.host);
      }
      decideLine(rules, url, settings, explain, decision);
    } else {
      decision.verdict = 'malformed';
      decision.ruleLine = 0;
      decision.rule = '';
    }
    if (decision.verdict === 'allowed') allowed++;
    else if (decision.verdict === 'disallowed') disallowed++;
    else {
      malformed++;
      if (firstMalformed < 0) firstMalformed = lines;
    }

    if (wanted(decision.verdict, settings)) {
      if (settings.output === 'jsonl') {
        flushRun();
        const object =
          decision.verdict === 'malformed'
            ? { url: null, malformed: true }
            : { url, allowed: decision.verdict === 'allowed', line: decision.ruleLine, rule: decision.rule === '' ? null : decision.rule };
        parts.push(encoder.encode(`${JSON.stringify(object)}\n`));
      } else if (settings.annotate) {
        flushRun();
        parts.push(batch.subarray(start, end), encoder.encode(`\t${decision.verdict}\t${decision.ruleLine}\t${decision.rule}\n`));
      } else if (newline < 0) {
        flushRun();
        parts.push(batch.subarray(start, end), Uint8Array.of(NEWLINE));
      } else {
        if (runStart < 0) runStart = start;
        runEnd = next;
      }
    } else {
      flushRun();
    }
    start = next;
  }
  flushRun();
  return {
    output: joined(parts),
    lines,
    allowed,
    disallowed,
    malformed,
    firstMalformed,
    hosts: [...hosts],
    hostsWithoutRobots: [...hostsWithoutRobots],
  };
}
