/**
 * A robots gate in front of a site, as a Cloudflare Worker: robots.txt is advisory, and this makes it
 * enforceable for the crawlers that say who they are. A request whose User-Agent names a crawler (any of the
 * product tokens productTokens() reads in it) for a path the site's robots.txt disallows to that crawler gets
 * 403 and the rule that decided; everything else (browsers, allowed paths, exempt crawlers, robots.txt
 * itself) passes through to the site unchanged. With CONTENT_USAGE_HEADER on, what passes through carries
 * the site's usage preferences for whoever asked, from the same robots.txt, as a `Content-Usage` header.
 * Configuration: wrangler.toml beside this file, README.md.
 *
 * Every request the gate makes goes to ORIGIN, whatever the path: a path is set on a copy of the origin's
 * URL, never resolved against it (`//other.example/x` would otherwise name another host, and the visitor's
 * cookies would go there), and the origin's redirects go back to the client instead of being followed.
 */
import { RobotsCache } from 'robotstxt-wasm';
import { ANY_CRAWLER, contentUsage, crawlersAtTheDoor, firstRefusal, usageAgents } from './crawlers.js';
import { pathReadings, readingsFromEnv } from './readings.js';

/** The configuration, read and checked once per isolate: a bad one answers 500, never a request elsewhere. */
let config;
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

class ConfigurationError extends Error {}

/** ORIGIN as a URL: http(s), a host, and nothing else (no credentials, path, query or fragment). */
function originOf(value) {
  const problem =
    'ORIGIN must be the site behind the gate, an http(s) origin such as https://www.example.com, with no credentials, path, query or fragment';
  let origin;
  try {
    origin = new URL(value);
  } catch {
    throw new ConfigurationError(problem);
  }
  // The href of a bare origin is its origin and one slash: anything more is something the gate would drop.
  if ((origin.protocol !== 'https:' && origin.protocol !== 'http:') || origin.href !== `${origin.origin}/`) {
    throw new ConfigurationError(problem);
  }
  return origin;
}

/**
 * CONTENT_USAGE_HEADER: `on` or `off` (any case; `true` and `false` too, as the reading switches take), off
 * when unset or empty. Anything else is an error, so that a typo does not silently leave the header out.
 */
function contentUsageSwitch(value) {
  if (value === undefined || value === '') return false;
  if (value === true || value === false) return value;
  const word = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  if (word === 'on' || word === 'true') return true;
  if (word === 'off' || word === 'false') return false;
  throw new ConfigurationError('CONTENT_USAGE_HEADER must be on or off');
}

function readConfig(env) {
  let readings;
  try {
    readings = readingsFromEnv(env);
  } catch (error) {
    throw new ConfigurationError(error.message);
  }
  return {
    origin: originOf(env.ORIGIN),
    readings,
    contentUsage: contentUsageSwitch(env.CONTENT_USAGE_HEADER),
    exempt: new Set(
      (env.EXEMPT_AGENTS || '')
        .split(',')
        .map((name) => name.trim().toLowerCase())
        .filter((name) => name !== ''),
    ),
    blockMessage: env.BLOCK_MESSAGE || "This path is disallowed for your crawler by this site's robots.txt.",
    userAgent: env.GATE_USER_AGENT || 'RobotsGate/1.0',
  };
}

/**
 * For an origin that reads paths case-insensitively (IIS): robots.txt lower-cased as it arrives (ASCII
 * letters only, byte by byte, so UTF-8 is untouched), and every path asked in lower case too.
 */
async function fetchLowerCased(url, init) {
  const response = await fetch(url, init);
  if (response.status < 200 || response.status > 299 || response.body === null) return response;
  const lower = new TransformStream({
    transform(chunk, controller) {
      const bytes = new Uint8Array(chunk);
      for (let i = 0; i < bytes.length; i++) if (bytes[i] >= 0x41 && bytes[i] <= 0x5a) bytes[i] |= 0x20;
      controller.enqueue(bytes);
    },
  });
  return { status: response.status, url: response.url, headers: response.headers, body: response.body.pipeThrough(lower) };
}

function robotsCache() {
  // The gate asks on behalf of whichever crawler is at the door, so its own token names no group.
  cache ??= new RobotsCache({
    userAgent: config.userAgent,
    agent: ANY_CRAWLER,
    ...(config.readings.caseInsensitive ? { fetch: fetchLowerCased } : {}),
  });
  return cache;
}

/** The same request, sent to the origin; a redirect comes back to the client, so no cookie follows it elsewhere. */
function passThrough(request, upstream) {
  return fetch(new Request(upstream, request), { redirect: 'manual' });
}

/**
 * The origin's response with `Content-Usage: value` added. One the origin labelled itself is returned as it
 * is: the origin knows its content better than robots.txt's paths do. So is a 101, whose WebSocket a copy
 * would lose.
 */
function labelled(response, value) {
  if (value === undefined || response.status === 101 || response.headers.has('content-usage')) return response;
  // A fetched response's headers are immutable: a copy of it, same status, headers and streamed body.
  const copy = new Response(response.body, response);
  copy.headers.set('content-usage', value);
  return copy;
}

function refuse(lines) {
  return new Response(`${lines.join('\n')}\n`, {
    status: 403,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/**
 * What to ask the rules: the request's URL, then a URL for each other path the origin may read
 * (readings.js), with the request's query. Most paths have none, and cost no URL.
 */
function targetsOf(upstream, readings) {
  const asGiven = readings.caseInsensitive ? upstream.pathname.toLowerCase() : upstream.pathname;
  return [asGiven, ...pathReadings(upstream.pathname, readings)].map((path) => {
    if (path === upstream.pathname) return upstream;
    const target = new URL(upstream);
    target.pathname = path;
    return target;
  });
}

export default {
  async fetch(request, env) {
    try {
      config ??= readConfig(env);
    } catch (error) {
      if (!(error instanceof ConfigurationError)) throw error;
      return new Response(`The robots gate is misconfigured: ${error.message}.\n`, {
        status: 500,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      });
    }
    const url = new URL(request.url);
    // Always the configured origin: its URL copied, the request's path and query set on the copy.
    const upstream = new URL(config.origin);
    upstream.pathname = url.pathname;
    upstream.search = url.search;
    // robots.txt itself is for everyone to read (exactly this path: `/robots.txt/../x` is `/x` by now).
    if (url.pathname === '/robots.txt') return passThrough(request, upstream);
    let names;
    try {
      names = crawlersAtTheDoor(request.headers.get('user-agent') || '', config.exempt);
    } catch (error) {
      // Too long, or naming too many crawlers, to decide for each: refused, never decided for some of them.
      if (!(error instanceof RangeError)) throw error;
      return refuse([config.blockMessage, '', error.message]);
    }
    // A browser names no crawler: nothing to decide, and without the header nothing to read.
    if (names.length === 0 && !config.contentUsage) return passThrough(request, upstream);
    const cached = await robotsCache().get(config.origin);
    // 'allow-all': the site has no robots.txt (4xx). 'disallow-all': it could not be read (5xx, timeout):
    // the gate enforces the site's rules and invents none, so it lets the request through.
    if (cached.outcome !== 'rules') return passThrough(request, upstream);
    robots = cached.robots;
    const targets = targetsOf(upstream, config.readings);
    const refusal = firstRefusal(robots, names, targets);
    if (refusal !== undefined) {
      const { name, target, verdict } = refusal;
      const lines = [
        config.blockMessage,
        '',
        `Crawler: ${name}`,
        `Rule: ${verdict.rule.kind}: ${verdict.rule.pattern} (line ${verdict.line} of ${cached.robotsUrl})`,
      ];
      if (target !== upstream) lines.push(`Path as the origin may read it: ${target.pathname}`);
      return refuse(lines);
    }
    if (!config.contentUsage) return passThrough(request, upstream);
    // Read before the origin answers: by then another request may have replaced `robots` with a newer file.
    const agents = usageAgents(request.headers.get('user-agent') || '', names, config.exempt);
    const value = contentUsage(robots, agents, targets);
    return labelled(await passThrough(request, upstream), value);
  },
};
