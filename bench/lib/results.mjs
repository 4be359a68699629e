/**
 * bench/RESULTS.md as the suites write it: the headline table at the top, between HEADLINE_START and
 * HEADLINE_END (rewritten by `npm run bench:headline`), then the history, one `## ` section per measurement, each
 * heading dated by the run that wrote it (`## 2026-11-26: Cold path: …`). A suite that records its run
 * (`npm run bench`, `bench:cold --write`, `bench:fleet --write`, `bench:usage -- --write`) replaces its own
 * section, found by its title whatever its date, and leaves every other section as it was; a section not there
 * yet goes at the end.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const RESULTS = fileURLToPath(new URL('../RESULTS.md', import.meta.url));
export const HEADLINE_START = '<!-- headline:start (written by `npm run bench:headline`; edits here are lost) -->';
export const HEADLINE_END = '<!-- headline:end -->';

/**
 * A section's heading: the day of its run (UTC), then its title.
 * @param {string} date an ISO date or timestamp (Machine.date) @param {string} title
 */
export function sectionHeading(date, title) {
  return `## ${date.slice(0, 10)}: ${title}`;
}

/**
 * Puts `section` (starting with its sectionHeading) in RESULTS.md in place of the section of the same title,
 * else at the end.
 * @param {string} title @param {string} section
 */
export function writeSection(title, section) {
  const previous = readFileSync(RESULTS, 'utf8');
  const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = new RegExp(`^## (?:\\d{4}-\\d{2}-\\d{2}: )?${escaped}`, 'm').exec(previous);
  const at = found?.index ?? -1;
  const next = at < 0 ? -1 : previous.indexOf('\n## ', at + 1);
  const updated =
    at < 0
      ? `${previous.trimEnd()}\n\n${section.trimEnd()}\n`
      : `${previous.slice(0, at)}${section.trimEnd()}\n${next < 0 ? '' : previous.slice(next)}`;
  writeFileSync(RESULTS, updated);
}

/**
 * Replaces what stands between the headline's markers (which must be there) with `headline`.
 * @param {string} headline
 */
export function writeHeadline(headline) {
  const previous = readFileSync(RESULTS, 'utf8');
  const start = previous.indexOf(HEADLINE_START);
  const end = previous.indexOf(HEADLINE_END);
  if (start < 0 || end < start) throw new Error(`${RESULTS}: the headline markers are missing`);
  writeFileSync(RESULTS, `${previous.slice(0, start + HEADLINE_START.length)}\n\n${headline.trim()}\n\n${previous.slice(end)}`);
}
