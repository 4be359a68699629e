/**
 * The Worker bench/workers.mjs times inside workerd: it takes a robots.txt and URLs once (/setup), then runs
 * the loop each request names, so that the Node side can time loops of different lengths and subtract.
 */
import { matcherInfo, parseRobotsTxt } from '../../dist/worker.js';
import { timedLoops } from './loops.js';

let body = '';
let urls = [];
let rules;
let loops;

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
    const sum = loops[url.searchParams.get('mode')](Number(url.searchParams.get('n')));
    return Response.json({ sum });
  },
};
