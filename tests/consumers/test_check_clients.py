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
    ("output-array", ("mcp-python",), EXIT_FINDINGS),  # its SDK refuses the list (issue 47)
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


def test_without_a_client_the_default_clients_are_shown() -> None:
    # No client chosen: the MCP specification (outputSchema must be an object in the
    # 2025-11-25 revision the server answered with) gates the exit code.
    code, out, _ = run("check", case("output-array"))
    assert code == EXIT_FINDINGS
    assert "shown; name one with --client to gate" in out
    assert "  claude-code: 2 lost (2 server-dropped)" in out
    every = "every tool (2): server-dropped: claude-code.output-not-object at /tools/1/output"
    assert every in out
    assert "  mcp-python: 2 lost (2 server-dropped)" in out  # the SDK refuses the array
    assert "  pydantic-ai:" not in out  # a framework consumer: judged only when named


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


def _clients_section(text: str) -> str:
    """The ``clients (...)`` block of a check's text output."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("clients ("))
    end = next((i for i in range(start + 1, len(lines)) if not lines[i]), len(lines))
    return "\n".join(lines[start:end]) + "\n"


def test_text_groups_rewrites_by_rule_and_lists_losses_per_tool(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from support import goldens

    monkeypatch.chdir(CASES)  # the target as named shows in the suggested command
    _, out, _ = run("check", "grouping.tools.json")
    section = _clients_section(out)
    goldens.check_text("clients/grouping.txt", section)
    # one summary line per client, then losses per tool, then one line per rewrite rule
    strict = (
        "  openai-agents-strict: 4 rewritten, 2 lost (2 request-rejected); sends strict, by choice"
    )
    assert strict in section
    assert "  vscode-copilot: 5 accepted, 1 lost (1 tool-dropped)\n" in section
    assert section.count("rewritten by openai-agents-strict.converted") == 1
    assert "    5 tools rewritten by openai-agents-strict.converted: sent in strict mode" in section
    assert "      e.g. find_order, find_customer, find_product, ...; `toollens show " in section
    # each hit with its own rule's verdict: the rewrite of a rejected tool reads "rewritten"
    assert "move_order: request-rejected: openai-agents-strict" not in section
    assert "1 tool rewritten by openai-agents-strict.served-non-strict" in section
    assert "tag_order: tool-dropped: vscode-copilot.array-without-items at /properties" in section
    assert not [line for line in section.splitlines() if ": rewritten: " in line]


def test_json_keeps_every_tool_and_client_that_text_groups() -> None:
    from toollens.consumers import default_clients

    _, out, _ = run("check", case("grouping"), "--format", "json")
    data = json.loads(out)
    assert len(data["tools"]) == 6
    for tool in data["tools"]:
        assert [c["client"] for c in tool["clients"]] == list(default_clients())
    strict = {
        t["name"]: next(c for c in t["clients"] if c["client"] == "openai-agents-strict")
        for t in data["tools"]
    }
    assert strict["find_coupon"]["verdict"] == "rewritten"
    assert strict["find_coupon"]["sent"] is not None
    assert [r["id"] for r in strict["find_coupon"]["rules"]] == ["openai-agents-strict.converted"]


def test_the_default_clients_are_the_applications_and_sdk_clients() -> None:
    from toollens.consumers import CONSUMERS, DEFAULT_CLIENTS

    # the framework consumers (their frameworks' own code) are the ones left out
    frameworks = set(CONSUMERS) - set(DEFAULT_CLIENTS)
    assert tuple(c for c in CONSUMERS if c not in frameworks) == DEFAULT_CLIENTS
    assert "claude-code" in DEFAULT_CLIENTS
    assert "openai-agents-strict" in DEFAULT_CLIENTS
    assert frameworks == {
        "pydantic-ai:openai",
        "pydantic-ai:anthropic",
        "pydantic-ai:google",
        "langchain-mcp-adapters",
        "google-genai",
        "anthropic-sdk",
    }
    _, out, _ = run("check", case("grouping"), "--client", "all", "--format", "json")
    shown = json.loads(out)["clients"]["shown"]
    assert set(shown) == {c for c in CONSUMERS if not CONSUMERS[c].missing}


def test_help_names_the_default_clients() -> None:
    _, out, _ = run("check", "--help")
    text = "".join(out.split())  # argparse wraps lines, and breaks names at their hyphens
    assert "default:claude-code,claude-desktop,cursor,vscode-copilot,gemini-cli," in text
    assert "judgedonlywhennamedorwithall" in text
    assert "pydantic-ai:openai" in text


@pytest.mark.parametrize(
    ("client", "family"),
    [
        ("claude-code", "claude"),
        ("claude-desktop", "claude"),
        ("anthropic-sdk", "claude"),
        ("pydantic-ai:anthropic", "claude"),
        ("gemini-cli", "gemini"),
        ("google-genai", "gemini"),
        ("pydantic-ai:google", "gemini"),
        ("openai-agents", "gpt"),
        ("openai-agents-strict", "gpt"),
        ("pydantic-ai:openai", "gpt"),
        ("langchain-mcp-adapters", "gpt"),
        ("cursor", "gpt"),  # the user picks the model: the default one is counted
        ("vscode-copilot", "gpt"),
        ("mcp-python", "gpt"),
    ],
)
def test_each_clients_cost_is_counted_for_the_provider_it_sends_to(
    client: str, family: str
) -> None:
    from toollens.assess.clients import client_model
    from toollens.consumers import CONSUMERS
    from toollens.tokens.models import DEFAULT_MODEL, model_for_provider

    provider = CONSUMERS[client].provider
    model = client_model(client)
    assert model == (model_for_provider(provider) if provider else DEFAULT_MODEL)
    assert model.startswith(family)
    assert client_model(client, "claude-opus-4-1") == "claude-opus-4-1"  # asked: that one


def test_the_epilog_lists_the_default_clients() -> None:
    from toollens.cli.check import _CHECK_EPILOG
    from toollens.consumers import DEFAULT_CLIENTS

    assert ", ".join(DEFAULT_CLIENTS) in " ".join(_CHECK_EPILOG.split())


def test_chat_completions_description_limit_gates_only_a_client_that_sends_there(
    tmp_path: Path,
) -> None:
    from toollens.consumers import CONSUMERS

    long = "Search the catalogue. " + "More detail. " * 100  # over 1024 characters
    tool = {"name": "search", "description": long, "inputSchema": {"type": "object"}}
    path = tmp_path / "long.tools.json"
    path.write_text(json.dumps({"tools": [tool]}), encoding="utf-8")
    code, out, _ = run("check", str(path))
    assert code == EXIT_OK  # no default client sends to Chat Completions
    assert "warning[limits.openai-description-length]" in out
    assert "No chosen client sends to openai-chat" in out
    code, out, _ = run("check", str(path), "--client", "cursor")
    assert code == EXIT_OK
    if CONSUMERS["langchain-mcp-adapters"].missing:
        return
    code, out, _ = run("check", str(path), "--client", "langchain-mcp-adapters")
    assert code == EXIT_FINDINGS  # bind_tools sends to Chat Completions: refused there
    assert "error[limits.openai-description-length]" in out


# (arguments after the file, exit code, severity of toolset.openai-too-many-tools): OpenAI's
# 128-tool limit fails an MCP list only on a path that sends to OpenAI.
TOO_MANY = [
    ((), 0, "warning"),
    (("--client", "claude-code"), 0, "warning"),
    (("--client", "openai-agents"), 1, "error"),
    (("--provider", "openai-chat"), 1, "error"),
]


@pytest.mark.parametrize(("extra", "expected", "severity"), TOO_MANY)
def test_openai_tool_count_gates_only_a_path_to_openai(
    tmp_path: Path, extra: tuple[str, ...], expected: int, severity: str
) -> None:
    import json

    tools = [
        {"name": f"tool_{i}", "description": "A tool.", "inputSchema": {"type": "object"}}
        for i in range(129)
    ]
    path = tmp_path / "many.tools.json"
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    code, out, err = run("check", str(path), *extra, "--format", "json")
    assert (code, err) == (expected, "")
    found = [f for f in json.loads(out)["findings"] if f["rule"] == "toolset.openai-too-many-tools"]
    assert [f["severity"] for f in found] == [severity]


# The 1024-character description limit of Chat Completions, on the same paths.
LONG_DESCRIPTION = [
    ((), 0, "warning"),
    (("--provider", "anthropic"), 0, "warning"),
    (("--provider", "openai-chat"), 1, "error"),
    (("--provider", "all"), 1, "error"),
]


@pytest.mark.parametrize(("extra", "expected", "severity"), LONG_DESCRIPTION)
def test_the_description_limit_gates_only_a_path_to_chat_completions(
    tmp_path: Path, extra: tuple[str, ...], expected: int, severity: str
) -> None:
    import json

    tool = {"name": "lookup", "description": "x" * 1100, "inputSchema": {"type": "object"}}
    path = tmp_path / "long.tools.json"
    path.write_text(json.dumps({"tools": [tool]}), encoding="utf-8")
    code, out, err = run("check", str(path), *extra, "--format", "json")
    assert (code, err) == (expected, "")
    found = json.loads(out)["tokens"]["findings"]
    rules = [f["severity"] for f in found if f["rule"] == "limits.openai-description-length"]
    assert rules == [severity]


# Anthropic's limit on strict tools in one request, on the paths an MCP list takes: the
# Agents SDK's strict mode makes the tools strict, but on OpenAI; no client sends them strict
# to Anthropic, so only --provider anthropic (the tools as sent raw, strict) reports it.
STRICT_ON_ANTHROPIC = [
    ((), None),  # non-strict: nothing is counted
    (("--client", "openai-agents-strict"), None),
    (("--client", "openai-agents-strict", "--client", "claude-code"), None),
    (("--client", "openai-agents-strict", "--provider", "anthropic"), "error"),
    (("--provider", "anthropic"), None),  # raw, as MCP tools are judged: non-strict
]


@pytest.mark.parametrize(("extra", "severity"), STRICT_ON_ANTHROPIC)
def test_the_strict_tool_limit_concerns_only_a_path_that_sends_strict_to_anthropic(
    tmp_path: Path, extra: tuple[str, ...], severity: str | None
) -> None:
    props = {"q": {"type": "string", "description": "What to look for."}}
    schema = {"type": "object", "properties": props, "required": ["q"]}
    tools = [
        {"name": f"tool_{i}", "description": f"Look up thing {i}.", "inputSchema": schema}
        for i in range(21)
    ]
    path = tmp_path / "many.tools.json"
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    code, out, err = run("check", str(path), *extra, "--format", "json")
    assert err == ""
    rule = "toolset.anthropic-too-many-strict-tools"
    found = [f["severity"] for f in json.loads(out)["findings"] if f["rule"] == rule]
    assert found == ([] if severity is None else [severity])
    assert code == (EXIT_FINDINGS if severity == "error" else EXIT_OK)
