"""Real servers' ``tools/list`` answers, recorded here (tests/mcp/recorded), through every command.

Each file is what the official ``mcp`` SDK client (2.3) received over stdio from the released
package, with its ``serverInfo`` and protocol version (see recorded/README.md for package,
version and licence). ``show``, ``check`` and ``tokens`` must name the same tools in the same
order, and each client's verdicts are the ones measured on the live server.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from toollens.cli import main
from toollens.consumers.registry import available_clients

RECORDED = Path(__file__).parent / "recorded"

# server file -> (check's exit code, the error rules of the default check, client -> rules
# that lose tools under `--client all`). Measured on the live servers, 2026-12-02.
EXPECTED: dict[str, tuple[int, set[str], dict[str, set[str]]]] = {
    "mcp-server-time": (0, set(), {}),
    # resolve-library-id has a 2006-character description (OpenAI Chat Completions' limit
    # is 1024): a warning, as no default client sends to Chat Completions; none drops a tool.
    "context7-mcp": (0, set(), {}),
    # google-genai 3.6's _filter_to_supported_schema calls .items() on the boolean
    # additionalProperties that every zod-made schema has: it loses every tool.
    "playwright-mcp": (0, set(), {"google-genai": {"google-genai.conversion-failed"}}),
}
# What a client that sends to Chat Completions (chosen by --client all) adds as errors.
CHAT_COMPLETIONS_ERRORS = {"context7-mcp": {"limits.openai-description-length"}}
FILES = sorted(RECORDED.glob("*.tools.json"))


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _recorded_names(path: Path) -> list[str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [tool["name"] for tool in data["tools"]]


def test_every_recorded_server_has_its_expectation() -> None:
    assert sorted(p.name.removesuffix(".tools.json") for p in FILES) == sorted(EXPECTED)


@pytest.mark.parametrize("path", FILES, ids=[p.name.removesuffix(".tools.json") for p in FILES])
def test_show_check_and_tokens_name_the_same_tools(path: Path) -> None:
    names = _recorded_names(path)
    code, out, err = _run("check", str(path), "--format", "json")
    expected_code, expected_errors, _ = EXPECTED[path.name.removesuffix(".tools.json")]
    assert (code, err) == (expected_code, "")
    checked: dict[str, Any] = json.loads(out)
    assert [tool["name"] for tool in checked["tools"]] == names
    errors = {f["rule"] for f in checked["findings"] if f["severity"] == "error"}
    limits = checked.get("tokens", {}).get("findings", [])
    errors |= {f["rule"] for f in limits if f["severity"] == "error"}
    errors |= {
        f["rule"]
        for tool in checked["tools"]
        for findings in tool["check"]["providers"].values()
        for f in findings
        if f["severity"] == "error"
    }
    assert errors == expected_errors
    # The default check of an MCP server judges it as its clients send it: non-strict.
    assert not any(rule.startswith(("openai.", "view.strict")) for rule in errors)

    code, out, err = _run("show", str(path), "--format", "json")
    assert (code, err) == (0, "")
    assert [view["title"] for view in json.loads(out)] == names

    code, out, err = _run("tokens", str(path), "--model", "gpt-4o")
    assert (code, err) == (0, "")
    rows = [line.split()[0] for line in out.splitlines() if line[:2] == "  " and line[2] != " "]
    assert rows == ["overhead", *names]
    assert out.startswith(f"{sum(_tool_tokens(out, n) for n in rows)} tokens for gpt-4o")


def _tool_tokens(text: str, row: str) -> int:
    for line in text.splitlines():
        parts = line.split()
        if line[:2] == "  " and line[2] != " " and parts[0] == row:
            return int(parts[1])
    raise AssertionError(row)


@pytest.mark.parametrize("path", FILES, ids=[p.name.removesuffix(".tools.json") for p in FILES])
def test_every_client_keeps_the_tools_it_keeps_on_the_live_server(path: Path) -> None:
    names = _recorded_names(path)
    _, _, expected_losses = EXPECTED[path.name.removesuffix(".tools.json")]
    if "google-genai" in expected_losses:
        pytest.importorskip("google.genai", reason="google-genai's own code decides its row")
    code, out, err = _run("check", str(path), "--client", "all", "--format", "json")
    assert err == ""
    checked: dict[str, Any] = json.loads(out)
    losses: dict[str, set[str]] = {}
    lost_tools: dict[str, set[str]] = {}
    for tool in checked["tools"]:
        for client in tool["clients"]:
            if client["verdict"] in ("accepted", "rewritten"):
                continue
            rules = {r["id"] for r in client["rules"]}
            losses.setdefault(client["client"], set()).update(rules)
            lost_tools.setdefault(client["client"], set()).add(tool["name"])
    assert losses == expected_losses
    for client in expected_losses:  # each loss measured live took every tool
        assert lost_tools[client] == set(names)
    expected_errors = EXPECTED[path.name.removesuffix(".tools.json")][1]
    # --client all names langchain-mcp-adapters, which sends to Chat Completions: there a
    # description over 1024 characters is an error, not the default's warning.
    chat_errors = CHAT_COMPLETIONS_ERRORS.get(path.name.removesuffix(".tools.json"), set())
    if "langchain-mcp-adapters" not in available_clients():  # langchain-core: Python 3.11+
        chat_errors = set()
    limits = {f["rule"] for f in checked.get("tokens", {}).get("findings", [])
              if f["severity"] == "error"}  # fmt: skip
    assert chat_errors <= limits
    assert code == (1 if expected_losses or expected_errors or chat_errors else 0)
