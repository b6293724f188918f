"""MCP servers as targets: list a server's tools with the official ``mcp`` SDK and judge them.

``mcp:COMMAND ARGS...`` starts a server over stdio, ``mcp:http(s)://HOST:PORT/PATH`` connects
to a streamable-HTTP one, and ``#TOOL`` picks one tool. The ``mcp`` package is imported only
when a server is contacted (``pip install 'toollens[mcp]'``). Nothing here imports a UI.
``call_mcp_tool`` and ``mcp_caller`` (a real ``tools/call``) load the round trip on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toollens.mcp.client import DEFAULT_TIMEOUT, ConnectOptions, fetch_tools
from toollens.mcp.records import McpServerInfo, McpTool, ServerTools
from toollens.mcp.target import MCP_PREFIX, McpTarget, is_mcp_target, parse_mcp_target

__all__ = [
    "DEFAULT_TIMEOUT",
    "MCP_PREFIX",
    "ConnectOptions",
    "McpServerInfo",
    "McpTarget",
    "McpTool",
    "ServerTools",
    "call_mcp_tool",
    "fetch_tools",
    "is_mcp_target",
    "mcp_caller",
    "parse_mcp_target",
]

if TYPE_CHECKING:
    from toollens.mcp.calling import call_mcp_tool, mcp_caller

_CALLING = ("call_mcp_tool", "mcp_caller")


def __getattr__(name: str) -> Any:  # Any: one of the two functions above
    if name not in _CALLING:
        raise AttributeError(f"module 'toollens.mcp' has no attribute {name!r}")
    # lazy: the round trip and pydantic (~100 ms); listing a server's tools needs neither
    from toollens.mcp import calling

    return getattr(calling, name)
