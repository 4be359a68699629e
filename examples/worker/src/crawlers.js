/**
 * Who is at the door, and what the site's robots.txt says to them: the gate's decision, kept apart from the
 * Worker's plumbing (index.js) so that it runs in Node as it runs in workerd.
 */
import { productTokens } from 'robotstxt-wasm';

/**
 * The crawlers a request's `User-Agent` names that the gate decides for: every name productTokens() reads in
 * it, exempt ones left out. Several `User-Agent` lines arrive joined by `, `, and a crawler may name another
 * before itself (`FriendlyBot/3.0 ExampleBot/1.0`, `(compatible; FriendlyBot/3.0; ExampleBot/1.0)`): each
 * name is decided, so none hides another.
 *
 * Throws productTokens()'s RangeError for a header over 8,192 characters or naming over 32 crawlers: the gate
 * refuses such a request rather than decide for some of its names.
 *
 * @param {string} userAgent the header as `Headers.get()` gives it, `''` for none
 * @param {ReadonlySet<string>} exempt tokens that always pass, in lower case
 * @returns {string[]}
 */
export function crawlersAtTheDoor(userAgent, exempt) {
  return productTokens(userAgent).filter((name) => !exempt.has(name.toLowerCase()));
}

/**
 * The strictest verdict over every crawler named and every path the origin may read: the first crawler, in
 * header order, to whom the rules disallow one of `targets`, with the target and the rule; `undefined` when
 * each of them may fetch each target.
 *
 * @param {{ forAgent(name: string): { explain(url: URL): { allowed: boolean, line: number, rule?: { kind: string, pattern: string } } } }} robots
 * @param {readonly string[]} names
 * @param {readonly URL[]} targets
 */
export function firstRefusal(robots, names, targets) {
  for (const name of names) {
    // Every token that no group names shares one compile of the `*` rules: an attacker who sends a new
    // name on every request compiles nothing new (at most once per name the file has, plus once).
    const rules = robots.forAgent(name);
    for (const target of targets) {
      const verdict = rules.explain(target);
      if (!verdict.allowed) return { name, target, verdict };
    }
  }
  return undefined;
}

/**
 * The token the gate asks for when a request names no crawler (a browser): no group of a site's file names
 * it, so it gets the `*` groups' rules and preferences, as RFC 9309 gives any crawler no group names.
 */
export const ANY_CRAWLER = 'RobotsGate';

/**
 * The crawlers whose preferences label a response: every name the request holds, exempt ones included (an
 * exempt crawler passes whatever the rules say, but the site's preferences for it are still its group's),
 * or ANY_CRAWLER when it names none.
 *
 * @param {string} userAgent the header, which crawlersAtTheDoor() has read without throwing
 * @param {readonly string[]} decided what crawlersAtTheDoor() gave for it
 * @param {ReadonlySet<string>} exempt
 * @returns {readonly string[]}
 */
export function usageAgents(userAgent, decided, exempt) {
  // Without exempt names the two lists are the same: the header is read once.
  const named = exempt.size === 0 ? decided : productTokens(userAgent);
  return named.length === 0 ? [ANY_CRAWLER] : named;
}

/**
 * The purposes a `Content-Usage` field can state, each its own label (draft-ietf-aipref-vocab-07 §6.1), in
 * the order the gate writes them. `ai-input` is Content-Signal's alone: the field has no label for it.
 */
const FIELD_PURPOSES = ['train-ai', 'search'];

/** vocab-07 §5.1: the most restrictive preference wins; a higher rank is stricter. */
const RANK = { unknown: 0, allow: 1, disallow: 2 };

/**
 * The `Content-Usage` field value (draft-ietf-aipref-attach-05 §2) that the site's robots.txt gives the
 * response: every agent's preferences for every target, combined per purpose as draft-ietf-aipref-vocab-07
 * §5.1 combines statements (any disallow, else any allow, else unknown), as the gate decides access over
 * every crawler named and every path the origin may read. Each known purpose is written as a Token, `y` or
 * `n` (vocab-07 §6.2), unknown ones left out: `train-ai=n, search=y`. `undefined` when none is known, or
 * when a target may not be crawled by one of the agents (attach-05 §3.1: such a path has no preferences;
 * the gate refuses it, unless the agent is exempt).
 *
 * @param {{ forAgent(name: string): { usage(url: URL): Record<string, string> | null } }} robots
 * @param {readonly string[]} agents usageAgents()
 * @param {readonly URL[]} targets
 * @returns {string | undefined}
 */
export function contentUsage(robots, agents, targets) {
  const combined = { 'train-ai': 'unknown', search: 'unknown' };
  for (const name of agents) {
    const rules = robots.forAgent(name);
    for (const target of targets) {
      const preferences = rules.usage(target);
      if (preferences === null) return undefined;
      for (const purpose of FIELD_PURPOSES) {
        if (RANK[preferences[purpose]] > RANK[combined[purpose]]) combined[purpose] = preferences[purpose];
      }
    }
  }
  const members = FIELD_PURPOSES.filter((purpose) => combined[purpose] !== 'unknown').map(
    (purpose) => `${purpose}=${combined[purpose] === 'allow' ? 'y' : 'n'}`,
  );
  return members.length === 0 ? undefined : members.join(', ');
}
