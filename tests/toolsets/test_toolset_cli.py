"""``toollens check`` / ``snapshot`` / ``diff --lock`` / ``report`` on toolsets."""

from __future__ import annotations

import io
import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from support.toolset_page import read_page
from toollens.cli import main

TOOLS = '''
"""Demo tools."""
from typing import Any


def search(query: str, limit: int = 10) -> list[str]:
    """Search the catalogue for products that match a query string.

    Args:
        query: what to look for.
        limit: how many results.
    """
    return []


def search_all(query: str, limit: str = "10") -> list[str]:
    """Search every catalogue for the products matching a query string.

    Args:
        query: what to look for.
        limit: how many results.
    """
    return []


def loose(options: dict[str, Any]) -> str:
    """Take any options and return them as text."""
    return ""
'''

CLEAN = '''
def add(a: int, b: int) -> int:
    """Add two whole numbers and return their sum.

    Args:
        a: the first number.
        b: the second number.
    """
    return a + b
'''


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


HALF = '''
def good(a: int) -> int:
    """Good."""
    return a


def bad(x: "NoSuchType") -> int:
    """Bad."""
    return 1
'''


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    package = tmp_path / "tscli"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "tools.py").write_text(textwrap.dedent(TOOLS))
    (package / "clean.py").write_text(textwrap.dedent(CLEAN))
    (package / "broken.py").write_text("import not_a_module_anywhere\n")
    (package / "empty.py").write_text("X = 1\n")
    (package / "half.py").write_text(textwrap.dedent(HALF))
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in [m for m in sys.modules if m == "tscli" or m.startswith("tscli.")]:
        del sys.modules[name]


def test_check_module_prints_the_table_then_findings(project: Path) -> None:
    code, out, _ = run("check", "tscli.tools", "--provider", "openai-chat", "--provider", "gemini")
    assert code == 1  # loose cannot be strict: a view error
    lines = out.splitlines()
    # a problem counted once, as `check TOOL` counts it: each tool's openai.default is the
    # same problem as its lint.default-not-applied (1 + 1 + 1 warnings, 1 across tools)
    assert lines[0] == "tscli.tools: 3 tools; 4 warnings, 1 view error"
    assert "same problem as lint.default-not-applied above (counted once)" in out
    assert lines[2].split() == ["tool", "openai-chat", "gemini", "lint"]
    assert lines[3].split()[0] == "search"
    assert "1 view error" in lines[5]
    assert "across tools:" in out
    assert "warning[toolset.parameter-type-conflict]" in out
    assert "(tools: search, search_all)" in out
    assert "loose (tscli.tools:26):" in out
    assert "error[view.strict]" in out


def test_check_clean_module_exits_0(project: Path) -> None:
    code, out, _ = run("check", "tscli.clean")
    assert code == 0, out
    assert out.startswith("tscli.clean: 1 tool; no findings")


def test_check_module_that_fails_to_import_exits_3(project: Path) -> None:
    code, out, err = run("check", "tscli.broken")
    assert code == 3
    assert out == ""
    assert err.startswith("toollens: error: importing 'tscli.broken' raised ModuleNotFoundError")
    assert len(err.splitlines()) == 1


def test_check_module_with_no_tools_exits_3_saying_what_was_looked_for(project: Path) -> None:
    code, out, err = run("check", "tscli.empty")
    assert code == 3
    assert out == ""
    assert err.startswith("toollens: error: module 'tscli.empty' has no tools (looked for ")


def test_check_json_format(project: Path) -> None:
    code, out, _ = run("check", "tscli.tools", "--format", "json")
    assert code == 1
    data = json.loads(out)
    assert data["source"] == "tscli.tools"
    assert data["ok"] is False
    assert [t["name"] for t in data["tools"]] == ["search", "search_all", "loose"]
    first = data["tools"][0]
    assert first["origin"] == {
        "kind": "module",
        "label": "tscli.tools",
        "module": "tscli.tools",
        "line": 6,
        "index": None,
        "role": None,
    }
    assert first["check"]["target"] == "search"
    assert data["tools"][2]["check"]["view_errors"]
    (finding,) = data["findings"]
    assert finding["rule"] == "toolset.parameter-type-conflict"
    assert finding["tools"] == ["search", "search_all"]


def test_check_github_format(project: Path) -> None:
    code, out, _ = run("check", "tscli.tools", "--format", "github")
    assert code == 1
    assert "::warning file=tscli/tools.py,line=" in out
    # A cross-tool finding points at the first tool it names (search's def).
    conflict = "title=toollens toolset%3A toolset.parameter-type-conflict::"
    assert f"::warning file=tscli/tools.py,line=6,{conflict}" in out
    assert out.splitlines()[-1].startswith("tscli.tools: 3 tools")


def test_pool_gives_the_serial_result(project: Path) -> None:
    serial = run("check", "tscli.tools", "--format", "json", "--provider", "all")
    pooled = run("check", "tscli.tools", "--format", "json", "--provider", "all", "--jobs", "2")
    assert pooled == serial


def test_check_agent(project: Path) -> None:
    pytest.importorskip("agents")
    (project / "tscli" / "app.py").write_text(
        "from agents import Agent, function_tool\nfrom tscli.clean import add\n"
        "agent = Agent(name='Calc', tools=[function_tool(add)], handoffs=[Agent(name='Help')])\n"
    )
    code, out, _ = run("check", "--agent", "tscli.app:agent", "--format", "json")
    data = json.loads(out)
    assert [t["name"] for t in data["tools"]] == ["add", "transfer_to_help"]
    assert data["tools"][1]["origin"]["role"] == "handoff"
    assert code == 0


def test_check_payload_json_file(project: Path) -> None:
    payload = {
        "tools": [
            {"name": "get_page", "description": "Get a page.", "input_schema": {"type": "object"}},
            {"name": "get page", "description": "Get a page.", "input_schema": {"type": "object"}},
            {"oops": True},
        ]
    }
    (project / "tools.json").write_text(json.dumps(payload))
    code, out, _ = run("check", "tools.json")
    assert code == 1
    # an Anthropic payload is judged as Anthropic: its name rule, no OpenAI alarm
    assert "error[anthropic.name-invalid]" in out
    assert "openai" not in out
    assert "#2 (tools.json[2]): could not be read: tool 2 has no string 'name'" in out


def test_single_tool_targets_still_work(project: Path) -> None:
    code, out, _ = run("check", "tscli.clean:add")
    assert code == 0
    assert out.startswith("add: no findings")


def test_snapshot_and_diff_lock_on_a_toolset(project: Path) -> None:
    code, out, _ = run("snapshot", "--toolset", "tscli.clean")
    assert code == 0
    assert out == "wrote toollens.lock.json: 1 tool (add)\n"
    lock = json.loads((project / "toollens.lock.json").read_text())
    assert list(lock["tools"]) == ["add"]
    assert run("diff", "--lock", "--toolset", "tscli.clean")[:2] == (
        0,
        "toollens.lock.json: no changes to 1 tool; lock up to date\n",
    )
    source = project / "tscli" / "clean.py"
    source.write_text(source.read_text().replace("b: int)", "b: int, c: int)"))
    del sys.modules["tscli.clean"]
    code, out, _ = run("diff", "--lock", "--toolset", "tscli.clean")
    assert code == 2, out
    assert "1 changed (breaking)" in out


def test_snapshot_refuses_a_toolset_with_an_unreadable_tool(project: Path) -> None:
    code, out, err = run("snapshot", "--toolset", "tscli.half")
    assert code == 3
    assert out == ""
    (line,) = err.splitlines()
    assert line.startswith("toollens: error: tool 'bad' (tscli.half:7) cannot be read: ")


def test_report_html_page(project: Path) -> None:
    out_file = project / "page.html"
    code, out, _ = run("report", "tscli.tools", "--html", str(out_file), "--provider", "anthropic")
    assert code == 0
    assert out == f"wrote {out_file}: 3 tools\n"
    page = out_file.read_text()
    assert page.startswith("<!DOCTYPE html>")
    assert "<script src" not in page
    assert "<link" not in page
    contents = read_page(page)  # the table as data, each tool's views stored deflated
    assert [row["index"] for row in contents.table["rows"]] == [0, 1, 2]
    assert len(contents.views) == 3
    assert 'id="tl-tool-2"' in contents.views[2]


def test_report_of_nothing_exits_3(project: Path) -> None:
    code, _, err = run("report", "tscli.broken", "--html", "x.html")
    assert code == 3
    assert err.startswith("toollens: error: importing 'tscli.broken' raised")
    assert not (project / "x.html").exists()


def test_show_a_module_shows_each_tool(project: Path) -> None:
    code, out, _ = run("show", "tscli.tools", "--view", "raw", "--format", "json")
    assert code == 0
    shown = json.loads(out)
    assert [s["title"] for s in shown] == ["search_args", "search_all_args", "loose_args"]


def test_show_a_module_that_fails_to_import_exits_3(project: Path) -> None:
    code, out, err = run("show", "tscli.broken")
    assert (code, out) == (3, "")
    assert err.startswith("toollens: error: importing 'tscli.broken' raised")


def test_show_a_module_with_an_unreadable_tool_shows_the_rest_and_exits_1(project: Path) -> None:
    code, out, err = run("show", "tscli.half", "--view", "raw")
    assert code == 1
    assert err == ""
    assert '"title": "good_args"' in out
    assert "== tool bad (tscli.half:7) ==\n  could not be read: parameter 'x': " in out
    code, out, _ = run("show", "tscli.half", "--view", "raw", "--format", "json")
    good, bad = json.loads(out)
    assert good["title"] == "good_args"
    assert bad["title"] == "bad"
    assert bad["error"].startswith("parameter 'x': annotation 'NoSuchType' cannot be resolved")


@pytest.mark.parametrize(
    ("count", "listed"), [(3, "t0, t1, t2"), (10, "t0, t1, t2, t3, t4, t5, t6, t7 and 2 more")]
)
def test_the_same_finding_on_several_tools_is_one_line_naming_them(
    tmp_path: Path, count: int, listed: str
) -> None:
    """A server whose tools all declare draft-07 gets one line, not one per tool; the JSON
    keeps one finding per tool and the counts count each."""
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {},  # without it, OpenAI refuses the tool (object schema missing properties)
    }
    tools = [
        {"name": f"t{i}", "description": f"Tool {i}.", "inputSchema": schema} for i in range(count)
    ]
    path = tmp_path / "dialect.tools.json"
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    code, out, err = run("check", str(path))
    assert (code, err) == (0, "")
    lines = [line for line in out.splitlines() if "warning[mcp.schema-dialect]" in line]
    assert len(lines) == 1
    assert lines[0].endswith(f"(tools: {listed})")
    assert f"{count} tools; {count} warnings" in out.splitlines()[0]
    code, out, _ = run("check", str(path), "--format", "json")
    found = [f for f in json.loads(out)["findings"] if f["rule"] == "mcp.schema-dialect"]
    assert [f["tools"] for f in found] == [[f"t{i}"] for i in range(count)]
