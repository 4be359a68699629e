/**
 * The ways an origin server may read a request path that the URL standard reads otherwise. The gate
 * decides on the WHATWG path (what `new URL(request.url).pathname` holds), but many servers map other
 * paths to the same file: nginx merges repeated slashes by default, some servers decode an encoded
 * slash (IIS reads `%5C`, an encoded backslash, as one too), Tomcat drops `;` path parameters. Under
 * `Disallow: /private`, `//private`, `/%2Fprivate` and `/;x/private` would then be allowed by the
 * rules and served by the origin as `/private`. The gate checks these readings too.
 */

/**
 * @typedef {object} Readings
 * @property {boolean} decodeEncodedSlash
 * @property {boolean} dropPathParameters
 * @property {boolean} mergeSlashes
 * @property {boolean} caseInsensitive
 */

/** Every reading is on unless switched off; case-insensitive paths are opt-in (IIS). @type {Readonly<Readings>} */
export const DEFAULT_READINGS = Object.freeze({
  decodeEncodedSlash: true,
  dropPathParameters: true,
  mergeSlashes: true,
  caseInsensitive: false,
});

/** The wrangler.toml variable that switches each reading. @type {Readonly<Record<keyof Readings, string>>} */
export const READING_VARIABLES = Object.freeze({
  decodeEncodedSlash: 'DECODE_ENCODED_SLASH',
  dropPathParameters: 'DROP_PATH_PARAMETERS',
  mergeSlashes: 'MERGE_SLASHES',
  caseInsensitive: 'CASE_INSENSITIVE_PATHS',
});

/**
 * The readings configured in `env`: each variable `true` or `false` (a TOML boolean or the string, any
 * case), its default when unset or empty. Throws a TypeError naming the variable for anything else, so
 * that a typo does not silently switch a check off.
 *
 * @param {Record<string, unknown>} env
 * @returns {Readonly<Readings>}
 */
export function readingsFromEnv(env) {
  const readings = { ...DEFAULT_READINGS };
  for (const [key, variable] of Object.entries(READING_VARIABLES)) {
    const value = env[variable];
    if (value === undefined || value === '') continue;
    if (value === true || value === false) readings[key] = value;
    else if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) readings[key] = value.trim().toLowerCase() === 'true';
    else throw new TypeError(`${variable} must be true or false`);
  }
  return Object.freeze(readings);
}

// Tests for whether a reading can change a path at all: most paths skip every step below.
const ENCODED_SLASH = /%2f|%5c/gi;
const PATH_PARAMETER = /;[^/]*/g;
const REPEATED_SLASHES = /\/{2,}/g;

/**
 * One URL the readings reuse to resolve `.` and `..` segments as the URL parser does: a reading can make
 * new ones (`/a/..%2Fprivate` decodes to `/a/../private`, `/a/..;x/private` drops to `/a/../private`), and
 * servers that read a path so resolve them after. Used synchronously only, so requests never share it.
 */
const resolver = new URL('http://readings.invalid/');

/** @param {string} path */
function resolveDotSegments(path) {
  resolver.pathname = path;
  return resolver.pathname;
}

/**
 * The paths the origin may read for `pathname` (a WHATWG URL path), besides the path itself: after each
 * enabled reading, in this order and each on top of the ones before:
 * (a) `decodeEncodedSlash`: `%2F` and `%5C` (any case) decoded to `/`;
 * (b) `dropPathParameters`: `;` and what follows it dropped from each segment (`/a;x=1/b;y` → `/a/b`);
 * (c) `mergeSlashes`: runs of `/` merged into one.
 * With `caseInsensitive` the path is lower-cased first, and so is every reading. Only readings that differ
 * from the path before them are listed, so a path none of them changes gets `[]` (and no allocation but
 * the array). The query is not part of `pathname`: it is never read otherwise.
 *
 * @param {string} pathname
 * @param {Readonly<Readings>} readings
 * @returns {string[]}
 * @example
 * pathReadings('//%2F;a/private', DEFAULT_READINGS); // ['///;a/private', '////private', '/private']
 */
export function pathReadings(pathname, readings) {
  const paths = [];
  let path = readings.caseInsensitive ? pathname.toLowerCase() : pathname;
  /** @param {string} next */
  const step = (next) => {
    if (next === path) return;
    const read = resolveDotSegments(next);
    if (read === path) return;
    path = read;
    paths.push(read);
  };
  if (readings.decodeEncodedSlash && path.includes('%')) step(path.replace(ENCODED_SLASH, '/'));
  if (readings.dropPathParameters && path.includes(';')) step(path.replace(PATH_PARAMETER, ''));
  if (readings.mergeSlashes && path.includes('//')) step(path.replace(REPEATED_SLASHES, '/'));
  return paths;
}
