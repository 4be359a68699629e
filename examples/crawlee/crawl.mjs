/**
 * A Crawlee crawler that obeys robots.txt through robotstxt-wasm's RobotsCache instead of Crawlee's
 * `respectRobotsTxtFile`. The difference is in how robots.txt is fetched: RFC 9309 §2.3.1.3 asks a crawler to take
 * a site whose robots.txt is unreachable (5xx, 429, a timeout) as disallowing everything, and one without a robots.txt
 * (4xx) as allowing everything; Crawlee's own fetch fails on any answer but 2xx and 404, and then crawls the site as if
 * it had no rules. RobotsCache also caches each origin's file by its Cache-Control, backs off from failing sites, and
 * can share what it fetched with the crawler's other processes.
 *
 *   node examples/crawlee/crawl.mjs https://www.example.com/ https://www.example.org/
 *
 * It crawls the origins of the URLs it is given, and requests nothing of any other host: links elsewhere are not
 * enqueued, redirects elsewhere are not followed, and RobotsCache's `allowHost` refuses them too. It prints what it
 * crawled and what robots.txt kept it from, as JSON.
 */
import { pathToFileURL } from 'node:url';
import { CheerioCrawler, NonRetryableError } from '@crawlee/cheerio';
import { RobotsCache } from 'robotstxt-wasm';

/** The crawler's User-Agent header: its product token, ExampleBot, is what robots.txt groups are matched against. */
const USER_AGENT = 'Mozilla/5.0 (compatible; ExampleBot/1.0; +https://www.example.com/bot)';

/** `href` read against `base`, as a browser reads a link; null when it does not parse. */
function parseLink(href, base) {
  try {
    const url = new URL(href, base);
    url.hash = '';
    return url;
  } catch {
    return null;
  }
}

/**
 * Crawls from `startUrls` within their origins, up to `maxRequests` pages. Returns the URLs crawled, those that
 * robots.txt disallowed, each with the reason RobotsCache gives (`ok`: a rule of the file; `server-error`,
 * `rate-limited`, `timeout`, `network-error`: the site's robots.txt could not be read, so nothing of it is
 * crawled), and those whose redirect to another host was not followed, each with its target.
 */
export async function crawl(startUrls, { userAgent = USER_AGENT, maxRequests = 200 } = {}) {
  const origins = new Set(startUrls.map((url) => new URL(url).origin));
  const isGiven = (url) => origins.has(new URL(url).origin);

  const robots = new RobotsCache({
    userAgent,
    allowHost: (url) => origins.has(url.origin),
    // A fleet of crawler processes shares one fetch per origin through Redis: create the client once, then
    //   import { redisStore } from 'robotstxt-wasm/redis';
    //   store: redisStore(client),
    // here (docs/fleet.md).
  });

  const crawled = [];
  const disallowed = new Map();
  /** Pages that redirected to a host that was not given → where to. */
  const notFollowed = new Map();

  /** `urls` less those robots.txt disallows, which are noted with the reason. */
  async function allowedOnly(urls) {
    const verdicts = await Promise.all(urls.map((url) => robots.explain(url)));
    return urls.filter((url, index) => {
      const verdict = verdicts[index];
      if (!verdict.allowed) disallowed.set(url, verdict.source.reason);
      return verdict.allowed;
    });
  }

  const crawler = new CheerioCrawler({
    maxRequestsPerCrawl: maxRequests,
    maxRequestRetries: 1,
    preNavigationHooks: [
      async ({ request }, gotOptions) => {
        // Every request passes here before it is sent: the start URLs, requests added by other code, and links whose
        // site's robots.txt changed while they waited in the queue. A disallowed one fails, never retried (Crawlee
        // logs it as failed; the result lists it as disallowed).
        if ((await allowedOnly([request.url])).length === 0) throw new NonRetryableError(`robots.txt disallows ${request.url}`);
        gotOptions.headers = { ...gotOptions.headers, 'user-agent': robots.userAgent };
        // A redirect to another origin is not followed: that host was not given (Crawlee then logs the request as
        // failed, and the result lists it).
        gotOptions.followRedirect = (response) => {
          const target = new URL(response.headers.location ?? '', response.url);
          if (isGiven(target)) return true;
          notFollowed.set(request.url, target.href);
          return false;
        };
      },
    ],
    async requestHandler({ request, $, enqueueLinks }) {
      crawled.push(request.url);
      // The filter before enqueueing: links into the given origins, then those robots.txt allows.
      const links = $('a[href]')
        .map((_, anchor) => parseLink($(anchor).attr('href') ?? '', request.loadedUrl ?? request.url))
        .get()
        .filter((url) => url !== null && (url.protocol === 'http:' || url.protocol === 'https:') && isGiven(url))
        .map((url) => url.href);
      await enqueueLinks({ urls: await allowedOnly(links), strategy: 'all' });
    },
    failedRequestHandler({ request }, error) {
      if (!(error instanceof NonRetryableError) && !notFollowed.has(request.url)) console.error(`${request.url}: ${error.message}`);
    },
  });

  await crawler.run(startUrls);
  robots.dispose();
  return { crawled, disallowed: Object.fromEntries(disallowed), notFollowed: Object.fromEntries(notFollowed) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const startUrls = process.argv.slice(2);
  if (startUrls.length === 0) {
    console.error('usage: node examples/crawlee/crawl.mjs URL…  (crawls the origins of these URLs)');
    process.exitCode = 2;
  } else {
    console.log(JSON.stringify(await crawl(startUrls), null, 2));
  }
}
