/**
 * `using` with the published declarations, where the user's lib declares Symbol.dispose (esnext):
 * compiled by test/package/package.test.ts with the esnext configuration; not run.
 */
import { parseRobotsTxt, RobotsCache } from 'robotstxt-wasm';

export function check(): boolean {
  using robots = parseRobotsTxt('User-agent: *\nDisallow: /private/\n');
  using rules = robots.forAgent('ExampleBot');
  using cache = new RobotsCache({ userAgent: 'ExampleBot/1.2' });
  return rules.isAllowed('/private/x') || cache.size > 0;
}
