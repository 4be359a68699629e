/**
 * The matrix as a table: one row per URL (its row header the URL as given), one column per crawler × reading (its
 * header the crawler and the reading), each cell a button whose text is the verdict. Disagreement between a
 * crawler's readings is marked by a class and a description, so the cell's text stays the verdict alone.
 */
import type { Matrix } from '../matrix.js';
import { READING_TITLE } from '../readings.js';
import { h, verdictText } from './dom.js';

/** A cell's place: its row (URL) and column (crawler × reading). */
export interface CellPlace {
  readonly row: number;
  readonly column: number;
}

export function renderMatrix(table: HTMLTableElement, matrix: Matrix, choose: (place: CellPlace) => void): void {
  const crawlers = new Set(matrix.columns.map((column) => column.crawler)).size;
  const caption = h(
    'caption',
    {},
    `Verdicts for ${count(matrix.urls.length, 'URL')} × ${count(crawlers, 'crawler')} × ${count(
      new Set(matrix.columns.map((column) => column.reading)).size,
      'reading',
    )}`,
  );
  const headerRow = h('tr', {}, h('th', { scope: 'col' }, 'URL'));
  for (const column of matrix.columns) {
    const { crawler, reading } = column;
    headerRow.append(
      h(
        'th',
        {
          scope: 'col',
          'data-agent': crawler.given,
          'data-profile': reading,
          title: `${crawler.given}, as ${READING_TITLE[reading]} reads it`,
        },
        h('span', { class: 'agent' }, crawler.name),
        ' ',
        h('span', { class: 'reading' }, reading),
      ),
    );
  }
  const body = h('tbody');
  matrix.cells.forEach((cells, row) => {
    const url = matrix.urls[row] ?? '';
    const tr = h('tr', { 'data-url': url }, h('th', { scope: 'row' }, url));
    cells.forEach((cell, column) => {
      const { crawler, reading } = matrix.columns[column] ?? { crawler: undefined, reading: undefined };
      const verdict = verdictText(cell.explanation.allowed);
      const button = h(
        'button',
        { type: 'button', 'aria-pressed': 'false', 'aria-describedby': cell.disagree ? 'disagree-note' : undefined },
        verdict,
      );
      button.addEventListener('click', () => choose({ row, column }));
      tr.append(
        h(
          'td',
          {
            class: `verdict ${verdict}${cell.disagree ? ' disagree' : ''}`,
            'data-agent': crawler?.given,
            'data-profile': reading,
            'data-verdict': verdict,
            'data-line': cell.explanation.line,
            'data-disagree': cell.disagree ? 'true' : undefined,
          },
          button,
        ),
      );
    });
    body.append(tr);
  });
  table.replaceChildren(caption, h('thead', {}, headerRow), body);
}

/** Marks the chosen cell (and no other) as pressed. */
export function markChosen(table: HTMLTableElement, place: CellPlace | undefined): void {
  for (const pressed of table.querySelectorAll('button[aria-pressed="true"]')) pressed.setAttribute('aria-pressed', 'false');
  if (place === undefined) return;
  const button = table.tBodies[0]?.rows[place.row]?.cells[place.column + 1]?.querySelector('button');
  button?.setAttribute('aria-pressed', 'true');
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** Arrow keys move between the verdicts, as in a spreadsheet; Tab still moves through them one by one. */
export function enableArrowKeys(table: HTMLTableElement): void {
  const step: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  table.addEventListener('keydown', (event) => {
    const move = step[event.key];
    const cell = event.target instanceof HTMLElement ? event.target.closest('td') : null;
    if (move === undefined || cell === null) return;
    const row = cell.parentElement instanceof HTMLTableRowElement ? cell.parentElement : null;
    if (row === null) return;
    const target = table.tBodies[0]?.rows[row.sectionRowIndex + move[0]]?.cells[cell.cellIndex + move[1]]?.querySelector('button');
    if (target == null) return;
    event.preventDefault();
    target.focus();
  });
}
