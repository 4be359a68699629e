/**
 * Fetching a site's robots.txt, which only `robotstxt lab` can do for the page: a browser page cannot read another
 * site's file (cross-origin requests need the site's consent, which robots.txt servers do not give). The command
 * marks the page it serves as live (`data-lab-mode="live"`) and answers `POST ./api/fetch` through fetchRobotsTxt.
 */
import type { ProfileName } from 'robotstxt-wasm';

/**
 * What the command answers: fetchRobotsTxt()'s result, with the file's text for a 2xx. The command's side is
 * FetchAnswer in src/cli/lab/fetch-api.ts, which the page cannot import (it is Node's code); the page checks the
 * answer as any input, and test/e2e/lab/lab-live.test.ts holds the two sides together.
 */
export interface LiveFetch {
  readonly outcome: 'rules' | 'allow-all' | 'disallow-all';
  readonly reason: string;
  readonly status: number;
  readonly robotsUrl: string;
  readonly finalUrl: string;
  readonly redirects: number;
  readonly bytes: number;
  readonly truncated: boolean;
  readonly body: string | null;
}

export function isLive(): boolean {
  return document.documentElement.dataset.labMode === 'live';
}

/** Asks the command for `site`'s robots.txt, read with `profile`; an Error says why it could not. */
export async function fetchLive(site: string, profile: ProfileName): Promise<LiveFetch> {
  const response = await fetch('./api/fetch', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: site, profile }),
  });
  const answer: unknown = await response.json().catch(() => undefined);
  if (!response.ok || !isLiveFetch(answer)) {
    const message = typeof answer === 'object' && answer !== null && 'error' in answer ? String(answer.error) : `status ${response.status}`;
    throw new Error(`the lab server could not fetch it: ${message}`);
  }
  return answer;
}

function isLiveFetch(value: unknown): value is LiveFetch {
  if (typeof value !== 'object' || value === null) return false;
  const answer = value as Record<string, unknown>;
  return (
    (answer.outcome === 'rules' || answer.outcome === 'allow-all' || answer.outcome === 'disallow-all') &&
    typeof answer.status === 'number' &&
    typeof answer.finalUrl === 'string' &&
    (answer.body === null || typeof answer.body === 'string')
  );
}
