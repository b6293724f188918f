"""The explorer in real browsers: Debian's Chromium driving Voila, JupyterLab 4, Notebook 7
and marimo.

What a unit test cannot see: that the one anywidget renders in each front end, that the
CodeMirror editor indents, marks errors at their line and keeps the cursor, that typing
reaches the kernel and comes back as new views quickly (and flashes what changed), that the
Strict view marks what strict mode added, that clicking a view lands on its source, and
that HTML in a docstring stays text. Screenshots go to ``tests/artifacts/``; the edit
latency to ``tests/artifacts/browser_latency.json``.

Servers listen on 127.0.0.1 only, with a random token and private Jupyter directories, and
are always shut down with their kernels (see ``servers.py``). Skipped without Chromium or
Playwright. ``CHROMIUM`` overrides the browser path, ``BROWSER_TEST_BUDGET`` the watchdog.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
from servers import (
    CHROMIUM,
    Server,
    launch_browser,
    make_tmp,
    start_lab,
    start_marimo,
    start_voila,
    stop,
)

if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is not installed (set CHROMIUM=...)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
BUDGET_S = int(os.environ.get("BROWSER_TEST_BUDGET", "420"))

NOTEBOOK = "explorer.ipynb"
NB7_NOTEBOOK = "explorer_nb7.ipynb"
SETUP = (
    "%load_ext toollens\n"
    "import toollens\n"
    "from toollens.examples import EXAMPLES\n"
    'get_weather = EXAMPLES["get_weather"]'
)
DIFF_CELL = (
    "def get_forecast(city: str, days: int = 1) -> str:\n"
    '    """Weather."""\n'
    "    return city\n\n"
    "toollens.DiffWidget(get_weather, get_forecast)"
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
EDITS = 7
FRAMEWORK_PAIR = ("openai-agents", "mcp")  # installed by the test extra on every Python
LATENCY_MEDIAN_MS = 200

KERNEL_READY_JS = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  return !!k && k.connectionStatus === 'connected' && k.status === 'idle';
}"""

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

PAYLOAD_SUMMARY = "Look up <script>window.__pwned=1</script> a city."
PAYLOAD_CITY = (
    "The city \"><svg onload=window.__pwned=1> or '><b onmouseover=window.__pwned=1>x</b>."
)
XSS_SOURCE = '''
from typing import Literal

import toollens


def evil_tool(
    city: str,
    mode: Literal["<i>plain</i>", "\\" onmouseover=\\"window.__pwned=1"] = "<i>plain</i>",
) -> str:
    """Look up <script>window.__pwned=1</script> a city.

    <img src=x onerror="window.__pwned=1"> <a href="javascript:window.__pwned=1">click me</a>

    Args:
        city: The city "><svg onload=window.__pwned=1> or '><b onmouseover=window.__pwned=1>x</b>.
        mode: <iframe src="javascript:window.__pwned=1"></iframe> How to answer.
    """
    return city
'''

# Elements or attributes that would mean a payload became markup inside a toollens view.
INJECTED_JS = """() => {
  const roots = [...document.querySelectorAll('.tl-root')];
  const bad = [];
  for (const root of roots) {
    for (const el of root.querySelectorAll('script, img, svg, iframe, b, i')) {
      bad.push(el.outerHTML.slice(0, 80));
    }
    for (const el of root.querySelectorAll('*')) {
      for (const a of el.attributes) {
        if (a.name.startsWith('on')) bad.push(`${el.tagName} ${a.name}`);
        if (/^\\s*javascript:/i.test(a.value)) bad.push(`${el.tagName} ${a.name}=${a.value}`);
      }
    }
  }
  return {roots: roots.length, bad};
}"""

MARIMO_APP = """
import marimo

app = marimo.App(width="full")


@app.cell
def _():
    import marimo as mo

    from toollens import Explorer
    from toollens.examples import EXAMPLES

    explorer = mo.ui.anywidget(Explorer(EXAMPLES["get_weather"]))
    explorer
    return


if __name__ == "__main__":
    app.run()
"""


def _alarm(signum: int, frame: Any) -> None:
    raise TimeoutError(f"browser tests exceeded their {BUDGET_S}s budget")


@pytest.fixture(scope="module")
def watchdog() -> Iterator[None]:
    """A hang anywhere raises here, so every fixture's cleanup still runs."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(BUDGET_S)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="module")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


def _notebook(target: Path, *cells: str) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [nbformat.v4.new_code_cell(cell) for cell in cells]
    nbformat.write(nb, target)


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    """The test notebooks and marimo app, in a private tmp dir (Lab autosaves into them)."""
    tmp = make_tmp("toollens-nb-")
    _notebook(tmp / NOTEBOOK, SETUP, "%toolschema get_weather", DIFF_CELL)
    # Notebook 7 gets its own copy: a session (and kernel) per notebook path.
    _notebook(tmp / NB7_NOTEBOOK, SETUP, "%toolschema get_weather")
    _notebook(
        tmp / "payloads.ipynb",
        XSS_SOURCE.strip(),
        "toollens.Explorer(evil_tool)",
        "toollens.report(evil_tool)",
    )
    _notebook(
        tmp / "frameworks.ipynb",
        SETUP,
        f"toollens.Explorer(get_weather, frameworks={list(FRAMEWORK_PAIR)!r})",
    )
    (tmp / "marimo_app.py").write_text(MARIMO_APP.lstrip())
    yield tmp
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def servers(watchdog: None, workdir: Path) -> Iterator[dict[str, Server]]:
    """Voila and Jupyter (Lab and Notebook 7 share one server), started together."""
    started: dict[str, Server] = {}
    tmps = []
    try:
        for kind, start in (("voila", start_voila), ("lab", start_lab)):
            tmps.append(make_tmp(f"toollens-{kind}-"))
            started[kind] = start(tmps[-1], workdir)
        yield started
    finally:
        for server in started.values():
            left = stop(server)
            print(f"{server.kind}: stopped (rc={server.proc.returncode}), killed leftovers: {left}")
        for tmp in tmps:
            shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def voila(servers: dict[str, Server]) -> Server:
    servers["voila"].wait_ready()
    return servers["voila"]


@pytest.fixture(scope="module")
def lab(servers: dict[str, Server]) -> Server:
    servers["lab"].wait_ready()
    return servers["lab"]


@pytest.fixture(scope="module")
def browser(watchdog: None) -> Iterator[Any]:
    tmp = make_tmp("toollens-chromium-")
    try:
        with sync_api.sync_playwright() as pw:
            context = launch_browser(pw, tmp)
            context.set_default_timeout(60_000)
            try:
                yield context
            finally:
                context.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _open_voila(browser: Any, voila: Server, name: str) -> Any:
    page = browser.new_page()
    page.goto(voila.url(f"/voila/render/{name}"), wait_until="domcontentloaded", timeout=120_000)
    return page


def _expect_views(page: Any) -> None:
    expect(page.locator(f"{EDITOR} .cm-editor")).to_be_visible(timeout=120_000)
    for panel, text in VIEWS.items():
        locator = page.locator(SLOT.format(panel))
        expect(locator).to_contain_text(text)


@pytest.fixture(scope="module")
def voila_page(browser: Any, voila: Server, artifacts: Path) -> Iterator[Any]:
    page = _open_voila(browser, voila, NOTEBOOK)
    try:
        _expect_views(page)
        yield page
    except BaseException:
        page.screenshot(path=str(artifacts / "voila_FAILED.png"))
        print(voila.log_tail())
        raise
    finally:
        page.close()


def _caret_after(page: Any, needle: str) -> int:
    at = page.evaluate(CARET_JS, needle)
    assert at >= 0, f"{needle!r} not in the editor"
    return int(at)


def _text(page: Any) -> str:
    return str(page.evaluate(TEXT_JS))


def _timed_edit(page: Any, marker: str) -> dict[str, Any]:
    """Type ` marker` after the city line; ms from the last keystroke to each view's change."""
    page.evaluate(WATCH_JS, [["metadata", "strict"], marker])
    at = _caret_after(page, CITY_LINE)
    page.keyboard.type(" " + marker, delay=20)  # real key events, a fast typist
    page.wait_for_function(
        "() => window.__tlWatch && Object.keys(window.__tlWatch.seen).length === 2",
        timeout=10_000,
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


def _shoot_explorer(page: Any, path: Path, width: int, top: Path | None = None) -> dict[str, int]:
    """A screenshot of the explorer at ``width``; returns the page's and explorer's widths."""
    page.set_viewport_size({"width": width, "height": 1000})
    explorer = page.locator(EXPLORER)
    explorer.scroll_into_view_if_needed()
    height = int(explorer.bounding_box()["height"]) + 120
    # Voila scrolls inside its own container: a window as tall as the explorer shows it all.
    page.set_viewport_size({"width": width, "height": max(1000, height)})
    try:
        explorer.screenshot(path=str(path))
        if top is not None:  # the editor, the strict diff and the metadata table
            box = explorer.bounding_box()
            clip = {**box, "height": min(box["height"], 1480)}
            page.screenshot(path=str(top), clip=clip)
        return dict(
            page.evaluate(
                """() => ({page: document.scrollingElement.scrollWidth,
                  explorer: document.querySelector('.tl-xp').scrollWidth,
                  shown: document.querySelector('.tl-xp').clientWidth})"""
            )
        )
    finally:
        page.set_viewport_size({"width": 1400, "height": 1000})


# ---------------------------------------------------------------------------------- Voila


def test_voila_renders_editor_views_and_fits_1000px(voila_page: Any, artifacts: Path) -> None:
    page = voila_page
    # a real editor: line numbers, Python highlighting
    numbers = page.locator(f"{EDITOR} .cm-lineNumbers .cm-gutterElement")
    expect(numbers.filter(has_text=re.compile(r"^18$"))).to_have_count(1)
    keyword = page.locator(f"{CONTENT} span", has_text=re.compile(r"^def$")).first
    expect(keyword).to_be_visible()
    assert keyword.evaluate("el => getComputedStyle(el).color") != page.locator(
        f"{CONTENT} .cm-line"
    ).first.evaluate("el => getComputedStyle(el).color")
    wide = _shoot_explorer(
        page, artifacts / "explorer_1400.png", 1400, top=artifacts / "explorer_1400_top.png"
    )
    narrow = _shoot_explorer(page, artifacts / "explorer_1000.png", 1000)
    assert wide["page"] <= 1400, wide
    assert narrow["page"] <= 1000, narrow  # no horizontal page scroll at 1,000 px
    assert narrow["explorer"] <= narrow["shown"], narrow
    # the toolbar stays in sight while the views below the editor are read
    page.locator(SLOT.format("metadata")).scroll_into_view_if_needed()
    # (the front end moves it on the scroll event, which arrives after the scroll)
    page.wait_for_function(
        """() => {
          const y = document.querySelector('.tl-xp .tl-toolbar').getBoundingClientRect().y;
          return y >= -1 && y <= 80;
        }""",
        timeout=5_000,
    )
    toolbar = page.locator(f"{EXPLORER} .tl-toolbar").bounding_box()
    assert page.locator(SLOT.format("metadata")).bounding_box()["y"] > toolbar["y"]
    # the diff widget fits its output area exactly (it used to stick out by 4 px)
    diff = page.locator(".tl-diff-widget")
    expect(diff).to_contain_text("Schema diff")
    widths = diff.evaluate(
        """el => {
          const area = el.closest('.jp-OutputArea-output') || el.parentElement;
          return [el.getBoundingClientRect().width, area.getBoundingClientRect().width,
                  el.scrollWidth, el.clientWidth];
        }"""
    )
    assert widths[0] <= widths[1], widths
    assert widths[2] <= widths[3], widths


def test_strict_view_marks_what_strict_mode_added(voila_page: Any, artifacts: Path) -> None:
    strict = voila_page.locator(SLOT.format("strict"))
    closed = strict.locator('.tl-inline-view .tl-dl.tl-add[data-rule~="close-object"]')
    expect(closed).to_have_count(1)
    expect(closed).to_contain_text('"additionalProperties": false')
    tag = closed.locator(".tl-gtag")
    expect(tag).to_have_text("close-object")
    assert "strict mode requires additionalProperties: false" in tag.get_attribute("title")
    required = strict.locator('.tl-inline-view .tl-dl[data-rule~="require-all-properties"]')
    expect(required).to_contain_text('"required"')
    added = strict.locator(".tl-inline-view .tl-dl.tl-add")
    expect(added.filter(has_text='"unit"')).to_have_count(1)
    expect(added.filter(has_text='"days"')).to_have_count(1)
    # the side-by-side toggle (folded under "more" in the toolbar) shows before/after columns
    voila_page.locator(f"{EXPLORER} .tl-more > summary").click()
    voila_page.locator(f"{EXPLORER} .tl-sbs-toggle").check()
    expect(strict.locator(".tl-sbs-view")).to_be_visible()
    expect(strict.locator(".tl-inline-view")).to_be_hidden()
    expect(strict.locator(".tl-sbs-view")).to_contain_text("Before strict conversion")
    # a layout switch changes no content: nothing flashes (checked at once; a flash lasts 1.6 s)
    assert strict.locator(".tl-flash").count() == 0
    strict.screenshot(path=str(artifacts / "strict_side_by_side.png"))
    voila_page.locator(f"{EXPLORER} .tl-sbs-toggle").uncheck()
    voila_page.locator(f"{EXPLORER} .tl-more > summary").click()
    expect(strict.locator(".tl-inline-view")).to_be_visible()


def test_typing_updates_views_quickly_and_flashes_what_changed(
    voila_page: Any, artifacts: Path
) -> None:
    runs = []
    flashed = []
    for n in range(1, EDITS + 1):
        marker = f"tlmark{n}q"
        result = _timed_edit(voila_page, marker)
        seen = result["seen"]
        flashed += result["flashed"]
        runs.append({"marker": marker, **seen, "both": max(seen.values())})
        assert marker in _text(voila_page)
    changes = voila_page.locator(f"{EXPLORER} .tl-panel-changes")
    expect(changes).to_contain_text("Last edit")
    expect(changes).to_contain_text("/properties/city")
    assert any("tlmark" in text for text in flashed), flashed  # the changed line flashed
    voila_page.screenshot(path=str(artifacts / "voila_after_edits.png"))
    both = [run["both"] for run in runs]
    result = {
        "front_end": "voila",
        "browser": "chromium (headless)",
        "edits": len(runs),
        "measured": "ms from the last keystroke (keydown) to the Metadata and Strict views "
        "both showing the typed text; includes the explorer's debounce",
        "median_ms": round(statistics.median(both), 1),
        "max_ms": max(both),
        "runs": runs,
    }
    (artifacts / "browser_latency.json").write_text(json.dumps(result, indent=2) + "\n")
    print("edit -> views latency (ms):", both, "median:", result["median_ms"])
    assert result["median_ms"] <= LATENCY_MEDIAN_MS, runs


def test_enter_keeps_indent_tab_indents_and_errors_are_marked_at_their_line(
    voila_page: Any, artifacts: Path
) -> None:
    page = voila_page
    original = _text(page)
    banner = page.locator(f"{EXPLORER} .tl-banner")
    _caret_after(page, LOOP_LINE)
    page.keyboard.press("Enter")  # after a colon: one level deeper
    page.keyboard.type("probe = day", delay=15)
    assert "    for day in range(days):\n        probe = day\n" in _text(page)
    _caret_after(page, "    lines = []")
    page.keyboard.press("Enter")  # after a statement: the same level
    page.keyboard.type("extra = 0", delay=15)
    assert "    lines = []\n    extra = 0\n" in _text(page)
    line = _text(page).split("\n").index("    extra = 0") + 1
    expect(page.locator(f"{EXPLORER} .tl-panel-changes")).to_contain_text("Last edit")
    expect(banner).to_be_empty()

    page.keyboard.press("Tab")  # indents the line, focus stays in the editor
    assert "\n        extra = 0\n" in _text(page)
    assert page.evaluate(FOCUS_JS)
    # unexpected indent: banner, gutter mark and underline at the line
    expect(banner).to_contain_text(f"Line {line}", timeout=5_000)
    expect(page.locator(f"{EXPLORER} .tl-panels")).to_have_class(re.compile(r"\btl-stale\b"))
    marker = page.locator(f"{EDITOR} .cm-lint-marker-error")
    expect(marker).to_have_count(1)
    gutter_line = page.locator(f"{EDITOR} .cm-lineNumbers .cm-gutterElement", has_text=str(line))
    marker_box, line_box = marker.bounding_box(), gutter_line.first.bounding_box()
    assert abs(marker_box["y"] - line_box["y"]) < line_box["height"], (marker_box, line_box)
    underline = page.locator(f"{EDITOR} .cm-lintRange-error")
    expect(underline).to_have_count(1)
    page.screenshot(path=str(artifacts / "voila_error_marked.png"))

    page.keyboard.press("Shift+Tab")
    expect(banner).to_be_empty(timeout=5_000)
    expect(page.locator(f"{EDITOR} .cm-lint-marker-error")).to_have_count(0)
    # undo history survived every re-render: undo back to the original text
    for _ in range(30):
        if _text(page) == original:
            break
        page.keyboard.press("Control+z")
    assert _text(page) == original


def test_toggling_strict_names_the_trigger_and_flashes(voila_page: Any) -> None:
    page = voila_page
    page.evaluate(WATCH_JS, [["strict"], "never-typed"])
    page.locator(f'{EXPLORER} input[data-trait="strict"]').uncheck()
    changes = page.locator(f"{EXPLORER} .tl-panel-changes")
    expect(changes).to_contain_text("Last change (strict off)")
    expect(page.locator(SLOT.format("strict"))).to_contain_text("Strict mode is off")
    assert page.evaluate("() => window.__tlWatch.flashed.length") > 0
    page.locator(f'{EXPLORER} select[data-trait="provider"]').select_option("anthropic")
    expect(changes).to_contain_text("Last change (provider: anthropic)")
    page.locator(f'{EXPLORER} select[data-trait="provider"]').select_option("openai-chat")
    page.locator(f'{EXPLORER} input[data-trait="strict"]').check()
    expect(changes).to_contain_text("Last change (strict on)")


def _click_through(page: Any) -> Any:
    """Click a metadata cell: the kernel locates its span and the editor selects it."""
    cell = page.locator(f"{SLOT.format('metadata')} td .tl-won[data-span]")
    target = cell.filter(has_text="How many days to forecast").first
    target.click()
    highlight = page.locator(f"{EDITOR} .tl-span-hl")
    expect(highlight).to_have_count(1)
    expect(highlight).to_contain_text("How many days to forecast")
    expect(target).to_have_class(re.compile(r"\btl-span-active\b"))
    return highlight


def test_clicking_a_metadata_cell_selects_its_source(voila_page: Any, artifacts: Path) -> None:
    page = voila_page
    highlight = _click_through(page)
    page.screenshot(path=str(artifacts / "voila_click_through.png"))
    line = page.locator(f"{SLOT.format('strict')} .tl-inline-view .tl-dl[data-span]").filter(
        has_text='"description": "The city to forecast'
    )
    line.first.click()
    expect(highlight).to_contain_text("The city to forecast")


def test_html_in_docstrings_renders_as_text(browser: Any, voila: Server, artifacts: Path) -> None:
    page = _open_voila(browser, voila, "payloads.ipynb")
    try:
        expect(page.locator(f"{EDITOR} .cm-editor")).to_be_visible(timeout=120_000)
        metadata = page.locator(SLOT.format("metadata"))
        expect(metadata).to_contain_text(PAYLOAD_SUMMARY.split(" a city")[0])
        expect(metadata).to_contain_text(PAYLOAD_CITY)
        expect(page.locator(SLOT.format("strict"))).to_contain_text(
            '<iframe src=\\"javascript:window.__pwned=1\\"></iframe>'
        )
        # the static report (text/html output) as well as the widget
        static = page.locator('.tl-root[data-toollens="report"]')
        expect(static.first).to_contain_text("<script>window.__pwned=1</script>")
        expect(static.first).to_contain_text('<a href="javascript:window.__pwned=1">click me</a>')
        # Hovering would fire an injected onmouseover handler.
        for target in page.locator(".tl-root td, .tl-root li, .tl-root code").all()[:25]:
            if target.is_visible():
                target.hover(timeout=2_000)
        injected = page.evaluate(INJECTED_JS)
        assert injected["roots"] >= 2, injected
        assert injected["bad"] == [], injected["bad"]
        assert page.evaluate("() => typeof window.__pwned") == "undefined"
    finally:
        page.close()


# ------------------------------------------------------------------ JupyterLab, Notebook 7


def _run_in_jupyter(browser: Any, lab: Server, path: str, name: str, artifacts: Path) -> None:
    page = browser.new_page()
    try:
        page.goto(lab.url(path), wait_until="domcontentloaded")
        page.wait_for_function("window.jupyterapp !== undefined", timeout=90_000)
        expect(page.locator(".jp-NotebookPanel:visible")).to_have_count(1, timeout=90_000)
        page.wait_for_function(KERNEL_READY_JS, timeout=120_000, polling=250)
        # Fire and forget: awaiting the command's promise can block evaluate() for good.
        page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
        _expect_views(page)
        page.locator(EXPLORER).scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"{name}_rendered.png"))
        started = time.monotonic()
        _caret_after(page, CITY_LINE)
        page.keyboard.type(f" {name}markq", delay=20)
        expect(page.locator(SLOT.format("metadata"))).to_contain_text(f"{name}markq")
        expect(page.locator(SLOT.format("strict"))).to_contain_text(f"{name}markq")
        print(f"{name}: edit reflected after {time.monotonic() - started:.2f}s (incl. typing)")
        # Enter keeps the indent here too (the front end's own keymap, not the notebook's)
        _caret_after(page, LOOP_LINE)
        page.keyboard.press("Enter")
        page.keyboard.type("probe = day", delay=15)
        assert "\n        probe = day\n" in _text(page)
        expect(page.locator(f"{EXPLORER} .tl-panel-changes")).to_contain_text("Last edit")
        _click_through(page)
        page.screenshot(path=str(artifacts / f"{name}_after_edit.png"))
    except BaseException:
        page.screenshot(path=str(artifacts / f"{name}_FAILED.png"))
        print(lab.log_tail())
        raise
    finally:
        page.close()


def test_jupyterlab_renders_and_follows_edits(browser: Any, lab: Server, artifacts: Path) -> None:
    _run_in_jupyter(browser, lab, f"/lab/tree/{NOTEBOOK}?reset", "jupyterlab", artifacts)


def test_notebook7_renders_and_follows_edits(browser: Any, lab: Server, artifacts: Path) -> None:
    _run_in_jupyter(browser, lab, f"/notebooks/{NB7_NOTEBOOK}", "notebook7", artifacts)


# ----------------------------------------------------------------------------------- marimo


def test_marimo_runs_the_same_widget(browser: Any, workdir: Path, artifacts: Path) -> None:
    pytest.importorskip("marimo")
    tmp = make_tmp("toollens-marimo-")
    server = start_marimo(tmp, workdir, "marimo_app.py")
    page = None
    try:
        server.wait_ready()
        page = browser.new_page()
        page.goto(server.url("/"), wait_until="domcontentloaded", timeout=120_000)
        _expect_views(page)
        _caret_after(page, CITY_LINE)
        page.keyboard.type(" marimomarkq", delay=20)
        expect(page.locator(SLOT.format("metadata"))).to_contain_text("marimomarkq")
        page.locator(f'{EXPLORER} input[data-trait="strict"]').uncheck()
        expect(page.locator(f"{EXPLORER} .tl-panel-changes")).to_contain_text(
            "Last change (strict off)"
        )
        _click_through(page)
        page.screenshot(path=str(artifacts / "marimo_after_edit.png"))
    except BaseException:
        if page is not None:
            page.screenshot(path=str(artifacts / "marimo_FAILED.png"))
        print(server.log_tail())
        raise
    finally:
        if page is not None:
            page.close()
        left = stop(server)
        print(f"marimo: stopped (rc={server.proc.returncode}), killed leftovers: {left}")
        shutil.rmtree(tmp, ignore_errors=True)


def test_frameworks_view_shows_the_matrix_and_diffs_the_picked_pair(
    browser: Any, voila: Server, artifacts: Path
) -> None:
    from toollens.frameworks import installed

    if set(installed(FRAMEWORK_PAIR)) != set(FRAMEWORK_PAIR):
        pytest.skip("needs openai-agents and mcp installed")
    page = _open_voila(browser, voila, "frameworks.ipynb")
    try:
        expect(page.locator(f"{EDITOR} .cm-editor")).to_be_visible(timeout=120_000)
        view = page.locator(SLOT.format("frameworks"))
        # Built on a worker thread after the first render: the frameworks import first.
        expect(view.locator('tr[data-parameter="days"]')).to_be_visible(timeout=120_000)
        for key in FRAMEWORK_PAIR:
            expect(view.locator(f'[data-framework="{key}"]').first).to_be_visible()
        view.locator('select[data-tl-pair="a"]').select_option(FRAMEWORK_PAIR[0])
        view.locator('select[data-tl-pair="b"]').select_option(FRAMEWORK_PAIR[1])
        pair = " ".join(FRAMEWORK_PAIR)
        expect(view.locator(f'[data-pair="{pair}"]')).to_be_visible(timeout=30_000)
        view.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "frameworks_1400.png"), full_page=True)
    except BaseException:
        page.screenshot(path=str(artifacts / "frameworks_FAILED.png"))
        print(voila.log_tail())
        raise
    finally:
        page.close()
