import { describe, it, expect } from 'vitest';
import { cleanUrl, parseCleanParam, type CleanParam } from '../../../src/parse/clean-param.js';

/** The rule a valid value gives; fails the test at once when the value is rejected. */
function rule(value: string, line = 1): CleanParam {
  const parsed = parseCleanParam(value, line);
  if (parsed === undefined) throw new Error(`rejected: ${value}`);
  return parsed;
}

describe('parseCleanParam', () => {
  // spec: Yandex's robots.txt docs (https://yandex.com/support/webmaster/controlling-robot/robots-txt.html), "The Clean-param directive" ("Clean-param: s /forum/showthread.php")
  it('reads one parameter and a path prefix', () => {
    expect(parseCleanParam('s /forum/showthread.php', 3)).toEqual({ params: ['s'], pathPrefix: '/forum/showthread.php', line: 3 });
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" ("list the parameters ... separated by the & character")
  it('reads parameters separated by &, in file order', () => {
    expect(parseCleanParam('sid&sort /forum/*.php', 7)).toEqual({ params: ['sid', 'sort'], pathPrefix: '/forum/*.php', line: 7 });
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" ("The second field is optional ... the rule will apply to all pages")
  it('reads a rule without a path prefix as applying everywhere', () => {
    expect(parseCleanParam('someTrash&otherTrash', 9)).toEqual({ params: ['someTrash', 'otherTrash'], pathPrefix: '', line: 9 });
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" ("Clean-param: p0[&p1&p2&..&pn] [path]")
  it('removes duplicate parameter names, keeping the first', () => {
    expect(rule('b&a&b&a').params).toEqual(['b', 'a']);
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" ("Clean-param: p0[&p1&p2&..&pn] [path]")
  it('accepts tabs or several spaces between the fields', () => {
    expect(rule('ref\t/some_dir/').pathPrefix).toBe('/some_dir/');
    expect(rule('ref   /some_dir/').pathPrefix).toBe('/some_dir/');
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" ("you can only use the characters A-Za-z0-9.-/*_")
  it('accepts every character Yandex allows in the prefix', () => {
    expect(rule('s /AZaz09.-/*_').pathPrefix).toBe('/AZaz09.-/*_');
    expect(rule('s&ref /forum*/showthread.php').pathPrefix).toBe('/forum*/showthread.php');
    expect(rule('s *').pathPrefix).toBe('*');
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" ("you can only use the characters A-Za-z0-9.-/*_")
  it('rejects a prefix with any other character', () => {
    for (const value of ['s /forum$', 's /forum?x', 's /a%20b', 's /a~b', 's /a+b', 's /a:b', 's /a#b', 's /форум']) {
      expect(parseCleanParam(value, 1), value).toBeUndefined();
    }
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" ("indicate the path prefix for the pages")
  it('rejects a prefix that does not start like a path', () => {
    expect(parseCleanParam('s forum/showthread.php', 1)).toBeUndefined();
    expect(parseCleanParam('s .php', 1)).toBeUndefined();
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" ("Clean-param: p0[&p1&p2&..&pn] [path]")
  it('rejects an empty parameter name', () => {
    for (const value of ['&s', 's&', 's&&ref', '&', 's& /forum', ' /forum']) {
      expect(parseCleanParam(value, 1), value).toBeUndefined();
    }
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" ("Clean-param: p0[&p1&p2&..&pn] [path]")
  it('rejects a third field', () => {
    expect(parseCleanParam('s /forum /other', 1)).toBeUndefined();
    expect(parseCleanParam('s & ref /forum', 1)).toBeUndefined();
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" (parameters are names in the query)
  it('rejects a parameter name that no query could hold', () => {
    for (const value of ['a=b', 'a#b', 'sid&a=1 /forum', 'пар', 'a\u0000b']) {
      expect(parseCleanParam(value, 1), value).toBeUndefined();
    }
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" ("The maximum length of the rule is 500 characters.")
  it('accepts 500 characters and rejects 501', () => {
    const prefix = `/${'a'.repeat(497)}`;
    expect(rule(`s ${prefix}`).pathPrefix).toBe(prefix);
    expect(parseCleanParam(`s ${prefix}a`, 1)).toBeUndefined();
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" ("The maximum length of the rule is 500 characters.")
  it('rejects empty, binary and oversized values quickly without throwing', () => {
    expect(parseCleanParam('', 1)).toBeUndefined();
    expect(parseCleanParam('\u0000\uFFFD', 1)).toBeUndefined();
    const started = performance.now();
    expect(parseCleanParam(`s /${'a'.repeat(1 << 20)}`, 1)).toBeUndefined();
    expect(parseCleanParam('&'.repeat(1 << 20), 1)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('cleanUrl', () => {
  // spec: Yandex's robots.txt docs, "The Clean-param directive" ("Clean-param: ref /some_dir/", "converge all the page addresses into one")
  it('drops a listed parameter from an absolute URL whose path matches', () => {
    const rules = [rule('ref /some_dir/get_book.pl')];
    expect(cleanUrl('https://www.example.com/some_dir/get_book.pl?ref=site_1&book_id=123', rules)).toBe(
      'https://www.example.com/some_dir/get_book.pl?book_id=123',
    );
    expect(cleanUrl('https://www.example.com/some_dir/get_book.pl?book_id=123&ref=site_2', rules)).toBe(
      'https://www.example.com/some_dir/get_book.pl?book_id=123',
    );
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" ("Clean-param: sid&sort /forum/*.php")
  it('drops every listed parameter from a path, * matching any run of characters', () => {
    const rules = [rule('sid&sort /forum/*.php')];
    expect(cleanUrl('/forum/showthread.php?s=681498b9648949605&t=8243&sid=1', rules)).toBe(
      '/forum/showthread.php?s=681498b9648949605&t=8243',
    );
    expect(cleanUrl('/forum/a/b/index.php?sort=asc&sid=2&x=1', rules)).toBe('/forum/a/b/index.php?x=1');
    expect(cleanUrl('/forum/readme.txt?sid=1', rules)).toBe('/forum/readme.txt?sid=1');
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" ("Clean-param: s&ref /forum*/showthread.php")
  it('matches a * in the middle of the prefix', () => {
    const rules = [rule('s&ref /forum*/showthread.php')];
    expect(cleanUrl('/forum_old/showthread.php?s=1&t=2', rules)).toBe('/forum_old/showthread.php?t=2');
    expect(cleanUrl('/forum/showthread.php?ref=x&t=2', rules)).toBe('/forum/showthread.php?t=2');
    expect(cleanUrl('/forums/index.php?s=1', rules)).toBe('/forums/index.php?s=1');
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" ("A * is always implicitly appended to the end of the prefix")
  it('treats the prefix as matching any longer path', () => {
    const rules = [rule('s /forum/showthread.php')];
    expect(cleanUrl('/forum/showthread.php5/x?s=1&t=2', rules)).toBe('/forum/showthread.php5/x?t=2');
    expect(cleanUrl('/forum/showthread.ph?s=1', rules)).toBe('/forum/showthread.ph?s=1');
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" ("all URLs that begin with /forum/showthread.php")
  it('anchors the prefix at the start of the path', () => {
    const rules = [rule('s /forum/')];
    expect(cleanUrl('/old/forum/x?s=1', rules)).toBe('/old/forum/x?s=1');
    expect(cleanUrl('https://example.com/old/forum/x?s=1', rules)).toBe('https://example.com/old/forum/x?s=1');
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" ("It is case sensitive.")
  it('compares the path prefix and the parameter names case-sensitively', () => {
    expect(cleanUrl('/Forum/x?s=1', [rule('s /forum/')])).toBe('/Forum/x?s=1');
    expect(cleanUrl('/forum/x?S=1&s=2', [rule('s /forum/')])).toBe('/forum/x?S=1');
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" ("the rule will apply to all pages on the site")
  it('applies a rule without a prefix to every path, the root included', () => {
    const rules = [rule('someTrash&otherTrash')];
    expect(cleanUrl('/any/where?someTrash=1&keep=2&otherTrash', rules)).toBe('/any/where?keep=2');
    expect(cleanUrl('https://example.com?someTrash=1', rules)).toBe('https://example.com');
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" ("If several directives are specified, all of them will be taken into account")
  it('applies every rule whose prefix matches', () => {
    const rules = [rule('s /forum/index.php'), rule('s /forum/showthread.php'), rule('t /forum/'), rule('u /blog/')];
    expect(cleanUrl('/forum/showthread.php?s=1&t=2&u=3', rules)).toBe('/forum/showthread.php?u=3');
    expect(cleanUrl('/forum/index.php?s=1&t=2&u=3', rules)).toBe('/forum/index.php?u=3');
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" (the parameter is disregarded, the page address kept)
  it('drops a parameter written without a value, and every repeat of it', () => {
    expect(cleanUrl('/p?sid&a=1&sid=2&sid=', [rule('sid')])).toBe('/p?a=1');
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" ("the Yandex robot will converge all the page addresses into one")
  it('removes the ? when no parameter is left', () => {
    expect(cleanUrl('/some_dir/get_book.pl?ref=site_1', [rule('ref')])).toBe('/some_dir/get_book.pl');
    expect(cleanUrl('/p?ref=1&&ref=2', [rule('ref')])).toBe('/p');
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" (only the listed parameters are disregarded)
  it('keeps the other parameters in their order and spelling, without re-encoding', () => {
    expect(cleanUrl('/p?b=%7e+x&ref=1&a=caf%C3%A9&c=a=b&d=é', [rule('ref')])).toBe('/p?b=%7e+x&a=caf%C3%A9&c=a=b&d=é');
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" (parameters are named as written in the URL)
  it('compares the raw name, not a decoded one', () => {
    expect(cleanUrl('/p?r%65f=1&ref=2', [rule('ref')])).toBe('/p?r%65f=1');
    expect(cleanUrl('/p?r%65f=1&ref=2', [rule('r%65f')])).toBe('/p?ref=2');
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" (the query, not the fragment, holds the parameters)
  it('keeps the fragment, and ignores a ? or parameter inside it', () => {
    expect(cleanUrl('https://example.com/p?ref=1&a=2#ref=3', [rule('ref')])).toBe('https://example.com/p?a=2#ref=3');
    expect(cleanUrl('/p?ref=1#top', [rule('ref')])).toBe('/p#top');
    expect(cleanUrl('/p#x?ref=1', [rule('ref')])).toBe('/p#x?ref=1');
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" (applies to "page addresses" with the listed parameters)
  it('returns the input itself when nothing applies', () => {
    const rules = [rule('ref /some_dir/')];
    for (const url of [
      '/some_dir/page',
      '/some_dir/page?a=1&&b=2',
      '/other/page?ref=1',
      '/some_dir/page?',
      '/some_dir/page?reference=1&refx',
    ]) {
      expect(cleanUrl(url, rules), url).toBe(url);
    }
    expect(cleanUrl('/some_dir/page?ref=1', [])).toBe('/some_dir/page?ref=1');
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" ("page addresses")
  it('returns a string that is neither a URL nor a path unchanged', () => {
    const rules = [rule('ref')];
    for (const value of ['', 'some_dir/page?ref=1', 'example.com/page?ref=1', '?ref=1', 'mailto:a@b?ref=1', '\u0000\uFFFD']) {
      expect(cleanUrl(value, rules), value).toBe(value);
    }
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" ("page addresses")
  it('reads the path after any scheme and authority, a port or credentials included', () => {
    const rules = [rule('ref /p')];
    expect(cleanUrl('HTTP://user:pw@Example.com:8080/p?ref=1&a=2', rules)).toBe('HTTP://user:pw@Example.com:8080/p?a=2');
    expect(cleanUrl('//example.com/p?ref=1', rules)).toBe('//example.com/p');
    expect(cleanUrl('https://example.com/x?ref=/p', rules)).toBe('https://example.com/x?ref=/p');
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" ("The prefix can contain a regular expression in the format similar to the one used in the robots.txt file")
  it('matches many * in linear time on a long path', () => {
    const rules = [rule(`x /${'a*'.repeat(200)}b`)];
    const path = `/${'a'.repeat(1 << 20)}`;
    const started = performance.now();
    expect(cleanUrl(`${path}?x=1`, rules)).toBe(`${path}?x=1`);
    expect(cleanUrl(`${path}b?x=1`, rules)).toBe(`${path}b`);
    expect(performance.now() - started).toBeLessThan(500);
  });

  // spec: Yandex's robots.txt docs, "The Clean-param directive" (many parameters in a query)
  it('cleans a 1 MB query without throwing', () => {
    const query = Array.from({ length: 100_000 }, (_, i) => (i % 2 === 0 ? `sid=${i}` : `k${i}=v`)).join('&');
    const cleaned = cleanUrl(`/p?${query}`, [rule('sid')]);
    expect(cleaned.startsWith('/p?k1=v&k3=v')).toBe(true);
    expect(cleaned.includes('sid=')).toBe(false);
  });
});
