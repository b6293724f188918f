"""The command line on mcp: targets: show, check --provider all, diff, snapshot and diff --lock."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from mcp_support import server

from toollens.cli import EXIT_BREAKING, EXIT_FINDINGS, EXIT_OK, main
from toollens.core.providers import PROVIDERS

pytest.importorskip("mcp")
pytestmark = pytest.mark.network_ok  # servers run as child processes (stdio, no sockets)

TOOLS: list[dict[str, Any]] = [
    {"name": "lookup", "description": "Find a customer record by its id.",
     "inputSchema": {"type": "object", "properties": {
         "id": {"type": "string", "description": "the customer id"}},
         "required": ["id"], "additionalProperties": False},
     "outputSchema": {"type": "object", "properties": {"found": {"type": "boolean"}}}},
    {"name": "notify", "description": "Send a message to a customer.",
     "inputSchema": {"type": "object", "properties": {
         "text": {"type": "string", "description": "what to say"}},
         "required": ["text"], "additionalProperties": False}},
]  # fmt: skip


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_check_every_provider_per_tool() -> None:
    # Strict findings only when a client that sends strict is chosen (see docs/clients.md).
    strict = ("--client", "openai-agents-strict")
    code, out, err = run("check", server("sdk_tools.py", "formats"), "--provider", "all", *strict)
    assert code == EXIT_FINDINGS, err
    header, table = out.splitlines()[0], out.splitlines()[2]
    assert header.startswith("mcp:")
    assert header.split(": ", 1)[1].startswith("1 tool; ")
    assert table.split() == ["tool", *PROVIDERS, "lint", "openai-agents-strict"]
    assert "fetch_page (mcp:" in out
    assert "formats#fetch_page):" in out
    assert "error[openai.format-unsupported] at /properties/url/format" in out


def test_check_judges_an_mcp_server_as_its_clients_send_it() -> None:
    code, out, err = run("check", server("sdk_tools.py", "formats"))
    assert code == EXIT_OK, out + err  # non-strict: format "uri" is fine
    assert "openai.format-unsupported" not in out
    assert "clients (server name" in out


def test_check_json_and_github() -> None:
    target = server("sdk_tools.py", "clean")
    code, out, _ = run("check", target, "--format", "json", "--provider", "anthropic")
    data = json.loads(out)
    assert code == EXIT_OK
    assert data["source"] == target
    assert [t["name"] for t in data["tools"]] == ["search", "get_time"]
    assert data["tools"][0]["origin"] == {
        "kind": "mcp", "label": target + "#search", "module": None, "line": None,
        "index": None, "role": None,
    }  # fmt: skip
    assert list(data["tools"][0]["check"]["providers"]) == ["anthropic"]
    assert data["tools"][0]["check"]["verdicts"]["anthropic"]["accepted"] is True
    code, out, _ = run("check", target, "--format", "github")
    # No project declares this server: annotations point at its script.
    note = "title=toollens lint%3A lint.missing-parameter-description::"
    assert f"::warning file=tests/mcp/mcp_servers/sdk_tools.py,{note}" in out


def test_check_130_tools_finds_what_no_single_tool_shows() -> None:
    _code, out, _ = run("check", server("sdk_tools.py", "many"), "--format", "json")
    data = json.loads(out)
    assert len(data["tools"]) == 130
    assert "toolset.openai-too-many-tools" in out


def test_show_prints_the_output_schema_as_sent() -> None:
    target = server("sdk_tools.py", "output")
    code, out, _ = run("show", target)
    assert code == EXIT_OK
    assert "== tool forecast (" in out
    assert "MCP outputSchema" in out
    assert '"celsius"' in out
    code, out, _ = run("show", target, "--view", "output")
    assert "MCP outputSchema" in out
    assert "Strict" not in out
    code, out, _ = run("show", target, "--format", "json", "--view", "strict")
    data = json.loads(out)
    tool = data["tools"][0]
    assert tool["name"] == "forecast"
    assert tool["mcp"]["outputSchema"]["title"] == "Forecast"
    # shown as MCP clients send it (non-strict, as check judges it): the server's schema
    assert tool["show"] == tool["mcp"]["inputSchema"]


def _write_tools(path: Path, tools: list[dict[str, Any]]) -> None:
    path.write_text(json.dumps(tools), encoding="utf-8")


def test_diff_two_versions_of_one_tool(tmp_path: Path) -> None:
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    _write_tools(old, TOOLS)
    changed = json.loads(json.dumps(TOOLS))
    changed[0]["inputSchema"]["properties"]["region"] = {"type": "string"}
    changed[0]["inputSchema"]["required"].append("region")
    _write_tools(new, changed)
    old_t = server("raw_tools.py", str(old), tool="lookup")
    new_t = server("raw_tools.py", str(new), tool="lookup")
    code, out, err = run("diff", old_t, new_t)
    assert code == EXIT_BREAKING, err
    assert "/properties/region" in out
    code, _, err = run("diff", old_t, server("raw_tools.py", str(old)))
    assert code == 3
    assert "names a server with 2 tools; diff compares one" in err


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    _write_tools(tmp_path / "tools.json", TOOLS)
    target = server("raw_tools.py", "tools.json")  # relative: the server starts in the root
    (tmp_path / "pyproject.toml").write_text(
        f'[project]\nname = "demo"\n\n[tool.toollens]\ntools = [{json.dumps(target)}]\n'
        'providers = ["openai-chat", "anthropic"]\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_snapshot_then_a_breaking_server_change_fails_diff_lock(project: Path) -> None:
    code, out, err = run("snapshot", "--timeout", "20")
    assert code == EXIT_OK, err
    assert out.startswith("wrote toollens.lock.json: 2 tools (lookup, notify)")
    lock = json.loads((project / "toollens.lock.json").read_text(encoding="utf-8"))
    entry = lock["tools"]["lookup"]
    assert entry["description"] == "Find a customer record by its id."
    assert entry["output"]["schema"] == TOOLS[0]["outputSchema"]
    assert set(entry["providers"]) == {"openai-chat", "anthropic"}
    assert run("diff", "--lock")[0] == EXIT_OK

    changed = json.loads(json.dumps(TOOLS))
    changed[1]["inputSchema"]["properties"]["urgent"] = {"type": "boolean"}
    changed[1]["inputSchema"]["required"].append("urgent")
    _write_tools(project / "tools.json", changed)
    code, out, _ = run("diff", "--lock")
    assert code == EXIT_BREAKING
    assert "notify (mcp:" in out
    assert "#notify)" in out
    code, out, _ = run("diff", "--lock", "--format", "github")
    assert code == EXIT_BREAKING
    # An MCP tool points at the pyproject.toml line declaring its server.
    assert (
        "::error file=pyproject.toml,line=5,title=toollens%3A breaking change to tool notify::"
        in out
    )


def test_check_without_target_reads_mcp_servers_from_the_table(project: Path) -> None:
    code, out, err = run("check", "--provider", "all", "--format", "json")
    assert code == EXIT_OK, err
    checked = json.loads(out)
    assert [t["name"] for t in checked["tools"]] == ["lookup", "notify"]
    assert all(set(t["check"]["providers"]) == set(PROVIDERS) for t in checked["tools"])


def test_snapshot_of_a_server_named_with_toolset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write_tools(tmp_path / "tools.json", TOOLS)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "demo"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, _, err = run("snapshot", "--toolset", server("raw_tools.py", "tools.json"))
    assert code == EXIT_OK, err
    lock = json.loads((tmp_path / "toollens.lock.json").read_text(encoding="utf-8"))
    assert sorted(lock["tools"]) == ["lookup", "notify"]
    assert lock["tools"]["lookup"]["output"]["schema"] == TOOLS[0]["outputSchema"]
    assert lock["tools"]["notify"]["output"] is None
