"""The lock reads the project's table as ``check project:`` does: one reader for both.

Found by running toollens as a user: ``tools = ["tools:agent"]`` (an OpenAI Agents SDK
``Agent`` holding two ``function_tool``s) checked fine with ``check project:`` while
``toollens snapshot`` exited 3 ("'helper' cannot be read as one tool: it holds 2 tools"),
because the lock expanded the table through a path of its own. Both now read the tools
:func:`toollens.project.source.project_toolset` gives.
"""

from __future__ import annotations

import io
import json
import shlex
import sys
from pathlib import Path

import pytest

from support import REPO_ROOT
from support.two_tools import ADD_AND_SCALE
from toollens.cli import main

SERVER = REPO_ROOT / "tests" / "mcp" / "mcp_servers" / "raw_tools.py"

AGENT = '''\
from agents import Agent, WebSearchTool, function_tool


@function_tool
def get_weather(city: str) -> str:
    """Get the weather.

    Args:
        city: The city.
    """
    return city


@function_tool
def get_time(zone: str) -> str:
    """Get the time.

    Args:
        zone: The zone.
    """
    return zone


@function_tool(name_override="get_weather")
def weather_by_town(town: str) -> str:
    """Get the weather of a town.

    Args:
        town: The town.
    """
    return town


agent = Agent(name="helper", tools=[get_weather, get_time])
hosted = Agent(name="searcher", tools=[get_weather, WebSearchTool()])
other = Agent(name="other", tools=[weather_by_town])
'''

PLAIN = ADD_AND_SCALE

LOOKUP = {
    "name": "lookup",
    "description": "Look a word up in the dictionary.",
    "inputSchema": {
        "type": "object",
        "properties": {"word": {"type": "string", "description": "The word."}},
        "required": ["word"],
    },
}


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def server(root: Path, name: str, tools: list[dict[str, object]]) -> str:
    """An ``mcp:`` target serving ``tools`` from a file in ``root``."""
    path = root / f"{name}.json"
    path.write_text(json.dumps(tools), encoding="utf-8")
    return "mcp:" + shlex.join([sys.executable, str(SERVER), str(path)])


def table(root: Path, *tools: str) -> None:
    listed = ", ".join(json.dumps(t) for t in tools)
    text = f"[tool.toollens]\ntools = [{listed}]\ntokens_model = false\n"
    (root / "pyproject.toml").write_text(text, encoding="utf-8")


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    pytest.importorskip("agents")
    (tmp_path / "lockagent.py").write_text(AGENT, encoding="utf-8")
    (tmp_path / "lockplain.py").write_text(PLAIN, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("lockagent", "lockplain"):  # a fresh import of each test's files
        monkeypatch.delitem(sys.modules, name, raising=False)
    return tmp_path


def lock_names(root: Path) -> list[str]:
    lock = json.loads((root / "toollens.lock.json").read_text(encoding="utf-8"))
    return list(lock["tools"])


def check_names() -> list[str]:
    code, out, err = run("check", "project:", "--format", "json")
    assert code in (0, 1), err
    return [t["name"] for t in json.loads(out)["tools"]]


def test_an_agent_in_the_table_gives_the_lock_its_tools(root: Path) -> None:
    table(root, "lockagent:agent")
    code, out, err = run("snapshot")
    assert (code, err) == (0, ""), err
    assert out == "wrote toollens.lock.json: 2 tools (get_time, get_weather)\n"
    assert lock_names(root) == ["get_time", "get_weather"]  # the lock sorts by name
    lock = json.loads((root / "toollens.lock.json").read_text(encoding="utf-8"))
    weather = lock["tools"]["get_weather"]
    assert weather["description"] == "Get the weather."
    assert list(weather["parameters"]["properties"]) == ["city"]
    code, out, err = run("diff", "--lock")
    assert (code, err) == (0, ""), out + err
    assert out == "toollens.lock.json: no changes to 2 tools; lock up to date\n"


def test_a_hosted_tool_is_listed_by_check_but_not_locked(root: Path) -> None:
    table(root, "lockagent:hosted")
    code, _, err = run("snapshot")
    assert code == 0, err
    assert lock_names(root) == ["get_weather"]  # WebSearchTool: no schema to lock
    assert check_names() == ["get_weather", "web_search"]


def test_check_and_the_lock_name_the_same_tools_in_the_same_order(root: Path) -> None:
    from toollens.project.config import load_config
    from toollens.project.lock import collect_tools

    target = server(root, "dictionary", [LOOKUP])
    # a tool named twice (lockplain:add and lockplain:*, get_weather in both agents) is one
    table(root, "lockplain:add", "lockplain:*", "lockagent:agent", "lockagent:hosted", target)
    expected = ["add", "scale", "get_weather", "get_time", "web_search", "lookup"]
    assert check_names() == expected
    locked = [t.name for t in collect_tools(load_config())]
    assert locked == [name for name in expected if name != "web_search"]
    code, out, err = run("snapshot")
    assert code == 0, err
    assert lock_names(root) == sorted(locked)
    assert run("diff", "--lock")[0] == 0
    code, out, _ = run("diff", "--lock", "--format", "json")
    targets = {name: t["target"] for name, t in json.loads(out)["tools"].items()}
    assert targets["add"] == "lockplain:add"
    assert targets["lookup"] == f"{target}#lookup"
    assert targets["get_time"] == "helper[1]"  # the agent's second tool


def _refused(name: str, first: str, second: str) -> None:
    code, out, err = run("snapshot")
    assert (code, out) == (3, "")
    (line,) = err.splitlines()
    assert line == (
        f"toollens: error: tools {first!r} and {second!r} are both named {name!r}; "
        "a model tells tools apart by name; rename one"
    )


def test_two_servers_with_a_tool_of_the_same_name_are_refused(root: Path) -> None:
    first, second = server(root, "one", [LOOKUP]), server(root, "two", [LOOKUP])
    table(root, first, second)
    assert check_names() == ["lookup", "lookup"]  # both listed, neither dropped
    _refused("lookup", f"{first}#lookup", f"{second}#lookup")


def test_two_agents_with_different_tools_of_one_name_are_refused(root: Path) -> None:
    table(root, "lockagent:agent", "lockagent:other")
    assert check_names() == ["get_weather", "get_time", "get_weather"]
    _refused("get_weather", "helper[0]", "other[0]")


@pytest.mark.parametrize(
    ("listed", "said"),
    [
        ("lockplain:missing", "tool 'lockplain:missing' cannot be read: "),
        ("nosuchmodule:tool", "tool 'nosuchmodule:tool' cannot be read: "),
        ("nosuchmodule:*", "tool 'nosuchmodule:*' cannot be read: "),
        (
            "mcp:no-such-command-for-toollens",
            "tool 'mcp:no-such-command-for-toollens' cannot be read: MCP server ",
        ),
    ],
    ids=["missing-attribute", "missing-module", "missing-module-wildcard", "missing-server"],
)
def test_a_table_entry_that_cannot_be_read_fails_the_lock(
    root: Path, listed: str, said: str
) -> None:
    table(root, "lockagent:agent", listed)
    assert listed in check_names()  # check lists it, with its error
    for command in (("snapshot",), ("diff", "--lock")):
        code, out, err = run(*command)
        assert (code, out) == (3, ""), command
        (line,) = err.splitlines()
        assert line.startswith(f"toollens: error: {said}"), line
    assert not (root / "toollens.lock.json").exists()
