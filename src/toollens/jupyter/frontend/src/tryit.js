// The explorer's Try-it view: a JSON editor for the arguments a model would send, three
// buttons, and the kernel's verdict beside it. The kernel checks the arguments on every
// change and sends each problem with its JSON pointer; this file finds the pointer in the
// editor's syntax tree and marks it there.
import { json } from "@codemirror/lang-json";
import { ensureSyntaxTree } from "@codemirror/language";
import { el } from "./dom.js";
import { SourceEditor, offsetOf } from "./editor.js";

const SOURCE_TEXT = {
  json: "not JSON",
  sdk: "rejected by the SDK",
  schema: "outside the schema the model sees",
};

function unescapeToken(token) {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** The value node a property or an array item holds, by key or index; null when absent. */
function childValue(state, node, token) {
  if (node.name === "Object") {
    for (let p = node.firstChild; p; p = p.nextSibling) {
      const name = p.name === "Property" ? p.getChild("PropertyName") : null;
      if (!name) continue;
      let key;
      try { key = JSON.parse(state.sliceDoc(name.from, name.to)); } catch { continue; }
      if (key === token) return p.lastChild && p.lastChild !== name ? p.lastChild : name;
    }
  } else if (node.name === "Array") {
    let index = 0;
    for (let c = node.firstChild; c; c = c.nextSibling) {
      if (c.name === "[" || c.name === "]" || c.name === "," || c.type.isError) continue;
      if (String(index) === token) return c;
      index++;
    }
  }
  return null;
}

/**
 * Where a JSON pointer points in the editor: the value's range, cut to its first line (an
 * object's whole body would underline half the editor). A pointer to something absent (a
 * missing property) points at the opening of the nearest value that is there.
 */
export function pointerRange(state, pointer) {
  const doc = state.doc;
  const tree = ensureSyntaxTree(state, doc.length, 500);
  let node = tree && tree.topNode.firstChild;
  if (!node) return { from: 0, to: Math.min(1, doc.length) };
  const tokens = pointer ? pointer.split("/").slice(1).map(unescapeToken) : [];
  let found = true;
  for (const token of tokens) {
    const next = childValue(state, node, token);
    if (!next) { found = false; break; }
    node = next;
  }
  const from = node.from;
  const to = found ? Math.min(node.to, doc.lineAt(from).to) : from + 1;
  return { from, to: Math.max(to, Math.min(from + 1, doc.length)) };
}

/** The kernel's marks as CodeMirror diagnostics. */
export function diagnosticsFor(state, marks) {
  return (marks || []).map((mark) => {
    const range = mark.pointer === null || mark.pointer === undefined
      ? (() => {
        const at = offsetOf(state.doc, mark.line || 1, (mark.column || 1) - 1);
        return { from: at, to: Math.min(at + 1, state.doc.length) };
      })()
      : pointerRange(state, mark.pointer);
    return {
      ...range,
      severity: mark.source === "schema" ? "warning" : "error",
      message: `${mark.message} (${SOURCE_TEXT[mark.source] || mark.source})`,
    };
  });
}

function button(text, title, onClick) {
  const node = el("button", { type: "button", text, title });
  node.addEventListener("click", onClick);
  return node;
}

/**
 * The Try-it section: folded until opened (the kernel does nothing for it until then), the
 * JSON editor made on first open. Returns the section and a function that tears it down.
 */
export function tryView(model) {
  const summary = el("summary", {
    text: "Try it: arguments a model could send, through the function and back",
  });
  const editorBox = el("div", { class: "tl-try-editor" });
  const status = el("div", { class: "tl-try-status" });
  const body = el("div", { class: "tl-try-body" });
  const section = el("details", { class: "tl-try" }, summary, body);
  const send = (action) => model.send({ type: "try", action });
  const call = button("Call", "Run the function with these arguments", () => {
    call.disabled = true;
    call.textContent = "Calling…";
    send("call");
  });
  const buttons = el("div", { class: "tl-try-buttons" },
    button("Another example", "Arguments drawn from the schema the model sees", () => send("example")),
    button("Edge case", "The next edge case: a bound, an enum member, null, an empty or long string",
      () => send("edge")),
    call);
  body.append(el("div", { class: "tl-try-edit" }, editorBox, buttons), status);

  let editor = null;
  const mark = () => {
    if (editor) editor.setDiagnostics(diagnosticsFor(editor.view.state, model.get("try_marks")));
  };
  const open = () => {
    if (section.open && !editor) {
      editor = new SourceEditor(editorBox, model.get("try_arguments"), (text) => {
        model.set("try_arguments", text);
        model.save_changes();
      }, { language: json() });
      editorBox.tlView = editor.view; // for tests driving the page
      mark();
    }
    if (model.get("try_open") !== section.open) {
      model.set("try_open", section.open);
      model.save_changes();
    }
  };
  section.addEventListener("toggle", open);
  const showStatus = () => {
    status.innerHTML = model.get("try_html");
    call.disabled = !model.get("try_can_call");
    call.textContent = "Call";
  };
  const syncOpen = () => { if (section.open !== model.get("try_open")) section.open = model.get("try_open"); };
  const available = () => { section.hidden = !model.get("try_available"); };
  model.on("change:try_html", showStatus);
  model.on("change:try_can_call", showStatus);
  model.on("change:try_marks", mark);
  model.on("change:try_arguments", () => { if (editor) { editor.setText(model.get("try_arguments")); mark(); } });
  model.on("change:try_open", syncOpen);
  model.on("change:try_available", available);
  showStatus(); available(); syncOpen();
  return { section, release: () => { if (editor) editor.destroy(); } };
}
