"""On an MCP tool list a provider column judges the tools as if sent raw: shown, and it
fails the check only for a provider ``--provider`` names, as a client column only for a
client ``--client`` names. A Python toolset's provider columns gate as before.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from toollens.cli import main

BAD_NAME = {
    "name": "bad tool!",
    "description": "Look an order up by its number.",
    "inputSchema": {
        "type": "object",
        "properties": {"order": {"type": "string", "description": "The order number."}},
        "required": ["order"],
    },
}


def run(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    assert not err.getvalue(), err.getvalue()
    return code, out.getvalue()


@pytest.fixture
def listing(tmp_path: Path) -> str:
    path = tmp_path / "tools-list.json"
    path.write_text(json.dumps({"tools": [BAD_NAME]}), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        ([], 0),  # openai-chat rejects the name sent raw: shown, nobody sends it raw
        (["--provider", "openai-chat"], 1),  # named: the tools are sent there
        # Claude Code sends the tool's own name (mcp__<server>__bad tool!): Anthropic refuses it
        (["--client", "claude-code"], 1),
        (["--client", "openai-agents"], 1),  # the Agents SDK's request is rejected
    ],
)
def test_a_provider_column_gates_only_when_named(listing: str, argv: list[str], code: int) -> None:
    text_code, text = run("check", listing, *argv)
    assert text_code == code
    assert "error[openai.name-invalid]" in text  # shown either way
    assert ("name one with --provider to gate" in text) is ("--provider" not in argv)
    json_code, data = run("check", listing, "--format", "json", *argv)
    assert json_code == code
    assert json.loads(data)["ok"] is (code == 0)


def test_a_python_toolset_s_provider_columns_gate(tmp_path: Path) -> None:
    payload = {
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": BAD_NAME["name"],
                    "description": BAD_NAME["description"],
                    "parameters": BAD_NAME["inputSchema"],
                },
            }
        ]
    }
    path = tmp_path / "payload.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    code, text = run("check", str(path))
    assert code == 1
    assert "--provider to gate" not in text
