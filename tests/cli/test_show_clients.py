"""``toollens show TARGET --view clients``: per client, the verdict, why, and what it sends."""

from __future__ import annotations

import io
import json
import shlex
import sys
from pathlib import Path

import pytest

from toollens.cli import EXIT_OK, main

TESTS = Path(__file__).parents[1]
CASES = TESTS / "consumers" / "cases"
RAW_SERVER = TESTS / "mcp" / "mcp_servers" / "raw_tools.py"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def case(name: str) -> str:
    return str(CASES / f"{name}.tools.json")


def test_one_tool_of_a_saved_list_per_chosen_client() -> None:
    code, out, err = run(
        "show",
        case("array-no-items") + "#update_dashboard",
        "--view",
        "clients",
        "--client",
        "vscode-copilot",
        "--client",
        "claude-code",
    )
    assert code == EXIT_OK, err
    lines = out.splitlines()
    assert lines[0].endswith("(server name 'grafana'): 2 tools listed")
    assert lines[1] == "clients of tool 'update_dashboard' (server name 'grafana'):"
    assert lines[2].split() == ["vscode-copilot", "tool-dropped", "not", "sent"]
    assert lines[3].split() == ["claude-code", "accepted", "as", "mcp__grafana__update_dashboard"]
    assert "    vscode-copilot.array-without-items at /properties/panels: " in out
    assert "      source: https://github.com/modelcontextprotocol/php-sdk/issues/151" in out
    assert "ping" not in out  # only the tool named after #


def test_every_tool_and_every_client_by_default() -> None:
    code, out, _ = run("show", case("array-no-items"), "--view", "clients")
    assert code == EXIT_OK
    assert out.count("clients of tool ") == 2
    assert "openai-agents-strict (OpenAI Agents SDK, convert_schemas_to_strict=True)" in out


def test_the_server_name_is_the_one_given() -> None:
    _, out, _ = run(
        "show", case("gemini-rewrite"), "--view", "clients", "--client", "gemini-cli",
        "--server-name", "items",
    )  # fmt: skip
    assert "sends it as 'mcp_items_get_item' (listed as 'get_item'); what it changes:" in out
    assert '    +        "nullable": true' in out


def test_json_per_tool_and_client() -> None:
    code, out, _ = run(
        "show", case("array-no-items"), "--view", "clients", "--client", "vscode-copilot",
        "--format", "json",
    )  # fmt: skip
    assert code == EXIT_OK
    data = json.loads(out)
    assert data["server_name"] == "grafana"
    assert [t["tool"] for t in data["tools"]] == ["ping", "update_dashboard"]
    (dropped,) = data["tools"][1]["clients"]
    assert dropped["verdict"] == "tool-dropped"
    assert dropped["sent"] is None
    assert dropped["rules"][0]["evidence"] == "report"
    assert dropped["rules"][0]["date"] == "2026-12-02"


def test_an_mcp_server_is_listed_once_and_judged_whole(tmp_path: Path) -> None:
    listed = json.loads(Path(case("array-no-items")).read_text(encoding="utf-8"))["tools"]
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps(listed), encoding="utf-8")
    target = "mcp:" + shlex.join([sys.executable, str(RAW_SERVER), str(tools)])
    code, out, err = run(
        "show", target + "#update_dashboard", "--view", "clients", "--client", "cursor"
    )
    assert code == EXIT_OK, err
    assert out.splitlines()[0] == "MCP server 'raw-json': 2 tools listed"
    assert "cursor (Cursor): accepted" in out
    assert "ping" not in out


def test_a_python_function_says_its_path_and_points_to_compare() -> None:
    target = str(TESTS / "cli_fixtures" / "tools_v1.py") + ":search"
    code, out, _ = run("show", target, "--view", "clients")
    assert code == EXIT_OK
    assert "is not an MCP tool" in out
    assert "OpenAI Agents SDK's function_tool" in out
    assert f"toollens compare {target}" in out
    code, out, _ = run("show", target, "--view", "clients", "--format", "json")
    assert json.loads(out)["judged_on"] == "openai-agents function_tool"


@pytest.mark.parametrize(
    ("target", "message"),
    [
        (str(TESTS / "cli_fixtures" / "weather.tool.json"), "holds no MCP tool list"),
        (case("array-no-items") + "#nope", "has no tool 'nope'"),
    ],
    ids=["not-a-tool-list", "no-such-tool"],
)
def test_what_is_not_a_tool_list_is_named(target: str, message: str) -> None:
    code, out, err = run("show", target, "--view", "clients")
    assert code != EXIT_OK
    assert message in err
    assert out == ""


def test_client_without_the_clients_view_is_a_usage_error() -> None:
    code, _, err = run("show", case("array-no-items"), "--client", "cursor", "--view", "strict")
    assert code != EXIT_OK
    assert "--client and --server-name apply to --view clients" in err
