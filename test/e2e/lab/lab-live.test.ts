/**
 * The lab served by `robotstxt lab`, in Chromium: the page knows it is live, and its "Fetch its robots.txt" form
 * asks the command, which fetches through fetchRobotsTxt() under the command's host policy. The site is a real
 * server on 127.0.0.1, which the policy refuses unless `--allow-internal-hosts` is given: with it, the fetched file
 * fills the editor and the matrix decides on it; without it, the page says the host was refused and the site is
 * never asked. Every request the browser makes goes to the command's address.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromiumTool, launchChromium } from '../../support/chromium.js';
import { closeServers, startServer, text } from '../../support/http-server.js';
import { startLab, stopLabs, type Lab } from '../../support/lab-command.js';
import { afterRender, plainFragment, readMatrix, waitForReady } from '../../support/lab-page.js';

const chromium = chromiumTool();

const SITE_FILE = 'User-agent: *\nDisallow: /members/\n';
const STATE = {
  robots: 'User-agent: *\nDisallow: /\n',
  agents: ['ExampleBot'],
  urls: ['/', '/members/area'],
  profiles: ['rfc9309' as const],
};

describe.skipIf(!chromium.found)('the lab served by robotstxt lab, in Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    if (chromium.found) browser = await launchChromium(chromium.path);
  });

  afterAll(async () => {
    await browser?.close();
  });

  afterEach(async () => {
    await stopLabs();
    await closeServers();
  });

  /** Opens the lab at `lab`'s address with the test's state, recording every request the browser makes. */
  async function open(lab: Lab): Promise<{ page: Page; requested: string[] }> {
    const context = await browser.newContext();
    const requested: string[] = [];
    context.on('request', (request) => requested.push(request.url()));
    const page = await context.newPage();
    await page.goto(`${lab.address}${plainFragment(STATE)}`);
    await waitForReady(page);
    return { page, requested };
  }

  /** The editor's lines as it shows them (a short file: every line is drawn). */
  function editorLines(page: Page): Promise<string[]> {
    return page.locator('#robots-editor .cm-line').allTextContents();
  }

  /** Fetches `site` through the page's form, and waits for the render that follows. */
  async function fetchThroughPage(page: Page, site: string): Promise<void> {
    await afterRender(page, STATE.urls, async () => {
      await page.getByLabel('Site').fill(site);
      await page.getByRole('button', { name: 'Fetch its robots.txt' }).click();
    });
  }

  it('fetches a live robots.txt through the command into the editor, and decides on it', async () => {
    const site = await startServer({ '/robots.txt': text(SITE_FILE) });
    const lab = await startLab(['--allow-internal-hosts']);
    const { page, requested } = await open(lab);
    expect(await page.evaluate(() => document.documentElement.dataset.labMode)).toBe('live');
    expect((await readMatrix(page)).rows.map((row) => row.cells.map((cell) => cell.text))).toEqual([['disallowed'], ['disallowed']]);

    await fetchThroughPage(page, site.origin);
    expect(await editorLines(page)).toEqual(SITE_FILE.split('\n'));
    expect((await readMatrix(page)).rows.map((row) => row.cells.map((cell) => cell.text))).toEqual([['allowed'], ['disallowed']]);
    expect(await page.locator('#status').innerText()).toContain(`${site.origin}/robots.txt answered 200`);
    // The site was asked by the command, with the command's User-Agent; the browser asked only the command.
    expect(site.requests.map((request) => request.path)).toEqual(['/robots.txt']);
    expect(site.requests[0]?.headers['user-agent']).toMatch(/^robotstxt-cli\//);
    expect(requested.every((url) => url.startsWith(lab.address))).toBe(true);
    await page.context().close();
  });

  it('refuses an internal host by default: the page says so, keeps its file, and the site is never asked', async () => {
    const site = await startServer({ '/robots.txt': text(SITE_FILE) });
    const lab = await startLab();
    const { page, requested } = await open(lab);
    await fetchThroughPage(page, site.origin);
    expect(await page.locator('#status').innerText()).toContain('host-refused');
    expect(await editorLines(page)).toEqual(STATE.robots.split('\n'));
    expect(site.requests).toEqual([]);
    expect(requested.every((url) => url.startsWith(lab.address))).toBe(true);
    await page.context().close();
  });
});
