/**
 * A Worker that uses robots-parser's drop-in through its Workers entry (dist/robots-parser-worker.js, as the
 * `workerd` condition of `robotstxt-wasm/compat/robots-parser` picks it) and answers with what it saw.
 */
import robotsParser from '../../../dist/robots-parser-worker.js';
import { matcherInfo } from '../../../dist/worker.js';

const SITE = 'User-agent: *\nDisallow: /private/\nAllow: /private/open\nCrawl-delay: 2\nSitemap: https://example.com/map.xml\n';

export default {
  fetch() {
    const robots = robotsParser('https://example.com/robots.txt', SITE);
    return Response.json({
      allowed: ['/private/x', '/private/open', '/public'].map((path) => robots.isAllowed(`https://example.com${path}`, 'ExampleBot/1.0')),
      otherOrigin: robots.isAllowed('https://other.example/private/x'),
      line: robots.getMatchingLineNumber('https://example.com/private/x'),
      crawlDelay: robots.getCrawlDelay('ExampleBot'),
      sitemaps: robots.getSitemaps(),
      matcher: matcherInfo().kind,
    });
  },
};
