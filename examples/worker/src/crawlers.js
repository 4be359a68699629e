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
