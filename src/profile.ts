/**
 * The three behaviours the library offers, and everything in which they differ.
 *
 * - `rfc9309` (default): Google's reference behaviour except where RFC 9309 says otherwise: URLs are
 *   percent-normalized like patterns, `%XX` of unreserved characters is decoded on both sides (§2.2.2),
 *   `/robots.txt` is always allowed (§2.2.2), and the caller's agent must be a product token (§2.2.1).
 * - `google`: Google's reference matcher (github google/robotstxt) verdict for verdict: the URL is
 *   matched as given, except that its path ends at a NUL byte, as the reference's C string does, and the
 *   caller's agent is compared as given.
 * - `yandex`: Yandex's published reading (https://yandex.com/support/webmaster/controlling-robot/robots-txt.html):
 *   rfc9309's matching without Google's index.html rule, a `User-agent: Yandex` group for every Yandex robot
 *   that no group names, and a file over 32 KB read as allowing everything.
 */

export type ProfileName = 'rfc9309' | 'google' | 'yandex';

export interface Profile {
  /** The public profiles' names, and `robots-parser` for the drop-in's reading (src/compat/), which no caller chooses. */
  readonly name: ProfileName | 'robots-parser';
  /** Decode `%XX` of unreserved characters in patterns and URLs, and normalize URLs like patterns. */
  readonly normalizeUrl: boolean;
  readonly robotsTxtAlwaysAllowed: boolean;
  /**
   * The URL's path (once located, a missing leading `/` added) ends at its first NUL byte: Google's
   * reference matches the path as a C string. RFC 9309 knows no such cut: the whole path is matched.
   */
  readonly pathEndsAtNul: boolean;
  /** Google's index.html rule: `Allow: /dir/index.htm…` also allows `/dir/$`. */
  readonly indexHtmlRule: boolean;
  /**
   * The key that user-agent lines are compared with (lower-case), or undefined when the caller's agent
   * can match no named group. Throws a TypeError for an agent the profile refuses.
   */
  agentKey(agent: string): string | undefined;
  /**
   * The key of the family group (lower-case) whose rules the agent of `key` follows when no group names
   * it, before the `*` groups; undefined when the agent belongs to no family.
   */
  agentFamily(key: string): string | undefined;
  /** A body of more bytes than this is read as allowing everything (Infinity: no such limit). */
  readonly allowAllOverBytes: number;
  /**
   * A fetch's rules come from a 200 alone, and any other final status allows everything; otherwise any
   * 2xx has rules, 4xx allows and 5xx disallows everything (RFC 9309 §2.3.1).
   */
  readonly rulesFrom200Only: boolean;
}

const PRODUCT_TOKEN = /^[A-Za-z_-]+$/;
// "Name" or "Name/version": the version is an HTTP token (RFC 9110 §5.6.2).
const PRODUCT_WITH_VERSION = /^([A-Za-z_-]+)(?:\/[!#$%&'*+.^_`|~0-9A-Za-z-]+)?$/;

/** A profile callers choose by name (parseRobotsTxt's `profile`). */
export interface PublicProfile extends Profile {
  readonly name: ProfileName;
}

/** The caller's product token (RFC 9309 §2.2.1), lower-cased; `example` names a robot for the error. */
function productTokenKey(agent: string, example: string): string {
  const match = typeof agent === 'string' ? PRODUCT_WITH_VERSION.exec(agent) : null;
  if (match === null) {
    throw new TypeError(
      `Invalid user agent ${JSON.stringify(agent)}: pass a product token, letters, "_" and "-" only ` +
        `(e.g. "${example}", optionally with a version: "${example}/1.2"), not a full User-Agent header. ` +
        `RFC 9309 §2.2.1; use { profile: 'google' } to compare agents as given.`,
    );
  }
  return (match[1] as string).toLowerCase();
}

function noFamily(): undefined {
  return undefined;
}

const rfc9309: PublicProfile = {
  name: 'rfc9309',
  normalizeUrl: true,
  robotsTxtAlwaysAllowed: true,
  pathEndsAtNul: false,
  indexHtmlRule: true,
  agentKey: (agent) => productTokenKey(agent, 'ExampleBot'),
  agentFamily: noFamily,
  allowAllOverBytes: Infinity,
  rulesFrom200Only: false,
};

const google: PublicProfile = {
  name: 'google',
  normalizeUrl: false,
  robotsTxtAlwaysAllowed: false,
  pathEndsAtNul: true,
  indexHtmlRule: true,
  agentKey(agent) {
    if (typeof agent !== 'string') throw new TypeError(`Invalid user agent ${String(agent)}: expected a string`);
    // A user-agent line is cut to [A-Za-z_-]*, so any other character can never compare equal.
    return agent === '' || PRODUCT_TOKEN.test(agent) ? agent.toLowerCase() : undefined;
  },
  agentFamily: noFamily,
  allowAllOverBytes: Infinity,
  rulesFrom200Only: false,
};

/** The token of the group that Yandex gives every Yandex robot no group names (the linter reports it too). */
export const YANDEX_FAMILY = 'yandex';

/**
 * Yandex's reading. Where its documentation is silent, rfc9309's: URLs normalized like patterns, and
 * `/robots.txt` always allowed. Not Google's index.html rule, which rfc9309 here follows as a tolerance
 * and Yandex's documentation does not state (test/conformance/yandex-corpus.test.ts counts the files it changes).
 */
const yandex: PublicProfile = {
  name: 'yandex',
  normalizeUrl: true,
  robotsTxtAlwaysAllowed: true,
  pathEndsAtNul: false,
  indexHtmlRule: false,
  agentKey: (agent) => productTokenKey(agent, 'YandexBot'),
  // "User-agent: Yandex" is for every Yandex robot, and a group naming one robot (YandexBot) is for that
  // robot alone: the documentation's own example gives YandexBot's group to the main robot only.
  agentFamily: (key) => (key !== YANDEX_FAMILY && key.includes(YANDEX_FAMILY) ? YANDEX_FAMILY : undefined),
  // "If the file size exceeds 32 KB, the robot assumes it allows everything."
  allowAllOverBytes: 32 * 1024,
  // "If the file is missing, is not a text file, or the robot's request returns an HTTP status other
  // than 200 OK, the robot assumes that it has unrestricted access."
  rulesFrom200Only: true,
};

/**
 * robots-parser's matching, for its drop-in (src/compat/): patterns and paths are matched as given (the
 * drop-in has already written both robots-parser's way: encodeURI, `%xx` upper-cased), the whole path (a
 * URL's path holds no NUL), `/robots.txt` like any path, and no index.html rule. The drop-in picks groups
 * itself, so no agent is ever compared here.
 */
export const robotsParserProfile: Profile = {
  name: 'robots-parser',
  normalizeUrl: false,
  robotsTxtAlwaysAllowed: false,
  pathEndsAtNul: false,
  indexHtmlRule: false,
  agentKey() {
    throw new TypeError('the robots-parser drop-in picks its groups itself');
  },
  agentFamily: noFamily,
  allowAllOverBytes: Infinity,
  rulesFrom200Only: false,
};

const PROFILES: Readonly<Record<ProfileName, PublicProfile>> = { rfc9309, google, yandex };

export function profileNamed(name: ProfileName | undefined): PublicProfile {
  const profile = PROFILES[name ?? 'rfc9309'];
  if (profile === undefined || !Object.hasOwn(PROFILES, name ?? 'rfc9309')) {
    throw new RangeError(`Unknown profile ${JSON.stringify(name)}: use 'rfc9309' (the default), 'google' or 'yandex'`);
  }
  return profile;
}
