"""A low-level mcp Server serving hand-written raw tool definitions from a JSON file, two a page.

python lowlevel_raw.py TOOLS.json
"""

from __future__ import annotations

import json
import sys

import anyio
import mcp_types as types
from _pidfile import record_pid
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

PAGE = 2


def load() -> list[dict[str, object]]:
    with open(sys.argv[1], encoding="utf-8") as handle:
        tools: list[dict[str, object]] = json.load(handle)
    return tools


async def list_tools(
    ctx: object, params: types.PaginatedRequestParams | None
) -> types.ListToolsResult:
    tools = load()
    start = int(params.cursor) if params is not None and params.cursor else 0
    page = [types.Tool.model_validate(tool) for tool in tools[start : start + PAGE]]
    more = start + PAGE < len(tools)
    return types.ListToolsResult(tools=page, next_cursor=str(start + PAGE) if more else None)


async def main() -> None:
    server = Server("raw-tools", version="1.2.3", on_list_tools=list_tools)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    record_pid()
    anyio.run(main)
