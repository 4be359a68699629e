/**
 * A fetch for tests that name other hosts (redirects elsewhere, hosts a policy refuses, options refused
 * before any request): requests to 127.0.0.1 go to the real servers of the test; any other URL is recorded
 * and refused, so no packet ever leaves the loopback interface, even when the code under test is wrong.
 */
import type { FetchLike } from '../../src/fetch/options.js';

export function loopbackOnlyFetch(): { fetch: FetchLike; refused: string[] } {
  const refused: string[] = [];
  const fetch: FetchLike = (url, init) => {
    if (new URL(url).hostname === '127.0.0.1') return globalThis.fetch(url, init);
    refused.push(url);
    return Promise.reject(new TypeError(`refused by the test: ${url}`));
  };
  return { fetch, refused };
}
