/** What each reading makes of the simulated answer: the outcome in words, why, and the section that says so. */
import type { SimulatedReading } from '../simulate.js';
import { READING_TITLE } from '../readings.js';
import { h } from './dom.js';

export function renderSimulation(
  table: HTMLTableElement,
  summary: HTMLElement,
  title: string | undefined,
  readings: readonly SimulatedReading[],
): void {
  if (title === undefined) {
    summary.textContent = 'Choose what the server answers to see what each reading makes of it.';
    table.replaceChildren();
    table.hidden = true;
    return;
  }
  table.hidden = false;
  summary.textContent = `The server answers: ${title}.`;
  const head = h(
    'tr',
    {},
    ...['Reading', 'The crawler follows', 'Why', 'Where it is written'].map((name) => h('th', { scope: 'col' }, name)),
  );
  const body = h('tbody');
  for (const simulated of readings) {
    const { fetched } = simulated;
    const steps = [
      fetched.status === 0 ? 'no answer' : `last status ${fetched.status}`,
      `${fetched.redirects} redirect${fetched.redirects === 1 ? '' : 's'} followed`,
      fetched.outcome === 'rules' ? `${fetched.bytes.toLocaleString('en')} bytes parsed` : undefined,
    ].filter((step) => step !== undefined);
    body.append(
      h(
        'tr',
        { 'data-profile': simulated.reading, 'data-outcome': simulated.outcome, 'data-reason': fetched.reason },
        h('th', { scope: 'row' }, READING_TITLE[simulated.reading]),
        h('td', { class: `outcome ${simulated.outcome}` }, simulated.meaning),
        h('td', {}, `${fetched.reason} (${steps.join(', ')})`, simulated.note === undefined ? '' : `. ${simulated.note}`),
        h('td', {}, h('a', { href: simulated.source.href }, simulated.source.title)),
      ),
    );
  }
  table.replaceChildren(h('caption', {}, `What each reading makes of it: ${title}`), h('thead', {}, head), body);
}
