"""Any tool a toolset yields and any target ``toollens show`` takes opens in the explorer
and in ``%toolschema``: a tool of a saved ``tools/list`` or of a live MCP server, a
``FILE.json#TOOL``, an ``mcp:...#TOOL`` string, a ``MODULE:FUNC`` string."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

import toollens

pytest.importorskip("anywidget")

from toollens.core.errors import TargetError
from toollens.jupyter.explorer import Explorer

TESTS = Path(__file__).parents[1]
LIST = str(TESTS / "consumers" / "cases" / "array-no-items.tools.json")
# %toolschema with a target string: tests/jupyter/test_magic.py (its IPython shell).

SERVER = '''
from mcp.server.mcpserver import MCPServer

server = MCPServer("demo")


@server.tool()
def add(a: int, b: int = 2) -> int:
    """Add two numbers."""
    return a + b


if __name__ == "__main__":
    server.run()
'''


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> str:
    pytest.importorskip("mcp")
    path = tmp_path_factory.mktemp("open-any") / "server.py"
    path.write_text(SERVER, encoding="utf-8")
    return "mcp:" + shlex.join([sys.executable, str(path)])


def _opened_as_listed(explorer: Explorer, name: str) -> None:
    assert explorer.report is not None
    assert explorer.report.title == name
    assert explorer.report.target_kind == "json-schema"
    assert "clients" in explorer.panels  # the tool list came along
    assert name in explorer.panels["clients"]


@pytest.mark.parametrize(
    "pick",
    [
        lambda: toollens.toolset(LIST).tools[1],  # a tool a toolset yields
        lambda: f"{LIST}#update_dashboard",  # a target show takes
    ],
    ids=["toolset-tool", "file-hash-tool"],
)
def test_a_saved_lists_tool_opens_with_its_clients_view(pick: Any) -> None:
    _opened_as_listed(Explorer(pick(), debounce=0), "update_dashboard")


@pytest.mark.network_ok  # the server is a child process on stdio (no sockets)
def test_a_servers_tool_opens_from_the_toolset_and_from_its_target(server: str) -> None:
    (tool,) = toollens.toolset(server).tools
    for target in (tool, f"{server}#add"):
        explorer = Explorer(target, debounce=0)
        _opened_as_listed(explorer, "add")
        assert explorer.try_view is not None


def test_a_module_function_target_opens_the_function() -> None:
    explorer = Explorer("toollens.examples:get_weather", debounce=0)
    assert explorer.report is not None
    assert explorer.report.target_kind == "callable"
    assert explorer.report.title == "get_weather"


@pytest.mark.parametrize(
    ("target", "said"),
    [
        (f"{LIST}#nowhere", "names no tool (its tools: ping, update_dashboard)"),
        (LIST, "names 2 tools"),
    ],
    ids=["unknown-tool", "several"],
)
def test_a_target_that_names_no_one_tool_says_which_it_has(target: str, said: str) -> None:
    with pytest.raises(TargetError, match="its tools") as caught:
        Explorer(target, debounce=0)
    assert said in str(caught.value)


def test_json_text_is_still_a_schema() -> None:
    explorer = Explorer('{"type": "object", "properties": {"q": {"type": "string"}}}', debounce=0)
    assert explorer.report is not None
    assert explorer.report.target_kind == "json-schema"
