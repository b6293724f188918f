"""The explorer of a tool that is only a schema (a JSON tool, an MCP server's tool): no
Signature view, the lint the command line runs on such a tool, and an editable JSON editor
without Apply (the schema is not Python source to rebind)."""

from __future__ import annotations

import pytest

from toollens.jupyter.explorer import SCHEMA_ONLY_MARK, Explorer
from toollens.mcp.lint import schema_lint
from toollens.mcp.records import McpTool

pytest.importorskip("anywidget")

SCHEMA = {
    "type": "object",
    "properties": {"a": {"type": "integer"}, "b": {"type": "integer", "description": "B."}},
    "required": ["a", "b"],
}


def test_a_schema_only_tool_has_no_signature_view() -> None:
    explorer = Explorer(SCHEMA, debounce=0, name="get-sum", description="Add two numbers.")
    assert explorer.panels["signature"] == SCHEMA_ONLY_MARK
    assert "tl-schema-only" in explorer.css  # what hides the slot and the Python choices


def test_its_lint_is_the_lint_the_command_line_runs_on_an_mcp_tool() -> None:
    explorer = Explorer(SCHEMA, debounce=0, name="get-sum", description="Add two numbers.")
    assert explorer.report is not None
    tool = McpTool("get-sum", "Add two numbers.", SCHEMA, None, None, None, "mcp:x", SCHEMA)
    expected = schema_lint(tool, strict=True)
    assert expected  # 'a' has no description: the CLI flags it
    assert explorer.report.lint == expected
    assert "missing-parameter-description" in explorer.panels["findings"]
    assert "nothing to check" not in explorer.panels["findings"]


def test_it_opens_in_an_editable_json_editor_without_apply() -> None:
    explorer = Explorer(SCHEMA, debounce=0, name="get-sum")
    assert not explorer.read_only
    assert not explorer.can_apply


def test_a_python_tool_keeps_its_signature_view() -> None:
    def add(a: int, b: int) -> int:
        """Add."""
        return a + b

    explorer = Explorer(add, debounce=0)
    assert explorer.panels["signature"] != SCHEMA_ONLY_MARK
    assert "def add" in explorer.panels["signature"]
