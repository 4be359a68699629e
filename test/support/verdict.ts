/** Shorthands for the behaviour tests: one verdict, as the conformance suite asks it. */
import { parseRobotsTxt, type ProfileName } from './library.js';

export function isAllowed(body: string | Uint8Array, agent: string, url: string, profile: ProfileName = 'rfc9309'): boolean {
  const robots = parseRobotsTxt(body, { profile });
  try {
    return robots.isAllowed(url, agent);
  } finally {
    robots.dispose();
  }
}

/** The verdict in both profiles, for behaviour they share. */
export function inBothProfiles(body: string | Uint8Array, agent: string, url: string): boolean {
  const google = isAllowed(body, agent, url, 'google');
  const rfc9309 = isAllowed(body, agent, url, 'rfc9309');
  if (google !== rfc9309) throw new Error(`profiles disagree on ${url} for ${agent}: google ${google}, rfc9309 ${rfc9309}`);
  return google;
}

export const profiles: readonly ProfileName[] = ['rfc9309', 'google'];
