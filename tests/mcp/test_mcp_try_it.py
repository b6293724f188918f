"""An MCP tool opened from the Toolset view: the explorer on its inputSchema, whose Try-it
Call is a real ``tools/call`` on the server."""

from __future__ import annotations

import html
import json
import re
import sys

import pytest
from mcp_support import server

import toollens
from toollens.jupyter.explorer import Explorer
from toollens.jupyter.toolset_widget import detail_widget

pytest.importorskip("mcp")
pytestmark = [
    pytest.mark.network_ok,  # the server runs as a child process (stdio, no sockets)
    pytest.mark.skipif(sys.platform == "win32", reason="POSIX process groups"),
]


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", fragment))


def test_call_in_the_try_it_view_calls_the_server() -> None:
    ts = toollens.toolset(server("call_tools.py", tool="get_weather"))
    entry = ts["get_weather"]
    explorer = detail_widget(entry, None)
    assert isinstance(explorer, Explorer)
    explorer.try_open = True
    assert explorer.try_can_call
    # As its clients send it (non-strict): the example fills only the required "city".
    assert json.loads(explorer.try_arguments) == {"city": ""}
    explorer.try_arguments = json.dumps({"city": "Oslo", "days": 9})
    assert {m["pointer"] for m in explorer.try_marks} == {"/days"}
    explorer.try_arguments = json.dumps({"city": "Oslo", "days": 2})
    assert explorer.try_marks == []
    explorer._on_message(explorer, {"type": "try", "action": "call"}, [])
    shown = _text(explorer.try_html)
    assert "returned" in shown
    assert "tools/call get_weather" in shown
    assert "Oslo" in shown
