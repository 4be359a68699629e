/** The robots.txt that test/e2e/runtimes/smoke.mjs reads, and that test/e2e/runtimes/runtimes.test.ts serves on loopback for its RobotsCache. */
export const ROBOTS = [
  'User-agent: *',
  'Disallow: /private/',
  'Allow: /private/open',
  'Disallow: /*.pdf$',
  'Crawl-delay: 2',
  '',
  'User-agent: SmokeBot',
  'Disallow: /no-bots/',
  'Allow: /caf%C3%A9/',
  'Disallow: /café',
  'Disallow: /odd%EF%BF%BD/',
  '',
  'Sitemap: https://example.com/sitemap.xml',
  '',
].join('\n');
