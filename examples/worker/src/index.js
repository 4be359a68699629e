/**
 * A robots gate in front of a site, as a Cloudflare Worker: robots.txt is advisory, and this makes it
 * enforceable for the crawlers that say who they are. A request whose User-Agent names a crawler (its
 * product token, as productToken() reads it) for a path the site's robots.txt disallows to that crawler gets
 * 403 and the rule that decided; everything else (browsers, allowed paths, exempt crawlers, robots.txt
 * itself) passes through to the site unchanged. Configuration: wrangler.toml beside this file, README.md.
 */
import { productToken, RobotsCache } from 'robotstxt-wasm';

/**
 * One cache per isolate, shared by its requests: each site's robots.txt is fetched once per lifetime, and
 * concurrent requests share that fetch (RobotsCache is safe across requests in Workers).
 */
let cache;
/**
 * The site's parsed robots.txt, held so that its compiles for the crawlers seen so far live as long as it
 * does (the cache keeps only the bytes and parses again for whoever holds nothing).
 */
let robots;

function robotsCache(env) {
  // The gate asks on behalf of whichever crawler is at the door, so its own token names no group.
  cache ??= new RobotsCache({ userAgent: env.GATE_USER_AGENT || 'RobotsGate/1.0', agent: 'RobotsGate' });
  return cache;
}

function exemptAgents(env) {
  return new Set(
    (env.EXEMPT_AGENTS || '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== ''),
  );
}

/** The same request, sent to the site. */
function passThrough(request, upstream) {
  return fetch(new Request(upstream, request));
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const upstream = new URL(url.pathname + url.search, env.ORIGIN);
    const token = productToken(request.headers.get('user-agent') || '');
    // A browser names no crawler; robots.txt itself is for everyone to read.
    if (token === undefined || url.pathname === '/robots.txt' || exemptAgents(env).has(token.toLowerCase())) {
      return passThrough(request, upstream);
    }
    const cached = await robotsCache(env).get(upstream);
    // 'allow-all': the site has no robots.txt (4xx). 'disallow-all': it could not be read (5xx, timeout):
    // the gate enforces the site's rules and invents none, so it lets the request through.
    if (cached.outcome !== 'rules') return passThrough(request, upstream);
    // Every token that no group names shares one compile of the `*` rules: an attacker who sends a new
    // name on every request compiles nothing new (at most once per name the file has, plus once).
    robots = cached.robots;
    const verdict = robots.forAgent(token).explain(upstream);
    if (verdict.allowed) return passThrough(request, upstream);
    const message = env.BLOCK_MESSAGE || "This path is disallowed for your crawler by this site's robots.txt.";
    const body = `${message}\n\nCrawler: ${token}\nRule: ${verdict.rule.kind}: ${verdict.rule.pattern} (line ${verdict.line} of ${cached.robotsUrl})\n`;
    return new Response(body, { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
  },
};
