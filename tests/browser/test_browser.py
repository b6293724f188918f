"""The explorer in real browsers: Debian's Chromium driving Voila, JupyterLab 4, Notebook 7
and marimo.

What a unit test cannot see: that the one anywidget renders in each front end, that the
CodeMirror editor indents, marks errors at their line and keeps the cursor, that typing
reaches the kernel and comes back as new views quickly (and flashes what changed), that the
Strict view marks what strict mode added, that clicking a view lands on its source, and
that HTML in a docstring stays text. Screenshots go to ``tests/artifacts/``. Every step
waits on the page's state (the editor's document, the views' text), never on time; how
fast an edit shows is measured by ``benchmarks/bench_browser_latency.py``, not asserted.

Servers listen on 127.0.0.1 only, with a random token and private Jupyter directories, and
are always shut down with their kernels (see ``servers.py``). Skipped without Chromium or
Playwright. ``CHROMIUM`` overrides the browser path, ``BROWSER_TEST_BUDGET`` the watchdog.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from explorer_pages import KERNEL_READY_JS, chromium
from scenario import (
    CITY_LINE,
    CONTENT,
    EDITOR,
    EXPLORER,
    FOCUS_JS,
    HAS_TEXT_JS,
    LOOP_LINE,
    NOTEBOOK,
    SETUP,
    SLOT,
    WATCH_JS,
    caret_after,
    editor_text,
    expect_views,
    open_voila,
    timed_edit,
    type_text,
    write_notebook,
)
from servers import (
    Server,
    make_tmp,
    playwright_api,
    start_lab,
    start_marimo,
    start_voila,
    stop,
)

sync_api = playwright_api()
expect = sync_api.expect

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
# A hang guard for the whole module, far above its 1-2 minutes even on a loaded machine.
BUDGET_S = int(os.environ.get("BROWSER_TEST_BUDGET", "1500"))

NB7_NOTEBOOK = "explorer_nb7.ipynb"
DIFF_CELL = (
    "def get_forecast(city: str, days: int = 1) -> str:\n"
    '    """Weather."""\n'
    "    return city\n\n"
    "toollens.DiffWidget(get_weather, get_forecast)"
)
EDITS = 3
FRAMEWORK_PAIR = ("openai-agents", "mcp")  # installed by the test extra on every Python

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


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    """The test notebooks and marimo app, in a private tmp dir (Lab autosaves into them)."""
    tmp = make_tmp("toollens-nb-")
    write_notebook(tmp / NOTEBOOK, SETUP, "%toolschema get_weather", DIFF_CELL)
    # Notebook 7 gets its own copy: a session (and kernel) per notebook path.
    write_notebook(tmp / NB7_NOTEBOOK, SETUP, "%toolschema get_weather")
    write_notebook(
        tmp / "payloads.ipynb",
        XSS_SOURCE.strip(),
        "toollens.Explorer(evil_tool)",
        "toollens.report(evil_tool)",
    )
    write_notebook(
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
    with chromium(sync_api, "toollens-chromium-") as context:
        yield context


@pytest.fixture(scope="module")
def voila_page(browser: Any, voila: Server, artifacts: Path) -> Iterator[Any]:
    page = open_voila(browser, voila, NOTEBOOK)
    try:
        expect_views(page)
        yield page
    except BaseException:
        page.screenshot(path=str(artifacts / "voila_FAILED.png"))
        print(voila.log_tail())
        raise
    finally:
        page.close()


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
        }"""
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


def test_typing_updates_views_and_flashes_what_changed(voila_page: Any, artifacts: Path) -> None:
    flashed = []
    for n in range(1, EDITS + 1):
        marker = f"tlmark{n}q"
        result = timed_edit(voila_page, marker)  # returns once both views show the marker
        assert set(result["seen"]) == {"metadata", "strict"}, result
        flashed += result["flashed"]
        assert marker in editor_text(voila_page)
    changes = voila_page.locator(f"{EXPLORER} .tl-panel-changes")
    expect(changes).to_contain_text("Last edit")
    expect(changes).to_contain_text("/properties/city")
    assert any("tlmark" in text for text in flashed), flashed  # the changed line flashed
    voila_page.screenshot(path=str(artifacts / "voila_after_edits.png"))
    # ... and a moment later nothing is marked any more (a flash lasts 1.6 s)
    expect(voila_page.locator(f"{EXPLORER} .tl-flash")).to_have_count(0, timeout=10_000)


def test_enter_keeps_indent_tab_indents_and_errors_are_marked_at_their_line(
    voila_page: Any, artifacts: Path
) -> None:
    page = voila_page
    original = editor_text(page)
    banner = page.locator(f"{EXPLORER} .tl-banner")
    caret_after(page, LOOP_LINE)
    page.keyboard.press("Enter")  # after a colon: one level deeper
    text = type_text(page, "probe = day")
    assert "    for day in range(days):\n        probe = day\n" in text
    caret_after(page, "    lines = []")
    page.keyboard.press("Enter")  # after a statement: the same level
    text = type_text(page, "extra = 0")
    assert "    lines = []\n    extra = 0\n" in text
    line = editor_text(page).split("\n").index("    extra = 0") + 1
    expect(page.locator(f"{EXPLORER} .tl-panel-changes")).to_contain_text("Last edit")
    expect(banner).to_be_empty()

    page.keyboard.press("Tab")  # indents the line, focus stays in the editor
    page.wait_for_function(HAS_TEXT_JS, arg="\n        extra = 0\n")
    assert page.evaluate(FOCUS_JS)
    # unexpected indent: banner, gutter mark and underline at the line
    expect(banner).to_contain_text(f"Line {line}")
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
    expect(banner).to_be_empty()
    expect(page.locator(f"{EDITOR} .cm-lint-marker-error")).to_have_count(0)
    # undo history survived every re-render: undo back to the original text
    for _ in range(30):
        if editor_text(page) == original:
            break
        page.keyboard.press("Control+z")
    assert editor_text(page) == original


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
    page = open_voila(browser, voila, "payloads.ipynb")
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
                target.hover()
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
        expect_views(page)
        page.locator(EXPLORER).scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"{name}_rendered.png"))
        caret_after(page, CITY_LINE)
        page.keyboard.type(f" {name}markq", delay=20)
        expect(page.locator(SLOT.format("metadata"))).to_contain_text(f"{name}markq")
        expect(page.locator(SLOT.format("strict"))).to_contain_text(f"{name}markq")
        # Enter keeps the indent here too (the front end's own keymap, not the notebook's)
        caret_after(page, LOOP_LINE)
        page.keyboard.press("Enter")
        assert "\n        probe = day\n" in type_text(page, "probe = day")
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
        expect_views(page)
        caret_after(page, CITY_LINE)
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
    page = open_voila(browser, voila, "frameworks.ipynb")
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
        expect(view.locator(f'[data-pair="{pair}"]')).to_be_visible()
        view.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "frameworks_1400.png"), full_page=True)
    except BaseException:
        page.screenshot(path=str(artifacts / "frameworks_FAILED.png"))
        print(voila.log_tail())
        raise
    finally:
        page.close()
