"""A FastMCP (the standalone fastmcp package) server with a $defs tool and an output schema.

python fastmcp_tools.py
"""

from __future__ import annotations

from typing import Annotated

from _pidfile import record_pid
from fastmcp import FastMCP
from pydantic import BaseModel, Field

server = FastMCP("fastmcp-tools")


class Item(BaseModel):
    sku: str
    quantity: Annotated[int, Field(ge=1)]


class Receipt(BaseModel):
    total: float
    currency: str


@server.tool
def order(items: list[Item], note: str | None = None) -> Receipt:
    """Place an order for some items."""
    return Receipt(total=1.0, currency="EUR")


@server.tool(annotations={"destructiveHint": True})
def cancel(order_id: Annotated[str, Field(description="the order to cancel")]) -> str:
    """Cancel an order."""
    return order_id


if __name__ == "__main__":
    record_pid()
    server.run(show_banner=False)
