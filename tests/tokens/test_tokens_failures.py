"""The failure policy of token counting: nothing is counted for tools that were not read.

A target that cannot be read exits 3 with one line on stderr; a toolset with unreadable
entries counts the others, names them and exits 1; zero tools is an error, never the
16 tokens of an empty tools block; without tiktoken the message names the extra.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from toollens.cli import main
from toollens.core.errors import TargetError
from toollens.tokens import TokenizerUnavailableError, tokens
from toollens.toolsets import toolset

TOOL = {
    "name": "get_weather",
    "description": "Get the weather",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}},
}


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def search(query: str) -> list[str]:
    """Search the catalogue."""
    return []


@pytest.fixture
def crash_server(tmp_path: Path) -> str:
    script = tmp_path / "crash.py"
    script.write_text("import sys\nsys.exit(1)\n", encoding="utf-8")
    return f"mcp:{sys.executable} {script}"


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_server_that_exits_before_initialize_exits_3_in_one_line(
    crash_server: str, fmt: str
) -> None:
    pytest.importorskip("mcp.client.stdio")  # the SDK, not a directory called mcp
    pytest.importorskip("tiktoken")
    code, out, err = run("tokens", crash_server, "--format", fmt)
    assert code == 3
    assert out == ""
    assert err.startswith("toollens: error: ")
    assert err.count("\n") == 1
    assert "exited" in err
    assert "tokens for" not in err


def test_the_python_api_raises_when_no_tool_could_be_read() -> None:
    with pytest.raises(TargetError, match="none of the 2 tools could be read"):
        tokens(toolset([42, 43]))


@pytest.mark.parametrize(
    ("payload", "names"),
    [
        pytest.param([TOOL], ["get_weather"], id="bare-list"),
        pytest.param({"tools": [TOOL]}, ["get_weather"], id="tools-object"),
        pytest.param(
            [{"type": "function", "function": {**TOOL, "parameters": TOOL["input_schema"]}}],
            ["get_weather"],
            id="bare-list-openai",
        ),
    ],
)
def test_a_json_tool_list_is_counted_as_its_tools(
    tmp_path: Path, payload: object, names: list[str]
) -> None:
    pytest.importorskip("tiktoken")
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    code, out, _ = run("tokens", str(path), "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert [t["name"] for t in data["tools"]] == names
    assert data["tools"][0]["tokens"] > 0
    assert data["total"] == data["overhead"] + sum(t["tokens"] for t in data["tools"])


@pytest.mark.parametrize("payload", [[], {"tools": []}], ids=["empty-list", "empty-tools"])
def test_zero_tools_is_an_error_not_16_tokens(tmp_path: Path, payload: object) -> None:
    pytest.importorskip("tiktoken")
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    code, out, err = run("tokens", str(path))
    assert (code, out) == (3, "")
    assert "holds no tools" in err  # the words every command uses for it
    assert err.count("\n") == 1


def test_no_tools_in_python_costs_nothing() -> None:
    counted = tokens([], "gpt-4o")
    assert (counted.total, counted.overhead, counted.tools) == (0, 0, ())


def test_a_toolset_with_unreadable_entries_counts_the_rest_and_exits_1(tmp_path: Path) -> None:
    pytest.importorskip("tiktoken")
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": [TOOL, 42]}), encoding="utf-8")
    code, out, _ = run("tokens", str(path))
    assert code == 1
    head = out.splitlines()[0]
    assert "1 of 2 tools" in head
    assert "not counted" in head
    assert "not read: #1: tool 1 is a int, not an object" in out
    code, out, _ = run("tokens", str(path), "--format", "json")
    data = json.loads(out)
    assert code == 1
    assert [t["name"] for t in data["tools"]] == ["get_weather"]
    assert data["unread"] == [{"name": "#1", "error": "tool 1 is a int, not an object"}]


def test_unread_entries_are_data_on_the_count() -> None:
    pytest.importorskip("tiktoken")
    counted = tokens(toolset([search, 42]))
    assert not counted.complete
    assert [u.name for u in counted.unread] == ["#1"]
    assert [t.name for t in counted.tools] == ["search"]


@pytest.mark.parametrize("model", ["gpt-4o", "gpt-4.1-mini", "some-model"])
def test_without_tiktoken_the_error_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, model: str
) -> None:
    monkeypatch.setitem(sys.modules, "tiktoken", None)  # `import tiktoken` now fails
    with pytest.raises(TokenizerUnavailableError, match=r'pip install "toollens\[tokens\]"'):
        tokens(search, model)


def test_without_tiktoken_the_cli_says_which_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tiktoken", None)
    code, out, err = run("tokens", f"{__name__}:search")
    assert (code, out) == (3, "")
    assert 'pip install "toollens[tokens]"' in err
    assert "no token-counting rule" not in err


def test_the_budget_is_a_function_of_definitions_already_read() -> None:
    pytest.importorskip("tiktoken")
    from toollens.assess.budget import budget
    from toollens.tokens import ToolDef

    long = ToolDef("big", "x" * 1500, {"type": "object", "properties": {}})
    small = ToolDef("small", "Small", {"type": "object", "properties": {}})
    only_limits = budget([long, small], None, None, "gpt-4o")
    assert only_limits.counted is None
    assert [(f.rule, i) for f, i in only_limits.found] == [("limits.openai-description-length", 0)]
    result = budget([long, small], 50, 10, "gpt-4o")
    assert result.counted is not None
    rules = [(f.rule, i) for f, i in result.found]
    assert ("tokens.tool-over-budget", 0) in rules
    assert ("tokens.total-over-budget", None) in rules
    assert result.failed
    data = result.to_json()
    assert data["tools"] == {t.name: t.tokens for t in result.counted.tools}
    assert data["up_front"] == data["total"] == result.counted.total
    assert result.to_text().startswith(f"tokens (gpt-4o, {result.counted.method}): ")
