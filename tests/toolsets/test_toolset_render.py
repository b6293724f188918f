"""The toolset's HTML and text: rows, escaping, the self-contained page, the notebook display."""

from __future__ import annotations

from typing import Any

import toollens
from support.toolset_page import read_page
from toollens.render.toolset_html import (
    render_toolset_html,
    render_toolset_text,
    toolset_row_views,
)
from toollens.render.toolset_page import render_toolset_page
from toollens.toolsets import Toolset


def _tools() -> list[Any]:
    def search(query: str, limit: int = 10) -> list[str]:
        """Search the catalogue.

        Args:
            query: what to look for.
            limit: how many.
        """
        return []

    hostile = {
        "name": "<script>alert(1)</script>",
        "description": "<img src=x onerror=alert(2)>",
        "input_schema": {"type": "object", "properties": {"<b>": {"type": "string"}}},
    }
    return [search, hostile, {"type": "web_search"}]


def test_row_views() -> None:
    ts = toollens.toolset(_tools())
    rows = toolset_row_views(ts, ["openai-chat", "anthropic"])
    assert [r.index for r in rows] == [0, 1, 2]
    search = rows[0]
    assert search.parameters == 2
    assert search.strict == "strict"
    assert search.providers == {"openai-chat": "warning", "anthropic": "ok"}
    assert search.lint == len(ts["search"].report.lint)  # type: ignore[union-attr]
    broken = rows[2]
    assert broken.error is not None
    assert broken.providers == {"openai-chat": "not read", "anthropic": "not read"}
    assert broken.rank == 0  # an unread tool filters with the errors


def test_user_text_is_escaped_everywhere() -> None:
    ts = toollens.toolset(_tools())
    page = render_toolset_page(ts)
    for html in (render_toolset_html(ts), page, *read_page(page).views):
        assert "<script>alert(1)" not in html
        assert "<img src=x" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in render_toolset_html(ts)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in read_page(page).views[1]
    # The table's data is JSON in a script element: a name cannot end that element.
    assert "\\u003cscript>alert(1)\\u003c/script>" in page


def test_page_is_self_contained() -> None:
    page = render_toolset_page(toollens.toolset(_tools()), ["openai-chat", "gemini"])
    assert page.startswith('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">')
    assert "<link" not in page
    assert ' src="http' not in page
    assert "@import" not in page
    assert page.count("<script>") == 1  # the table script; the rest is data
    assert "fetch(" not in page
    assert len(read_page(page).views) == 3  # each tool's views, stored deflated


def test_toolset_displays_in_a_notebook() -> None:
    ts = toollens.toolset(_tools())
    bundle = ts._repr_mimebundle_()
    assert bundle["text/plain"] == render_toolset_text(ts)
    assert bundle["text/plain"].startswith("Toolset 3 tools: 3 tools")
    assert 'data-toollens="toolset"' in bundle["text/html"]


def test_empty_toolset_renders() -> None:
    ts = Toolset.from_entries([], label="nothing")
    assert "0 tools" in render_toolset_html(ts)
    assert render_toolset_text(ts) == "Toolset nothing: 0 tools"


def test_a_name_a_provider_rejects_shows_in_its_column() -> None:
    ts = toollens.toolset([{"name": "get.page", "input_schema": {"type": "object"}}])
    (row,) = toolset_row_views(ts, ["openai-chat", "anthropic", "gemini"])
    # Gemini accepts dots; OpenAI and Anthropic reject the name.
    assert row.providers == {"openai-chat": "error", "anthropic": "error", "gemini": "ok"}


def test_the_same_finding_on_several_tools_is_listed_once_with_its_tools() -> None:
    """The notebook's HTML and plain text list a finding that 10 tools share once, naming
    them (the first 8 and how many more), as check's text does; the data keeps ten."""
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}
    tools = [
        {"name": f"t{i}", "description": f"Tool {i}.", "inputSchema": schema} for i in range(10)
    ]
    ts = toollens.toolset({"tools": tools})
    assert [f.rule for f in ts.findings].count("mcp.schema-dialect") == 10
    named = "t0, t1, t2, t3, t4, t5, t6, t7 and 2 more"
    html = str(render_toolset_html(ts))
    assert html.count("mcp.schema-dialect") == 1
    assert f"tools: {named}" in html
    assert "mcp.schema-dialect</code> at <code>/inputSchema/$schema</code>" in html
    text = [line for line in render_toolset_text(ts).splitlines() if "draft-07" in line]
    assert len(text) == 1
    assert f"(tools: {named}) Fix: drop $schema, or use 2020-12" in text[0]
