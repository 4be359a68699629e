/**
 * lintRobotsTxt(): each finding by a small fixture, with its exact line and column; ordinary files that must
 * give no error and no warning (false alarms cost trust faster than misses); the real corpus, linted whole.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LINT_MAX_BYTES, LINT_CODES, lintRobotsTxt, type LintDiagnostic } from '../support/library.js';
import { describeCorpus, loadCorpus } from '../support/corpus.js';

type Case = readonly [title: string, code: string, body: string | Uint8Array, line: number, column: number];

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === 'string' ? [...utf8(part)] : part)));

// Each fixture holds one mistake; line and column (code points, 1-based) point at it.
const CASES: readonly Case[] = [
  // spec: Google's robots.txt spec (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt), "Grouping of lines and rules": rules outside a group are ignored.
  [
    'a rule before any User-agent is ignored by every crawler',
    'rule-before-user-agent',
    'Disallow: /x\nUser-agent: *\nDisallow: /y\n',
    1,
    1,
  ],
  [
    'a Crawl-delay before any User-agent belongs to no group',
    'rule-before-user-agent',
    '  Crawl-delay: 5\nUser-agent: *\nDisallow: /y\n',
    1,
    3,
  ],
  // spec: RFC 9309 §2.2.2: a path pattern starts with "/".
  ['a relative path matches no URL', 'pattern-not-path', 'User-agent: *\nDisallow: private/\n', 2, 11],
  ['a full URL matches no URL', 'pattern-not-path', 'User-agent: *\nDisallow: https://example.com/private/\n', 2, 11],
  // spec: the 1994 robots.txt protocol (https://www.robotstxt.org/robotstxt.html): "you cannot say Disallow: /cgi-bin/ /tmp/ on a single line".
  ['several paths on one line are one pattern with a space', 'multiple-paths', 'User-agent: *\nDisallow: /cgi-bin/ /tmp/\n', 2, 21],
  ['a space inside a path is read differently', 'whitespace-in-pattern', 'User-agent: *\nDisallow: /my files/\n', 2, 14],
  ['an unknown directive is read by no crawler', 'unknown-directive', 'User-agent: *\nDisallow: /x\nIndexpage: /home\n', 3, 1],
  ['Noindex in robots.txt is read by no major crawler', 'unsupported-directive', 'User-agent: *\nNoindex: /drafts/\n', 2, 1],
  // spec: Google's robots.txt spec, "Syntax": Google accepts common misspellings of disallow.
  ['a misspelling Google accepts and exact readers ignore', 'google-only-spelling', 'User-agent: *\nDissallow: /x\n', 2, 1],
  ['"Useragent" is read by Google only', 'google-only-spelling', 'Useragent: *\nDisallow: /x\n', 1, 1],
  ['a line without a colon is read by Google only', 'missing-colon', 'User-agent: *\n\tDisallow /x\n', 2, 2],
  ['a line that is no record is ignored', 'malformed-line', 'User-agent: *\nDisallow: /x\nthis is not a comment\n', 3, 1],
  // RFC 9309 §2.2.1: the product token is letters, "_" and "-".
  ['a wildcard inside a User-agent leaves no product token', 'user-agent-wildcard', 'User-agent: *bot*\nDisallow: /\n', 1, 13],
  ['a version after the product token', 'user-agent-version', 'User-agent: Googlebot/2.1\nDisallow: /x\n', 1, 22],
  ['a wildcard after the product token', 'user-agent-version', 'User-agent: Mediapartners-Google*\nDisallow: /x\n', 1, 33],
  ['a User-agent that starts with a digit', 'user-agent-no-token', 'User-agent: 360Spider\nDisallow: /\n', 1, 13],
  ['an empty User-agent names no crawler', 'empty-user-agent', 'User-agent:\nDisallow: /x\n', 1, 1],
  // spec: the 1994 robots.txt protocol: "you may not have blank lines in a record".
  ['a blank line between User-agent and the first rule', 'blank-line-before-rules', 'User-agent: *\n\nDisallow: /x\n', 2, 1],
  [
    'a blank line between the User-agent lines of one group',
    'blank-line-before-rules',
    'User-agent: a\n   \nUser-agent: b\nDisallow: /x\n',
    2,
    1,
  ],
  ['a blank line between two rules of a group', 'blank-line-in-group', 'User-agent: *\nDisallow: /a\n\nDisallow: /b\n', 3, 1],
  // spec: Google's robots.txt spec, "URL matching based on path values": "$" marks the end of the URL.
  ['a "$" that is not last is literal', 'dollar-inside-pattern', 'User-agent: *\nDisallow: /a$b\n', 2, 13],
  ['an empty Allow allows nothing', 'empty-allow', 'User-agent: *\nAllow:\nDisallow: /x\n', 2, 1],
  ['the same rule twice', 'duplicate-rule', 'User-agent: *\nDisallow: /x\nDisallow: /x\n', 3, 1],
  // spec: Google's robots.txt spec, "Order of precedence for rules": the least restrictive (allow) wins a tie.
  ['an allow and a disallow of one pattern', 'allow-disallow-same-pattern', 'User-agent: *\nDisallow: /x\nAllow: /x\n', 3, 1],
  // RFC 9309 §2.2.2: the longest match wins; a trailing "*" adds length, not paths.
  [
    'a rule a longer one of the same kind and paths makes redundant',
    'redundant-rule',
    'User-agent: *\nDisallow: /a\nDisallow: /a*\n',
    2,
    1,
  ],
  [
    'an allow that a longer disallow of the same paths always outranks',
    'outranked-rule',
    'User-agent: *\nDisallow: /shop**\nAllow: /shop\n',
    3,
    1,
  ],
  // spec: Yandex's robots.txt docs (https://yandex.com/support/webmaster/controlling-robot/robots-txt.html): "Yandex" names all of Yandex's robots; RFC 9309 §2.2.1 matches whole tokens.
  ['a Yandex group Yandex and the standard readers select differently', 'yandex-agent-family', 'User-agent: Yandex\nDisallow: /x\n', 1, 13],
  ['everything disallowed for every crawler', 'disallow-all', 'User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /\n', 2, 11],
  ['a sensitive-looking path is published', 'sensitive-path', 'User-agent: *\nDisallow: /backup/db.sql\n', 2, 12],
  ['a .git directory is published', 'sensitive-path', 'User-agent: *\nDisallow: /app/.git/\n', 2, 16],
  // spec: Google's robots.txt spec, "Formal syntax and definition": "sitemap: [absoluteURL]".
  ['a relative Sitemap is ignored', 'sitemap-not-absolute', 'User-agent: *\nDisallow:\nSitemap: /sitemap.xml\n', 3, 10],
  // spec: Yandex's robots.txt docs, "Host": one valid domain name, no "_".
  ['a Host with "_" is ignored by Yandex', 'host-invalid', 'User-agent: *\nDisallow:\nHost: www.my_host.com\n', 3, 7],
  ['a second Host does not count', 'host-repeated', 'User-agent: *\nDisallow:\nHost: example.com\nHost: example.org\n', 4, 1],
  ['a Crawl-delay that is not a number', 'crawl-delay-invalid', 'User-agent: *\nCrawl-delay: 10s\n', 2, 14],
  [
    'a Crawl-delay that only Google would read does nothing',
    'crawl-delay-google',
    'User-agent: Googlebot\nCrawl-delay: 10\nDisallow: /x\n',
    2,
    1,
  ],
  // spec: Yandex's robots.txt docs, "Clean-param": the prefix uses A-Za-z0-9.-/*_ only.
  [
    'a Clean-param prefix with "?" is ignored by Yandex',
    'clean-param-invalid',
    'User-agent: Yandex\nDisallow:\nClean-param: ref /forum?x\n',
    3,
    14,
  ],
  ['a Clean-param over 500 characters', 'clean-param-invalid', `User-agent: Yandex\nDisallow:\nClean-param: ${'a&'.repeat(250)}b\n`, 3, 14],
  ['invalid UTF-8, at the byte', 'invalid-utf8', bytes('User-agent: *\nDisallow: /caf', [0xe9], '/\n'), 2, 15],
  ['a byte order mark after the start', 'bom-not-at-start', 'User-agent: *\nDisallow: /a\n\uFEFFUser-agent: b\nDisallow: /\n', 3, 1],
  ['an HTML page served as robots.txt', 'html-served', '\n  <!DOCTYPE html>\n<html><body>Not found</body></html>\n', 2, 3],
  ['columns count code points, not bytes', 'pattern-not-path', 'User-agent: *\nDisallow: /é/ é\nDisallow: é\n', 3, 11],
  // Usage preferences, one fixture a code (lint-usage.test.ts has more of each).
  // spec: draft-ietf-aipref-vocab-07 §6.5.1: a key in capitals fails the parse.
  ['a Content-Usage key in capitals', 'usage-preference-invalid', 'User-agent: *\nContent-Usage: Train-AI=n\n', 2, 16],
  ['a Content-Usage line with a path and no preference', 'usage-preference-empty', 'User-agent: *\nContent-Usage: /docs/\n', 2, 16],
  // spec: draft-ietf-aipref-vocab-07 §6.5: only the Tokens y and n state a preference.
  ['a Content-Usage value that is not y or n', 'usage-value-invalid', 'User-agent: *\nContent-Usage: train-ai=yes\n', 2, 16],
  // spec: draft-ietf-aipref-vocab-07 §6.4: unknown keys are ignored.
  ["Content-Signal's key on a Content-Usage line", 'usage-key-wrong-vocabulary', 'User-agent: *\nContent-Usage: ai-train=n\n', 2, 16],
  // spec: draft-ietf-aipref-vocab-07 §6.5.1: of a repeated key, only the last value applies.
  ['a purpose written twice in one preference', 'usage-key-repeated', 'User-agent: *\nContent-Usage: train-ai=n, train-ai=y\n', 2, 28],
  // spec: draft-ietf-aipref-vocab-07 §6.5.2: parameters are ignored.
  ['a purpose after ";" is a parameter', 'usage-purpose-in-parameters', 'User-agent: *\nContent-Usage: train-ai=n; search=n\n', 2, 16],
  // spec: the Content Signals Policy (https://contentsignals.org/): the keys are search, ai-input and ai-train.
  [
    'a Content-Signal key the policy does not define',
    'content-signal-unknown-key',
    'User-agent: *\nContent-Signal: search=yes, ai_train=no\n',
    2,
    29,
  ],
  ['a Content-Signal in capitals', 'content-signal-case', 'User-agent: *\nContent-Signal: Search=yes\n', 2, 17],
  // spec: draft-ietf-aipref-attach-05 §3.1: paths that cannot be crawled have no usage preferences.
  [
    'a Content-Usage path the group disallows',
    'usage-path-disallowed',
    'User-agent: *\nDisallow: /private/\nContent-Usage: /private/drafts/ train-ai=n\n',
    3,
    16,
  ],
  // spec: draft-ietf-aipref-vocab-07 §5.1: the most restrictive preference applies.
  ['two lines of one path that disagree', 'usage-conflict', 'User-agent: *\nContent-Usage: train-ai=y\nContent-Usage: train-ai=n\n', 3, 1],
  // spec: RSL 1.0 (https://rslstandard.org/): License names the licence by an absolute URL.
  ['a relative License URL', 'license-invalid', 'User-agent: *\nDisallow:\nLicense: /license.xml\n', 3, 10],
];

function only(diagnostics: readonly LintDiagnostic[], code: string): LintDiagnostic[] {
  return diagnostics.filter((diagnostic) => diagnostic.code === code);
}

describe('each finding, at its line and column', () => {
  for (const [title, code, body, line, column] of CASES) {
    it(`${title} (${code})`, () => {
      const found = only(lintRobotsTxt(body), code);
      expect(found.map(({ line, column }) => ({ line, column }))).toEqual([{ line, column }]);
      const [diagnostic] = found as [LintDiagnostic];
      expect(diagnostic.severity).toBe(LINT_CODES[code as keyof typeof LINT_CODES]);
      expect(diagnostic.message.length).toBeGreaterThan(10);
    });
  }

  it('every code has a fixture', () => {
    const covered = new Set(CASES.map(([, code]) => code));
    const sizes = ['file-too-large', 'file-over-yandex-limit', 'line-too-long'];
    expect(Object.keys(LINT_CODES).filter((code) => !covered.has(code) && !sizes.includes(code))).toEqual([]);
  });

  it('the hint says what to write instead', () => {
    const [diagnostic] = lintRobotsTxt('User-agent: *\nDisallow: https://example.com/private/\n');
    expect(diagnostic?.hint).toBe('write the path from the root: Disallow: /private/');
    expect(only(lintRobotsTxt('User-agent: *\nDissallow: /x\n'), 'google-only-spelling')[0]?.hint).toBe('write Disallow: /x');
  });

  it('says which of an allow and a disallow wins, for each reading', () => {
    const [first] = only(lintRobotsTxt('User-agent: *\nDisallow: /x\nAllow: /x\n'), 'allow-disallow-same-pattern');
    expect(first?.message).toContain('apply the Allow (line 3)');
    expect(first?.message).toContain('take the first matching line apply the Disallow (line 2)');
    const [second] = only(lintRobotsTxt('User-agent: *\nAllow: /x\nDisallow: /x\n'), 'allow-disallow-same-pattern');
    expect(second?.message).not.toContain('first matching line');
  });

  it('a file over 32 KB is flagged for Yandex, as the whole file (line 0)', () => {
    const body = `User-agent: *\n${'Disallow: /a-long-path-to-somewhere/\n'.repeat(1000)}`;
    expect(only(lintRobotsTxt(body), 'file-over-yandex-limit')).toMatchObject([{ line: 0, column: 0, severity: 'warning' }]);
    expect(only(lintRobotsTxt(body), 'file-too-large')).toEqual([]);
  });

  // spec: Google's robots.txt spec, "File format": content after the maximum file size is ignored.
  it('a file over 500 KiB is flagged at the line Google stops reading', () => {
    const rule = 'Disallow: /0123456789abcdef/\n'; // 29 bytes
    const body = `User-agent: *\n${rule.repeat(20_000)}`;
    const [diagnostic] = only(lintRobotsTxt(body), 'file-too-large');
    const offset = 500 * 1024 - 'User-agent: *\n'.length;
    expect(diagnostic).toMatchObject({ line: 2 + Math.floor(offset / rule.length), column: (offset % rule.length) + 1, severity: 'error' });
  });

  it('a line over 16,663 bytes is flagged', () => {
    expect(only(lintRobotsTxt(`User-agent: *\nDisallow: /${'a'.repeat(17_000)}\n`), 'line-too-long')).toMatchObject([
      { line: 2, column: 1 },
    ]);
  });

  it('an HTML page is one finding, not one per line', () => {
    const found = lintRobotsTxt('<html>\n<head><title>404</title></head>\n<body>Not found: x</body>\n</html>\n');
    expect(found.map((d) => d.code)).toEqual(['html-served']);
  });

  it('a byte order mark at the start is not flagged, and one elsewhere is not also an unknown key', () => {
    expect(lintRobotsTxt('\uFEFFUser-agent: *\nDisallow: /x\n')).toEqual([]);
    expect(lintRobotsTxt('User-agent: *\nDisallow: /x\n\uFEFFAllow: /y\n').map((d) => d.code)).toEqual(['bom-not-at-start']);
  });
});

describe('options', () => {
  const body = 'Disallow: /x\nUser-agent: *\nDissallow: /y\n\nDisallow: /admin\n';

  it('reports in file order, everything by default', () => {
    expect(lintRobotsTxt(body).map((d) => d.code)).toEqual([
      'rule-before-user-agent',
      'google-only-spelling',
      'blank-line-in-group',
      'sensitive-path',
    ]);
  });

  it('disable drops codes; unknown codes are ignored', () => {
    expect(lintRobotsTxt(body, { disable: ['sensitive-path', 'blank-line-in-group', 'no-such-code'] }).map((d) => d.code)).toEqual([
      'rule-before-user-agent',
      'google-only-spelling',
    ]);
  });

  it('minSeverity drops what is below it', () => {
    expect(lintRobotsTxt(body, { minSeverity: 'warning' }).map((d) => d.severity)).toEqual(['error', 'warning']);
    expect(lintRobotsTxt(body, { minSeverity: 'error' }).map((d) => d.code)).toEqual(['rule-before-user-agent']);
  });

  it('an unknown minSeverity and a body of the wrong type are errors', () => {
    expect(() => lintRobotsTxt(body, { minSeverity: 'fatal' as 'error' })).toThrow(RangeError);
    expect(() => lintRobotsTxt(42 as unknown as string)).toThrow(TypeError);
  });

  it('reads bytes and strings alike', () => {
    expect(lintRobotsTxt(utf8(body))).toEqual(lintRobotsTxt(body));
  });
});

// Files written for these tests in the shapes real sites use; none may give an error or a warning.
const CLEAN_FILES: Readonly<Record<string, string>> = {
  empty: '',
  'allow everything': 'User-agent: *\nDisallow:\n',
  wordpress: [
    '# WordPress',
    'User-agent: *',
    'Disallow: /wp-admin/',
    'Allow: /wp-admin/admin-ajax.php',
    '',
    'Sitemap: https://www.example.com/wp-sitemap.xml',
    '',
  ].join('\n'),
  'shop with wildcards, CRLF': [
    'User-agent: *',
    'Disallow: /cart',
    'Disallow: /checkout',
    'Disallow: /*?sort=',
    'Disallow: /*.pdf$',
    'Allow: /checkout/help',
    '',
    'User-agent: Googlebot-Image',
    'Allow: /images/',
    'Disallow: /',
    '',
    'Sitemap: https://shop.example.com/sitemap_index.xml',
    'Sitemap: https://shop.example.com/sitemap-products.xml',
    '',
  ].join('\r\n'),
  'news site with crawler groups and Yandex extensions': [
    '# robots.txt for news.example.org',
    'User-agent: Googlebot',
    'User-agent: Bingbot',
    'Disallow: /search',
    'Disallow: /preview/',
    '',
    'User-agent: Yandex',
    'Disallow: /search',
    'Crawl-delay: 2',
    'Clean-param: utm_source&utm_medium /news/',
    'Host: https://news.example.org',
    '',
    'User-agent: GPTBot',
    'Disallow: /',
    '',
    'User-agent: *',
    'Crawl-delay: 5',
    'Disallow: /search',
    'Disallow: /preview/',
    '# keep the archive open',
    'Allow: /archive/',
    '',
    'Sitemap: https://news.example.org/sitemap.xml',
  ].join('\n'),
  'BOM, tabs and comments': '\uFEFF# hello\nUser-agent:\t*\t# everyone\nDisallow:\t/tmp/\t# scratch\nDisallow: /private/\n',
};

describe('ordinary files give no error and no warning', () => {
  for (const [name, body] of Object.entries(CLEAN_FILES)) {
    it(name, () => {
      expect(lintRobotsTxt(body, { minSeverity: 'warning' })).toEqual([]);
    });
  }
});

/**
 * A service that lints uploaded files lints what strangers wrote. Each heavy input has a test of its own with a
 * timeout far above what a linear pass costs (well under a second here), so that a check gone quadratic fails by
 * name; speed itself is measured in bench/lint/run.mjs.
 */
describe('hostile files and the size limit', { timeout: 15_000 }, () => {
  /** `line` repeated to `size` bytes after a User-agent line. */
  const fileOf = (line: string, size: number): string => `User-agent: *\n${line.repeat(Math.ceil(size / line.length))}`;
  // A long run of `*` and then another byte: each trailing-`*` search retried from every `*` of the run.
  const STARS = `Disallow: /${'*'.repeat(16_640)}a\n`;
  const ALL_CODES = Object.keys(LINT_CODES);

  it('a file of long star runs lints in linear time', () => {
    const found = lintRobotsTxt(fileOf(STARS, 3_000_000), { maxBytes: Infinity });
    expect(found.filter((d) => d.code === 'duplicate-rule').length).toBeGreaterThan(170);
  });

  it('a check whose codes are all disabled does no work', () => {
    const disable = ALL_CODES.filter((code) => code !== 'file-over-yandex-limit');
    const found = lintRobotsTxt(fileOf(STARS, 3_000_000), { maxBytes: Infinity, disable });
    expect(found.map((d) => d.code)).toEqual(['file-over-yandex-limit']);
  });

  it('each code alone gives exactly what it gives among all the others', () => {
    const bodies = [...CASES.map(([, , body]) => body), ...Object.values(CLEAN_FILES), fileOf('Disallow: /a*\nAllow: /a\n', 40_000)];
    for (const body of bodies) {
      const all = lintRobotsTxt(body);
      for (const code of ALL_CODES) {
        const alone = lintRobotsTxt(body, { disable: ALL_CODES.filter((other) => other !== code) });
        expect(alone, code).toEqual(all.filter((d) => d.code === code));
      }
    }
  });

  it(`reads ${DEFAULT_LINT_MAX_BYTES} bytes by default and reports the body's whole length`, () => {
    const body = `${fileOf('Disallow: /a\n', 1_100_000)}not a record\n`;
    const found = lintRobotsTxt(body);
    expect(found.map((d) => d.code)).not.toContain('malformed-line');
    const [tooLarge] = found.filter((d) => d.code === 'file-too-large');
    expect(tooLarge?.message).toContain(`the file is ${body.length} bytes`);
    expect(tooLarge?.message).toContain(`only its first ${DEFAULT_LINT_MAX_BYTES} bytes were linted`);
    expect(lintRobotsTxt(body, { maxBytes: Infinity }).map((d) => d.code)).toContain('malformed-line');
  });

  it('a 50 MB string is read only up to the limit', () => {
    const body = 'x'.repeat(50_000_000);
    const [tooLarge] = lintRobotsTxt(body).filter((d) => d.code === 'file-too-large');
    expect(tooLarge?.message).toContain('the file is 50000000 bytes');
  });

  it('a body cut before Google stops reading is one file-wide finding with its whole length', () => {
    const body = 'User-agent: *\nDisallow: /a\nnot a record\n'; // 40 bytes
    const found = lintRobotsTxt(body, { maxBytes: 30 });
    // The line the limit cuts is left out, as the parser leaves it: it is not called malformed.
    expect(found).toMatchObject([{ code: 'file-too-large', line: 0, column: 0, severity: 'error' }]);
    expect(found[0]?.message).toBe('the file is 40 bytes; only its first 30 bytes were linted: the rest was not checked');
    expect(lintRobotsTxt(utf8(body), { maxBytes: 30 })).toEqual(found);
  });

  it('maxBytes is a whole number or Infinity', () => {
    for (const maxBytes of [-1, 1.5, NaN, -Infinity, '100' as unknown as number]) {
      expect(() => lintRobotsTxt('User-agent: *\n', { maxBytes }), String(maxBytes)).toThrow(RangeError);
    }
    expect(lintRobotsTxt('User-agent: *\nDisallow: /\n', { maxBytes: 0 })).toMatchObject([{ code: 'file-too-large' }]);
  });

  it('a finding quotes at most 80 characters of a long line', () => {
    const found = lintRobotsTxt(fileOf(`Disallow: /${'b'.repeat(10_000)}\nDisallow: /${'b'.repeat(10_000)}*\n`, 100_000));
    for (const diagnostic of found) expect(diagnostic.message.length + (diagnostic.hint?.length ?? 0)).toBeLessThan(500);
  });
});

describeCorpus('the real corpus', () => {
  it('lints every file without throwing, and prints the counts per code', () => {
    const counts = new Map<string, { files: number; findings: number }>();
    let clean = 0;
    const files = loadCorpus();
    for (const { body } of files) {
      const diagnostics = lintRobotsTxt(body);
      for (const diagnostic of diagnostics) {
        expect(diagnostic.line).toBeGreaterThanOrEqual(0);
        expect(diagnostic.column).toBeGreaterThanOrEqual(diagnostic.line === 0 ? 0 : 1);
      }
      if (!diagnostics.some((diagnostic) => diagnostic.severity !== 'info')) clean++;
      for (const code of new Set(diagnostics.map((diagnostic) => diagnostic.code))) {
        const entry = counts.get(code) ?? { files: 0, findings: 0 };
        entry.files++;
        entry.findings += diagnostics.filter((diagnostic) => diagnostic.code === code).length;
        counts.set(code, entry);
      }
    }
    const rows = [...counts].sort(([a, x], [b, y]) => y.files - x.files || (a < b ? -1 : 1));
    const table = [
      `${files.length} files; ${clean} with no error and no warning`,
      '| code | severity | files | findings |',
      '| --- | --- | ---: | ---: |',
      ...rows.map(
        ([code, { files: n, findings }]) => `| \`${code}\` | ${LINT_CODES[code as keyof typeof LINT_CODES]} | ${n} | ${findings} |`,
      ),
    ];
    console.log(table.join('\n'));
    expect(files.length).toBeGreaterThan(0);
  });
});
