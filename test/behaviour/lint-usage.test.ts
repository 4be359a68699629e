/**
 * lintRobotsTxt() on the lines that state usage preferences: Content-Usage (draft-ietf-aipref-attach-05 §3, in
 * the vocabulary of draft-ietf-aipref-vocab-07), Content-Signal (Cloudflare's Content Signals Policy,
 * https://contentsignals.org/) and License (RSL 1.0). Each finding by a fixture with its line, column and what the
 * hint says to write; the examples of the drafts and of the policy, which must give no error and no warning; and
 * hostile files of usage lines, linted in linear time.
 */
import { describe, expect, it } from 'vitest';
import { LINT_CODES, lintRobotsTxt, type LintDiagnostic } from '../support/library.js';
import { ATTACH_EXAMPLE, ATTACH_INTRODUCTION } from '../support/usage-files.js';

type Case = readonly [title: string, code: string, body: string, line: number, column: number, hint: string];

const UA = 'User-agent: *\n';

const CASES: readonly Case[] = [
  // spec: draft-ietf-aipref-vocab-07 §6.5.1: "If the parsing of the Dictionary fails, preferences are unknown. This includes where keys include uppercase characters".
  [
    'a key in capitals fails the parse',
    'usage-preference-invalid',
    `${UA}Content-Usage: Train-AI=n\n`,
    2,
    16,
    'write Content-Usage: train-ai=n',
  ],
  [
    'capitals after a path: the hint keeps the path',
    'usage-preference-invalid',
    `${UA}Content-Usage: /docs/ Search=n\n`,
    2,
    23,
    'write Content-Usage: /docs/ search=n',
  ],
  // spec: draft-ietf-aipref-attach-05 §3.2: a value that starts with any other character than "/" has no path; all of it is the preference.
  [
    'a path without its "/": the whole value is the preference',
    'usage-preference-invalid',
    `${UA}Content-Usage: *.pdf train-ai=n\n`,
    2,
    16,
    'write the path from the root: Content-Usage: /*.pdf train-ai=n',
  ],
  [
    'a relative path on a Content-Signal line',
    'usage-preference-invalid',
    `${UA}Content-Signal: drafts/ ai-train=no\n`,
    2,
    17,
    'write the path from the root: Content-Signal: /drafts/ ai-train=no',
  ],
  // spec: draft-ietf-aipref-attach-05 §3.2: the path ends before the first SP or HTAB; the rest is the preference.
  [
    'two paths on one line',
    'usage-preference-invalid',
    `${UA}Content-Usage: /a/ /b/ train-ai=n\n`,
    2,
    20,
    'one path per line: Content-Usage: /a/ train-ai=n, then Content-Usage: /b/ train-ai=n',
  ],
  // spec: RFC 9651 §4.2.2: no whitespace around "=", and no trailing comma.
  [
    'spaces around "=" and a trailing comma',
    'usage-preference-invalid',
    `${UA}Content-Signal: search = yes, ai-train=no,\n`,
    2,
    17,
    'write Content-Signal: search=yes, ai-train=no',
  ],
  ['":" for "="', 'usage-preference-invalid', `${UA}Content-Usage: train-ai: n\n`, 2, 16, 'write Content-Usage: train-ai=n'],
  // spec: RFC 9651 §4.2: a field value is ASCII; the column points at the first other character.
  [
    'a non-ASCII hyphen',
    'usage-preference-invalid',
    `${UA}Content-Usage: train\u2011ai=n\n`,
    2,
    21,
    'write comma-separated key=value pairs: Content-Usage: train-ai=n, search=y',
  ],
  // spec: draft-ietf-aipref-attach-05 §3 (ABNF: [ path-pattern 1*WS ] usage-pref): a path alone states no preference.
  [
    'a path and no preference',
    'usage-preference-empty',
    `${UA}Content-Usage: /docs/\n`,
    2,
    16,
    'write what is preferred: Content-Usage: /docs/ train-ai=n, search=y',
  ],
  [
    'an empty Content-Signal',
    'usage-preference-empty',
    `${UA}Content-Signal:\n`,
    2,
    1,
    'write what is preferred: Content-Signal: search=yes, ai-train=no',
  ],
  // spec: draft-ietf-aipref-vocab-07 §6.4: "any unknown labels MUST be ignored".
  [
    'only keys the vocabulary does not define',
    'usage-preference-empty',
    `${UA}Content-Usage: ai=n, training=n\n`,
    2,
    16,
    'write what is preferred: Content-Usage: train-ai=n, search=y',
  ],
  // spec: draft-ietf-aipref-vocab-07 §6.5: only a Token y or n states a preference; "values that are not Tokens" leave it unknown.
  ['the Token yes', 'usage-value-invalid', `${UA}Content-Usage: train-ai=yes\n`, 2, 16, 'write train-ai=y'],
  [
    'a bare key is the Boolean true',
    'usage-value-invalid',
    `${UA}Content-Usage: search=n, train-ai\n`,
    2,
    26,
    'write train-ai=y or train-ai=n',
  ],
  ['a String, not a Token', 'usage-value-invalid', `${UA}Content-Usage: /x train-ai="n"\n`, 2, 19, 'write train-ai=n'],
  // spec: draft-ietf-aipref-vocab-07 §6.1, §6.2: labels and tokens are case-sensitive; "Y" is a Token, not y.
  ['the Token Y', 'usage-value-invalid', `${UA}Content-Usage: train-ai=Y\n`, 2, 16, 'write train-ai=y'],
  // spec: the Content Signals Policy (https://contentsignals.org/): the values are yes and no.
  ['Content-Signal with n for no', 'usage-value-invalid', `${UA}Content-Signal: search=yes, ai-train=n\n`, 2, 29, 'write ai-train=no'],
  // spec: draft-ietf-aipref-vocab-07 §6.4: Content-Usage ignores a key it does not define, such as Content-Signal's.
  [
    "Content-Signal's ai-train on a Content-Usage line",
    'usage-key-wrong-vocabulary',
    `${UA}Content-Usage: ai-train=n\n`,
    2,
    16,
    'write train-ai=n',
  ],
  [
    "Content-Signal's ai-input on a Content-Usage line",
    'usage-key-wrong-vocabulary',
    `${UA}Content-Usage: /news/ ai-input=n\n`,
    2,
    23,
    'state it on a Content-Signal line: Content-Signal: /news/ ai-input=no',
  ],
  // spec: the Content Signals Policy (https://contentsignals.org/): AI training is ai-train.
  [
    "Content-Usage's train-ai on a Content-Signal line",
    'usage-key-wrong-vocabulary',
    `${UA}Content-Signal: train-ai=no\n`,
    2,
    17,
    'write ai-train=no',
  ],
  // spec: draft-ietf-aipref-vocab-07 §6.5.1: "if the same key appears multiple times ... only the last value applies".
  ['a purpose written twice', 'usage-key-repeated', `${UA}Content-Usage: train-ai=n, search=y, train-ai=y\n`, 2, 38, 'keep one train-ai'],
  // spec: draft-ietf-aipref-vocab-07 §6.5.2: parameters carry no preference; "search" after ";" is one.
  [
    'purposes separated by ";"',
    'usage-purpose-in-parameters',
    `${UA}Content-Usage: train-ai=n; search=n\n`,
    2,
    16,
    'separate purposes with ",": Content-Usage: train-ai=n, search=n',
  ],
  [
    'Content-Signal purposes separated by ";"',
    'usage-purpose-in-parameters',
    `${UA}Content-Signal: search=yes;ai-train=no\n`,
    2,
    17,
    'separate purposes with ",": Content-Signal: search=yes, ai-train=no',
  ],
  // spec: the Content Signals Policy (https://contentsignals.org/): three signals, search, ai-input and ai-train.
  [
    'a key the policy does not define',
    'content-signal-unknown-key',
    `${UA}Content-Signal: search=yes, ai_train=no\n`,
    2,
    29,
    "use the policy's keys: search, ai-input and ai-train (Content-Signal: search=yes, ai-train=no)",
  ],
  // spec: the Content Signals Policy (https://contentsignals.org/) writes keys and values in lower case.
  [
    'capitals in keys and values',
    'content-signal-case',
    `${UA}Content-Signal: search=Yes, AI-Train=No\n`,
    2,
    24,
    'write Content-Signal: search=yes, ai-train=no',
  ],
  // spec: draft-ietf-aipref-attach-05 §3.1: "no preferences are implied for resources that are disallowed".
  [
    'a path under a Disallow',
    'usage-path-disallowed',
    `${UA}Disallow: /private/\nContent-Usage: /private/drafts/ train-ai=n\n`,
    3,
    16,
    'remove the line, or let crawlers fetch the path (Allow: /private/drafts/) if the preference is meant to apply',
  ],
  [
    'a Content-Signal path equal to a Disallow, after it in the file or before',
    'usage-path-disallowed',
    `${UA}Content-Signal: /cart ai-train=no\nDisallow: /cart\n`,
    2,
    17,
    'remove the line, or let crawlers fetch the path (Allow: /cart) if the preference is meant to apply',
  ],
  [
    'an Allow shorter than the Disallow cannot outrank it',
    'usage-path-disallowed',
    `${UA}Allow: /*.html\nDisallow: /private/\nContent-Usage: /private/ train-ai=n\n`,
    4,
    16,
    'remove the line, or let crawlers fetch the path (Allow: /private/) if the preference is meant to apply',
  ],
  [
    'Disallow: / covers every path',
    'usage-path-disallowed',
    `${UA}Disallow: /\nAllow: /public/\nContent-Usage: /private/ train-ai=n\n`,
    4,
    16,
    'remove the line, or let crawlers fetch the path (Allow: /private/) if the preference is meant to apply',
  ],
  // spec: draft-ietf-aipref-vocab-07 §5.1: "If any statement of preference indicates that the usage is disallowed, the result is that the usage is disallowed".
  [
    'two path-less lines that disagree',
    'usage-conflict',
    `${UA}Content-Usage: train-ai=y\nContent-Usage: train-ai=n\n`,
    3,
    1,
    'keep one preference per purpose for a path; for an exception, give the narrower part a longer path of its own',
  ],
  [
    'Content-Usage and Content-Signal that disagree on one path',
    'usage-conflict',
    `${UA}Content-Usage: /blog/ train-ai=y\nContent-Signal: /blog/ ai-train=no\n`,
    3,
    1,
    'keep one preference per purpose for a path; for an exception, give the narrower part a longer path of its own',
  ],
  // spec: RSL 1.0 (https://rslstandard.org/): "License:" names the licence file by an absolute URL.
  [
    'a relative License',
    'license-invalid',
    'License: /license.xml\nUser-agent: *\nDisallow:\n',
    1,
    10,
    'write the full URL: License: https://example.com/license.xml',
  ],
  [
    'a License with no scheme',
    'license-invalid',
    `${UA}Disallow:\nLicense: example.com/license.xml\n`,
    3,
    10,
    'write the full URL: License: https://example.com/license.xml',
  ],
  [
    'an empty License',
    'license-invalid',
    `${UA}Disallow:\nLicense:\n`,
    3,
    1,
    'write the full URL: License: https://example.com/license.xml',
  ],
];

function only(diagnostics: readonly LintDiagnostic[], code: string): LintDiagnostic[] {
  return diagnostics.filter((diagnostic) => diagnostic.code === code);
}

const USAGE_CODES = [
  'usage-preference-invalid',
  'usage-preference-empty',
  'usage-value-invalid',
  'usage-key-wrong-vocabulary',
  'usage-key-repeated',
  'usage-purpose-in-parameters',
  'content-signal-unknown-key',
  'content-signal-case',
  'usage-path-disallowed',
  'usage-conflict',
  'license-invalid',
];

describe('each usage finding, at its line and column, with what to write instead', () => {
  for (const [title, code, body, line, column, hint] of CASES) {
    it(`${title} (${code})`, () => {
      const found = only(lintRobotsTxt(body), code);
      expect(found.map((d) => ({ line: d.line, column: d.column, hint: d.hint }))).toEqual([{ line, column, hint }]);
      const [diagnostic] = found as [LintDiagnostic];
      expect(diagnostic.severity).toBe(LINT_CODES[code as keyof typeof LINT_CODES]);
      expect(diagnostic.message.length).toBeGreaterThan(10);
    });
  }

  it('every usage code is known, with its one severity, and has a fixture here', () => {
    expect(USAGE_CODES.map((code) => [code, LINT_CODES[code as keyof typeof LINT_CODES]])).toEqual([
      ['usage-preference-invalid', 'error'],
      ['usage-preference-empty', 'warning'],
      ['usage-value-invalid', 'error'],
      ['usage-key-wrong-vocabulary', 'error'],
      ['usage-key-repeated', 'warning'],
      ['usage-purpose-in-parameters', 'error'],
      ['content-signal-unknown-key', 'warning'],
      ['content-signal-case', 'warning'],
      ['usage-path-disallowed', 'warning'],
      ['usage-conflict', 'warning'],
      ['license-invalid', 'error'],
    ]);
    const covered = new Set(CASES.map(([, code]) => code));
    expect(USAGE_CODES.filter((code) => !covered.has(code))).toEqual([]);
  });

  it('a fixture gives no other error or warning than its own', () => {
    for (const [title, code, body] of CASES) {
      const others = lintRobotsTxt(body, { minSeverity: 'warning' }).filter((d) => d.code !== code);
      expect(
        others.map((d) => d.code),
        title,
      ).toEqual([]);
    }
  });
});

describe('what the messages say', () => {
  it('a key in capitals is said to fail the parse', () => {
    const [diagnostic] = lintRobotsTxt(`${UA}Content-Usage: Train-AI=n\n`);
    expect(diagnostic?.message).toContain('has capitals');
    expect(diagnostic?.message).toContain('does not parse');
    expect(diagnostic?.message).toContain('every purpose is left unknown');
  });

  it('a path without "/" is said to be read as the preference', () => {
    const [diagnostic] = lintRobotsTxt(`${UA}Content-Usage: *.pdf train-ai=n\n`);
    expect(diagnostic?.message).toContain('does not start with "/"');
    expect(diagnostic?.message).toContain('all of it is read as the preference');
  });

  it('a full URL as the path: the hint writes its path', () => {
    const [diagnostic] = lintRobotsTxt(`${UA}Content-Usage: https://example.com/docs/ train-ai=n\n`);
    expect(diagnostic?.hint).toBe('write the path from the root: Content-Usage: /docs/ train-ai=n');
  });

  it('a value that is not y or n is described as the parser reads it', () => {
    const messages = (body: string): string[] => lintRobotsTxt(`${UA}${body}\n`).map((d) => d.message);
    expect(messages('Content-Usage: train-ai=yes')).toEqual([expect.stringContaining('the Token yes')]);
    expect(messages('Content-Usage: train-ai')).toEqual([expect.stringContaining('a bare key is the Boolean true')]);
    expect(messages('Content-Usage: train-ai="n"')).toEqual([expect.stringContaining('the String "n"')]);
    expect(messages('Content-Usage: train-ai=(y n)')).toEqual([expect.stringContaining('an inner list')]);
    expect(messages('Content-Usage: train-ai=0')).toEqual([expect.stringContaining('the number 0')]);
  });

  it('a rule before any group names its key', () => {
    for (const key of ['Content-Usage', 'content-signal']) {
      const found = lintRobotsTxt(`${key}: train-ai=n\n${UA}Disallow:\n`);
      expect(found.map((d) => d.code)).toEqual(['rule-before-user-agent']);
      expect(found[0]?.message).toContain(`"${key}" comes before any User-agent line`);
    }
  });

  it('a conflict names both lines and what wins', () => {
    const [diagnostic] = only(
      lintRobotsTxt(`${UA}Content-Usage: /a train-ai=y, search=n\nContent-Signal: /a ai-train=no, search=yes\n`),
      'usage-conflict',
    );
    expect(diagnostic?.message).toContain('Content-Usage on line 2');
    expect(diagnostic?.message).toContain('ai-train and search are disallowed');
    expect(diagnostic?.message).toContain('the path "/a"');
  });

  it('the Disallow that covers a path is named by its line', () => {
    const [diagnostic] = lintRobotsTxt(`${UA}Disallow: /a\nDisallow: /a/b\nContent-Usage: /a/b/c train-ai=n\n`);
    expect(diagnostic?.message).toContain('Disallow: /a/b (line 3)');
  });

  it('several unknown Content-Signal keys are one finding', () => {
    const found = lintRobotsTxt(`${UA}Content-Signal: a=yes, b=no, c=yes, d=no, search=yes\n`);
    expect(found.map((d) => d.code)).toEqual(['content-signal-unknown-key']);
    expect(found[0]?.message).toContain('keys "a", "b", "c" and 1 more are not');
  });
});

describe('what is left alone', () => {
  it('the keys are known directives, in any case', () => {
    for (const key of ['Content-Usage', 'CONTENT-USAGE', 'content-signal', 'Content-Signal', 'License', 'LICENSE']) {
      const value =
        key.toLowerCase() === 'license'
          ? 'https://example.com/license.xml'
          : key.toLowerCase() === 'content-usage'
            ? 'train-ai=n'
            : 'ai-train=no';
      expect(lintRobotsTxt(`${UA}Disallow: /x\n${key}: ${value}\n`), key).toEqual([]);
    }
  });

  // spec: draft-ietf-aipref-vocab-07 §6.5.2: parameters are ignored; §6.4: unknown labels are ignored.
  it('parameters and extension keys beside a purpose', () => {
    expect(lintRobotsTxt(`${UA}Content-Usage: train-ai=n;reason="x", search=y, ext-label=?0\n`)).toEqual([]);
  });

  it('paths that a longer or equal Allow opens, or that wildcards make uncertain', () => {
    const bodies = [
      `${UA}Disallow: /private/\nAllow: /private/docs/open\nContent-Usage: /private/docs train-ai=n\n`,
      `${UA}Disallow: /private/\nAllow: /private/\nContent-Usage: /private/ train-ai=n\n`,
      `${UA}Disallow: /private\nAllow: /*/index.html\nContent-Usage: /private/ train-ai=n\n`,
      `${UA}Disallow: /*.pdf\nContent-Usage: /docs/*.pdf train-ai=n\n`,
      `${UA}Disallow: /a*b\nContent-Usage: /a/b train-ai=n\n`,
      `${UA}Disallow: /private/$\nContent-Usage: /private/x train-ai=n\n`,
      `${UA}Disallow: /priv\nContent-Usage: /pri train-ai=n\n`,
      'User-agent: a\nDisallow: /x\n\nUser-agent: b\nContent-Usage: /x train-ai=n\n',
    ];
    for (const body of bodies) expect(only(lintRobotsTxt(body), 'usage-path-disallowed'), body).toEqual([]);
  });

  it('lines that agree, or speak for different paths or purposes', () => {
    const bodies = [
      `${UA}Content-Usage: train-ai=n\nContent-Usage: train-ai=n\n`,
      `${UA}Content-Usage: train-ai=n\nContent-Usage: /ok/ train-ai=y\n`,
      `${UA}Content-Usage: train-ai=n\nContent-Signal: search=yes\n`,
      'User-agent: a\nDisallow: /x\nContent-Usage: train-ai=y\n\nUser-agent: b\nDisallow: /x\nContent-Usage: train-ai=n\n',
    ];
    for (const body of bodies) expect(only(lintRobotsTxt(body), 'usage-conflict'), body).toEqual([]);
  });
});

/** The examples of the drafts and of the policy, and files in the shapes sites write: no error, no warning. */
const CLEAN_FILES: Readonly<Record<string, string>> = {
  // spec: draft-ietf-aipref-attach-05 §3.4, the example robots.txt file.
  'attach-05 §3.4': `${ATTACH_EXAMPLE}\n`,
  // spec: draft-ietf-aipref-attach-05 §1.2, the robots.txt example.
  'attach-05 §1.2': ATTACH_INTRODUCTION,
  // spec: draft-ietf-aipref-vocab-07 §6, the serialization example, on a line of its own.
  'vocab-07 §6': `${UA}Content-Usage: train-ai=y, search=n\n`,
  // spec: the Content Signals Policy (https://contentsignals.org/), its robots.txt lines.
  'the Content Signals Policy':
    '# As a condition of accessing this website, you agree to abide by\n# the following content signals:\nUser-Agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n',
  'every line kind together': [
    'User-agent: *',
    'Disallow: /cart',
    'Content-Signal: search=yes, ai-input=yes, ai-train=no',
    'Content-Usage: train-ai=n',
    'Content-Usage: /press/ train-ai=y',
    '',
    'License: https://example.com/license.xml',
    'Sitemap: https://example.com/sitemap.xml',
    '',
  ].join('\r\n'),
};

describe('the drafts’ and the policy’s examples give no error and no warning', () => {
  for (const [name, body] of Object.entries(CLEAN_FILES)) {
    it(name, () => {
      expect(lintRobotsTxt(body, { minSeverity: 'warning' })).toEqual([]);
    });
  }
});

describe('hostile usage lines', { timeout: 15_000 }, () => {
  const ALL_CODES = Object.keys(LINT_CODES);

  it('each usage code alone gives exactly what it gives among all the others', () => {
    for (const body of [...CASES.map(([, , body]) => body), ...Object.values(CLEAN_FILES)]) {
      const all = lintRobotsTxt(body);
      for (const code of USAGE_CODES) {
        const alone = lintRobotsTxt(body, { disable: ALL_CODES.filter((other) => other !== code) });
        expect(alone, code).toEqual(all.filter((d) => d.code === code));
      }
    }
  });

  it('a megabyte of usage paths under as many Disallows lints in linear time', () => {
    const lines: string[] = [UA];
    for (let i = 0; lines.length < 40_000; i++) lines.push(`Disallow: /d${i}/\n`, `Content-Usage: /d${i}/x train-ai=n\n`);
    const found = lintRobotsTxt(lines.join(''), { maxBytes: Infinity });
    expect(only(found, 'usage-path-disallowed').length).toBe(20_000);
  });

  it('a megabyte of one path with opposite preferences lints in linear time', () => {
    const body = UA + 'Content-Usage: /a train-ai=y\nContent-Usage: /a train-ai=n\n'.repeat(20_000);
    expect(only(lintRobotsTxt(body, { maxBytes: Infinity }), 'usage-conflict').length).toBe(39_999);
  });

  it('long preferences: thousands of keys, long strings, long paths', () => {
    const keys = Array.from({ length: 2_000 }, (_, i) => `k${i}=yes`).join(', ');
    const bodies = [
      `${UA}Content-Signal: ${keys}\n`.repeat(60),
      `${UA}Content-Usage: train-ai=${'"'.padEnd(16_000, 'a')}"\n`.repeat(60),
      `${UA}Content-Usage: /${'a'.repeat(16_000)} ${'b;'.repeat(100)}\n`.repeat(60),
      `${UA}Content-Usage: Train-AI=n, ${'x '.repeat(8_000)}\n`.repeat(60),
    ];
    for (const body of bodies) {
      const found = lintRobotsTxt(body, { maxBytes: Infinity });
      expect(found.length).toBeGreaterThan(0);
      for (const diagnostic of found) expect(diagnostic.message.length + (diagnostic.hint?.length ?? 0)).toBeLessThan(600);
    }
  });
});
