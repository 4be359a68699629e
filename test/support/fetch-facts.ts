/** What the cache keeps of one fetch, for tests that build shared-store records by hand. */
import type { FetchFacts } from '../../src/cache/cache-transitions.js';

/** A 200 of `origin`'s robots.txt with an ETag, and whatever `overrides` changes. */
export function fetchFacts(origin: string, overrides: Partial<FetchFacts> = {}): FetchFacts {
  return {
    outcome: 'rules',
    reason: 'ok',
    status: 200,
    origin,
    robotsUrl: `${origin}/robots.txt`,
    finalUrl: `${origin}/robots.txt`,
    redirects: 0,
    bytes: 0,
    truncated: false,
    bytesIgnored: 0,
    contentType: 'text/plain',
    looksLikeHtml: false,
    maxAge: undefined,
    retryAfter: undefined,
    etag: '"v1"',
    lastModified: undefined,
    ...overrides,
  };
}
