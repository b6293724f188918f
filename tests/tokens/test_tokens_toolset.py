"""tokens() takes a Toolset; the CLI takes toolset sources (a module, a .py file)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

pytest.importorskip("tiktoken")

from toollens.cli import main
from toollens.tokens import tokens
from toollens.toolsets import Toolset, toolset


def search(query: str) -> list[str]:
    """Search the catalogue.

    Args:
        query: words to look for
    """
    return []


def fetch(item_id: str) -> str:
    """Fetch one item by its id."""
    return ""


def test_a_toolset_counts_like_the_list_of_its_tools() -> None:
    ts = toolset([search, fetch])
    assert isinstance(ts, Toolset)
    assert tokens(ts) == tokens([search, fetch])
    assert [t.name for t in tokens(ts).tools] == ["search", "fetch"]


def test_a_toolset_of_definitions_counts() -> None:
    ts = Toolset.from_definitions(
        [
            {
                "name": "ping",
                "description": "Check the service",
                "input_schema": {"type": "object", "properties": {}},
            }
        ]
    )
    counted = tokens(ts, "gpt-4")
    assert [t.name for t in counted.tools] == ["ping"]
    assert counted.total == counted.overhead + counted.tools[0].tokens


def test_unreadable_entries_are_named_in_a_note() -> None:
    ts = toolset([search, 42])
    counted = tokens(ts)
    assert [t.name for t in counted.tools] == ["search"]
    assert [u.name for u in counted.unread] == ["#1"]
    assert any("not counted (could not be read)" in n for n in counted.notes)


def test_the_cli_counts_a_module_as_a_toolset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "tl_tokens_agent_tools.py").write_text(
        'def a(x: int) -> int:\n    """Add one."""\n    return x\n\n'
        'def b(y: str) -> str:\n    """Echo."""\n    return y\n',
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    code = main(
        ["tokens", "tl_tokens_agent_tools", "--format", "json"], stdout=out, stderr=io.StringIO()
    )
    assert code == 0
    data = json.loads(out.getvalue())
    assert [t["name"] for t in data["tools"]] == ["a", "b"]
    out = io.StringIO()
    code = main(
        ["check", "tl_tokens_agent_tools", "--max-total-tokens", "5", "--format", "json"],
        stdout=out,
        stderr=io.StringIO(),
    )
    assert code == 1
    assert json.loads(out.getvalue())["tokens"]["findings"][0]["rule"] == "tokens.total-over-budget"
