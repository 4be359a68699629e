/**
 * The documentation's examples, run: the code blocks of README.md and of the guide's pages (every .md file
 * under docs/) and the `@example`s of the published type declarations (dist/index.d.ts) are extracted, instrumented with
 * assertions from their result comments, and run as ES modules, each in its own `node` process
 * (test/docs/doc-examples.test.ts).
 *
 * Every fenced block of those Markdown files is run or marked, and a test holds that (no silent skip):
 * - A block tagged ts, typescript, js, javascript or mjs runs here, unless it is marked.
 * - A mark is an HTML comment, the last non-blank line before the block's fence, so that GitHub and
 *   VitePress render nothing of it:
 *   - `<!-- not run: <reason> -->`: not run anywhere (configuration, a shell session that needs the
 *     network, a diagram); the reason says why, and what tests the same thing if something does.
 *   - `<!-- run by <name>.test.ts[: <note>] -->`: run by that test file instead (a Redis server, workerd, the
 *     `robotstxt` command in bash). The file must exist under test/ and read the page (its source names the
 *     page's file name); it finds its blocks with `blocksRunBy()`.
 *   Any other block (sh, json, html, text, untagged) without a mark fails the test.
 *
 * Which examples
 * - Markdown: the blocks that run here, as above. Named `<path>: <nearest heading above> #<n>` (the path
 *   from the repository root: `README.md`, `docs/crawling.md`), n counting the JS/TS blocks under that
 *   heading from 1.
 * - dist/index.d.ts and the other entries' declarations (DECLARATIONS): every `@example` of a JSDoc comment (up to the next `@tag` or the comment's end, the
 *   leading ` * ` stripped). Named after the declaration it documents: `index.d.ts: RobotsCache.isAllowed`,
 *   `#2` and on when one declaration has several. They are TypeScript. One without an `import` sees every
 *   value the package exports, as if imported from 'robotstxt-wasm' (its body runs in a block, so its own
 *   declarations may shadow them).
 * - An example whose first line is `// not run: <reason>` is not run; the test lists it as skipped (the
 *   declarations' way; Markdown blocks are marked by the HTML comment above instead, which stays unseen).
 *
 * Result comments: what a statement's value is, asserted
 * - `EXPR; // VALUE` (or `await EXPR; // VALUE`): the value of EXPR deep-equals VALUE.
 * - `const name = EXPR; // VALUE` (let, var too): the value `name` receives (the last declarator's).
 * - A statement line followed directly by full-line `//` comments: those lines, joined, are the VALUE
 *   (for values too long for one line). After a trailing comment that is not a whole value, the lines
 *   below continue it. The shortest run of lines that forms a value is taken.
 * - The comment must follow the last statement that ends on its line, and that statement must be an
 *   expression or a declaration with an initializer; `if (c) x; // V` asserts `x`.
 * - VALUE is asserted only when it is a literal value: strings, numbers (`-1`, `5_000`), booleans, null,
 *   undefined, NaN, Infinity, and arrays and objects of them (keys plain or quoted). Anything else is a
 *   plain comment: prose (`// or 'ExampleBot/1.2'`, `// 2 (seconds)`), names, calls. Nothing in it is
 *   evaluated: it is parsed, checked against that list and written out again as code.
 * - `…` (or `...` before `,` `}` `]`) inside an object literal means "at least these keys"; inside an array
 *   literal, "at least these elements": those before it start the array, those after it end it. Inside a
 *   string it is just a character.
 * - Comparison (doc-example-runtime.ts): arrays element by element (a Uint8Array compares as an array);
 *   objects by own enumerable keys, whatever their class, a key holding `undefined` counting as absent;
 *   primitives by value.
 * - A comment that is a literal value but follows no statement (inside a multi-line call, after a `{`,
 *   after a blank line) is an error, not silently ignored; so is a result comment whose statement never
 *   runs (a branch not taken).
 *
 * Running
 * - The instrumented source is transpiled by `typescript` (ts.transpileModule, ES2022, ESNext modules)
 *   when it is TypeScript, with an inline source map pointing at the README / d.ts lines; JavaScript runs
 *   as written, its lines padded so that line numbers are those of the file it came from.
 * - Each module is written to test/.examples/<run>/ (inside the package, so `import … from
 *   'robotstxt-wasm'` and its subpaths resolve to the built package through its own "exports") and run
 *   by `node --enable-source-maps --import test/support/docs/example-fetch-preload.mjs`, which keeps every
 *   fetch on the tests' 127.0.0.1 server (or the example's own, on 127.0.0.1).
 * - An example that needs Redis connects to REDIS_URL: the test starts a redis-server for them, and skips
 *   them with a note where none is installed.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import ts from 'typescript';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const README = join(ROOT, 'README.md');
/** The guide: every Markdown page under docs/ (not the site generator's folders, nor generated output). */
export const DOCS_DIR = join(ROOT, 'docs');
/**
 * The published declarations whose `@example`s run: every entry's (the root's first). Examples in them without
 * an import see the root entry's exports.
 */
export const DECLARATIONS = ['index.d.ts', 'robots-parser.d.ts', 'redis.d.ts', 'cache-api.d.ts'].map((file) => join(ROOT, 'dist', file));
/** Where the instrumented examples are written; git-ignored. */
export const EXAMPLES_DIR = join(ROOT, 'test', '.examples');
export const PRELOAD = fileURLToPath(new URL('./example-fetch-preload.mjs', import.meta.url));
const RUNTIME_SOURCE = fileURLToPath(new URL('./doc-example-runtime.ts', import.meta.url));

export type ExampleLanguage = 'ts' | 'js';

export interface DocExample {
  /** `README.md: Usage #1`, `index.d.ts: RobotsCache.isAllowed`. */
  readonly name: string;
  /** Absolute path of the file the example is written in. */
  readonly file: string;
  /** 1-based line, in `file`, of the example's first line. */
  readonly line: number;
  readonly language: ExampleLanguage;
  readonly source: string;
  /** An example of the declarations without imports: the package's exports are in scope. */
  readonly importsPackage: boolean;
}

export interface SkippedExample {
  readonly name: string;
  readonly file: string;
  readonly line: number;
  readonly reason: string;
}

export interface Extracted {
  readonly examples: DocExample[];
  readonly skipped: SkippedExample[];
}

const LANGUAGES: Record<string, ExampleLanguage> = { ts: 'ts', typescript: 'ts', js: 'js', javascript: 'js', mjs: 'js' };
const NOT_RUN = /^\s*\/\/\s*not run:\s*(.*?)\s*$/i;

function sortOut(found: DocExample[]): Extracted {
  const examples: DocExample[] = [];
  const skipped: SkippedExample[] = [];
  for (const example of found) {
    const firstLine = example.source.split('\n').find((line) => line.trim() !== '') ?? '';
    const notRun = NOT_RUN.exec(firstLine);
    if (notRun === null) examples.push(example);
    else skipped.push({ name: example.name, file: example.file, line: example.line, reason: notRun[1] || '(no reason given)' });
  }
  return { examples, skipped };
}

/** The README and every page of the guide, as absolute paths, README first, then the pages in name order. */
export function documentationFiles(): string[] {
  const pages: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.') || entry.name === 'public' || entry.name === 'node_modules') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) pages.push(path);
    }
  };
  walk(DOCS_DIR);
  return [README, ...pages];
}

/** How a fenced block is marked: not run, or run by another test file. */
export type BlockMark =
  { readonly kind: 'not-run'; readonly reason: string } | { readonly kind: 'run-by'; readonly test: string; readonly note: string };

export interface FencedBlock {
  /** Absolute path of the Markdown file. */
  readonly file: string;
  /** 1-based line of the block's first line of code (the line after the fence). */
  readonly line: number;
  /** The info string's first word, as written (`sh`, `ts`, `` for none). */
  readonly info: string;
  /** The JS/TS language, when the block is one. */
  readonly language: ExampleLanguage | undefined;
  /** The nearest heading above. */
  readonly heading: string;
  readonly source: string;
  readonly mark: BlockMark | undefined;
}

const NOT_RUN_MARK = /^\s*<!--\s*not run:\s*(.*?)\s*-->\s*$/i;
const RUN_BY_MARK = /^\s*<!--\s*run by\s+([\w.-]+\.test\.ts)\s*(?::\s*(.*?))?\s*-->\s*$/i;
/** Any HTML comment that looks like a mark, to refuse misspelt ones rather than ignore them. */
const LOOKS_LIKE_MARK = /^\s*<!--\s*(?:not[\s_-]*run|run[\s_-]*by)\b/i;

/** Every fenced code block of a Markdown file, with its mark. A malformed mark throws. */
export function fencedBlocks(markdown: string, file: string): FencedBlock[] {
  const lines = markdown.split(/\r?\n/);
  const blocks: FencedBlock[] = [];
  let heading = '(top)';
  let lastText = '';
  let lastTextLine = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = /^( {0,3})(`{3,}|~{3,})\s*([^\s`]*)/.exec(line);
    if (fence === null) {
      const title = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
      if (title !== null) heading = title[1]!;
      if (line.trim() !== '') {
        lastText = line;
        lastTextLine = i + 1;
      }
      continue;
    }
    const [, indent, marker, info] = fence as unknown as [string, string, string, string];
    const body: string[] = [];
    let j = i + 1;
    const closing = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`);
    while (j < lines.length && !closing.test(lines[j]!)) {
      body.push(lines[j]!.startsWith(indent) ? lines[j]!.slice(indent.length) : lines[j]!.trimStart());
      j++;
    }
    let mark: BlockMark | undefined;
    const notRun = NOT_RUN_MARK.exec(lastText);
    const runBy = RUN_BY_MARK.exec(lastText);
    if (notRun !== null) mark = { kind: 'not-run', reason: notRun[1] || '(no reason given)' };
    else if (runBy !== null) mark = { kind: 'run-by', test: runBy[1]!, note: runBy[2] ?? '' };
    else if (LOOKS_LIKE_MARK.test(lastText)) {
      throw new ExampleSourceError(
        `${relative(ROOT, file)}:${lastTextLine}: a mark that is neither "<!-- not run: reason -->" nor "<!-- run by name.test.ts -->"`,
      );
    }
    blocks.push({ file, line: i + 2, info, language: LANGUAGES[info.toLowerCase()], heading, source: body.join('\n'), mark });
    lastText = '';
    i = j;
  }
  return blocks;
}

/** A file's name in example names and messages: its path from the repository root. */
function displayName(file: string): string {
  const path = relative(ROOT, file);
  return path.startsWith('..') ? basename(file) : path;
}

/** The blocks of a Markdown file as examples (JS/TS ones only), each named by its heading. */
function asExamples(blocks: readonly FencedBlock[]): DocExample[] {
  const perHeading = new Map<string, number>();
  const examples: DocExample[] = [];
  for (const block of blocks) {
    if (block.language === undefined) continue;
    const n = (perHeading.get(block.heading) ?? 0) + 1;
    perHeading.set(block.heading, n);
    examples.push({
      name: `${displayName(block.file)}: ${block.heading} #${n}`,
      file: block.file,
      line: block.line,
      language: block.language,
      source: block.source,
      importsPackage: false,
    });
  }
  return examples;
}

/**
 * The code blocks of a Markdown file that are JavaScript or TypeScript and run here; those marked (or, as in
 * the declarations, starting with `// not run:`) are listed as skipped, with their reason.
 */
export function extractMarkdownExamples(markdown: string, file: string): Extracted {
  const blocks = fencedBlocks(markdown, file);
  const examples = asExamples(blocks);
  const marked = new Map(blocks.filter((block) => block.language !== undefined).map((block) => [block.line, block.mark]));
  const unmarked: DocExample[] = [];
  const skipped: SkippedExample[] = [];
  for (const example of examples) {
    const mark = marked.get(example.line);
    if (mark === undefined) unmarked.push(example);
    else {
      const reason = mark.kind === 'not-run' ? mark.reason : `run by ${mark.test}${mark.note === '' ? '' : `: ${mark.note}`}`;
      skipped.push({ name: example.name, file, line: example.line, reason });
    }
  }
  const sorted = sortOut(unmarked);
  return { examples: sorted.examples, skipped: [...skipped, ...sorted.skipped].sort((a, b) => a.line - b.line) };
}

/**
 * The blocks of a Markdown file marked `<!-- run by <test> -->`, in order: what the test named `test` (its file
 * name, `cli-guide.test.ts`) must run. JS/TS ones come with an example to give ExampleRunner.
 */
export function blocksRunBy(markdown: string, file: string, test: string): (FencedBlock & { example?: DocExample })[] {
  const blocks = fencedBlocks(markdown, file);
  const examples = new Map(asExamples(blocks).map((example) => [example.line, example]));
  return blocks
    .filter((block) => block.mark?.kind === 'run-by' && block.mark.test === test)
    .map((block) => ({ ...block, example: examples.get(block.line) }));
}

/** The name of the declaration a JSDoc comment documents: `RobotsCache.isAllowed`, `parseRobotsTxt`. */
function declarationName(node: ts.Node): string {
  const own = (n: ts.Node): string | undefined => {
    if (ts.isConstructorDeclaration(n)) return 'constructor';
    if (ts.isVariableStatement(n)) return n.declarationList.declarations.map((d) => d.name.getText()).join(', ');
    const name = (n as { name?: ts.Node }).name;
    return name === undefined ? undefined : name.getText();
  };
  const parts = [own(node) ?? ts.SyntaxKind[node.kind]];
  for (let parent = node.parent; parent !== undefined && !ts.isSourceFile(parent); parent = parent.parent) {
    const name = own(parent);
    if (name !== undefined) parts.unshift(name);
  }
  return parts.join('.');
}

/** The `@example` blocks of the JSDoc comments in a declaration file. */
export function extractDeclarationExamples(declarations: string, file: string): Extracted {
  const sf = ts.createSourceFile(file, declarations, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const seen = new Set<number>();
  const found: { example: DocExample; declaration: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStatement(node) || ts.isClassElement(node) || ts.isTypeElement(node)) {
      for (const comment of ts.getLeadingCommentRanges(declarations, node.pos) ?? []) {
        const text = declarations.slice(comment.pos, comment.end);
        if (!text.startsWith('/**') || seen.has(comment.pos)) continue;
        seen.add(comment.pos);
        const first = sf.getLineAndCharacterOfPosition(comment.pos).line + 1;
        const lines = text
          .replace(/^\/\*\*/, '')
          .replace(/\*\/$/, '')
          .split('\n')
          .map((line) => line.replace(/^\s*\* ?/, ''));
        for (let i = 0; i < lines.length; i++) {
          if (!/^\s*@example\b/.test(lines[i]!)) continue;
          let j = i + 1;
          while (j < lines.length && !/^\s*@\w/.test(lines[j]!)) j++;
          const body = [lines[i]!.replace(/^\s*@example\b\s*/, ''), ...lines.slice(i + 1, j)];
          const start = body[0] === '' ? 1 : 0; // `@example` alone on its line: the code starts below
          const source = body.slice(start).join('\n').replace(/\s+$/, '');
          const declaration = declarationName(node);
          const example: DocExample = {
            name: `${basename(file)}: ${declaration}`,
            file,
            line: first + i + start,
            language: 'ts',
            source,
            importsPackage: !/^\s*import\b/m.test(source),
          };
          found.push({ example, declaration });
          i = j - 1;
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return sortOut(
    found.map(({ example, declaration }, index) => {
      const same = found.filter((other) => other.declaration === declaration);
      if (same.length === 1) return example;
      return { ...example, name: `${example.name} #${same.findIndex((other) => other === found[index]) + 1}` };
    }),
  );
}

/** The names a declaration file exports as values (not `type` only). */
export function valueExports(declarations: string): string[] {
  const sf = ts.createSourceFile('index.d.ts', declarations, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const names: string[] = [];
  for (const statement of sf.statements) {
    if (!ts.isExportDeclaration(statement) || statement.isTypeOnly || statement.exportClause === undefined) continue;
    if (!ts.isNamedExports(statement.exportClause)) continue;
    for (const element of statement.exportClause.elements) if (!element.isTypeOnly) names.push(element.name.text);
  }
  return names;
}

// ---------------------------------------------------------------------------------------------------
// Result comments → assertions

/** Thrown for an example that cannot be instrumented (a result comment in the wrong place, a syntax error). */
export class ExampleSourceError extends Error {
  override name = 'ExampleSourceError';
}

const ELLIPSIS = '__docEllipsis__';

/** `…` (and `...` not followed by an expression) outside string literals → the ELLIPSIS identifier. */
function markEllipses(text: string): string {
  let out = '';
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== undefined) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"' || c === '`') {
      quote = c;
      out += c;
    } else if (c === '…') {
      out += ` ${ELLIPSIS} `;
    } else if (text.startsWith('...', i) && /^\.\.\.\s*(?:[,}\]]|$)/.test(text.slice(i))) {
      out += ` ${ELLIPSIS} `;
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

class NotAValue extends Error {}

const isEllipsis = (node: ts.Node): boolean => ts.isIdentifier(node) && node.text === ELLIPSIS;

/** The literal `node` written out as code for the runtime (`__doc.some(…)` for `…`), or NotAValue. */
function valueCode(node: ts.Expression): string {
  if (ts.isParenthesizedExpression(node)) return valueCode(node.expression);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return JSON.stringify(node.text);
  if (ts.isNumericLiteral(node) || ts.isBigIntLiteral(node)) return node.getText().replace(/_/g, '');
  switch (node.kind) {
    case ts.SyntaxKind.TrueKeyword:
    case ts.SyntaxKind.FalseKeyword:
    case ts.SyntaxKind.NullKeyword:
      return node.getText();
  }
  if (ts.isIdentifier(node) && ['undefined', 'NaN', 'Infinity'].includes(node.text)) return node.text;
  if (ts.isPrefixUnaryExpression(node) && (node.operator === ts.SyntaxKind.MinusToken || node.operator === ts.SyntaxKind.PlusToken)) {
    const operand = node.operand;
    if (ts.isNumericLiteral(operand) || ts.isBigIntLiteral(operand) || (ts.isIdentifier(operand) && operand.text === 'Infinity')) {
      return `${node.operator === ts.SyntaxKind.MinusToken ? '-' : '+'}${valueCode(operand)}`;
    }
    throw new NotAValue();
  }
  if (ts.isArrayLiteralExpression(node)) {
    const cut = node.elements.findIndex(isEllipsis);
    if (node.elements.filter(isEllipsis).length > 1) throw new NotAValue(); // one `…` per array
    const items = (elements: readonly ts.Expression[]): string => `[${elements.map(valueCode).join(', ')}]`;
    if (cut < 0) return items(node.elements);
    return `__doc.someItems(${items(node.elements.slice(0, cut))}, ${items(node.elements.slice(cut + 1))})`;
  }
  if (ts.isObjectLiteralExpression(node)) {
    let partial = false;
    const properties: string[] = [];
    for (const property of node.properties) {
      if (ts.isShorthandPropertyAssignment(property) && property.name.text === ELLIPSIS) {
        partial = true;
        continue;
      }
      if (!ts.isPropertyAssignment(property)) throw new NotAValue();
      const { name } = property;
      if (!ts.isIdentifier(name) && !ts.isStringLiteral(name) && !ts.isNumericLiteral(name)) throw new NotAValue();
      properties.push(`${JSON.stringify(name.text)}: ${valueCode(property.initializer)}`);
    }
    const object = `{ ${properties.join(', ')} }`;
    return partial ? `__doc.some(${object})` : object;
  }
  throw new NotAValue();
}

/**
 * The expected value a comment's text shows, as code for the runtime, or undefined when the text is not
 * a literal value (then it is prose). Nothing in `text` is evaluated.
 */
export function parseResultValue(text: string): string | undefined {
  if (text.trim() === '') return undefined;
  const marked = markEllipses(text);
  try {
    new Script(`(${marked}\n)`); // JavaScript syntax, checked by V8 without running anything
  } catch {
    return undefined;
  }
  const sf = ts.createSourceFile('value.ts', `(${marked}\n)`, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const [statement] = sf.statements;
  if (sf.statements.length !== 1 || statement === undefined || !ts.isExpressionStatement(statement)) return undefined;
  try {
    return valueCode(statement.expression);
  } catch (error) {
    if (error instanceof NotAValue) return undefined;
    throw error;
  }
}

/** One asserted result comment. */
export interface ResultAssertion {
  /** 1-based line of the statement in the example. */
  readonly line: number;
  /** The statement's text (first line of it). */
  readonly statement: string;
  /** The comment's value as written. */
  readonly value: string;
  /** The value as code for the runtime. */
  readonly expected: string;
}

export interface Instrumented {
  /** The example with its asserted statements wrapped in `__doc.check(id, …, expected)`. */
  readonly source: string;
  readonly assertions: ResultAssertion[];
}

interface LineComment {
  readonly pos: number;
  readonly end: number;
  readonly line: number;
  /** The text after `//`, one leading space dropped. */
  readonly text: string;
  /** Nothing but whitespace before it on its line. */
  readonly fullLine: boolean;
}

function lineComments(sf: ts.SourceFile): LineComment[] {
  const text = sf.text;
  const byPos = new Map<number, LineComment>();
  const collect = (ranges: ts.CommentRange[] | undefined): void => {
    for (const range of ranges ?? []) {
      if (range.kind !== ts.SyntaxKind.SingleLineCommentTrivia || byPos.has(range.pos)) continue;
      const { line, character } = sf.getLineAndCharacterOfPosition(range.pos);
      const lineStart = range.pos - character;
      byPos.set(range.pos, {
        pos: range.pos,
        end: range.end,
        line,
        text: text
          .slice(range.pos + 2, range.end)
          .replace(/^ /, '')
          .replace(/\s+$/, ''),
        fullLine: text.slice(lineStart, range.pos).trim() === '',
      });
    }
  };
  const visit = (node: ts.Node): void => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(sf)) visit(child);
  };
  visit(sf);
  return [...byPos.values()].sort((a, b) => a.pos - b.pos);
}

/** For each line, the statement that ends last on it (the innermost one on a tie). */
function lastStatements(sf: ts.SourceFile): Map<number, ts.Statement> {
  const byLine = new Map<number, ts.Statement>();
  const visit = (node: ts.Node): void => {
    if (ts.isStatement(node)) {
      const line = sf.getLineAndCharacterOfPosition(node.end).line;
      const current = byLine.get(line);
      if (current === undefined || node.end >= current.end) byLine.set(line, node);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return byLine;
}

/** The expression a result comment on `statement` asserts, or undefined when there is none. */
function assertedExpression(statement: ts.Statement): ts.Expression | undefined {
  if (ts.isExpressionStatement(statement)) return statement.expression;
  if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.at(-1)?.initializer;
  return undefined;
}

/** Finds the result comments of an example and wraps their statements' values in `__doc.check`. */
export function instrument(source: string, language: ExampleLanguage): Instrumented {
  const sf = ts.createSourceFile(
    `example.${language}`,
    source,
    ts.ScriptTarget.ES2022,
    true,
    language === 'ts' ? ts.ScriptKind.TS : ts.ScriptKind.JS,
  );
  const comments = lineComments(sf);
  const byLine = new Map<number, LineComment[]>();
  for (const comment of comments) byLine.set(comment.line, [...(byLine.get(comment.line) ?? []), comment]);
  const consumed = new Set<LineComment>();
  const assertions: ResultAssertion[] = [];
  const edits: { pos: number; end: number; text: string }[] = [];

  for (const [line, statement] of [...lastStatements(sf)].sort((a, b) => a[0] - b[0])) {
    const expression = assertedExpression(statement);
    if (expression === undefined) continue;
    const trailing = byLine.get(line)?.find((comment) => comment.pos >= statement.end);
    const below: LineComment[] = [];
    for (let next = line + 1; ; next++) {
      const only = byLine.get(next);
      if (only?.length !== 1 || !only[0]!.fullLine) break;
      below.push(only[0]!);
    }
    // Candidate runs of comments, in the order tried: the trailing comment alone, then continued by the
    // lines below it one at a time; or, without a trailing comment, the lines below, one more at a time.
    const runs: LineComment[][] = [];
    if (trailing !== undefined) for (let k = 0; k <= below.length; k++) runs.push([trailing, ...below.slice(0, k)]);
    else for (let k = 1; k <= below.length; k++) runs.push(below.slice(0, k));
    for (const run of runs) {
      const value = run.map((comment) => comment.text).join('\n');
      const expected = parseResultValue(value);
      if (expected === undefined) continue;
      for (const comment of run) consumed.add(comment);
      const id = assertions.length;
      const start = expression.getStart(sf);
      assertions.push({ line: line + 1, statement: statement.getText(sf).split('\n')[0]!, value, expected });
      edits.push({ pos: start, end: start, text: `__doc.check(${id}, (` });
      edits.push({ pos: expression.end, end: expression.end, text: `), ${expected})` });
      break;
    }
  }

  const stray = comments.filter((comment) => !consumed.has(comment) && parseResultValue(comment.text) !== undefined);
  if (stray.length > 0) {
    throw new ExampleSourceError(
      stray
        .map((comment) => `line ${comment.line + 1}: the result comment "// ${comment.text}" follows no statement whose value it could be`)
        .join('\n'),
    );
  }
  let instrumented = source;
  for (const edit of edits.sort((a, b) => b.pos - a.pos || (a.text.startsWith('__doc.check') ? 1 : -1))) {
    instrumented = instrumented.slice(0, edit.pos) + edit.text + instrumented.slice(edit.end);
  }
  return { source: instrumented, assertions };
}

// ---------------------------------------------------------------------------------------------------
// Example → ES module

export interface ExampleModule {
  /** The module to run. */
  readonly moduleText: string;
  readonly assertions: ResultAssertion[];
}

export interface ModuleOptions {
  /** The specifier the module imports the runtime (doc-example-runtime) by. */
  readonly runtime: string;
  /** Value exports of the package, imported into examples with `importsPackage`. */
  readonly exports: readonly string[];
}

/**
 * The example as an ES module: the runtime imported and the result table registered on the line before
 * the example's first (so that line numbers are those of its file), the result comments asserted, and
 * TypeScript transpiled with a source map to the file the example is written in.
 */
export function buildModule(example: DocExample, options: ModuleOptions): ExampleModule {
  let instrumented: Instrumented;
  try {
    instrumented = instrument(example.source, example.language);
  } catch (error) {
    if (error instanceof ExampleSourceError) {
      error.message = error.message.replace(
        /^line (\d+)/gm,
        (_, n: string) => `${relative(ROOT, example.file)}:${example.line + Number(n) - 1}`,
      );
    }
    throw error;
  }
  const where = (line: number): string => `${relative(ROOT, example.file)}:${example.line + line - 1}`;
  const table = instrumented.assertions.map((assertion) => ({
    where: where(assertion.line),
    statement: assertion.statement,
    value: assertion.value,
  }));
  const prelude = [
    `import * as __doc from ${JSON.stringify(options.runtime)};`,
    example.importsPackage && options.exports.length > 0 ? `import { ${options.exports.join(', ')} } from 'robotstxt-wasm';` : '',
    `__doc.results(${JSON.stringify(table)});`,
    example.importsPackage ? '{' : '',
  ].join(' ');
  const padding = '\n'.repeat(Math.max(example.line - 1, 0));
  const text = `${prelude}${padding}${instrumented.source}\n${example.importsPackage ? '}\n' : ''}`;
  if (example.language === 'js') return { moduleText: text, assertions: instrumented.assertions };
  const output = ts.transpileModule(text, {
    fileName: 'example.ts',
    reportDiagnostics: true,
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, inlineSourceMap: true },
  });
  const errors = (output.diagnostics ?? []).filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) {
    throw new ExampleSourceError(
      errors
        .map((diagnostic) => {
          const line =
            diagnostic.file && diagnostic.start !== undefined
              ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1
              : 0;
          return `${relative(ROOT, example.file)}:${line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
        })
        .join('\n'),
    );
  }
  return { moduleText: pointSourceMapAt(output.outputText, example.file), assertions: instrumented.assertions };
}

/** Makes the inline source map name `file` itself, so stack traces show README.md:37 rather than a temp file. */
function pointSourceMapAt(code: string, file: string): string {
  return code.replace(/(\/\/# sourceMappingURL=data:application\/json;base64,)([A-Za-z0-9+/=]+)\s*$/, (_, prefix: string, data: string) => {
    const map = JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as { sources: string[] };
    map.sources = [pathToFileURL(file).href];
    return `${prefix}${Buffer.from(JSON.stringify(map)).toString('base64')}\n`;
  });
}

// ---------------------------------------------------------------------------------------------------
// Running

export interface RunResult {
  /** Exit code, or null when a signal (the timeout) ended the process. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly stdout: string;
  readonly stderr: string;
  /** The module that ran. */
  readonly file: string;
}

export interface RunnerOptions {
  /** The 127.0.0.1 server every fetch is sent to: `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** The hosts it serves (`example.com`); fetches to others fail as a DNS failure does. */
  readonly hosts: readonly string[];
  /** Per example. Default 20 s. */
  readonly timeoutMs?: number;
  /** Examples running at once. Default 2. */
  readonly concurrency?: number;
}

/** Runs example modules, each in its own `node` process, a few at a time, from one directory under test/.examples/. */
export class ExampleRunner {
  readonly dir: string;
  private readonly runtime: string;
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private count = 0;

  constructor(private readonly options: RunnerOptions) {
    mkdirSync(EXAMPLES_DIR, { recursive: true });
    this.dir = mkdtempSync(join(EXAMPLES_DIR, 'run-'));
    const runtime = ts.transpileModule(readFileSync(RUNTIME_SOURCE, 'utf8'), {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    });
    this.runtime = join(this.dir, 'doc-example-runtime.mjs');
    writeFileSync(this.runtime, runtime.outputText);
  }

  /** What modules import the runtime by. */
  get runtimeSpecifier(): string {
    return pathToFileURL(this.runtime).href;
  }

  /** Builds `example` into a module and runs it. */
  async runExample(example: DocExample, exports: readonly string[]): Promise<RunResult & ExampleModule> {
    const built = buildModule(example, { runtime: this.runtimeSpecifier, exports });
    return { ...(await this.run(example.name, built.moduleText)), ...built };
  }

  /** Runs `code` as an ES module; `name` names its file. */
  async run(name: string, code: string): Promise<RunResult> {
    const slug = name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 80);
    const file = join(this.dir, `${String(++this.count).padStart(3, '0')}-${slug}.mjs`);
    writeFileSync(file, code);
    await this.acquire();
    try {
      return await this.spawn(file);
    } finally {
      this.release();
    }
  }

  /** Deletes the run's directory (test/.examples/ stays). Set DOC_EXAMPLES_KEEP=1 to keep it for reading. */
  dispose(): void {
    if (process.env.DOC_EXAMPLES_KEEP !== undefined) return;
    rmSync(this.dir, { recursive: true, force: true });
    try {
      rmdirSync(EXAMPLES_DIR); // only when empty: another run may be using it
    } catch {
      // not empty, or already gone
    }
  }

  private spawn(file: string): Promise<RunResult> {
    const timeoutMs = this.options.timeoutMs ?? 20_000;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DOC_EXAMPLES_ORIGIN: this.options.origin,
      DOC_EXAMPLES_HOSTS: this.options.hosts.join(','),
    };
    delete env.NODE_OPTIONS; // vitest's workers may carry loader flags meant for them
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--enable-source-maps', '--import', pathToFileURL(PRELOAD).href, file], {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      let timedOut = false;
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, timeoutMs);
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, timedOut, stdout, stderr, file });
      });
    });
  }

  private async acquire(): Promise<void> {
    if (this.running < (this.options.concurrency ?? 2)) {
      this.running++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next !== undefined)
      next(); // the slot passes to it
    else this.running--;
  }
}

/** A failed run, told: which example, why, and what it printed. */
export function describeFailure(name: string, result: RunResult, timeoutMs = 20_000): string {
  const why = result.timedOut
    ? `timed out after ${timeoutMs} ms`
    : result.signal !== null
      ? `killed by ${result.signal}`
      : `exit code ${result.code}`;
  return [
    `${name}: ${why}`,
    `module: ${relative(ROOT, result.file)} (kept with DOC_EXAMPLES_KEEP=1)`,
    result.stderr.trim() === '' ? '' : `--- stderr\n${result.stderr.trimEnd()}`,
    result.stdout.trim() === '' ? '' : `--- stdout\n${result.stdout.trimEnd()}`,
  ]
    .filter((part) => part !== '')
    .join('\n');
}
