/**
 * Independent, plain readings for the fuzz tests of productTokens() and of the example gate: what the
 * documentation says, written the obvious way (whole-string passes, arrays per character, no early exit), to
 * hold the linear one-pass reading in src/cache/product-token.ts to; and the gate's verdict for GATE_ROBOTS,
 * decided by hand.
 *
 * The word rule here knows only VOCABULARY's browser words: headers for the differential are built from
 * VOCABULARY alone, which forms no language tag (`en-US`), no `rv:` and no other browser, engine or platform
 * name (those rules are pinned by test/unit/cache/product-token.test.ts).
 */
import fc from 'fast-check';
import { DEFAULT_READINGS, pathReadings } from '../../examples/worker/src/readings.js';

/** Pieces the fuzz builds headers of: names, browser words, a description, links, and every delimiter. */
export const VOCABULARY = [
  'ExampleBot/1.0',
  'FriendlyBot/3.0',
  'OtherBot',
  'Mozilla/5.0',
  'compatible',
  'KHTML',
  'like',
  'Gecko',
  'Nexus',
  '5X',
  'Q',
  '+https://bot.example/about',
  '(',
  ')',
  '\\',
  ',',
  ', ',
  ';',
  '; ',
  ' ',
  '\t',
  '/',
] as const;

const BROWSER_WORDS = new Set(['mozilla', 'compatible', 'khtml', 'like', 'gecko']);
const SPACE = new Set([' ', '\t', '\n', '\r', '\v', '\f']);
const DELIMITERS = new Set(['(', ')', ';', ',']);

/** A distinct name, never a browser word nor a language tag: `Zz` and letters. */
export const freshName = fc
  .string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), minLength: 2, maxLength: 6 })
  .map((s) => `Zz${s}`);

/** A header of VOCABULARY pieces and fresh names. */
export function vocabularyHeader(maxPieces: number): fc.Arbitrary<string> {
  return fc
    .array(fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...VOCABULARY) }, { weight: 1, arbitrary: freshName }), {
      maxLength: maxPieces,
    })
    .map((pieces) => pieces.join(''));
}

function isLink(word: string): boolean {
  return word.startsWith('+') || word.includes('://') || word.toLowerCase().startsWith('www.') || word.includes('@');
}

/** The name a word gives: the part before its `/`, cut to its leading letters, `_` and `-`; browser words, links and one letter name nothing. */
function nameOf(word: string): string | undefined {
  if (isLink(word)) return undefined;
  const name = word.split('/')[0] ?? '';
  if (BROWSER_WORDS.has(name.toLowerCase())) return undefined;
  const token = /^[A-Za-z_-]*/.exec(name)?.[0] ?? '';
  return token.length >= 2 ? token : undefined;
}

/**
 * Every name of `header`, in order, as found (duplicates kept): the documented reading.
 * 1. Parentheses: a `)` closes the last `(` still open; inside any open `(`, `\` quotes the next character.
 * 2. A character is read by entries when some closed pair encloses it and no enclosing closed pair holds a `,`;
 *    otherwise word by word.
 * 3. Delimiters: `(`, `)`, `;`, `,` always, whitespace when read word by word; a quoted character delimits
 *    only when read word by word.
 * 4. A word gives its name; an entry gives its first word's name when every other word is a link.
 */
export function oracleNames(header: string): string[] {
  const n = header.length;
  const quoted = new Array<boolean>(n).fill(false);
  const partner = new Array<number>(n).fill(-1);
  const stack: number[] = [];
  for (let i = 0; i < n; i++) {
    if (stack.length > 0 && header[i] === '\\' && i + 1 < n) {
      quoted[i + 1] = true;
      i++;
    } else if (header[i] === '(') {
      stack.push(i);
    } else if (header[i] === ')' && stack.length > 0) {
      const open = stack.pop() as number;
      partner[open] = i;
      partner[i] = open;
    }
  }
  // Commas before each position, so that "this pair holds a comma" is a subtraction.
  const commas = new Array<number>(n + 1).fill(0);
  for (let i = 0; i < n; i++) commas[i + 1] = (commas[i] as number) + (header[i] === ',' ? 1 : 0);
  const byEntries = new Array<boolean>(n).fill(false);
  // The closed pairs around position i, and how many of them hold a comma.
  const enclosing: boolean[] = [];
  let holdingComma = 0;
  for (let i = 0; i < n; i++) {
    const other = partner[i] as number;
    if (other > i) {
      const holdsComma = (commas[other] as number) - (commas[i] as number) > 0;
      enclosing.push(holdsComma);
      if (holdsComma) holdingComma++;
    }
    byEntries[i] = enclosing.length > 0 && holdingComma === 0;
    if (other >= 0 && other < i && enclosing.pop() === true) holdingComma--;
  }
  const names: string[] = [];
  let start = 0;
  for (let i = 0; i <= n; i++) {
    const ch = header[i] ?? '';
    const entries = i < n ? byEntries[i] : false;
    const delimits = i === n || ((DELIMITERS.has(ch) || (!entries && SPACE.has(ch))) && !(quoted[i] && entries));
    // Where a stretch read by entries ends, the delimiter is read the way the stretch before it was.
    const segmentByEntries = i > start && byEntries[i - 1] === true;
    if (!delimits) continue;
    if (i > start) {
      const text = header.slice(start, i);
      if (segmentByEntries) {
        const words = text.split(/[ \t\n\r\v\f]+/).filter((word) => word !== '');
        const first = words[0];
        if (first !== undefined && words.slice(1).every(isLink)) {
          const name = nameOf(first);
          if (name !== undefined) names.push(name);
        }
      } else {
        const name = nameOf(text);
        if (name !== undefined) names.push(name);
      }
    }
    start = i + 1;
  }
  return names;
}

/** The distinct names, compared without case, spelled as they first appear. */
export function distinct(names: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const name of names) if (!seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
  return [...seen.values()];
}

/** The longest header read and the most names returned, as productTokens() documents them. */
const MAX_LENGTH = 8192;
const MAX_NAMES = 32;

/** A robots.txt for the gate's fuzz tests: a group each for ExampleBot, FriendlyBot and OtherBot, `*` for others. */
export const GATE_ROBOTS = [
  'User-agent: *',
  'Disallow: /private',
  '',
  'User-agent: ExampleBot',
  'Disallow: /drafts/',
  'Disallow: /private',
  '',
  'User-agent: FriendlyBot',
  'Allow: /',
  '',
  'User-agent: OtherBot',
  'Disallow: /',
  '',
].join('\n');

/** GATE_ROBOTS's groups by hand: [allow?, prefix] rules per lower-case token; `*` for every other. */
const GROUPS: Record<string, ReadonlyArray<readonly [boolean, string]>> = {
  '*': [[false, '/private']],
  examplebot: [
    [false, '/drafts/'],
    [false, '/private'],
  ],
  friendlybot: [[true, '/']],
  otherbot: [[false, '/']],
};

/** Paths to ask, some of them disallowed only as an origin may read them (examples/worker/src/readings.js). */
export const GATE_PATHS = [
  '/',
  '/public',
  '/private',
  '/private/x',
  '/drafts/y',
  '/privacy',
  '//private',
  '/%2Fdrafts/y',
  '/;x/private',
  '/drafts;v=1/y',
];

/** RFC 9309 §2.2.2: the longest matching rule decides, allow on a tie; no rule, allowed. */
function allowed(name: string, path: string): boolean {
  const rules = GROUPS[name.toLowerCase()] ?? GROUPS['*'] ?? [];
  let best: readonly [boolean, string] | undefined;
  for (const rule of rules) {
    if (!path.startsWith(rule[1])) continue;
    if (best === undefined || rule[1].length > best[1].length || (rule[1].length === best[1].length && rule[0])) best = rule;
  }
  return best === undefined || best[0];
}

/**
 * What the gate must answer under GATE_ROBOTS: `'refused'` for a header past productTokens()'s bounds, else
 * the first name (in header order, exempt ones aside) refused on the path or on a reading of it, or
 * `undefined` when every name may fetch it.
 */
export function gateVerdict(header: string, path: string, exempt: ReadonlySet<string>): string | undefined {
  const names = distinct(oracleNames(header));
  if (header.length > MAX_LENGTH || names.length > MAX_NAMES) return 'refused';
  const paths = [path, ...pathReadings(path, DEFAULT_READINGS)];
  return names.find((name) => !exempt.has(name.toLowerCase()) && paths.some((target) => !allowed(name, target)));
}
