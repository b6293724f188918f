"""The toolset's static HTML page in Chromium, offline: it renders, sorts, filters and links.

Every request other than the page itself is recorded and refused, so a page that needed the
network (a CDN script, a web font) fails here.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path
from typing import Any

import pytest

import toollens
from toollens.render.toolset_html import render_toolset_page

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is not installed (set CHROMIUM=...)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


def _tools() -> list[object]:
    def zeta(a: int) -> int:
        """Zeta: add one to a whole number and return it."""
        return a

    def alpha(b: str, c: str) -> str:
        """Alpha: join two strings with a space between them."""
        return b

    bad = {"name": "get page", "input_schema": {"type": "object"}}
    return [zeta, alpha, bad, {"oops": 1}]


def test_static_page_offline(tmp_path: Path) -> None:
    page_file = tmp_path / "toolset.html"
    page_file.write_text(render_toolset_page(toollens.toolset(_tools())), encoding="utf-8")
    ARTIFACTS.mkdir(exist_ok=True)
    requests: list[str] = []
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.route(
                "**/*",
                lambda route: (
                    route.continue_()
                    if route.request.url.startswith("file:")
                    else (requests.append(route.request.url), route.abort())
                ),
            )
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(page_file.as_uri())
            names = "rows => rows.filter(r => !r.hidden).map(r => r.cells[1].textContent)"
            assert page.eval_on_selector_all(".tl-ts-row", names) == [
                "zeta",
                "alpha",
                "get page",
                "#3",
            ]
            page.click(".tl-ts-tools th:nth-child(2)")  # sort by tool name
            assert page.eval_on_selector_all(".tl-ts-row", names) == [
                "#3",
                "alpha",
                "get page",
                "zeta",
            ]
            page.fill(".tl-ts-filter", "zeta")
            assert page.eval_on_selector_all(".tl-ts-row", names) == ["zeta"]
            page.fill(".tl-ts-filter", "")
            page.select_option(".tl-ts-level", "0")  # errors only
            shown = page.eval_on_selector_all(".tl-ts-row", names)
            assert shown == ["#3", "get page"]
            page.select_option(".tl-ts-level", "")
            page.click("text=alpha")
            assert page.evaluate("location.hash") == "#tl-tool-1"
            page.screenshot(path=str(ARTIFACTS / "toolset_page_1400.png"))
            page.set_viewport_size({"width": 1000, "height": 900})
            page.screenshot(path=str(ARTIFACTS / "toolset_page_1000.png"))
            assert errors == []
        finally:
            browser.close()
    assert requests == []


TOOLSET_CELL = '''
from toollens.jupyter import ToolsetView

def zeta(a: int) -> int:
    """Zeta: add one to a whole number and return it.

    Args:
        a: the number.
    """
    return a + 1

def alpha(b: str, c: str) -> str:
    """Alpha: join two strings with a space between them.

    Args:
        b: the first string.
        c: the second string.
    """
    return b + " " + c

page = {"name": "get page", "description": "Get a <b>page</b>.", "input_schema": {"type": "object"}}
ToolsetView([zeta, alpha, page], providers=["openai-chat", "anthropic"])
'''


# The same tools as a marimo app: the table in one cell, the clicked tool in another (marimo
# re-runs it on each click; it builds widgets only while a cell runs).
MARIMO_APP = """import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo
{cell}
    table = mo.ui.anywidget(view.table)
    table
    return table, view


@app.cell
def _(table, view):
    view.open_tool(table.value["selected"])
    return


if __name__ == "__main__":
    app.run()
"""


def _marimo_app() -> str:
    cell = TOOLSET_CELL.strip().replace("ToolsetView([", "view = ToolsetView([")
    return MARIMO_APP.format(cell=textwrap.indent(cell, "    "))


def _exercise(page: Any, name: str) -> None:
    """Sort, filter, click a Python row into its explorer, click a JSON row (read-only)."""
    expect = sync_api.expect
    rows = page.locator(".tl-ts .tl-ts-row")
    expect(rows).to_have_count(3, timeout=120_000)
    names = "rs => rs.map(r => r.cells[1].textContent)"
    evaluate = page.eval_on_selector_all
    assert evaluate(".tl-ts .tl-ts-row", names) == ["zeta", "alpha", "get page"]
    page.locator(".tl-ts th", has_text="tool").click()
    assert evaluate(".tl-ts .tl-ts-row", names) == ["alpha", "get page", "zeta"]
    page.fill(".tl-ts .tl-ts-filter", "get")
    expect(rows).to_have_count(1)
    page.fill(".tl-ts .tl-ts-filter", "")
    expect(rows).to_have_count(3)
    rows.filter(has_text="alpha").click()
    explorer = page.locator(".tl-xp")
    expect(explorer).to_be_visible()
    expect(explorer.locator(".cm-editor")).to_contain_text("def alpha")
    expect(page.locator(".tl-ts-selected")).to_contain_text("alpha")
    for width in (1400, 1000):
        page.set_viewport_size({"width": width, "height": 1000})
        page.screenshot(path=str(ARTIFACTS / f"toolset_{name}_{width}.png"))
    rows.filter(has_text="get page").click()
    expect(page.locator(".tl-xp")).to_have_count(0)
    # The JSON tool opens read-only, its description as text (no <b> element): an HTML
    # widget under the table, or (marimo) the report in the next cell's output.
    shown = page.locator('.tl-root[data-toollens="report"]' if name == "marimo" else ".widget-html")
    detail = shown.filter(has_text="Get a <b>page</b>.")
    expect(detail).to_have_count(1)
    expect(detail.locator("b")).to_have_count(0)


def _in_server(tmp_path: Path, kind: str, path: str, name: str) -> None:
    import shutil

    import nbformat
    from explorer_pages import KERNEL_READY_JS
    from servers import launch_browser, make_tmp, start_lab, start_marimo, start_voila, stop

    work = make_tmp("toollens-ts-nb-")
    (work / "toolset_app.py").write_text(_marimo_app())
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [nbformat.v4.new_code_cell(TOOLSET_CELL.strip())]
    nbformat.write(nb, work / "toolset.ipynb")
    server_tmp = make_tmp(f"toollens-ts-{kind}-")
    if kind == "marimo":
        server = start_marimo(server_tmp, work, "toolset_app.py")
    else:
        server = (start_lab if kind == "lab" else start_voila)(server_tmp, work)
    ARTIFACTS.mkdir(exist_ok=True)
    try:
        server.wait_ready()
        with sync_api.sync_playwright() as pw:
            context = launch_browser(pw, tmp_path)
            context.set_default_timeout(120_000)
            try:
                page = context.new_page()
                page.goto(server.url(path), wait_until="domcontentloaded")
                if kind == "lab":
                    page.wait_for_function("window.jupyterapp !== undefined", timeout=90_000)
                    page.wait_for_function(KERNEL_READY_JS, timeout=120_000, polling=250)
                    page.evaluate(
                        "() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }"
                    )
                _exercise(page, name)
            finally:
                context.close()
    except BaseException:
        print(server.log_tail())
        raise
    finally:
        stop(server)
        shutil.rmtree(server_tmp, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)


def test_toolset_view_in_voila(tmp_path: Path) -> None:
    """Voila runs the notebook; the table renders, sorts, filters; a click opens the explorer."""
    _in_server(tmp_path, "voila", "/voila/render/toolset.ipynb", "voila")


def test_toolset_view_in_jupyterlab(tmp_path: Path) -> None:
    """The same in JupyterLab 4, after Run All."""
    _in_server(tmp_path, "lab", "/lab/tree/toolset.ipynb?reset", "jupyterlab")


def test_toolset_view_in_notebook7(tmp_path: Path) -> None:
    """The same in Notebook 7, after Run All."""
    _in_server(tmp_path, "lab", "/notebooks/toolset.ipynb", "notebook7")


def test_toolset_view_in_marimo(tmp_path: Path) -> None:
    """The same as a marimo app: the table opens the clicked tool inside itself."""
    pytest.importorskip("marimo")
    _in_server(tmp_path, "marimo", "/", "marimo")
