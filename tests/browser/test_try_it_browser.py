"""The explorer's Try-it view in real browsers (Voila, JupyterLab): open it, edit the
arguments and see the problem marked at its pointer, Call, then edit the function and see the
example re-checked. Behaviour only; screenshots at 1,400 and 1,000 px go to tests/artifacts/.

Run one front end at a time on a shared machine:
``pytest tests/browser/test_try_it_browser.py -k voila``.
"""

from __future__ import annotations

import os
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

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
EXPLORER = ".tl-xp"
TRY = f"{EXPLORER} .tl-try"
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
    return f"{days} days in {city}"
'''
KERNEL_READY_JS = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  return !!k && k.connectionStatus === 'connected' && k.status === 'idle';
}"""
# Select `text` in one of the explorer's editors (each hangs its CodeMirror view on its box;
# tlFind pierces marimo's shadow root).
SELECT_JS = (
    """([box, text, caretAfter]) => {"""
    + VIEW_JS
    + """
  const view = tlFind(box).tlView;
  const at = view.state.doc.toString().indexOf(text);
  if (at < 0) return -1;
  view.focus();
  const range = caretAfter ? {anchor: at + text.length} : {anchor: at, head: at + text.length};
  view.dispatch({selection: range, scrollIntoView: true});
  return at;
}"""
)
ARGUMENTS_JS = (
    "() => {" + VIEW_JS + "return tlFind('.tl-xp .tl-try-editor').tlView.state.doc.toString(); }"
)
MARIMO_APP = """
import marimo

app = marimo.App(width="full")


@app.cell
def _():
    import marimo as mo

    import toollens
    from trip import plan_trip

    explorer = mo.ui.anywidget(toollens.Explorer(plan_trip))
    explorer
    return


if __name__ == "__main__":
    app.run()
"""


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    tmp = make_tmp("toollens-try-nb-")
    (tmp / "trip.py").write_text(TRIP.lstrip())
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nb.cells = [
        nbformat.v4.new_code_cell("import toollens\nfrom trip import plan_trip"),
        nbformat.v4.new_code_cell("toollens.Explorer(plan_trip)"),
    ]
    nbformat.write(nb, tmp / "trip.ipynb")
    (tmp / "try_app.py").write_text(MARIMO_APP.lstrip())
    yield tmp
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    tmp = make_tmp("toollens-try-chromium-")
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


@pytest.fixture(scope="module", params=("voila", "jupyterlab", "marimo"))
def front_end(request: Any, workdir: Path) -> Iterator[tuple[str, Server]]:
    tmp = make_tmp(f"toollens-try-{request.param}-")
    if request.param == "marimo":
        pytest.importorskip("marimo")
        server = start_marimo(tmp, workdir, "try_app.py")
    else:
        start = start_voila if request.param == "voila" else start_lab
        server = start(tmp, workdir)
    try:
        server.wait_ready()
        yield request.param, server
    finally:
        stop(server)
        shutil.rmtree(tmp, ignore_errors=True)


def _open(browser: Any, front_end: tuple[str, Server]) -> Any:
    kind, server = front_end
    page = browser.new_page()
    if kind == "voila":
        page.goto(server.url("/voila/render/trip.ipynb"), wait_until="domcontentloaded")
    elif kind == "marimo":
        page.goto(server.url("/"), wait_until="domcontentloaded", timeout=120_000)
    else:
        page.goto(server.url("/lab/tree/trip.ipynb?reset"), wait_until="domcontentloaded")
        page.wait_for_function("window.jupyterapp !== undefined", timeout=90_000)
        page.wait_for_function(KERNEL_READY_JS, timeout=120_000, polling=250)
        page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
        page.evaluate(
            "() => { const s = window.jupyterapp.shell; if (s.collapseLeft) s.collapseLeft(); }"
        )
    expect(page.locator(f"{EXPLORER} .tl-slot-strict .tl-panel")).to_be_visible(timeout=180_000)
    return page


def _select(page: Any, box: str, text: str, *, caret_after: bool = False) -> None:
    assert page.evaluate(SELECT_JS, [box, text, caret_after]) >= 0, text


def test_try_it_checks_calls_and_follows_the_function(
    browser: Any, front_end: tuple[str, Server]
) -> None:
    page = _open(browser, front_end)
    status = page.locator(f"{TRY} .tl-try-status")
    try:
        expect(page.locator(f"{TRY} .tl-try-editor")).to_be_hidden()  # folded until opened
        page.locator(f"{TRY} > summary").click()
        expect(status).to_contain_text("plan_trip(city='', days=1)")
        assert '"days": 1' in page.evaluate(ARGUMENTS_JS)

        # An out-of-range value: marked in the editor at /days, listed with its pointer.
        _select(page, f"{TRY} .tl-try-editor", '"days": 1')
        page.keyboard.type('"days": 9', delay=60)
        expect(status).to_contain_text("/days")
        expect(status).to_contain_text("The model is told")
        mark = page.locator(f"{TRY} .tl-try-editor .cm-lintRange-error").first
        expect(mark).to_have_text("9")

        # Fixed and called: the result only after Call.
        _select(page, f"{TRY} .tl-try-editor", "9")
        page.keyboard.type("3", delay=60)
        expect(status).to_contain_text("accepted")
        expect(status).not_to_contain_text("model reads")
        page.locator(f"{TRY} button", has_text="Call").click()
        expect(status).to_contain_text("3 days in ")
        expect(status.locator(".tl-try-result")).to_have_attribute("data-status", "returned")

        # The function gains a required parameter: the same arguments, now marked.
        _select(page, f"{EXPLORER} .tl-editor", "    city: str,\n", caret_after=True)
        page.keyboard.type("    country: str,\n", delay=30)
        expect(status).to_contain_text("/country")
        expect(status).to_contain_text("from an earlier call")
        assert '"days": 3' in page.evaluate(ARGUMENTS_JS), "the example is never replaced"

        for width in (1400, 1000):
            page.set_viewport_size({"width": width, "height": 1000})
            page.locator(TRY).scroll_into_view_if_needed()
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"try_it_{front_end[0]}_{width}.png"))
            box = page.locator(TRY).bounding_box()
            assert box["width"] <= width
    finally:
        page.close()
