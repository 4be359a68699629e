/**
 * No dead link between README → the guide → the design → the API reference, checked offline.
 *
 * - Markdown (README.md, every page under docs/, CONTRIBUTING.md, bench/README.md, examples/**\/README.md):
 *   every relative link and image (`[t](x)`, `[t]: x`, `<a href>`, `<img src>`) names a file or folder of the
 *   repository, and every `#anchor` (alone, or after a Markdown file) is a heading of that file as GitHub slugs it
 *   (docs/.vitepress/slug.ts, which the site uses too, so one anchor works in both). A link rooted at `/` works in
 *   the site only, never on GitHub, so it is refused. Links out of the repository (https:, mailto:) are not fetched.
 * - The citations of the design in the code (`docs/design.md#anchor` in src/, test/, bench/, harness/, assembly/)
 *   name sections docs/design.md has.
 * - The built site: `npm run docs:build` (the API reference, then VitePress) into a temporary folder; every
 *   `href` and `src` of every page that stays on the site names a file it holds, and every `#anchor` an `id` of
 *   the page it points at. Skipped, with a note, only when vitepress or typedoc is not installed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { pageSlugger } from '../../docs/.vitepress/slug.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist', 'build', 'cache', 'public']);

/** Files under `dir` (relative to the root) whose name passes `keep`, not descending into dot or output folders. */
function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (path: string): void => {
    if (!existsSync(path)) return;
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || SKIPPED_DIRS.has(entry.name)) continue;
      const child = join(path, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (keep(entry.name)) found.push(relative(ROOT, child).split(sep).join('/'));
    }
  };
  walk(join(ROOT, dir));
  return found.sort();
}

/** The Markdown files whose links are checked, as paths from the root. */
function markdownFiles(): string[] {
  const single = ['README.md', 'CONTRIBUTING.md', 'bench/README.md'].filter((path) => existsSync(join(ROOT, path)));
  return [...single, ...filesUnder('docs', (name) => name.endsWith('.md')), ...filesUnder('examples', (name) => name === 'README.md')];
}

/**
 * Markdown with fenced blocks blanked (same line count), and inline code too unless `keepCode`, so that code is
 * never read as links or headings.
 */
function prose(markdown: string, keepCode = false): string {
  const lines = markdown.split('\n');
  let fence: string | undefined;
  return lines
    .map((line) => {
      const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence === undefined && marker !== undefined) {
        fence = marker;
        return '';
      }
      if (fence !== undefined) {
        if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
        return '';
      }
      return keepCode ? line : line.replace(/(`+)[^`]*?\1/g, '');
    })
    .join('\n');
}

/** A heading's text as GitHub renders it (what it slugs): no link targets, tags or emphasis markers. */
function headingText(raw: string): string {
  return raw
    .replace(/`/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/(^|[\s(])[*_]+|[*_]+(?=[\s).,:;!?]|$)/g, '$1');
}

const anchorCache = new Map<string, Set<string>>();

/** The anchors a Markdown file offers: its headings, slugged as GitHub does, and any `<a id>` / `<a name>`. */
function markdownAnchors(path: string): Set<string> {
  const cached = anchorCache.get(path);
  if (cached !== undefined) return cached;
  const slug = pageSlugger();
  const anchors = new Set<string>();
  const text = readFileSync(join(ROOT, path), 'utf8');
  for (const line of prose(text, true).split('\n')) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading !== null) anchors.add(slug(headingText(heading[1]!)));
  }
  for (const match of text.matchAll(/<a\s[^>]*\b(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  anchorCache.set(path, anchors);
  return anchors;
}

interface Link {
  readonly line: number;
  readonly href: string;
}

/** Every link and image target in a Markdown file's prose. */
function markdownLinks(markdown: string): Link[] {
  const links: Link[] = [];
  prose(markdown)
    .split('\n')
    .forEach((line, index) => {
      const add = (href: string): void => void links.push({ line: index + 1, href: href.replace(/^<|>$/g, '') });
      for (const match of line.matchAll(/\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+"[^"]*")?\s*\)/g)) add(match[1]!);
      const definition = /^ {0,3}\[[^\]]+\]:\s*(\S+)/.exec(line);
      if (definition !== null) add(definition[1]!);
      for (const match of line.matchAll(/<(?:a|img)\s[^>]*\b(?:href|src)="([^"]*)"/g)) add(match[1]!);
    });
  return links;
}

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/** What is wrong with one link of `file`, or undefined. */
function checkMarkdownLink(file: string, href: string): string | undefined {
  if (EXTERNAL.test(href) || href.startsWith('//')) return undefined;
  if (href.startsWith('/')) return 'rooted at /: it works in the site only, not on GitHub; link relatively';
  const [rawPath = '', rawAnchor] = href.split('#', 2) as [string, string | undefined];
  const path = decodeURIComponent(rawPath);
  const target = path === '' ? file : posix.normalize(posix.join(posix.dirname(file), path));
  if (target.startsWith('..')) return 'leaves the repository';
  if (!existsSync(join(ROOT, target))) return `${target} does not exist`;
  if (rawAnchor === undefined || rawAnchor === '') return undefined;
  if (!target.endsWith('.md')) return undefined; // an anchor into a source file (#L10) or a folder's README: GitHub's
  const anchor = decodeURIComponent(rawAnchor);
  return markdownAnchors(target).has(anchor) ? undefined : `${target} has no heading #${anchor}`;
}

describe('Markdown links and anchors resolve', () => {
  const files = markdownFiles();

  it('finds the files to check', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('docs/getting-started.md');
    expect(files.filter((path) => path.startsWith('examples/')).length).toBeGreaterThan(0);
  });

  it.each(files)('%s', (file) => {
    const problems = markdownLinks(readFileSync(join(ROOT, file), 'utf8'))
      .map(({ line, href }) => ({ line, href, problem: checkMarkdownLink(file, href) }))
      .filter(({ problem }) => problem !== undefined)
      .map(({ line, href, problem }) => `${file}:${line}: ${href}: ${problem}`);
    expect(problems).toEqual([]);
  });
});

describe('the machinery', () => {
  it('slugs headings as GitHub does', () => {
    const slug = pageSlugger();
    expect(slug(headingText('The `robotstxt` command'))).toBe('the-robotstxt-command');
    expect(slug(headingText("The crawler's token in a User-Agent header"))).toBe('the-crawlers-token-in-a-user-agent-header');
    expect(slug(headingText('Sharing fetched files between isolates: the Cache API'))).toBe(
      'sharing-fetched-files-between-isolates-the-cache-api',
    );
    expect(slug(headingText('Memory, and hostile files'))).toBe('memory-and-hostile-files');
    expect(slug(headingText('Options'))).toBe('options');
    expect(slug(headingText('Options'))).toBe('options-1');
    expect(slug(headingText('What the gate guarantees, and what it cannot'))).toBe('what-the-gate-guarantees-and-what-it-cannot');
  });

  it('reads links outside code only', () => {
    const markdown = [
      'See [a](./a.md#x) and `[b](./b.md)`.', // 1
      '```md', // 2
      '[c](./c.md)', // 3
      '```', // 4
      '[d]: ../d.md', // 5
      '<a href="e.html">e</a> ![f](f.png "title")', // 6
    ].join('\n');
    expect(markdownLinks(markdown)).toEqual([
      { line: 1, href: './a.md#x' },
      { line: 5, href: '../d.md' },
      { line: 6, href: 'f.png' },
      { line: 6, href: 'e.html' },
    ]);
  });

  it('refuses missing files, missing anchors and links rooted at /', () => {
    expect(checkMarkdownLink('README.md', 'docs/getting-started.md#install')).toBeUndefined();
    expect(checkMarkdownLink('docs/crawling.md', '#options')).toBeUndefined();
    expect(checkMarkdownLink('docs/crawling.md', '../README.md')).toBeUndefined();
    expect(checkMarkdownLink('README.md', 'https://example.com/x')).toBeUndefined();
    expect(checkMarkdownLink('README.md', 'docs/nothing.md')).toBe('docs/nothing.md does not exist');
    expect(checkMarkdownLink('docs/crawling.md', '#no-such-heading')).toBe('docs/crawling.md has no heading #no-such-heading');
    expect(checkMarkdownLink('docs/index.md', '/api/')).toMatch(/rooted at \//);
  });
});

// ---------------------------------------------------------------------------------------------------
// The design's sections, as the code cites them

describe('docs/design.md#anchor citations in the code name its sections', () => {
  const cited = new Map<string, string[]>();
  for (const dir of ['src', 'test', 'bench', 'harness', 'assembly']) {
    for (const path of filesUnder(dir, (name) => /\.(?:[cm]?[jt]s|md)$/.test(name))) {
      const text = readFileSync(join(ROOT, path), 'utf8');
      for (const match of text.matchAll(/docs\/design\.md#([A-Za-z0-9_-]+)/g)) {
        const line = text.slice(0, match.index).split('\n').length;
        cited.set(match[1]!, [...(cited.get(match[1]!) ?? []), `${path}:${line}`]);
      }
    }
  }
  cited.delete('anchor'); // this file's own description of the form

  it(`${cited.size} sections cited`, () => {
    if (cited.size === 0) return;
    expect(existsSync(join(ROOT, 'docs/design.md')), 'docs/design.md exists').toBe(true);
    const anchors = markdownAnchors('docs/design.md');
    const missing = [...cited].filter(([anchor]) => !anchors.has(anchor)).map(([anchor, where]) => `#${anchor} (${where.join(', ')})`);
    expect(missing).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------
// The built site

const bin = (name: string): boolean => existsSync(join(ROOT, 'node_modules', '.bin', name));
const tools = bin('vitepress') && bin('typedoc');
const NOTE = 'skipped: vitepress or typedoc is not installed (npm ci installs both)';
if (!tools) console.warn(`test/docs/links.test.ts, the built site: ${NOTE}`);

/** Every local href/src of a built page, and the ids a page offers. */
function htmlLinks(html: string): string[] {
  return [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((match) => match[1]!.replace(/&amp;/g, '&'));
}
function htmlIds(html: string): Set<string> {
  return new Set([...html.matchAll(/\s(?:id|name)="([^"]*)"/g)].map((match) => match[1]!));
}

describe.skipIf(!tools)(`the built site: every local link and anchor resolves${tools ? '' : ` (${NOTE})`}`, () => {
  const out = mkdtempSync(join(tmpdir(), 'robotstxt-docs-site-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('builds, and links only to what it holds', { timeout: 600_000 }, () => {
    const build = spawnSync('npm', ['run', '--silent', 'docs:build', '--', '--outDir', out], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, DOCS_BASE: '/' },
      timeout: 540_000,
    });
    expect(build.status, `npm run docs:build failed:\n${build.stdout}\n${build.stderr}`).toBe(0);

    const pages = readdirSync(out, { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.html'))
      .map((path) => path.split(sep).join('/'));
    expect(pages).toContain('index.html');
    expect(pages).toContain('getting-started.html');
    expect(pages).toContain('api/index.html');

    const ids = new Map<string, Set<string>>();
    const idsOf = (page: string): Set<string> => {
      if (!ids.has(page)) ids.set(page, htmlIds(readFileSync(join(out, page), 'utf8')));
      return ids.get(page)!;
    };
    const problems: string[] = [];
    for (const page of pages) {
      for (const href of htmlLinks(readFileSync(join(out, page), 'utf8'))) {
        if (EXTERNAL.test(href) || href.startsWith('//') || href === '' || href === '#') continue;
        const [rawPath = '', rawAnchor] = href.split('#', 2) as [string, string | undefined];
        const path = decodeURIComponent(rawPath.split('?')[0]!);
        const from = posix.dirname(`/${page}`);
        let target = path === '' ? `/${page}` : path.startsWith('/') ? path : posix.join(from, path);
        if (target.endsWith('/')) target += 'index.html';
        const file = resolve(out, `.${target}`);
        if (!file.startsWith(out) || !existsSync(file) || (statSync(file).isDirectory() && !existsSync(join(file, 'index.html')))) {
          problems.push(`${page}: ${href}: ${target} is not in the site`);
          continue;
        }
        if (rawAnchor === undefined || rawAnchor === '' || !target.endsWith('.html')) continue;
        const anchor = decodeURIComponent(rawAnchor);
        if (!idsOf(target.slice(1)).has(anchor)) problems.push(`${page}: ${href}: ${target} has no id "${anchor}"`);
      }
    }
    expect(problems).toEqual([]);
  });
});
