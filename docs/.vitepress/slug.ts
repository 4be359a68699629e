/**
 * Heading anchors as GitHub makes them, for the docs site too: the guide's Markdown must link the same way on
 * GitHub and in VitePress, so the site takes GitHub's slugs instead of its own (which differ on `'`, `_`, `.`
 * and a leading digit). The link check (test/docs/links.test.ts) uses the same function.
 *
 * GitHub's rule (github-slugger): lower case; every character that is not a letter, a mark, a number, a
 * connector (`_`), a space or a hyphen removed; each space a hyphen; a repeated slug gets `-1`, `-2`, … in
 * order of appearance.
 */
export function githubSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** A slugger for one page, as GitHub numbers repeated headings: the same text twice gets `x`, then `x-1`. */
export function pageSlugger(): (text: string) => string {
  const occurrences = new Map<string, number>();
  return (text) => {
    const original = githubSlug(text);
    let slug = original;
    while (occurrences.has(slug)) {
      const n = occurrences.get(original)! + 1;
      occurrences.set(original, n);
      slug = `${original}-${n}`;
    }
    occurrences.set(slug, 0);
    return slug;
  };
}
