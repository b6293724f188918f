"""`method` says what is proven: `exact` only where published figures cover every construct.

A `$ref`-heavy server the size of Notion's official one (24 tools, shared `$defs`) counts as
`rendered`, with the constructs no figure covers named, in the result and in the JSON.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("tiktoken")

from toollens.cli import main
from toollens.tokens import ToolDef, tokens
from toollens.tokens.coverage import unvalidated

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpora" / "mcp"

RICH_TEXT = {
    "type": "object",
    "properties": {
        "type": {"const": "text"},
        "text": {
            "type": "object",
            "properties": {"content": {"type": "string"}, "link": {"$ref": "#/$defs/link"}},
            "required": ["content"],
        },
        "annotations": {"$ref": "#/$defs/annotations"},
    },
}
DEFS = {
    "link": {
        "anyOf": [{"type": "object", "properties": {"url": {"type": "string"}}}, {"type": "null"}]
    },
    "annotations": {
        "type": "object",
        "properties": {
            "bold": {"type": "boolean", "default": False},
            "color": {"type": "string", "enum": ["default", "gray", "brown", "red"]},
        },
    },
    "rich_text": {"type": "array", "items": RICH_TEXT},
    "parent": {
        "oneOf": [
            {"type": "object", "properties": {"page_id": {"$ref": "#/$defs/id"}}},
            {"type": "object", "properties": {"database_id": {"$ref": "#/$defs/id"}}},
        ]
    },
    "id": {"type": "string", "format": "uuid", "description": "A Notion object id"},
    "filter": {
        "type": "object",
        "properties": {
            "property": {"type": "string"},
            "and": {"type": "array", "items": {"$ref": "#/$defs/filter"}},
        },
    },
}
VERBS = ("create", "update", "retrieve", "query", "delete", "append")
OBJECTS = ("page", "database", "block", "comment")


def notion_like() -> list[dict[str, Any]]:
    """24 MCP tools over shared `$defs`, the shape of Notion's official server."""
    return [
        {
            "name": f"API-{verb}-{obj}",
            "description": f"{verb.title()} a Notion {obj}",
            "inputSchema": {
                "type": "object",
                "$defs": DEFS,
                "properties": {
                    "parent": {"$ref": "#/$defs/parent"},
                    "title": {"$ref": "#/$defs/rich_text"},
                    "filter": {"$ref": "#/$defs/filter"},
                    f"{obj}_id": {"$ref": "#/$defs/id"},
                },
                "required": [f"{obj}_id"],
            },
        }
        for verb in VERBS
        for obj in OBJECTS
    ]


def test_a_ref_heavy_server_counts_as_rendered_with_its_constructs_named(tmp_path: Path) -> None:
    tools = notion_like()
    assert len(tools) == 24
    counted = tokens(tools, "gpt-4o")
    assert counted.method == "rendered"
    for construct in ("$ref", "$defs", "anyOf", "oneOf", "const", "default", "format"):
        assert construct in counted.unvalidated
    assert all(t.unvalidated for t in counted.tools)
    assert any("no published API-measured figure covers" in n for n in counted.notes)
    path = tmp_path / "notion.json"
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    out = io.StringIO()
    assert main(["tokens", str(path), "--format", "json"], stdout=out, stderr=io.StringIO()) == 0
    data = json.loads(out.getvalue())
    assert data["method"] == "rendered"
    assert "$ref" in data["unvalidated"]
    assert "$ref" in data["tools"][0]["unvalidated"]


def test_a_real_server_is_rendered_with_what_it_uses_named() -> None:
    # its $refs are in outputSchema, which no model reads: only the input side counts
    path = CORPUS / "awslabs.aws-documentation-mcp-server.tools.json"
    if not path.is_file():
        pytest.skip("the shared MCP corpus is not beside the repository")
    counted = tokens(json.loads(path.read_text(encoding="utf-8"))["tools"], "gpt-4o")
    assert counted.method == "rendered"
    assert {"anyOf", "default", "minimum"} <= set(counted.unvalidated)
    assert "$ref" not in counted.unvalidated


CONSTRUCTS = [
    pytest.param({"a": {"type": "string"}}, (), id="string-covered"),
    pytest.param({"a": {"type": "integer"}}, ("type integer",), id="integer"),
    pytest.param({"a": {"type": "string", "default": "x"}}, ("default",), id="default"),
    pytest.param({"a": {"const": "x"}}, ("const",), id="const"),
    pytest.param({"a": {"$ref": "#/$defs/x"}}, ("$ref",), id="ref"),
    pytest.param({"a": {"anyOf": [{"type": "string"}]}}, ("anyOf",), id="anyOf"),
    pytest.param({"a": {"type": ["string", "null"]}}, ("type list",), id="type-list"),
    pytest.param({"a": {"enum": [1, 2]}}, ("enum of non-strings",), id="int-enum"),
    pytest.param({"a": {"type": "object"}}, ("object without properties",), id="bare-object"),
    pytest.param({"a": {"type": "array"}}, ("array without items",), id="bare-array"),
    pytest.param({"a": {}}, ("no type",), id="no-type"),
    pytest.param(
        {"a": {"type": "string", "description": "x\ny"}}, ("multi-line description",), id="lines"
    ),
]


@pytest.mark.parametrize(("properties", "expected"), CONSTRUCTS)
def test_each_unmeasured_construct_is_named(
    properties: dict[str, Any], expected: tuple[str, ...]
) -> None:
    tool = ToolDef("t", "Do t", {"type": "object", "properties": properties})
    assert set(expected) <= set(unvalidated(tool))
    assert bool(unvalidated(tool)) is bool(expected)


def test_a_covered_tool_on_an_unmeasured_model_is_rendered() -> None:
    tool = ToolDef("t", "Do t", {"type": "object", "properties": {"a": {"type": "string"}}})
    assert tokens(tool, "gpt-4o").method == "exact"
    counted = tokens(tool, "gpt-4.1")
    assert (counted.method, counted.unvalidated) == ("rendered", ("model gpt-4.1",))
