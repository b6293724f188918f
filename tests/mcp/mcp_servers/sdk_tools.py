"""A server built with the mcp SDK's MCPServer (FastMCP's successor); VARIANT picks its tools.

python sdk_tools.py clean|defs|formats|many|output [--http PORT]
"""

from __future__ import annotations

import sys
from typing import Annotated, Literal

from _pidfile import record_pid
from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, Field

server = MCPServer("sdk-tools")


class Address(BaseModel):
    street: str
    city: str


class Forecast(BaseModel):
    city: str
    celsius: float


def clean() -> None:
    @server.tool()
    def search(query: str, limit: int = 10) -> str:
        """Search the catalogue.

        Args:
            query: words to look for.
            limit: how many results at most.
        """
        return query

    @server.tool(annotations={"readOnlyHint": True})
    def get_time(zone: Literal["utc", "local"]) -> str:
        """The current time in a zone."""
        return zone


def defs() -> None:
    @server.tool()
    def ship(to: Address, backup: Address | None = None) -> str:
        """Ship a parcel to an address."""
        return to.city


def formats() -> None:
    @server.tool()
    def fetch_page(
        url: Annotated[str, Field(json_schema_extra={"format": "uri"})],
        retries: Annotated[int, Field(ge=1, le=5)] = 3,
        extra: dict[str, str] | None = None,
    ) -> str:
        """Fetch a web page."""
        return url


def many() -> None:
    for index in range(130):

        def tool(value: int) -> int:
            return value

        server.add_tool(tool, name=f"tool_{index:03d}", description=f"Tool number {index}.")


def output() -> None:
    @server.tool()
    def forecast(city: str) -> Forecast:
        """Tomorrow's forecast for a city."""
        return Forecast(city=city, celsius=21.5)


if __name__ == "__main__":
    record_pid()
    {"clean": clean, "defs": defs, "formats": formats, "many": many, "output": output}[
        sys.argv[1]
    ]()
    if "--http" in sys.argv:
        port = int(sys.argv[sys.argv.index("--http") + 1])
        server.run("streamable-http", host="127.0.0.1", port=port)
    else:
        server.run()
