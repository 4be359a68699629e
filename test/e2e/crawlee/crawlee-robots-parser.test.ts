/**
 * Crawlee with robots-parser-wasm where robots-parser was: Crawlee (@crawlee/utils, under every
 * crawler's `respectRobotsTxtFile`) imports robots-parser itself, so its users switch by an override, which
 * installs robots-parser-wasm under robots-parser's name. The user's install is assembled here without a registry
 * (test/support/crawlee-install.ts: the installed Crawlee packages, copied, and the packed drop-in), and a real
 * CheerioCrawler crawls real sites on 127.0.0.1 in a child process. The servers' request logs say what was
 * fetched; the reference for what may be is the real robots-parser (the root's devDependency). Nothing leaves the
 * loopback interface: the child runs with test/support/cli-network-preload.mjs, which refuses, and reports, any
 * other connection and answers no DNS query.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import robotsParser from 'robots-parser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { corpusDirectory, loadCorpus } from '../../support/corpus.js';
import { assembleCrawleeInstall } from '../../support/crawlee-install.js';
import { ROOT, packDropIn } from '../../support/drop-in-package.js';
import { closeServers, startServer, text, type TestServer } from '../../support/http-server.js';

const execFileAsync = promisify(execFile);
const AGENT = 'crawleetestbot';
const NETWORK_PRELOAD = join(ROOT, 'test/support/cli-network-preload.mjs');

let scratch: string;
/** The user's install: Crawlee, and robots-parser-wasm as node_modules/robots-parser. */
let install: string;
let dropInFolder: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'crawlee-robots-parser-'));
  const { tarball } = await packDropIn(scratch);
  install = join(scratch, 'install');
  dropInFolder = await realpath(await assembleCrawleeInstall(install, tarball));
  // Packing and copying some 40 MB of packages.
}, 60_000);

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

afterEach(closeServers);

/** Copies `script` (in test/e2e/crawlee/) into `folder`, so that it resolves packages there, and returns its path. */
async function placeScript(script: string, folder: string): Promise<string> {
  const target = join(folder, script);
  await copyFile(join(ROOT, 'test/e2e/crawlee', script), target);
  return target;
}

/** A site: its robots.txt, its pages (path → the links on it, relative or absolute), and its sitemap's paths. */
interface Site {
  readonly server: TestServer;
  readonly robots: string;
  readonly pages: Record<string, readonly string[]>;
  readonly sitemap?: readonly string[];
}

function serve(site: Site): void {
  site.server.route('/robots.txt', text(site.robots));
  for (const [path, links] of Object.entries(site.pages)) {
    const anchors = links.map((link) => `<a href="${link}">${link}</a>`).join('\n');
    site.server.route(path, text(`<!doctype html><title>${path}</title>\n${anchors}\n`, 200, { 'content-type': 'text/html' }));
  }
  if (site.sitemap !== undefined) {
    const entries = site.sitemap.map((path) => `<url><loc>${site.server.origin}${path}</loc></url>`).join('');
    const xml = `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries}</urlset>`;
    site.server.route('/sitemap.xml', text(xml, 200, { 'content-type': 'application/xml' }));
  }
}

/**
 * The pages a crawler that obeys robots-parser (the real one) reaches from `starts`, following links into the
 * sites only, each page fetched only where its site's robots.txt allows it.
 */
function allowedReachable(sites: readonly Site[], starts: readonly string[]): { allowed: Set<string>; disallowed: Set<string> } {
  const byOrigin = new Map(sites.map((site) => [site.server.origin, site]));
  const allowed = new Set<string>();
  const disallowed = new Set<string>();
  const pending = [...starts];
  for (let url = pending.pop(); url !== undefined; url = pending.pop()) {
    const { origin, pathname, search } = new URL(url);
    const site = byOrigin.get(origin);
    if (site === undefined || allowed.has(url) || disallowed.has(url)) continue;
    if (robotsParser(`${origin}/robots.txt`, site.robots).isAllowed(url, AGENT) === false) {
      disallowed.add(url);
      continue;
    }
    allowed.add(url);
    for (const link of site.pages[pathname + search] ?? []) pending.push(new URL(link, url).href);
  }
  return { allowed, disallowed };
}

/** Every page URL that `servers` were asked for, robots.txt and sitemaps left out. */
function requestedPages(servers: readonly TestServer[]): Set<string> {
  return new Set(
    servers.flatMap((server) =>
      server.requests
        .map((request) => request.path)
        .filter((path) => path !== '/robots.txt' && path !== '/sitemap.xml')
        .map((path) => server.origin + path),
    ),
  );
}

interface CrawlResult {
  handled: string[];
  skipped: { url: string; reason: string }[];
  fromSitemaps: string[];
  robotsParser: { resolved: string; name: string; loaded: string[] };
}

describe('Crawlee with robots-parser-wasm as its robots-parser (an override, assembled offline)', () => {
  it('a CheerioCrawler with respectRobotsTxtFile requests every allowed page it reaches and no disallowed one', async () => {
    const [a, b, c] = await Promise.all([startServer(), startServer(), startServer()]);
    const sites: Site[] = [
      {
        server: a,
        // The crawler's own group applies, not `*`'s.
        robots: `User-agent: *\nDisallow: /\n\nUser-agent: ${AGENT}\nDisallow: /private/\nAllow: /private/open\nDisallow: /search\n\nSitemap: ${a.origin}/sitemap.xml\n`,
        pages: {
          '/': ['/about', '/private/secret', '/private/open', '/search?q=robots', `${b.origin}/`, 'https://example.com/elsewhere'],
          '/about': ['/', '/private/also-secret'],
          '/private/open': [],
          '/private/secret': [],
          '/private/also-secret': [],
          '/search?q=robots': [],
          '/from-sitemap': [],
          '/private/from-sitemap': [],
        },
        sitemap: ['/from-sitemap', '/private/from-sitemap'],
      },
      {
        server: b,
        robots: 'User-agent: *\nDisallow: /*.pdf$\nDisallow: /tmp\nAllow: /tmp/ok$\n',
        pages: {
          '/': ['/doc.pdf', '/doc.pdf?download=1', '/tmp/a', '/tmp/ok', '/tmpfile', '/page', `${c.origin}/`],
          '/doc.pdf': [],
          '/doc.pdf?download=1': [],
          '/tmp/a': [],
          '/tmp/ok': [],
          '/tmpfile': [],
          '/page': ['/tmp/ok/deeper'],
          '/tmp/ok/deeper': [],
        },
      },
      {
        server: c,
        robots: '# Others only.\nUser-agent: other-bot\nDisallow: /\n\nUser-agent: *\nDisallow: /cgi-bin/\nCrawl-delay: 0\n',
        pages: { '/': ['/cgi-bin/run', '/public', `${a.origin}/about`], '/cgi-bin/run': [], '/public': [] },
      },
    ];
    sites.forEach(serve);
    const startUrls = [`${a.origin}/`, `${a.origin}/private/secret`];

    const script = await placeScript('crawl.mjs', install);
    const result = join(scratch, 'crawl-result.json');
    const { stderr } = await execFileAsync(process.execPath, ['--import', NETWORK_PRELOAD, script], {
      cwd: install,
      timeout: 120_000,
      env: {
        ...process.env,
        CRAWL: JSON.stringify({ startUrls, sites: [a, b, c].map((server) => server.origin), userAgent: AGENT, result }),
        // Crawlee's storage in the scratch folder, emptied first and not kept; its log at warnings and above.
        CRAWLEE_STORAGE_DIR: join(scratch, 'storage'),
        CRAWLEE_PURGE_ON_START: 'true',
        CRAWLEE_PERSIST_STORAGE: 'false',
        CRAWLEE_LOG_LEVEL: 'WARNING',
        ROBOTSTXT_TEST_DNS: '',
      },
    });
    const crawl = JSON.parse(await readFile(result, 'utf8')) as CrawlResult;

    // What the real robots-parser allows and forbids on these sites, from the sitemap's URLs and the start URLs.
    const expected = allowedReachable(sites, [...startUrls, `${a.origin}/from-sitemap`, `${a.origin}/private/from-sitemap`]);
    expect([...expected.disallowed].map((url) => url.replace(/^http:\/\/127\.0\.0\.1:\d+/, '')).sort()).toEqual(
      [
        '/cgi-bin/run',
        '/doc.pdf',
        '/private/also-secret',
        '/private/from-sitemap',
        '/private/secret',
        '/search?q=robots',
        '/tmp/a',
        '/tmp/ok/deeper',
        '/tmpfile',
      ].sort(),
    );
    expect(crawl.fromSitemaps.sort()).toEqual([`${a.origin}/from-sitemap`, `${a.origin}/private/from-sitemap`]);

    const requested = requestedPages([a, b, c]);
    expect([...requested].filter((url) => expected.disallowed.has(url))).toEqual([]);
    expect([...requested].sort()).toEqual([...expected.allowed].sort());
    expect([...crawl.handled].sort()).toEqual([...expected.allowed].sort());
    // Crawlee skipped each disallowed page (some more than once: a start URL and a link) for its robots.txt.
    const skippedForRobots = new Set(crawl.skipped.filter((skip) => skip.reason === 'robotsTxt').map((skip) => skip.url));
    expect([...skippedForRobots].sort()).toEqual([...expected.disallowed].sort());
    for (const server of [a, b, c]) expect(server.count('/robots.txt'), server.origin).toBeGreaterThan(0);

    // Crawlee's robots-parser is the drop-in: resolved from @crawlee/utils, and the only such file Node loaded.
    expect(crawl.robotsParser).toEqual({
      resolved: join(dropInFolder, 'dist/index.cjs'),
      name: 'robots-parser-wasm',
      loaded: [join(dropInFolder, 'dist/index.cjs')],
    });

    // Every connection went to the three servers; none was refused.
    const connections = stderr.split('\n').filter((line) => line.startsWith('[test-network]'));
    expect(connections.filter((line) => !line.startsWith('[test-network] connect '))).toEqual([]);
    const ports = new Set([a, b, c].map((server) => `127.0.0.1:${server.port}`));
    expect(connections.map((line) => line.slice('[test-network] connect '.length)).filter((target) => !ports.has(target))).toEqual([]);
    expect(connections.length).toBeGreaterThan(0);
  });
});

/** robots.txt files of every shape Crawlee meets, and the URLs to ask of each: its own rules' paths and more. */
function varied(): { url: string; body: string }[] {
  const files = [
    'User-agent: *\nDisallow: /private/\nAllow: /private/open\n',
    '\ufeffUser-agent: *\r\nDisallow: /a\r\nSitemap: https://site.example/s.xml\r\n',
    'User-agent: crawleetestbot\nUser-agent: otherbot\nDisallow: /shared\n\nUser-agent: *\nDisallow: /\n',
    'User-agent: *\nDisallow: /*.php$\nDisallow: /*?session=\nAllow: /public*.php$\n',
    'User-agent: *\nDisallow:\n\nUser-agent: crawleetestbot\nDisallow: /x\nCrawl-delay: 5\n',
    '# comment only\n\n',
    '',
    'Disallow: /before-any-agent\nUser-agent: *\nDisallow: /after\n',
    'User-agent: *\nDisallow: /%7Ejoe/\nDisallow: /caf%C3%A9\nDisallow: /~mary/\n',
    'User-agent: *\nDisallow: /a\nUser-agent: crawleetestbot\nAllow: /a\nDisallow: /b\n',
    'user-agent: CrawleeTestBot/1.2\ndisallow: /case\nALLOW: /case/open\n',
    'User-agent: *\nDisallow: /$\nAllow: /*$\nSitemap: /relative.xml\nSitemap: https://other.example/map.xml\n',
    'User-agent: *\nNoindex: /n\nDisallow: /d # trailing comment\nHost: Site.Example\n',
    `User-agent: *\n${Array.from({ length: 200 }, (_, i) => `Disallow: /p${i}/*/q$`).join('\n')}\n`,
  ];
  const corpus = corpusDirectory() === undefined ? [] : loadCorpus().slice(0, 300);
  const decoder = new TextDecoder();
  return [...files, ...corpus.map((file) => decoder.decode(file.body))].map((body) => ({ url: 'https://site.example/robots.txt', body }));
}

/** The paths a file's own rules name (wildcards filled in, `$` dropped), and a few of every site. */
function pathsOf(body: string): string[] {
  const paths = new Set(['/', '/a', '/private/x', '/index.php', '/page?session=1']);
  for (const match of body.matchAll(/^\s*(?:dis)?allow\s*:\s*(\/[^\s#]*)/gim)) {
    const pattern = (match[1] ?? '/').replace(/\$$/, '');
    paths.add(pattern.replaceAll('*', 'x'));
    paths.add(`${pattern.replaceAll('*', '')}tail`);
  }
  return [...paths].slice(0, 40);
}

describe("Crawlee's RobotsTxtFile.from(url, text) with the drop-in", () => {
  it('answers as with the real robots-parser, file by file, URL by URL, agent by agent', async () => {
    const questions = varied().map(({ url, body }) => ({
      url,
      body,
      urls: [...pathsOf(body).map((path) => `https://site.example${path}`), 'https://other.example/a'],
      agents: [AGENT, 'otherbot', '*'],
    }));
    const questionsFile = join(scratch, 'questions.json');
    await writeFile(questionsFile, JSON.stringify(questions));

    // The reference: the same script, in a folder whose node_modules is the root's (Crawlee with the real robots-parser).
    const reference = join(scratch, 'reference');
    await mkdir(reference, { recursive: true });
    await symlink(join(ROOT, 'node_modules'), join(reference, 'node_modules'), 'dir');
    const ask = async (folder: string): Promise<{ allowed: boolean[][]; sitemaps: string[] }[]> => {
      const answers = join(folder, 'answers.json');
      await execFileAsync(process.execPath, [await placeScript('robots-txt-file.mjs', folder), questionsFile, answers], { cwd: folder });
      return JSON.parse(await readFile(answers, 'utf8')) as { allowed: boolean[][]; sitemaps: string[] }[];
    };
    const [withDropIn, withRobotsParser] = await Promise.all([ask(install), ask(reference)]);
    expect(withDropIn).toHaveLength(questions.length);
    for (const [index, answer] of withDropIn.entries()) {
      expect(answer, `file ${index}:\n${questions[index]?.body.slice(0, 300)}`).toEqual(withRobotsParser[index]);
    }
    // Not a vacuous agreement: both allow and disallow are among the answers.
    const verdicts = new Set(withDropIn.flatMap((answer) => answer.allowed.flat()));
    expect(verdicts).toEqual(new Set([true, false]));
  });
});
