/**
 * URL paths derived from a rule's pattern, shared by the benchmarks' workloads and the tests that hold engines
 * to the same verdicts on them.
 */

/**
 * Paths a crawler could ask about one rule: on it, under it, beside it, with the wildcard filled in, at and
 * past a `$` end, with a query, and with non-ASCII characters (which exercise the percent-encoding paths).
 * @param {string} pattern
 * @returns {string[]}
 */
export function pathsForPattern(pattern) {
  if (pattern === '') return [];
  const anchored = pattern.endsWith('$');
  let filled = (anchored ? pattern.slice(0, -1) : pattern).replaceAll('*', 'abc');
  // A pattern that starts with `*` (or, oddly, with neither `/` nor `*`) still needs a path to ask.
  if (!filled.startsWith('/')) filled = `/${filled}`;
  const last = filled.charCodeAt(filled.length - 1);
  const sibling = filled.length > 1 ? filled.slice(0, -1) + (last === 0x78 /* x */ ? 'y' : 'x') : '/x';
  const paths = [filled, `${filled}deeper/page.html`, sibling, `${filled}?q=1&ref=x`, `${filled}${filled.endsWith('/') ? '' : '/'}café/ü`];
  // `$` exact is `filled` itself; exact plus a suffix must then no longer match the anchored rule.
  if (anchored) paths.push(`${filled}x`);
  return paths;
}
