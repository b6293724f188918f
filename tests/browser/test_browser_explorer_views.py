"""The explorer's views in real browsers (Voila, JupyterLab, Notebook 7, marimo): the change
list against the opened schema, the four views side by side at 1,400 and 1,000 px, a
240-parameter tool being editable. Behaviour only, never timing (the timing is
``benchmarks/bench_browser_explorer.py``). Screenshots go to ``tests/artifacts/``.

Run one test at a time on a shared machine, e.g.
``pytest tests/browser/test_browser_explorer_views.py -k "voila and change_list"``.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
from scenario import VIEW_JS
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

from support.big_tools import big_tool_source  # noqa: E402

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
EXPLORER = ".tl-xp"
CHANGES = f"{EXPLORER} .tl-panel-changes"
VIEWS = ("signature", "metadata", "strict", "output")
TRIP = '''
from typing import Annotated
from pydantic import Field

def plan_trip(
    city: str,
    days: Annotated[int, Field(ge=1, le=7)] = 1,
) -> str:
    """Plan a trip.

    Args:
        city: The city to visit.
        days: How many days.
    """
    return city
'''
NOTEBOOKS = {
    "trip.ipynb": ("import toollens\nfrom trip import plan_trip", "toollens.Explorer(plan_trip)"),
    "big.ipynb": ("import toollens\nfrom bigtool import big_tool", "toollens.Explorer(big_tool)"),
}
# The same tools as marimo apps (marimo's default, narrow column: the app's default width).
MARIMO_APP = """
import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo

    import toollens
    from {module} import {name}

    explorer = mo.ui.anywidget(toollens.Explorer({name}))
    explorer
    return


if __name__ == "__main__":
    app.run()
"""
MARIMO_APPS = {"trip.ipynb": ("trip", "plan_trip"), "big.ipynb": ("bigtool", "big_tool")}
FRONT_ENDS = ("voila", "jupyterlab", "notebook7", "marimo")

# Select `text` in the editor (the CodeMirror view the front end hangs on .tl-editor; in
# marimo it sits in a shadow root, which VIEW_JS's tlView() searches too).
SELECT_JS = (
    "([text, caretAfter]) => {"
    + VIEW_JS
    + """
  const view = tlView();
  const at = view.state.doc.toString().indexOf(text);
  if (at < 0) return -1;
  view.focus();
  const range = caretAfter ? {anchor: at + text.length} : {anchor: at, head: at + text.length};
  view.dispatch({selection: range, scrollIntoView: true});
  return at;
}"""
)
KERNEL_READY_JS = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  return !!k && k.connectionStatus === 'connected' && k.status === 'idle';
}"""


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    tmp = make_tmp("toollens-views-nb-")
    (tmp / "trip.py").write_text(TRIP.lstrip())
    (tmp / "bigtool.py").write_text(big_tool_source(240))
    for name, cells in NOTEBOOKS.items():
        nb = nbformat.v4.new_notebook()
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
        nb.cells = [nbformat.v4.new_code_cell(cell) for cell in cells]
        nbformat.write(nb, tmp / name)
    for notebook, (module, name) in MARIMO_APPS.items():
        app = MARIMO_APP.format(module=module, name=name).lstrip()
        (tmp / _marimo_app(notebook)).write_text(app)
    yield tmp
    shutil.rmtree(tmp, ignore_errors=True)


def _marimo_app(notebook: str) -> str:
    return notebook.replace(".ipynb", "_app.py")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    tmp = make_tmp("toollens-views-chromium-")
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


@pytest.fixture(scope="module", params=FRONT_ENDS)
def front_end(request: Any, workdir: Path) -> Iterator[tuple[str, Server]]:
    """A Voila, JupyterLab or marimo server on the test notebooks (one at a time: a shared
    machine); marimo serves the folder's apps (``/?file=<app>``)."""
    tmp = make_tmp(f"toollens-views-{request.param}-")
    if request.param == "marimo":
        pytest.importorskip("marimo")
        server = start_marimo(tmp, workdir, ".")
    else:
        start = start_voila if request.param == "voila" else start_lab
        server = start(tmp, workdir)
    try:
        server.wait_ready()
        yield request.param, server
    finally:
        stop(server)
        shutil.rmtree(tmp, ignore_errors=True)


def _open(browser: Any, front_end: tuple[str, Server], notebook: str) -> Any:
    """A page showing the explorer of ``notebook``, its four views rendered."""
    kind, server = front_end
    page = browser.new_page()
    if kind == "voila":
        page.goto(server.url(f"/voila/render/{notebook}"), wait_until="domcontentloaded")
    elif kind == "marimo":
        page.goto(server.url(f"/?file={_marimo_app(notebook)}"), wait_until="domcontentloaded")
    else:
        path = f"/lab/tree/{notebook}?reset" if kind == "jupyterlab" else f"/notebooks/{notebook}"
        page.goto(server.url(path), wait_until="domcontentloaded")
        page.wait_for_function("window.jupyterapp !== undefined", timeout=90_000)
        page.wait_for_function(KERNEL_READY_JS, timeout=120_000, polling=250)
        page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
        # The file browser takes a quarter of a 1,000 px window: give the notebook the width
        # (in ~550 px of output the views stack in one column, as in a narrow notebook).
        page.evaluate(
            "() => { const s = window.jupyterapp.shell; if (s.collapseLeft) s.collapseLeft(); }"
        )
    for view in VIEWS:
        expect(page.locator(f"{EXPLORER} .tl-slot-{view} .tl-panel")).to_be_visible(timeout=180_000)
    page.locator(EXPLORER).scroll_into_view_if_needed()
    return page


def _select(page: Any, text: str, *, caret_after: bool = False) -> None:
    assert page.evaluate(SELECT_JS, [text, caret_after]) >= 0, text


def _since(page: Any) -> str:
    """The change list's text before the last edit's own line."""
    return str(page.locator(f"{CHANGES} .tl-changes-body").inner_text()).split("Last ")[0]


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


def test_change_list_says_what_changed_since_the_tool_was_opened(
    browser: Any, front_end: tuple[str, Server], artifacts: Path
) -> None:
    page = _open(browser, front_end, "trip.ipynb")
    try:
        box = page.locator(CHANGES)
        expect(box).to_have_class(re.compile(r"\btl-changes-empty\b"))  # collapsed: nothing yet
        assert box.bounding_box()["height"] < 40
        _select(page, "7)]")  # the 7 of le=7 (and what follows it, retyped)
        page.keyboard.type("1)]", delay=150)
        expect(box).to_contain_text("from 7 to 1")
        _select(page, "1)]")
        page.keyboard.type("14)]", delay=150)  # a normal pace: the views follow each key
        expect(box).to_contain_text("from 7 to 14")
        expect(box).not_to_have_class(re.compile(r"\btl-changes-empty\b"))
        since = _since(page)
        assert "1 change" in since
        assert "from 1 " not in since  # the intermediate 1 is not what the author changed
        expect(box).to_contain_text("Last edit")
        # a new parameter line ending in "," still lists the new parameter
        _select(page, "= 1,\n", caret_after=True)
        page.keyboard.type("    budget: int = 0,", delay=40)
        expect(box).to_contain_text("/properties/budget")
        expect(box).not_to_contain_text("did not change the schema")
        page.screenshot(path=str(artifacts / f"change_list_{front_end[0]}.png"))
    finally:
        page.close()


def _boxes(page: Any) -> dict[str, dict[str, float]]:
    return {v: page.locator(f"{EXPLORER} .tl-slot-{v}").bounding_box() for v in VIEWS}


@pytest.mark.parametrize("width", [1400, 1000])
def test_four_views_sit_side_by_side(
    browser: Any, front_end: tuple[str, Server], artifacts: Path, width: int
) -> None:
    page = _open(browser, front_end, "trip.ipynb")
    try:
        page.set_viewport_size({"width": width, "height": 1000})
        page.locator(f"{EXPLORER} .tl-slot-signature").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"explorer_views_{front_end[0]}_{width}.png"))
        boxes = _boxes(page)
        for view, box in boxes.items():  # every view has room, inside the window
            assert box["width"] > 150, (view, box)
            assert box["height"] > 100, (view, box)
            assert box["x"] >= 0, (view, box)
            assert box["x"] + box["width"] <= width, (view, box)
        assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
        # nothing changed yet: the change list is one line
        changes = page.locator(CHANGES)
        expect(changes).to_have_class(re.compile(r"\btl-changes-empty\b"))
        assert changes.bounding_box()["height"] < 40
        # a 2x2 grid: Signature | Metadata over Strict | Output, all on one screen
        assert boxes["signature"]["y"] == boxes["metadata"]["y"]
        assert boxes["strict"]["y"] == boxes["output"]["y"]
        assert boxes["signature"]["x"] < boxes["metadata"]["x"]
        top = min(b["y"] for b in boxes.values())
        bottom = max(b["y"] + b["height"] for b in boxes.values())
        assert bottom - top <= 1000, boxes
        # the toolbar is one row
        items = page.locator(f"{EXPLORER} .tl-toolbar > *")
        tops = {round(items.nth(i).bounding_box()["y"]) for i in range(items.count())}
        assert max(tops) - min(tops) < 12, tops
        # rule tags take no space on a line without one
        strict = page.locator(f"{EXPLORER} .tl-slot-strict .tl-inline-view")
        untagged = strict.locator(".tl-dl:not([data-rule])").first
        assert untagged.locator(".tl-gut").evaluate("el => getComputedStyle(el).display") == "none"
        tagged = strict.locator(".tl-dl[data-rule]").first
        assert tagged.locator(".tl-gtag").count() >= 1
    finally:
        page.close()


def test_a_240_parameter_tool_is_editable(
    browser: Any, front_end: tuple[str, Server], artifacts: Path
) -> None:
    page = _open(browser, front_end, "big.ipynb")
    try:
        expect(page.locator(f"{EXPLORER} .tl-slot-signature")).to_contain_text("240 in schema")
        for step, slot in enumerate((16, 200)):
            _select(page, f"The value of slot {slot}", caret_after=True)
            marker = f" edited{step}q"
            page.keyboard.type(marker, delay=40)
            for view in ("metadata", "strict"):
                expect(page.locator(f"{EXPLORER} .tl-slot-{view}")).to_contain_text(
                    marker.strip(), timeout=30_000
                )
            expect(page.locator(CHANGES)).to_contain_text(f"/properties/p{slot}")
        expect(page.locator(CHANGES)).to_contain_text("2 changes")
        page.screenshot(path=str(artifacts / f"big_tool_{front_end[0]}.png"))
    finally:
        page.close()
