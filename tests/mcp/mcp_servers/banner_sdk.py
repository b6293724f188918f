"""A server built with the mcp SDK that prints a banner and a log line to stdout before it
speaks MCP (as many real servers do: Azure MCP prints one log line first).

python banner_sdk.py
"""

from __future__ import annotations

import sys

from _pidfile import record_pid
from mcp.server.mcpserver import MCPServer

server = MCPServer("banner-tools")


@server.tool()
def echo(text: str) -> str:
    """Echo the text back."""
    return text


@server.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


if __name__ == "__main__":
    record_pid()
    print("Banner Tools 1.0 - listening on stdio", flush=True)  # stdout, not stderr
    print("INFO: 2 tools registered", flush=True)
    sys.stdout.flush()
    server.run()
