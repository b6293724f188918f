"""The Clients view headless: in the explorer of an MCP tool (judged as edited, a client picked
through the ``client`` trait), its static copy, and the Toolset view's client picker."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

import toollens
from toollens.core.errors import TargetError
from toollens.render.clients_html import clients_panel_html
from toollens.render.clients_view import tool_clients

pytest.importorskip("anywidget")

from toollens.jupyter.explorer import Explorer
from toollens.jupyter.toolset_widget import ToolsetView

TESTS = Path(__file__).parents[1]
CASES = TESTS / "consumers" / "cases"
LIST = str(CASES / "array-no-items.tools.json")


def _explorer(client: str | None = None) -> Explorer:
    ts = toollens.toolset(LIST)
    rep = ts.tools[1].report
    assert rep is not None
    assert rep.options.name == "update_dashboard"  # the tool the Clients view is of
    explorer = Explorer(rep.target, rep.options, debounce=0, listing=ts.listing)
    if client is not None:
        explorer.client = client
    return explorer


def test_the_clients_view_is_one_more_panel_below_the_others() -> None:
    explorer = _explorer()
    assert explorer.panel_order[-1] == "clients"
    assert explorer.panel_areas["clients"] == "below"
    html = explorer.panels["clients"]
    assert 'data-view="clients"' in html
    assert "data-tl-client" in html  # the picker
    # the first client is shown until one is picked
    assert 'data-client="claude-code"' in html.split("tl-cl-summary")[0]


def test_picking_a_client_shows_its_verdict_why_and_what_it_sends() -> None:
    explorer = _explorer()
    explorer.client = "vscode-copilot"
    html = explorer.panels["clients"]
    assert 'class="tl-cl" data-client="vscode-copilot"' in html
    assert 'data-rule="vscode-copilot.array-without-items"' in html
    assert "Nothing: the tool does not reach the model." in html
    expected = tool_clients(toollens.toolset(LIST).listing, "update_dashboard")  # type: ignore[arg-type]
    assert html == clients_panel_html(expected, "vscode-copilot", picker=True)


def test_the_clients_judge_the_schema_as_edited() -> None:
    explorer = _explorer("vscode-copilot")
    assert "tool-dropped" in explorer.panels["clients"]
    explorer.source = explorer.source.replace('"array"', '"array", "items": {"type": "string"}')
    explorer.flush()
    html = explorer.panels["clients"]
    assert "vscode-copilot.array-without-items" not in html
    assert "tool-dropped" not in html


def test_the_list_is_judged_again_only_when_the_schema_changes(monkeypatch: Any) -> None:
    import toollens.consumers

    real, calls = toollens.consumers.judge_consumers, []

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(toollens.consumers, "judge_consumers", counted)
    explorer = _explorer()
    assert len(calls) == 1
    explorer.client = "cursor"  # another client of the same judgement
    explorer.client = "gemini-cli"
    explorer.source = explorer.source.replace('"panels"', '"panels" ', 1)  # the same schema
    explorer.flush()
    assert len(calls) == 1
    explorer.source = explorer.source.replace('"array"', '"array", "items": {}')
    explorer.flush()
    assert len(calls) == 2


def test_the_static_copy_has_every_client_the_chosen_one_open() -> None:
    explorer = _explorer("gemini-cli")
    static = explorer._static_html()
    assert static is not None
    assert static.count('<details class="tl-cl-client"') == 8
    assert '<details class="tl-cl-client" data-client="gemini-cli" open>' in static
    assert "data-tl-client" not in static  # nothing to send a choice to


def test_an_unknown_client_shows_the_first_and_an_unknown_tool_is_named() -> None:
    assert 'class="tl-cl" data-client="claude-code"' in _explorer("nope").panels["clients"]
    ts = toollens.toolset(LIST)
    with pytest.raises(TargetError, match="tool 'missing' is not in the tool list"):
        Explorer({"type": "object"}, debounce=0, listing=ts.listing, name="missing")


def test_without_a_listing_there_is_no_clients_view() -> None:
    explorer = Explorer({"type": "object"}, debounce=0, name="t")
    assert "clients" not in explorer.panel_order


# -- the Toolset view -------------------------------------------------------------------------


def test_the_toolset_view_of_a_saved_list_picks_a_client() -> None:
    view = ToolsetView(LIST)
    titles = [c["title"] for c in view.table.columns if c["kind"] == "client"]
    assert titles[:3] == ["claude-code", "claude-desktop", "cursor"]
    view.table.client = "vscode-copilot"
    view.table.selected = 1
    html = view.detail.value  # a saved list is read-only: the static report with its view
    assert '<details class="tl-cl-client" data-client="vscode-copilot" open>' in html
    view.table.client = "cursor"  # the open tool follows the picker
    assert '<details class="tl-cl-client" data-client="cursor" open>' in view.detail.value
    view.close()


def test_the_toolset_view_of_a_server_opens_the_explorer_on_the_picked_client(
    tmp_path: Path,
) -> None:
    listed = json.loads(Path(LIST).read_text(encoding="utf-8"))["tools"]
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps(listed), encoding="utf-8")
    server = TESTS / "mcp" / "mcp_servers" / "raw_tools.py"
    view = ToolsetView("mcp:" + shlex.join([sys.executable, str(server), str(tools)]))
    view.table.client = "vscode-copilot"
    view.table.selected = 1
    explorer = view.detail
    assert isinstance(explorer, Explorer)
    assert explorer.client == "vscode-copilot"
    assert 'data-rule="vscode-copilot.array-without-items"' in explorer.panels["clients"]
    assert "Nothing: the tool does not reach the model." in explorer.panels["clients"]
    view.table.client = "claude-code"
    html = explorer.panels["clients"]
    assert 'class="tl-cl" data-client="claude-code"' in html
    assert "Named <code>mcp__raw-json__update_dashboard</code>" in html
    explorer.client = "gemini-cli"  # the explorer's picker moves the table's, both ways
    assert view.table.client == "gemini-cli"
    assert view.detail is explorer  # the open tool stays open
    view.close()
