"""The lock records each tool's token count; ``diff --lock`` reports the change."""

from __future__ import annotations

import importlib
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("tiktoken")

from toollens.cli import main
from toollens.project.config import ProjectError, load_config

PACKAGE = "tokpkg"
TOOLS = '''
def search(query: str) -> list[str]:
    """Search the catalogue.

    Args:
        query: words to look for
    """
    return []
'''
LONGER = "Search the catalogue by title, author, publisher, series, year and subject, " * 3


def _forget() -> None:
    for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
        del sys.modules[name]
    importlib.invalidate_caches()


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    (tmp_path / PACKAGE).mkdir()
    (tmp_path / PACKAGE / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / PACKAGE / "tools.py").write_text(TOOLS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    yield tmp_path
    _forget()


def table(root: Path, extra: str = "") -> None:
    text = f'[tool.toollens]\ntools = ["{PACKAGE}.tools:search"]\n{extra}'
    (root / "pyproject.toml").write_text(text, encoding="utf-8")


def run(*argv: str) -> tuple[int, str]:
    _forget()
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue() + err.getvalue()


def grow(root: Path) -> None:
    path = root / PACKAGE / "tools.py"
    path.write_text(TOOLS.replace("Search the catalogue.", LONGER), encoding="utf-8")


def test_snapshot_records_the_tools_tokens(project: Path) -> None:
    table(project)
    assert run("snapshot")[0] == 0
    entry = json.loads((project / "toollens.lock.json").read_text())["tools"]["search"]
    from toollens.core.function_schema import function_schema
    from toollens.tokens import tokens

    expected = tokens(function_schema(importlib.import_module(f"{PACKAGE}.tools").search))
    assert entry["tokens"] == {"model": "gpt-4o", "count": expected.tools[0].tokens}
    assert list(entry)[-1] == "tokens"


def test_diff_reports_the_delta(project: Path) -> None:
    table(project)
    run("snapshot")
    grow(project)
    code, out = run("diff", "--lock")
    assert code == 1  # a description-only change
    (line,) = [x for x in out.splitlines() if x.startswith("search: +")]
    assert " tokens (gpt-4o: " in line
    code, out = run("diff", "--lock", "--format", "json")
    delta = json.loads(out)["tokens"]["deltas"]["search"]
    assert delta["change"] == delta["new"] - delta["old"] > 0
    assert json.loads(out)["tokens"]["findings"] == []


def test_growth_over_the_threshold_is_a_finding(project: Path) -> None:
    table(project, "max_token_growth = 5\n")
    run("snapshot")
    grow(project)
    code, out = run("diff", "--lock")
    assert code == 1
    assert "error[tokens.growth]: tool 'search' grew by " in out
    code, out = run("diff", "--lock", "--format", "github")
    assert "::error file=tokpkg/tools.py,line=" in out
    assert ",title=toollens%3A tokens.growth::tool 'search' grew by" in out


def test_growth_under_the_threshold_is_not(project: Path) -> None:
    table(project, "max_token_growth = 500\n")
    run("snapshot")
    grow(project)
    _, out = run("diff", "--lock")
    assert "tokens.growth" not in out


def test_counts_can_be_turned_off_and_old_locks_stay_readable(project: Path) -> None:
    table(project, "tokens_model = false\n")
    run("snapshot")
    entry = json.loads((project / "toollens.lock.json").read_text())["tools"]["search"]
    assert "tokens" not in entry
    table(project)  # counting on again: the old lock reads, and is out of date
    code, out = run("diff", "--lock")
    assert code == 1
    assert "lock out of date" in out


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("tokens_model = 3\n", "tokens_model is 3"),
        ("max_token_growth = -1\n", "max_token_growth is -1, not a whole number >= 0"),
    ],
)
def test_bad_settings(project: Path, line: str, message: str) -> None:
    table(project, line)
    with pytest.raises(ProjectError, match=message):
        load_config(project)


def test_tokens_and_check_without_a_target_take_the_project_tools(project: Path) -> None:
    table(project)
    code, out = run("tokens", "--format", "json")
    assert code == 0
    assert [t["name"] for t in json.loads(out)["tools"]] == ["search"]
    code, out = run("check", "--max-tokens", "5")
    assert code == 1
    assert "error[tokens.tool-over-budget]: tool 'search' costs" in out


def test_the_lock_marks_a_deferred_tool_and_its_change_says_so(tmp_path: Path) -> None:
    import toollens
    from toollens.project.lock_tokens import entry_tokens, token_deltas

    payload = [
        {"type": "function", "name": "get_weather", "description": "Get the weather",
         "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}},
        {"type": "function", "name": "search_docs", "description": "Search the docs",
         "defer_loading": True,
         "parameters": {"type": "object", "properties": {"query": {"type": "string"}}}},
    ]  # fmt: skip
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    listed = toollens.toolset(str(path)).tools
    entries = {t.name: entry_tokens(t.report, "gpt-4o") for t in listed}
    up_front, deferred = entries["get_weather"], entries["search_docs"]
    assert up_front is not None
    assert "deferred" not in up_front
    assert deferred is not None
    assert deferred["deferred"] is True
    grown = {**deferred, "count": int(deferred["count"]) + 5}
    (delta,) = token_deltas({"search_docs": {"tokens": deferred}},
                            {"search_docs": {"tokens": grown}})  # fmt: skip
    assert delta.deferred
    assert str(delta).endswith(", deferred: paid once loaded)")
