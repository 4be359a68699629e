/**
 * How long a robots.txt response says it may be reused (RFC 9111 §5.2.2, §5.1), read from its headers.
 * RFC 9309 §2.4: "standard HTTP cache control ... MAY be used".
 */

/** Minimal header access, so any Headers-like object does. */
export interface HeaderSource {
  get(name: string): string | null;
}

const DIRECTIVE = /(?:^|,)\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*(?:=\s*(?:"([^"]*)"|([^,\s]*)))?\s*(?=,|$)/g;

/** RFC 9111 §1.2.2: a delta-seconds too large to represent counts as this. */
const LARGEST_DELTA_SECONDS = 2_147_483_648;

/** delta-seconds (RFC 9111 §1.2.2), or undefined when `value` is not one. */
export function deltaSeconds(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  return Math.min(Number(value), LARGEST_DELTA_SECONDS);
}

/**
 * Seconds the response may be reused: `max-age` minus `Age`, 0 for `no-store`/`no-cache`, undefined when
 * `Cache-Control` gives no lifetime. A `max-age` that is not a number of seconds (`-1`, `soon`, empty)
 * makes the response stale, 0, as RFC 9111 §4.2.1 encourages, rather than unlimited. `Expires` and
 * `s-maxage` are not read. For example `public, max-age=3600` with `Age: 600` gives 3000.
 */
export function responseMaxAge(headers: HeaderSource): number | undefined {
  const header = headers.get('cache-control');
  if (header === null) return undefined;
  let maxAge: number | undefined;
  let noReuse = false;
  for (const match of header.matchAll(DIRECTIVE)) {
    const name = (match[1] ?? '').toLowerCase();
    if (name === 'no-store' || name === 'no-cache') noReuse = true;
    else if (name === 'max-age' && maxAge === undefined) maxAge = deltaSeconds(match[2] ?? match[3]) ?? 0;
  }
  if (noReuse) return 0;
  if (maxAge === undefined) return undefined;
  const age = deltaSeconds(headers.get('age')?.trim());
  return Math.max(0, maxAge - (age ?? 0));
}
