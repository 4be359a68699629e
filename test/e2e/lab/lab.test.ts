/**
 * The robots.txt lab in a browser: headless Chromium loads the built app (dist/lab/, which `npm run build`
 * makes last) from a server on 127.0.0.1 that the test starts, and every request the browser makes is recorded:
 * each must be that server's. The page is driven through its DOM contract: a state in its URL fragment (plain,
 * or deflated as `#z=`), its textareas, editor and select; and what it shows is held to what the library
 * answers for the same questions, asked of the built package by Node: the matrix of verdicts cell by cell with
 * each deciding line (on real files of the corpus as well), the diff between two versions, and the fetch
 * simulation's readings. Then the page as a reader meets it: axe-core's checks at a phone's width and a
 * desktop's, no sideways scrolling on the phone, screenshots for a reviewer, the weight of its JavaScript,
 * and that, once loaded, it keeps answering offline.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumTool, launchChromium } from '../../support/chromium.js';
import { describeCorpus, loadCorpus } from '../../support/corpus.js';
import { closeServers, startServer, status, text, type TestServer } from '../../support/http-server.js';
import {
  afterRender,
  compressedFragment,
  openFresh,
  plainFragment,
  readDiff,
  readFragment,
  readMatrix,
  readSimulation,
  READINGS,
  showState,
  type LabState,
  type MatrixView,
  type Reading,
  type SimulationRow,
} from '../../support/lab-page.js';
import {
  builtLibrary,
  cellKey,
  chooseCorpusFiles,
  columnsOf,
  decidingLine,
  expectedCells,
  expectedDiff,
  linesOf,
  sortedRows,
  type FetchReading,
  type Library,
} from '../../support/lab-oracle.js';
import { filesUnder, serveFiles } from '../../support/static-files.js';

const chromium = chromiumTool();
const LAB = fileURLToPath(new URL('../../../dist/lab/', import.meta.url));
const SCREENSHOTS = fileURLToPath(new URL('../../.lab-screenshots/', import.meta.url));

/**
 * The most JavaScript and WebAssembly the lab may load, raw and gzipped (each file on its own, as a server
 * sends it): a little over what it weighs now, so that a change which pulls much more into the page (a second
 * copy of the library, a language pack of the editor) fails.
 */
const WEIGHT_BOUND = { bytes: 550 * 1024, gzipped: 185 * 1024 };

/** A full User-Agent header, which the page reads through productToken() as the library's users do. */
const FULL_HEADER = 'Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)';

const SMALL_FILE = [
  'User-agent: *',
  'Disallow: /private/',
  'Allow: /private/open/',
  'Disallow: /*.pdf$',
  '',
  'User-agent: Googlebot',
  'Disallow: /no-google/',
  '',
].join('\n');

const SMALL_STATE: LabState = {
  robots: SMALL_FILE,
  agents: ['Googlebot', 'ExampleBot', FULL_HEADER],
  urls: ['/', '/private/x', '/private/open/y', 'https://example.com/no-google/z', '/report.pdf', '/report.pdf?x=1', '/ünïcode/päth?q=1'],
};

/** A file whose deciding lines lie far apart, so that choosing a cell must scroll the editor to its line. */
const LONG_FILE = [
  'User-agent: *',
  ...Array.from({ length: 120 }, (_, index) => `Disallow: /archive/${index}/`),
  'Disallow: /private/',
  'Allow: /private/open/',
  'Content-Usage: train-ai=n',
  '',
].join('\n');

const LONG_STATE: LabState = {
  robots: LONG_FILE,
  agents: ['ExampleBot', 'Googlebot'],
  urls: ['/private/a', '/archive/3/x', '/private/open/b', '/'],
};

/** Two versions of a file that differ in a few rules: one rule changed, one added, one removed, a group added. */
const BEFORE_FILE = ['User-agent: *', 'Disallow: /private/', 'Disallow: /tmp/', 'Allow: /private/open/', 'Disallow: /*.pdf$', ''].join(
  '\n',
);
const AFTER_FILE = [
  'User-agent: *',
  'Disallow: /private/',
  'Allow: /private/open/',
  'Disallow: /*.doc$',
  'Disallow: /drafts/',
  '',
  'User-agent: Googlebot',
  'Allow: /',
  '',
].join('\n');

const DIFF_STATE: LabState = {
  robots: AFTER_FILE,
  before: BEFORE_FILE,
  agents: ['Googlebot', 'ExampleBot', 'YandexBot'],
  urls: ['/', '/private/x', '/private/open/y', '/tmp/a', '/a.pdf', '/a.doc', '/drafts/1', '/drafts', '/a.pdf?x=1', '/TMP/a'],
};

/** Every request the browser made, and every response, in any context. */
interface Traffic {
  readonly requests: string[];
  readonly failed: string[];
  readonly responses: { readonly url: string; readonly status: number }[];
  readonly pageErrors: string[];
  readonly consoleErrors: string[];
}

describe.skipIf(!chromium.found)('the robots.txt lab in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let library: Library;
  /** Every file the server holds, by path. */
  let served: Map<string, Uint8Array>;
  let pageUrl: string;
  /** The context most tests share, with its one page. */
  let context: BrowserContext;
  let page: Page;
  const traffic: Traffic = { requests: [], failed: [], responses: [], pageErrors: [], consoleErrors: [] };

  async function newContext(options: BrowserContextOptions = {}): Promise<BrowserContext> {
    const opened = await browser.newContext(options);
    opened.on('request', (request) => void traffic.requests.push(request.url()));
    opened.on('requestfailed', (request) => void traffic.failed.push(`${request.url()}: ${request.failure()?.errorText ?? ''}`));
    opened.on('response', (response) => void traffic.responses.push({ url: response.url(), status: response.status() }));
    opened.on('page', (opening) => {
      opening.on('pageerror', (error) => void traffic.pageErrors.push(error.message));
      opening.on('console', (message) => {
        if (message.type() === 'error') traffic.consoleErrors.push(message.text());
      });
    });
    return opened;
  }

  /** The matrix's cells as cellKey() writes them, row by row. */
  function cellsOf(view: MatrixView): string[] {
    return view.rows.flatMap((row) => row.cells.map((cell) => cellKey(row.url, cell, cell.verdict, cell.line)));
  }

  /** The matrix's structure is the contract's, and every cell is the library's answer. */
  function expectMatrix(view: MatrixView, state: LabState): void {
    expect(view.caption).not.toBe('');
    expect(view.headerRows).toBe(1);
    expect(view.headers[0]).toMatchObject({ text: 'URL', scope: 'col' });
    expect(view.headers.slice(1).map(({ agent, profile }) => ({ agent, profile }))).toEqual(columnsOf(state));
    expect(view.headers.filter((header) => header.scope !== 'col')).toEqual([]);
    expect(view.rows.map((row) => row.url)).toEqual(state.urls);
    expect(view.rows.map((row) => row.header.trim())).toEqual(state.urls);
    expect(view.rows.filter((row) => row.headerScope !== 'row').map((row) => row.url)).toEqual([]);
    expect(cellsOf(view)).toEqual(expectedCells(library, state));
    const textNotVerdict = view.rows.flatMap((row) =>
      row.cells.filter((cell) => cell.text !== cell.verdict).map((cell) => `${row.url} | ${cell.agent} | ${cell.profile}: "${cell.text}"`),
    );
    expect(textNotVerdict).toEqual([]);
  }

  beforeAll(async () => {
    if (!chromium.found) return;
    library = await builtLibrary();
    await library.init();
    served = filesUnder('/lab/', LAB);
    const index = served.get('/lab/index.html');
    if (index === undefined) throw new Error(`no ${LAB}index.html: \`npm run build\` builds the lab last (npm run build:lab)`);
    server = await startServer();
    serveFiles(server, served);
    // The folder's own address, as the command serves it: index.html.
    server.route('/lab/', text(index, 200, { 'content-type': 'text/html; charset=utf-8' }));
    pageUrl = `${server.origin}/lab/`;
    browser = await launchChromium(chromium.path);
    context = await newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await closeServers();
  });

  it('loads the state its fragment holds: the URLs as rows, agents × readings as columns, in order', async () => {
    // Readings given out of order: the page shows them in the profiles' order.
    const someReadings: LabState = { ...SMALL_STATE, profiles: ['yandex', 'rfc9309'] };
    await openFresh(page, pageUrl, plainFragment(someReadings));
    expectMatrix(await readMatrix(page), someReadings);
    expect(columnsOf(someReadings).map((column) => column.profile)).toEqual([
      'rfc9309',
      'yandex',
      'rfc9309',
      'yandex',
      'rfc9309',
      'yandex',
    ]);

    // No profile: every reading. The checkboxes say which are shown, and unticking one drops its columns.
    await openFresh(page, pageUrl, plainFragment(SMALL_STATE));
    expectMatrix(await readMatrix(page), SMALL_STATE);
    for (const reading of READINGS) await expect.poll(() => page.isChecked(`input[name=profile][value=${reading}]`)).toBe(true);
    await afterRender(page, SMALL_STATE.urls, () => page.uncheck('input[name=profile][value=google]'));
    expectMatrix(await readMatrix(page), { ...SMALL_STATE, profiles: ['rfc9309', 'yandex'] });
    await afterRender(page, SMALL_STATE.urls, () => page.check('input[name=profile][value=google]'));
    expectMatrix(await readMatrix(page), SMALL_STATE);

    // The compressed form, as the contract writes it.
    await openFresh(page, pageUrl, compressedFragment(SMALL_STATE));
    expectMatrix(await readMatrix(page), SMALL_STATE);
  });

  it('says, served as static files, that it cannot fetch and how to run `npx robotstxt lab`', async () => {
    await openFresh(page, pageUrl, plainFragment(SMALL_STATE));
    expect(await page.evaluate(() => document.documentElement.dataset.labMode)).toBe('static');
    expect(await page.textContent('body')).toContain('npx robotstxt lab');
  });

  it('writes its state into the fragment after an edit, and loading that fragment shows the same table', async () => {
    await openFresh(page, pageUrl, plainFragment(SMALL_STATE));
    const loadedHash = await page.evaluate(() => window.location.hash);
    // A long list of URLs, so that the page may choose its compressed form, and a rule typed into the editor.
    const urls = [
      ...SMALL_STATE.urls,
      '/typed/x',
      ...Array.from({ length: 80 }, (_, index) => `/catalogue/${index}/item?colour=blue&size=${index}`),
    ];
    const edited: LabState = { ...SMALL_STATE, urls, robots: `${SMALL_FILE}Disallow: /typed/` };
    await afterRender(page, urls, () => page.fill('#urls', urls.join('\n')));
    await page.click('#robots-editor .cm-content');
    await page.keyboard.press('Control+End');
    await page.keyboard.type('Disallow: /typed/');
    await expect.poll(async () => cellsOf(await readMatrix(page))).toEqual(expectedCells(library, edited));
    expectMatrix(await readMatrix(page), edited);

    // The page writes the state (debounced or not): wait until the fragment holds both edits.
    await page.waitForFunction((before) => window.location.hash !== before, loadedHash);
    let written = '';
    await expect
      .poll(async () => {
        written = await page.evaluate(() => window.location.hash);
        const { params } = readFragment(written);
        return { robots: params.get('robots'), urls: params.getAll('url'), agents: params.getAll('agent') };
      })
      .toEqual({ robots: edited.robots, urls, agents: SMALL_STATE.agents });
    console.log(
      `lab: the page wrote a ${readFragment(written).compressed ? 'compressed (#z=)' : 'plain'} fragment of ${written.length} characters`,
    );

    const before = await readMatrix(page);
    await openFresh(page, pageUrl, written);
    expect(await readMatrix(page)).toEqual(before);
  });

  describeCorpus('on real files', () => {
    it('shows in every cell what the library answers, with its deciding line', async () => {
      const chosen = chooseCorpusFiles(loadCorpus());
      console.log(`lab: corpus files ${chosen.map(({ name, trait }) => `${name} (${trait})`).join(', ')}`);
      expect(chosen.length).toBeGreaterThanOrEqual(6);
      const counts = { cells: 0, disallowed: 0, disagree: 0 };
      await openFresh(page, pageUrl, plainFragment(SMALL_STATE));
      for (const { name, state } of chosen) {
        await showState(page, state);
        const view = await readMatrix(page);
        expect(cellsOf(view), name).toEqual(expectedCells(library, state));
        expectMatrix(view, state);
        // A cell is marked where the readings disagree for its agent and URL.
        const disagreeing = view.rows.flatMap((row) =>
          row.cells.flatMap((cell) => {
            const verdicts = new Set(row.cells.filter((other) => other.agent === cell.agent).map((other) => other.verdict));
            return cell.disagree === verdicts.size > 1
              ? []
              : [`${row.url} | ${cell.agent} | ${cell.profile}: data-disagree ${cell.disagree}`];
          }),
        );
        expect(disagreeing, name).toEqual([]);
        const cells = view.rows.flatMap((row) => row.cells);
        counts.cells += cells.length;
        counts.disallowed += cells.filter((cell) => cell.verdict === 'disallowed').length;
        counts.disagree += cells.filter((cell) => cell.disagree).length;
      }
      // The files and URLs were chosen to tell verdicts and readings apart: a matrix all allowed would prove little.
      console.log(`lab: ${counts.cells} cells checked, ${counts.disallowed} disallowed, ${counts.disagree} where the readings disagree`);
      expect(counts.disallowed).toBeGreaterThan(counts.cells / 10);
      expect(counts.disagree).toBeGreaterThan(0);
    });
  });

  it('highlights the deciding line of the chosen cell, chosen by a click or by the keyboard', async () => {
    await openFresh(page, pageUrl, plainFragment(LONG_STATE));
    const lines = linesOf(LONG_FILE);
    const cell = (url: string, agent: string, profile: Reading): string =>
      `#matrix tbody tr[data-url=${JSON.stringify(url)}] td[data-agent=${JSON.stringify(agent)}][data-profile=${profile}]`;
    const expectChosen = async (url: string, agent: string, profile: Reading): Promise<void> => {
      const line = decidingLine(library, LONG_STATE, url, { agent, profile });
      await expect.poll(() => page.getAttribute('#explain', 'data-line')).toBe(String(line));
      expect(await page.getAttribute(`${cell(url, agent, profile)} button`, 'aria-pressed')).toBe('true');
      if (line === 0) return;
      // The editor draws only the lines in view: the deciding one is there once the page has scrolled to it.
      const deciding = page.locator('#robots-editor .cm-line.cm-deciding-line');
      await expect.poll(() => deciding.count()).toBe(1);
      expect(await deciding.textContent()).toBe(lines[line - 1]);
      // In view: inside the editor's scrolled box and inside the window.
      await expect
        .poll(() =>
          deciding.evaluate((element) => {
            const line = element.getBoundingClientRect();
            const box = element.closest('.cm-scroller')?.getBoundingClientRect() ?? line;
            return line.top >= Math.max(0, box.top) - 1 && line.bottom <= Math.min(window.innerHeight, box.bottom) + 1;
          }),
        )
        .toBe(true);
    };

    expect(await page.getAttribute(cell('/private/a', 'ExampleBot', 'rfc9309'), 'data-verdict')).toBe('disallowed');
    await page.click(`${cell('/private/a', 'ExampleBot', 'rfc9309')} button`);
    await expectChosen('/private/a', 'ExampleBot', 'rfc9309');
    expect(decidingLine(library, LONG_STATE, '/private/a', { agent: 'ExampleBot', profile: 'rfc9309' })).toBe(122);
    expect(await page.textContent('#explain')).toContain('/private/');

    // The keyboard: Tab from one cell's button to the next, Enter chooses it; the editor scrolls back up.
    await page.focus(`${cell('/archive/3/x', 'ExampleBot', 'yandex')} button`);
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.closest('td')?.getAttribute('data-agent') ?? '');
    expect(focused).toBe('Googlebot');
    await page.keyboard.press('Enter');
    await expectChosen('/archive/3/x', 'Googlebot', 'rfc9309');
    expect(decidingLine(library, LONG_STATE, '/archive/3/x', { agent: 'Googlebot', profile: 'rfc9309' })).toBe(5);
    expect(await page.getAttribute(`${cell('/private/a', 'ExampleBot', 'rfc9309')} button`, 'aria-pressed')).not.toBe('true');

    // An allowed URL's explanation names its usage preferences.
    await page.click(`${cell('/private/open/b', 'ExampleBot', 'rfc9309')} button`);
    await expectChosen('/private/open/b', 'ExampleBot', 'rfc9309');
    expect(await page.textContent('#explain')).toContain('train-ai');
  });

  it('lists in the diff exactly the verdicts that changed between two versions', async () => {
    const expected = sortedRows(expectedDiff(library, DIFF_STATE));
    // The versions are meant to differ in both directions, for more than one reading.
    expect(expected.length).toBeGreaterThan(5);
    expect(
      expected.some((row) => row.endsWith('allowed → disallowed')) && expected.some((row) => row.endsWith('disallowed → allowed')),
    ).toBe(true);
    await openFresh(page, pageUrl, plainFragment(DIFF_STATE));
    const diff = await readDiff(page);
    expect(diff.caption).not.toBe('');
    expect(sortedRows(diff.rows)).toEqual(expected);

    const same: LabState = { ...DIFF_STATE, before: AFTER_FILE };
    await openFresh(page, pageUrl, plainFragment(same));
    expect((await readDiff(page)).rows).toEqual([]);
    expect((await page.textContent('#diff-summary'))?.trim()).not.toBe('');

    const { before: _, ...noBefore } = DIFF_STATE;
    await openFresh(page, pageUrl, plainFragment(noBefore));
    expect(await page.locator('#diff tbody tr').count()).toBe(0);
  });

  describe('the fetch simulation', () => {
    /** What the library's fetch makes of each status, per reading, fetched from a loopback server. */
    async function fetchReadings(code: number): Promise<FetchReading[]> {
      const site = await startServer({ '/robots.txt': code === 200 ? text(SMALL_FILE) : status(code) });
      const readings: FetchReading[] = [];
      for (const profile of READINGS) {
        const result = await library.fetchRobotsTxt(site.origin, { userAgent: 'ExampleBot/2.1', profile });
        result.robots?.dispose();
        readings.push({ profile, outcome: result.outcome, reason: result.reason });
      }
      await site.close();
      return readings;
    }

    /** The words and the section of RFC 9309 each outcome's row must say. */
    function expectWording(rows: readonly SimulationRow[]): void {
      for (const row of rows) {
        const said = row.text.toLowerCase();
        if (row.outcome === 'rules') expect(said, row.profile).toContain('full rules');
        if (row.outcome === 'disallow-all') {
          expect(said, row.profile).toContain('disallow all');
          expect(said, row.profile).toContain('2.3.1.4');
        }
        if (row.outcome === 'allow-all') {
          expect(said.replaceAll('disallow all', ''), row.profile).toContain('allow all');
          // RFC 9309's reading of a 4xx; Yandex's "anything but 200" is its own.
          if (row.reason === 'client-error') expect(said, row.profile).toContain('2.3.1.3');
        }
      }
    }

    it('reads a 503 as "disallow all" (RFC 9309 §2.3.1.4), as the library does, loaded from the fragment', async () => {
      const expected = await fetchReadings(503);
      expect(expected.filter((reading) => reading.profile !== 'yandex').map((reading) => reading.outcome)).toEqual([
        'disallow-all',
        'disallow-all',
      ]);
      await openFresh(page, pageUrl, plainFragment({ ...SMALL_STATE, simulate: '503' }));
      expect(await page.inputValue('#simulate-case')).toBe('503');
      const rows = await readSimulation(page);
      expect(rows.map(({ profile, outcome, reason }) => ({ profile, outcome, reason }))).toEqual(expected);
      expectWording(rows);
    });

    it('reads a 404 as "allow all" (§2.3.1.3) and a 200 as the full rules, chosen in the select', async () => {
      await openFresh(page, pageUrl, plainFragment(SMALL_STATE));
      for (const code of [404, 200, 503]) {
        const expected = await fetchReadings(code);
        await page.selectOption('#simulate-case', String(code));
        await expect
          .poll(async () => (await readSimulation(page)).map(({ profile, outcome, reason }) => ({ profile, outcome, reason })))
          .toEqual(expected);
        expectWording(await readSimulation(page));
      }
    });
  });

  describe.each([
    { width: 390, height: 844 },
    { width: 1440, height: 900 },
  ])('at $width px wide', ({ width, height }) => {
    const shown: LabState = {
      ...DIFF_STATE,
      simulate: '503',
      urls: [...DIFF_STATE.urls, '/a/very/long/path/that/a/phone/cannot/show/in/one/line/of/its/table/at/all?with=a&query=string'],
    };

    beforeAll(async () => {
      await page.setViewportSize({ width, height });
      await openFresh(page, pageUrl, plainFragment(shown));
    });

    it('passes axe-core with the matrix, the diff and the simulation shown; the matrix has a caption and scoped headers', async () => {
      expect((await readDiff(page)).rows.length).toBeGreaterThan(0);
      expect((await readSimulation(page)).length).toBe(3);
      const view = await readMatrix(page);
      expectMatrix(view, shown);

      const results = await new AxeBuilder({ page }).analyze();
      // Every form control has a name: the rules that check it ran and passed.
      const passed = new Set(results.passes.map((rule) => rule.id));
      expect(['button-name', 'label', 'select-name'].filter((rule) => !passed.has(rule))).toEqual([]);
      const violations = results.violations.map(
        (violation) => `${violation.id} (${violation.help}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
      );
      expect(violations).toEqual([]);
    });

    if (width === 390) {
      it('does not scroll sideways as a whole (the matrix may scroll inside its own box)', async () => {
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(scrollWidth).toBeLessThanOrEqual(width);
      });
    }

    it('is photographed whole, for a reviewer', async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      const path = `${SCREENSHOTS}lab-${width}.png`;
      await page.screenshot({ path, fullPage: true });
      console.log(`lab: screenshot at ${width} px: ${path}`);
    });
  });

  it('weighs no more JavaScript and WebAssembly than its bound', async () => {
    const fresh = await newContext();
    try {
      // The context's responses: the page's own, and its service worker's (its script, and what it keeps).
      const loaded: string[] = [];
      fresh.on('response', (response) => void loaded.push(new URL(response.url()).pathname));
      const weighed = await fresh.newPage();
      await openFresh(weighed, pageUrl, plainFragment(SMALL_STATE));
      await weighed.waitForLoadState('networkidle');
      const code = [...new Set(loaded)].filter((path) => /\.(?:m?js|wasm)$/.test(path));
      expect(code.filter((path) => !served.has(path))).toEqual([]);
      const files = code.map((path) => served.get(path) ?? new Uint8Array());
      const bytes = files.reduce((sum, file) => sum + file.length, 0);
      const gzipped = files.reduce((sum, file) => sum + gzipSync(file).length, 0);
      console.log(`lab: ${code.length} JavaScript and WebAssembly files, ${bytes} bytes, ${gzipped} gzipped (${code.join(', ')})`);
      expect(code.length).toBeGreaterThan(0);
      expect(bytes).toBeLessThanOrEqual(WEIGHT_BOUND.bytes);
      expect(gzipped).toBeLessThanOrEqual(WEIGHT_BOUND.gzipped);
    } finally {
      await fresh.close();
    }
  });

  it('keeps answering offline once loaded', async () => {
    const offline = await newContext();
    try {
      const alone = await offline.newPage();
      await openFresh(alone, pageUrl, plainFragment(SMALL_STATE));
      await alone.waitForLoadState('networkidle');
      // A service worker, where the page registers one, keeps its files once it controls the page.
      const worker = await alone.evaluate(
        async () => 'serviceWorker' in navigator && (await navigator.serviceWorker.getRegistration()) !== undefined,
      );
      if (worker) await alone.waitForFunction(() => navigator.serviceWorker.controller !== null);
      const failedBefore = traffic.failed.length;
      await offline.setOffline(true);
      const urls = ['/private/offline', '/private/open/offline', '/offline.pdf', '/no-google/offline'];
      await afterRender(alone, urls, () => alone.fill('#urls', urls.join('\n')));
      expectMatrix(await readMatrix(alone), { ...SMALL_STATE, urls });
      expect(traffic.failed.slice(failedBefore)).toEqual([]);

      // Loaded again with no network, where the page keeps its files (a service worker, in a secure context).
      console.log(`lab: offline ${worker ? 'with a service worker: edited, then loaded again' : 'without a service worker: edited'}`);
      if (worker) {
        await openFresh(alone, pageUrl, plainFragment({ ...SMALL_STATE, urls }));
        expectMatrix(await readMatrix(alone), { ...SMALL_STATE, urls });
        // The worker tries the network first: those tries fail, as they must offline, and are not the page's failures.
        const tries = traffic.failed.splice(failedBefore);
        expect(tries.filter((failure) => !failure.endsWith('net::ERR_INTERNET_DISCONNECTED'))).toEqual([]);
      }
    } finally {
      await offline.close();
    }
  });

  it('asked nothing of any host but the test server, and threw nothing', async () => {
    // Loaded once more here, so that the traffic holds a whole load even when this test runs alone.
    await openFresh(page, pageUrl, plainFragment(SMALL_STATE));
    expect(traffic.requests.filter((url) => new URL(url).pathname.endsWith('.js')).length).toBeGreaterThan(0);
    expect(traffic.requests.filter((url) => new URL(url).origin !== server.origin)).toEqual([]);
    expect(traffic.responses.filter((response) => response.status >= 400).map((response) => `${response.status} ${response.url}`)).toEqual(
      [],
    );
    expect(traffic.failed).toEqual([]);
    expect(traffic.pageErrors).toEqual([]);
    expect(traffic.consoleErrors).toEqual([]);
  });
});
