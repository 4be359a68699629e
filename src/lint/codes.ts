/**
 * Every code the linter reports and its one severity. A code never changes severity with context: when
 * the harm differs (a `*bot*` agent names no crawler; `Googlebot*` names Googlebot for Google alone), the
 * cases are separate codes, so that `--disable` and CI gates mean the same thing on every file.
 */
import type { LintSeverity } from './diagnostic.js';

/**
 * Every code the linter reports, and its severity. The docs/lint.md guide gives each code's crawlers and reference.
 *
 * @example
 * import { LINT_CODES } from 'robotstxt-wasm';
 * LINT_CODES['pattern-not-path']; // 'error'
 * Object.keys(LINT_CODES).length; // 47
 */
export const LINT_CODES = {
  // The file as a whole.
  /** The file is an HTML page: no rules are found, every line is junk. */
  'html-served': 'error',
  /** Over 500 KiB (reported where reading stops): rules past the limit are never read (Google). */
  'file-too-large': 'error',
  /** Over 32 KB: Yandex then allows everything. */
  'file-over-yandex-limit': 'warning',
  /** Bytes that are not UTF-8: decoders differ on the line. */
  'invalid-utf8': 'warning',
  /** A U+FEFF after the start of the file: the key after it is unknown to all. */
  'bom-not-at-start': 'error',
  // Lines and keys.
  /** Neither a record nor a comment: ignored by all. */
  'malformed-line': 'warning',
  /** `Disallow /x`: only Google reads it. */
  'missing-colon': 'warning',
  /** `Dissallow:`, `Useragent:`: only Google accepts the misspelling. */
  'google-only-spelling': 'warning',
  /** A key no crawler knows: the line does nothing. */
  'unknown-directive': 'warning',
  /** `Noindex:` and other page-level directives: not read in robots.txt (Google dropped them in 2019). */
  'unsupported-directive': 'warning',
  /** A line over 16,663 bytes: the rest of the line is dropped (Google). */
  'line-too-long': 'warning',
  // Groups.
  /** A rule (or Crawl-delay, Content-Usage, Content-Signal) before any group: ignored by all. */
  'rule-before-user-agent': 'error',
  /** `User-agent:` with no value: the group names no crawler. */
  'empty-user-agent': 'error',
  /** `*bot*`: no product token, so it matches no crawler. */
  'user-agent-wildcard': 'error',
  /** `360Spider`: a value starting with a digit has no token (Google, RFC 9309), though the bot's own parser may read it. */
  'user-agent-no-token': 'warning',
  /** `Googlebot/2.1`, `Mediapartners-Google*`: only the leading token counts. */
  'user-agent-version': 'warning',
  /** `User-agent: Yandex`: Yandex reads it as all its robots (and then ignores `*`); token readers as a robot named exactly Yandex. */
  'yandex-agent-family': 'info',
  /** A blank line between User-agent and the first rule: 1994 readers lose the whole group. */
  'blank-line-before-rules': 'warning',
  /** A blank line between two rules: 1994 readers drop the later rules. */
  'blank-line-in-group': 'info',
  /** Crawl-delay in a group only for Google's crawlers: Google ignores Crawl-delay. */
  'crawl-delay-google': 'warning',
  /** Every group, `*` included, disallows `/`: nothing may be crawled. */
  'disallow-all': 'info',
  // Rules.
  /** A value starting with neither `/` nor `*` (`private/`, a full URL): matches no URL. */
  'pattern-not-path': 'error',
  /** `Disallow: /a /b`: read as one pattern holding a space. */
  'multiple-paths': 'error',
  /** A space inside a path: Google reads `%20`, others cut the value at the space. */
  'whitespace-in-pattern': 'warning',
  /** `$` that is not the last character: a literal `$`. */
  'dollar-inside-pattern': 'warning',
  /** `Allow:` with no path: allows nothing. */
  'empty-allow': 'info',
  /** The same rule twice in a group: never decides anything. */
  'duplicate-rule': 'info',
  /** Allow and Disallow of one pattern: Allow wins for Google, RFC 9309 and Yandex, the first line for first-match readers (the message says which wins). */
  'allow-disallow-same-pattern': 'warning',
  /** `Disallow: /a` beside `Disallow: /a*`: the longer matches the same paths and always wins, the shorter never decides. */
  'redundant-rule': 'info',
  /** `Allow: /shop` beside `Disallow: /shop*`: the longer one of the other kind always wins, the shorter can never do what it says. */
  'outranked-rule': 'warning',
  /** `/admin`, `/backup`, `/.git`…: robots.txt is public, it is not access control. */
  'sensitive-path': 'info',
  // Extensions.
  /** `Sitemap: /sitemap.xml`: ignored (Google, Bing, Yandex). */
  'sitemap-not-absolute': 'error',
  /** `Host: my_host.com`, an IP, a path: ignored (Yandex). */
  'host-invalid': 'warning',
  /** A second valid Host: only the first counts (Yandex). */
  'host-repeated': 'warning',
  /** `Crawl-delay: 10s`: ignored (Bing, Yandex). */
  'crawl-delay-invalid': 'error',
  /** Over 500 characters, or a bad prefix: ignored (Yandex). */
  'clean-param-invalid': 'warning',
  // Usage preferences: Content-Usage (draft-ietf-aipref-attach-05 §3), Content-Signal (the Content Signals Policy), License (RSL 1.0).
  /** A preference that is not a Structured Fields Dictionary (`Train-AI=n`, `*.pdf train-ai=n`): every purpose is unknown. */
  'usage-preference-invalid': 'error',
  /** A line with no preference, or none for a purpose its vocabulary defines: it says nothing. */
  'usage-preference-empty': 'warning',
  /** `train-ai=yes`, a bare `train-ai`, `train-ai="n"`; Content-Signal `search=y`: the purpose is left unknown. */
  'usage-value-invalid': 'error',
  /** `ai-train` in Content-Usage, `train-ai` in Content-Signal: the other line's key, ignored. */
  'usage-key-wrong-vocabulary': 'error',
  /** A purpose written twice in one preference: only the last value counts, not the most restrictive. */
  'usage-key-repeated': 'warning',
  /** `train-ai=n; search=n`: a purpose after ";" is a parameter, ignored. */
  'usage-purpose-in-parameters': 'error',
  /** A Content-Signal key the policy does not define: ignored. */
  'content-signal-unknown-key': 'warning',
  /** `Content-Signal: Search=Yes`: read here in any case, by others maybe not. */
  'content-signal-case': 'warning',
  /** A Content-Usage or Content-Signal path the group disallows: disallowed paths have no preferences. */
  'usage-path-disallowed': 'warning',
  /** Two lines of a group, one path, a purpose allowed by one and disallowed by the other: the most restrictive wins. */
  'usage-conflict': 'warning',
  /** `License: /license.xml`: not an absolute URL, ignored. */
  'license-invalid': 'error',
} as const satisfies Record<string, LintSeverity>;

/** A code the linter reports: a key of {@link LINT_CODES}. */
export type LintCode = keyof typeof LINT_CODES;
