"""Payload lists with 2026's tool features: read, judged, and shown in the provider column."""

from __future__ import annotations

from typing import Any

from toollens.toolsets import Toolset
from toollens.toolsets.payloads import payload_entries
from toollens.toolsets.rules import concerns_provider

SCHEMA = {
    "type": "object",
    "properties": {"q": {"type": "string", "description": "what to look for"}},
    "required": ["q"],
    "additionalProperties": False,
}


def responses_request() -> dict[str, Any]:
    return {
        "tools": [
            {"type": "function", "name": "search", "description": "Search.", "parameters": SCHEMA,
             "strict": True, "defer_loading": True, "allowed_callers": ["programmatic"],
             "output_schema": {"type": "object"}},
            {"type": "namespace", "name": "crm", "description": "CRM tools.", "tools": [
                {"type": "function", "name": "find_contact", "description": "Find a contact.",
                 "parameters": SCHEMA, "strict": True},
                {"type": "custom", "name": "sql", "description": "Run SQL.",
                 "format": {"type": "grammar", "syntax": "lark", "definition": "start: /.+/"}},
            ]},
            {"type": "tool_search"},
        ]
    }  # fmt: skip


def test_namespaces_are_flattened_and_custom_and_search_tools_listed() -> None:
    entries = payload_entries(responses_request(), label="tools.json")
    assert [e.name for e in entries] == ["search", "find_contact", "sql", "tool_search"]
    assert [e.ok for e in entries] == [True, True, False, False]
    assert [e.error for e in entries] == [None] * 4  # listed, not refused
    assert [e.origin.role for e in entries] == [
        None, None, "custom tool, lark grammar", "tool search"
    ]  # fmt: skip
    given = entries[0].report.given if entries[0].report is not None else None
    assert given is not None
    assert [f.rule for f in given.findings] == ["openai.deferred"]


def test_payload_findings_are_the_tools_own_in_their_provider_column() -> None:
    from toollens.render.toolset_table import toolset_table

    tools = [{"name": "lookup", "description": "Look a user up.", "input_schema": SCHEMA,
              "input_examples": [{"q": 3}]}]  # fmt: skip
    ts = Toolset.from_entries(payload_entries({"tools": tools}, label="t"), label="t")
    assert ts.findings_for("lookup") == ()  # not a finding across tools
    (entry,) = ts.tools
    anthropic = entry.report_for("anthropic")
    assert anthropic is not None
    (finding,) = [f for f in anthropic.provider_findings if f.rule.startswith("anthropic.input")]
    assert finding.rule == "anthropic.input-example-invalid"
    assert finding.pointer == "/input_examples/0/q"
    assert concerns_provider(finding, "anthropic")
    chat = entry.report_for("openai-chat")
    assert chat is not None
    assert finding not in chat.provider_findings
    (row,) = toolset_table(ts, ["anthropic", "openai-chat"]).rows
    assert row.providers == {"anthropic": "error", "openai-chat": "ok"}


def test_a_web_search_tool_is_still_an_error_entry() -> None:
    (entry,) = payload_entries({"tools": [{"type": "web_search"}]}, label="t")
    assert entry.error == "tool 0 is a built-in tool of type 'web_search', with no schema"


def test_a_list_of_mcp_tools_is_judged_by_the_mcp_specification() -> None:
    tools = [{"name": "get page", "inputSchema": SCHEMA, "outputSchema": {"type": "array"}}]
    listed = {"tools": tools, "protocolVersion": "2025-11-25"}
    (entry,) = payload_entries(listed, label="t")
    assert [f.rule for f in entry.payload_findings] == [
        "mcp.output-schema-not-object",
        "mcp.name-invalid",
    ]
