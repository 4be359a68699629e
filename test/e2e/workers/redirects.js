/**
 * A Worker that fetches a site's robots.txt with publicHostsOnly as its host policy, the site's own origin (on
 * 127.0.0.1, as the tests' servers are) allowed besides, and answers test/e2e/workers/workers-redirects.test.ts with the
 * result and every URL the policy was asked about. Imported from dist/worker.js, as the `workerd` export
 * condition picks it.
 */
import { fetchRobotsTxt, publicHostsOnly } from '../../../dist/worker.js';

export default {
  async fetch(request) {
    const site = new URL(request.url).searchParams.get('site');
    const asked = [];
    const allowHost = (url) => (asked.push(url.href), url.origin === site || publicHostsOnly(url));
    const { outcome, reason, status, finalUrl, redirects } = await fetchRobotsTxt(site, { userAgent: 'ExampleBot/1.0', allowHost });
    return Response.json({ result: { outcome, reason, status, finalUrl, redirects }, asked });
  },
};
