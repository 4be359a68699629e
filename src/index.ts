/**
 * robotstxt-wasm: what a site's robots.txt allows, for a crawler's user-agent and a URL.
 *
 * - A file in hand: {@link parseRobotsTxt}, then {@link RobotsTxt.forAgent} or {@link RobotsTxt.isAllowed}.
 * - A crawler: {@link RobotsCache} fetches each origin's robots.txt once, by RFC 9309, and answers from memory;
 *   {@link fetchRobotsTxt} is one fetch without the cache.
 * - A linter: {@link lintRobotsTxt}.
 *
 * The same names serve Node, browsers, bundlers and Cloudflare Workers: the package's export conditions pick
 * the build that loads the WebAssembly matcher the platform's way.
 *
 * @module robotstxt-wasm
 */
export { parseRobotsTxt, RobotsTxt, DEFAULT_MAX_BYTES, type ForAgentOptions, type ParseOptions } from './api/robots-txt.js';
export { AgentRules, RulesDisposedError, type Explanation, type RuleInfo } from './api/agent-rules.js';
export type { UsagePreferences } from './usage/usage-rules.js';
export type { UsageStatement } from './usage/usage-record.js';
export type { UsagePreference, UsagePurpose, UsageReading, UsageSource } from './usage/statement.js';
export { init, matcherInfo, setMatcher, type MatcherInfo } from './engine/active-backend.js';
export type { BackendKind } from './engine/backend.js';
export type { ProfileName } from './profile.js';
export type { CleanParam } from './parse/clean-param.js';
export type { RequestRate, VisitTime } from './parse/group-directives.js';
export type { AgentLine, Diagnostic, DiagnosticCode, Group, RuleLine } from './parse/model.js';
export { fetchRobotsTxt } from './fetch/fetch-robots.js';
export type { FetchLike, FetchRobotsOptions } from './fetch/options.js';
export { HostRefusedError, isPublicAddress, publicHostsOnly } from './fetch/host-policy.js';
export { robotsLocation, type RobotsLocation } from './fetch/origin.js';
export type { RobotsFetchReason, RobotsFetchResult, RobotsFetchRules, RobotsFetchVerdict, RobotsOutcome } from './fetch/outcome.js';
export { isUserAgentHeader, productToken, productTokens } from './cache/product-token.js';
export type { AbortSignalInput, AbortSignalShape, BodyStreamShape, FetchInit, ResponseShape, URLInput, UrlShape } from './api/web-types.js';
export { RobotsCache } from './cache/robots-cache.js';
export {
  RobotsCacheDisposedError,
  type CachedExplanation,
  type CachedRobots,
  type CachedRobotsRules,
  type CachedRobotsVerdict,
  type RefreshFailure,
  type RobotsCacheOptions,
  type RobotsCacheStats,
  type RobotsCallOptions,
  type RobotsSource,
  type RobotsSourceKind,
} from './cache/robots-cache-types.js';
export type { RobotsStore, RobotsStoreStats } from './cache/robots-store.js';
export { lintRobotsTxt } from './lint/lint.js';
export { LINT_CODES, type LintCode } from './lint/codes.js';
export { DEFAULT_LINT_MAX_BYTES, type LintDiagnostic, type LintOptions, type LintSeverity } from './lint/diagnostic.js';

// Internal bounds the root entry exported in 0.1, kept for one release (deprecated).
export { CACHE_LIMITS, MAX_LINE_BYTES, MAX_REDIRECTS } from './deprecated.js';
