"""One tool payload on its own and the same tool in a ``tools`` list are judged alike.

``toollens check tool.json`` builds a single report; ``toollens check tools.json`` builds a
toolset. Both read the payload the same way (:mod:`toollens.core.providers.given`): same
strictness, same findings with the same ids and pointers, the payload's own fields in the
payload shown for its provider.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toollens.cli import main
from toollens.core.report import report
from toollens.toolsets import toolset

SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "unit": {"type": "string"}},
    "required": ["city"],
}
CLOSED = {**SCHEMA, "additionalProperties": False}

# (id, the payload of one tool, the provider it is written for, rule ids its fields give)
SHAPES: list[tuple[str, dict[str, Any], str, set[str]]] = [
    ("anthropic-2026-fields",
     {"name": "weather", "description": "Weather for a city.", "input_schema": SCHEMA,
      "input_examples": [{"city": "Paris"}, {"city": 3}], "defer_loading": True,
      "allowed_callers": ["direct", "code_execution_20250825"], "cache_control": {"type":
      "ephemeral"}, "bogus": 1},
     "anthropic",
     {"anthropic.input-example-invalid", "anthropic.deferred", "anthropic.unknown-field"}),
    ("anthropic-strict",
     {"name": "weather", "description": "Weather.", "input_schema": CLOSED, "strict": True},
     "anthropic", set()),
    ("responses-without-strict",
     {"type": "function", "name": "weather", "description": "Weather.", "parameters": CLOSED},
     "openai-responses", {"openai.responses-strict-default"}),
    ("responses-2026-fields",
     {"type": "function", "name": "weather", "description": "Weather.", "parameters": CLOSED,
      "strict": False, "defer_loading": True, "allowed_callers": ["nobody"],
      "output_schema": "text"},
     "openai-responses",
     {"openai.deferred", "openai.allowed-callers-unknown", "openai.output-schema-not-object"}),
    ("chat-with-responses-fields",
     {"type": "function", "function": {"name": "weather", "description": "Weather.",
      "parameters": SCHEMA, "defer_loading": True}},
     "openai-chat", {"openai.unknown-function-field"}),
    ("gemini-both-parameter-fields",
     {"name": "weather", "description": "Weather.", "parameters": SCHEMA,
      "parametersJsonSchema": SCHEMA},
     "gemini", {"gemini.parameters-exclusive"}),
]  # fmt: skip
IDS = [case[0] for case in SHAPES]


def _key(finding: Any) -> tuple[str, str | None, str]:
    return finding.rule, finding.pointer, finding.message


@pytest.mark.parametrize(("payload", "provider", "rules"), [c[1:] for c in SHAPES], ids=IDS)
def test_one_tool_and_the_same_tool_in_a_list_get_the_same_report(
    payload: dict[str, Any], provider: str, rules: set[str]
) -> None:
    (entry,) = toolset({"tools": [payload]}).tools
    alone = report(payload, provider=provider)  # type: ignore[arg-type]
    listed = entry.report_for(provider)
    assert listed is not None
    assert alone.given is not None
    assert alone.given.provider == provider
    assert alone.options.strict == listed.options.strict
    assert sorted(map(_key, alone.provider_findings)) == sorted(map(_key, listed.provider_findings))
    assert rules <= {f.rule for f in alone.provider_findings}
    # the payload's own fields travel in the payload shown for its provider
    assert alone.provider_payload == listed.provider_payload
    shown = alone.provider_payload or {}
    inner = shown.get("function", shown)
    for key in alone.given.own_fields:
        assert inner[key] == alone.given.own_fields[key]


@pytest.mark.parametrize(("payload", "provider", "rules"), [c[1:] for c in SHAPES], ids=IDS)
def test_check_says_the_same_of_one_tool_and_of_the_list(
    payload: dict[str, Any],
    provider: str,
    rules: set[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    one, many = tmp_path / "tool.json", tmp_path / "tools.json"
    one.write_text(json.dumps(payload))
    many.write_text(json.dumps({"tools": [payload]}))
    # no --provider: a payload is checked against the provider it is written for
    code_one = main(["check", str(one), "--format", "json"])
    single = json.loads(capsys.readouterr().out)
    code_many = main(["check", str(many), "--format", "json"])
    listed = json.loads(capsys.readouterr().out)
    assert code_one == code_many
    assert list(single["providers"]) == [provider] == listed["providers"]
    (tool,) = listed["tools"]
    assert tool["check"]["providers"] == single["providers"]
    assert listed["findings"] == []  # the payload's findings are the tool's, not the set's
    found = {f["rule"] for f in single["providers"][provider]}
    assert rules <= found


def test_a_payload_is_judged_as_strict_as_its_provider_sends_it() -> None:
    # Anthropic and Chat Completions default to non-strict; the Responses API sends a
    # function without strict strict when it can; an explicit flag always wins.
    anthropic = {"name": "w", "input_schema": CLOSED}
    assert report(anthropic).options.strict is False
    assert report({**anthropic, "strict": True}, strict=False).options.strict is True
    chat = {"type": "function", "function": {"name": "w", "parameters": CLOSED}}
    assert report(chat).options.strict is False
    responses = {"type": "function", "name": "w", "parameters": CLOSED}
    assert report(responses).options.strict is True
    open_map = {"type": "object", "additionalProperties": {"type": "string"}}
    assert report({**responses, "parameters": open_map}).options.strict is False


def test_a_payloads_name_and_description_name_the_report() -> None:
    rep = report({"name": "lookup", "description": "Look up.", "input_schema": SCHEMA})
    assert rep.title == "lookup"
    assert rep.options.description == "Look up."
    assert report({"name": "lookup", "input_schema": SCHEMA}, name="other").title == "other"


def test_one_mcp_tool_is_checked_as_a_list_of_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tool = {"name": "get page", "description": "Get a page.", "inputSchema": SCHEMA}
    one, many = tmp_path / "tool.json", tmp_path / "tools.json"
    one.write_text(json.dumps(tool))
    many.write_text(json.dumps({"tools": [tool]}))
    code_one = main(["check", str(one), "--format", "json"])
    single = json.loads(capsys.readouterr().out)
    code_many = main(["check", str(many), "--format", "json"])
    listed = json.loads(capsys.readouterr().out)
    assert code_one == code_many
    assert [t["check"] for t in single["tools"]] == [t["check"] for t in listed["tools"]]
    assert single["findings"] == listed["findings"]
    assert "mcp.name-invalid" in {f["rule"] for f in single["findings"]}
