/**
 * Where groups begin and end, as Google's parser and RFC 9309 §2.1 read them: consecutive user-agent lines
 * open a group, which ends at a user-agent line that follows one of its rules; a rule before any
 * user-agent line belongs to no group. Other lines (extensions, sitemaps, blank lines) change nothing.
 * The parser (./groups.ts) and the linter (src/lint/groups.ts) both group by it.
 */
export class GroupBoundary {
  private open = false;
  private afterRule = false;

  /** A user-agent line: whether it opens a new group (else it joins the open one). */
  userAgent(): boolean {
    const opens = !this.open || this.afterRule;
    this.open = true;
    this.afterRule = false;
    return opens;
  }

  /** A rule: whether it belongs to a group (false before any user-agent line). */
  rule(): boolean {
    if (!this.open) return false;
    this.afterRule = true;
    return true;
  }

  /** Whether a group is open: a group extension (Crawl-delay …) belongs to it, or to none. */
  get inGroup(): boolean {
    return this.open;
  }
}
