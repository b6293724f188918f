"""The Toolset view headless: the table's data, a click opening the tool, the magic."""

from __future__ import annotations

from typing import Any

import ipywidgets
import pytest

import toollens.jupyter.magic as magic_module
from toollens.core.report import ReportOptions
from toollens.jupyter.explorer import Explorer
from toollens.jupyter.toolset_widget import ToolsetTable, ToolsetView


def search(query: str, limit: int = 10) -> list[str]:
    """Search the catalogue.

    Args:
        query: what to look for.
        limit: how many.
    """
    return []


PAYLOAD = {
    "name": "get_page",
    "description": "<b>Get</b> a page.",
    "input_schema": {"type": "object"},
}


def _view() -> ToolsetView:
    return ToolsetView([search, PAYLOAD, {"oops": "<script>x</script>"}], ReportOptions())


def test_table_rows_are_data() -> None:
    view = _view()
    table = view.table
    assert isinstance(table, ToolsetTable)
    assert table.view_kind == "toolset"
    assert table.providers == ["openai-chat"]
    assert [r["name"] for r in table.rows] == ["search", "get_page", "#2"]
    assert table.rows[0]["parameters"] == 2
    assert table.rows[2]["error"] == "tool 2 has no string 'name'"
    assert table.selected == -1
    assert "3 tools" in table.totals
    assert view.children == (table,)


def test_clicking_a_python_row_opens_its_explorer() -> None:
    view = _view()
    view.table.selected = 0
    assert isinstance(view.detail, Explorer)
    assert view.children == (view.table, view.detail)
    view.table.selected = -1
    assert view.children == (view.table,)


def test_json_and_unread_rows_open_read_only_views() -> None:
    view = _view()
    view.table.selected = 1
    assert isinstance(view.detail, ipywidgets.HTML)
    assert "&lt;b&gt;Get&lt;/b&gt; a page." in view.detail.value
    view.table.selected = 2
    assert isinstance(view.detail, ipywidgets.HTML)
    assert "tool 2 has no string" in view.detail.value


def test_static_copy_rides_along() -> None:
    data, _ = _view()._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data
    assert 'data-toollens="toolset"' in data["text/html"]
    assert "<script>x</script>" not in data["text/html"]


LISTING = {
    "serverInfo": {"name": "acme"},
    "protocolVersion": "2025-11-25",
    "tools": [
        {
            "name": "find",
            "description": "Find items.",
            "inputSchema": {"type": "object", "properties": {"q": {"type": ["string", "null"]}}},
        }
    ],
}


def test_a_tools_list_answer_in_memory_is_read_as_a_saved_one() -> None:
    view = ToolsetView(LISTING, clients=["gemini-cli"])
    assert view.toolset.listing is not None
    assert [t.strict for t in view.toolset.tools] == [False]  # MCP tools travel non-strict
    assert view.table.rows[0]["cells"][-1][0] == "rewritten"  # the client column


def test_the_static_copy_holds_the_tool_opened() -> None:
    view = ToolsetView(LISTING, clients=["gemini-cli"])
    before = view._repr_mimebundle_()[0]["text/html"]
    view.open_tool(0)
    after = view._repr_mimebundle_()[0]["text/html"]
    assert after.startswith(before)
    assert "mcp_acme_find" in after[len(before) :]  # the Clients view: the name sent


def test_provider_columns() -> None:
    view = ToolsetView([search], providers=["openai-chat", "anthropic"])
    assert set(view.table.rows[0]["providers"]) == {"openai-chat", "anthropic"}


class _Shell:
    """The two things the magic asks of IPython's shell: evaluate, and the namespace.

    A stand-in, so these tests never start the process-wide test shell another module's
    fixture expects to start itself.
    """

    def __init__(self, namespace: dict[str, Any]) -> None:
        self.user_ns = namespace

    def ev(self, expression: str) -> Any:
        return eval(expression, self.user_ns)


@pytest.fixture
def shell(monkeypatch: pytest.MonkeyPatch) -> Any:
    seen: list[Any] = []
    monkeypatch.setattr(magic_module, "display", seen.append)
    magics = magic_module.ToolSchemaMagics(shell=None)
    magics.shell = _Shell({"my_tools": [search, PAYLOAD]})
    return magics, seen


def test_magic_toolset_expression(shell: Any) -> None:
    ip, seen = shell
    ip.toolschema("--toolset my_tools --provider anthropic")
    (view,) = seen
    assert isinstance(view, ToolsetView)
    assert view.toolset.names == ("search", "get_page")
    assert view.table.providers == ["anthropic"]


def test_magic_toolset_source_string_and_static(shell: Any) -> None:
    ip, seen = shell
    ip.toolschema('--toolset "toollens.examples" --static')
    (shown,) = seen
    assert type(shown).__name__ == "Toolset"
    assert len(shown) > 0


def test_magic_toolset_unknown_name(shell: Any, capsys: pytest.CaptureFixture[str]) -> None:
    ip, seen = shell
    ip.toolschema("--toolset nothing_here")
    assert seen == []
    assert "toolschema: name 'nothing_here' is not defined" in capsys.readouterr().err


def test_load_ext_makes_toolsets_display_live() -> None:
    from IPython.core.formatters import DisplayFormatter

    from toollens.jupyter import load_ipython_extension
    from toollens.render.toolset_html import render_toolset_text
    from toollens.toolsets import toolset

    registered: list[Any] = []
    shell = type("Shell", (), {"register_magics": registered.append})()
    shell.display_formatter = DisplayFormatter()  # a private one: nothing process-wide changes
    load_ipython_extension(shell)
    assert registered == [magic_module.ToolSchemaMagics]
    ts = toolset([search])
    data, _ = shell.display_formatter.format(ts)
    assert "application/vnd.jupyter.widget-view+json" in data
    assert 'data-toollens="toolset"' in data["text/html"]
    assert data["text/plain"] == render_toolset_text(ts)


def test_refresh_rereads_a_tool_the_notebook_redefined() -> None:
    namespace: dict[str, Any] = {}
    exec(
        "def lookup(order_id: int) -> str:\n    '''Look up an order.'''\n    return ''\n",
        namespace,
    )
    namespace["__name__"] = "__main__"
    first = namespace["lookup"]
    first.__module__ = "__main__"
    view = ToolsetView([first], namespace=namespace)
    view.table.selected = 0
    assert view.refresh() is False  # nothing rebound yet
    assert view.table.rows[0]["parameters"] == 1
    exec(
        "def lookup(order_id: int, verbose: bool) -> str:\n    '''Look up an order.'''\n"
        "    return ''\n",
        namespace,
    )
    namespace["lookup"].__module__ = "__main__"
    assert view.refresh() is True
    assert view.table.rows[0]["parameters"] == 2
    assert view.toolset["lookup"].report.target is namespace["lookup"]  # type: ignore[union-attr]
    assert isinstance(view.detail, Explorer)  # the open tool is reopened, re-read


def test_the_cell_hook_refreshes_and_lets_the_view_go(monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    import IPython

    class Events:
        def __init__(self) -> None:
            self.callbacks: list[Any] = []

        def register(self, event: str, func: Any) -> None:
            assert event == "post_run_cell"
            self.callbacks.append(func)

        def unregister(self, event: str, func: Any) -> None:
            self.callbacks.remove(func)

    shell = type("Shell", (), {"events": Events()})()
    monkeypatch.setattr(IPython, "get_ipython", lambda: shell)
    view = ToolsetView([search])
    (hook,) = shell.events.callbacks
    calls: list[bool] = []
    monkeypatch.setattr(ToolsetView, "refresh", lambda self: calls.append(True) or False)
    hook()
    assert calls == [True]
    view.close()
    del view
    gc.collect()
    hook()
    assert shell.events.callbacks == []
