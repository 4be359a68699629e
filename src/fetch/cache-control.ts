/**
 * How long a robots.txt response says it may be reused (RFC 9111 §5.2.2, §5.1), read from its headers.
 * spec: RFC 9309 §2.4 ("standard HTTP cache control ... MAY be used"); 003_14cd348ff9b99c23.txt, caching.
 */

/** Minimal header access, so any Headers-like object does. */
export interface HeaderSource {
  get(name: string): string | null;
}

const DIRECTIVE = /(?:^|,)\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*(?:=\s*(?:"([^"]*)"|([^,\s]*)))?\s*(?=,|$)/g;

function seconds(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  const parsed = Number(value);
  return Number.isSafeInteger(parsed) ? parsed : Number.MAX_SAFE_INTEGER;
}

/**
 * Seconds the response may be reused: `max-age` minus `Age`, 0 for `no-store`/`no-cache`, undefined when
 * `Cache-Control` gives no lifetime. `Expires` and `s-maxage` are not read.
 *
 * @example
 * responseMaxAge(new Headers({ 'cache-control': 'public, max-age=3600', age: '600' })); // 3000
 */
export function responseMaxAge(headers: HeaderSource): number | undefined {
  const header = headers.get('cache-control');
  if (header === null) return undefined;
  let maxAge: number | undefined;
  let noReuse = false;
  for (const match of header.matchAll(DIRECTIVE)) {
    const name = (match[1] ?? '').toLowerCase();
    if (name === 'no-store' || name === 'no-cache') noReuse = true;
    else if (name === 'max-age' && maxAge === undefined) maxAge = seconds(match[2] ?? match[3]);
  }
  if (noReuse) return 0;
  if (maxAge === undefined) return undefined;
  const age = seconds(headers.get('age')?.trim());
  return Math.max(0, maxAge - (age ?? 0));
}
