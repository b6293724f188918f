"""``toollens tokens`` and ``check --max-tokens`` with the network closed."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

pytest.importorskip("tiktoken")

from toollens.cli import main
from toollens.tokens.claude import ctok_available

TOOLS = '''
from typing import Literal

def get_weather(city: str, unit: Literal["celsius", "fahrenheit"] = "celsius") -> str:
    """Get the current weather in a city.

    Args:
        city: The city and country, e.g. Paris, France.
        unit: The temperature unit to answer in.
    """
    return ""

def ping() -> str:
    """Check the service is up."""
    return "pong"
'''


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def tools(tmp_path: Path) -> Path:
    path = tmp_path / "tools.py"
    path.write_text(TOOLS, encoding="utf-8")
    return path


def test_json_has_total_model_method_and_tools(tools: Path) -> None:
    code, out, err = run("tokens", f"{tools}:get_weather", f"{tools}:ping", "--format", "json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert isinstance(data["total"], int)
    # a Python function's schema has titles, defaults, additionalProperties: no published
    # figure covers them, so the count is toollens' rendering, with those named
    assert (data["model"], data["method"]) == ("gpt-4o", "rendered")
    assert {"default", "title", "additionalProperties"} <= set(data["unvalidated"])
    assert [t["name"] for t in data["tools"]] == ["get_weather", "ping"]
    assert data["total"] == data["overhead"] + sum(t["tokens"] for t in data["tools"])
    kinds = {(p["path"], p["kind"]) for p in data["tools"][0]["parts"]}
    assert {("city", "description"), ("unit", "enum"), ("unit", "default")} <= kinds


def test_text_shows_bars_per_part(tools: Path) -> None:
    code, out, _ = run("tokens", f"{tools}:get_weather", "--model", "gpt-4")
    assert code == 0
    first = out.splitlines()[0]
    assert first.endswith("tokens for gpt-4 (rendered, cl100k_base)")
    assert "unit (enum)" in out
    assert "█" in out


def test_estimates_say_so(tools: Path) -> None:
    code, out, _ = run("tokens", f"{tools}:ping", "--model", "claude-sonnet-4-5")
    assert code == 0
    assert "(estimate, ctok 3.0)" in out if ctok_available() else "(estimate, o200k_base)" in out
    assert "496 tokens of tool-use system prompt" in out


def test_online_without_a_key_fails_in_one_line(
    tools: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    code, out, err = run("tokens", f"{tools}:ping", "--model", "claude-opus-4-1", "--online")
    assert (code, out) == (3, "")
    assert err == "toollens: error: --online needs an Anthropic API key; set ANTHROPIC_API_KEY\n"


def test_an_unknown_model_is_an_error(tools: Path) -> None:
    code, _, err = run("tokens", f"{tools}:ping", "--model", "llama-9")
    assert code == 3
    assert err.startswith("toollens: error: no token-counting rule for model 'llama-9'")


@pytest.mark.parametrize(
    ("budget", "code", "rule"),
    [
        (("--max-tokens", "5"), 1, "tokens.tool-over-budget"),
        (("--max-tokens", "5000"), 0, None),
        (("--max-total-tokens", "10"), 1, "tokens.total-over-budget"),
        (("--max-total-tokens", "10000"), 0, None),
    ],
)
def test_check_budgets(tools: Path, budget: tuple[str, str], code: int, rule: str | None) -> None:
    exit_code, out, _ = run("check", f"{tools}:ping", *budget, "--format", "json")
    assert exit_code == code
    found = [f["rule"] for f in json.loads(out)["tokens"]["findings"]]
    assert found == ([rule] if rule else [])


def test_check_budget_text_and_github(tools: Path) -> None:
    code, out, _ = run("check", f"{tools}:get_weather", "--max-tokens", "10")
    assert code == 1
    assert "error[tokens.tool-over-budget]: tool 'get_weather' costs" in out
    code, out, _ = run("check", f"{tools}:get_weather", "--max-tokens", "10", "--format", "github")
    assert code == 1
    assert ",title=toollens%3A tokens.tool-over-budget::tool 'get_weather'" in out


def test_check_without_a_budget_is_unchanged(tools: Path) -> None:
    code, out, _ = run("check", f"{tools}:ping", "--format", "json")
    assert code == 0
    assert "tokens" not in json.loads(out)


LONG = '''
def lookup(key: str) -> str:
    """{text}"""
    return ""
'''


@pytest.mark.parametrize(
    ("length", "code", "rules"),
    [
        (1000, 0, []),
        (1500, 1, ["limits.openai-description-length"]),
        (2100, 1, ["limits.openai-description-length", "limits.claude-code-description-truncated"]),
    ],
)
def test_description_limits_are_findings(
    tmp_path: Path, length: int, code: int, rules: list[str]
) -> None:
    path = tmp_path / "long.py"
    path.write_text(LONG.replace("{text}", "x" * length), encoding="utf-8")
    exit_code, out, _ = run("check", f"{path}:lookup", "--format", "json")
    assert exit_code == code
    data = json.loads(out)
    found = [f["rule"] for f in data["tokens"]["findings"]] if "tokens" in data else []
    assert found == rules


def test_description_limit_in_text(tmp_path: Path) -> None:
    path = tmp_path / "long.py"
    path.write_text(LONG.replace("{text}", "y" * 1100), encoding="utf-8")
    code, out, _ = run("check", f"{path}:lookup")
    assert code == 1
    assert "error[limits.openai-description-length]: tool 'lookup' has a 1100-character" in out
