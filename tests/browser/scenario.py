"""The browser scenario shared by the browser tests and the latency benchmark.

Selectors of the explorer, the notebook cells that open it, and helpers that drive its
CodeMirror editor through the page. Every helper waits on the page's state (the editor's
document, the views' text), never on a fixed delay: a busy machine makes them slower, not
wrong.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat
from servers import Server

NOTEBOOK = "explorer.ipynb"

SETUP = (
    "%load_ext toollens\n"
    "import toollens\n"
    "from toollens.examples import EXAMPLES\n"
    'get_weather = EXAMPLES["get_weather"]'
)
EXPLORER = ".tl-xp"
EDITOR = f"{EXPLORER} .tl-editor"
CONTENT = f"{EDITOR} .cm-content"
SLOT = f"{EXPLORER} .tl-slot-{{}}"
VIEWS = {  # panel -> text that shows the view rendered for get_weather
    "signature": "days",
    "metadata": "How many days to forecast",
    "strict": "additionalProperties",
    "output": "plain text",
    "findings": "Lint",
}
# Where the edits go: the end of get_weather's `city:` docstring line.
CITY_LINE = 'e.g. "Paris" or "San Francisco, CA".'
LOOP_LINE = "for day in range(days):"

# The editor's CodeMirror view (the front end hangs it on its .tl-editor box). Playwright's
# CSS engine pierces shadow roots (marimo's widgets live in one); querySelector does not.
VIEW_JS = """
const tlRoots = () => {
  const out = [document];
  for (let i = 0; i < out.length; i++) {
    for (const el of out[i].querySelectorAll('*')) if (el.shadowRoot) out.push(el.shadowRoot);
  }
  return out;
};
const tlFind = (sel) => {
  for (const r of tlRoots()) { const el = r.querySelector(sel); if (el) return el; }
  return null;
};
const tlView = () => tlFind('.tl-xp .tl-editor').tlView;
"""

# Put the caret right after `needle` in the editor, and focus it.
CARET_JS = (
    "(needle) => {"
    + VIEW_JS
    + """
  const view = tlView();
  const at = view.state.doc.toString().indexOf(needle);
  if (at < 0) return -1;
  view.focus();
  view.dispatch({selection: {anchor: at + needle.length}});
  return at + needle.length;
}"""
)
TEXT_JS = "() => {" + VIEW_JS + " return tlView().state.doc.toString(); }"
HEAD_JS = "() => {" + VIEW_JS + " return tlView().state.selection.main.head; }"
FOCUS_JS = "() => {" + VIEW_JS + " return tlView().hasFocus; }"
# True once the editor's document (its state, not the DOM) contains `needle`.
HAS_TEXT_JS = (
    "(needle) => {" + VIEW_JS + " return tlView().state.doc.toString().includes(needle); }"
)

# Record every keydown in the editor, the first moment each view's text contains `marker`,
# and every element that flashes, all on the page's own clock (performance.now()).
WATCH_JS = (
    "([panels, marker]) => {"
    + VIEW_JS
    + """
  const old = window.__tlWatch;
  if (old) { old.observer.disconnect(); old.el.removeEventListener('keydown', old.onKey, true); }
  const el = tlView().contentDOM;
  const watch = {el, keys: [], seen: {}, flashed: []};
  watch.onKey = () => watch.keys.push(performance.now());
  el.addEventListener('keydown', watch.onKey, true);
  const slots = Object.fromEntries(panels.map(p => [p, tlFind(`.tl-xp .tl-slot-${p}`)]));
  const check = (records) => {
    const now = performance.now();
    for (const [name, slot] of Object.entries(slots)) {
      if (!(name in watch.seen) && slot.textContent.includes(marker)) watch.seen[name] = now;
    }
    for (const r of records || []) {
      if (r.type === 'attributes' && r.target.classList && r.target.classList.contains('tl-flash'))
        watch.flashed.push(r.target.textContent.slice(0, 80));
    }
  };
  watch.observer = new MutationObserver(check);
  for (const slot of Object.values(slots)) {
    watch.observer.observe(slot, {subtree: true, childList: true, characterData: true,
      attributes: true, attributeFilter: ['class']});
  }
  window.__tlWatch = watch;
}"""
)


def write_notebook(target: Path, *cells: str) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [nbformat.v4.new_code_cell(cell) for cell in cells]
    nbformat.write(nb, target)


def open_voila(browser: Any, voila: Server, name: str) -> Any:
    page = browser.new_page()
    page.goto(voila.url(f"/voila/render/{name}"), wait_until="domcontentloaded", timeout=120_000)
    return page


def expect_views(page: Any) -> None:
    """The editor and every view rendered (a first render may start a kernel: 120 s)."""
    from playwright.sync_api import expect

    expect(page.locator(f"{EDITOR} .cm-editor")).to_be_visible(timeout=120_000)
    for panel, text in VIEWS.items():
        locator = page.locator(SLOT.format(panel))
        expect(locator).to_contain_text(text)


def caret_after(page: Any, needle: str) -> int:
    at = page.evaluate(CARET_JS, needle)
    assert at >= 0, f"{needle!r} not in the editor"
    return int(at)


def editor_text(page: Any) -> str:
    return str(page.evaluate(TEXT_JS))


def type_text(page: Any, text: str, delay: float = 15) -> str:
    """Type ``text`` as key events, wait until the editor's state holds it; return the text.

    CodeMirror reads typed text from the DOM and applies it in its own time: the document
    read straight after the last key event may still lack it.
    """
    page.keyboard.type(text, delay=delay)
    page.wait_for_function(HAS_TEXT_JS, arg=text.strip())
    return editor_text(page)


def timed_edit(page: Any, marker: str) -> dict[str, Any]:
    """Type ` marker` after the city line; ms from the last keystroke to each view's change."""
    page.evaluate(WATCH_JS, [["metadata", "strict"], marker])
    at = caret_after(page, CITY_LINE)
    page.keyboard.type(" " + marker, delay=20)  # real key events, a fast typist
    page.wait_for_function(
        "() => window.__tlWatch && Object.keys(window.__tlWatch.seen).length === 2"
    )
    watch = page.evaluate(
        "() => ({keys: window.__tlWatch.keys, seen: window.__tlWatch.seen,"
        " flashed: window.__tlWatch.flashed})"
    )
    last_key = max(watch["keys"])
    assert len(watch["keys"]) == len(marker) + 1, watch["keys"]
    # the views changed under the cursor, which stayed where the typing left it
    assert page.evaluate(HEAD_JS) == at + len(marker) + 1
    seen = {name: round(t - last_key, 1) for name, t in watch["seen"].items()}
    return {"seen": seen, "flashed": watch["flashed"]}
