"""``diff OLD NEW --format github``: the changes annotated on the NEW side where it is
declared (a Python function's file and line, a JSON file, a source's tool), then one plain
summary line."""

from __future__ import annotations

import io
import json
import textwrap
from pathlib import Path

import pytest

from toollens.cli import main
from toollens.core.diff import diff
from toollens.render.diff_github import format_diff_github
from toollens.toolsets import toolset

OLD = '''
def lookup(city: str) -> str:
    """Find a city."""
    return city
'''
NEW = '''
def lookup(city: str, country: str) -> str:
    """Find a city."""
    return city
'''


def _run(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue()


@pytest.fixture
def modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "old_tools.py").write_text(textwrap.dedent(OLD), encoding="utf-8")
    (tmp_path / "new_tools.py").write_text(textwrap.dedent(NEW), encoding="utf-8")
    return tmp_path


def test_a_python_target_is_annotated_on_its_function(modules: Path) -> None:
    code, out = _run("diff", "old_tools:lookup", "new_tools:lookup", "--format", "github")
    assert code == 2  # a new required parameter breaks callers
    first, *_, last = out.splitlines()
    assert first.startswith("::error file=new_tools.py,line=")
    assert "breaking change to tool lookup" in first
    assert "country" in first
    assert last.startswith("new_tools:lookup: ")


def test_a_json_file_is_annotated_whole(modules: Path) -> None:
    schema = {"type": "object", "properties": {"q": {"type": "string"}}}
    (modules / "old.json").write_text(json.dumps(schema), encoding="utf-8")
    schema["required"] = ["q"]
    (modules / "new.json").write_text(json.dumps(schema), encoding="utf-8")
    code, out = _run("diff", "old.json", "new.json", "--format", "github")
    assert code == 2
    first = out.splitlines()[0]
    assert first.startswith("::error file=new.json,")
    assert "line=" not in first


def test_a_sources_tool_is_annotated_where_its_list_holds_it(modules: Path) -> None:
    listing = {
        "tools": [
            {"name": "a", "inputSchema": {"type": "object"}},
            {"name": "b", "inputSchema": {"type": "object", "properties": {}}},
        ]
    }
    path = modules / "served.tools.json"
    path.write_text(json.dumps(listing, indent=1), encoding="utf-8")
    tool = toolset(str(path)).tools[1]
    before = {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}
    result = diff(before, tool.input_schema)
    text = format_diff_github(result, "served.tools.json", tool)
    first, *_, last = text.splitlines()
    assert "tool b" in first
    assert "file=served.tools.json" in first
    assert last == f"served.tools.json: {result.headline}"
