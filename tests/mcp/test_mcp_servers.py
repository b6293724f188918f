"""Real MCP servers started as subprocesses: what toollens lists and how it judges each tool."""

from __future__ import annotations

import asyncio
import json
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest
from mcp_support import PYTHON, SERVERS, pids, server, survivors

from toollens.core.errors import TargetError
from toollens.core.providers import PROVIDERS
from toollens.core.report import ReportOptions
from toollens.mcp import ConnectOptions, ServerTools, fetch_tools
from toollens.mcp.judge import declared_output, tool_report

pytest.importorskip("mcp")
pytestmark = pytest.mark.network_ok  # servers run as child processes (stdio, no sockets)

OPTIONS = ConnectOptions(timeout=20)
RAW_TOOLS: list[dict[str, Any]] = [
    {"name": "lookup", "description": "Find a record by its id.",
     "inputSchema": {"type": "object", "required": ["id"], "additionalProperties": False,
                     "properties": {"id": {"type": "string", "description": "record id"}}}},
    {"name": "open_map", "inputSchema": {"type": "object",
                                         "properties": {"tags": {"type": "object"}}}},
    {"name": "uses_ref", "description": "A tool whose schema refers to its definitions.",
     "inputSchema": {"type": "object", "properties": {"at": {"$ref": "#/$defs/Point"}},
                     "required": ["at"], "additionalProperties": False,
                     "$defs": {"Point": {"type": "object", "additionalProperties": False,
                                         "properties": {"x": {"type": "number"}},
                                         "required": ["x"]}}},
     "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
     "annotations": {"readOnlyHint": True, "title": "Uses a ref"}},
    {"name": "zz_unordered", "description": "Keys in an unusual order are kept.",
     "inputSchema": {"type": "object", "properties": {"b": {"type": "integer"},
                                                      "a": {"type": "integer"}}}},
    {"name": "last", "description": "The fifth tool, on the third page.",
     "inputSchema": {"type": "object", "properties": {}}},
]  # fmt: skip


@pytest.fixture(scope="module")
def clean() -> ServerTools:
    return fetch_tools(server("sdk_tools.py", "clean"), OPTIONS)


def _raw_tools_list(script: str, *args: str) -> list[dict[str, Any]]:
    """The tools/list answer read straight off the server's stdout: the oracle for 'as sent'."""
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                    "clientInfo": {"name": "test", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]  # fmt: skip
    proc = subprocess.Popen(
        [PYTHON, str(SERVERS / script), *args],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    watchdog = threading.Timer(30, proc.kill)  # a hung server fails the test, not the run
    watchdog.start()
    try:
        assert proc.stdin is not None
        assert proc.stdout is not None
        proc.stdin.write("".join(json.dumps(r) + "\n" for r in requests))
        proc.stdin.flush()  # stdin stays open until the answer is read
        answer = next(json.loads(line) for line in proc.stdout if '"id":2' in line)
    finally:
        watchdog.cancel()
        proc.kill()
        proc.wait()
    tools: list[dict[str, Any]] = answer["result"]["tools"]
    return tools


def test_clean_server_tools_are_read_exactly_as_sent(clean: ServerTools) -> None:
    sent = _raw_tools_list("sdk_tools.py", "clean")
    assert [t.name for t in clean.tools] == ["search", "get_time"]
    for tool, raw in zip(clean.tools, sent, strict=False):
        # Same keys in the same order: json.dumps without sort_keys compares the bytes.
        assert json.dumps(tool.input_schema) == json.dumps(raw["inputSchema"])
        assert tool.description == raw.get("description")
        assert dict(tool.definition) == raw
    assert clean.tools[1].annotations == {"readOnlyHint": True}
    assert clean.info.name == "sdk-tools"
    assert clean.pages == 1


def test_every_provider_judges_the_schema_as_sent(clean: ServerTools) -> None:
    search = clean.tools[0]
    reports = [tool_report(search, ReportOptions(provider=p)) for p in PROVIDERS]
    assert [r.provider for r in reports] == list(PROVIDERS)
    for rep in reports:
        assert rep.title == "search"
        assert rep.raw_schema == search.input_schema
        assert rep.provider_payload is not None, rep.view_errors
        assert rep.provider_verdict is not None
    chat = reports[0].provider_payload
    assert chat is not None
    assert chat["function"]["name"] == "search"
    assert chat["function"]["description"].startswith("Search the catalogue.")


def test_lint_reads_the_schema_only(clean: ServerTools) -> None:
    rep = tool_report(clean.tools[1], ReportOptions())  # get_time: zone has no description
    assert [(f.rule, f.pointer) for f in rep.lint] == [
        ("lint.missing-parameter-description", "/properties/zone")
    ]
    assert "inputSchema" in (rep.lint[0].fix or "")


def test_defs_are_kept_and_made_strict() -> None:
    tool = fetch_tools(server("sdk_tools.py", "defs"), OPTIONS).tools[0]
    assert "$defs" in tool.input_schema
    rep = tool_report(tool, ReportOptions(provider="openai-chat"))
    assert rep.schema is not None
    assert "$defs" in rep.schema
    assert rep.provider_verdict is not None
    assert rep.provider_verdict.accepted


def test_formats_openai_rejects_are_named() -> None:
    tool = fetch_tools(server("sdk_tools.py", "formats"), OPTIONS).tools[0]
    rep = tool_report(tool, ReportOptions(provider="openai-chat"))
    rules = {(f.rule, f.pointer) for f in rep.provider_findings}
    assert ("openai.format-unsupported", "/properties/url/format") in rules
    assert rep.provider_verdict is not None
    assert not rep.provider_verdict.accepted
    assert "strict" in rep.view_errors  # the open dict cannot be strict: said, not raised


def test_130_tools_as_a_toolset_with_the_cross_tool_findings() -> None:
    import toollens

    tools = toollens.toolset(server("sdk_tools.py", "many"))
    assert len(tools) == 130
    assert tools.names[0] == "tool_000"
    assert tools.names[-1] == "tool_129"
    assert "toolset.openai-too-many-tools" in {f.rule for f in tools.findings}
    first = tools[0]
    assert first.origin.kind == "mcp"
    assert first.origin.label.endswith("many#tool_000")
    assert first.description == "Tool number 0."
    assert [f.rule for f in first.findings] == ["lint.missing-parameter-description"]


def test_a_broken_server_raises_one_target_error(tmp_path: Path) -> None:
    import toollens

    pidfile = tmp_path / "pids"
    options = ConnectOptions(env={"TOOLLENS_TEST_PIDFILE": str(pidfile)}, timeout=5)
    with pytest.raises(toollens.TargetError) as info:
        toollens.toolset(server("broken.py", "crash"), connect=options)
    assert "exited with code 1 during initialize" in str(info.value)
    assert survivors(pidfile) == []


def test_output_schema_is_kept_as_sent() -> None:
    tool = fetch_tools(server("sdk_tools.py", "output"), OPTIONS).tools[0]
    raw = _raw_tools_list("sdk_tools.py", "output")[0]
    assert tool.output_schema == raw["outputSchema"]
    assert tool.output_schema is not None
    entry = declared_output(tool.name, tool.output_schema)
    assert entry["schema"] == raw["outputSchema"]
    assert entry["name"] == "Forecast"


def test_low_level_server_pages_and_raw_schemas(tmp_path: Path) -> None:
    tools_file = tmp_path / "tools.json"
    tools_file.write_text(json.dumps(RAW_TOOLS), encoding="utf-8")
    listed = fetch_tools(server("lowlevel_raw.py", str(tools_file)), OPTIONS)
    assert listed.pages == 3  # two tools a page
    assert listed.info.name == "raw-tools"
    assert listed.info.version == "1.2.3"
    for tool, raw in zip(listed.tools, RAW_TOOLS, strict=True):
        assert tool.input_schema == raw["inputSchema"]
    # The SDK's server re-serialises the schemas; what it put on the wire is what is kept.
    first_page = _raw_tools_list("lowlevel_raw.py", str(tools_file))
    for tool, sent in zip(listed.tools, first_page, strict=False):
        assert json.dumps(tool.input_schema) == json.dumps(sent["inputSchema"])
    uses_ref = listed.tools[2]
    assert uses_ref.title == "Uses a ref"  # from annotations.title
    assert uses_ref.output_schema == RAW_TOOLS[2]["outputSchema"]


def test_hash_names_one_tool_and_env_reaches_the_server(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    options = ConnectOptions(env={"TOOLLENS_TEST_PIDFILE": str(pidfile)}, timeout=20)
    listed = fetch_tools(server("sdk_tools.py", "clean", tool="get_time"), options)
    assert [t.name for t in listed.tools] == ["get_time"]
    assert listed.tools[0].target.endswith("clean#get_time")
    assert len(pids(pidfile)) == 1  # the variable was in the server's environment
    assert survivors(pidfile) == []  # and the server is gone once the tools are listed


def test_unknown_tool_suggests_the_close_name() -> None:
    with pytest.raises(TargetError) as info:
        fetch_tools(server("sdk_tools.py", "clean", tool="serch"), OPTIONS)
    assert "has no tool 'serch'" in str(info.value)
    assert "did you mean 'search'" in str(info.value)


def test_works_from_inside_a_running_event_loop() -> None:
    async def in_a_notebook_cell() -> ServerTools:
        return fetch_tools(server("sdk_tools.py", "clean"), OPTIONS)

    assert len(asyncio.run(in_a_notebook_cell()).tools) == 2


def test_fastmcp_server() -> None:
    pytest.importorskip("fastmcp")
    listed = fetch_tools("mcp:" + f"{PYTHON} {SERVERS / 'fastmcp_tools.py'}", OPTIONS)
    order, cancel = listed.tools
    assert order.output_schema is not None
    assert order.title == "Order"
    assert cancel.annotations == {"destructiveHint": True}
    reports = [tool_report(order, ReportOptions(provider=p)) for p in PROVIDERS]
    anthropic = next(r for r in reports if r.provider == "anthropic")
    assert any(f.pointer == "/properties/items/items/properties/quantity/minimum"
               for f in anthropic.provider_findings)  # fmt: skip
