"""The explorer in a real browser: Debian's Chromium driving JupyterLab 4 and Voila.

What a unit test cannot see: that the widget renders its four views in real front ends,
that typing in the editor reaches the kernel and comes back as new views quickly, that a
syntax error shows a banner without losing the author's text, and that HTML in a docstring
stays text. Screenshots of every state go to ``tests/artifacts/``; the edit latency is
written to ``tests/artifacts/browser_latency.json``.

Servers listen on 127.0.0.1 only, with a random token and private Jupyter directories, and
are always shut down with their kernels (see ``servers.py``). Skipped without Chromium or
Playwright. ``CHROMIUM`` overrides the browser path, ``BROWSER_TEST_BUDGET`` the watchdog.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
from servers import CHROMIUM, Server, launch_browser, make_tmp, start_lab, start_voila, stop

if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is not installed (set CHROMIUM=...)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
QUICKSTART = ROOT / "notebooks" / "01_quickstart.ipynb"
BUDGET_S = int(os.environ.get("BROWSER_TEST_BUDGET", "300"))

EXPLORER = ".tl-explorer"
EDITOR = f"{EXPLORER} .tl-editor textarea"
PANEL = f"{EXPLORER} .widget-html.tl-panel-{{}}"
VIEWS = {  # panel -> text that shows the view rendered for get_weather
    "signature": "days",
    "metadata": "Annotated",
    "strict": "additionalProperties",
    "output": "plain text",
}
# Where the edits go: the end of get_weather's `city:` docstring line.
CITY_LINE = 'e.g. "Paris" or "San Francisco, CA".'
EDITS = 5
LATENCY_LIMIT_MS = 2000

KERNEL_READY_JS = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  return !!k && k.connectionStatus === 'connected' && k.status === 'idle';
}"""

# Put the caret right after `needle` in the editor, and focus it.
CARET_JS = """([selector, needle]) => {
  const ta = document.querySelector(selector);
  const at = ta.value.indexOf(needle);
  if (at < 0) return -1;
  ta.focus();
  ta.setSelectionRange(at + needle.length, at + needle.length);
  return at;
}"""

# Record every keydown in the editor and the first moment each panel's text contains
# `marker`, all on the page's own clock (performance.now()).
WATCH_JS = """([editor, panels, marker]) => {
  const old = window.__tlWatch;
  if (old) { old.observer.disconnect(); old.ta.removeEventListener('keydown', old.onKey, true); }
  const ta = document.querySelector(editor);
  const watch = {ta, keys: [], seen: {}};
  watch.onKey = () => watch.keys.push(performance.now());
  ta.addEventListener('keydown', watch.onKey, true);
  const els = Object.fromEntries(
    panels.map(p => [p, document.querySelector(`.tl-explorer .widget-html.tl-panel-${p}`)]));
  const check = () => {
    const now = performance.now();
    for (const [name, el] of Object.entries(els)) {
      if (!(name in watch.seen) && el.textContent.includes(marker)) watch.seen[name] = now;
    }
  };
  watch.observer = new MutationObserver(check);
  for (const el of Object.values(els)) {
    watch.observer.observe(
      el, {subtree: true, childList: true, characterData: true, attributes: true});
  }
  window.__tlWatch = watch;
}"""

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
    // (an ipywidgets Button draws its icon as <i class="fa ...">: not ours to check)
    for (const el of root.querySelectorAll('script, img, svg, iframe, b, i:not(.fa)')) {
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


def _fresh_copy(source: Path, target: Path) -> None:
    """The notebook without saved outputs, so the front end must execute it live."""
    nb = nbformat.read(source, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    nb.metadata.pop("widgets", None)
    nbformat.write(nb, target)


def _xss_notebook(target: Path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [
        nbformat.v4.new_code_cell(XSS_SOURCE.strip()),
        nbformat.v4.new_code_cell("toollens.Explorer(evil_tool)"),
        nbformat.v4.new_code_cell("toollens.report(evil_tool)"),
    ]
    nbformat.write(nb, target)


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    """Copies of the notebooks (Lab autosaves into what it opens), in a private tmp dir."""
    tmp = make_tmp("toollens-nb-")
    _fresh_copy(QUICKSTART, tmp / QUICKSTART.name)
    _xss_notebook(tmp / "payloads.ipynb")
    yield tmp
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def servers(watchdog: None, workdir: Path) -> Iterator[dict[str, Server]]:
    """Voila and JupyterLab, started together (each takes seconds to boot on 2 cores)."""
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


def _expect_four_views(page: Any) -> None:
    expect(page.locator(EDITOR)).to_be_visible(timeout=120_000)
    for panel, text in VIEWS.items():
        locator = page.locator(PANEL.format(panel))
        expect(locator).to_be_visible()
        expect(locator).to_contain_text(text)


@pytest.fixture(scope="module")
def voila_page(browser: Any, voila: Server, artifacts: Path) -> Iterator[Any]:
    page = _open_voila(browser, voila, QUICKSTART.name)
    try:
        yield page
    except BaseException:
        page.screenshot(path=str(artifacts / "voila_FAILED.png"))
        print(voila.log_tail())
        raise
    finally:
        page.close()


def _caret_after(page: Any, needle: str) -> None:
    assert page.evaluate(CARET_JS, [EDITOR, needle]) >= 0, f"{needle!r} not in the editor"


def _timed_edit(page: Any, marker: str) -> dict[str, float]:
    """Type ` marker` after the city line; ms from the last keystroke to each view's change."""
    page.evaluate(WATCH_JS, [EDITOR, ["metadata", "strict"], marker])
    _caret_after(page, CITY_LINE)
    page.keyboard.type(" " + marker, delay=20)  # real key events, a fast typist
    page.wait_for_function(
        "() => window.__tlWatch && Object.keys(window.__tlWatch.seen).length === 2",
        timeout=10_000,
    )
    watch = page.evaluate("() => ({keys: window.__tlWatch.keys, seen: window.__tlWatch.seen})")
    last_key = max(watch["keys"])
    assert len(watch["keys"]) == len(marker) + 1, watch["keys"]
    return {name: round(at - last_key, 1) for name, at in watch["seen"].items()}


# ---------------------------------------------------------------------------------------


def test_voila_renders_the_four_views(voila_page: Any, artifacts: Path) -> None:
    _expect_four_views(voila_page)
    explorer = voila_page.locator(EXPLORER)
    explorer.scroll_into_view_if_needed()
    voila_page.screenshot(path=str(artifacts / "voila_rendered.png"))
    # Voila scrolls inside its own container, so content below the viewport would be blank
    # in an element screenshot: make the window as tall as the explorer for this one.
    height = int(explorer.bounding_box()["height"]) + 200
    voila_page.set_viewport_size({"width": 1400, "height": max(1000, height)})
    try:
        explorer.screenshot(path=str(artifacts / "explorer.png"))
    finally:
        voila_page.set_viewport_size({"width": 1400, "height": 1000})


def test_typing_updates_metadata_and_strict_views_quickly(voila_page: Any, artifacts: Path) -> None:
    _expect_four_views(voila_page)
    runs = []
    for n in range(1, EDITS + 1):
        marker = f"tlmark{n}q"
        seen = _timed_edit(voila_page, marker)
        runs.append({"marker": marker, **seen, "both": max(seen.values())})
        assert marker in voila_page.locator(EDITOR).input_value()
    voila_page.screenshot(path=str(artifacts / "voila_after_edits.png"))
    both = [run["both"] for run in runs]
    result = {
        "front_end": "voila",
        "browser": "chromium (headless)",
        "edits": len(runs),
        "measured": "ms from the last keystroke (keydown) to the Metadata and Strict views "
        "both showing the typed text; includes the explorer's 150 ms debounce",
        "median_ms": round(statistics.median(both), 1),
        "max_ms": max(both),
        "runs": runs,
    }
    (artifacts / "browser_latency.json").write_text(json.dumps(result, indent=2) + "\n")
    print("edit -> views latency (ms):", both, "median:", result["median_ms"])
    assert max(both) <= LATENCY_LIMIT_MS, runs


def test_syntax_error_shows_banner_and_keeps_text(voila_page: Any, artifacts: Path) -> None:
    _expect_four_views(voila_page)
    editor = voila_page.locator(EDITOR)
    banner = voila_page.locator(f"{EXPLORER} .tl-banner")
    panels = voila_page.locator(f"{EXPLORER} .tl-panels")
    broken = " oops("
    _caret_after(voila_page, "-> str:")
    voila_page.keyboard.type(broken, delay=20)
    expect(banner).to_be_visible(timeout=5_000)
    expect(banner).to_have_class(has_class("tl-banner-error"))
    expect(banner).to_contain_text("Line")
    expect(panels).to_have_class(has_class("tl-stale"))
    assert "-> str:" + broken in editor.input_value(), "the typed text was lost"
    banner.scroll_into_view_if_needed()
    voila_page.screenshot(path=str(artifacts / "voila_syntax_error.png"))

    for _ in broken:
        voila_page.keyboard.press("Backspace")
    expect(banner).to_be_hidden(timeout=5_000)
    expect(panels).not_to_have_class(has_class("tl-stale"))
    assert broken not in editor.input_value()
    voila_page.screenshot(path=str(artifacts / "voila_fixed.png"))


def test_html_in_docstrings_renders_as_text(browser: Any, voila: Server, artifacts: Path) -> None:
    page = _open_voila(browser, voila, "payloads.ipynb")
    try:
        explorer = page.locator(EXPLORER)
        expect(page.locator(EDITOR)).to_be_visible(timeout=120_000)
        metadata = page.locator(PANEL.format("metadata"))
        expect(metadata).to_contain_text(PAYLOAD_SUMMARY.split(" a city")[0])
        expect(metadata).to_contain_text(PAYLOAD_CITY)
        expect(page.locator(PANEL.format("strict"))).to_contain_text(
            '<iframe src=\\"javascript:window.__pwned=1\\"></iframe>'
        )
        # the static report (text/html output) as well as the widget
        static = page.locator(".tl-root:not(.tl-explorer)")
        expect(static.first).to_contain_text("<script>window.__pwned=1</script>")
        expect(static.first).to_contain_text('<a href="javascript:window.__pwned=1">click me</a>')
        # Hovering would fire an injected onmouseover handler.
        for target in page.locator(".tl-root td, .tl-root li, .tl-root code").all()[:25]:
            if target.is_visible():
                target.hover(timeout=2_000)
        injected = page.evaluate(INJECTED_JS)
        explorer.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "voila_payloads.png"))
        assert injected["roots"] >= 2, injected
        assert injected["bad"] == [], injected["bad"]
        assert page.evaluate("() => typeof window.__pwned") == "undefined"
    finally:
        page.close()


def test_jupyterlab_renders_the_four_views_and_follows_edits(
    browser: Any, lab: Server, artifacts: Path
) -> None:
    page = browser.new_page()
    try:
        page.goto(lab.url(f"/lab/tree/{QUICKSTART.name}?reset"), wait_until="domcontentloaded")
        page.wait_for_function("window.jupyterapp !== undefined", timeout=90_000)
        expect(page.locator(".jp-NotebookPanel:visible")).to_have_count(1, timeout=90_000)
        page.wait_for_function(KERNEL_READY_JS, timeout=120_000, polling=250)
        # Fire and forget: awaiting the command's promise can block evaluate() for good.
        page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
        _expect_four_views(page)
        page.locator(EXPLORER).scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "jupyterlab_rendered.png"))
        started = time.monotonic()
        _caret_after(page, CITY_LINE)
        page.keyboard.type(" labmarkq", delay=20)
        expect(page.locator(PANEL.format("metadata"))).to_contain_text("labmarkq", timeout=5_000)
        expect(page.locator(PANEL.format("strict"))).to_contain_text("labmarkq", timeout=5_000)
        print(f"jupyterlab: edit reflected after {time.monotonic() - started:.2f}s (incl. typing)")
        page.screenshot(path=str(artifacts / "jupyterlab_after_edit.png"))
    except BaseException:
        page.screenshot(path=str(artifacts / "jupyterlab_FAILED.png"))
        print(lab.log_tail())
        raise
    finally:
        page.close()


def has_class(cls: str) -> Any:
    """A pattern matching a class list that contains ``cls``."""
    import re

    return re.compile(rf"(^|\s){re.escape(cls)}(\s|$)")
