"""MCP servers as targets: list a server's tools with the official ``mcp`` SDK and judge them.

``mcp:COMMAND ARGS...`` starts a server over stdio, ``mcp:http(s)://HOST:PORT/PATH`` connects
to a streamable-HTTP one, and ``#TOOL`` picks one tool. The ``mcp`` package is imported only
when a server is contacted (``pip install 'toollens[mcp]'``). Nothing here imports a UI.
"""

from __future__ import annotations

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
    "fetch_tools",
    "is_mcp_target",
    "parse_mcp_target",
]
