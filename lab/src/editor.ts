/**
 * The robots.txt editor: CodeMirror 6 with line numbers, history, a light robots.txt highlighting, the lint
 * diagnostics (gutter marks and underlines, pushed by the page's render through @codemirror/lint's
 * setDiagnostics, so one pass computes them with the matrix), and a mark on the line that decided the chosen cell.
 * Tab is left to the page (no indentWithTab), so a keyboard user can move on from the editor.
 */
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { defaultHighlightStyle, StreamLanguage, syntaxHighlighting, type StringStream } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic as EditorDiagnostic } from '@codemirror/lint';
import { EditorState, StateEffect, StateField, type Extension, type Text } from '@codemirror/state';
import {
  Decoration,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  type DecorationSet,
} from '@codemirror/view';

/** A finding shown in the editor: the linter's, with what each reading makes of the line. */
export interface LineFinding {
  readonly line: number;
  /** 1-based column in code points; 0 marks the whole line. */
  readonly column: number;
  readonly severity: 'error' | 'warning' | 'info';
  readonly code: string;
  readonly message: string;
}

/** Keys, values and comments: the three things a robots.txt line holds. */
const robotsTxtLanguage = StreamLanguage.define<{ afterKey: boolean }>({
  name: 'robots.txt',
  startState: () => ({ afterKey: false }),
  token(stream: StringStream, state) {
    if (stream.sol()) state.afterKey = false;
    if (stream.eatSpace()) return null;
    if (stream.peek() === '#') {
      stream.skipToEnd();
      return 'comment';
    }
    if (!state.afterKey) {
      state.afterKey = true;
      if (stream.match(/^[^:#\s]+(?=\s*:)/)) return 'keyword';
    }
    stream.match(/^[^#]+/) || stream.next();
    return 'string';
  },
  languageData: { commentTokens: { line: '#' } },
});

const setDecidingLine = StateEffect.define<number>();

/** The line of the chosen cell's deciding rule (0: none), marked with the class `cm-deciding-line`. */
const decidingLine = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, transaction) {
    marks = marks.map(transaction.changes);
    for (const effect of transaction.effects) {
      if (!effect.is(setDecidingLine)) continue;
      const line = effect.value;
      marks =
        line >= 1 && line <= transaction.state.doc.lines
          ? Decoration.set([Decoration.line({ class: 'cm-deciding-line' }).range(transaction.state.doc.line(line).from)])
          : Decoration.none;
    }
    return marks;
  },
  provide: (field) => EditorView.decorations.from(field),
});

/** The editor, in `parent`, calling `changed` on every edit of its text. */
export function createEditor(parent: HTMLElement, text: string, label: string, changed: () => void): EditorView {
  const extensions: Extension[] = [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightActiveLine(),
    history(),
    keymap.of([...defaultKeymap, ...historyKeymap]),
    robotsTxtLanguage,
    syntaxHighlighting(defaultHighlightStyle),
    lintGutter(),
    decidingLine,
    EditorView.contentAttributes.of({ 'aria-label': label }),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) changed();
    }),
  ];
  return new EditorView({ parent, state: EditorState.create({ doc: text, extensions }) });
}

/** Replaces the editor's text (a file opened, fetched or loaded from a link). */
export function setText(view: EditorView, text: string): void {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

/** Marks `line` (0: none) as the deciding line and scrolls it into view. */
export function markDecidingLine(view: EditorView, line: number): void {
  const inRange = line >= 1 && line <= view.state.doc.lines;
  view.dispatch({
    effects: inRange
      ? [setDecidingLine.of(line), EditorView.scrollIntoView(view.state.doc.line(line).from, { y: 'center' })]
      : [setDecidingLine.of(0)],
  });
}

/** Shows `findings` as the editor's diagnostics. */
export function showFindings(view: EditorView, findings: readonly LineFinding[]): void {
  const doc = view.state.doc;
  const diagnostics = findings.flatMap((finding) => {
    const range = rangeOf(doc, finding);
    if (range === undefined) return [];
    const diagnostic: EditorDiagnostic = { ...range, severity: finding.severity, source: finding.code, message: finding.message };
    return [diagnostic];
  });
  view.dispatch(setDiagnostics(view.state, diagnostics));
}

/** Where a finding lies: from its column (code points) to the end of its line; the line's start for the file's own. */
function rangeOf(doc: Text, finding: LineFinding): { from: number; to: number } | undefined {
  const number = Math.max(finding.line, 1);
  if (number > doc.lines) return undefined;
  const line = doc.line(number);
  if (finding.line === 0 || finding.column <= 1) return { from: line.from, to: line.to };
  let offset = 0;
  let points = 1;
  while (points < finding.column && offset < line.text.length) {
    offset += (line.text.codePointAt(offset) ?? 0) > 0xffff ? 2 : 1;
    points++;
  }
  return { from: line.from + offset, to: line.to };
}
