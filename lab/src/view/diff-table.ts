/** The verdicts that change between the earlier version and the file in the editor. */
import type { VerdictChange } from '../diff.js';
import { READING_TITLE } from '../readings.js';
import { h, verdictText } from './dom.js';

export function renderDiff(table: HTMLTableElement, summary: HTMLElement, changes: readonly VerdictChange[] | undefined): void {
  if (changes === undefined) {
    summary.textContent = 'No earlier version to compare with.';
    table.replaceChildren();
    table.hidden = true;
    return;
  }
  table.hidden = false;
  summary.textContent =
    changes.length === 0
      ? 'No verdict changes between the two versions for these URLs and crawlers.'
      : `${changes.length} verdict${changes.length === 1 ? '' : 's'} change between the earlier version and the current file.`;
  const head = h(
    'tr',
    {},
    ...['URL', 'Crawler', 'Reading', 'Earlier version', 'Current file'].map((title) => h('th', { scope: 'col' }, title)),
  );
  const body = h('tbody');
  for (const change of changes) {
    const before = verdictText(change.before);
    const after = verdictText(change.after);
    body.append(
      h(
        'tr',
        {
          'data-url': change.url,
          'data-agent': change.column.crawler.given,
          'data-profile': change.column.reading,
          'data-before': before,
          'data-after': after,
        },
        h('th', { scope: 'row' }, change.url),
        h('td', {}, change.column.crawler.name),
        h('td', {}, READING_TITLE[change.column.reading]),
        h('td', { class: `verdict ${before}` }, before, lineNote(change.beforeLine)),
        h('td', { class: `verdict ${after}` }, after, lineNote(change.afterLine)),
      ),
    );
  }
  table.replaceChildren(h('caption', {}, 'Verdicts that change'), h('thead', {}, head), body);
}

function lineNote(line: number): string {
  return line === 0 ? ' (no rule)' : ` (line ${line})`;
}
