/** What the page shows before anything is loaded: a file that makes the three readings differ, and URLs that show it. */

export const SAMPLE_ROBOTS = `# An example: edit it, paste yours, or open a file.
User-agent: *
Disallow: /private/
Allow: /private/press/
Disallow: /*.pdf$
Disallow: /café/
Content-Usage: train-ai=n

User-agent: Googlebot
Disallow: /drafts/

User-agent: Yandex
Disallow: /ru/
Clean-param: utm_source /catalog/

User-agent: GPTBot
Disallow: /

Sitemap: https://www.example.com/sitemap.xml
`;

export const SAMPLE_URLS = [
  '/',
  '/private/plans',
  '/private/press/2026',
  '/files/report.pdf',
  '/café/menu',
  '/drafts/post',
  '/ru/news',
  '/robots.txt',
];

export const SAMPLE_AGENTS = ['Googlebot', 'Bingbot', 'YandexBot', 'GPTBot'];
