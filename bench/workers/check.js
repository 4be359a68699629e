/**
 * The Worker bench/workers/run.mjs times inside workerd: it takes a robots.txt and URLs once (/setup), then runs
 * the loop each request names, so that the Node side can time loops of different lengths and subtract. For the
 * cold path it takes a sample of corpus files once (/cold-setup: each body as base64, with its first URL),
 * then runs that many passes over them (/cold?n=).
 */
import { matcherInfo, parseRobotsTxt } from '../../dist/worker.js';
import { coldPasses, timedLoops } from './loops.js';

let body = '';
let urls = [];
let rules;
let loops;
let cold;

/** @param {string} base64 */
function bytes(base64) {
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}

export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === '/setup') {
      ({ body, urls } = await request.json());
      rules?.dispose();
      rules = parseRobotsTxt(body).forAgent('ExampleBot');
      loops = timedLoops(parseRobotsTxt, body, urls, rules);
      return Response.json({ kind: matcherInfo().kind });
    }
    if (url.pathname === '/cold-setup') {
      const { files } = await request.json();
      cold = coldPasses(
        parseRobotsTxt,
        files.map((file) => ({ body: bytes(file.body), url: file.url })),
      );
      return Response.json({ files: files.length, kind: matcherInfo().kind });
    }
    if (url.pathname === '/cold') return Response.json({ sum: cold(Number(url.searchParams.get('n'))) });
    const sum = loops[url.searchParams.get('mode')](Number(url.searchParams.get('n')));
    return Response.json({ sum });
  },
};
