"""The toolset's static HTML page in Chromium, offline: it renders, sorts, filters and links.

Every request other than the page itself is recorded and refused, so a page that needed the
network (a CDN script, a web font) fails here.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
from servers import offline_browser, offline_page, playwright_api

import toollens
from toollens.render.toolset_page import render_toolset_page

sync_api = playwright_api()

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


SHOWN = "rows => rows.map(r => r.cells[1].textContent)"


def test_static_page_offline(tmp_path: Path) -> None:
    page_file = tmp_path / "toolset.html"
    page_file.write_text(render_toolset_page(toollens.toolset(_tools())), encoding="utf-8")
    ARTIFACTS.mkdir(exist_ok=True)
    with offline_page(sync_api, page_file) as page:
        rows = ".tl-ts-row"
        assert page.eval_on_selector_all(rows, SHOWN) == ["zeta", "alpha", "get page", "#3"]
        page.click(".tl-ts-tools th:nth-child(2)")  # sort by tool name
        assert page.eval_on_selector_all(rows, SHOWN) == ["#3", "alpha", "get page", "zeta"]
        page.fill(".tl-ts-filter", "zeta")
        assert page.eval_on_selector_all(rows, SHOWN) == ["zeta"]
        page.fill(".tl-ts-filter", "")
        page.select_option(".tl-ts-level", "0")  # errors only
        assert page.eval_on_selector_all(rows, SHOWN) == ["#3", "get page"]
        page.select_option(".tl-ts-level", "")
        page.click("text=alpha")
        assert page.evaluate("location.hash") == "#tl-tool-1"
        detail = page.locator(".tl-ts-detail #tl-tool-1")
        sync_api.expect(detail.locator('[data-view="signature"]')).to_contain_text("def alpha")
        sync_api.expect(page.locator(".tl-ts-selected")).to_contain_text("alpha")
        page.locator(".tl-ts-row", has_text="#3").click()  # a tool that could not be read
        sync_api.expect(page.locator(".tl-ts-detail #tl-tool-3 .tl-note")).to_be_visible()
        page.go_back()  # the address names the open tool: back reopens the one before
        sync_api.expect(page.locator(".tl-ts-detail #tl-tool-1")).to_be_visible()
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(ARTIFACTS / "toolset_page_1400.png"))
        page.set_viewport_size({"width": 1000, "height": 900})
        page.screenshot(path=str(ARTIFACTS / "toolset_page_1000.png"))


@pytest.fixture(scope="module")
def big_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from support.many_tools import payload

    page_file = tmp_path_factory.mktemp("big") / "toolset.html"
    ts = toollens.toolset(payload(1000)["tools"])
    page_file.write_text(render_toolset_page(ts, ["openai-chat", "anthropic"]), encoding="utf-8")
    return page_file


def test_big_page_opens_a_row_into_its_views(big_page: Path, tmp_path: Path) -> None:
    """1,000 tools: the table shows a page of rows; a row's views are built when it opens."""
    with offline_page(sync_api, big_page) as page:
        expect = sync_api.expect
        expect(page.locator(".tl-ts-row")).to_have_count(100)
        expect(page.locator(".tl-ts-where")).to_have_text("1\u2013100 of 1000")
        assert page.locator(".tl-ts-detail .tl-panel").count() == 0  # nothing built yet
        for _ in range(9):
            page.click(".tl-ts-next")
        expect(page.locator(".tl-ts-where")).to_have_text("901\u20131000 of 1000")
        last = page.locator('.tl-ts-row[data-index="999"]')
        name = last.locator("td").nth(1).inner_text()
        last.click()
        views = page.locator(".tl-ts-detail #tl-tool-999")
        expect(views.locator("h2").first).to_contain_text(f"1000. {name}")
        expect(views.locator('[data-view="strict"]')).to_be_visible()
        expect(views.locator('[data-view="findings"]')).to_be_attached()
        page.screenshot(path=str(ARTIFACTS / "toolset_big_open_1400.png"))
        # Another chunk's tool, from a link: the address opens it.
        page.goto(big_page.as_uri() + "#tl-tool-3")
        expect(page.locator(".tl-ts-detail #tl-tool-3 .tl-panel").first).to_be_visible()
        # and the table turned to the page that shows its row
        expect(page.locator(".tl-ts-selected")).to_have_attribute("data-index", "3")
        expect(page.locator(".tl-ts-where")).to_have_text("1\u2013100 of 1000")
        page.evaluate("window.scrollTo(0, 0)")
        page.set_viewport_size({"width": 1000, "height": 900})
        page.screenshot(path=str(ARTIFACTS / "toolset_big_1000.png"))


def _filter_tools() -> list[object]:
    def search_orders(query: str, limit: int = 10) -> list[str]:
        """Search the orders.

        Args:
            query: what to look for.
            limit: how many.
        """
        return []

    def Straße(name: str) -> str:  # a name whose case folds differently
        """Find a street by its name and return its postal district code."""
        return name

    clean = {
        "name": "ping",
        "description": "Check that the service answers and report its version.",
        "input_schema": {"type": "object", "properties": {}, "additionalProperties": False},
    }
    return [
        search_orders,
        Straße,
        clean,
        {"name": "get.page", "input_schema": {"type": "object"}},
        {"name": "ÉCOLE_list", "description": "List schools.", "input_schema": {"type": "object"}},
        {"oops": 1},
    ]


FILTERS = [
    ("", ""),
    ("ORD", ""),
    ("straße", ""),
    ("STRASSE", ""),
    ("école", ""),
    ("get", "0"),
    ("", "0"),
    ("", "1"),
    ("", "2"),
    ("no string", ""),
    ("zzz", ""),
]

# Renders the widget's own bundle (explorer.js, as anywidget loads it) with a model holding
# the widget's traits, so the widget's table code runs without a kernel.
_MOUNT_WIDGET = """async ([code, state]) => {
  const url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
  const widget = (await import(url)).default;
  const handlers = {};
  const model = {
    get: (key) => state[key],
    set: (key, value) => {
      state[key] = value;
      (handlers[`change:${key}`] || []).forEach((f) => f());
    },
    on: (event, f) => { (handlers[event] ||= []).push(f); },
    save_changes() {},
    send() {},
  };
  const host = document.createElement("div");
  document.body.append(host);
  widget.render({ model, el: host });
}"""


def test_page_and_widget_filter_the_same_rows(tmp_path: Path) -> None:
    """The static page and the widget keep the same rows for each query, as Python's filter."""
    from toollens.jupyter.toolset_widget import ToolsetTable
    from toollens.jupyter.widget_base import BUNDLE
    from toollens.render.toolset_html import table_of

    ts = toollens.toolset(_filter_tools())
    table = table_of(ts)
    widget = ToolsetTable(ts)
    traits = ["view_kind", "css", "label", "providers", "columns", "rows", "groups", "levels"]
    state = {k: getattr(widget, k) for k in [*traits, "totals", "across", "selected"]}
    page_file = tmp_path / "toolset.html"
    page_file.write_text(render_toolset_page(ts), encoding="utf-8")
    indices = "rows => rows.map(r => Number(r.dataset.index))"
    with sync_api.sync_playwright() as pw:
        browser = offline_browser(pw)
        try:
            static = browser.new_page(viewport={"width": 1400, "height": 900})
            static.goto(page_file.as_uri())
            live = browser.new_page(viewport={"width": 1400, "height": 900})
            live.goto("about:blank")
            live.evaluate(_MOUNT_WIDGET, [BUNDLE.read_text(encoding="utf-8"), state])
            live.wait_for_selector(".tl-ts-row")
            for query, level in FILTERS:
                shown = []
                for tab in (static, live):
                    tab.fill(".tl-ts-filter", query)
                    tab.select_option(".tl-ts-level", level)
                    shown.append(tab.eval_on_selector_all(".tl-ts-row", indices))
                expected = [row.index for row in table.visible(query, level)]
                assert shown == [expected, expected], (query, level)
            live.fill(".tl-ts-filter", "")
            live.screenshot(path=str(ARTIFACTS / "toolset_widget_table_1400.png"))
        finally:
            browser.close()


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


def test_an_mcp_servers_command_is_named_once(tmp_path: Path) -> None:
    """The Toolset of one server: its command above the table, each row its tool's name."""
    from toollens.mcp.records import McpTool
    from toollens.toolsets import Toolset
    from toollens.toolsets.mcp_source import mcp_entry

    server = "mcp:npx -y @modelcontextprotocol/server-github"
    schema = {"type": "object", "properties": {"owner": {"type": "string"}}}
    names = ["create_issue", "list_commits", "search_code"]
    entries = [
        mcp_entry(McpTool(n, f"Do {n}.", schema, None, None, None, server, {"name": n}), None)
        for n in names
    ]
    page_file = tmp_path / "server.html"
    ts = Toolset.from_entries(entries, label=server)
    page_file.write_text(render_toolset_page(ts), encoding="utf-8")
    with sync_api.sync_playwright() as pw:
        browser = offline_browser(pw)
        try:
            page = browser.new_page(viewport={"width": 1000, "height": 700})
            page.goto(page_file.as_uri())
            sync_api.expect(page.locator(".tl-ts-source")).to_have_text(f"source: {server}")
            assert page.eval_on_selector_all(".tl-ts-row", SHOWN) == names
            cells = page.eval_on_selector_all(".tl-ts-row td", "tds => tds.map(t => t.textContent)")
            assert not [c for c in cells if "server-github" in c]
            page.screenshot(path=str(ARTIFACTS / "toolset_page_mcp_1000.png"))
        finally:
            browser.close()
