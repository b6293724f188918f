"""A small MCP server for lesson 08: a shop's tools, served over stdio with the mcp SDK.

python servers/shop.py            # serve
python servers/shop.py --broken   # fail at start, the way a misconfigured server does
"""

from __future__ import annotations

import sys
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from mcp.server.mcpserver import MCPServer

server = MCPServer("shop", version="1.4.0")


class Address(BaseModel):
    street: str
    city: str
    postcode: str


class Order(BaseModel):
    order_id: str
    status: Literal["open", "shipped", "delivered"]
    total_eur: float


@server.tool()
def search_products(
    query: Annotated[str, Field(description="Words to look for in product names")],
    max_results: Annotated[int, Field(description="How many products at most", ge=1, le=50)] = 10,
) -> list[str]:
    """Search the catalogue and return matching product names."""
    return [query][:max_results]


@server.tool()
def schedule_delivery(
    order_id: Annotated[str, Field(description="The order to deliver")],
    address: Address,
    tracking_page: Annotated[str, Field(json_schema_extra={"format": "uri"})],
    notes: dict[str, str] | None = None,
) -> str:
    """Schedule the delivery of an order to an address."""
    return order_id


@server.tool(annotations={"readOnlyHint": True})
def get_order(order_id: Annotated[str, Field(description="The order's id, e.g. A-1001")]) -> Order:
    """Look up an order's status and total."""
    return Order(order_id=order_id, status="open", total_eur=12.5)


if __name__ == "__main__":
    if "--broken" in sys.argv:
        print("shop: loading settings from SHOP_DATABASE_URL", file=sys.stderr)
        print("shop: error: SHOP_DATABASE_URL is not set", file=sys.stderr)
        sys.exit(1)
    server.run()
