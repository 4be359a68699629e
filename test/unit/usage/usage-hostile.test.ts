/**
 * Usage lines written to hurt: thousands of wildcard paths of one length (each source compiled once per
 * purpose, src/usage/usage-rules.ts), a file of nothing but usage lines at the 500 KiB limit, statements
 * built to make a Dictionary parser backtrack. Each finishes (the suite's timeout bounds it, bench/hostile/ times
 * it) and answers what the drafts say; none is a crash.
 */
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '../../../src/platform/inline.js';

describe('hostile usage lines', () => {
  it('5,000 wildcard paths of one length, asked with long URLs, answer as their combination says', () => {
    const lines = ['User-agent: *'];
    for (let i = 0; i < 5000; i++) lines.push(`Content-Usage: /*${String(i).padStart(4, '0')}*z train-ai=${i % 2 === 0 ? 'y' : 'n'}`);
    const rules = parseRobotsTxt(lines.join('\n')).forAgent('ExampleBot');
    const long = `/${'a'.repeat(16_000)}0001z`;
    // /*0001*z (train-ai=n) matches; of its length only it: disallow.
    expect(rules.usage(long)?.['train-ai']).toBe('disallow');
    // Two paths match, 0000 (y) and 0001 (n): combined, disallow; and the lines of both decide nothing else.
    expect(rules.usage('/x0000y0001z')?.['train-ai']).toBe('disallow');
    expect(rules.usage('/x0000z')?.['train-ai']).toBe('allow');
    expect(rules.usage(`/${'b'.repeat(16_000)}`)?.['train-ai']).toBe('unknown');
  });

  it('many distinct combinations keep answering, each right', () => {
    const lines = ['User-agent: *'];
    for (let i = 0; i < 64; i++)
      lines.push(`Content-Signal: /*${String.fromCharCode(65 + (i % 26))}${i >= 26 ? i : ''}*$ ai-train=${i % 3 === 0 ? 'no' : 'yes'}`);
    const rules = parseRobotsTxt(lines.join('\n')).forAgent('ExampleBot');
    for (let i = 0; i < 6000; i++) {
      const answer = rules.usage(`/q${i}`);
      expect(answer?.['train-ai']).toBe('unknown');
    }
    expect(rules.usage('/xA0')?.['train-ai']).toBe('disallow');
  });

  it('a 500 KiB file of usage lines parses, compiles and answers', () => {
    const line = 'Content-Signal: search=yes, ai-train=no, ai-input=no\n';
    const body = `User-agent: *\n${line.repeat(Math.floor((500 * 1024) / line.length))}`;
    const robots = parseRobotsTxt(body);
    const answer = robots.usage('/', 'ExampleBot');
    expect(answer).toMatchObject({ 'train-ai': 'disallow', search: 'allow', 'ai-input': 'disallow' });
    expect(answer?.statements.length).toBeGreaterThan(9000);
  });

  it('statements built against the Dictionary parser: deep lists, long strings, stray bytes', () => {
    const statements = [
      `train-ai=(${'a '.repeat(7000)})`,
      `train-ai="${'\\"'.repeat(7000)}`,
      `train-ai=n;${'p;'.repeat(7000)}`,
      `${'a=1,'.repeat(4000)}train-ai=n`,
      `train-ai=:${'A'.repeat(15_000)}:`,
      `train-ai=${'9'.repeat(15_000)}`,
      '\u0000\u00ff\ud800 train-ai=n',
    ];
    for (const statement of statements) {
      const answer = parseRobotsTxt(`User-agent: *\nContent-Usage: ${statement}\n`).usage('/', 'ExampleBot');
      expect(answer, statement.slice(0, 40)).not.toBeNull();
    }
    expect(parseRobotsTxt(`User-agent: *\nContent-Usage: ${'a=1,'.repeat(4000)}train-ai=n\n`).usage('/', 'x')?.['train-ai']).toBe(
      'disallow',
    );
  });
});
