"""``toollens check --client``: a column per chosen client, JSON per tool, annotations, exit."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from toollens.cli import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, main

CASES = Path(__file__).parent / "cases"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def case(name: str) -> str:
    return str(CASES / f"{name}.tools.json")


# (case, clients, exit code): only a chosen client that loses a tool fails the check
EXITS = [
    ("array-no-items", ("vscode-copilot",), EXIT_FINDINGS),
    ("array-no-items", ("claude-code", "cursor"), EXIT_OK),
    ("array-no-items", (), EXIT_OK),  # every client shown, none gates
    ("gemini-rewrite", ("gemini-cli",), EXIT_OK),  # a rewrite is a warning
    ("root-anyof", ("claude-code",), EXIT_FINDINGS),
    ("output-array", ("mcp-python",), EXIT_OK),
    ("output-array", ("claude-desktop",), EXIT_FINDINGS),
    ("many-tools", ("vscode-copilot",), EXIT_FINDINGS),  # the request is rejected
    ("many-tools", ("openai-agents",), EXIT_FINDINGS),
]


@pytest.mark.parametrize(
    ("name", "clients", "code"), EXITS, ids=[f"{n}-{'+'.join(c) or 'none'}" for n, c, _ in EXITS]
)
def test_the_exit_code_follows_the_chosen_clients(
    name: str, clients: tuple[str, ...], code: int
) -> None:
    argv = [a for c in clients for a in ("--client", c)]
    got, out, err = run("check", case(name), *argv)
    assert got == code, out + err


def test_a_column_per_chosen_client_and_the_rules_below() -> None:
    _, out, _ = run("check", case("array-no-items"), "--client", "vscode-copilot")
    lines = out.splitlines()
    assert lines[2].split() == ["tool", "openai-chat", "lint", "vscode-copilot"]
    assert lines[4].split()[-1] == "tool-dropped"
    assert "update_dashboard: tool-dropped: vscode-copilot.array-without-items at " in out
    assert "[report: https://github.com/modelcontextprotocol/php-sdk/issues/151]" in out


def test_without_a_client_every_client_is_shown() -> None:
    # No client chosen: the MCP specification (outputSchema must be an object in the
    # 2025-11-25 revision the server answered with) gates the exit code.
    code, out, _ = run("check", case("output-array"))
    assert code == EXIT_FINDINGS
    assert "shown; name one with --client to gate" in out
    assert "  claude-code: 2 server-dropped" in out
    assert "every tool: claude-code.output-not-object at /tools/1/outputSchema/type" in out
    assert "  mcp-python: 2 accepted" in out


def test_json_carries_each_clients_verdict_per_tool() -> None:
    code, out, _ = run("check", case("gemini-rewrite"), "--client", "all", "--format", "json")
    data = json.loads(out)
    assert code == EXIT_OK
    (tool,) = data["tools"]
    by_client = {c["client"]: c for c in tool["clients"]}
    gemini = by_client["gemini-cli"]
    assert gemini["verdict"] == "rewritten"
    assert gemini["sent"]["name"] == "mcp_my_server_get_item"
    assert {r["id"] for r in gemini["rules"]} == {"gemini-cli.renamed", "gemini-cli.nullable-type"}
    assert set(gemini["rules"][0]) >= {"id", "source", "date", "evidence"}
    assert data["clients"]["chosen"] == data["clients"]["shown"]
    assert data["clients"]["ok"] is True


def test_server_name_is_the_name_clients_use() -> None:
    argv = ("--client", "cursor", "--format", "json")
    _, out, _ = run("check", case("cursor-long-name"), *argv)
    assert json.loads(out)["clients"]["ok"] is False  # "g" + 59 characters: filtered
    _, out, _ = run("check", case("array-no-items"), *argv, "--server-name", "x" * 57)
    data = json.loads(out)
    assert data["clients"]["server_name"] == "x" * 57
    assert {t["clients"][0]["verdict"] for t in data["tools"]} == {"tool-dropped"}


def test_github_annotates_what_a_chosen_client_drops() -> None:
    _, out, _ = run(
        "check", case("array-no-items"), "--client", "vscode-copilot", "--format", "github"
    )
    assert "::error" in out
    assert "update_dashboard tool-dropped" in out


def _openai_rules(*argv: str) -> set[str]:
    _, out, _ = run("check", case("strict-sensitive"), "--format", "json", *argv)
    return {
        f["rule"] for t in json.loads(out)["tools"] for f in t["check"]["providers"]["openai-chat"]
    }


def test_mcp_tools_are_judged_non_strict_unless_a_strict_client_is_chosen() -> None:
    # A default and format "uri" (as mcp-server-fetch sends): fine non-strict, flagged strict.
    assert _openai_rules() == set()
    assert _openai_rules("--client", "cursor") == set()
    assert _openai_rules("--client", "all") == set()  # all shows it, naming it turns strict on
    strict = {"openai.default", "openai.format-unsupported"}
    assert _openai_rules("--client", "openai-agents-strict") == strict
    assert _openai_rules("--client", "openai-agents-strict", "--no-strict") == set()


def test_client_on_a_source_that_is_not_an_mcp_list_is_a_usage_error(tmp_path: Path) -> None:
    module = tmp_path / "tools_mod.py"
    module.write_text("def search(q: str) -> str:\n    '''Search.'''\n    return q\n")
    code, _, err = run("check", f"{module}:search", "--client", "cursor")
    assert code == EXIT_ERROR
    assert "--client judges an MCP server's tools list" in err
