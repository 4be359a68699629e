/**
 * The app that test/e2e/browser/browser.test.ts loads in Chromium: served as written behind an import map, and bundled by
 * esbuild and by Vite. It uses the package as a page would (init() first: a browser's main thread compiles
 * WebAssembly only asynchronously) and leaves what it found in `window.robotstxtReport` for the test to read;
 * an exception is reported there too, so the test fails with its message instead of waiting.
 */
import { init, matcherInfo, parseRobotsTxt } from 'robotstxt-wasm';
import robotsParser from 'robotstxt-wasm/compat/robots-parser';

const ROBOTS_TXT =
  'User-agent: *\nDisallow: /private/\nAllow: /private/press\nCrawl-delay: 2\n\nSitemap: https://example.com/sitemap.xml\n';
const URLS = ['https://example.com/', 'https://example.com/private/plans', 'https://example.com/private/press/2026'];

async function report() {
  await init();
  const rules = parseRobotsTxt(ROBOTS_TXT).forAgent('ExampleBot');
  const dropIn = robotsParser('https://example.com/robots.txt', ROBOTS_TXT);
  return {
    verdicts: URLS.map((url) => rules.isAllowed(url)),
    explained: rules.explain('https://example.com/private/plans'),
    crawlDelay: rules.crawlDelay,
    dropIn: {
      verdicts: URLS.map((url) => dropIn.isAllowed(url, 'ExampleBot')),
      sitemaps: dropIn.getSitemaps(),
    },
    // Read last: the kind of matcher that answered everything above.
    matcher: matcherInfo().kind,
  };
}

report().then(
  (found) => (window.robotstxtReport = found),
  (error) => (window.robotstxtReport = { error: String(error?.stack ?? error) }),
);
