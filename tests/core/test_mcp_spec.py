"""The MCP specification as a judge, revision by revision; the MCP SDK's own checks as oracles."""

from __future__ import annotations

from typing import Any

import pytest

from toollens.core.providers.mcp_spec import (
    DEFAULT_REVISION,
    MCP_REVISIONS,
    MCP_SPEC_RULES,
    check_mcp_tools,
    header_problem,
    parse_judge,
    revision_for,
)

OBJ = {"type": "object", "properties": {}}


def tool(name: str = "get_page", schema: Any = None, output: Any = None) -> dict[str, Any]:
    item: dict[str, Any] = {"name": name, "inputSchema": OBJ if schema is None else schema}
    if output is not None:
        item["outputSchema"] = output
    return item


def rules(tools: list[dict[str, Any]], revision: str) -> list[tuple[str, str | None]]:
    return [(f.finding.rule, f.finding.pointer) for f in check_mcp_tools(tools, revision)]


@pytest.mark.parametrize(
    ("version", "revision"),
    [
        ("2024-11-05", "2025-06-18"),
        ("2025-03-26", "2025-06-18"),
        ("2025-06-18", "2025-06-18"),
        ("2025-11-25", "2025-11-25"),
        ("2026-07-28", "2026-07-28"),
        (None, DEFAULT_REVISION),
        ("2099-01-01", DEFAULT_REVISION),
    ],
)
def test_revision_follows_the_protocol_version(version: str | None, revision: str) -> None:
    assert revision_for(version) == revision


def test_judges_are_named_and_selectable() -> None:
    assert parse_judge("mcp@2026-07-28") == "2026-07-28"
    assert parse_judge("2025-11-25") == "2025-11-25"
    with pytest.raises(ValueError, match="mcp@2025-11-25"):
        parse_judge("mcp@2024-01-01")


def test_the_revisions_are_versions_the_mcp_sdk_knows() -> None:
    version = pytest.importorskip("mcp_types.version")
    assert set(MCP_REVISIONS) <= set(version.KNOWN_PROTOCOL_VERSIONS)


@pytest.mark.parametrize(
    ("tools", "by_revision"),
    [
        pytest.param(
            [tool(output={"type": "array", "items": {"type": "string"}})],
            {"2025-06-18": [("mcp.output-schema-not-object", "/outputSchema")],
             "2025-11-25": [("mcp.output-schema-not-object", "/outputSchema")],
             "2026-07-28": []},
            id="output-schema-any-from-2026-07-28",
        ),
        pytest.param(
            [tool(schema={"type": "string"})],
            {key: [("mcp.input-schema-not-object", "/inputSchema")] for key in MCP_REVISIONS},
            id="input-schema-object-always",
        ),
        pytest.param(
            [tool("get page")],
            {"2025-06-18": [], "2025-11-25": [("mcp.name-invalid", None)],
             "2026-07-28": [("mcp.name-invalid", None)]},
            id="name-characters-from-2025-11-25",
        ),
        pytest.param(
            [tool("a" * 65)],
            {"2025-06-18": [], "2025-11-25": [("mcp.name-over-64", None)],
             "2026-07-28": [("mcp.name-over-64", None)]},
            id="conformance-64",
        ),
        pytest.param(
            [tool("a" * 129)],
            {"2025-06-18": [], "2025-11-25": [("mcp.name-invalid", None)],
             "2026-07-28": [("mcp.name-invalid", None)]},
            id="name-over-128",
        ),
        pytest.param(
            [tool("a"), tool("a")],
            {"2025-06-18": [], "2025-11-25": [("mcp.duplicate-name", None)],
             "2026-07-28": [("mcp.duplicate-name", None)]},
            id="unique-names",
        ),
        pytest.param(
            [tool(schema={**OBJ, "$schema": "http://json-schema.org/draft-07/schema#"})],
            {"2025-06-18": [], "2025-11-25": [("mcp.schema-dialect", "/inputSchema/$schema")],
             "2026-07-28": [("mcp.schema-dialect", "/inputSchema/$schema")]},
            id="dialect-2020-12",
        ),
        pytest.param(
            [tool(schema={**OBJ, "$schema": "https://json-schema.org/draft/2020-12/schema"})],
            {key: [] for key in MCP_REVISIONS},
            id="dialect-2020-12-declared",
        ),
        pytest.param(
            [tool(schema={"type": "object", "properties": {
                "a": {"type": "number", "x-mcp-header": "A"}}})],
            {"2025-06-18": [], "2025-11-25": [],
             "2026-07-28": [("mcp.x-mcp-header-invalid",
                             "/inputSchema/properties/a/x-mcp-header")]},
            id="x-mcp-header-from-2026-07-28",
        ),
        pytest.param(
            [tool(schema={"type": "object", "properties": {
                "a": {"$ref": "https://example.com/a.json"}}})],
            {"2025-06-18": [], "2025-11-25": [],
             "2026-07-28": [("mcp.network-ref", "/inputSchema/properties/a/$ref")]},
            id="network-ref",
        ),
    ],
)  # fmt: skip
def test_what_each_revision_says(
    tools: list[dict[str, Any]], by_revision: dict[str, list[tuple[str, str | None]]]
) -> None:
    for revision, expected in by_revision.items():
        assert rules(tools, revision) == expected, revision


@pytest.mark.parametrize(
    "name",
    ["get_page", "get.page", "Get-Page-2", "get page", "a,b", "", "a" * 128, "a" * 129,
     "é", "tool/x", "-x", "x."],
)  # fmt: skip
def test_names_agree_with_the_mcp_sdk(name: str) -> None:
    validation = pytest.importorskip("mcp.shared.tool_name_validation")
    invalid = any(f.finding.rule == "mcp.name-invalid" for f in check_mcp_tools([tool(name)]))
    assert invalid is not validation.validate_tool_name(name).is_valid


HEADER_CASES = [
    {"type": "object", "properties": {"a": {"type": "string", "x-mcp-header": "Tenant"}}},
    {"type": "object", "properties": {"a": {"type": "integer", "x-mcp-header": "T"},
                                      "b": {"type": "boolean", "x-mcp-header": "U"}}},
    {"type": "object", "properties": {"a": {"type": "number", "x-mcp-header": "A"}}},
    {"type": "object", "properties": {"a": {"type": ["string", "null"], "x-mcp-header": "A"}}},
    {"type": "object", "properties": {"a": {"type": "string", "x-mcp-header": "bad header"}}},
    {"type": "object", "properties": {"a": {"type": "string", "x-mcp-header": 3}}},
    {"type": "object", "properties": {"a": {"type": "string", "x-mcp-header": "A"},
                                      "b": {"type": "string", "x-mcp-header": "a"}}},
    {"type": "object", "x-mcp-header": "Root"},
    {"type": "object", "properties": {"a": {"type": "array", "items": {
        "type": "string", "x-mcp-header": "Item"}}}},
    {"type": "object", "properties": {"o": {"type": "object", "properties": {
        "a": {"type": "string", "x-mcp-header": "Deep"}}}}},
    {"type": "object", "$defs": {"D": {"type": "string", "x-mcp-header": "Def"}}},
]  # fmt: skip


@pytest.mark.parametrize("schema", HEADER_CASES, ids=[str(i) for i in range(len(HEADER_CASES))])
def test_x_mcp_header_agrees_with_the_mcp_sdk(schema: dict[str, Any]) -> None:
    inbound = pytest.importorskip("mcp.shared.inbound")
    assert (header_problem(schema) is None) is (inbound.find_invalid_x_mcp_header(schema) is None)


def test_every_spec_rule_has_a_dated_source_and_a_revision() -> None:
    for item in MCP_SPEC_RULES:
        assert item.rule.family == "mcp"
        assert item.rule.cite.url.startswith("https://")
        assert item.since in MCP_REVISIONS


def test_the_toolset_hook_judges_entries_by_the_servers_revision() -> None:
    from toollens.toolsets.entries import Tool, ToolOrigin
    from toollens.toolsets.rules import mcp_spec_findings

    entries = [
        Tool.from_definition(
            "get page", "Get a page.", OBJ, {"type": "array"},
            origin=ToolOrigin(kind="json", label="t"),
        )
    ]  # fmt: skip
    old = {f.finding.rule for f in mcp_spec_findings(entries, "2025-06-18")}
    assert old == {"mcp.output-schema-not-object"}
    new = {f.finding.rule for f in mcp_spec_findings(entries, judge="mcp@2026-07-28")}
    assert new == {"mcp.name-invalid"}
