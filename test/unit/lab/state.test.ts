/**
 * The lab's state in the URL fragment: the plain form as anyone writes it (URLSearchParams or encodeURIComponent),
 * the compressed form the page writes for long states, and fragments written to hurt (a damaged or inflating `z=`,
 * lists past their bounds).
 */
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { LIMITS, hasState, readFragment, writeFragment, type LabState } from '../../../lab/src/state.js';

const STATE: LabState = {
  robots: 'User-agent: *\nDisallow: /private/ # café & co\n',
  before: 'User-agent: *\nDisallow: /\n',
  agents: ['Googlebot', 'Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)'],
  urls: ['/', 'https://example.com/private/x?a=1&b=2#frag', '/café'],
  profiles: ['rfc9309', 'yandex'],
  simulate: '503',
};

describe('the lab state in the URL fragment', () => {
  it('reads the plain form written with encodeURIComponent, profile repeated, in the matrix order', async () => {
    const fragment =
      `#robots=${encodeURIComponent('User-agent: *\nDisallow: /a+b\n')}&agent=Googlebot&agent=Bingbot` +
      `&url=${encodeURIComponent('/a+b?x=1&y=2')}&url=%2F&profile=yandex&profile=rfc9309`;
    expect(await readFragment(fragment)).toEqual({
      robots: 'User-agent: *\nDisallow: /a+b\n',
      before: undefined,
      agents: ['Googlebot', 'Bingbot'],
      urls: ['/a+b?x=1&y=2', '/'],
      profiles: ['rfc9309', 'yandex'],
      simulate: undefined,
    });
  });

  it('reads every reading when profile is absent, or names none it knows', async () => {
    expect((await readFragment('#robots=&url=/')).profiles).toEqual(['rfc9309', 'google', 'yandex']);
    expect((await readFragment('#robots=&url=/&profile=bing&profile=')).profiles).toEqual(['rfc9309', 'google', 'yandex']);
  });

  it('writes a state it reads back the same, plain when short', async () => {
    const fragment = await writeFragment(STATE);
    expect(fragment.startsWith('#robots=')).toBe(true);
    expect(await readFragment(fragment)).toEqual(STATE);
    // Every reading is written as no `profile` at all.
    const all = await writeFragment({ ...STATE, profiles: ['rfc9309', 'google', 'yandex'] });
    expect(new URLSearchParams(all.slice(1)).has('profile')).toBe(false);
  });

  it('writes a long state compressed, and reads it back the same', async () => {
    const long = { ...STATE, robots: Array.from({ length: 400 }, (_, i) => `Disallow: /section-${i}/\n`).join('') };
    const fragment = await writeFragment(long);
    expect(fragment.startsWith('#z=')).toBe(true);
    expect(fragment.length).toBeLessThan(new URLSearchParams({ robots: long.robots }).toString().length);
    expect(await readFragment(fragment)).toEqual(long);
  });

  it('refuses a damaged compressed state with an Error, and one that inflates past the bound', async () => {
    await expect(readFragment('#z=%%%')).rejects.toThrow(/damaged/);
    await expect(readFragment('#z=A')).rejects.toThrow(/damaged/);
    await expect(readFragment('#z=AAAAAAAA')).rejects.toThrow(/damaged/);
    const bomb = deflateRawSync(Buffer.from(`robots=${'a'.repeat(LIMITS.inflatedChars + 10)}`)).toString('base64url');
    expect(bomb.length).toBeLessThan(10_000);
    await expect(readFragment(`#z=${bomb}`)).rejects.toThrow(RangeError);
  });

  it('keeps the lists and texts of a fragment within their bounds', async () => {
    const params = new URLSearchParams();
    params.set('robots', 'x'.repeat(LIMITS.textChars + 5));
    for (let i = 0; i < LIMITS.urls + 5; i++) params.append('url', `/${i}`);
    for (let i = 0; i < LIMITS.agents + 5; i++) params.append('agent', `Bot${i}`);
    const state = await readFragment(`#${params}`);
    expect([state.robots.length, state.urls.length, state.agents.length]).toEqual([LIMITS.textChars, LIMITS.urls, LIMITS.agents]);
  });

  it('tells a link with a state from a link to the page alone', () => {
    expect(hasState('')).toBe(false);
    expect(hasState('#matrix-section')).toBe(false);
    expect(hasState('#robots=User-agent%3A%20*')).toBe(true);
    expect(hasState('#url=/')).toBe(true);
    expect(hasState('#z=abc')).toBe(true);
  });
});
