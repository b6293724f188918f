// The explorer's Remedies: a Fix button on each fixable finding (the list is Python's HTML,
// asked for whenever the views change) edits the editor's text as one undo step, and an
// error pasted here is explained by the kernel: the editor marks and scrolls to its line,
// the answer's HTML marks the pointer in the schema. Kept apart from the views' render path.
import { EditorView } from "@codemirror/view";
import { el } from "./dom.js";
import { minimalChange } from "./editor.js";

/** Put `text` in the editor as the author's own edit: one transaction, one undo step. */
export function editAsAuthor(editor, text) {
  const view = editor.view;
  const old = view.state.doc.toString();
  if (old === text) return false;
  view.dispatch({ changes: minimalChange(old, text), userEvent: "input.fix", scrollIntoView: true });
  return true;
}

/** Mark a 1-based line of the editor as the pasted error's place, and scroll to it. */
export function markLine(editor, line, message) {
  const view = editor.view;
  const doc = view.state.doc;
  const info = doc.line(Math.min(Math.max(1, line), doc.lines));
  editor.setDiagnostics([{ from: info.from, to: info.to, severity: "error", message }]);
  view.dispatch({ effects: EditorView.scrollIntoView(info.from, { y: "center" }) });
}

/** The Remedies box (the fixes list and the "explain an error" box) under the editor. */
export function wireRemedies(model, editor) {
  const fixes = el("div", { class: "tl-fixes-body" });
  const input = el("textarea", { class: "tl-error-input", rows: "3",
    placeholder: "Paste a provider's or client's error to see which line and rule it means" });
  const button = el("button", { type: "button", class: "tl-explain-btn", text: "Explain" });
  const answer = el("div", { class: "tl-explained-body" });
  const explain = el("details", { class: "tl-explain" },
    el("summary", { text: "my request failed: explain the error" }),
    el("div", { class: "tl-explain-row" }, input, button), answer);
  button.addEventListener("click", () => model.send({ type: "tl-explain", text: input.value }));
  fixes.addEventListener("click", (event) => {
    const fix = event.target.closest && event.target.closest("button[data-tl-fix]");
    if (!fix) return;
    fix.disabled = true;
    model.send({ type: "tl-fix", key: fix.dataset.tlFix });
  });
  // The views changed (an edit, an option): ask for the fixes of what they show, once.
  let asked = false;
  const ask = () => {
    if (asked) return;
    asked = true;
    queueMicrotask(() => { asked = false; model.send({ type: "tl-fixes" }); });
  };
  model.on("change:panel_base", ask);
  model.on("change:panel_patch", ask);
  model.on("msg:custom", (msg) => {
    if (!msg) return;
    if (msg.type === "tl-fixes") fixes.innerHTML = msg.html || "";
    if (msg.type === "tl-fixed" && typeof msg.text === "string") editAsAuthor(editor, msg.text);
    if (msg.type === "tl-explained") {
      answer.innerHTML = msg.html || "";
      if (msg.line) markLine(editor, msg.line, msg.message || "the pasted error points here");
      const marked = answer.querySelector(".tl-explained");
      if (marked) marked.scrollIntoView({ block: "nearest" });
    }
  });
  ask();
  return el("div", { class: "tl-remedies" }, fixes, explain);
}
