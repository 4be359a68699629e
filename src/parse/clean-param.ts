/**
 * Yandex's `Clean-param: p0[&p1&p2&..&pn] [path]`: query parameters that do not change a page's
 * content (session ids, referrers, ...), so URLs that differ only in them are the same page
 * (Yandex docs: "The Clean-param directive").
 */

export interface CleanParam {
  /** Parameter names, in file order, duplicates removed. */
  readonly params: readonly string[];
  /** `""` when absent, which means every path; may contain `*`. */
  readonly pathPrefix: string;
  /** 1-based line in robots.txt. */
  readonly line: number;
}

// Yandex: "The maximum length of the rule is 500 characters."
const MAX_VALUE_LENGTH = 500;
// Yandex: the prefix may "only use the characters A-Za-z0-9.-/*_".
const PATH_PREFIX = /^[A-Za-z0-9.\-/*_]*$/;
// Names joined by `&`, none empty, each of printable ASCII as a raw query writes names, less `=` and
// `#`: a name in a query never holds them, so a rule naming one could never apply. One expression for the
// whole field (no backtracking: `&` cannot occur inside a name).
const NAME_CHAR = '[!-"$%\'-<>-~]';
const PARAM_FIELD = new RegExp(`^${NAME_CHAR}+(?:&${NAME_CHAR}+)*$`);

function isSpaceOrTab(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/**
 * Reads a `Clean-param` value; `undefined` when it is malformed (an empty parameter name, a prefix
 * with a character Yandex does not allow, a name that is not printable ASCII or holds `=` or `#`, more
 * than two fields, or more than 500 characters).
 *
 * @example parseCleanParam('sid&sort /forum/*.php', 7)
 * // { params: ['sid', 'sort'], pathPrefix: '/forum/*.php', line: 7 }
 */
export function parseCleanParam(value: string, line: number): CleanParam | undefined {
  if (value.length === 0 || value.length > MAX_VALUE_LENGTH) return undefined;
  let paramEnd = 0;
  while (paramEnd < value.length && !isSpaceOrTab(value.charCodeAt(paramEnd))) paramEnd++;
  let prefixStart = paramEnd;
  while (prefixStart < value.length && isSpaceOrTab(value.charCodeAt(prefixStart))) prefixStart++;
  let prefixEnd = prefixStart;
  while (prefixEnd < value.length && !isSpaceOrTab(value.charCodeAt(prefixEnd))) prefixEnd++;
  // A third field.
  if (prefixEnd < value.length) return undefined;
  const paramField = value.slice(0, paramEnd);
  const pathPrefix = value.slice(prefixStart);

  // A prefix that does not start like a path could never match one, so it is a mistake, not a rule.
  if (pathPrefix !== '' && !(pathPrefix.startsWith('/') || pathPrefix.startsWith('*'))) return undefined;
  if (!PATH_PREFIX.test(pathPrefix)) return undefined;

  if (!PARAM_FIELD.test(paramField)) return undefined;
  const params = paramField.includes('&') ? [...new Set(paramField.split('&'))] : [paramField];
  return { params, pathPrefix, line };
}

/**
 * Whether `path` starts with something `prefix` matches, `*` standing for any run of characters.
 * Because a `*` is implied at the end, taking each literal piece at its first occurrence is enough,
 * which keeps this linear where a regular expression could backtrack.
 */
function prefixMatches(prefix: string, path: string): boolean {
  const pieces = prefix.split('*');
  const first = pieces[0] ?? '';
  if (!path.startsWith(first)) return false;
  let position = first.length;
  for (let i = 1; i < pieces.length; i++) {
    const piece = pieces[i] ?? '';
    const found = path.indexOf(piece, position);
    if (found < 0) return false;
    position = found + piece.length;
  }
  return true;
}

const SCHEME_AND_AUTHORITY = /^(?:[A-Za-z][A-Za-z0-9+.-]*:)?\/\/[^/?#]*/;

/** Where the path starts in `url`, or -1 when `url` is neither an absolute URL nor a path. */
function pathStart(url: string): number {
  const authority = SCHEME_AND_AUTHORITY.exec(url);
  if (authority !== null) return authority[0].length;
  return url.startsWith('/') ? 0 : -1;
}

/**
 * `url` without the query parameters that the `Clean-param` rules whose prefix matches its path
 * name. The rest of the query keeps its order and spelling, the fragment is kept, and the `?` goes
 * when nothing is left. `url` may be absolute or a path with a query; anything else (or a URL no
 * rule touches) comes back unchanged.
 *
 * @example cleanUrl('/forum/showthread.php?s=6814&t=8243&sid=1', [parseCleanParam('sid&sort /forum/*.php', 1)!])
 * // '/forum/showthread.php?s=6814&t=8243'
 */
export function cleanUrl(url: string, cleanParams: readonly CleanParam[]): string {
  if (cleanParams.length === 0) return url;
  const start = pathStart(url);
  if (start < 0) return url;

  const hash = url.indexOf('#', start);
  const beforeFragment = hash < 0 ? url : url.slice(0, hash);
  const fragment = hash < 0 ? '' : url.slice(hash);
  const question = beforeFragment.indexOf('?', start);
  if (question < 0) return url;

  // An absolute URL with nothing between the authority and `?` has the path `/`.
  const path = beforeFragment.slice(start, question) || '/';
  const dropped = new Set<string>();
  for (const rule of cleanParams) {
    if (prefixMatches(rule.pathPrefix, path)) for (const name of rule.params) dropped.add(name);
  }
  if (dropped.size === 0) return url;

  const pairs = beforeFragment.slice(question + 1).split('&');
  const kept = pairs.filter((pair) => {
    const equals = pair.indexOf('=');
    return !dropped.has(equals < 0 ? pair : pair.slice(0, equals));
  });
  if (kept.length === pairs.length) return url;

  // Empty pieces (`a=1&&b=2`) hold no parameter; once the query is rewritten they are not kept.
  const query = kept.filter((pair) => pair !== '').join('&');
  return `${beforeFragment.slice(0, question)}${query === '' ? '' : `?${query}`}${fragment}`;
}
