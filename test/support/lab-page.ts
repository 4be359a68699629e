/**
 * The robots.txt lab as its Chromium suite drives it: a state written into the page's URL fragment, the signals
 * the page gives once it has rendered (`data-lab-ready`, `data-lab-revision` on <html>), and what its tables
 * show, read from the DOM in one round trip each. What the page promises to show is its DOM contract: the
 * matrix of verdicts, the diff against an earlier version, and the fetch simulation's table.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Page } from 'playwright-core';

export type Reading = 'rfc9309' | 'google' | 'yandex';

/** The readings in the order the page shows them: the profiles' order. */
export const READINGS: readonly Reading[] = ['rfc9309', 'google', 'yandex'];

/** What the lab shows, as its URL fragment carries it. */
export interface LabState {
  readonly robots: string;
  readonly agents: readonly string[];
  readonly urls: readonly string[];
  /** Absent: every reading. */
  readonly profiles?: readonly Reading[];
  /** An earlier version of the file, for the diff. */
  readonly before?: string;
  /** The fetch simulation's case (a value of `#simulate-case`). */
  readonly simulate?: string;
}

/** The plain fragment's query (without `#`): the keys in the contract's order, built with URLSearchParams. */
export function fragmentQuery(state: LabState): string {
  const params = new URLSearchParams();
  if (state.before !== undefined) params.append('before', state.before);
  params.append('robots', state.robots);
  for (const agent of state.agents) params.append('agent', agent);
  for (const url of state.urls) params.append('url', url);
  for (const profile of state.profiles ?? []) params.append('profile', profile);
  if (state.simulate !== undefined) params.append('simulate', state.simulate);
  return params.toString();
}

/** `#<plain form>`. */
export function plainFragment(state: LabState): string {
  return `#${fragmentQuery(state)}`;
}

/** `#z=<base64url of the plain form, deflate-raw>`: the compressed form the page also reads. */
export function compressedFragment(state: LabState): string {
  return `#z=${deflateRawSync(Buffer.from(fragmentQuery(state), 'utf8')).toString('base64url')}`;
}

/** What a fragment the page wrote says, in either form; `compressed` tells which form it was. */
export function readFragment(hash: string): { readonly params: URLSearchParams; readonly compressed: boolean } {
  const plain = new URLSearchParams(hash.replace(/^#/, ''));
  const z = plain.get('z');
  if (z === null) return { params: plain, compressed: false };
  return { params: new URLSearchParams(inflateRawSync(Buffer.from(z, 'base64url')).toString('utf8')), compressed: true };
}

/** One column of the matrix: an agent as given, under one reading. */
export interface MatrixColumn {
  readonly agent: string;
  readonly profile: string;
}

export interface MatrixCell extends MatrixColumn {
  readonly verdict: string;
  readonly line: string;
  /** textContent, trimmed. */
  readonly text: string;
  readonly disagree: boolean;
}

export interface MatrixRow {
  readonly url: string;
  /** The row header's text. */
  readonly header: string;
  readonly headerScope: string;
  readonly cells: readonly MatrixCell[];
}

/** The matrix as the DOM shows it. */
export interface MatrixView {
  readonly caption: string;
  /** The header row's cells: the first is the URL column's. */
  readonly headers: readonly {
    readonly text: string;
    readonly scope: string;
    readonly agent: string | null;
    readonly profile: string | null;
  }[];
  readonly headerRows: number;
  readonly rows: readonly MatrixRow[];
}

/** Reads `#matrix` whole. */
export function readMatrix(page: Page): Promise<MatrixView> {
  return page.evaluate(() => {
    const table = document.querySelector('table#matrix');
    if (!(table instanceof HTMLTableElement)) throw new Error('no table#matrix');
    const headRows = table.tHead === null ? [] : Array.from(table.tHead.rows);
    const headers = Array.from(headRows[0]?.cells ?? []).map((cell) => ({
      text: (cell.textContent ?? '').trim(),
      scope: cell.getAttribute('scope') ?? '',
      agent: cell.getAttribute('data-agent'),
      profile: cell.getAttribute('data-profile'),
    }));
    const rows = Array.from(table.tBodies).flatMap((body) =>
      Array.from(body.rows).map((row) => {
        const header = row.querySelector(':scope > th');
        return {
          url: row.getAttribute('data-url') ?? '',
          header: header?.textContent ?? '',
          headerScope: header?.getAttribute('scope') ?? '',
          cells: Array.from(row.querySelectorAll(':scope > td')).map((cell) => ({
            agent: cell.getAttribute('data-agent') ?? '',
            profile: cell.getAttribute('data-profile') ?? '',
            verdict: cell.getAttribute('data-verdict') ?? '',
            line: cell.getAttribute('data-line') ?? '',
            text: (cell.textContent ?? '').trim(),
            disagree: cell.getAttribute('data-disagree') === 'true',
          })),
        };
      }),
    );
    return { caption: (table.caption?.textContent ?? '').trim(), headers, headerRows: headRows.length, rows };
  });
}

/** One row of `#diff`. */
export interface DiffRow {
  readonly url: string;
  readonly agent: string;
  readonly profile: string;
  readonly before: string;
  readonly after: string;
}

/** The rows of `#diff`'s bodies, and its caption. */
export function readDiff(page: Page): Promise<{ readonly caption: string; readonly rows: readonly DiffRow[] }> {
  return page.evaluate(() => {
    const table = document.querySelector('table#diff');
    if (!(table instanceof HTMLTableElement)) throw new Error('no table#diff');
    const rows = Array.from(table.tBodies).flatMap((body) =>
      Array.from(body.rows).map((row) => ({
        url: row.getAttribute('data-url') ?? '',
        agent: row.getAttribute('data-agent') ?? '',
        profile: row.getAttribute('data-profile') ?? '',
        before: row.getAttribute('data-before') ?? '',
        after: row.getAttribute('data-after') ?? '',
      })),
    );
    return { caption: (table.caption?.textContent ?? '').trim(), rows };
  });
}

/** One row of `#simulation`. */
export interface SimulationRow {
  readonly profile: string;
  readonly outcome: string;
  readonly reason: string;
  readonly text: string;
}

export function readSimulation(page: Page): Promise<readonly SimulationRow[]> {
  return page.evaluate(() => {
    const table = document.querySelector('table#simulation');
    if (!(table instanceof HTMLTableElement)) throw new Error('no table#simulation');
    return Array.from(table.querySelectorAll('tr[data-profile]')).map((row) => ({
      profile: row.getAttribute('data-profile') ?? '',
      outcome: row.getAttribute('data-outcome') ?? '',
      reason: row.getAttribute('data-reason') ?? '',
      text: (row.textContent ?? '').replace(/\s+/g, ' ').trim(),
    }));
  });
}

/** `data-lab-revision` now ('' before the first render). */
export function revision(page: Page): Promise<string> {
  return page.evaluate(() => document.documentElement.dataset.labRevision ?? '');
}

/** Waits until the page has initialised its engine and rendered its first state. */
export async function waitForReady(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.labReady === 'true');
}

/**
 * Does `change`, then waits for the matrix to be rendered again (its revision moves) and to show `urls` as
 * its rows, in order: a change may render more than once (a state the page writes back into the fragment).
 */
export async function afterRender(page: Page, urls: readonly string[], change: () => Promise<unknown>): Promise<void> {
  const before = await revision(page);
  await change();
  await page.waitForFunction(
    ({ before, urls }) => {
      if ((document.documentElement.dataset.labRevision ?? '') === before) return false;
      const rows = Array.from(document.querySelectorAll('table#matrix > tbody > tr')).map((row) => row.getAttribute('data-url'));
      return rows.length === urls.length && rows.every((url, index) => url === urls[index]);
    },
    { before, urls },
  );
}

/** Loads `state` into the open page through its fragment (`hashchange`) and waits for it to render. */
export async function showState(page: Page, state: LabState, fragment: string = plainFragment(state)): Promise<void> {
  await afterRender(page, state.urls, () =>
    page.evaluate((hash) => {
      window.location.hash = hash;
    }, fragment),
  );
}

/** Opens `pageUrl` with `fragment` as a fresh document (not a same-document navigation) and waits until it is ready. */
export async function openFresh(page: Page, pageUrl: string, fragment: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${pageUrl}${fragment}`);
  await waitForReady(page);
}
