/** Why the chosen verdict is what it is: the deciding line and rule (explain()), and the usage preferences. */
import type { Cell, Column } from '../matrix.js';
import { READING_TITLE } from '../readings.js';
import { h, verdictText } from './dom.js';

const PURPOSES = ['train-ai', 'search', 'ai-input'] as const;

/** The deciding rule as the library read it, and the line as written when that reads otherwise (`disallow:/x`, a comment). */
function decidingRule(explanation: Cell['explanation'], lineText: string | undefined): HTMLElement {
  const rule = explanation.rule;
  const read = rule === undefined ? '' : `${rule.kind === 'allow' ? 'Allow' : 'Disallow'}: ${rule.pattern}`;
  const written = lineText?.trim();
  return h(
    'p',
    {},
    `Line ${explanation.line} decides: `,
    h('code', {}, read),
    written !== undefined && written !== read ? ` (written “${written}”)` : '',
    '.',
  );
}

export function renderExplanation(panel: HTMLElement, url: string, column: Column, cell: Cell, lineText: string | undefined): void {
  const { explanation, usage } = cell;
  panel.dataset.line = String(explanation.line);
  const who = `${column.crawler.name} under ${READING_TITLE[column.reading]}'s reading`;
  const verdict = verdictText(explanation.allowed);
  const why =
    explanation.rule === undefined ? h('p', {}, `No rule matches, so the URL is ${verdict}.`) : decidingRule(explanation, lineText);
  const parts: Node[] = [h('h3', {}, h('span', { class: 'url' }, url), ` is ${verdict} for ${who}`), why];
  if (column.crawler.given !== column.crawler.name) parts.push(h('p', {}, `Crawler read from the header “${column.crawler.given}”.`));
  if (cell.disagree)
    parts.push(h('p', { class: 'disagree-text' }, 'The readings of this crawler disagree on this URL: compare the cells beside it.'));
  if (usage !== undefined) {
    const purposes = h('ul', { class: 'usage' });
    for (const purpose of PURPOSES) purposes.append(h('li', {}, h('code', {}, purpose), `: ${usage[purpose]}`));
    const statements = h('ul', { class: 'usage-lines' });
    for (const statement of usage.statements) {
      const where = statement.path === undefined ? 'every path' : `paths from ${statement.path}`;
      statements.append(h('li', {}, `Line ${statement.line}, ${statement.source}: `, h('code', {}, statement.preference), ` (${where})`));
    }
    parts.push(
      h('h4', {}, 'What the content may be used for'),
      purposes,
      usage.statements.length === 0 ? h('p', {}, 'No usage line applies to this URL.') : statements,
    );
  }
  panel.replaceChildren(...parts);
}

/** Back to no chosen verdict. */
export function clearExplanation(panel: HTMLElement): void {
  panel.dataset.line = '0';
  panel.replaceChildren(h('p', {}, 'No verdict chosen.'));
}
