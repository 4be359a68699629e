/**
 * The three entries that answer usage preferences, and the linter, agree on one set of files: the drafts'
 * examples (draft-ietf-aipref-attach-05 §1.2 and §3.4), a robots.txt in the shape Cloudflare's managed
 * Content-Signal files have (https://contentsignals.org/), and a file of the rules' edges (ties through `*`,
 * a Content-Signal with a path, capitals, statements that do not parse, lines before any group, License).
 *
 * - the library: robots.forAgent(agent).usage(url);
 * - the cache: RobotsCache.usage() on the same file served from 127.0.0.1, for a User-Agent naming the agent;
 * - the command: `robotstxt check --format jsonl` (the built dist/cli.js), its `usage` field;
 * - lint: every line the parser reads as a usage line is a known directive to lint; lint reports a
 *   statement that does not parse exactly where the parser found none (RFC 9651 §4.2.2), a usage line before
 *   any group where the parser reported it outside a group, and a License where the parser refused its URL.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { parseDictionary } from '../../../src/usage/structured-dictionary.js';
import { splitRuleValue } from '../../../src/usage/rule-value.js';
import { run } from '../../support/cli.js';
import { closeServers, startServer, text } from '../../support/http-server.js';
import { lintRobotsTxt, parseRobotsTxt, RobotsCache } from '../../support/library.js';
import { ATTACH_EXAMPLE, ATTACH_INTRODUCTION } from '../../support/usage-files.js';

const FILES: Record<string, string> = {
  'attach-05 §3.4': ATTACH_EXAMPLE,
  'attach-05 §1.2': ATTACH_INTRODUCTION,
  'a managed Content-Signal file': [
    '# As a condition of accessing this website, you agree to abide by the following content signals.',
    'User-Agent: *',
    'Content-Signal: search=yes,ai-train=no',
    'Allow: /',
    '',
    'User-agent: Amazonbot',
    'Disallow: /',
  ].join('\n'),
  'the edges': [
    'Content-Usage: train-ai=y',
    'License: https://example.com/license.xml',
    'License: /relative-license.xml',
    'User-agent: *',
    'Disallow: /private/',
    'Content-Usage: /a*c train-ai=n, search=y',
    'Content-Usage: /abc train-ai=y, search=n',
    'Content-Usage: *.pdf train-ai=n',
    'Content-Usage: /docs/ Train-AI=n',
    'Content-Signal: Search=Yes, AI-Train=No',
    'Content-Signal: /blog/ ai-train=yes, ai-input=no',
    'Content-Usage: /private/x train-ai=y',
    '',
    'User-agent: ExampleBot',
    'Content-Usage: search=n',
    'Disallow: /never/',
  ].join('\n'),
};
const AGENTS = ['ExampleBot', 'Amazonbot', 'OtherBot'];
const PATHS = ['/', '/test', '/never/test', '/ai-ok/test', '/abc', '/axxc', '/a.pdf', '/docs/x', '/blog/post', '/private/x'];

const work = mkdtempSync(join(tmpdir(), 'robotstxt-usage-entries-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(closeServers);

/** An answer as JSON writes it (a path-less line's path is null). */
function asJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_key, item: unknown) => (item === undefined ? null : item))) as unknown;
}

describe('library, cache and command give one answer', () => {
  for (const [name, body] of Object.entries(FILES)) {
    it(name, async () => {
      const file = join(work, `${name.replace(/\W+/g, '-')}.txt`);
      writeFileSync(file, body);
      const site = await startServer({ '/robots.txt': text(body) });
      const robots = parseRobotsTxt(body);
      for (const agent of AGENTS) {
        const cache = new RobotsCache({ userAgent: `Mozilla/5.0 (compatible; ${agent}/1.0)` });
        const result = await run(['check', '--format', 'jsonl', file, agent, ...PATHS]);
        const lines = result.stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { usage: unknown });
        expect(lines).toHaveLength(PATHS.length);
        for (const [index, path] of PATHS.entries()) {
          const library = robots.forAgent(agent).usage(path);
          expect(await cache.usage(`${site.origin}${path}`), `${agent} ${path}`).toEqual(library);
          expect(lines[index]?.usage, `${agent} ${path}`).toEqual(asJson(library));
        }
        cache.dispose();
      }
      robots.dispose();
    });
  }
});

describe('lint reads the lines as the parser does', () => {
  for (const [name, body] of Object.entries(FILES)) {
    it(name, () => {
      const robots = parseRobotsTxt(body);
      const diagnostics = lintRobotsTxt(body);
      const at = (line: number) => diagnostics.filter((d) => d.line === line).map((d) => d.code);
      const lines = body.split('\n');
      const usageLines = robots.groups.flatMap((group) => group.usage ?? []);
      for (const statement of usageLines) {
        expect(at(statement.line)).not.toContain('unknown-directive');
        const value = (lines[statement.line - 1] as string).replace(/^[^:]*:\s*/, '');
        const bytes = new TextEncoder().encode(value);
        const { preferenceStart } = splitRuleValue(bytes, 0, bytes.length);
        // Content-Signal is read in any case: its parse is of the lower-cased statement.
        const statementBytes = statement.source === 'content-signal' ? new TextEncoder().encode(value.toLowerCase()) : bytes;
        const parses = parseDictionary(statementBytes, preferenceStart, statementBytes.length) !== undefined;
        expect(at(statement.line).includes('usage-preference-invalid'), `line ${statement.line}`).toBe(!parses);
      }
      const outside = robots.diagnostics.filter((d) => d.code === 'outside-group').map((d) => d.line);
      for (const line of outside) expect(at(line)).toContain('rule-before-user-agent');
      const licenses = robots.diagnostics.filter((d) => d.code === 'invalid-value' && /^License/i.test(lines[d.line - 1] as string));
      expect(licenses.map((d) => d.line)).toEqual(diagnostics.filter((d) => d.code === 'license-invalid').map((d) => d.line));
      expect(diagnostics.filter((d) => d.code === 'unknown-directive')).toEqual([]);
    });
  }
});
