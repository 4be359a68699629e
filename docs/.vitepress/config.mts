/**
 * The docs site: VitePress over docs/, whose pages are Markdown that reads the same on GitHub.
 *
 * - `npm run docs:build` generates the API reference (TypeDoc, into docs/public/api/, which VitePress copies to
 *   /api/) and builds the site into docs/.vitepress/dist/; `npm run docs:dev` serves it while writing.
 * - DOCS_BASE sets the site's base path (default `/`), for a site served under a folder (`/robotstxt-wasm/`).
 * - Links between pages are relative `.md` links (`./crawling.md#options`): GitHub follows them as they are, and
 *   VitePress writes them as `.html`. Links that leave docs/ (`../bench/RESULTS.md`, `../examples/worker/`) name
 *   files of the repository, not pages: in the site they point at the repository on GitHub.
 * - Heading anchors are GitHub's (./slug.ts), so `#anchor` links work in both.
 */
import { posix } from 'node:path';
import { defineConfig } from 'vitepress';
import { githubSlug } from './slug';

const REPOSITORY = 'https://github.com/robotstxt-wasm/robotstxt-wasm';
const BRANCH = 'main';

/** The guide in reading order: the sidebar, and the order index.md lists. */
const GUIDE = [
  { text: 'Getting started', link: '/getting-started' },
  { text: 'What it decides', link: '/decisions' },
  { text: 'Crawling', link: '/crawling' },
  { text: 'A fleet', link: '/fleet' },
  { text: 'The robotstxt command', link: '/cli' },
  { text: 'Usage preferences', link: '/usage' },
  { text: 'Lint', link: '/lint' },
  { text: 'The robots.txt lab', link: '/lab' },
  { text: 'Migrating', link: '/migrating' },
  { text: 'Cloudflare Workers', link: '/workers' },
  { text: 'Browsers and runtimes', link: '/runtimes' },
  { text: 'Security', link: '/security' },
  { text: 'Performance', link: '/performance' },
];

/** `href` of a link on the page `relativePath` (from docs/), when it leaves docs/: its place on GitHub. */
export function repositoryLink(href: string, relativePath: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:|^\/|^#/i.test(href)) return undefined; // absolute, rooted in the site, or an anchor
  const [path = '', hash = ''] = href.split(/(?=#)/);
  const target = posix.normalize(posix.join('docs', posix.dirname(relativePath), path));
  if (target === 'docs' || target.startsWith('docs/')) return undefined;
  const isFolder = path.endsWith('/') || !/\.[^/]+$/.test(target);
  return `${REPOSITORY}/${isFolder ? 'tree' : 'blob'}/${BRANCH}/${target.replace(/\/$/, '')}${hash}`;
}

export default defineConfig({
  title: 'robotstxt-wasm',
  description: "A robots.txt engine for JavaScript: RFC 9309, Google's and Yandex's readings, a WebAssembly matcher.",
  base: process.env.DOCS_BASE ?? '/',
  cleanUrls: false,
  lastUpdated: false,
  // Every Markdown file under docs/ is a page; generated output and the API reference's HTML are not.
  srcExclude: ['public/**', '.vitepress/**', '**/node_modules/**'],
  markdown: {
    anchor: { slugify: githubSlug },
    config(md) {
      md.core.ruler.push('repository-links', (state) => {
        const relativePath = (state.env as { relativePath?: string }).relativePath ?? '';
        for (const block of state.tokens) {
          for (const token of block.children ?? []) {
            if (token.type !== 'link_open') continue;
            const rewritten = repositoryLink(token.attrGet('href') ?? '', relativePath);
            if (rewritten !== undefined) token.attrSet('href', rewritten);
          }
        }
      });
    },
  },
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/getting-started' },
      { text: 'API', link: '/api/', target: '_self' },
      { text: 'Design', link: '/design' },
    ],
    sidebar: [
      { text: 'Guide', items: GUIDE },
      {
        text: 'Reference',
        items: [
          { text: 'Design', link: '/design' },
          { text: 'API', link: '/api/', target: '_self' },
        ],
      },
    ],
    socialLinks: [{ icon: 'github', link: REPOSITORY }],
    search: { provider: 'local' },
    outline: { level: [2, 3] },
  },
});
