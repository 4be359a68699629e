/**
 * The lab's fetch simulation runs the library's fetchRobotsTxt() against a `fetch` that plays each case: what it
 * shows is what RFC 9309 (§2.3.1, §2.5) and each reading make of the answer, with the section that says so.
 */
import { describe, expect, it } from 'vitest';
import { CASES, simulate } from '../../../lab/src/simulate.js';
import { READINGS } from '../../../lab/src/readings.js';

const FILE = 'User-agent: *\nDisallow: /private/\n';

/** Case → [outcome, reason, section] for rfc9309 and google (which agree on fetching); Yandex reads any non-200 as allow all. */
const EXPECTED: Record<string, [string, string, string]> = {
  '200': ['rules', 'ok', '§2.3.1.1'],
  redirect: ['rules', 'ok', '§2.3.1.1'],
  '404': ['allow-all', 'client-error', '§2.3.1.3'],
  '401': ['allow-all', 'client-error', '§2.3.1.3'],
  '403': ['allow-all', 'client-error', '§2.3.1.3'],
  '429': ['disallow-all', 'rate-limited', '§2.3.1.4'],
  '500': ['disallow-all', 'server-error', '§2.3.1.4'],
  '503': ['disallow-all', 'server-error', '§2.3.1.4'],
  'redirect-loop': ['allow-all', 'redirect-loop', '§2.3.1.2'],
  'too-many-redirects': ['allow-all', 'too-many-redirects', '§2.3.1.2'],
  timeout: ['disallow-all', 'timeout', '§2.3.1.4'],
  'network-error': ['disallow-all', 'network-error', '§2.3.1.4'],
  'body-cut': ['disallow-all', 'body-interrupted', '§2.3.1.4'],
  'over-500kib': ['rules', 'ok', '§2.5'],
};

const MEANING: Record<string, string> = { rules: 'full rules', 'allow-all': 'allow all', 'disallow-all': 'disallow all' };

describe('the lab fetch simulation', () => {
  it('covers every case it offers', () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.keys(EXPECTED))('%s: what RFC 9309, Google and Yandex make of it', async (name) => {
    const [outcome, reason, section] = EXPECTED[name]!;
    const readings = await simulate(name, FILE, READINGS);
    expect(readings.map((r) => r.reading)).toEqual(READINGS);
    for (const simulated of readings.slice(0, 2)) {
      expect([simulated.outcome, simulated.fetched.reason, simulated.source.title, simulated.meaning]).toEqual([
        outcome,
        reason,
        `RFC 9309 ${section}`,
        MEANING[outcome],
      ]);
    }
    const yandex = readings[2]!;
    if (name === '200' || name === 'redirect') expect(yandex.outcome).toBe('rules');
    else if (name === 'over-500kib')
      expect([yandex.outcome, yandex.setAside, yandex.note]).toEqual(['allow-all', true, expect.stringMatching(/32 KB/)]);
    else if (reason === 'client-error' || reason === 'rate-limited' || reason === 'server-error')
      expect([yandex.outcome, yandex.fetched.reason]).toEqual(['allow-all', 'not-200']);
    else expect(yandex.outcome).toBe(outcome);
    // Where Yandex departs from the standard, the page cites Yandex, not RFC 9309.
    const departs = yandex.fetched.reason === 'not-200' || yandex.setAside;
    expect(yandex.source.title).toBe(departs ? "Yandex's documentation" : readings[0]!.source.title);
  });

  it('reads only the first 500 KiB of an oversized file, and says so', async () => {
    const [rfc] = await simulate('over-500kib', FILE, ['rfc9309']);
    expect(rfc!.fetched).toMatchObject({ truncated: true, bytes: 512_000 });
    expect(rfc!.note).toMatch(/512,000 bytes/);
  });

  it('follows the redirect to the other host, and counts it', async () => {
    const [google] = await simulate('redirect', FILE, ['google']);
    expect(google!.fetched).toMatchObject({ redirects: 1, finalUrl: 'https://example.com/robots.txt', status: 200 });
  });

  it('refuses a case it does not know', async () => {
    await expect(simulate('418', FILE, READINGS)).rejects.toThrow(RangeError);
    await expect(simulate('__proto__', FILE, READINGS)).rejects.toThrow(RangeError);
  });
});
