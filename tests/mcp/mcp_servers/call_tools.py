"""A server whose tools answer tools/call in every way a model can meet: text, structured
content, several content blocks, an ``isError`` result, a JSON-RPC error, and a hang.

python call_tools.py [--http PORT]
"""

from __future__ import annotations

import sys
import time
from typing import Annotated

from _pidfile import record_pid
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.utilities.types import Image
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, Field

server = MCPServer("call-tools")

# A 1x1 transparent PNG: an image content block the model receives as a data URL.
PIXEL = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082"
)


class Forecast(BaseModel):
    city: str
    celsius: float


@server.tool()
def get_weather(city: str, days: Annotated[int, Field(ge=1, le=7)] = 1) -> str:
    """The weather in a city for the next days."""
    return f"{city}: sunny for {days} day{'s' if days > 1 else ''}"


@server.tool()
def forecast(city: str) -> Forecast:
    """Tomorrow's forecast, as structured content."""
    return Forecast(city=city, celsius=21.5)


@server.tool(structured_output=False)
def chart(city: str) -> list[str | Image]:
    """A caption and a picture: two content blocks."""
    return [f"Rain in {city}", Image(data=PIXEL, format="png")]


@server.tool()
def refuse(city: str) -> str:
    """Always fails the way MCP tools report failures: an isError result."""
    raise ToolError(f"no weather station in {city}")


@server.tool()
def quota(city: str) -> str:
    """Always fails with a JSON-RPC error instead of a result."""
    raise MCPError(code=-32001, message=f"quota exceeded for {city}")


@server.tool()
def sleepy(seconds: float) -> str:
    """Answers after ``seconds``: past a short timeout."""
    time.sleep(seconds)
    return "awake"


if __name__ == "__main__":
    record_pid()
    if "--http" in sys.argv:
        port = int(sys.argv[sys.argv.index("--http") + 1])
        server.run("streamable-http", host="127.0.0.1", port=port)
    else:
        server.run()
