"""The defaults every command takes for a source, decided once: an MCP tool list (an ``mcp:``
server, a saved ``tools/list`` answer, a bare list of MCP tools) is judged non-strict, as
clients send it, by ``show`` exactly as by ``check``; a payload file is shown for the
provider it is written for, as ``check`` judges it."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp_support import server

from toollens.cli import main

pytestmark = [
    pytest.mark.network_ok,  # the mcp: rows start a stdio server (no sockets)
    pytest.mark.skipif(sys.platform == "win32", reason="the fixture server is a POSIX command"),
]

SCHEMA = {
    "type": "object",
    "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
    "required": ["query"],
}
LISTED = {"name": "search", "description": "Search the catalogue.", "inputSchema": SCHEMA}
FUNCTION = {"name": "search", "description": "Search the catalogue.", "parameters": SCHEMA}


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bare.json").write_text(json.dumps([LISTED]))
    (tmp_path / "saved.json").write_text(json.dumps({"tools": [LISTED]}))
    (tmp_path / "openai.json").write_text(json.dumps([{"type": "function", "function": FUNCTION}]))
    return {
        "mcp-server": server("raw_tools.py", str(tmp_path / "bare.json")),
        "saved-list": "saved.json",
        "bare-list": "bare.json",
        "openai-payload": "openai.json",
    }


def _shown_strict(target: str, *more: str) -> dict[str, Any]:
    code, out, err = run("show", target, "--view", "strict", "--format", "json", *more)
    assert code == 0, err
    data = json.loads(out)
    if isinstance(data, dict) and "tools" in data:  # a server: its answer around the tools
        data = [tool["show"] for tool in data["tools"]]
    (schema,) = data if isinstance(data, list) else [data]
    assert isinstance(schema, dict)
    return schema


def _checked_strict(target: str, *more: str) -> bool:
    """Whether ``check`` judged the tool strict (llguidance runs on strict tools only)."""
    code, out, err = run("check", target, "--format", "json", *more)
    assert code == 0, err
    (tool,) = json.loads(out)["tools"]
    judgements = tool["check"]["verdicts"]["openai-chat"]["judgements"]
    (grammar,) = [j for j in judgements if j["origin"] == "llguidance"]
    return grammar["detail"] != "the tool is not strict"


@pytest.mark.parametrize(
    ("spelling", "more", "strict"),
    [
        ("mcp-server", (), False),
        ("saved-list", (), False),
        ("bare-list", (), False),
        ("openai-payload", (), False),  # as its provider sends it: no "strict", not strict
        ("bare-list", ("--no-strict",), False),
    ],
)
def test_show_and_check_take_the_same_strictness(
    sources: dict[str, str], spelling: str, more: tuple[str, ...], strict: bool
) -> None:
    target = sources[spelling]
    shown = _shown_strict(target, *more)
    # strict conversion closes the object and requires every property
    assert (shown.get("additionalProperties") is False) is strict, shown
    assert (shown["required"] == ["query", "limit"]) is strict, shown
    assert _checked_strict(target, *more) is strict


def test_show_of_a_payload_takes_the_provider_it_is_written_for(tmp_path: Path) -> None:
    anthropic = {"name": "search", "description": "Search the catalogue.", "input_schema": SCHEMA}
    path = tmp_path / "anthropic.json"
    path.write_text(json.dumps([anthropic]))
    code, out, err = run("show", str(path), "--view", "all", "--format", "json")
    assert code == 0, err
    (shown,) = json.loads(out)
    assert shown["provider"] == "anthropic"
    code, out, err = run("check", str(path), "--format", "json")
    assert code == 0, err
    assert json.loads(out)["providers"] == ["anthropic"]
    # asked for, another provider wins
    code, out, err = run("show", str(path), "--provider", "openai-chat", "--format", "json")
    assert json.loads(out)[0]["provider"] == "openai-chat"
