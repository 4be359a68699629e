/**
 * Working on a file in the lab, in Chromium: opening one (the file picker, or dropped on the editor), the size
 * meters against the 500 KiB and Yandex's 32 KB, the linter's findings in the editor's gutter and under the text
 * (severity, code, message, and which readings apply the line differently), the common crawlers' presets, and
 * moving between verdicts with the arrow keys. The built page (dist/lab/) is served from 127.0.0.1.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { chromiumTool, launchChromium } from '../../support/chromium.js';
import { closeServers, startServer, text } from '../../support/http-server.js';
import { afterRender, openFresh, plainFragment, readMatrix, type LabState } from '../../support/lab-page.js';
import { filesUnder, serveFiles } from '../../support/static-files.js';

const chromium = chromiumTool();
const LAB = fileURLToPath(new URL('../../../dist/lab/', import.meta.url));

const STATE: LabState = {
  robots: 'User-agent: *\nDisallow: /\n',
  agents: ['ExampleBot'],
  urls: ['/', '/private/x', '/café/menu'],
  profiles: ['rfc9309', 'google'],
};

/** A file with an error (a rule before any group), a warning (a key only Google reads), and a line the readings apply differently. */
const LINTED = ['Disallow: /early/', 'User-agent: *', 'Disallow /no-colon/', 'Disallow: /café/', ''].join('\n');

describe.skipIf(!chromium.found)('editing in the lab, in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let pageUrl: string;

  beforeAll(async () => {
    if (!chromium.found) return;
    const served = filesUnder('/lab/', LAB);
    const index = served.get('/lab/index.html');
    if (index === undefined) throw new Error(`no ${LAB}index.html: \`npm run build\` builds the lab last`);
    const server = await startServer();
    serveFiles(server, served);
    server.route('/lab/', text(index, 200, { 'content-type': 'text/html; charset=utf-8' }));
    pageUrl = `${server.origin}/lab/`;
    browser = await launchChromium(chromium.path);
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await closeServers();
  });

  function verdicts(): Promise<string[][]> {
    return readMatrix(page).then((view) => view.rows.map((row) => row.cells.map((cell) => cell.text)));
  }

  it('opens a file from the picker, and decides on it', async () => {
    await openFresh(page, pageUrl, plainFragment(STATE));
    expect(await verdicts()).toEqual([
      ['disallowed', 'disallowed'],
      ['disallowed', 'disallowed'],
      ['disallowed', 'disallowed'],
    ]);
    await afterRender(page, STATE.urls, () =>
      page.setInputFiles('#open-file', {
        name: 'robots.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('User-agent: *\nDisallow: /private/\n'),
      }),
    );
    expect(await verdicts()).toEqual([
      ['allowed', 'allowed'],
      ['disallowed', 'disallowed'],
      ['allowed', 'allowed'],
    ]);
    expect(await page.locator('#status').innerText()).toContain('Opened robots.txt');
  });

  it('opens a file dropped on the editor', async () => {
    await openFresh(page, pageUrl, plainFragment(STATE));
    await afterRender(page, STATE.urls, async () => {
      const transfer = await page.evaluateHandle(() => {
        const data = new DataTransfer();
        data.items.add(new File(['User-agent: *\nDisallow: /café/\n'], 'dropped.txt', { type: 'text/plain' }));
        return data;
      });
      await page.dispatchEvent('#robots-editor', 'dragover', { dataTransfer: transfer });
      await page.dispatchEvent('#robots-editor', 'drop', { dataTransfer: transfer });
    });
    // RFC 9309 encodes the URL as the pattern; Google matches it as given: the readings disagree.
    expect(await verdicts()).toEqual([
      ['allowed', 'allowed'],
      ['allowed', 'allowed'],
      ['disallowed', 'allowed'],
    ]);
    expect((await readMatrix(page)).rows[2]?.cells.map((cell) => cell.disagree)).toEqual([true, true]);
  });

  it('measures the file against 500 KiB and 32 KB', async () => {
    const big = `User-agent: *\nDisallow: /x\n${'#'.repeat(40_000)}\n`;
    await openFresh(page, pageUrl, plainFragment({ ...STATE, robots: big }));
    const bytes = new TextEncoder().encode(big).length;
    expect(await page.locator('#size-google').evaluate((meter: HTMLMeterElement) => meter.value)).toBe(bytes);
    expect(await page.locator('#size-yandex').evaluate((meter: HTMLMeterElement) => meter.value)).toBe(32_768);
    expect(await page.locator('#size-google-text').innerText()).toContain(`${bytes.toLocaleString('en')} of 512,000 bytes`);
    expect(await page.locator('#size-yandex-text').innerText()).toContain('Yandex allows everything');
  });

  it('marks the linter’s findings in the gutter and under the text, with severity, code and message', async () => {
    await openFresh(page, pageUrl, plainFragment({ ...STATE, robots: LINTED, agents: ['ExampleBot'] }));
    // Each finding: a gutter marker of its severity, and its range underlined.
    await page.waitForSelector('.cm-lint-marker-error');
    expect(await page.locator('.cm-gutter-lint .cm-lint-marker-error').count()).toBeGreaterThan(0);
    expect(await page.locator('.cm-gutter-lint .cm-lint-marker-warning').count()).toBeGreaterThan(0);
    expect(await page.locator('.cm-lintRange-error').allTextContents()).toContain('Disallow: /early/');
    const findings = await page.locator('#findings li').allTextContents();
    expect(findings.find((finding) => finding.startsWith('Line 1: error'))).toContain('rule-before-user-agent');
    expect(findings.find((finding) => finding.startsWith('Line 3: warning'))).toContain('missing-colon');
    // Line 4 decides /café/menu under RFC 9309 and not under Google: the editor says so on the line.
    expect(findings.find((finding) => finding.startsWith('Line 4:'))).toMatch(
      /RFC 9309 applies it to \/café\/menu for ExampleBot, Google does not/,
    );
  });

  it('adds and removes a common crawler from the presets', async () => {
    await openFresh(page, pageUrl, plainFragment(STATE));
    await afterRender(page, STATE.urls, () => page.getByLabel('GPTBot', { exact: true }).check());
    expect(await page.inputValue('#agents')).toBe('ExampleBot\nGPTBot');
    expect((await readMatrix(page)).headers.slice(1).map((header) => `${header.agent} ${header.profile}`)).toEqual([
      'ExampleBot rfc9309',
      'ExampleBot google',
      'GPTBot rfc9309',
      'GPTBot google',
    ]);
    await afterRender(page, STATE.urls, () => page.getByLabel('GPTBot', { exact: true }).uncheck());
    expect(await page.inputValue('#agents')).toBe('ExampleBot');
  });

  it('moves between verdicts with the arrow keys, and chooses with Enter', async () => {
    await openFresh(page, pageUrl, plainFragment(STATE));
    await page.locator('#matrix tbody tr').first().locator('button').first().focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    const pressed = page.locator('#matrix button[aria-pressed="true"]');
    expect(await pressed.count()).toBe(1);
    const cell = pressed.locator('xpath=..');
    expect([await cell.getAttribute('data-profile'), await pressed.evaluate((button) => button.closest('tr')?.dataset.url)]).toEqual([
      'google',
      '/private/x',
    ]);
    expect(await page.locator('#explain').getAttribute('data-line')).toBe('2');
  });
});
