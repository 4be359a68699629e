/**
 * Every code the linter reports and its one severity. A code never changes severity with context: when
 * the harm differs (a `*bot*` agent names no crawler; `Googlebot*` names Googlebot for Google alone), the
 * cases are separate codes, so that `--disable` and CI gates mean the same thing on every file.
 */
import type { LintSeverity } from './diagnostic.js';

export const LINT_CODES = {
  // The file as a whole.
  'html-served': 'error',
  'file-too-large': 'error',
  'file-over-yandex-limit': 'warning',
  'invalid-utf8': 'warning',
  'bom-not-at-start': 'error',
  // Lines and keys.
  'malformed-line': 'warning',
  'missing-colon': 'warning',
  'google-only-spelling': 'warning',
  'unknown-directive': 'warning',
  'unsupported-directive': 'warning',
  'line-too-long': 'warning',
  // Groups.
  'rule-before-user-agent': 'error',
  'empty-user-agent': 'error',
  'user-agent-wildcard': 'error',
  'user-agent-no-token': 'warning',
  'user-agent-version': 'warning',
  'yandex-agent-family': 'info',
  'blank-line-before-rules': 'warning',
  'blank-line-in-group': 'info',
  'crawl-delay-google': 'warning',
  'disallow-all': 'info',
  // Rules.
  'pattern-not-path': 'error',
  'multiple-paths': 'error',
  'whitespace-in-pattern': 'warning',
  'dollar-inside-pattern': 'warning',
  'empty-allow': 'info',
  'duplicate-rule': 'info',
  'allow-disallow-same-pattern': 'warning',
  'redundant-rule': 'info',
  'outranked-rule': 'warning',
  'sensitive-path': 'info',
  // Extensions.
  'sitemap-not-absolute': 'error',
  'host-invalid': 'warning',
  'host-repeated': 'warning',
  'crawl-delay-invalid': 'error',
  'clean-param-invalid': 'warning',
} as const satisfies Record<string, LintSeverity>;

export type LintCode = keyof typeof LINT_CODES;
