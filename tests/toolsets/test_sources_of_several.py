"""``MODULE:ATTR`` naming several tools is read as a toolset by every command, as
``toollens.toolset`` reads it: a list of functions, a Gemini tool's declarations, a payload
dict, an agent. Before, ``check``/``show`` refused an agent ("cannot be read as one tool")
and read a Gemini tool file as one schema, and ``tokens`` counted it as one tool, while
``toollens.toolset`` read every tool.
"""

from __future__ import annotations

import importlib.util
import io
import json
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import toollens
from toollens.cli import main

TOOLS_PY = '''
def plain(x: int) -> int:
    """Double a number.

    Args:
        x: The number to double.
    """
    return 2 * x


def other(text: str) -> str:
    """Shout a text back in capitals.

    Args:
        text: The text to shout.
    """
    return text.upper()


TOOLS = [plain, other]
PAYLOAD = {"tools": [{"type": "function", "function": {
    "name": "lookup", "description": "Look an order up by its number.",
    "parameters": {"type": "object", "properties": {"order": {"type": "string",
    "description": "The order number."}}, "required": ["order"]}}}]}
SCHEMA = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
'''

AGENTS_PY = """
from agents import Agent, function_tool

from several.tools import other, plain

agent = Agent(name="helper", tools=[function_tool(plain), function_tool(other)])
"""

GEMINI = {
    "functionDeclarations": [
        {
            "name": "first",
            "description": "Fetch the first page of results.",
            "parameters": {"type": "object", "properties": {}},
        },
        {
            "name": "second",
            "description": "Fetch the second page of results.",
            "parameters": {"type": "object", "properties": {}},
        },
    ]
}

HAS_AGENTS = importlib.util.find_spec("agents") is not None

SEVERAL = [
    ("several.tools:TOOLS", ["plain", "other"]),
    ("several.tools:PAYLOAD", ["lookup"]),
    ("gemini.json", ["first", "second"]),
    pytest.param(
        "several.agents:agent",
        ["plain", "other"],
        marks=pytest.mark.skipif(not HAS_AGENTS, reason="openai-agents is not installed"),
    ),
]


@pytest.fixture(autouse=True)
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    package = tmp_path / "several"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "tools.py").write_text(textwrap.dedent(TOOLS_PY))
    (package / "agents.py").write_text(textwrap.dedent(AGENTS_PY))
    (tmp_path / "gemini.json").write_text(json.dumps(GEMINI))
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield
    for name in [m for m in sys.modules if m == "several" or m.startswith("several.")]:
        del sys.modules[name]


def run_json(*argv: str) -> object:
    out, err = io.StringIO(), io.StringIO()
    code = main([*argv, "--format", "json"], stdout=out, stderr=err)
    assert code in (0, 1), err.getvalue()
    return json.loads(out.getvalue())


@pytest.mark.parametrize(("target", "names"), SEVERAL)
def test_every_command_reads_the_tools_toolset_reads(target: str, names: list[str]) -> None:
    assert list(toollens.toolset(target).names) == names
    checked = run_json("check", target)
    assert isinstance(checked, dict)
    assert [t["name"] for t in checked["tools"]] == names
    shown = run_json("show", target)
    assert isinstance(shown, list)
    assert [view["title"] for view in shown] == names
    counted = run_json("tokens", target)
    assert isinstance(counted, dict)
    assert [t["name"] for t in counted["tools"]] == names


@pytest.mark.parametrize("target", ["several.tools:plain", "several.tools:SCHEMA"])
def test_one_tool_stays_one_tool(target: str) -> None:
    checked = run_json("check", target)
    assert isinstance(checked, dict)
    assert "tools" not in checked  # the one-tool check, not a table of one
    shown = run_json("show", target)
    assert isinstance(shown, dict)
