// `npm start`: the verdicts of a few crawlers on the example sites, with the line that decided each.
import { readFileSync } from 'node:fs';
import { parseRobotsTxt, matcherInfo } from '../dist/index.js';

const questions = {
  'news-site.txt': {
    agents: ['ExampleBot', 'ArchiveBot', 'NewsCrawler'],
    urls: ['https://news.example/world/2026/story', '/search?q=rfc', '/account/signup', '/reports/q3.pdf', '/page?session=42', '/drafts/x'],
  },
  'shop.txt': {
    agents: ['ExampleBot', 'PriceBot'],
    urls: ['/catalog/', '/catalog/shoes/photos/1.jpg', '/catalog/shoes?price=asc', '/cart', '/internal/stats'],
  },
  'multilingual.txt': {
    agents: ['ExampleBot'],
    urls: ['/café/menu', '/caf%C3%A9/wine', '/blog/drafts/1', '/%62log/public'],
  },
};

const pad = (text, width) => (text.length >= width ? text : text + ' '.repeat(width - text.length));

console.log(`robotstxt-wasm demo (matcher: ${matcherInfo().kind})\n`);
for (const [file, { agents, urls }] of Object.entries(questions)) {
  const robots = parseRobotsTxt(readFileSync(new URL(`./sites/${file}`, import.meta.url)));
  console.log(`== examples/sites/${file}`);
  if (robots.sitemaps.length > 0) console.log(`   sitemaps: ${robots.sitemaps.join(', ')}`);
  if (robots.host) console.log(`   host: ${robots.host}`);
  for (const agent of agents) {
    const rules = robots.forAgent(agent);
    const extras = [
      rules.crawlDelay !== undefined ? `crawl-delay ${rules.crawlDelay}s` : '',
      rules.requestRate ? `request-rate ${rules.requestRate.requests}/${rules.requestRate.seconds}s` : '',
      rules.visitTime ? `visit-time ${rules.visitTime.from}-${rules.visitTime.to} UTC` : '',
    ].filter(Boolean);
    console.log(`   ${agent} (${rules.matched} group${extras.length ? `; ${extras.join(', ')}` : ''})`);
    for (const url of urls) {
      const { allowed, line, rule } = rules.explain(url);
      const why = rule ? `line ${line}: ${rule.kind === 'allow' ? 'Allow' : 'Disallow'}: ${rule.pattern}` : 'no rule matches';
      console.log(`     ${allowed ? 'allow   ' : 'DISALLOW'} ${pad(url, 42)} ${why}`);
    }
  }
  const dirty = '/catalog/shoes?utm_source=mail&size=42';
  if (robots.cleanParams.length > 0) console.log(`   clean-param: ${dirty} -> ${robots.cleanUrl(dirty)}`);
  console.log();
}
