/**
 * parseDictionary: RFC 9651's Dictionary parser on bytes, held to the RFC's algorithms (§4.2 to §4.2.10) one
 * step at a time, to the examples of draft-ietf-aipref-vocab-07 §6.5.1 and §6.5.2, and to hostile input. The
 * differential test against the structured-headers package is test/conformance/structured-dictionary.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { parseDictionary, type BareItem, type DictionaryMember, type Item } from '../../../src/usage/structured-dictionary.js';

/** The bytes of `text`, one per character: text beyond ASCII is written as \xNN (a byte), never as UTF-8. */
function bytesOf(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => {
    const code = char.charCodeAt(0);
    if (code > 0xff) throw new Error(`not a byte: ${char}`);
    return code;
  });
}

function parse(text: string): Map<string, DictionaryMember> | undefined {
  return parseDictionary(bytesOf(text));
}

/** The dictionary `text` parses to; fails the test at once when it does not parse. */
function dictionary(text: string): Map<string, DictionaryMember> {
  const parsed = parse(text);
  if (parsed === undefined) throw new Error(`did not parse: ${JSON.stringify(text)}`);
  return parsed;
}

/** The one member `key` of the dictionary `text`, which must be an Item. */
function item(text: string, key = 'a'): Item {
  const member = dictionary(text).get(key);
  if (member === undefined || !('item' in member)) throw new Error(`no item ${key} in ${JSON.stringify(text)}`);
  return member;
}

const integer = (value: number): BareItem => ({ type: 'integer', value });
const decimal = (value: number): BareItem => ({ type: 'decimal', value });
const string = (value: string): BareItem => ({ type: 'string', value });
const token = (value: string): BareItem => ({ type: 'token', value });
const boolean = (value: boolean): BareItem => ({ type: 'boolean', value });
const bytes = (...value: number[]): BareItem => ({ type: 'byte-sequence', value: Uint8Array.from(value) });
const date = (value: number): BareItem => ({ type: 'date', value });
const display = (value: string): BareItem => ({ type: 'display-string', value });
const member = (bare: BareItem, params: [string, BareItem][] = []): Item => ({ item: bare, params: new Map(params) });
const HELLO = [0x68, 0x65, 0x6c, 0x6c, 0x6f];

describe('parseDictionary: the top level (RFC 9651 §4.2)', () => {
  // spec: RFC 9651 §4.2 step 2 and 5 ("Discard any leading SP characters"), step 6 (fail if anything remains)
  it('discards SP before and after the dictionary, but not HTAB', () => {
    expect(dictionary('   a=1   ')).toEqual(new Map([['a', member(integer(1))]]));
    expect(parse('\ta=1')).toBeUndefined();
    expect(parse('a=1\t')).toBeDefined(); // a trailing HTAB is OWS after a member (§4.2.2), not top-level
    expect(parse('a=1 x')).toBeUndefined();
  });

  // spec: RFC 9651 §4.2.2 (the loop never runs: "Return dictionary", empty)
  it('reads empty input, or SP alone, as the empty dictionary', () => {
    expect(dictionary('')).toEqual(new Map());
    expect(dictionary('    ')).toEqual(new Map());
  });

  // spec: RFC 9651 §4.2 step 1 ("Convert input_bytes into an ASCII string ... if conversion fails, fail parsing")
  it('fails on any byte outside ASCII, wherever it stands', () => {
    for (const text of [
      'a="caf\xe9"',
      'a=caf\xe9',
      'a=1,\xa0b=2',
      '\xefa=1',
      'a=1 \x80',
      'a=%"caf\xc3\xa9"',
      'a=:aGVs\xff:',
      'a;p\xe9=1',
    ]) {
      expect(parse(text), JSON.stringify(text)).toBeUndefined();
    }
  });

  // spec: RFC 9651 §4.2 (input_bytes are the field value; the caller's range is that value)
  it('reads bytes[start, end) alone, never the bytes around it', () => {
    const line = bytesOf('Content-Usage: train-ai=n, search=y\r\nX');
    const start = 'Content-Usage: '.length;
    const end = line.indexOf(0x0d);
    expect(parseDictionary(line, start, end)).toEqual(
      new Map([
        ['train-ai', member(token('n'))],
        ['search', member(token('y'))],
      ]),
    );
    expect(parseDictionary(line, start, end - 2)).toEqual(
      new Map([
        ['train-ai', member(token('n'))],
        ['search', member(boolean(true))],
      ]),
    );
    expect(parseDictionary(line, 0, end)).toBeUndefined(); // "Content-Usage:" is not a key
    expect(parseDictionary(line, end, start)).toEqual(new Map()); // an empty range
    expect(parseDictionary(line, start, line.length + 100)).toBeUndefined(); // clamped to the array: CR LF X remain
  });
});

describe('parseDictionary: members (RFC 9651 §4.2.2)', () => {
  // spec: RFC 9651 §4.2.2 steps 2.2 and 2.3 (a value after "=", else Boolean true with parameters)
  it('reads key=value members and bare keys, whose value is Boolean true', () => {
    expect(dictionary('a=1, b, c=?0, d;p=2')).toEqual(
      new Map([
        ['a', member(integer(1))],
        ['b', member(boolean(true))],
        ['c', member(boolean(false))],
        ['d', member(boolean(true), [['p', integer(2)]])],
      ]),
    );
  });

  // spec: RFC 9651 §4.2.2 steps 2.5 and 2.8 ("Discard any leading OWS characters": SP and HTAB)
  it('allows SP and HTAB around the commas, nothing else', () => {
    expect([...dictionary('a=1\t,\t b=2 ,c=3').keys()]).toEqual(['a', 'b', 'c']);
    expect(parse('a=1\n,b=2')).toBeUndefined();
    expect(parse('a=1;b=2')).toBeDefined(); // ";" starts parameters, not a member
    expect(parse('a=1 b=2')).toBeUndefined(); // step 2.7: not ","
  });

  // spec: RFC 9651 §4.2.2 step 2.2 (the value starts right after "="), §4.2.3.3 (a key ends at a non-key byte)
  it('fails on whitespace around "="', () => {
    expect(parse('a =1')).toBeUndefined();
    expect(parse('a= 1')).toBeUndefined();
    expect(parse('a=')).toBeUndefined();
  });

  // spec: RFC 9651 §4.2.2 step 2.9 ("If input_string is empty, there is a trailing comma; fail parsing")
  it('fails on a trailing comma, an empty member or a leading comma', () => {
    expect(parse('a=1,')).toBeUndefined();
    expect(parse('a=1, ')).toBeUndefined();
    expect(parse('a=1,,b=2')).toBeUndefined();
    expect(parse(',a=1')).toBeUndefined();
  });

  // spec: RFC 9651 §4.2.2 step 2.4 ("overwriting any existing value with the same key"), §3.2 (ordered map)
  it('gives a repeated key its last value, in the place where the key first stood', () => {
    const parsed = dictionary('a=1, b=2, a=3;p');
    expect([...parsed.keys()]).toEqual(['a', 'b']);
    expect(parsed.get('a')).toEqual(member(integer(3), [['p', boolean(true)]]));
  });

  // spec: RFC 9651 §4.2.3.3 (a key starts with lcalpha or "*", continues with lcalpha, DIGIT, "_", "-", ".", "*")
  it('reads keys of lowercase letters, digits and _-.*, starting with a letter or *', () => {
    expect([...dictionary('*=1, a0_-.*=2, z').keys()]).toEqual(['*', 'a0_-.*', 'z']);
    for (const text of ['A=1', 'aB=1', 'a=1, B=2', '1a=1', '_a=1', '-a=1', '.a=1', 'a!=1', 'a/b=1', '"a"=1']) {
      expect(parse(text), text).toBeUndefined();
    }
  });
});

describe('parseDictionary: inner lists (RFC 9651 §4.2.1.2)', () => {
  // spec: RFC 9651 §4.2.1.2 (items apart by SP, ")" then the list's parameters)
  it('reads inner lists, with parameters on the items and on the list', () => {
    expect(dictionary('a=(1 "x";p=?0 tok);q=2, b=()')).toEqual(
      new Map([
        [
          'a',
          {
            inner: [member(integer(1)), member(string('x'), [['p', boolean(false)]]), member(token('tok'))],
            params: new Map([['q', integer(2)]]),
          },
        ],
        ['b', { inner: [], params: new Map() }],
      ]),
    );
  });

  // spec: RFC 9651 §4.2.1.2 step 3.1 ("Discard any leading SP characters")
  it('allows any number of SP inside the parentheses, but not HTAB', () => {
    expect(dictionary('a=(  1   2  )').get('a')).toEqual({ inner: [member(integer(1)), member(integer(2))], params: new Map() });
    expect(parse('a=(1\t2)')).toBeUndefined();
    expect(parse('a=(\t1)')).toBeUndefined();
  });

  // spec: RFC 9651 §4.2.1.2 step 3.4 ("If the first character ... is not SP or ")", fail"), step 4 (no ")")
  it('fails on items not apart by SP, on a missing ")", and on a nested list', () => {
    for (const text of ['a=(1"x")', 'a=(1,2)', 'a=(1 2', 'a=(', 'a=((1))', 'a=(1) (2)', 'a=(1);']) {
      expect(parse(text), text).toBeUndefined();
    }
  });
});

describe('parseDictionary: parameters (RFC 9651 §4.2.3.2)', () => {
  // spec: RFC 9651 §4.2.3.2 steps 2.3 (SP after ";"), 2.5 (Boolean true without "="), 2.7 (the last value wins)
  it('reads parameters: SP after ";" allowed, a bare key true, a repeated key its last value', () => {
    expect(item('a=1;  p;q=?0;p=tok;r="s"').params).toEqual(
      new Map([
        ['p', token('tok')],
        ['q', boolean(false)],
        ['r', string('s')],
      ]),
    );
  });

  // spec: RFC 9651 §4.2.3.2 (after ";" a Key must follow: step 2.4; the value is a Bare Item: step 2.6)
  it('fails on a trailing ";", SP before ";" or around "=", an uppercase key, an inner list as value', () => {
    for (const text of ['a=1;', 'a=1; ', 'a;', 'a=1 ;p', 'a=1;p =2', 'a=1;p= 2', 'a=1;P=2', 'a=1;p=(1)', 'a=1;p=', 'a=1;;p']) {
      expect(parse(text), text).toBeUndefined();
    }
  });
});

describe('parseDictionary: bare items (RFC 9651 §4.2.3.1 to §4.2.10)', () => {
  // spec: RFC 9651 §4.2.3.1 (the first character chooses the type; anything else fails)
  it('fails on a value no bare item starts with', () => {
    for (const text of ['a=!', 'a=.5', 'a=+1', 'a=)', 'a=,', 'a=#x', "a='x'"]) expect(parse(text), text).toBeUndefined();
  });

  // spec: RFC 9651 §4.2.4 (Integer: at most 15 digits, an optional "-")
  it('reads integers of up to 15 digits', () => {
    expect(item('a=42').item).toEqual(integer(42));
    expect(item('a=-42').item).toEqual(integer(-42));
    expect(item('a=007').item).toEqual(integer(7));
    expect(item('a=999999999999999').item).toEqual(integer(999_999_999_999_999));
    expect(item('a=-999999999999999').item).toEqual(integer(-999_999_999_999_999));
    expect(Object.is(item('a=-0').item.value, 0)).toBe(true); // -0 is 0, not a double's negative zero
  });

  // spec: RFC 9651 §4.2.4 step 7.5 ("If type is integer and input_number contains more than 15 characters, fail")
  it('fails on an integer of 16 digits, a lone "-", or "-" before a non-digit', () => {
    for (const text of ['a=1234567890123456', 'a=-1234567890123456', 'a=0000000000000000', 'a=-', 'a=-a', 'a=--1', 'a=1-']) {
      expect(parse(text), text).toBeUndefined();
    }
  });

  // spec: RFC 9651 §4.2.4 (Decimal: at most 12 digits before ".", 1 to 3 after)
  it('reads decimals of up to 12 integer digits and 3 fraction digits, as the nearest double', () => {
    expect(item('a=1.5').item).toEqual(decimal(1.5));
    expect(item('a=-0.1').item).toEqual(decimal(-0.1));
    expect(item('a=1.50').item).toEqual(decimal(1.5));
    expect(item('a=0.300').item).toEqual(decimal(0.3));
    expect(item('a=123456789012.123').item).toEqual(decimal(123456789012.123));
    expect(item('a=-999999999999.999').item).toEqual(decimal(-999999999999.999));
    expect(Object.is(item('a=-0.0').item.value, 0)).toBe(true);
  });

  // spec: RFC 9651 §4.2.4 steps 5.3 (more than 12 characters before "."), 7.1 (ends with "."), 7.2 (more than 3 after)
  it('fails on 13 integer digits, a final ".", 4 fraction digits, or a second "."', () => {
    for (const text of ['a=1234567890123.1', 'a=1.', 'a=1.a', 'a=1.2345', 'a=1.2.3', 'a=-.5', 'a=0.0000']) {
      expect(parse(text), text).toBeUndefined();
    }
  });

  // spec: RFC 9651 §4.2.5 (String: DQUOTEs, "\" escapes DQUOTE and "\" alone, printable ASCII)
  it('reads strings, unescaping \\" and \\\\', () => {
    expect(item('a=""').item).toEqual(string(''));
    expect(item('a="say \\"hi\\" \\\\o/"').item).toEqual(string('say "hi" \\o/'));
    expect(item('a=" !~;,=()"').item).toEqual(string(' !~;,=()'));
  });

  // spec: RFC 9651 §4.2.5 steps 4.2 (only DQUOTE or "\" after "\"), 4.4 (%x00-1f, %x7f-ff fail), 5 (no end)
  it('fails on another escape, a control byte, DEL, or no closing DQUOTE', () => {
    for (const text of ['a="\\n"', 'a="\\', 'a="a\tb"', 'a="\x00"', 'a="\x7f"', 'a="abc', 'a="abc\\"']) {
      expect(parse(text), JSON.stringify(text)).toBeUndefined();
    }
  });

  // spec: RFC 9651 §4.2.6 (Token: ALPHA or "*", then tchar, ":" or "/"); case is kept
  it('reads tokens, uppercase letters and ":" "/" included', () => {
    expect(item('a=y').item).toEqual(token('y'));
    expect(item('a=Yes').item).toEqual(token('Yes'));
    expect(item("a=*foo!#$%&'*+-.^_`|~09:/Z").item).toEqual(token("*foo!#$%&'*+-.^_`|~09:/Z"));
    expect(item('a=text/html;q=1').item).toEqual(token('text/html'));
    expect(parse('a=y=n')).toBeUndefined(); // "=" ends the token, and is not ","
    expect(parse('a=y"')).toBeUndefined();
  });

  // spec: RFC 9651 §4.2.7 (Byte Sequence: base64 between ":"; absent padding and non-zero pad bits SHOULD NOT fail)
  it('reads byte sequences, with or without padding, whatever the pad bits', () => {
    expect(item('a=:aGVsbG8=:').item).toEqual(bytes(...HELLO));
    expect(item('a=:aGVsbG8:').item).toEqual(bytes(...HELLO));
    expect(item('a=::').item).toEqual(bytes());
    expect(item('a=:iZ==:').item).toEqual(bytes(0x89));
    expect(item('a=:/+Ah:').item).toEqual(bytes(0xff, 0xe0, 0x21));
    expect(item('a=:YWJj:').item).toEqual(bytes(0x61, 0x62, 0x63));
  });

  // spec: RFC 9651 §4.2.7 steps 3 (no closing ":"), 6 (a byte not ALPHA, DIGIT, "+", "/", "="), 7 (not base64)
  it('fails on no closing ":", a byte outside base64, "=" not at the end, or padding that is too long or partial', () => {
    for (const text of ['a=:aGVsbG8=', 'a=:aGVs bG8=:', 'a=:aGVsbG!8=:', 'a=:_-Ah:', 'a=:=aGVsbG8:', 'a=:aGVs=bG8=:']) {
      expect(parse(text), text).toBeUndefined();
    }
    // Padding is either absent (read) or complete: "=" beyond what the data lacks, or some of it, is not base64.
    for (const text of ['a=:aGVsbG8==:', 'a=:YWJj=:', 'a=:YQ=:', 'a=:=:', 'a=:a:', 'a=:aGVsb:']) expect(parse(text), text).toBeUndefined();
  });

  // spec: RFC 9651 §4.2.8 (Boolean: "?1" or "?0")
  it('reads booleans ?1 and ?0, and fails on anything else after "?"', () => {
    expect(item('a=?1').item).toEqual(boolean(true));
    expect(item('a=?0').item).toEqual(boolean(false));
    for (const text of ['a=?', 'a=?2', 'a=?t', 'a=?10']) expect(parse(text), text).toBeUndefined();
  });

  // spec: RFC 9651 §4.2.9 (Date: "@" and an Integer; a Decimal fails)
  it('reads dates as integer seconds, and fails on a decimal', () => {
    expect(item('a=@1659578233').item).toEqual(date(1659578233));
    expect(item('a=@-1').item).toEqual(date(-1));
    expect(item('a=@999999999999999').item).toEqual(date(999_999_999_999_999));
    for (const text of ['a=@1.5', 'a=@', 'a=@x', 'a=@1234567890123456']) expect(parse(text), text).toBeUndefined();
  });

  // spec: RFC 9651 §4.2.10 (Display String: %"…", octets as lowercase %xx, decoded as UTF-8)
  it('reads display strings, decoding %xx octets as UTF-8', () => {
    expect(item('a=%"caf%c3%a9"').item).toEqual(display('café'));
    expect(item('a=%""').item).toEqual(display(''));
    expect(item('a=%"100%25 \\ \'"').item).toEqual(display("100% \\ '"));
    expect(item('a=%"%f0%9f%98%80"').item).toEqual(display('\u{1f600}'));
    // A U+FEFF at the start is a character of the string (RFC 3629 §3 decoding), not a signature to drop.
    expect(item('a=%"%ef%bb%bfx"').item).toEqual(display('\ufeffx'));
  });

  // spec: RFC 9651 §4.2.10 steps 1 (%" first), 4.2 (control bytes), 4.3.1 (two characters), 4.3.2 (lowercase hex), 4.4.1 (UTF-8)
  it('fails on uppercase hex, a short %x, bytes that are not UTF-8, a control byte, or no closing DQUOTE', () => {
    for (const text of ['a=%"%C3%A9"', 'a=%"%c"', 'a=%"%c', 'a=%"%g0"', 'a=%"%ff"', 'a=%"%c3"', 'a=%"%ed%a0%80"', 'a=%"%c0%80"']) {
      expect(parse(text), text).toBeUndefined();
    }
    for (const text of ['a=%"a\tb"', 'a=%"abc', 'a=%abc', 'a=%', 'a=% "x"']) expect(parse(text), JSON.stringify(text)).toBeUndefined();
  });
});

describe('parseDictionary: the examples of draft-ietf-aipref-vocab-07', () => {
  // spec: draft-ietf-aipref-vocab-07 §6 ("train-ai=y, search=n")
  it('§6: train-ai=y, search=n', () => {
    expect(dictionary('train-ai=y, search=n')).toEqual(
      new Map([
        ['train-ai', member(token('y'))],
        ['search', member(token('n'))],
      ]),
    );
  });

  // spec: draft-ietf-aipref-vocab-07 §6.5.1 ("a boolean and a string respectively")
  it('§6.5.1: train-ai=y, train-ai, search=n, search="n" keeps the last of each key: a Boolean and a String', () => {
    expect(dictionary('train-ai=y, train-ai, search=n, search="n"')).toEqual(
      new Map([
        ['train-ai', member(boolean(true))],
        ['search', member(string('n'))],
      ]),
    );
  });

  // spec: draft-ietf-aipref-vocab-07 §6.5.1 ("This includes where keys include uppercase characters")
  it('§6.5.1: a key with an uppercase letter fails the whole dictionary', () => {
    expect(parse('Train-AI=n')).toBeUndefined();
    expect(parse('train-ai=n, Search=n')).toBeUndefined();
  });

  // spec: draft-ietf-aipref-vocab-07 §6.5.2 ("the following preference carries no parameters")
  it('§6.5.2: train-ai;allow=n, train-ai=y is the Token y without parameters', () => {
    expect(dictionary('train-ai;allow=n, train-ai=y')).toEqual(new Map([['train-ai', member(token('y'))]]));
  });

  // spec: RFC 9651 §4.2.3.2 step 2.4 (a Key must follow ";"), against draft-ietf-aipref-vocab-07 §6.5.2's example
  it('§6.5.2: train-ai;has;parameters="?"; fails, by its trailing ";" (without it: Boolean true with two parameters)', () => {
    // The draft calls this a preference with parameters; RFC 9651 fails it, as "" is no Key. Either way the
    // preference is unknown (§6.5.1: a failed parse is unknown).
    expect(parse('train-ai;has;parameters="?";')).toBeUndefined();
    expect(dictionary('train-ai;has;parameters="?"').get('train-ai')).toEqual(
      member(boolean(true), [
        ['has', boolean(true)],
        ['parameters', string('?')],
      ]),
    );
  });
});

describe('parseDictionary on hostile input', () => {
  /** A long input of `unit` repeated, bytes of it. */
  const repeated = (unit: string, length: number): Uint8Array => bytesOf(unit.repeat(Math.ceil(length / unit.length)));

  // spec: RFC 9651 §4.2.2 (one pass: each step consumes what it reads)
  it('reads inputs of a megabyte of members, tokens and strings in one pass', () => {
    const members = repeated('k=v;p=1, ', 1 << 20);
    expect(parseDictionary(members, 0, members.length - 2)?.size).toBe(1);
    const longToken = bytesOf(`a=${'x'.repeat(1 << 20)}`);
    expect(item(`a=${'x'.repeat(1 << 20)}`).item.value).toHaveLength(1 << 20);
    expect(parseDictionary(longToken)?.get('a')).toBeDefined();
    const escapes = bytesOf(`a="${'\\"'.repeat(1 << 19)}"`);
    expect(parseDictionary(escapes)?.get('a')).toEqual(member(string('"'.repeat(1 << 19))));
    const distinct = bytesOf(Array.from({ length: 50_000 }, (_, index) => `k${index}=${index}`).join(','));
    expect(parseDictionary(distinct)?.size).toBe(50_000);
  });

  // spec: RFC 9651 §4.2.7 step 3 (the closing ":" is searched for once, within the input)
  it('fails at once on what never closes: byte sequences, strings, display strings, inner lists, parentheses', () => {
    for (const unit of ['a=:', 'a="', 'a=%"', 'a=(', '(((', 'a=:x, ', 'a;b;c;', '\x80']) {
      expect(parseDictionary(repeated(unit, 1 << 20)), unit).toBeUndefined();
    }
  });

  // spec: RFC 9651 §4.2 (every input is an answer: a dictionary or a failure, never an exception)
  it('answers every short byte string without throwing', () => {
    let state = 7;
    for (let round = 0; round < 20_000; round++) {
      const length = round % 24;
      const input = new Uint8Array(length);
      for (let at = 0; at < length; at++) {
        state = (Math.imul(state, 1103515245) + 12345) >>> 0;
        input[at] = state >>> 24;
      }
      expect(() => parseDictionary(input)).not.toThrow();
    }
  });
});
