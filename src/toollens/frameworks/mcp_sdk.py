"""MCP Python SDK: ``MCPServer().add_tool(func)``, then the server's own ``list_tools()``."""

from __future__ import annotations

from toollens.core.schema.types import ToolFunction
from toollens.frameworks._spec import run_coroutine
from toollens.frameworks.records import Sent


def build(func: ToolFunction) -> Sent:
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("toollens")
    server.add_tool(func)
    (tool,) = run_coroutine(server.list_tools())
    return Sent.from_model(tool, "inputSchema")
