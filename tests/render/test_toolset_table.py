"""The one toolset table model: rows, verdicts, the filter, shared sources, the text table.

The text table is checked against ``toollens check``'s own table (the same cells for the
same tools), so the command line can draw the model unchanged; the browser's copy of the
filter is checked against :func:`row_matches` in ``tests/browser/test_toolset_browser.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import toollens
from toollens.mcp.records import McpTool
from toollens.render.toolset_table import (
    LEVELS,
    RANKS,
    ToolsetTable,
    row_matches,
    table_text,
    toolset_table,
)
from toollens.toolsets import Toolset
from toollens.toolsets.mcp_source import mcp_entry


def search(query: str, limit: int = 10) -> list[str]:
    """Search the catalogue.

    Args:
        query: what to look for.
        limit: how many.
    """
    return []


def shout(text: str) -> str:
    """Make the text loud."""
    return text


def tools() -> list[Any]:
    return [
        search,
        shout,
        # a name providers refuse (sent strict, as the functions are: the payloads say so)
        {"name": "get.page", "input_schema": {"type": "object"}, "strict": True},
        {"oops": 1},  # cannot be read
        {
            "name": "ping",
            "description": "Check that the service answers and report its version.",
            "input_schema": {"type": "object", "properties": {}, "additionalProperties": False},
            "strict": True,
        },
    ]


@pytest.fixture(scope="module")
def table() -> ToolsetTable:
    return toolset_table(toollens.toolset(tools()), ["openai-chat", "gemini"])


def test_rows_carry_verdicts_counts_and_ranks(table: ToolsetTable) -> None:
    by_name = {row.name: row for row in table.rows}
    assert [row.index for row in table.rows] == [0, 1, 2, 3, 4]
    assert by_name["search"].parameters == 2
    assert by_name["search"].providers == {"openai-chat": "warning", "gemini": "ok"}
    assert by_name["search"].provider_text == {"openai-chat": "1 warning", "gemini": "ok"}
    page = by_name["get.page"]
    assert page.providers["openai-chat"] == "error"  # the cross-tool name rule, in its column
    assert page.providers["gemini"] == "ok"  # Gemini accepts dots
    assert page.rank == RANKS["error"]
    unread = table.rows[3]
    assert unread.error is not None
    assert set(unread.providers.values()) == {"not read"}
    assert unread.rank == 0  # filters with the errors
    clean = by_name["ping"]
    assert clean.provider_text == {"openai-chat": "ok", "gemini": "ok"}
    assert clean.lint_text == "ok"
    assert clean.rank == RANKS["ok"]


@pytest.mark.parametrize(
    ("query", "level", "names"),
    [
        ("", "", ["search", "shout", "get.page", "#3", "ping"]),
        ("SEA", "", ["search"]),  # any case
        ("", "0", ["get.page", "#3"]),  # errors, and the tool that could not be read
        ("", "1", ["search", "shout", "get.page", "#3"]),  # warnings or worse
        ("", "2", ["search", "shout", "get.page", "#3"]),  # info or worse: not the "ok" tool
        ("get", "0", ["get.page"]),
        ("no such tool", "", []),
        ("", "not a level", ["search", "shout", "get.page", "#3", "ping"]),
        ("has no string", "", ["#3"]),  # the error text is searched
        ("test_toolset_table:", "", ["search", "shout"]),  # and where a tool was defined
    ],
    ids=[
        "all",
        "query",
        "errors",
        "warnings",
        "info",
        "both",
        "none",
        "unknown-level",
        "error",
        "source",
    ],
)
def test_filter(table: ToolsetTable, query: str, level: str, names: list[str]) -> None:
    assert [row.name for row in table.visible(query, level)] == names
    assert [r.name for r in table.rows if row_matches(r, query, level)] == names


def test_levels_are_every_tool_then_each_severity() -> None:
    assert [(lv.value, lv.rank) for lv in LEVELS] == [("", None), ("0", 0), ("1", 1), ("2", 2)]


def test_json_cells_follow_the_columns(table: ToolsetTable) -> None:
    data = table.to_json()
    ids = [c["id"] for c in data["columns"]]
    assert ids == ["index", "tool", "source", "params", "openai-chat", "gemini", "strict", "lint",
                   "findings"]  # fmt: skip
    first = data["rows"][0]
    assert len(first["cells"]) == len(ids)
    assert first["cells"][ids.index("openai-chat")] == ["1 warning", RANKS["warning"], "warning"]
    assert [lv[0] for lv in data["levels"]] == [lv.value for lv in LEVELS]


def test_the_text_table_is_the_check_commands_table(monkeypatch: pytest.MonkeyPatch) -> None:
    from toollens.assess import AssessRequest, assess
    from toollens.render.check_toolset import format_text

    monkeypatch.syspath_prepend(str(Path(__file__).parents[1] / "cli_fixtures"))
    providers = ["openai-chat", "anthropic"]
    result = assess(AssessRequest(target="tools_v1", providers=tuple(providers)))
    assert result.toolset is not None
    model = toolset_table(result.toolset, providers, verdicts=result.verdicts)
    lines = table_text(model, ["tool", *providers, "lint"])
    text = format_text(result)
    assert "\n".join(lines) in text
    assert lines[0].split() == ["tool", *providers, "lint"]


def _server_tool(server: str, name: str) -> McpTool:
    schema = {"type": "object", "properties": {"q": {"type": "string"}}}
    definition = {"name": name, "inputSchema": schema}
    return McpTool(name, f"{name} things.", schema, None, None, None, server, definition)


def test_an_mcp_servers_command_is_named_once() -> None:
    server = "mcp:python -m some.server --flag"
    entries = [mcp_entry(_server_tool(server, n), None) for n in ("find", "fetch")]
    model = toolset_table(Toolset.from_entries(entries, label=server))
    assert model.groups == (server,)
    assert model.group_lines() == [f"source: {server}"]
    assert "source" not in [c.id for c in model.columns]  # the rows have nothing else to say
    assert all(server not in cell.text for row in model.rows for c in model.columns
               for cell in [c.cell(row)])  # fmt: skip
    assert [row.name for row in model.visible("some.server")] == ["find", "fetch"]


def test_several_servers_are_numbered() -> None:
    one, two = "mcp:python a.py", "mcp:python b.py"
    entries = [mcp_entry(_server_tool(s, n), None) for s, n in ((one, "x"), (two, "y"))]
    model = toolset_table(Toolset.from_entries(entries, label="project"))
    assert model.group_lines() == [f"source [1]: {one}", f"source [2]: {two}"]
    source = model.column("source")
    assert [source.cell(row).text for row in model.rows] == ["[1]", "[2]"]


def test_a_payload_files_path_is_named_once(tmp_path: Any) -> None:
    import json

    path = tmp_path / "tools.json"
    tool = {"name": "a", "inputSchema": {"type": "object"}}
    path.write_text(json.dumps({"tools": [tool, {**tool, "name": "b"}]}), encoding="utf-8")
    model = toolset_table(toollens.toolset(str(path)))
    assert model.group_lines() == [f"source: {path}"]
    assert [model.column("source").cell(r).text for r in model.rows] == ["[0]", "[1]"]
