"""FastMCP: ``FastMCP().tool(func)``, then the server's ``list_tools()`` as MCP tools."""

from __future__ import annotations

from toollens.core.schema.types import ToolFunction
from toollens.frameworks._spec import run_coroutine
from toollens.frameworks.records import Sent


def build(func: ToolFunction) -> Sent:
    from fastmcp import FastMCP

    server = FastMCP("toollens")
    server.tool(func)
    (tool,) = run_coroutine(server.list_tools())
    return Sent.from_model(tool.to_mcp_tool(), "inputSchema")
