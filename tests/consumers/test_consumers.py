"""Each client rule against the recorded case that reproduces it (``cases/*.tools.json``).

Every case is a small ``tools/list`` answer rebuilt from the issue the rule cites; the table
says which client gives which verdict to which tool, and by which rule.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from toollens.consumers import (
    CONSUMER_RULES,
    CONSUMERS,
    ConsumerReport,
    Evidence,
    Verdict,
    judge_consumers,
    listing_from_payload,
    resolve_clients,
    sends_strict,
)
from toollens.consumers.names import gemini_cli_name
from toollens.core.errors import TargetError

CASES = Path(__file__).parent / "cases"


def judged(case: str, *clients: str, server_name: str | None = None) -> ConsumerReport:
    """The recorded case judged by ``clients``; skips when a client's own code is absent
    (the frameworks are test-only extras, on Python 3.11+)."""
    missing = [p for c in clients for p in CONSUMERS[c].missing]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed")
    data = json.loads((CASES / f"{case}.tools.json").read_text(encoding="utf-8"))
    listing = listing_from_payload(data, label=case, server_name=server_name)
    return judge_consumers(listing, list(clients) or None)


# (case, client, tool, verdict, rule)
SD, TD, RW, OK = "server-dropped", "tool-dropped", "rewritten", "accepted"
RR = "request-rejected"

TOOL_CASES = [
    ("root-anyof", "claude-code", "ping", SD, "claude-code.input-not-object"),
    ("root-anyof", "claude-desktop", "draw", SD, "claude-desktop.input-not-object"),
    ("root-anyof", "gemini-cli", "ping", SD, "gemini-cli.input-not-object"),
    # the SDK client refuses a list with a root anyOf (no "type"): all built on it lose it all
    ("root-anyof", "mcp-python", "draw", SD, "mcp-python.list-refused"),
    ("root-anyof", "mcp-python", "ping", SD, "mcp-python.list-refused"),
    ("root-anyof", "openai-agents", "draw", SD, "openai-agents.mcp-client"),
    ("required-null", "claude-code", "ping", SD, "claude-code.required-null"),
    ("required-null", "gemini-cli", "list_tickets", SD, "gemini-cli.required-not-list"),
    ("output-array", "claude-code", "ping", SD, "claude-code.output-not-object"),
    ("output-array", "cursor", "Glob", SD, "cursor.output-not-object"),
    ("output-array", "claude-desktop", "ping", SD, "claude-desktop.output-not-object"),
    ("properties-list", "claude-code", "build", SD, "claude-code.properties-not-object"),
    ("input-list", "mcp-python", "ping", SD, "mcp-python.list-refused"),
    ("input-list", "openai-agents", "bad", SD, "openai-agents.mcp-client"),
    ("array-no-items", "vscode-copilot", "update_dashboard", TD,
     "vscode-copilot.array-without-items"),
    ("array-no-items", "vscode-copilot", "ping", OK, None),
    ("array-no-items", "claude-code", "update_dashboard", OK, None),
    ("cursor-long-name", "cursor", "GOOGLESHEETS_SPREADSHEETS_VALUES_BATCH_CLEAR_BY_DATA_FILTER",
     TD, "cursor.name-too-long"),
    ("cursor-long-name", "cursor", "ping", OK, None),
    ("gemini-rewrite", "gemini-cli", "get_item", RW, "gemini-cli.renamed"),
    ("optional-anyof", "claude-desktop", "search", RW,
     "claude-desktop.nullable-anyof-stripped"),
    ("optional-anyof", "claude-code", "search", OK, None),
    ("agents-shapes", "openai-agents", "noprops", RW, "openai-agents.description-from-title"),
    ("agents-shapes", "openai-agents-strict", "open", RW,
     "openai-agents-strict.served-non-strict"),
    ("x-mcp-header", "mcp-python", "tenant", TD, "mcp-python.x-mcp-header-invalid"),
    ("x-mcp-header", "openai-agents", "tenant", TD, "openai-agents.mcp-client"),
    ("x-mcp-header", "mcp-python", "ping", OK, None),
    # pydantic-ai, per model profile: its MCPToolset and the model's own tool mapping
    ("pydantic-ai", "pydantic-ai:openai", "add_note", RW, "pydantic-ai:openai.sent-strict"),
    ("pydantic-ai", "pydantic-ai:openai", "search", RW, "pydantic-ai:openai.schema-transformed"),
    ("pydantic-ai", "pydantic-ai:anthropic", "search", OK, None),
    ("pydantic-ai", "pydantic-ai:google", "search", RW, "pydantic-ai:google.schema-transformed"),
    ("pydantic-ai", "pydantic-ai:google", "render_panel", TD, "pydantic-ai:google.app-only"),
    # "required": "tags" is refused by the SDK client before pydantic-ai sees it
    ("pydantic-ai-refused", "pydantic-ai:anthropic", "tag", SD, "pydantic-ai:anthropic.mcp-client"),
    ("pydantic-ai-refused", "pydantic-ai:openai", "tag", SD, "pydantic-ai:openai.mcp-client"),
    ("required-null-props", "pydantic-ai:openai", "find", RR,
     "pydantic-ai:openai.transform-failed"),  # its transformer raises TypeError
    # one tool the transformer refuses ("required": null) fails the agent run: nothing is sent
    ("pydantic-ai-fails", "pydantic-ai:openai", "tag", RR, "pydantic-ai:openai.transform-failed"),
    ("pydantic-ai-fails", "pydantic-ai:openai", "add_note", RR,
     "pydantic-ai:openai.request-failed"),
    ("pydantic-ai", "mcp-python", "render_panel", OK, None),
    ("input-list", "pydantic-ai:google", "ping", SD, "pydantic-ai:google.mcp-client"),
    # LangChain: the adapter's StructuredTool, then langchain-core's convert_to_openai_tool
    ("frameworks", "langchain-mcp-adapters", "get_item", OK, None),
    ("frameworks", "langchain-mcp-adapters", "set_status", RW,
     "langchain-mcp-adapters.schema-converted"),
    ("frameworks-untyped", "langchain-mcp-adapters", "noop", SD,
     "langchain-mcp-adapters.mcp-client"),  # the SDK client refuses {} as inputSchema
    ("request-fails", "langchain-mcp-adapters", "move", RR,
     "langchain-mcp-adapters.conversion-failed"),
    ("input-list", "langchain-mcp-adapters", "bad", SD, "langchain-mcp-adapters.mcp-client"),
    # google-genai's generate_content with the MCP session as its tool: the body spells
    # the SDK's Schema (STRING, any_of), so every tool it sends is rewritten
    ("frameworks", "google-genai", "get_item", RW, "google-genai.sent-rewritten"),
    ("frameworks", "google-genai", "set_status", RW, "google-genai.keywords-dropped"),
    ("frameworks", "google-genai", "set_limit", RW, "google-genai.union-type-split"),
    # one tool it cannot convert fails the call: every tool is lost, the culprits named
    ("request-fails", "google-genai", "annotate", RR, "google-genai.conversion-failed"),
    ("request-fails", "google-genai", "move", RR, "google-genai.conversion-failed"),
    ("request-fails", "google-genai", "get_item", RR, "google-genai.request-failed"),
    ("input-list", "google-genai", "ping", SD, "google-genai.mcp-client"),
    # the Anthropic SDK's mcp_tool sends the schema as written: the provider step judges it
    ("frameworks", "anthropic-sdk", "get_item", OK, None),
    ("frameworks-untyped", "anthropic-sdk", "ping", SD, "anthropic-sdk.mcp-client"),
    ("root-anyof", "anthropic-sdk", "draw", SD, "anthropic-sdk.mcp-client"),
    ("input-list", "anthropic-sdk", "ping", SD, "anthropic-sdk.mcp-client"),
    # the provider step after the clients: what Claude Code sends, Anthropic judges; Gemini
    # CLI, Gemini; Cursor talks to the model the user picks, so none
    ("provider-refuses", "claude-code", "move", RR, "schema.unresolved-ref"),
    ("provider-refuses", "claude-code", "list_items", OK, None),
    # Gemini CLI skips a tool with an untyped node (a bare $ref) before its provider sees it
    ("provider-refuses", "gemini-cli", "move", TD, "gemini-cli.missing-types"),
    ("provider-refuses", "cursor", "move", OK, None),
    ("provider-refuses", "openai-agents", "move", RR, "schema.unresolved-ref"),
    # tool names and property keys the API refuses, and untyped nodes (tests/rejections)
    ("client-names-keys", "claude-code", "time/get current", RR, "anthropic.name-invalid"),
    ("client-names-keys", "claude-code", "list_rules", TD, "claude-code.property-key-invalid"),
    ("client-names-keys", "claude-code", "nested_ok", OK, None),
    ("client-names-keys", "gemini-cli", "run_config", TD, "gemini-cli.missing-types"),
    ("client-names-keys", "gemini-cli", "time/get current", RW, "gemini-cli.renamed"),
    ("client-names-keys", "gemini-cli", "nested_ok", OK, None),
]  # fmt: skip


@pytest.mark.parametrize(
    ("case", "client", "tool", "verdict", "rule_id"),
    TOOL_CASES,
    ids=[f"{c}-{cl}-{t[:20]}" for c, cl, t, _, _ in TOOL_CASES],
)
def test_each_rule_decides_its_recorded_case(
    case: str, client: str, tool: str, verdict: str, rule_id: str | None
) -> None:
    (found,) = judged(case, client).verdicts_for(tool)
    assert found.verdict is Verdict(verdict)
    rules = [hit.rule.id for hit in found.hits]
    assert (rule_id in rules) if rule_id else rules == []
    if found.verdict in (Verdict.SERVER_DROPPED, Verdict.TOOL_DROPPED):
        assert found.sent is None
    elif found.provider is not None and found.provider.rejected:
        assert found.sent is not None  # sent, then refused by the provider
        assert {f.rule for f in found.provider.errors} <= set(rules)
    elif found.verdict is not Verdict.REQUEST_REJECTED:
        assert found.sent is not None


# (case, client, verdict, rule, how many tools it names)
REQUEST_CASES = [
    ("many-tools", "vscode-copilot", RR, "vscode-copilot.too-many-tools", 2),
    ("many-tools", "gemini-cli", RR, "gemini-cli.too-many-tools", 2),
    ("many-tools", "openai-agents", RR, "openai-agents.too-many-tools", 2),
    ("many-tools", "pydantic-ai:openai", RR, "pydantic-ai:openai.too-many-tools", 2),
    ("many-tools", "pydantic-ai:google", RR, "pydantic-ai:google.too-many-tools", 2),
    ("many-tools", "langchain-mcp-adapters", RR, "langchain-mcp-adapters.too-many-tools", 2),
    ("many-tools", "google-genai", RR, "google-genai.too-many-tools", 2),
    ("many-tools", "cursor", OK, "cursor.too-many-tools", 50),
    ("many-tools", "claude-code", RR, "claude-code.prefixed-name-too-long", 130),
    ("cursor-long-name", "claude-code", RR, "claude-code.prefixed-name-too-long", 1),
]  # fmt: skip


@pytest.mark.parametrize(
    ("case", "client", "verdict", "rule_id", "count"),
    REQUEST_CASES,
    ids=[f"{c}-{r}" for c, _, _, r, _ in REQUEST_CASES],
)
def test_request_verdicts_name_the_tools_that_push_it_over(
    case: str, client: str, verdict: str, rule_id: str, count: int
) -> None:
    requests = [r for r in judged(case, client).requests() if r.hit.rule.id == rule_id]
    assert len(requests) == 1
    assert requests[0].verdict is Verdict(verdict)
    assert len(requests[0].tools) == count


def test_a_refused_list_names_the_tool_and_the_pointer() -> None:
    (verdict, _) = judged("input-list", "mcp-python").judgement("mcp-python").tools
    (hit,) = verdict.hits
    assert hit.pointer == "/tools/1/inputSchema"
    assert "'bad'" in hit.message
    (ts_hit,) = judged("root-anyof", "claude-code").judgement("claude-code").tools[0].hits
    assert ts_hit.pointer == "/tools/1/inputSchema/type"
    assert "'draw'" in ts_hit.message


def test_what_clients_send_is_rewritten_as_they_rewrite_it() -> None:
    (gemini,) = judged("gemini-rewrite", "gemini-cli").verdicts_for("get_item")
    assert gemini.sent is not None
    assert gemini.sent["name"] == "mcp_my_server_get_item"
    assert gemini.sent["inputSchema"]["properties"]["id"] == {"type": "string", "nullable": True}
    (desktop,) = judged("optional-anyof", "claude-desktop").verdicts_for("search")
    assert desktop.sent is not None
    assert desktop.sent["inputSchema"]["properties"]["tags"] == {
        "default": None,
        "description": "tags",
    }
    (code,) = judged("optional-anyof", "claude-code").verdicts_for("search")
    assert code.sent is not None
    assert code.sent["name"] == "mcp__fastmcp__search"


def test_the_agents_sdk_decides_what_it_sends() -> None:
    pytest.importorskip("agents")
    report = judged("agents-shapes", "openai-agents", "openai-agents-strict")
    plain, _ = report.verdicts_for("noprops")
    assert plain.sent == {  # the tool in the recorded body of an agent run
        "type": "function",
        "name": "noprops",
        "description": "No properties",  # the title, as the SDK falls back to it
        "parameters": {"type": "object", "properties": {}},
        "strict": False,
    }
    open_strict = report.judgement("openai-agents-strict").verdict_for("open")
    assert open_strict is not None
    assert open_strict.sent is not None
    assert open_strict.sent["strict"] is False  # served non-strict: conversion failed
    assert "undeclared properties" in open_strict.hits[0].message


def test_server_name_changes_the_names_clients_use() -> None:
    report = judged("cursor-long-name", "cursor", server_name="")
    assert report.listing.server_name == "g"  # empty: the serverInfo name
    shorter = judged("cursor-long-name", "claude-code", server_name="x")
    (tool,) = [v for v in shorter.judgement("claude-code").tools if v.tool == "ping"]
    assert tool.sent is not None
    assert tool.sent["name"] == "mcp__x__ping"


@pytest.mark.parametrize(
    ("server", "tool", "expected"),
    [
        ("srv", "tool", "mcp_srv_tool"),
        ("my server", "get/item", "mcp_my_server_get_item"),
        ("mcp", "x", "mcp_x"),  # already prefixed: not twice
        ("s", "é", "mcp_s__"),
        ("s", "\U0001f600", "mcp_s___"),  # JavaScript counts UTF-16 units: two underscores
        ("s" * 40, "t" * 40, "mcp_" + "s" * 26 + "..." + "s" * 0 + "t" * 30),
    ],
    ids=["plain", "unsafe", "prefixed", "accent", "astral", "long"],
)
def test_gemini_cli_names(server: str, tool: str, expected: str) -> None:
    assert gemini_cli_name(server, tool) == expected


def test_every_rule_has_a_source_a_date_and_an_evidence_level() -> None:
    ids = [r.id for r in CONSUMER_RULES]
    assert len(ids) == len(set(ids))
    for item in CONSUMER_RULES:
        assert item.consumer in CONSUMERS, item.id
        assert item.source.startswith("https://"), item.id
        assert len(item.date) == 10, item.id
        assert item.date.startswith("20"), item.id
        assert isinstance(item.evidence, Evidence)


def test_clients_resolve_and_say_whether_they_send_strict() -> None:
    from toollens.consumers.registry import available_clients

    # every client whose code is installed here (the frameworks need Python 3.11+)
    assert resolve_clients(["all"]) == available_clients()
    assert set(available_clients()) <= set(CONSUMERS)
    assert resolve_clients(["cursor", "cursor"]) == ("cursor",)
    assert not sends_strict(["openai-agents", "claude-code"])
    assert sends_strict(["openai-agents-strict"])
    with pytest.raises(TargetError, match="not a client toollens knows"):
        resolve_clients(["netscape"])


def test_the_consumer_layer_imports_no_framework() -> None:
    code = (
        "import sys, toollens.consumers\n"
        "bad = [m for m in ('agents', 'mcp', 'mcp_types', 'IPython', 'toollens.cli', "
        "'pydantic_ai', 'langchain_core', 'google.genai', 'anthropic', 'fastmcp') "
        "if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def _section(page: str, name: str) -> str:
    start = page.index(f"<!-- {name}:begin -->\n") + len(f"<!-- {name}:begin -->\n")
    return page[start : page.index(f"<!-- {name}:end -->")]


def test_the_clients_page_lists_every_consumer_and_rule() -> None:
    from toollens.consumers.table import consumers_markdown, rules_markdown

    page = (Path(__file__).parents[2] / "docs" / "clients.md").read_text(encoding="utf-8")
    # Regenerate the two sections from toollens.consumers.table when the table changes.
    assert _section(page, "consumers") == consumers_markdown()
    assert _section(page, "rules") == rules_markdown()
    for item in CONSUMER_RULES:
        assert f"`{item.id}`" in page


def test_the_provider_judges_what_the_client_sends_strict_only_when_sent_strict() -> None:
    report = judged("pydantic-ai", "pydantic-ai:openai", "pydantic-ai:anthropic")
    openai = report.judgement("pydantic-ai:openai").verdict_for("add_note")
    assert openai is not None
    assert openai.provider is not None
    assert openai.sent is not None
    assert openai.sent["strict"] is True  # pydantic-ai found it strict-compatible
    assert (openai.provider.provider, openai.provider.strict) == ("openai-responses", True)
    assert not openai.provider.rejected
    anthropic = report.judgement("pydantic-ai:anthropic").verdict_for("add_note")
    assert anthropic is not None
    assert anthropic.provider is not None
    assert (anthropic.provider.provider, anthropic.provider.strict) == ("anthropic", False)


def test_a_refused_tool_keeps_what_was_sent_and_cites_the_provider_rule() -> None:
    (verdict,) = judged("provider-refuses", "claude-code").verdicts_for("move")
    assert verdict.sent is not None
    assert verdict.sent["name"] == "mcp__depot__move"
    assert verdict.provider is not None
    assert verdict.provider.rejected
    (hit,) = [h for h in verdict.hits if h.rule.id == "schema.unresolved-ref"]
    assert hit.pointer == "/properties/to/$ref"
    assert hit.rule.source.startswith("https://")
    assert hit.rule.date.startswith("20")
    assert verdict.to_json()["provider"]["accepted"] is False
    data = json.loads((CASES / "provider-refuses.tools.json").read_text(encoding="utf-8"))
    alone = judge_consumers(listing_from_payload(data, label="x"), ["claude-code"], providers=False)
    (before,) = alone.verdicts_for("move")
    assert (before.verdict, before.provider) == (Verdict.ACCEPTED, None)


def test_clients_without_one_provider_are_not_judged_by_one() -> None:
    report = judged("provider-refuses", "cursor", "vscode-copilot", "mcp-python")
    assert all(v.provider is None for j in report.judgements for v in j.tools)
    assert {c.id: c.provider for c in CONSUMERS.values()}["gemini-cli"] == "gemini"


def test_a_client_whose_code_is_missing_is_left_out_of_all_and_named_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from toollens.consumers import registry

    ghost = dataclasses.replace(
        CONSUMERS["anthropic-sdk"], id="ghost", requires=(("toollens_no_such_module", "ghost-sdk"),)
    )
    monkeypatch.setitem(registry.CONSUMERS, "ghost", ghost)  # type: ignore[index]
    assert ghost.missing == ("ghost-sdk",)
    assert "ghost" not in resolve_clients(["all"])
    with pytest.raises(TargetError, match="ghost-sdk is not installed"):
        resolve_clients(["ghost"])


def test_the_langchain_restatement_is_what_the_installed_adapter_builds() -> None:
    """The adapter pins mcp<2 and cannot import beside the SDK 2 here; its StructuredTool
    construction is read from its installed source instead."""
    import ast
    import importlib.util

    spec = importlib.util.find_spec("langchain_mcp_adapters")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("langchain-mcp-adapters is not installed")
    source = Path(next(iter(spec.submodule_search_locations)), "tools.py").read_text("utf-8")
    (convert,) = [
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef) and node.name == "convert_mcp_tool_to_langchain_tool"
    ]
    (built,) = [
        node
        for node in ast.walk(convert)
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "StructuredTool"
    ]
    args = {k.arg: ast.unparse(k.value) for k in built.keywords}
    assert args["description"] == "tool.description or ''"
    assert args["args_schema"] == "tool.inputSchema"
    assert args["name"] == "lc_tool_name"
    assert args["response_format"] == "'content_and_artifact'"
