"""A small MCP server to try toollens on (docs/mcp.md shows this file)."""

from mcp.server.mcpserver import MCPServer

server = MCPServer("catalogue")


@server.tool()
def search(query: str, limit: int = 10) -> list[str]:
    """Search the catalogue for products.

    Args:
        query: Words to look for in product names and descriptions.
        limit: How many products to return, at most.
    """
    return [f"{query} {i}" for i in range(limit)]


@server.tool()
def get_product(sku: str) -> dict[str, str]:
    """Get one product by its SKU.

    Args:
        sku: The product's stock-keeping unit, as printed on its label.
    """
    return {"sku": sku, "name": "Green tea"}


if __name__ == "__main__":
    server.run()
