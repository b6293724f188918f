"""The Toolset view's marimo path headless: a click builds no widget (marimo can build one only
while a cell runs), ``open_tool`` in the next cell does, and the view displays as its table.

marimo is imported for real; only its ``running_in_notebook`` answer is set, as inside an app.
"""

from __future__ import annotations

import ipywidgets
import pytest

from toollens.core.report import ReportOptions
from toollens.jupyter.explorer import Explorer
from toollens.jupyter.toolset_widget import ToolsetView

marimo = pytest.importorskip("marimo")


def search(query: str) -> list[str]:
    """Search the catalogue.

    Args:
        query: what to look for.
    """
    return []


PAYLOAD = {"name": "get_page", "description": "<b>Get</b> a page.", "input_schema": {}}


def _view() -> ToolsetView:
    return ToolsetView([search, PAYLOAD], ReportOptions())


@pytest.fixture
def in_marimo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(marimo, "running_in_notebook", lambda: True)


@pytest.mark.usefixtures("in_marimo")
def test_a_click_waits_for_the_cell_that_opens_the_tool() -> None:
    view = _view()
    view.table.selected = 0  # the click: marimo's message handler, no cell running
    assert view.detail is None
    assert view.children == (view.table,)
    opened = view.open_tool(view.table.selected)  # the next cell, re-run by marimo
    assert isinstance(opened, Explorer)
    assert opened is view.detail
    assert opened.source.startswith("def search(")


@pytest.mark.usefixtures("in_marimo")
def test_a_read_only_tool_opens_as_html_marimo_shows() -> None:
    view = _view()
    opened = view.open_tool(1)
    assert view.table.selected == 1
    assert not isinstance(opened, ipywidgets.Widget)  # marimo renders no ipywidgets
    html = opened._repr_html_()
    assert "&lt;b&gt;Get&lt;/b&gt; a page." in html
    assert "<b>Get" not in html
    assert view.open_tool(-1) is None


def test_marimo_displays_the_table() -> None:
    view = _view()
    assert view._display_() is view.table


def test_outside_marimo_open_tool_selects_the_row() -> None:
    view = _view()
    opened = view.open_tool(0)
    assert view.table.selected == 0
    assert isinstance(opened, Explorer)
    assert view.children == (view.table, opened)
    assert view.open_tool(0) is opened  # already open: the same view
