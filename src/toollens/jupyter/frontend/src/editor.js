// The CodeMirror 6 editor the explorer hosts: Python highlighting, line numbers, auto-indent,
// Tab indents, undo history that survives re-renders, errors as lint diagnostics, and a
// highlight for the source span a clicked view element came from.
import {
  defaultKeymap,
  history,
  historyKeymap,
  indentWithTab,
  insertNewlineAndIndent,
} from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import {
  bracketMatching,
  defaultHighlightStyle,
  forceParsing,
  indentOnInput,
  indentUnit,
  syntaxHighlighting,
} from "@codemirror/language";
import { lintGutter, setDiagnostics } from "@codemirror/lint";
import { Annotation, Compartment, EditorState, StateEffect, StateField } from "@codemirror/state";
import {
  Decoration,
  EditorView,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from "@codemirror/view";

// Marks transactions that carry the kernel's text, so they are not echoed back to it.
/** A source span as the views write it: "l1:c1-l2:c2" (1-based lines, 0-based columns). */
export const SPAN_LABEL = /^(\d+):(\d+)-(\d+):(\d+)$/;

const fromKernel = Annotation.define();
const setSpan = StateEffect.define();

const spanField = StateField.define({
  create: () => Decoration.none,
  update(marks, tr) {
    marks = marks.map(tr.changes);
    for (const effect of tr.effects) {
      if (effect.is(setSpan)) {
        const { from, to } = effect.value;
        marks = from < to
          ? Decoration.set([Decoration.mark({ class: "tl-span-hl" }).range(from, to)])
          : Decoration.none;
      }
    }
    return marks;
  },
  provide: (field) => EditorView.decorations.from(field),
});

const theme = EditorView.theme({
  "&": { fontSize: "var(--jp-code-font-size, 13px)", border: "1px solid var(--tl-border)",
    borderRadius: "4px", background: "var(--tl-code-bg)" },
  "&.cm-focused": { outline: "1px solid var(--tl-accent)" },
  ".cm-scroller": { fontFamily: "var(--jp-code-font-family, ui-monospace, Menlo, Consolas, monospace)",
    maxHeight: "26em", overflow: "auto", lineHeight: "1.4" },
  // Opaque (the code background may be translucent): text scrolled sideways passes under
  // the line numbers, not through them.
  ".cm-gutters": { background: "linear-gradient(var(--tl-code-bg), var(--tl-code-bg)), var(--tl-panel)",
    borderRight: "1px solid var(--tl-border)" },
  ".tl-span-hl": { background: "rgba(9, 105, 218, 0.22)", outline: "1px solid #0969da" },
});

/** Offsets of a 1-based line and 0-based column, clamped to the document. */
export function offsetOf(doc, line, column) {
  const n = Math.min(Math.max(1, line), doc.lines);
  const info = doc.line(n);
  return info.from + Math.min(Math.max(0, column), info.length);
}

/** The smallest change turning `old` into `text`: the cursor and history outside it stay. */
export function minimalChange(old, text) {
  let start = 0;
  const max = Math.min(old.length, text.length);
  while (start < max && old.charCodeAt(start) === text.charCodeAt(start)) start++;
  let oldEnd = old.length;
  let newEnd = text.length;
  while (oldEnd > start && newEnd > start && old.charCodeAt(oldEnd - 1) === text.charCodeAt(newEnd - 1)) {
    oldEnd--;
    newEnd--;
  }
  return { from: start, to: oldEnd, insert: text.slice(start, newEnd) };
}

/**
 * Enter with the indent the syntax tree gives. CodeMirror parses within a time slice and
 * finishes in idle time; where the tree does not reach the cursor yet (a busy machine, a
 * keystroke right after an edit) its Enter copies the line's own indent, so a new line
 * after `for ...:` would not go one level deeper. Parse up to the cursor first.
 */
function enterWithIndent(view) {
  forceParsing(view, view.state.selection.main.head, 1000);
  return insertNewlineAndIndent(view);
}

export class SourceEditor {
  /**
   * `options.language`: the CodeMirror language (Python unless given); the Enter key that
   * indents from the syntax tree is Python's own.
   */
  constructor(parent, text, onChange, options = {}) {
    const language = options.language || python();
    const enter = options.language ? [] : [{ key: "Enter", run: enterWithIndent, shift: enterWithIndent }];
    this.readOnly = new Compartment();
    this.view = new EditorView({
      parent,
      state: EditorState.create({
        doc: text,
        extensions: [
          lineNumbers(), highlightActiveLineGutter(), highlightActiveLine(), history(),
          drawSelection(), indentOnInput(), bracketMatching(),
          indentUnit.of(options.language ? "  " : "    "), EditorState.tabSize.of(4),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          language, lintGutter(), spanField, theme,
          keymap.of([...enter, indentWithTab, ...defaultKeymap, ...historyKeymap]),
          this.readOnly.of(EditorState.readOnly.of(false)),
          EditorView.updateListener.of((update) => {
            if (!update.docChanged) return;
            if (update.transactions.some((tr) => tr.annotation(fromKernel))) return;
            onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    this.adoptRoot();
  }

  /**
   * Move CodeMirror's styles to the shadow root the editor ends up in (marimo renders
   * widgets in one, after render() returns): styles mounted in the document do not apply.
   */
  adoptRoot() {
    let frames = 0;
    const check = () => {
      const dom = this.view.dom;
      if (dom.isConnected) {
        const root = dom.getRootNode();
        if (root !== this.view.root && (root instanceof ShadowRoot || root instanceof Document)) {
          this.view.setRoot(root);
        }
      } else if (frames++ < 600) {
        requestAnimationFrame(check);
      }
    };
    check();
  }

  get text() { return this.view.state.doc.toString(); }

  /** Take the kernel's text without moving the cursor or losing the undo history. */
  setText(text) {
    const old = this.text;
    if (old === text) return;
    this.view.dispatch({ changes: minimalChange(old, text), annotations: fromKernel });
  }

  setReadOnly(flag) {
    this.view.dispatch({ effects: this.readOnly.reconfigure(EditorState.readOnly.of(flag)) });
  }

  /** Mark an error at its line and column (1-based line, 1-based column), or clear it. */
  setError(mark) {
    const state = this.view.state;
    if (!mark || !mark.message) {
      this.view.dispatch(setDiagnostics(state, []));
      return;
    }
    const doc = state.doc;
    const n = Math.min(Math.max(1, mark.line || 1), doc.lines);
    const line = doc.line(n);
    let from = line.from;
    let to = line.to;
    if (mark.column) {
      from = offsetOf(doc, n, mark.column - 1);
      // Underline the token at the column (or one character), not the whole line.
      const rest = doc.sliceString(from, line.to);
      const word = /^[\w.]+/.exec(rest);
      to = Math.min(line.to, from + (word ? word[0].length : 1));
      if (from === to && from > line.from) from -= 1;
    }
    if (from === to) to = Math.min(doc.length, to + 1);
    const diag = { from, to, severity: "error", message: mark.message };
    this.view.dispatch(setDiagnostics(state, [diag]));
  }

  /** Show `diagnostics` (CodeMirror lint diagnostics: from, to, severity, message). */
  setDiagnostics(diagnostics) {
    this.view.dispatch(setDiagnostics(this.view.state, diagnostics));
  }

  /** Select and highlight a source span "l1:c1-l2:c2" (lines 1-based, columns 0-based). */
  showSpan(span) {
    const m = SPAN_LABEL.exec(span || "");
    if (!m) return false;
    const doc = this.view.state.doc;
    const from = offsetOf(doc, +m[1], +m[2]);
    const to = offsetOf(doc, +m[3], +m[4]);
    this.view.dispatch({
      effects: [setSpan.of({ from, to }), EditorView.scrollIntoView(from, { y: "center" })],
      selection: { anchor: from, head: to },
    });
    return true;
  }

  destroy() { this.view.destroy(); }
}
