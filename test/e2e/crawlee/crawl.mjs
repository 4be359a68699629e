/**
 * Run by test/e2e/crawlee/crawlee-robots-parser.test.ts from inside an assembled Crawlee install (it is copied there, so that
 * its imports resolve in that install's node_modules, as a user's crawler does). A CheerioCrawler with
 * `respectRobotsTxtFile` crawls the sites in CRAWL (JSON: `{ startUrls, sites, userAgent, result }`): every link
 * into one of `sites` (origins) is enqueued, any other is not, and the sitemaps that each start URL's robots.txt
 * lists (read through Crawlee's RobotsTxtFile) add their URLs. Writes to `result`, as JSON, what was handled and
 * skipped and which file Crawlee loaded as robots-parser.
 */
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { CheerioCrawler } from '@crawlee/cheerio';
import { RobotsTxtFile } from '@crawlee/utils';

const { startUrls, sites, userAgent, result } = JSON.parse(process.env.CRAWL);
// Crawlee's default strategy (same-hostname) matches the page's origin, port included; these sites link to each other.
const intoSites = sites.map((origin) => new RegExp(`^${origin.replaceAll('.', '\\.')}/`));

const fromSitemaps = [];
const origins = new Set(startUrls.map((url) => new URL(url).origin));
for (const origin of origins) fromSitemaps.push(...(await (await RobotsTxtFile.find(origin)).parseUrlsFromSitemaps()));

const handled = [];
const skipped = [];
const crawler = new CheerioCrawler({
  respectRobotsTxtFile: { userAgent },
  maxRequestRetries: 0,
  onSkippedRequest: ({ url, reason }) => void skipped.push({ url, reason }),
  async requestHandler({ request, enqueueLinks }) {
    handled.push(request.url);
    await enqueueLinks({ strategy: 'all', regexps: intoSites });
  },
});
await crawler.run([...startUrls, ...fromSitemaps]);

// Where robots-parser resolves from Crawlee's own package, and which such files Node loaded.
const require = createRequire(import.meta.url);
const fromUtils = createRequire(require.resolve('@crawlee/utils'));
const loaded = Object.keys(require.cache).filter((file) => /[\\/]robots-parser[\\/]/.test(file));
await writeFile(
  result,
  JSON.stringify({
    handled,
    skipped,
    fromSitemaps,
    robotsParser: { resolved: fromUtils.resolve('robots-parser'), name: fromUtils('robots-parser/package.json').name, loaded },
  }),
);
