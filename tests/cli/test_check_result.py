"""``check``'s one result record: budgets, description limits and client costs as findings
and fields of the check, in every format; and no command parses another's output.

The per-client costs are held against ``tokens()`` of what each client sends (the ``sent``
of every tool in the JSON), on the tests' own tool lists and on the real servers' answers in
``../shared/corpora/mcp`` (skipped when absent).
"""

from __future__ import annotations

import ast
import io
import json
from pathlib import Path

import pytest

from toollens.assess.clients import client_model
from toollens.cli import EXIT_FINDINGS, EXIT_OK, main
from toollens.tokens import tokens
from toollens.tokens.deferred import CLIENT_TOOL_SEARCH

pytest.importorskip("tiktoken")

SRC = Path(__file__).resolve().parents[2] / "src" / "toollens"
CASES = Path(__file__).resolve().parents[1] / "consumers" / "cases"
CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpora" / "mcp"
CORPUS_FILES = sorted(CORPUS.glob("*.tools.json")) if CORPUS.is_dir() else []

TOOLS = '''
def get_weather(city: str, unit: str = "celsius") -> str:
    """Get the current weather in a city.

    Args:
        city: the city's name.
        unit: celsius or fahrenheit.
    """
    return ""
'''


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def listing(tmp_path: Path, count: int, words: int, name: str = "big") -> Path:
    """A saved tools/list answer of ``count`` tools with ``words``-word descriptions."""
    tools = [
        {
            "name": f"tool_{i}",
            "description": " ".join(f"word{j}" for j in range(words)),
            "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}},
        }
        for i in range(count)
    ]
    path = tmp_path / f"{name}.tools.json"
    path.write_text(json.dumps({"serverInfo": {"name": name}, "tools": tools}), "utf-8")
    return path


@pytest.fixture
def tool_file(tmp_path: Path) -> Path:
    path = tmp_path / "weather_tools.py"
    path.write_text(TOOLS, encoding="utf-8")
    return path


# (arguments after the target, exit code, rule ids the result must hold)
BUDGETS = [
    ((), EXIT_OK, ()),
    (("--max-tokens", "5"), EXIT_FINDINGS, ("tokens.tool-over-budget",)),
    (("--max-tokens", "100000"), EXIT_OK, ()),
    (("--max-total-tokens", "5"), EXIT_FINDINGS, ("tokens.total-over-budget",)),
    (
        ("--max-tokens", "5", "--max-total-tokens", "5"),
        EXIT_FINDINGS,
        ("tokens.tool-over-budget", "tokens.total-over-budget"),
    ),
]


def _formats(out: str, fmt: str) -> list[str]:
    """The rule ids of the token findings, read from each format's own shape."""
    if fmt == "json":
        data = json.loads(out)
        return [f["rule"] for f in data.get("tokens", {}).get("findings", [])]
    if fmt == "github":
        return [
            line.split("title=toollens%3A ", 1)[1].split("::", 1)[0]
            for line in out.splitlines()
            if "title=toollens%3A tokens." in line
        ]
    return [
        line.split("[", 1)[1].split("]", 1)[0]
        for line in out.splitlines()
        if line.startswith("  error[tokens.")
    ]


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
@pytest.mark.parametrize(("extra", "code", "rules"), BUDGETS)
@pytest.mark.parametrize("kind", ["tool", "toolset"])
def test_budgets_are_findings_of_the_check_in_every_format(
    tool_file: Path,
    tmp_path: Path,
    kind: str,
    extra: tuple[str, ...],
    code: int,
    rules: tuple[str, ...],
    fmt: str,
) -> None:
    target = f"{tool_file}:get_weather" if kind == "tool" else str(listing(tmp_path, 3, 4))
    got, out, err = run("check", target, *extra, "--format", fmt)
    assert got == code, out + err
    assert set(_formats(out, fmt)) == set(rules)  # a per-tool rule once per tool over it
    if fmt == "json":  # the budgets' findings are the check's: its ok and counts say so
        data = json.loads(out)
        assert data["ok"] is (code == EXIT_OK)
        if kind == "toolset":
            assert data["counts"].get("error", 0) == len(data.get("tokens", {}).get("findings", []))
    elif fmt == "text" and kind == "toolset":
        assert ("error" in out.splitlines()[0]) is (code != EXIT_OK)


def test_the_budget_counts_what_the_check_read(tmp_path: Path) -> None:
    path = listing(tmp_path, 4, 10)
    counted = tokens(json.loads(path.read_text("utf-8"))["tools"], "gpt-4o")
    _, out, _ = run("check", str(path), "--max-total-tokens", "1", "--format", "json")
    data = json.loads(out)["tokens"]
    assert (data["total"], data["up_front"]) == (counted.total, counted.up_front)
    assert data["tools"] == {t.name: t.tokens for t in counted.tools}
    at_limit = str(counted.up_front)
    assert run("check", str(path), "--max-total-tokens", at_limit)[0] == EXIT_OK


def _costs(out: str) -> dict[str, dict[str, object]]:
    return {c["client"]: c["tokens"] for c in json.loads(out)["clients"]["per_client"]}


def _sent(out: str, client: str) -> list[dict[str, object]]:
    found = []
    for tool in json.loads(out)["tools"]:
        for verdict in tool["clients"]:
            if verdict["client"] == client and verdict["sent"] is not None:
                found.append(verdict["sent"])
    return found


def _assert_costs_are_what_each_client_sends(out: str) -> None:
    costs = _costs(out)
    assert costs, "no per-client cost"
    for client, cost in costs.items():
        sent = _sent(out, client)
        counted = tokens(sent, client_model(client))
        assert cost["model"] == client_model(client)
        assert cost["tools"] == len(sent)
        assert cost["exact"] is (counted.method == "exact")
        if cost["deferred"]:  # a client that defers: everything once loaded
            assert cost["upfront"] + cost["deferred"] == counted.total
        else:
            assert cost["upfront"] == counted.up_front, client


@pytest.mark.parametrize("name", ["array-no-items", "gemini-rewrite", "root-anyof", "many-tools"])
def test_each_client_costs_what_it_sends(name: str) -> None:
    code, out, err = run(
        "check", str(CASES / f"{name}.tools.json"), "--client", "all", "--format", "json"
    )
    assert code in (EXIT_OK, EXIT_FINDINGS), err
    _assert_costs_are_what_each_client_sends(out)


@pytest.mark.skipif(not CORPUS_FILES, reason="the MCP corpus (../shared/corpora/mcp) is absent")
@pytest.mark.parametrize("path", CORPUS_FILES, ids=[p.name for p in CORPUS_FILES])
def test_the_corpus_costs_per_client_in_every_format(path: Path) -> None:
    _, out, _ = run("check", str(path), "--client", "all", "--format", "json")
    _assert_costs_are_what_each_client_sends(out)
    costs = _costs(out)
    # the names a client sends are part of its cost: mcp__<server>__<tool> costs more
    assert costs["claude-code"]["tools"] == costs["cursor"]["tools"]
    cursor_named = tokens(_sent(out, "cursor"), "claude-sonnet-4-5").total
    assert costs["claude-code"]["upfront"] > cursor_named
    _, text, _ = run("check", str(path), "--client", "cursor", "--client", "claude-code")
    assert f"    sends {costs['cursor']['upfront']} tokens up front, 0 deferred (gpt-4o" in text
    _, github, _ = run("check", str(path), "--client", "cursor", "--format", "github")
    notices = [line for line in github.splitlines() if line.startswith("::notice")]
    assert any(
        "title=toollens cursor%3A tokens::" in n and f"{costs['cursor']['upfront']} tokens" in n
        for n in notices
    )


def test_claude_code_defers_past_its_threshold(tmp_path: Path) -> None:
    rule = CLIENT_TOOL_SEARCH["claude-code"]
    small = listing(tmp_path, 5, 20, "small")
    big = listing(tmp_path, 150, 150, "big")  # well past 10% of a 200K window
    _, out, _ = run(
        "check", str(small), "--client", "claude-code", "--client", "cursor", "--format", "json"
    )
    assert _costs(out)["claude-code"]["deferred"] == 0
    assert _costs(out)["claude-code"]["deferred_by"] is None
    _, out, _ = run(
        "check", str(big), "--client", "claude-code", "--client", "cursor", "--format", "json"
    )
    costs = _costs(out)
    sent = _sent(out, "claude-code")
    loaded = tokens(sent, client_model("claude-code"))
    assert loaded.total - loaded.overhead > rule.threshold
    assert costs["claude-code"]["deferred"] == loaded.total - loaded.overhead
    assert costs["claude-code"]["upfront"] == loaded.overhead
    assert costs["claude-code"]["deferred_by"]["id"] == "claude-code.tool-search"
    # known from third-party write-ups only (the reference notes: "report"), never "docs"
    assert costs["claude-code"]["deferred_by"]["evidence"] == "report"
    assert not costs["claude-code"]["deferred_by"]["source"].startswith("https://code.claude")
    assert costs["cursor"]["deferred"] == 0  # no source says Cursor defers: all up front
    _, text, _ = run("check", str(big), "--client", "claude-code")
    assert "deferred by claude-code.tool-search (reported): past 20000 tokens" in text
    assert "documented" not in text


def test_tokens_model_counts_every_client_for_that_model(tmp_path: Path) -> None:
    path = listing(tmp_path, 3, 5)
    argv = (
        "check",
        str(path),
        "--client",
        "claude-code",
        "--tokens-model",
        "gpt-4.1",
        "--format",
        "json",
    )
    _, out, _ = run(*argv)
    cost = _costs(out)["claude-code"]
    assert cost["model"] == "gpt-4.1"
    assert cost["upfront"] == tokens(_sent(out, "claude-code"), "gpt-4.1").up_front


def test_without_a_chosen_client_nothing_is_counted_per_client() -> None:
    _, out, _ = run("check", str(CASES / "array-no-items.tools.json"), "--format", "json")
    assert json.loads(out)["clients"]["per_client"] == []


# -- no command parses another command's output --------------------------------------------


# ``json.loads`` may read a file's text (a user's input, the lock); never a string some
# formatter produced: every command (``show`` of several tools too) dumps its JSON once.


def _file_texts(func: ast.AST) -> set[str]:
    """Names a function binds to a file's text (``x = path.read_text(...)``)."""
    names = set()
    for node in ast.walk(func):
        if isinstance(node, ast.Assign) and _reads_a_file(node.value):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def _reads_a_file(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("read_text", "read")
    )


def _reparses(tree: ast.AST) -> set[str]:
    """The functions of ``tree`` that call ``json.loads`` on anything but a file's text."""
    found = set()
    for func in ast.walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        texts = _file_texts(func)
        for node in ast.walk(func):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "loads"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "json"
            ):
                continue
            arg = node.args[0] if node.args else None
            if arg is not None and _reads_a_file(arg):
                continue
            if isinstance(arg, ast.Name) and arg.id in texts:
                continue
            found.add(func.name)
    return found


def _json_loads_of_output() -> list[tuple[str, str]]:
    found = []
    for path in [*sorted((SRC / "cli").glob("*.py")), *sorted((SRC / "project").glob("*.py"))]:
        for func in _reparses(ast.parse(path.read_text("utf-8"))):
            found.append((f"{path.parent.name}/{path.name}", func))
    return sorted(found)


def test_no_command_parses_another_commands_output() -> None:
    found = set(_json_loads_of_output())
    assert found == set(), "compute the JSON from data and dump it once"


REPARSE_CASES = [
    ("def f(run):\n    text = run()\n    return json.loads(text)\n", {"f"}),
    ("def f(args):\n    return json.loads(format_check(args))\n", {"f"}),
    ("def f(p):\n    text = p.read_text()\n    return json.loads(text)\n", set()),
    ("def f(p):\n    return json.loads(p.read_text(encoding='utf-8'))\n", set()),
    ("def f(h):\n    return json.loads(h.read())\n", set()),
]


@pytest.mark.parametrize(("code", "flagged"), REPARSE_CASES)
def test_the_ast_rule_tells_a_reparse_from_a_file_read(code: str, flagged: set[str]) -> None:
    assert _reparses(ast.parse(code)) == flagged


def test_a_rejected_request_says_its_cost_is_what_would_be_sent() -> None:
    path = str(CASES / "many-tools.tools.json")
    code, out, _ = run(
        "check", path, "--client", "vscode-copilot", "--client", "cursor", "--format", "json"
    )
    assert code == EXIT_FINDINGS
    costs = _costs(out)
    assert (costs["vscode-copilot"]["rejected"], costs["cursor"]["rejected"]) == (True, False)
    _, text, _ = run("check", path, "--client", "vscode-copilot")
    assert "the request is rejected, so this is what it would send" in text
